// Step 5: the partner's outgoing mail server, or Skip.
import { useMutation } from '@tanstack/react-query';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
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
  const form = useZodForm<typeof smtpSchema, SmtpForm>(smtpSchema, {
    host: '',
    port: '',
    user: '',
    password: '',
    from: '',
    company_name: '',
    secure: true,
    active: true,
  });
  const msg = useTimedMessage();
  const save = useMutation({ mutationFn: updateSmtp });
  const skip = useMutation({ mutationFn: skipSmtp });
  const busy = save.isPending || skip.isPending;

  const submit = form.handleSubmit((data) =>
    save.mutate(data, { onSuccess: onDone, onError: (err) => msg.error(errorMessage(err)) }),
  );

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="SMTP Details">
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="form-row">
        <Field label="Host" htmlFor="smtp-host" error={form.errors.host}>
          <input id="smtp-host" type="text" {...form.text('host')} />
        </Field>
        <Field label="Port" htmlFor="smtp-port" error={form.errors.port}>
          <input id="smtp-port" type="text" inputMode="numeric" {...form.text('port')} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="User email" htmlFor="smtp-user" error={form.errors.user}>
          <input id="smtp-user" type="text" {...form.text('user')} />
        </Field>
        <Field label="Password" htmlFor="smtp-password" error={form.errors.password}>
          <PasswordInput id="smtp-password" autoComplete="new-password" {...form.text('password')} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="From" htmlFor="smtp-from" error={form.errors.from}>
          <input id="smtp-from" type="text" {...form.text('from')} />
        </Field>
        <Field label="Company name" htmlFor="smtp-company" error={form.errors.company_name}>
          <input id="smtp-company" type="text" {...form.text('company_name')} />
        </Field>
      </div>
      <div className="form-row">
        <YesNo name="smtp-secure" label="Secure connection" value={form.values.secure} onChange={(v) => form.setValue('secure', v)} />
        <YesNo name="smtp-active" label="Active" value={form.values.active} onChange={(v) => form.setValue('active', v)} />
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
