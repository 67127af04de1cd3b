// 'Forgot password' (spec part 1 "Partner login"): email and username, then a
// 'Verify email' popup saying a link will be sent.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Modal } from '@/components/ui/modal';
import { Field } from '@/components/ui/field';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { forgotPasswordSchema, requestPasswordReset } from '../api/forgot-password';

export function ForgotPasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const form = useZodForm(forgotPasswordSchema, { email: '', user_name: '' });
  const [sent, setSent] = useState(false);
  const msg = useTimedMessage();
  const mutation = useMutation({ mutationFn: requestPasswordReset });

  const close = () => {
    form.reset();
    setSent(false);
    onClose();
  };

  const submit = form.handleSubmit((data) =>
    mutation.mutate(data, { onSuccess: () => setSent(true), onError: (err) => msg.error(errorMessage(err)) }),
  );

  if (sent) {
    return (
      <Modal
        open={open}
        title="Verify email"
        onClose={close}
        size="sm"
        footer={
          <button type="button" className="btn btn-primary" onClick={close}>
            OK
          </button>
        }
      >
        <p>A link will be sent to your email address to reset your password.</p>
      </Modal>
    );
  }

  return (
    <Modal open={open} title="Forgot password" onClose={close} size="sm">
      <form className="form" onSubmit={submit} noValidate>
        <Alert message={msg.message} onClose={msg.clear} />
        <Field label="Email" htmlFor="forgot-email" error={form.errors.email}>
          <input
            id="forgot-email"
            type="email"
            value={form.values.email}
            onChange={(e) => form.setValue('email', e.target.value.toLowerCase())}
          />
        </Field>
        <Field label="Username" htmlFor="forgot-username" error={form.errors.user_name}>
          <input id="forgot-username" type="text" {...form.text('user_name')} />
        </Field>
        <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
          {mutation.isPending ? 'Wait...' : 'Send'}
        </button>
      </form>
    </Modal>
  );
}
