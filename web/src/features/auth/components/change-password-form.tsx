// /reset-password (signed in): current, new and confirm password.
import { useMutation } from '@tanstack/react-query';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { PASSWORD_GUIDANCE, changePassword, changePasswordSchema } from '../api/passwords';

export function ChangePasswordForm() {
  const form = useZodForm(changePasswordSchema, { current_password: '', new_password: '', confirm_new_password: '' });
  const msg = useTimedMessage();
  const mutation = useMutation({ mutationFn: changePassword });

  const submit = form.handleSubmit((data) =>
    mutation.mutate(data, {
      onSuccess: () => {
        form.reset();
        msg.success('Password changed successfully');
      },
      onError: (err) => msg.error(errorMessage(err)),
    }),
  );

  return (
    <form className="form narrow-form" onSubmit={submit} noValidate aria-label="Reset password">
      <Alert message={msg.message} onClose={msg.clear} />
      <p className="field-hint">{PASSWORD_GUIDANCE}</p>
      <Field label="Current Password" htmlFor="cp-current" error={form.errors.current_password}>
        <PasswordInput id="cp-current" autoComplete="current-password" {...form.text('current_password')} />
      </Field>
      <Field label="New Password" htmlFor="cp-new" error={form.errors.new_password}>
        <PasswordInput id="cp-new" autoComplete="new-password" {...form.text('new_password')} />
      </Field>
      <Field label="Confirm Password" htmlFor="cp-confirm" error={form.errors.confirm_new_password}>
        <PasswordInput id="cp-confirm" autoComplete="new-password" {...form.text('confirm_new_password')} />
      </Field>
      <div>
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {mutation.isPending ? 'Wait...' : 'Submit'}
        </button>
      </div>
    </form>
  );
}
