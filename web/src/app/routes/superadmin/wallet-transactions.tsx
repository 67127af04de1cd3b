// /superadmin/wallet-transactions (spec part 2, §2.18): date, type, amount, balance, user id.
import { AllWalletTransactions } from '@/features/wallets/components/wallet-entries-table';

export default function WalletTransactionsPage() {
  return (
    <section className="page">
      <AllWalletTransactions />
    </section>
  );
}
