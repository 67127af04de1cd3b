// /superadmin/wallet-transactions (spec part 2, §2.18): date, type, amount, balance, user id,
// with a filter panel (User ID, Wallet, Type, From, To) in the URL.
import { FilterPanel } from '@/components/ui/filter-panel';
import { AllWalletTransactions } from '@/features/wallets/components/wallet-entries-table';
import { useUrlFilter } from '@/lib/url-filter';
import { ALL_WALLETS_FILTER_KEYS, allWalletsFilterFields, checkWalletFilter } from '@/lib/wallet-filter';

export default function WalletTransactionsPage() {
  const filter = useUrlFilter(ALL_WALLETS_FILTER_KEYS);
  return (
    <section className="page">
      <FilterPanel name="Filter wallet transactions" fields={allWalletsFilterFields} value={filter.values} onApply={filter.apply} onClear={filter.clear} check={checkWalletFilter} />
      <AllWalletTransactions filter={filter.values} />
    </section>
  );
}
