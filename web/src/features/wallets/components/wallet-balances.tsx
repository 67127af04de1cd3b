// Top-bar wallet balances of the partner (spec part 1 "Admin area shell").
import { formatRupees } from '@/lib/format';
import { useToast } from '@/components/ui/toast';
import { usePartnerWallets } from '../api/get-wallets';
import { RefreshIcon } from '@/components/ui/icons';
import { LowBalanceAlertsButton } from './low-balance-alerts';

export function WalletBalances() {
  const wallets = usePartnerWallets();
  const toast = useToast();

  const refresh = async (which: 'api' | 'product') => {
    await wallets.refetch();
    toast.show(which === 'api' ? 'API wallet refreshed' : 'Product wallet refreshed', 2000);
  };

  return (
    <div className="wallets">
      <WalletChip
        label="API Wallet"
        paise={wallets.data?.api.balance_paise}
        busy={wallets.isFetching}
        onRefresh={() => refresh('api')}
      />
      <WalletChip
        label="Product Wallet"
        paise={wallets.data?.product.balance_paise}
        busy={wallets.isFetching}
        onRefresh={() => refresh('product')}
      />
      <LowBalanceAlertsButton />
    </div>
  );
}

function WalletChip(props: { label: string; paise: number | undefined; busy: boolean; onRefresh: () => void }) {
  return (
    <div className="wallet-chip">
      <span className="wallet-label">{props.label}</span>
      <span className="wallet-amount">{formatRupees(props.paise)}</span>
      <button
        type="button"
        className="icon-button refresh"
        aria-label={`Refresh ${props.label}`}
        title={`Refresh ${props.label}`}
        onClick={props.onRefresh}
        disabled={props.busy}
      >
        <RefreshIcon />
      </button>
    </div>
  );
}
