// The mailed sign-up link: the password chosen at sign-up verifies the address and signs in.
// A link from someone else's attempt on the same address does not open with the owner's
// password (the api checks it).
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { verifyEmail, verifyEmailSchema, type VerifyEmailInput } from '../api/account';
import type { UserSession } from '../api/types';
import { portalPaths } from '../paths';

type Props = { token: string; onVerified: (session: UserSession) => void };

export function VerifyEmailForm({ token, onVerified }: Props) {
  const form = useZodForm(verifyEmailSchema, { password: '' });
  const mutation = useMutation({ mutationFn: (input: VerifyEmailInput) => verifyEmail(token, input) });
  const server = mutation.error instanceof ApiError ? mutation.error.fields : {};
  return (
    <form
      className="form"
      noValidate
      aria-label="Verify email"
      onSubmit={form.handleSubmit((data) => mutation.mutate(data, { onSuccess: (session) => onVerified(session) }))}
    >
      <p className="card-sub">Enter the password you chose when you signed up.</p>
      {mutation.isError && !server.password && <Alert message={{ kind: 'error', text: errorMessage(mutation.error) }} />}
      <Field label="Password" htmlFor="verify-password" error={form.errors.password ?? server.password}>
        <PasswordInput id="verify-password" autoComplete="current-password" {...form.text('password')} />
      </Field>
      <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
        {mutation.isPending ? 'Wait...' : 'Verify and sign in'}
      </button>
      <Link to={portalPaths.login}>Back to Login</Link>
    </form>
  );
}
