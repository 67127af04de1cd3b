// Whitelist IP, 'Add new': User ID, IP and Comments (spec part 2, §2.8 and §5).
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { useAddIpEntry, whitelistSchema, type WhitelistForm } from '../api/add-ip-entry';

const EMPTY: WhitelistForm = { user_id: '', ip: '', comments: '' };

export function AddWhitelistModal({ open, onClose, onAdded }: { open: boolean; onClose: () => void; onAdded: () => void }) {
  const form = useZodForm<typeof whitelistSchema, WhitelistForm>(whitelistSchema, EMPTY);
  const add = useAddIpEntry();
  const msg = useTimedMessage();
  const close = () => {
    form.reset();
    msg.clear();
    onClose();
  };
  return (
    <Modal open={open} title="Add new" onClose={close}>
      <form
        className="form"
        noValidate
        onSubmit={form.handleSubmit((d) =>
          add.mutate(
            { list: 'whitelist', user_id: Number(d.user_id), ip: d.ip, comments: d.comments },
            {
              onSuccess: () => {
                form.reset();
                onAdded();
              },
              onError: (e) => {
                // A 404 (not the partner's user) or 409 (already listed) is a message; a 422 names its fields.
                const f = e instanceof ApiError ? e.fields : {};
                if (Object.keys(f).length) form.setErrors(f);
                else msg.error(errorMessage(e));
              },
            },
          ),
        )}
      >
        <Alert message={msg.message} onClose={msg.clear} />
        <Field label="User ID" htmlFor="wl-user" error={form.errors.user_id}>
          <input id="wl-user" type="text" inputMode="numeric" {...form.text('user_id')} aria-invalid={!!form.errors.user_id} />
        </Field>
        <Field label="IP" htmlFor="wl-ip" error={form.errors.ip}>
          <input id="wl-ip" type="text" inputMode="decimal" placeholder="203.0.113.10" {...form.text('ip')} aria-invalid={!!form.errors.ip} />
        </Field>
        <Field label="Comments" htmlFor="wl-comments" error={form.errors.comments}>
          <textarea id="wl-comments" rows={3} {...form.text('comments')} aria-invalid={!!form.errors.comments} />
        </Field>
        <div className="button-row">
          <button type="button" className="btn btn-secondary" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={add.isPending}>
            {add.isPending ? 'Wait...' : 'Submit'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
