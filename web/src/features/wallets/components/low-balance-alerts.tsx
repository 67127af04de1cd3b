// The partner's low-balance alerts, next to the top-bar wallets: one threshold per wallet; a
// debit that takes the wallet below it sends one mail (per crossing, not per call).
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { BellIcon } from '@/components/ui/icons';
import { Modal } from '@/components/ui/modal';
import { errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { formatRupees } from '@/lib/format';
import { paiseToRupees } from '@/lib/money';
import { usePartnerWallets } from '../api/get-wallets';
import { alertSchema, useSetLowBalanceAlert, type AlertForm } from '../api/set-low-balance-alert';
import { walletLabels, type WalletKind, type WalletView } from '../api/types';

export function LowBalanceAlertsButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="icon-button alert-bell"
        aria-label="Low balance alerts"
        title="Low balance alerts"
        onClick={() => setOpen(true)}
      >
        <BellIcon />
      </button>
      <Modal open={open} title="Low balance alerts" onClose={() => setOpen(false)}>
        <LowBalanceAlerts />
      </Modal>
    </>
  );
}

export function LowBalanceAlerts() {
  const wallets = usePartnerWallets();
  if (!wallets.data) return <p className="muted">{wallets.isError ? errorMessage(wallets.error) : 'Loading...'}</p>;
  return (
    <div className="form">
      <p className="muted">
        We e-mail you once when a wallet's balance falls below its threshold. Leave a threshold empty to turn its alert off.
      </p>
      <ThresholdForm kind="api" wallet={wallets.data.api} />
      <ThresholdForm kind="product" wallet={wallets.data.product} />
    </div>
  );
}

function ThresholdForm({ kind, wallet }: { kind: WalletKind; wallet: WalletView }) {
  const current = wallet.low_balance_threshold_paise ?? null;
  const form = useZodForm<typeof alertSchema, AlertForm>(alertSchema, {
    threshold: current === null ? '' : paiseToRupees(current),
  });
  const msg = useTimedMessage();
  const save = useSetLowBalanceAlert();
  const id = `alert-${kind}`;

  const submit = form.handleSubmit((data) =>
    save.mutate(
      { kind, threshold_paise: data.threshold },
      {
        onSuccess: () => msg.success(data.threshold === null ? 'Alert turned off' : 'Alert saved'),
        onError: (e) => msg.error(errorMessage(e)),
      },
    ),
  );

  return (
    <form className="threshold-form" onSubmit={submit} noValidate aria-label={`${walletLabels[kind]} alert`}>
      <Alert message={msg.message} onClose={msg.clear} />
      <Field
        label={`${walletLabels[kind]} threshold (₹)`}
        htmlFor={id}
        error={form.errors.threshold}
        hint={`Balance ${formatRupees(wallet.balance_paise)}${wallet.low_balance_alerted ? ' — below the threshold' : ''}`}
      >
        <div className="inline-form">
          <input id={id} type="text" inputMode="decimal" placeholder="Off" {...form.text('threshold')} />
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {save.isPending ? 'Wait...' : 'Save'}
          </button>
        </div>
      </Field>
    </form>
  );
}
