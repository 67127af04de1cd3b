// TruBank's Change Status (spec part 2, §2.6): a required status ('Verified' or 'Not verified'),
// an optional file (a PDF, uploaded through a signed link when the form is sent) and an
// optional comment.
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { changeStatusSchema, useChangeStatus, type ChangeStatusForm } from '../api/change-status';
import type { BankStatementRequest } from '../api/types';

const EMPTY: ChangeStatusForm = { status: '', file: null, comment: '' };

export function ChangeStatusModal({ request, onClose, onChanged }: { request: BankStatementRequest | null; onClose: () => void; onChanged: () => void }) {
  const form = useZodForm<typeof changeStatusSchema, ChangeStatusForm>(changeStatusSchema, EMPTY);
  const change = useChangeStatus();
  const msg = useTimedMessage();
  const close = () => {
    form.reset();
    msg.clear();
    onClose();
  };
  return (
    <Modal open={request !== null} title="Change Status" onClose={close}>
      {request && (
        <form
          className="form"
          noValidate
          onSubmit={form.handleSubmit((d) =>
            change.mutate(
              { id: request.id, ...d },
              {
                onSuccess: () => {
                  form.reset();
                  onChanged();
                },
                onError: (e) => {
                  const f = e instanceof ApiError ? e.fields : {};
                  if (f.file_key) form.setErrors({ file: f.file_key });
                  else if (Object.keys(f).length) form.setErrors(f);
                  else msg.error(errorMessage(e));
                },
              },
            ),
          )}
        >
          <Alert message={msg.message} onClose={msg.clear} />
          <p className="muted">
            Request ID <strong>{request.request_id}</strong>
          </p>
          <fieldset className="field" aria-describedby={form.errors.status ? 'ts-status-error' : undefined}>
            <legend className="field-label">Status</legend>
            <div className="radio-group">
              <label>
                <input type="radio" name="ts-status" checked={form.values.status === 'verified'} onChange={() => form.setValue('status', 'verified')} /> Verified
              </label>
              <label>
                <input type="radio" name="ts-status" checked={form.values.status === 'not_verified'} onChange={() => form.setValue('status', 'not_verified')} /> Not verified
              </label>
            </div>
            {form.errors.status && (
              <span className="field-error" id="ts-status-error">
                {form.errors.status}
              </span>
            )}
          </fieldset>
          <Field label="File (optional)" htmlFor="ts-file" error={form.errors.file} hint="PDF, up to 10MB">
            <input
              id="ts-file"
              type="file"
              accept=".pdf,application/pdf"
              onChange={(e) => form.setValue('file', e.target.files?.[0] ?? null)}
              aria-invalid={!!form.errors.file}
            />
          </Field>
          <Field label="Comment (optional)" htmlFor="ts-comment" error={form.errors.comment}>
            <textarea id="ts-comment" rows={3} {...form.text('comment')} aria-invalid={!!form.errors.comment} />
          </Field>
          <div className="button-row">
            <button type="button" className="btn btn-secondary" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={change.isPending}>
              {change.isPending ? 'Wait...' : 'Submit'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
