// Edit user (User Accounts): the name, phone and e-mail of Add User Manually, under its rules
// and messages (shown 10 s as there); the server's answer on a field (a taken e-mail) shows on
// that field.
import { useEffect } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm, type FieldErrors } from '@/lib/form';
import type { User } from '../api/types';
import { editUserSchema, useUpdateUser, type UserEdit } from '../api/update-user';
import { VALIDATION_MS } from './add-user-form';

type Props = { user: User; onCancel: () => void; onSaved: (user: User) => void };

export function EditUserForm({ user, onCancel, onSaved }: Props) {
  const form = useZodForm<typeof editUserSchema, UserEdit>(editUserSchema, {
    first_name: user.first_name,
    last_name: user.last_name,
    phone_number: user.phone_number ?? '',
    email: user.email,
  });
  const update = useUpdateUser();
  const msg = useTimedMessage();
  const { errors, setErrors } = form;
  const hasErrors = Object.values(errors).some(Boolean);
  useEffect(() => {
    if (!hasErrors) return;
    const t = setTimeout(() => setErrors({}), VALIDATION_MS);
    return () => clearTimeout(t);
  }, [errors, hasErrors, setErrors]);

  return (
    <form
      className="form"
      noValidate
      aria-label="Edit user"
      onSubmit={form.handleSubmit((data) =>
        update.mutate(
          { userId: user.id, ...data },
          {
            onSuccess: onSaved,
            onError: (err) => {
              if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields as FieldErrors<UserEdit>);
              else msg.error(errorMessage(err));
            },
          },
        ),
      )}
    >
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="form-row">
        <Field label="First name" htmlFor="eu-first" error={errors.first_name}>
          <input id="eu-first" type="text" autoComplete="off" {...form.text('first_name')} />
        </Field>
        <Field label="Last name" htmlFor="eu-last" error={errors.last_name}>
          <input id="eu-last" type="text" autoComplete="off" {...form.text('last_name')} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="Phone number" htmlFor="eu-phone" error={errors.phone_number}>
          <input id="eu-phone" type="tel" inputMode="numeric" autoComplete="off" {...form.text('phone_number')} />
        </Field>
        <Field label="E-mail" htmlFor="eu-email" error={errors.email}>
          <input id="eu-email" type="email" autoComplete="off" {...form.text('email')} />
        </Field>
      </div>
      <div className="button-row">
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={update.isPending}>
          {update.isPending ? 'Wait...' : 'Save'}
        </button>
      </div>
    </form>
  );
}
