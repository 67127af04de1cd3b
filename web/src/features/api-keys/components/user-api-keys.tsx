// User Detail, API Keys: the partner creates a key for its user (live or sandbox; the key is
// shown once, to hand to the user), lists them by prefix with their last use, and revokes one
// after a confirm (the gateway refuses it at once).
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { Modal } from '@/components/ui/modal';
import { QueryTable } from '@/components/ui/query-table';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { createKeySchema, useCreateUserKey, useRevokeUserKey, useUserKeys, type ApiKey, type CreatedKey, type KeyMode } from '../api/user-api-keys';

/** What the list says of a key's state. */
export function keyState(k: ApiKey, now = Date.now()): string {
  if (k.status === 'revoked') return 'Revoked';
  if (k.status === 'expired' || (k.expires_at && Date.parse(k.expires_at) <= now)) return 'Expired';
  return 'Active';
}

export function UserApiKeys({ userId, fullAccess }: { userId: number; fullAccess: boolean }) {
  const keys = useUserKeys(userId);
  const create = useCreateUserKey(userId);
  const revoke = useRevokeUserKey(userId);
  const [mode, setMode] = useState<KeyMode>('sandbox');
  const [shown, setShown] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const msg = useTimedMessage();

  const columns: ColumnDef<ApiKey>[] = [
    { header: 'Key', cell: ({ row }) => <code>{row.original.prefix}…</code> },
    { header: 'Mode', cell: ({ row }) => (row.original.mode === 'live' ? 'Live' : 'Sandbox') },
    { header: 'Status', cell: ({ row }) => keyState(row.original) },
    { header: 'Created', cell: ({ row }) => <span className="nowrap">{formatDate(row.original.created_at)}</span> },
    { header: 'Last used', cell: ({ row }) => (row.original.last_used_at ? formatDate(row.original.last_used_at) : 'Never') },
    {
      header: 'Actions',
      cell: ({ row }) =>
        keyState(row.original) === 'Active' ? (
          <button type="button" className="btn btn-danger btn-sm" onClick={() => setRevoking(row.original)} aria-label={`Revoke ${row.original.prefix}`}>
            Revoke
          </button>
        ) : null,
    },
  ];

  return (
    <>
      <Alert message={msg.message} onClose={msg.clear} />
      <form
        className="form card user-key-create"
        aria-label="Create a key"
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = createKeySchema.safeParse({ mode });
          if (!parsed.success) return msg.error(parsed.error.issues[0].message);
          create.mutate(parsed.data, { onSuccess: setShown, onError: (err) => msg.error(errorMessage(err)) });
        }}
      >
        <h3>Create a key</h3>
        <fieldset className="radio-group">
          <legend className="field-label">Mode</legend>
          <label>
            <input type="radio" name="user-key-mode" value="sandbox" checked={mode === 'sandbox'} onChange={() => setMode('sandbox')} /> Sandbox
          </label>
          <label>
            <input type="radio" name="user-key-mode" value="live" checked={mode === 'live'} onChange={() => setMode('live')} /> Live
          </label>
        </fieldset>
        {!fullAccess && mode === 'live' && (
          <p className="field-hint">This user has partial access: live calls are refused until you give the user full access (Settings).</p>
        )}
        <div>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {create.isPending ? 'Wait...' : 'Create key'}
          </button>
        </div>
      </form>

      <div className="user-keys-list">
        <QueryTable query={keys} columns={columns} hidePaging emptyText="This user has no API keys yet." getRowId={(k) => String(k.id)} />
      </div>

      <Modal open={!!shown} title="New API key" onClose={() => setShown(null)}>
        {shown && (
          <div className="form">
            <p>
              Copy this {shown.mode === 'live' ? 'live' : 'sandbox'} key now and hand it to the user: it is shown only this once. Anyone with it can make calls
              charged to the user's wallet.
            </p>
            <div className="copy-row">
              <code className="copy-url" data-testid="new-key">
                {shown.key}
              </code>
              <CopyButton text={shown.key} label="Copy key" />
            </div>
          </div>
        )}
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
            onSuccess: () => msg.success('Key revoked'),
            onError: (err) => msg.error(errorMessage(err)),
            onSettled: () => setRevoking(null),
          })
        }
      />
    </>
  );
}
