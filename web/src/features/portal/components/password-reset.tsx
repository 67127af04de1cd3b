// Forgot password (only while the partner allows it) and the new-password form of the mailed
// link, both on the user's own partner site.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import {
  PASSWORD_GUIDANCE,
  forgotPassword,
  forgotPasswordSchema,
  resetPassword,
  resetPasswordSchema,
  useResetLink,
  type ResetPasswordInput,
} from '../api/account';
import { portalPaths } from '../paths';

export function ForgotPasswordForm() {
  const form = useZodForm(forgotPasswordSchema, { email: '' });
  const mutation = useMutation({ mutationFn: forgotPassword });
  const server = mutation.error instanceof ApiError ? mutation.error.fields : {};

  if (mutation.isSuccess) {
    return (
      <div className="form">
        <Alert message={{ kind: 'success', text: mutation.data.message }} />
        <p>The link works once, for one hour. Check your spam folder if it does not arrive.</p>
        <Link to={portalPaths.login}>Back to Login</Link>
      </div>
    );
  }
  return (
    <form className="form" noValidate aria-label="Forgot password" onSubmit={form.handleSubmit((data) => mutation.mutate(data))}>
      <p className="card-sub">Enter the e-mail address of your account: we will send you a link to set a new password.</p>
      {mutation.isError && !server.email && <Alert message={{ kind: 'error', text: errorMessage(mutation.error) }} />}
      <Field label="Email" htmlFor="forgot-email" error={form.errors.email ?? server.email}>
        <input id="forgot-email" type="email" autoComplete="email" {...form.text('email')} />
      </Field>
      <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
        {mutation.isPending ? 'Wait...' : 'Send link'}
      </button>
      <Link to={portalPaths.login}>Back to Login</Link>
    </form>
  );
}

export function ResetPasswordForm({ token }: { token: string }) {
  const link = useResetLink(token);
  const form = useZodForm(resetPasswordSchema, { new_password: '', confirm_new_password: '' });
  const mutation = useMutation({ mutationFn: (input: ResetPasswordInput) => resetPassword(token, input) });
  const [done, setDone] = useState<string | null>(null);
  const server = mutation.error instanceof ApiError ? mutation.error.fields : {};

  if (link.isPending) return <p className="muted">Checking the link...</p>;
  if (link.isError) {
    return (
      <div className="form">
        <Alert message={{ kind: 'error', text: errorMessage(link.error) }} />
        <Link to={portalPaths.forgotPassword}>Send a new link</Link>
      </div>
    );
  }
  if (done) {
    return (
      <div className="form">
        <Alert message={{ kind: 'success', text: done }} />
        <Link to={portalPaths.login} className="btn btn-primary btn-block">
          Login
        </Link>
      </div>
    );
  }
  return (
    <form
      className="form"
      noValidate
      aria-label="Set a new password"
      onSubmit={form.handleSubmit((data) => mutation.mutate(data, { onSuccess: (r) => setDone(r.message) }))}
    >
      <p className="card-sub">Hello {link.data.first_name}, choose a new password.</p>
      {mutation.isError && !Object.keys(server).length && <Alert message={{ kind: 'error', text: errorMessage(mutation.error) }} />}
      <Field label="New password" htmlFor="reset-new" error={form.errors.new_password ?? server.new_password} hint={PASSWORD_GUIDANCE}>
        <PasswordInput id="reset-new" autoComplete="new-password" {...form.text('new_password')} />
      </Field>
      <Field label="Confirm password" htmlFor="reset-confirm" error={form.errors.confirm_new_password ?? server.confirm_new_password}>
        <PasswordInput id="reset-confirm" autoComplete="new-password" {...form.text('confirm_new_password')} />
      </Field>
      <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
        {mutation.isPending ? 'Wait...' : 'Submit'}
      </button>
    </form>
  );
}
