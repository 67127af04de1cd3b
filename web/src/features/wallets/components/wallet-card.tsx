// One wallet of a Credits tab: its balance and one amount with Add Credits / Deduct Credits.
// Amounts take paise (₹0.69 can be deducted); money moves only after a confirmation that says
// how much, which way and on which wallet; a user's credit is capped as the server caps it.
import { useRef, useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import { validate } from '@/lib/form';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatRupees } from '@/lib/format';
import { newIdempotencyKey } from '@/lib/money';
import { useAddWalletEntry, walletEntrySchema } from '../api/add-wallet-entry';
import { walletLabels, type EntryType, type WalletKind, type WalletOwner } from '../api/types';

type Props = { owner: WalletOwner; kind: WalletKind; balancePaise: number | undefined; loading?: boolean };

export function WalletCard({ owner, kind, balancePaise, loading }: Props) {
  const label = walletLabels[kind];
  const inputId = `${owner.scope}-${kind}-amount`;
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState<EntryType | null>(null);
  const msg = useTimedMessage();
  const mutation = useAddWalletEntry(owner);
  // One key per intended movement: a repeated click of the same request (double click, retry
  // after a dropped answer) reuses it and the server moves the money once.
  const intent = useRef<{ sig: string; key: string } | null>(null);

  const [confirming, setConfirming] = useState<{ type: EntryType; amount_paise: number } | null>(null);

  const submit = (type: EntryType) => {
    if (mutation.isPending) return;
    const r = validate(walletEntrySchema(owner.scope === 'user' && type === 'credit'), { amount });
    if (!r.ok) {
      setError(r.errors.amount);
      return;
    }
    setError(undefined);
    setConfirming({ type, amount_paise: r.data.amount });
  };

  const move = ({ type, amount_paise }: { type: EntryType; amount_paise: number }) => {
    setConfirming(null);
    const sig = `${type}:${amount_paise}`;
    if (intent.current?.sig !== sig) intent.current = { sig, key: newIdempotencyKey() };
    setPending(type);
    mutation.mutate(
      { owner, kind, type, amount_paise, idempotency_key: intent.current.key },
      {
        onSuccess: () => {
          intent.current = null;
          setAmount('');
          msg.success(type === 'credit' ? 'Credits added successfully' : 'Credits deducted successfully');
        },
        onError: (e) => msg.error(errorMessage(e)),
        onSettled: () => setPending(null),
      },
    );
  };

  return (
    <section className="wallet-card" aria-label={label}>
      <h3>{label}</h3>
      <div className="wallet-card-balance">
        <span className="muted">Balance</span>
        <strong data-testid={`${kind}-balance`}>{loading ? '…' : formatRupees(balancePaise)}</strong>
      </div>
      <Alert message={msg.message} onClose={msg.clear} />
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit('credit');
        }}
      >
        <Field label="Amount (₹)" htmlFor={inputId} error={error}>
          <input
            id={inputId}
            type="text"
            inputMode="decimal"
            placeholder="0.00"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={!!error}
          />
        </Field>
        <div className="button-row">
          <button type="button" className="btn btn-danger" disabled={mutation.isPending} onClick={() => submit('debit')}>
            {pending === 'debit' ? 'Wait...' : 'Deduct Credits'}
          </button>
          <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
            {pending === 'credit' ? 'Wait...' : 'Add Credits'}
          </button>
        </div>
      </form>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming?.type === 'debit' ? 'Deduct Credits' : 'Add Credits'}
        message={
          confirming &&
          (confirming.type === 'credit'
            ? `Add ${formatRupees(confirming.amount_paise)} to the ${label}?`
            : `Deduct ${formatRupees(confirming.amount_paise)} from the ${label}?`)
        }
        confirmLabel={confirming?.type === 'debit' ? 'Deduct' : 'Add'}
        danger={confirming?.type === 'debit'}
        onConfirm={() => confirming && move(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </section>
  );
}
