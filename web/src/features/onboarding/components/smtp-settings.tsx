// My Account, SMTP: the saved settings with the password masked (a blank password keeps it),
// Save, and 'Send test mail', which runs through the job queue and reports the job's outcome.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { jobState, useJob } from '@/lib/jobs';
import { onboardingKeys } from '../api/keys';
import { smtpEditSchema, testSmtp, updateSmtp, useSmtp, type SmtpForm, type SmtpView } from '../api/smtp';

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

const formOf = (v: SmtpView): SmtpForm => ({
  host: v.host,
  port: v.port == null ? '' : String(v.port),
  user: v.user,
  password: '',
  from: v.from,
  company_name: v.company_name,
  secure: v.secure,
  active: v.active,
});

function TestMail({ disabled }: { disabled: boolean }) {
  const [jobId, setJobId] = useState<string | null>(null);
  const queue = useMutation({ mutationFn: testSmtp, onSuccess: (r) => setJobId(r.job_id) });
  const job = useJob(jobId);
  const state = jobId ? jobState(job.data) : null;
  return (
    <div className="smtp-test">
      <button type="button" className="btn btn-secondary" disabled={disabled || queue.isPending || state === 'pending'} onClick={() => queue.mutate()}>
        {queue.isPending || state === 'pending' ? 'Sending...' : 'Send test mail'}
      </button>
      <span role="status" className="smtp-test-state">
        {queue.isError && <span className="field-error">{errorMessage(queue.error)}</span>}
        {state === 'done' && <span className="credit">Test mail sent to your address.</span>}
        {state === 'failed' && <span className="field-error">Test mail failed: {job.data?.last_error ?? 'unknown error'}</span>}
      </span>
    </div>
  );
}

function SmtpForm({ saved, msg }: { saved: SmtpView; msg: ReturnType<typeof useTimedMessage> }) {
  const form = useZodForm<typeof smtpEditSchema, SmtpForm>(smtpEditSchema, formOf(saved));
  const qc = useQueryClient();
  const save = useMutation({ mutationFn: updateSmtp, onSuccess: (v) => qc.setQueryData(onboardingKeys.smtp(), v) });
  const submit = form.handleSubmit((data) =>
    save.mutate(data, {
      onSuccess: () => {
        form.setValue('password', '');
        msg.success('SMTP settings saved');
      },
      onError: (err) => msg.error(errorMessage(err)),
    }),
  );
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="SMTP">
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="form-row">
        <Field label="Host" htmlFor="acc-smtp-host" error={form.errors.host}>
          <input id="acc-smtp-host" type="text" {...form.text('host')} />
        </Field>
        <Field label="Port" htmlFor="acc-smtp-port" error={form.errors.port}>
          <input id="acc-smtp-port" type="text" inputMode="numeric" {...form.text('port')} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="User email" htmlFor="acc-smtp-user" error={form.errors.user}>
          <input id="acc-smtp-user" type="text" {...form.text('user')} />
        </Field>
        <Field
          label="Password"
          htmlFor="acc-smtp-password"
          error={form.errors.password}
          hint={saved.configured ? `Saved: ${saved.password}. Leave blank to keep it.` : undefined}
        >
          <PasswordInput id="acc-smtp-password" autoComplete="new-password" placeholder={saved.configured ? saved.password : ''} {...form.text('password')} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="From" htmlFor="acc-smtp-from" error={form.errors.from}>
          <input id="acc-smtp-from" type="text" {...form.text('from')} />
        </Field>
        <Field label="Company name" htmlFor="acc-smtp-company" error={form.errors.company_name}>
          <input id="acc-smtp-company" type="text" {...form.text('company_name')} />
        </Field>
      </div>
      <div className="form-row">
        <YesNo name="acc-smtp-secure" label="Secure connection" value={form.values.secure} onChange={(v) => form.setValue('secure', v)} />
        <YesNo name="acc-smtp-active" label="Active" value={form.values.active} onChange={(v) => form.setValue('active', v)} />
      </div>
      <div className="button-row">
        <TestMail disabled={!saved.configured || save.isPending} />
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Wait...' : 'Save'}
        </button>
      </div>
    </form>
  );
}

export function SmtpSettings() {
  const q = useSmtp();
  // Outside the form: a save remounts the form with the saved values, the message stays.
  const msg = useTimedMessage();
  if (q.isError) return <Alert message={{ kind: 'error', text: errorMessage(q.error) }} />;
  if (!q.data) return <p className="muted">Loading...</p>;
  // Keyed by what is saved: a save or a refetch starts the form from the server's values.
  return <SmtpForm key={JSON.stringify({ ...q.data, password: '' })} saved={q.data} msg={msg} />;
}
