// Step 1 of the signup wizard: basic details (spec part 1 "Signup").
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { PasswordInput } from '@/components/ui/password-input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm, type FieldErrors } from '@/lib/form';
import { captchaPayload, useCaptcha } from '@/lib/captcha';
import { signupPartner, signupSchema, type SignupInput } from '../api/signup';
import { CaptchaField } from '@/components/ui/captcha-field';

const empty: SignupInput = { first_name: '', last_name: '', phone_number: '', email: '', user_name: '', password: '' };

export function SignupForm() {
  const { captcha, isLoading, refresh } = useCaptcha('signup');
  const form = useZodForm(signupSchema, empty);
  const [answer, setAnswer] = useState('');
  const [sent, setSent] = useState(false);
  const msg = useTimedMessage();
  const mutation = useMutation({ mutationFn: (input: SignupInput) => signupPartner(input, captchaPayload(captcha, answer)) });

  const submit = form.handleSubmit((data) =>
    mutation.mutate(data, {
      onSuccess: () => {
        setSent(true);
        form.reset();
        setAnswer('');
        refresh();
      },
      onError: (err) => {
        if (err instanceof ApiError) form.setErrors(err.fields as FieldErrors<SignupInput>);
        msg.error(errorMessage(err));
        setAnswer('');
        refresh();
      },
    }),
  );

  return (
    <>
      <form className="form" onSubmit={submit} noValidate aria-label="Basic details">
        <Alert message={msg.message} onClose={msg.clear} />
        <div className="form-row">
          <Field label="First name" htmlFor="su-first" error={form.errors.first_name}>
            <input id="su-first" type="text" autoComplete="given-name" {...form.text('first_name')} />
          </Field>
          <Field label="Last name" htmlFor="su-last" error={form.errors.last_name}>
            <input id="su-last" type="text" autoComplete="family-name" {...form.text('last_name')} />
          </Field>
        </div>
        <div className="form-row">
          <Field label="Phone number" htmlFor="su-phone" error={form.errors.phone_number}>
            <input id="su-phone" type="tel" autoComplete="tel" {...form.text('phone_number')} />
          </Field>
          <Field label="Email" htmlFor="su-email" error={form.errors.email}>
            <input id="su-email" type="text" autoComplete="email" {...form.text('email')} />
          </Field>
        </div>
        <div className="form-row">
          <Field label="User name" htmlFor="su-user" error={form.errors.user_name}>
            <input id="su-user" type="text" autoComplete="username" {...form.text('user_name')} />
          </Field>
          <Field label="Password" htmlFor="su-password" error={form.errors.password}>
            <PasswordInput id="su-password" autoComplete="new-password" {...form.text('password')} />
          </Field>
        </div>
        <CaptchaField
          id="su-captcha"
          captcha={captcha}
          loading={isLoading}
          value={answer}
          onChange={setAnswer}
          onRefresh={() => {
            setAnswer('');
            refresh();
          }}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
          {mutation.isPending ? 'Wait...' : 'Submit'}
        </button>
      </form>
      <Modal
        open={sent}
        title="Verify email !"
        onClose={() => setSent(false)}
        size="sm"
        footer={
          <button type="button" className="btn btn-primary" onClick={() => setSent(false)}>
            OK
          </button>
        }
      >
        <p>A link has been sent to your email address. Please click on it to verify your email address.</p>
      </Modal>
    </>
  );
}
