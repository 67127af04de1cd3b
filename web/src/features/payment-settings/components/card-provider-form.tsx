// The card payment provider's modal: every field required; the key id and secret are typed
// afresh or left empty to keep the saved ones (they are never sent back in clear).
import { useState } from 'react';
import { Field } from '@/components/ui/field';
import { ImageUploadField } from '@/components/ui/image-upload-field';
import { PasswordInput } from '@/components/ui/password-input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { paiseToRupees } from '@/lib/money';
import { LOGO_MAX_BYTES, TOO_LARGE_1MB } from '@/lib/uploads';
import { cardSchema, useSaveCard, type CardProvider, type CardValues } from '../api/payment-settings';

const KEEP = 'Leave empty to keep the saved one';

export function CardProviderForm({ card, onSaved, onError }: { card: CardProvider; onSaved: () => void; onError: (text: string) => void }) {
  const schema = cardSchema(card.configured);
  const form = useZodForm<typeof schema, CardValues>(schema, {
    key_id: '',
    key_secret: '',
    name: card.name,
    description: card.description,
    logo_key: card.logo_key ?? '',
    minimum_api_amount: card.minimum_api_amount_paise === null ? '' : paiseToRupees(card.minimum_api_amount_paise),
    minimum_product_amount: card.minimum_product_amount_paise === null ? '' : paiseToRupees(card.minimum_product_amount_paise),
    theme_color: card.theme_color || '#3399CC',
    currency: 'INR',
  });
  const [uploads, setUploads] = useState(0);
  const save = useSaveCard();
  const { errors, values, setValue } = form;
  return (
    <form
      className="form"
      noValidate
      aria-label="Card payment provider"
      onSubmit={form.handleSubmit((d) =>
        save.mutate(
          {
            key_id: d.key_id,
            key_secret: d.key_secret,
            name: d.name,
            description: d.description,
            logo_key: d.logo_key,
            minimum_api_amount_paise: d.minimum_api_amount,
            minimum_product_amount_paise: d.minimum_product_amount,
            theme_color: d.theme_color,
            currency: d.currency,
          },
          {
            onSuccess: onSaved,
            onError: (e) => {
              if (e instanceof ApiError && Object.keys(e.fields).length) {
                const f = { ...e.fields };
                // The API speaks paise; the form's fields are rupees.
                if (f.minimum_api_amount_paise) f.minimum_api_amount = f.minimum_api_amount_paise;
                if (f.minimum_product_amount_paise) f.minimum_product_amount = f.minimum_product_amount_paise;
                form.setErrors(f);
              } else onError(errorMessage(e));
            },
          },
        ),
      )}
    >
      <div className="form-row">
        <Field label="Key Id" htmlFor="pay-key-id" error={errors.key_id} hint={card.configured ? `Saved: ${card.key_id}. ${KEEP}.` : undefined}>
          <input id="pay-key-id" type="text" autoComplete="off" spellCheck={false} placeholder={card.configured ? card.key_id : ''} {...form.text('key_id')} />
        </Field>
        <Field label="Key Secret" htmlFor="pay-key-secret" error={errors.key_secret} hint={card.configured ? `${KEEP}.` : undefined}>
          <PasswordInput id="pay-key-secret" autoComplete="new-password" placeholder={card.configured ? card.key_secret : ''} {...form.text('key_secret')} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="Name" htmlFor="pay-name" error={errors.name}>
          <input id="pay-name" type="text" {...form.text('name')} />
        </Field>
        <Field label="Currency" htmlFor="pay-currency" error={errors.currency}>
          <select id="pay-currency" value={values.currency} onChange={(e) => setValue('currency', e.target.value as 'INR')}>
            <option value="INR">INR</option>
          </select>
        </Field>
      </div>
      <Field label="Description" htmlFor="pay-description" error={errors.description}>
        <textarea id="pay-description" rows={2} {...form.text('description')} />
      </Field>
      <ImageUploadField
        id="pay-logo"
        label="Logo"
        hint="png, jpg or jpeg, under 1 MB"
        purpose="logo"
        maxBytes={LOGO_MAX_BYTES}
        tooLargeMessage={TOO_LARGE_1MB}
        error={errors.logo_key}
        onUploading={(busy) => setUploads((n) => n + (busy ? 1 : -1))}
        onUploaded={(k) => setValue('logo_key', k ?? card.logo_key ?? '')}
        currentUrl={card.logo_url}
      />
      <div className="form-row">
        <Field label="Minimum API amount (₹)" htmlFor="pay-min-api" error={errors.minimum_api_amount}>
          <input id="pay-min-api" type="text" inputMode="decimal" {...form.text('minimum_api_amount')} />
        </Field>
        <Field label="Minimum product amount (₹)" htmlFor="pay-min-product" error={errors.minimum_product_amount}>
          <input id="pay-min-product" type="text" inputMode="decimal" {...form.text('minimum_product_amount')} />
        </Field>
      </div>
      <Field label="Theme colour" htmlFor="pay-theme" error={errors.theme_color}>
        <div className="colour-field">
          <input type="color" aria-label="Theme colour picker" value={/^#[0-9a-f]{6}$/i.test(values.theme_color) ? values.theme_color : '#000000'} onChange={(e) => setValue('theme_color', e.target.value.toUpperCase())} />
          <input id="pay-theme" type="text" {...form.text('theme_color')} />
        </div>
      </Field>
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={save.isPending || uploads > 0}>
          {save.isPending ? 'Wait...' : uploads > 0 ? 'Uploading...' : 'Save'}
        </button>
      </div>
    </form>
  );
}
