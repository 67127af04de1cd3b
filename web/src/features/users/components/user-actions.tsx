// The actions of a user's card on User Accounts: Edit, Deactivate or Activate (after a confirm:
// an inactive user's API keys and portal sign-in are refused) and Send reset mail (the portal's
// reset link, after a confirm). What happened is told through `onDone` or `onError`.
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Modal } from '@/components/ui/modal';
import { errorMessage } from '@/lib/api-client';
import { useSendPasswordReset } from '../api/send-password-reset';
import { fullName, type User } from '../api/types';
import { useUpdateUser } from '../api/update-user';
import { EditUserForm } from './edit-user-form';

type Props = { user: User; onDone: (text: string) => void; onError: (text: string) => void };

type Open = 'edit' | 'status' | 'reset' | null;

export function UserActions({ user, onDone, onError }: Props) {
  const [open, setOpen] = useState<Open>(null);
  const update = useUpdateUser();
  const reset = useSendPasswordReset();
  const name = fullName(user);
  const close = () => setOpen(null);
  const activating = !user.is_active;

  return (
    <div className="user-card-actions">
      <button type="button" className="btn btn-secondary btn-sm" aria-label={`Edit ${name}`} onClick={() => setOpen('edit')}>
        Edit
      </button>
      <button
        type="button"
        className={`btn btn-sm ${activating ? 'btn-secondary' : 'btn-danger'}`}
        aria-label={`${activating ? 'Activate' : 'Deactivate'} ${name}`}
        onClick={() => setOpen('status')}
      >
        {activating ? 'Activate' : 'Deactivate'}
      </button>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        aria-label={`Send reset mail to ${name}`}
        disabled={!user.is_active}
        title={user.is_active ? undefined : 'Activate the user first'}
        onClick={() => setOpen('reset')}
      >
        Send reset mail
      </button>

      <Modal open={open === 'edit'} title="Edit user" onClose={close}>
        <EditUserForm
          user={user}
          onCancel={close}
          onSaved={() => {
            close();
            onDone('User updated successfully');
          }}
        />
      </Modal>

      <ConfirmDialog
        open={open === 'status'}
        title={activating ? 'Activate user' : 'Deactivate user'}
        message={
          activating
            ? `Activate ${name}? Their API keys and portal sign-in work again.`
            : `Deactivate ${name}? Their API keys and portal sign-in are refused until you activate them again.`
        }
        confirmLabel={activating ? 'Activate' : 'Deactivate'}
        danger={!activating}
        busy={update.isPending}
        onCancel={close}
        onConfirm={() =>
          update.mutate(
            { userId: user.id, is_active: activating },
            {
              onSuccess: () => onDone(activating ? 'User activated' : 'User deactivated'),
              onError: (e) => onError(errorMessage(e)),
              onSettled: close,
            },
          )
        }
      />

      <ConfirmDialog
        open={open === 'reset'}
        title="Send password reset mail"
        message={`Send ${user.email} a link to set a new password? The link works once, for 1 hour.`}
        confirmLabel="Send"
        busy={reset.isPending}
        onCancel={close}
        onConfirm={() =>
          reset.mutate(user.id, {
            onSuccess: (r) => onDone(r.message),
            onError: (e) => onError(errorMessage(e)),
            onSettled: close,
          })
        }
      />
    </div>
  );
}
