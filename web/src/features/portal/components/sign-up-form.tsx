// Self sign-up on the partner's site (only while its Signup Customization allows it): the
// account's details, the partner's terms to accept when it shows them, and the captcha. The
// address is verified by a mailed link before the first session; the answer is the same
// whether or not the address already had an account.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { CaptchaField } from '@/components/ui/captcha-field';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { RichText } from '@/components/ui/rich-text';
import { ApiError, errorMessage } from '@/lib/api-client';
import { captchaPayload, useCaptcha } from '@/lib/captcha';
import { useZodForm } from '@/lib/form';
import { PASSWORD_GUIDANCE, signUp, signUpSchema, type SignUpInput } from '../api/account';
import type { PublicPortal } from '../api/types';
import { portalPaths } from '../paths';

type Props = { signup: PublicPortal['signup'] };

export function SignUpForm({ signup }: Props) {
  const { captcha, isLoading: captchaLoading, refresh } = useCaptcha('portal-signup');
  const [answer, setAnswer] = useState('');
  const msg = useTimedMessage();
  const form = useZodForm(signUpSchema(signup.terms), {
    first_name: '',
    last_name: '',
    email: '',
    phone_number: '',
    password: '',
    confirm_password: '',
    accept_terms: false,
  });
  const mutation = useMutation({ mutationFn: (input: SignUpInput) => signUp(input, captchaPayload(captcha, answer)) });
  const server = mutation.error instanceof ApiError ? mutation.error.fields : {};
  const err = (k: keyof typeof form.values) => form.errors[k] ?? server[k];

  const submit = form.handleSubmit((data) =>
    mutation.mutate(data, {
      onError: (e) => {
        msg.error(errorMessage(e));
        setAnswer('');
        refresh();
      },
    }),
  );

  if (mutation.isSuccess) {
    return (
      <div className="form">
        <Alert message={{ kind: 'success', text: mutation.data.message }} />
        <p>The link works once, for 24 hours. Check your spam folder if it does not arrive.</p>
        <Link to={portalPaths.login}>Back to Login</Link>
      </div>
    );
  }
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Sign up">
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="form-row">
        <Field label="First name" htmlFor="signup-first" error={err('first_name')}>
          <input id="signup-first" type="text" autoComplete="given-name" {...form.text('first_name')} />
        </Field>
        <Field label="Last name" htmlFor="signup-last" error={err('last_name')}>
          <input id="signup-last" type="text" autoComplete="family-name" {...form.text('last_name')} />
        </Field>
      </div>
      <Field label="Email" htmlFor="signup-email" error={err('email')}>
        <input id="signup-email" type="email" autoComplete="email" {...form.text('email')} />
      </Field>
      <Field label="Phone number" htmlFor="signup-phone" error={err('phone_number')}>
        <input id="signup-phone" type="tel" inputMode="numeric" autoComplete="tel" {...form.text('phone_number')} />
      </Field>
      <Field label="Password" htmlFor="signup-password" error={err('password')} hint={PASSWORD_GUIDANCE}>
        <PasswordInput id="signup-password" autoComplete="new-password" {...form.text('password')} />
      </Field>
      <Field label="Confirm password" htmlFor="signup-confirm" error={err('confirm_password')}>
        <PasswordInput id="signup-confirm" autoComplete="new-password" {...form.text('confirm_password')} />
      </Field>
      <CaptchaField
        id="signup-captcha"
        captcha={captcha}
        loading={captchaLoading}
        value={answer}
        onChange={setAnswer}
        onRefresh={() => {
          setAnswer('');
          refresh();
        }}
      />
      {signup.terms && (
        <div className="field">
          {signup.terms_html.trim() ? (
            <section className="terms-box" aria-label="Terms and conditions" tabIndex={0}>
              <RichText html={signup.terms_html} />
            </section>
          ) : (
            <a href="/terms-and-conditions" target="_blank" rel="noreferrer">
              Read the Terms and Conditions
            </a>
          )}
          <label className="checkbox">
            <input type="checkbox" checked={form.values.accept_terms} onChange={(e) => form.setValue('accept_terms', e.target.checked)} />
            <span>I agree to the Terms and Conditions</span>
          </label>
          {err('accept_terms') && <span className="field-error">{err('accept_terms')}</span>}
        </div>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
        {mutation.isPending ? 'Wait...' : 'Sign Up'}
      </button>
      <p className="center">
        Already have an account? <Link to={portalPaths.login}>Log In</Link>
      </p>
    </form>
  );
}
