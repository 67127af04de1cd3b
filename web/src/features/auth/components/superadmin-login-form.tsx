// Super-admin login (spec part 2 §2.12): username (e-mail), password, captcha.
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { errorMessage } from '@/lib/api-client';
import { setSuperAdminToken } from '@/lib/auth';
import { useZodForm } from '@/lib/form';
import { captchaPayload, useCaptcha } from '@/lib/captcha';
import { loginSuperAdmin, superAdminLoginSchema, type SuperAdminLoginInput } from '../api/superadmin-login';
import { CaptchaField } from '@/components/ui/captcha-field';

/** `onSignedIn` runs once the token is stored: the app drops what an earlier session cached. */
export function SuperAdminLoginForm({ onSignedIn }: { onSignedIn?: () => void }) {
  const navigate = useNavigate();
  const { captcha, isLoading, refresh } = useCaptcha('superadmin-login');
  const form = useZodForm(superAdminLoginSchema, { email: '', password: '', captcha: '' });
  const msg = useTimedMessage();
  const mutation = useMutation({
    mutationFn: (input: SuperAdminLoginInput) => loginSuperAdmin(input, captchaPayload(captcha, input.captcha)),
  });

  const resetCaptcha = () => {
    form.setValue('captcha', '');
    refresh();
  };

  const submit = form.handleSubmit((data) =>
    mutation.mutate(data, {
      onSuccess: ({ token }) => {
        setSuperAdminToken(token);
        sessionStorage.setItem('superadmin_user', data.email);
        onSignedIn?.();
        navigate('/superadmin/dashboard', { replace: true });
      },
      onError: (err) => {
        msg.error(errorMessage(err));
        resetCaptcha();
      },
    }),
  );

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Super admin login">
      <Alert message={msg.message} onClose={msg.clear} />
      <Field label="Username" htmlFor="sa-email" error={form.errors.email}>
        <input id="sa-email" type="email" autoComplete="username" placeholder="Email" {...form.text('email')} />
      </Field>
      <Field label="Password" htmlFor="sa-password" error={form.errors.password}>
        <PasswordInput id="sa-password" autoComplete="current-password" {...form.text('password')} />
      </Field>
      <CaptchaField
        id="sa-captcha"
        captcha={captcha}
        loading={isLoading}
        value={form.values.captcha}
        error={form.errors.captcha}
        onChange={(v) => form.setValue('captcha', v)}
        onRefresh={resetCaptcha}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
        {mutation.isPending ? 'Wait...' : 'Login'}
      </button>
    </form>
  );
}
