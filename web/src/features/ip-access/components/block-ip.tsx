// IP Hits' actions: Block opens a modal with the hit's details read-only and required
// comments; Unblock asks 'Are you sure, you want to Unblock the IP?' (spec part 2, §2.9).
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { blockSchema, useAddIpEntry, useRemoveIpEntry } from '../api/add-ip-entry';

type Target = { user_id: number; ip: string };

export function BlockButton({ target, onDone }: { target: Target; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const form = useZodForm<typeof blockSchema, { comments: string }>(blockSchema, { comments: '' });
  const block = useAddIpEntry();
  const msg = useTimedMessage();
  const close = () => {
    form.reset();
    msg.clear();
    setOpen(false);
  };
  const id = `block-${target.user_id}-${target.ip}`.replace(/[^\w-]/g, '-');
  return (
    <>
      <button type="button" className="btn btn-danger btn-sm" onClick={() => setOpen(true)}>
        Block
      </button>
      <Modal open={open} title="Block IP" onClose={close} size="sm">
        <form
          className="form"
          noValidate
          onSubmit={form.handleSubmit((d) =>
            block.mutate(
              { list: 'blocked', user_id: target.user_id, ip: target.ip, comments: d.comments },
              {
                onSuccess: () => {
                  close();
                  onDone();
                },
                onError: (e) => msg.error(errorMessage(e)),
              },
            ),
          )}
        >
          <Alert message={msg.message} onClose={msg.clear} />
          <Field label="User ID" htmlFor={`${id}-user`}>
            <input id={`${id}-user`} type="text" value={target.user_id} readOnly />
          </Field>
          <Field label="IP" htmlFor={`${id}-ip`}>
            <input id={`${id}-ip`} type="text" value={target.ip} readOnly />
          </Field>
          <Field label="Comments" htmlFor={`${id}-comments`} error={form.errors.comments}>
            <textarea id={`${id}-comments`} rows={3} {...form.text('comments')} aria-invalid={!!form.errors.comments} />
          </Field>
          <div className="button-row">
            <button type="button" className="btn btn-secondary" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="btn btn-danger" disabled={block.isPending}>
              {block.isPending ? 'Wait...' : 'Block'}
            </button>
          </div>
        </form>
      </Modal>
    </>
  );
}

export function UnblockButton({ blockedId, onDone }: { blockedId: number; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const unblock = useRemoveIpEntry();
  const msg = useTimedMessage();
  return (
    <>
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => setOpen(true)}>
        Unblock
      </button>
      <ConfirmDialog
        open={open}
        title="Unblock IP"
        message={
          <>
            Are you sure, you want to Unblock the IP?
            {msg.message && (
              <span className="field-error" role="alert">
                <br />
                {msg.message.text}
              </span>
            )}
          </>
        }
        confirmLabel="Unblock"
        busy={unblock.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() =>
          unblock.mutate(
            { list: 'blocked', id: blockedId },
            {
              onSuccess: () => {
                setOpen(false);
                onDone();
              },
              onError: (e) => msg.error(errorMessage(e)),
            },
          )
        }
      />
    </>
  );
}
