// The user's gateway keys: create (live or sandbox, named, with an optional last day and IP and
// API lists; the key is shown once), the list by name and prefix with its limits, 30 days' usage
// and last use, edit the name and lists, revoke (after a confirm), and roll (a new key; the old
// one keeps working for the grace period the user picks).
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { DataTable } from '@/components/ui/data-table';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatCount, formatDate, formatRupees } from '@/lib/format';
import { useZodForm } from '@/lib/form';
import { rollKeySchema, useApiKeys, useRevokeKey, useRollKey, type ApiKey, type CreatedKey } from '../api/api-keys';
import { KeyCreateForm } from './key-create-form';
import { limitsText } from './key-limit-fields';
import { KeyLimitsForm } from './key-limits-form';

/** What the list says of a key's state; a rolled key still active shows until when. */
export function keyState(k: ApiKey, now = Date.now()): string {
  if (k.status === 'revoked') return 'Revoked';
  if (k.status === 'expired' || (k.expires_at && Date.parse(k.expires_at) <= now)) return 'Expired';
  if (k.expires_at) return `Active until ${formatDate(k.expires_at)}`;
  return 'Active';
}

function Limits({ k }: { k: ApiKey }) {
  const text = limitsText(k.allowed_ips, k.allowed_services);
  return (
    <div className="key-limits">
      <span>{text.ips}</span>
      <span>{text.services}</span>
    </div>
  );
}

export function ApiKeys({ fullAccess }: { fullAccess: boolean }) {
  const keys = useApiKeys();
  const revoke = useRevokeKey();
  const [shown, setShown] = useState<{ key: CreatedKey; note?: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [rolling, setRolling] = useState<ApiKey | null>(null);
  const [editing, setEditing] = useState<ApiKey | null>(null);
  const [error, setError] = useState<string | null>(null);

  const columns: ColumnDef<ApiKey>[] = [
    { header: 'Name', cell: ({ row }) => row.original.name || <span className="muted">Unnamed</span> },
    { header: 'Key', cell: ({ row }) => <code>{row.original.prefix}…</code> },
    { header: 'Mode', cell: ({ row }) => (row.original.mode === 'live' ? 'Live' : 'Sandbox') },
    { header: 'Status', cell: ({ row }) => keyState(row.original) },
    { header: 'Limits', cell: ({ row }) => <Limits k={row.original} /> },
    {
      header: 'Last 30 days',
      cell: ({ row }) => (
        <span className="nowrap" data-testid={`usage-${row.original.id}`}>
          {formatCount(row.original.usage.calls)} call{row.original.usage.calls === 1 ? '' : 's'}, {formatRupees(row.original.usage.spend_paise)}
        </span>
      ),
    },
    { header: 'Created', cell: ({ row }) => <span className="nowrap">{formatDate(row.original.created_at)}</span> },
    { header: 'Last used', cell: ({ row }) => (row.original.last_used_at ? formatDate(row.original.last_used_at) : 'Never') },
    {
      header: 'Actions',
      cell: ({ row }) =>
        row.original.status === 'active' && keyState(row.original) !== 'Expired' ? (
          <div className="row-actions">
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setEditing(row.original)} aria-label={`Edit ${row.original.prefix}`}>
              Edit
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setRolling(row.original)} aria-label={`Roll ${row.original.prefix}`}>
              Roll
            </button>
            <button type="button" className="btn btn-danger btn-sm" onClick={() => setRevoking(row.original)} aria-label={`Revoke ${row.original.prefix}`}>
              Revoke
            </button>
          </div>
        ) : null,
    },
  ];

  return (
    <>
      <KeyCreateForm fullAccess={fullAccess} onCreated={(key) => setShown({ key })} />
      {error && <Alert message={{ kind: 'error', text: error }} onClose={() => setError(null)} />}

      {keys.isError && <p role="alert">{errorMessage(keys.error)}</p>}
      <div className="api-keys-list">
        <DataTable
          columns={columns}
          data={keys.data ?? []}
          pageCount={1}
          hidePaging
          isLoading={keys.isPending}
          emptyText="You have no API keys yet. Create one above."
          getRowId={(k) => String(k.id)}
        />
      </div>

      <Modal open={!!shown} title="Your new API key" onClose={() => setShown(null)}>
        {shown && <NewKey created={shown.key} note={shown.note} />}
      </Modal>

      <ConfirmDialog
        open={!!revoking}
        title="Revoke key"
        message={revoking ? `Revoke ${revoking.prefix}…? Calls with it are refused at once. This cannot be undone.` : ''}
        confirmLabel="Revoke"
        danger
        busy={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSettled: () => setRevoking(null),
            onError: (err) => setError(errorMessage(err)),
          })
        }
      />

      <Modal open={!!editing} title="Edit key" onClose={() => setEditing(null)}>
        {editing && <KeyLimitsForm apiKey={editing} onCancel={() => setEditing(null)} onSaved={() => setEditing(null)} />}
      </Modal>

      <Modal open={!!rolling} title="Roll key" onClose={() => setRolling(null)}>
        {rolling && (
          <RollKeyForm
            apiKey={rolling}
            onCancel={() => setRolling(null)}
            onRolled={(key, grace) => {
              setRolling(null);
              setShown({
                key,
                note:
                  grace === 0
                    ? `The old key ${rolling.prefix}… no longer works.`
                    : `The old key ${rolling.prefix}… keeps working for ${grace} minute${grace === 1 ? '' : 's'}.`,
              });
            }}
          />
        )}
      </Modal>
    </>
  );
}

export function NewKey({ created, note }: { created: CreatedKey; note?: string }) {
  return (
    <div className="new-key">
      <p>
        Copy your {created.mode === 'live' ? 'live' : 'sandbox'} key now: it is shown only this once. Keep it secret; anyone with it can make calls
        charged to your wallet.
      </p>
      <div className="copy-row">
        <code className="copy-url" data-testid="new-key">
          {created.key}
        </code>
        <CopyButton text={created.key} label="Copy key" />
      </div>
      {note && <p className="muted">{note}</p>}
    </div>
  );
}

export function RollKeyForm({ apiKey, onCancel, onRolled }: { apiKey: ApiKey; onCancel: () => void; onRolled: (key: CreatedKey, grace: number) => void }) {
  const roll = useRollKey();
  const form = useZodForm(rollKeySchema, { grace_minutes: '60' });
  const serverField = roll.error instanceof ApiError ? roll.error.fields.grace_minutes : undefined;
  return (
    <form
      className="form"
      noValidate
      onSubmit={form.handleSubmit((data) => roll.mutate({ id: apiKey.id, grace_minutes: data.grace_minutes }, { onSuccess: (k) => onRolled(k, data.grace_minutes) }))}
    >
      <p>
        A new {apiKey.mode} key replaces <code>{apiKey.prefix}…</code>. The old key keeps working for the grace period, so you can switch your
        systems over.
      </p>
      {roll.isError && !serverField && <Alert message={{ kind: 'error', text: errorMessage(roll.error) }} />}
      <Field
        label="Grace period (minutes)"
        htmlFor="roll-grace"
        error={form.errors.grace_minutes ?? serverField}
        hint="0 stops the old key at once; at most 10080 (a week)."
      >
        <input id="roll-grace" type="number" min={0} max={10080} step={1} inputMode="numeric" {...form.text('grace_minutes')} />
      </Field>
      <div className="button-row">
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={roll.isPending}>
          {roll.isPending ? 'Wait...' : 'Roll key'}
        </button>
      </div>
    </form>
  );
}
