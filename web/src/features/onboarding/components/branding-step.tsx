// Step 4: logo, favicon, title, description and the three theme colours; My Account's Theme
// tab is the same form started from the saved branding (`saved`), where the stored logo and
// favicon stay unless a new file is chosen.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { DEFAULT_THEME } from '@/lib/theme';
import { FAVICON_MAX_BYTES, LOGO_MAX_BYTES } from '@/lib/uploads';
import { FAVICON_TOO_LARGE, LOGO_TOO_LARGE, brandingSchema, updateBranding, type BrandingInput } from '../api/branding';
import { ColourField } from './colour-field';
import { ImageUploadField } from '@/components/ui/image-upload-field';

type Values = Omit<BrandingInput, 'logo_key' | 'favicon_key'> & { logo_key?: string; favicon_key?: string };

export type SavedBranding = Values & { logo_url?: string | null; favicon_url?: string | null };

type Props = { userName: string; onDone: () => void; saved?: SavedBranding; submitLabel?: string };

export function BrandingStep({ userName, onDone, saved, submitLabel = 'Next' }: Props) {
  const form = useZodForm<typeof brandingSchema, Values>(
    brandingSchema,
    saved
      ? { title: saved.title, description: saved.description, primary: saved.primary, secondary: saved.secondary, tertiary: saved.tertiary, logo_key: saved.logo_key, favicon_key: saved.favicon_key }
      : { title: `${userName} - Home`, description: `${userName} - API KYC Solution`, ...DEFAULT_THEME },
  );
  const [uploads, setUploads] = useState(0);
  const msg = useTimedMessage();
  const mutation = useMutation({ mutationFn: updateBranding });

  const { values, errors, setValue: set } = form;
  const uploading = (busy: boolean) => setUploads((n) => n + (busy ? 1 : -1));
  const uploaded = (key: 'logo_key' | 'favicon_key', value: string | undefined) => {
    set(key, value);
    if (value) form.setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const submit = form.handleSubmit((data) =>
    mutation.mutate(data, { onSuccess: onDone, onError: (err) => msg.error(errorMessage(err)) }),
  );

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Upload logo">
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="form-row">
        <ImageUploadField
          id="br-logo"
          label="Logo"
          hint="Recommended size: 130-135 x 20-25 px (png, jpg, jpeg)"
          purpose="logo"
          maxBytes={LOGO_MAX_BYTES}
          tooLargeMessage={LOGO_TOO_LARGE}
          error={errors.logo_key}
          onUploading={uploading}
          onUploaded={(k) => uploaded('logo_key', k ?? saved?.logo_key)}
          currentUrl={saved?.logo_url}
        />
        <ImageUploadField
          id="br-favicon"
          label="Favicon"
          hint="Recommended size: 15 x 15 px (png, jpg, jpeg)"
          purpose="favicon"
          maxBytes={FAVICON_MAX_BYTES}
          tooLargeMessage={FAVICON_TOO_LARGE}
          error={errors.favicon_key}
          onUploading={uploading}
          onUploaded={(k) => uploaded('favicon_key', k ?? saved?.favicon_key)}
          currentUrl={saved?.favicon_url}
        />
      </div>
      <div className="form-row">
        <Field label="Title" htmlFor="br-title" error={errors.title}>
          <input id="br-title" type="text" value={values.title} onChange={(e) => set('title', e.target.value)} />
        </Field>
        <Field label="Description" htmlFor="br-description" error={errors.description}>
          <input id="br-description" type="text" value={values.description} onChange={(e) => set('description', e.target.value)} />
        </Field>
      </div>
      <div className="form-row three">
        <ColourField id="br-primary" label="Primary colour" value={values.primary} error={errors.primary} onChange={(v) => set('primary', v)} />
        <ColourField id="br-secondary" label="Secondary colour" value={values.secondary} error={errors.secondary} onChange={(v) => set('secondary', v)} />
        <ColourField id="br-tertiary" label="Tertiary colour" value={values.tertiary} error={errors.tertiary} onChange={(v) => set('tertiary', v)} />
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending || uploads > 0}>
        {mutation.isPending ? 'Wait...' : submitLabel}
      </button>
      {uploads > 0 && (
        <div className="overlay" role="status">
          Uploading, Please wait...
        </div>
      )}
    </form>
  );
}
