// 'Forgot password' (spec part 1 "Partner login"): email and username, then a
// 'Verify email' popup saying a link will be sent.
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Modal } from '@/components/ui/modal';
import { Field } from '@/components/ui/field';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { errorMessage } from '@/lib/api-client';
import { validate, type FieldErrors } from '@/lib/form';
import { forgotPasswordSchema, requestPasswordReset, type ForgotPasswordInput } from '../api/forgot-password';

export function ForgotPasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [values, setValues] = useState({ email: '', user_name: '' });
  const [errors, setErrors] = useState<FieldErrors<ForgotPasswordInput>>({});
  const [sent, setSent] = useState(false);
  const msg = useTimedMessage();
  const mutation = useMutation({ mutationFn: requestPasswordReset });

  const close = () => {
    setValues({ email: '', user_name: '' });
    setErrors({});
    setSent(false);
    onClose();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = validate(forgotPasswordSchema, values);
    if (!r.ok) return setErrors(r.errors);
    setErrors({});
    mutation.mutate(r.data, {
      onSuccess: () => setSent(true),
      onError: (err) => msg.error(errorMessage(err)),
    });
  };

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
        <Field label="Email" htmlFor="forgot-email" error={errors.email}>
          <input
            id="forgot-email"
            type="email"
            value={values.email}
            onChange={(e) => setValues({ ...values, email: e.target.value.toLowerCase() })}
          />
        </Field>
        <Field label="Username" htmlFor="forgot-username" error={errors.user_name}>
          <input
            id="forgot-username"
            type="text"
            value={values.user_name}
            onChange={(e) => setValues({ ...values, user_name: e.target.value })}
          />
        </Field>
        <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
          {mutation.isPending ? 'Wait...' : 'Send'}
        </button>
      </form>
    </Modal>
  );
}
