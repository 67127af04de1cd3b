// Edit user (User Accounts): the name, phone and e-mail of Add User Manually, under its rules
// and messages (shown 10 s as there); the server's answer on a field (a taken e-mail) shows on
// that field.
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm, type FieldErrors } from '@/lib/form';
import type { User } from '../api/types';
import { editUserSchema, useUpdateUser, type UserEdit } from '../api/update-user';
import { UserIdentityFields, useMessagesFor10s } from './user-fields';

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
  useMessagesFor10s(errors, setErrors);

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
      <UserIdentityFields idPrefix="eu" text={form.text} errors={errors} />
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
