// Step 5: the partner's outgoing mail server, or Skip.
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { errorMessage } from '@/lib/api-client';
import { validate, type FieldErrors } from '@/lib/form';
import { skipSmtp, smtpSchema, updateSmtp, type SmtpForm } from '../api/smtp';

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

export function SmtpStep({ onDone }: { onDone: () => void }) {
  const [values, setValues] = useState<SmtpForm>({
    host: '',
    port: '',
    user: '',
    password: '',
    from: '',
    company_name: '',
    secure: true,
    active: true,
  });
  const [errors, setErrors] = useState<FieldErrors<SmtpForm>>({});
  const msg = useTimedMessage();
  const save = useMutation({ mutationFn: updateSmtp });
  const skip = useMutation({ mutationFn: skipSmtp });
  const busy = save.isPending || skip.isPending;

  const text = (key: keyof SmtpForm) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = validate(smtpSchema, values);
    if (!r.ok) return setErrors(r.errors);
    setErrors({});
    save.mutate(r.data, { onSuccess: onDone, onError: (err) => msg.error(errorMessage(err)) });
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="SMTP Details">
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="form-row">
        <Field label="Host" htmlFor="smtp-host" error={errors.host}>
          <input id="smtp-host" type="text" value={values.host} onChange={text('host')} />
        </Field>
        <Field label="Port" htmlFor="smtp-port" error={errors.port}>
          <input id="smtp-port" type="text" inputMode="numeric" value={values.port} onChange={text('port')} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="User email" htmlFor="smtp-user" error={errors.user}>
          <input id="smtp-user" type="text" value={values.user} onChange={text('user')} />
        </Field>
        <Field label="Password" htmlFor="smtp-password" error={errors.password}>
          <PasswordInput id="smtp-password" autoComplete="new-password" value={values.password} onChange={text('password')} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="From" htmlFor="smtp-from" error={errors.from}>
          <input id="smtp-from" type="text" value={values.from} onChange={text('from')} />
        </Field>
        <Field label="Company name" htmlFor="smtp-company" error={errors.company_name}>
          <input id="smtp-company" type="text" value={values.company_name} onChange={text('company_name')} />
        </Field>
      </div>
      <div className="form-row">
        <YesNo name="smtp-secure" label="Secure connection" value={values.secure} onChange={(v) => setValues({ ...values, secure: v })} />
        <YesNo name="smtp-active" label="Active" value={values.active} onChange={(v) => setValues({ ...values, active: v })} />
      </div>
      <div className="button-row">
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => skip.mutate(undefined, { onSuccess: onDone, onError: (err) => msg.error(errorMessage(err)) })}>
          {skip.isPending ? 'Wait...' : 'Skip'}
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {save.isPending ? 'Wait...' : 'Submit'}
        </button>
      </div>
    </form>
  );
}
