// /set-new-password/: new and confirm password for the mailed reset link.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import {
  PASSWORD_GUIDANCE,
  RESET_TOKEN_KEY,
  RESET_USER_KEY,
  SESSION_EXPIRED,
  resetPassword,
  setNewPasswordSchema,
  type SetNewPasswordInput,
} from '../api/passwords';

export function SetNewPasswordForm() {
  const navigate = useNavigate();
  const token = sessionStorage.getItem(RESET_TOKEN_KEY);
  const form = useZodForm(setNewPasswordSchema, { new_password: '', confirm_new_password: '' });
  const [expired, setExpired] = useState(!token);
  const msg = useTimedMessage();
  const mutation = useMutation({ mutationFn: (input: SetNewPasswordInput) => resetPassword(token ?? '', input) });
  const forgetLink = () => {
    sessionStorage.removeItem(RESET_TOKEN_KEY);
    sessionStorage.removeItem(RESET_USER_KEY);
  };

  if (expired) {
    return (
      <div className="form">
        <p className="field-error" role="alert">
          {SESSION_EXPIRED}
        </p>
        <Link to="/auth">Log In</Link>
      </div>
    );
  }

  const submit = form.handleSubmit((data) =>
    mutation.mutate(data, {
      onSuccess: () => {
        forgetLink();
        navigate('/auth', { replace: true });
      },
      onError: (err) => {
        if (err instanceof ApiError && err.status === 400) {
          forgetLink();
          setExpired(true);
        } else msg.error(errorMessage(err));
      },
    }),
  );

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Set new password">
      <Alert message={msg.message} onClose={msg.clear} />
      <p className="field-hint">{PASSWORD_GUIDANCE}</p>
      <Field label="New Password" htmlFor="np-new" error={form.errors.new_password}>
        <PasswordInput id="np-new" autoComplete="new-password" {...form.text('new_password')} />
      </Field>
      <Field label="Confirm Password" htmlFor="np-confirm" error={form.errors.confirm_new_password}>
        <PasswordInput id="np-confirm" autoComplete="new-password" {...form.text('confirm_new_password')} />
      </Field>
      <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
        {mutation.isPending ? 'Wait...' : 'Submit'}
      </button>
    </form>
  );
}
