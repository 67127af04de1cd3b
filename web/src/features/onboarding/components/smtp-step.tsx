// Step 5: the partner's outgoing mail server, or Skip.
import { useMutation } from '@tanstack/react-query';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { skipSmtp, smtpSchema, updateSmtp, type SmtpForm } from '../api/smtp';
import { SmtpFields } from './smtp-fields';

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
      <SmtpFields form={form} idPrefix="smtp" />
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
