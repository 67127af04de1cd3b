// Partner login (spec part 1 "Partner login").
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { errorMessage } from '@/lib/api-client';
import { decodeJwt, setPartnerToken, type PartnerClaims } from '@/lib/auth';
import { useZodForm } from '@/lib/form';
import { captchaPayload, useCaptcha } from '@/lib/captcha';
import { loginPartner, loginSchema, type LoginInput } from '../api/login';
import { CaptchaField } from '@/components/ui/captcha-field';
import { ForgotPasswordModal } from './forgot-password-modal';

/**
 * Where a partner goes after signing in: with a sub-domain in the token the
 * status check decides between /dashboard and /complete-details; without one,
 * straight to /complete-details.
 */
export async function afterLoginPath(token: string, checkStatus: () => Promise<{ onboarding_step: number }>) {
  const claims = decodeJwt<PartnerClaims>(token);
  if (!claims?.subdomain) return '/complete-details';
  try {
    const status = await checkStatus();
    return status.onboarding_step >= 6 ? '/dashboard' : '/complete-details';
  } catch {
    return '/complete-details';
  }
}

type Props = {
  checkStatus: () => Promise<{ onboarding_step: number }>;
  /** Called once the token is stored: the app drops what an earlier session left cached. */
  onSignedIn?: () => void;
};

export function LoginForm({ checkStatus, onSignedIn }: Props) {
  const navigate = useNavigate();
  const { captcha, isLoading: captchaLoading, refresh } = useCaptcha('partner-login');
  const form = useZodForm(loginSchema, { email: '', password: '', terms: false });
  const [answer, setAnswer] = useState('');
  const [forgotOpen, setForgotOpen] = useState(false);
  const msg = useTimedMessage();

  const mutation = useMutation({
    mutationFn: (input: LoginInput) => loginPartner(input, captchaPayload(captcha, answer)),
  });

  const resetCaptcha = () => {
    setAnswer('');
    refresh();
  };

  const submit = form.handleSubmit((data) =>
    mutation.mutate(data, {
      onSuccess: async ({ token }) => {
        setPartnerToken(token);
        onSignedIn?.();
        navigate(await afterLoginPath(token, checkStatus), { replace: true });
      },
      onError: (err) => {
        msg.error(errorMessage(err));
        resetCaptcha();
      },
    }),
  );

  return (
    <>
      <form className="form" onSubmit={submit} noValidate aria-label="Login">
        <Alert message={msg.message} onClose={msg.clear} />
        <Field label="Email" htmlFor="login-email" error={form.errors.email}>
          <input id="login-email" type="email" autoComplete="username" {...form.text('email')} />
        </Field>
        <Field label="Password" htmlFor="login-password" error={form.errors.password}>
          <PasswordInput id="login-password" autoComplete="current-password" {...form.text('password')} />
        </Field>
        <CaptchaField
          id="login-captcha"
          captcha={captcha}
          loading={captchaLoading}
          value={answer}
          onChange={setAnswer}
          onRefresh={resetCaptcha}
        />
        <div className="field">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={form.values.terms}
              onChange={(e) => form.setValue('terms', e.target.checked)}
            />
            <span>I agree to the Terms and Conditions</span>
          </label>
          {form.errors.terms && <span className="field-error">{form.errors.terms}</span>}
        </div>
        <div className="form-links">
          <button type="button" className="link-button" onClick={() => setForgotOpen(true)}>
            Forgot password
          </button>
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
          {mutation.isPending ? 'Wait...' : 'Login'}
        </button>
      </form>
      <ForgotPasswordModal open={forgotOpen} onClose={() => setForgotOpen(false)} />
    </>
  );
}
