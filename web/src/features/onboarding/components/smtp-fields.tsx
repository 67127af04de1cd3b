// The SMTP form's fields, written once for the wizard's step 5 (smtp-step) and My Account's
// SMTP tab (smtp-settings): host, port, user, password, from, company name, secure, active.
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import type { useZodForm } from '@/lib/form';
import type { smtpSchema, SmtpForm } from '../api/smtp';

/** What the fields read and write of either form (their schemas differ only in the password). */
type SmtpFormState = Pick<ReturnType<typeof useZodForm<typeof smtpSchema, SmtpForm>>, 'values' | 'errors' | 'text' | 'setValue'>;

function YesNo(props: { name: string; label: string; value: boolean; onChange: (v: boolean) => void }) {
  return (
    <div className="field" role="radiogroup" aria-label={props.label}>
      <span className="field-label">{props.label}</span>
      <div className="radio-group">
        <label>
          <input type="radio" name={props.name} checked={props.value} onChange={() => props.onChange(true)} /> Yes
        </label>
        <label>
          <input type="radio" name={props.name} checked={!props.value} onChange={() => props.onChange(false)} /> No
        </label>
      </div>
    </div>
  );
}

type Props = {
  form: SmtpFormState;
  /** Prefix of the inputs' ids and the radio groups' names: one page may hold both forms' ids apart. */
  idPrefix: string;
  /** My Account: the saved password, masked, which a blank field keeps. */
  savedPassword?: string;
};

export function SmtpFields({ form, idPrefix: p, savedPassword }: Props) {
  return (
    <>
      <div className="form-row">
        <Field label="Host" htmlFor={`${p}-host`} error={form.errors.host}>
          <input id={`${p}-host`} type="text" {...form.text('host')} />
        </Field>
        <Field label="Port" htmlFor={`${p}-port`} error={form.errors.port}>
          <input id={`${p}-port`} type="text" inputMode="numeric" {...form.text('port')} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="User email" htmlFor={`${p}-user`} error={form.errors.user}>
          <input id={`${p}-user`} type="text" {...form.text('user')} />
        </Field>
        <Field
          label="Password"
          htmlFor={`${p}-password`}
          error={form.errors.password}
          hint={savedPassword !== undefined ? `Saved: ${savedPassword}. Leave blank to keep it.` : undefined}
        >
          <PasswordInput id={`${p}-password`} autoComplete="new-password" placeholder={savedPassword} {...form.text('password')} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="From" htmlFor={`${p}-from`} error={form.errors.from}>
          <input id={`${p}-from`} type="text" {...form.text('from')} />
        </Field>
        <Field label="Company name" htmlFor={`${p}-company`} error={form.errors.company_name}>
          <input id={`${p}-company`} type="text" {...form.text('company_name')} />
        </Field>
      </div>
      <div className="form-row">
        <YesNo name={`${p}-secure`} label="Secure connection" value={form.values.secure} onChange={(v) => form.setValue('secure', v)} />
        <YesNo name={`${p}-active`} label="Active" value={form.values.active} onChange={(v) => form.setValue('active', v)} />
      </div>
    </>
  );
}
