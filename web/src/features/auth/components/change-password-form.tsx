// /reset-password (signed in): current, new and confirm password.
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { errorMessage } from '@/lib/api-client';
import { validate, type FieldErrors } from '@/lib/form';
import { PASSWORD_GUIDANCE, changePassword, changePasswordSchema, type ChangePasswordInput } from '../api/passwords';

const empty: ChangePasswordInput = { current_password: '', new_password: '', confirm_new_password: '' };

export function ChangePasswordForm() {
  const [values, setValues] = useState<ChangePasswordInput>(empty);
  const [errors, setErrors] = useState<FieldErrors<ChangePasswordInput>>({});
  const msg = useTimedMessage();
  const mutation = useMutation({ mutationFn: changePassword });

  const set = (key: keyof ChangePasswordInput) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = validate(changePasswordSchema, values);
    if (!r.ok) return setErrors(r.errors);
    setErrors({});
    mutation.mutate(r.data, {
      onSuccess: () => {
        setValues(empty);
        msg.success('Password changed successfully');
      },
      onError: (err) => msg.error(errorMessage(err)),
    });
  };

  return (
    <form className="form narrow-form" onSubmit={submit} noValidate aria-label="Reset password">
      <Alert message={msg.message} onClose={msg.clear} />
      <p className="field-hint">{PASSWORD_GUIDANCE}</p>
      <Field label="Current Password" htmlFor="cp-current" error={errors.current_password}>
        <PasswordInput id="cp-current" autoComplete="current-password" value={values.current_password} onChange={set('current_password')} />
      </Field>
      <Field label="New Password" htmlFor="cp-new" error={errors.new_password}>
        <PasswordInput id="cp-new" autoComplete="new-password" value={values.new_password} onChange={set('new_password')} />
      </Field>
      <Field label="Confirm Password" htmlFor="cp-confirm" error={errors.confirm_new_password}>
        <PasswordInput id="cp-confirm" autoComplete="new-password" value={values.confirm_new_password} onChange={set('confirm_new_password')} />
      </Field>
      <div>
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {mutation.isPending ? 'Wait...' : 'Submit'}
        </button>
      </div>
    </form>
  );
}
