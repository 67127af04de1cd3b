// The Credits tab (User Detail for a partner, Client details for the super admin): the API
// Wallet and the Product Wallet, each with its balance and add / deduct.
import { Alert } from '@/components/ui/alert';
import { errorMessage } from '@/lib/api-client';
import { useOwnerWallets } from '../api/get-owner-wallets';
import type { WalletOwner } from '../api/types';
import { WalletCard } from './wallet-card';

export function CreditsPanel({ owner }: { owner: WalletOwner }) {
  const wallets = useOwnerWallets(owner);
  return (
    <div className="credits-panel">
      {wallets.isError && <Alert message={{ kind: 'error', text: errorMessage(wallets.error) }} />}
      <div className="wallet-cards">
        <WalletCard owner={owner} kind="api" balancePaise={wallets.data?.api.balance_paise} loading={wallets.isLoading} />
        <WalletCard owner={owner} kind="product" balancePaise={wallets.data?.product.balance_paise} loading={wallets.isLoading} />
      </div>
    </div>
  );
}
