// The one sign-in form of the app: e-mail, password and the built-in captcha, for the
// partner's, the super admin's and the end user's login. Each passes its own check (schema),
// call and labels; a failed sign-in shows the server's message and fetches a new captcha.
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { errorMessage } from '@/lib/api-client';
import { captchaPayload, useCaptcha, type CaptchaAnswer } from '@/lib/captcha';
import { useZodForm } from '@/lib/form';
import { Alert, useTimedMessage } from './alert';
import { CaptchaField } from './captcha-field';
import { Field } from './field';
import { PasswordInput } from './password-input';

/** The values every sign-in form holds; a form may hold more (the partner's terms box). */
export type CredentialsValues = { email: string; password: string; captcha: string };

type Props<S extends z.ZodTypeAny, V extends CredentialsValues, R> = {
  /** The form's accessible name. */
  label: string;
  /** Prefix of the inputs' ids (`{idPrefix}-email`, `-password`, `-captcha`). */
  idPrefix: string;
  /** The captcha's own key: each form keeps its captcha apart. */
  captchaKey: string;
  /** Checks the values; a schema without `captcha` leaves an empty answer to the server. */
  schema: S;
  /** The values a form holds beyond the three (the partner's terms box), with theirs. */
  initial?: V;
  emailLabel?: string;
  emailPlaceholder?: string;
  signIn: (input: z.infer<S>, captcha: CaptchaAnswer) => Promise<R>;
  onSignedIn: (result: R, input: z.infer<S>) => void | Promise<void>;
  /** Between the captcha and the button (a terms box, a forgot-password link). */
  extras?: (form: { values: V; errors: Partial<Record<keyof V & string, string>>; setValue: <K extends keyof V>(key: K, value: V[K]) => void }) => ReactNode;
  /** Below the button. */
  footer?: ReactNode;
};

export function CredentialsForm<S extends z.ZodTypeAny, V extends CredentialsValues, R>(props: Props<S, V, R>) {
  const { label, idPrefix, captchaKey, schema, initial, emailLabel = 'Email', emailPlaceholder, signIn, onSignedIn, extras, footer } = props;
  const { captcha, isLoading: captchaLoading, refresh } = useCaptcha(captchaKey);
  const form = useZodForm(schema, initial ?? ({ email: '', password: '', captcha: '' } as V));
  const msg = useTimedMessage();
  const mutation = useMutation({
    mutationFn: ({ input, answer }: { input: z.infer<S>; answer: CaptchaAnswer }) => signIn(input, answer),
  });

  const resetCaptcha = () => {
    form.setValue('captcha', '');
    refresh();
  };

  const submit = form.handleSubmit((input) =>
    mutation.mutate(
      { input, answer: captchaPayload(captcha, form.values.captcha) },
      {
        onSuccess: (result) => onSignedIn(result, input),
        onError: (err) => {
          msg.error(errorMessage(err));
          resetCaptcha();
        },
      },
    ),
  );

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={label}>
      <Alert message={msg.message} onClose={msg.clear} />
      <Field label={emailLabel} htmlFor={`${idPrefix}-email`} error={form.errors.email}>
        <input id={`${idPrefix}-email`} type="email" autoComplete="username" placeholder={emailPlaceholder} {...form.text('email')} />
      </Field>
      <Field label="Password" htmlFor={`${idPrefix}-password`} error={form.errors.password}>
        <PasswordInput id={`${idPrefix}-password`} autoComplete="current-password" {...form.text('password')} />
      </Field>
      <CaptchaField
        id={`${idPrefix}-captcha`}
        captcha={captcha}
        loading={captchaLoading}
        value={form.values.captcha}
        error={form.errors.captcha}
        onChange={(v) => form.setValue('captcha', v as V['captcha'])}
        onRefresh={resetCaptcha}
      />
      {extras?.(form)}
      <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
        {mutation.isPending ? 'Wait...' : 'Login'}
      </button>
      {footer}
    </form>
  );
}
