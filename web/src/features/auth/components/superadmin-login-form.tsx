// Super-admin login (spec part 2 §2.12): username (e-mail), password, captcha.
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { errorMessage } from '@/lib/api-client';
import { setSuperAdminToken } from '@/lib/auth';
import { validate, type FieldErrors } from '@/lib/form';
import { captchaPayload, useCaptcha } from '../api/get-captcha';
import { loginSuperAdmin, superAdminLoginSchema, type SuperAdminLoginInput } from '../api/superadmin-login';
import { CaptchaField } from './captcha-field';

export function SuperAdminLoginForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { captcha, isLoading, refresh } = useCaptcha('superadmin-login');
  const [values, setValues] = useState({ email: '', password: '', captcha: '' });
  const [errors, setErrors] = useState<FieldErrors<SuperAdminLoginInput>>({});
  const msg = useTimedMessage();
  const mutation = useMutation({
    mutationFn: (input: SuperAdminLoginInput) => loginSuperAdmin(input, captchaPayload(captcha, input.captcha)),
  });

  const resetCaptcha = () => {
    setValues((v) => ({ ...v, captcha: '' }));
    refresh();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = validate(superAdminLoginSchema, values);
    if (!r.ok) return setErrors(r.errors);
    setErrors({});
    mutation.mutate(r.data, {
      onSuccess: ({ token }) => {
        setSuperAdminToken(token);
        sessionStorage.setItem('superadmin_user', r.data.email);
        queryClient.removeQueries({ queryKey: ['superadmin'] });
        navigate('/superadmin/dashboard', { replace: true });
      },
      onError: (err) => {
        msg.error(errorMessage(err));
        resetCaptcha();
      },
    });
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Super admin login">
      <Alert message={msg.message} onClose={msg.clear} />
      <Field label="Username" htmlFor="sa-email" error={errors.email}>
        <input
          id="sa-email"
          type="email"
          autoComplete="username"
          placeholder="Email"
          value={values.email}
          onChange={(e) => setValues({ ...values, email: e.target.value })}
        />
      </Field>
      <Field label="Password" htmlFor="sa-password" error={errors.password}>
        <PasswordInput
          id="sa-password"
          autoComplete="current-password"
          value={values.password}
          onChange={(e) => setValues({ ...values, password: e.target.value })}
        />
      </Field>
      <CaptchaField
        id="sa-captcha"
        captcha={captcha}
        loading={isLoading}
        value={values.captcha}
        error={errors.captcha}
        onChange={(v) => setValues({ ...values, captcha: v })}
        onRefresh={resetCaptcha}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
        {mutation.isPending ? 'Wait...' : 'Login'}
      </button>
    </form>
  );
}
