// My Account, SMTP: the saved settings with the password masked (a blank password keeps it),
// Save, and 'Send test mail', which runs through the job queue and reports the job's outcome;
// above them, the warning of the last mail the server failed, which a test mail that goes
// through (or a save) clears.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { jobState, useJob } from '@/lib/jobs';
import { onboardingKeys } from '../api/keys';
import { smtpEditSchema, testSmtp, updateSmtp, useSmtp, type SmtpForm, type SmtpView } from '../api/smtp';
import { SmtpFailureWarning } from './smtp-failure';
import { SmtpFields } from './smtp-fields';

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
  const qc = useQueryClient();
  // The test's outcome sets or clears the warning: read it again once the job has ended.
  useEffect(() => {
    if (state === 'done' || state === 'failed') void qc.invalidateQueries({ queryKey: onboardingKeys.smtp() });
  }, [state, qc]);
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
      <SmtpFields form={form} idPrefix="acc-smtp" savedPassword={saved.configured ? saved.password : undefined} />
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
  const { last_failure, ...settings } = q.data;
  // Keyed by what is saved: a save or a refetch starts the form from the server's values (not
  // by the warning, so a test mail's outcome stays on screen when the warning changes).
  return (
    <>
      {last_failure && <SmtpFailureWarning failure={last_failure} />}
      <SmtpForm key={JSON.stringify({ ...settings, password: '' })} saved={q.data} msg={msg} />
    </>
  );
}
