// /user-transactions (spec part 2, §2.2): the rows of every user of the partner in four tabs,
// 50 per page, 'N of M', with the filter panel of My Transactions; filter, tab and page in the URL.
import { FilterPanel } from '@/components/ui/filter-panel';
import { Tabs, useTabParam } from '@/components/ui/tabs';
import { ExportCsvButton } from '@/features/exports/components/export-csv-button';
import { PartnerLogsTable } from '@/features/logs/components/partner-logs-table';
import { PartnerTransactionsTable } from '@/features/transactions/components/partner-transactions-table';
import { checkPartnerFilter, PARTNER_FILTER_KEYS, partnerFilterFields, partnerLogFilterFields } from '@/lib/partner-filter';
import { useUrlFilter } from '@/lib/url-filter';

const TABS = [
  ['api-transactions', 'API transactions'],
  ['api-logs', 'API logs'],
  ['product-transactions', 'Product transactions'],
  ['product-logs', 'Product logs'],
] as const;
type TabKey = (typeof TABS)[number][0];
const KEYS = TABS.map(([k]) => k);

// What each tab's Export to CSV exports: that list, for all the partner's users.
const EXPORT_KIND = {
  'api-transactions': 'api_transactions',
  'api-logs': 'api_logs',
  'product-transactions': 'product_transactions',
  'product-logs': 'product_logs',
} as const;

export default function UserTransactionsPage() {
  const [tab, setTab] = useTabParam<TabKey>(KEYS, 'api-transactions');
  const filter = useUrlFilter(PARTNER_FILTER_KEYS);
  const title = TABS.find(([k]) => k === tab)?.[1] ?? '';
  // Product events carry no PID.
  const fields =
    tab === 'product-logs' ? partnerFilterFields.filter((f) => f.key !== 'pid') : tab === 'api-logs' ? partnerLogFilterFields : partnerFilterFields;
  return (
    <section className="page">
      <h1 className="page-title">User Transactions</h1>
      <Tabs tabs={TABS.map(([key, label]) => ({ key, label }))} active={tab} onChange={setTab}>
        <h2 className="tab-title">{title}</h2>
        <FilterPanel name="Filter transactions" fields={fields} value={filter.values} onApply={filter.apply} onClear={filter.clear} check={checkPartnerFilter} />
        <ExportCsvButton key={tab} kind={EXPORT_KIND[tab]} filter={filter.values} side="user" />
        {tab === 'api-transactions' && <PartnerTransactionsTable kind="api" side="user" filter={filter.values} />}
        {tab === 'api-logs' && <PartnerLogsTable kind="api" filter={filter.values} />}
        {tab === 'product-transactions' && <PartnerTransactionsTable kind="product" side="user" filter={filter.values} />}
        {tab === 'product-logs' && <PartnerLogsTable kind="product" filter={filter.values} />}
      </Tabs>
    </section>
  );
}
