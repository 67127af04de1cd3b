// /my-transactions (spec part 2, §2.3): the partner's own side of its users' API calls and
// purchases (what the partner paid, its balance after), each with the filter panel (User ID,
// Email, PID, Services, Date; Apply and Clear), and its own wallet movements; 50 per page,
// 'N of M', filter, tab and page in the URL.
import { FilterPanel } from '@/components/ui/filter-panel';
import { Tabs, useTabParam } from '@/components/ui/tabs';
import { ExportCsvButton } from '@/features/exports/components/export-csv-button';
import { PartnerTransactionsTable } from '@/features/transactions/components/partner-transactions-table';
import { MyWalletEntries } from '@/features/wallets/components/wallet-entries-table';
import { checkPartnerFilter, PARTNER_FILTER_KEYS, partnerFilterFields } from '@/lib/partner-filter';
import { useUrlFilter } from '@/lib/url-filter';
import { checkWalletFilter, WALLET_FILTER_KEYS, walletFilterFields } from '@/lib/wallet-filter';

const TABS = [
  ['api', 'API transactions'],
  ['product', 'Product transactions'],
  ['wallet', 'Wallet transactions'],
] as const;
type TabKey = (typeof TABS)[number][0];
const KEYS = TABS.map(([k]) => k);

export default function MyTransactionsPage() {
  const [tab, setTab] = useTabParam<TabKey>(KEYS, 'api');
  const filter = useUrlFilter(PARTNER_FILTER_KEYS);
  const walletFilter = useUrlFilter(WALLET_FILTER_KEYS);
  const title = TABS.find(([k]) => k === tab)?.[1] ?? '';
  return (
    <section className="page">
      <h1 className="page-title">My Transactions</h1>
      <Tabs tabs={TABS.map(([key, label]) => ({ key, label }))} active={tab} onChange={setTab}>
        <h2 className="tab-title">{title}</h2>
        {tab !== 'wallet' ? (
          <FilterPanel name="Filter transactions" fields={partnerFilterFields} value={filter.values} onApply={filter.apply} onClear={filter.clear} check={checkPartnerFilter} />
        ) : (
          <FilterPanel
            name="Filter wallet transactions"
            fields={walletFilterFields}
            value={walletFilter.values}
            onApply={walletFilter.apply}
            onClear={walletFilter.clear}
            check={checkWalletFilter}
          />
        )}
        {tab === 'wallet' ? (
          <ExportCsvButton key={tab} kind="wallet_entries" walletFilter={walletFilter.values} />
        ) : (
          <ExportCsvButton key={tab} kind={tab === 'api' ? 'api_transactions' : 'product_transactions'} filter={filter.values} side="partner" />
        )}
        {tab === 'api' && <PartnerTransactionsTable kind="api" side="partner" filter={filter.values} />}
        {tab === 'product' && <PartnerTransactionsTable kind="product" side="partner" filter={filter.values} />}
        {tab === 'wallet' && <MyWalletEntries filter={walletFilter.values} />}
      </Tabs>
    </section>
  );
}
