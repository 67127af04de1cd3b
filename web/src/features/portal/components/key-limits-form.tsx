// Changing a key's name and lists after its creation (its expiry is chosen at creation only).
// The gateway enforces the change within a second, so the dialog says so.
import { Alert } from '@/components/ui/alert';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { keyLimitsSchema, useUpdateKey, type ApiKey } from '../api/api-keys';
import { KeyLimitFields, type LimitValues } from './key-limit-fields';

export function KeyLimitsForm({ apiKey, onCancel, onSaved }: { apiKey: ApiKey; onCancel: () => void; onSaved: () => void }) {
  const update = useUpdateKey();
  const form = useZodForm<typeof keyLimitsSchema, LimitValues>(keyLimitsSchema, {
    name: apiKey.name,
    allowed_ips: apiKey.allowed_ips.join('\n'),
    allowed_services: apiKey.allowed_services,
  });
  const serverErrors = update.error instanceof ApiError ? update.error.fields : {};
  return (
    <form className="form" noValidate onSubmit={form.handleSubmit((data) => update.mutate({ id: apiKey.id, ...data }, { onSuccess: onSaved }))}>
      <p>
        Limits of <code>{apiKey.prefix}…</code>. A change is in force for calls within a second.
      </p>
      {update.isError && Object.keys(serverErrors).length === 0 && <Alert message={{ kind: 'error', text: errorMessage(update.error) }} />}
      <KeyLimitFields
        id="edit-key"
        mode={apiKey.mode}
        values={form.values}
        errors={form.errors}
        serverErrors={serverErrors}
        onText={(k, v) => form.setValue(k, v)}
        onServices={(v) => form.setValue('allowed_services', v)}
      />
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
