// Creating a key: its mode, name, an optional last day, and optional IP and API lists. The
// schema that checks the form builds the request (createKeySchema).
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { istDay } from '@/lib/format';
import { useZodForm } from '@/lib/form';
import { createKeySchema, useCreateKey, type CreatedKey, type KeyMode } from '../api/api-keys';
import { KeyLimitFields } from './key-limit-fields';

type Values = { mode: KeyMode; name: string; expires_on: string; allowed_ips: string; allowed_services: string[] };

const EMPTY: Values = { mode: 'sandbox', name: '', expires_on: '', allowed_ips: '', allowed_services: [] };

export function KeyCreateForm({ fullAccess, onCreated }: { fullAccess: boolean; onCreated: (key: CreatedKey) => void }) {
  const create = useCreateKey();
  const form = useZodForm<typeof createKeySchema, Values>(createKeySchema, EMPTY);
  const serverErrors = create.error instanceof ApiError ? create.error.fields : {};
  const serverMessage = create.isError && Object.keys(serverErrors).length === 0 ? errorMessage(create.error) : null;
  const mode = form.values.mode;
  return (
    <form
      className="panel key-create"
      aria-label="Create a key"
      noValidate
      onSubmit={form.handleSubmit((data) =>
        create.mutate(data, {
          onSuccess: (key) => {
            form.reset();
            onCreated(key);
          },
        }),
      )}
    >
      <h2 className="panel-title">Create a key</h2>
      {serverMessage && <Alert message={{ kind: 'error', text: serverMessage }} onClose={() => create.reset()} />}
      <fieldset className="radio-group">
        <legend className="field-label">Mode</legend>
        <label>
          <input type="radio" name="key-mode" value="sandbox" checked={mode === 'sandbox'} onChange={() => form.setValue('mode', 'sandbox')} /> Sandbox (sample
          answers, charged as live)
        </label>
        <label>
          <input type="radio" name="key-mode" value="live" checked={mode === 'live'} onChange={() => form.setValue('mode', 'live')} /> Live
        </label>
      </fieldset>
      {!fullAccess && mode === 'live' && (
        <p className="field-hint">Your account has partial access: live calls are refused until your provider gives you full access.</p>
      )}
      <KeyLimitFields
        id="new-key"
        mode={mode}
        values={form.values}
        errors={form.errors}
        serverErrors={serverErrors}
        onText={(k, v) => form.setValue(k, v)}
        onServices={(v) => form.setValue('allowed_services', v)}
      />
      <Field
        label="Last day (optional)"
        htmlFor="new-key-expires"
        error={form.errors.expires_on ?? serverErrors.expires_at}
        hint="The key stops working at the end of this day (IST). Empty: it works until you revoke it."
      >
        <input id="new-key-expires" type="date" min={istDay(0)} value={form.values.expires_on} onChange={(e) => form.setValue('expires_on', e.target.value)} />
      </Field>
      <div>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? 'Wait...' : 'Create key'}
        </button>
      </div>
    </form>
  );
}
