// End-user sign-in on the partner's site: e-mail, password and the captcha.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { CaptchaField } from '@/components/ui/captcha-field';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { errorMessage } from '@/lib/api-client';
import { captchaPayload, useCaptcha } from '@/lib/captcha';
import { useZodForm } from '@/lib/form';
import { signIn, signInSchema, type SignInInput } from '../api/sign-in';
import type { UserSession } from '../api/types';
import { portalPaths } from '../paths';

type Props = {
  /** Forgot password is offered only while the partner allows it. */
  forgotPassword: boolean;
  signUp: boolean;
  onSignedIn: (session: UserSession) => void;
};

export function SignInForm({ forgotPassword, signUp, onSignedIn }: Props) {
  const { captcha, isLoading: captchaLoading, refresh } = useCaptcha('portal-login');
  const form = useZodForm(signInSchema, { email: '', password: '' });
  const [answer, setAnswer] = useState('');
  const msg = useTimedMessage();
  const mutation = useMutation({ mutationFn: (input: SignInInput) => signIn(input, captchaPayload(captcha, answer)) });

  const resetCaptcha = () => {
    setAnswer('');
    refresh();
  };

  const submit = form.handleSubmit((data) =>
    mutation.mutate(data, {
      onSuccess: onSignedIn,
      onError: (err) => {
        msg.error(errorMessage(err));
        resetCaptcha();
      },
    }),
  );

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Login">
      <Alert message={msg.message} onClose={msg.clear} />
      <Field label="Email" htmlFor="portal-login-email" error={form.errors.email}>
        <input id="portal-login-email" type="email" autoComplete="username" {...form.text('email')} />
      </Field>
      <Field label="Password" htmlFor="portal-login-password" error={form.errors.password}>
        <PasswordInput id="portal-login-password" autoComplete="current-password" {...form.text('password')} />
      </Field>
      <CaptchaField id="portal-login-captcha" captcha={captcha} loading={captchaLoading} value={answer} onChange={setAnswer} onRefresh={resetCaptcha} />
      {forgotPassword && (
        <div className="form-links">
          <Link to={portalPaths.forgotPassword}>Forgot password</Link>
        </div>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
        {mutation.isPending ? 'Wait...' : 'Login'}
      </button>
      {signUp && (
        <p className="center">
          New here? <Link to={portalPaths.signup}>Create an account</Link>
        </p>
      )}
    </form>
  );
}
