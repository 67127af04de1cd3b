// /user-detail (spec part 1, 'User Detail'): the stored user's header and the spec's ten tabs,
// and API Keys (issue 23: the partner manages its user's gateway keys here).
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { UserApiKeys } from '@/features/api-keys/components/user-api-keys';
import { ExportCsvButton } from '@/features/exports/components/export-csv-button';
import { ExportRequests } from '@/features/exports/components/export-requests';
import { Tabs, useTabParam } from '@/components/ui/tabs';
import { useCatalogueSummary } from '@/features/catalogue/api/get-catalogue-summary';
import { UserWhitelistTable } from '@/features/ip-access/components/whitelist-table';
import { UserIpHitsTable } from '@/features/ip-hits/components/ip-hits-table';
import { UserPriceTable } from '@/features/pricing/components/user-price-table';
import { VisibilityTable } from '@/features/visibility/components/visibility-table';
import { UserLogsTable } from '@/features/logs/components/user-logs-table';
import { UserTransactionsTable } from '@/features/transactions/components/user-transactions-table';
import { useUser } from '@/features/users/api/get-user';
import { readSelectedUser } from '@/features/users/api/selected-user';
import { UserHeader } from '@/features/users/components/user-header';
import { UserSettings } from '@/features/users/components/user-settings';
import { CreditsPanel } from '@/features/wallets/components/credits-panel';
import { errorMessage } from '@/lib/api-client';
import { paths } from '../../paths';

const TABS = [
  ['api-transactions', 'API Transactions'],
  ['product-transactions', 'Product Transactions'],
  ['api-logs', 'API Logs'],
  ['product-logs', 'Product Logs'],
  ['api-price', 'API Price'],
  ['credits', 'Credits'],
  ['ip-details', 'IP Details'],
  ['whitelist-ips', "Whitelist IP's"],
  ['settings', 'Settings'],
  ['api-status', 'API Status'],
  ['api-keys', 'API Keys'],
] as const;
type TabKey = (typeof TABS)[number][0];
const KEYS = TABS.map(([k]) => k);

const STATUS_TABS = [
  ['api', 'Status by API name'],
  ['category', 'Status by category name'],
] as const;
type StatusKey = (typeof STATUS_TABS)[number][0];

/** API Status: Show or Hide per API and per category for this one user. */
function ApiStatus({ userId }: { userId: number }) {
  const [by, setBy] = useTabParam<StatusKey>(['api', 'category'], 'api', 'by');
  const catalogue = useCatalogueSummary('partner');
  return (
    <Tabs tabs={STATUS_TABS.map(([key, label]) => ({ key, label }))} active={by} onChange={setBy}>
      {catalogue.isError && <Alert message={{ kind: 'error', text: errorMessage(catalogue.error) }} />}
      <VisibilityTable scope={{ scope: 'user', id: userId }} apis={catalogue.data?.items ?? []} by={by} loading={catalogue.isLoading} />
    </Tabs>
  );
}

export default function UserDetailPage() {
  const stored = readSelectedUser();
  const user = useUser(stored?.id ?? null);
  const [tab, setTab] = useTabParam<TabKey>(KEYS, 'api-transactions');

  if (!stored) {
    return (
      <section className="page">
        <p className="empty-state">
          No user selected. <Link to={paths.userAccounts}>Back</Link>
        </p>
      </section>
    );
  }
  const data = user.data ?? stored;
  const id = data.id;
  const title = TABS.find(([k]) => k === tab)?.[1] ?? '';

  const panel = (() => {
    switch (tab) {
      case 'api-transactions':
        return (
          <>
            <ExportCsvButton kind="api_transactions" userId={id} />
            <UserTransactionsTable userId={id} kind="api" />
          </>
        );
      case 'product-transactions':
        return (
          <>
            <ExportCsvButton kind="product_transactions" userId={id} />
            <UserTransactionsTable userId={id} kind="product" />
          </>
        );
      case 'api-logs':
        return (
          <>
            <UserLogsTable userId={id} kind="api" />
            <ExportRequests kind="api_logs" userId={id} />
          </>
        );
      case 'product-logs':
        return <UserLogsTable userId={id} kind="product" />;
      case 'api-price':
        return <UserPriceTable userId={id} />;
      case 'credits':
        return <CreditsPanel owner={{ scope: 'user', id }} />;
      case 'ip-details':
        return <UserIpHitsTable userId={id} />;
      case 'whitelist-ips':
        return <UserWhitelistTable userId={id} />;
      case 'settings':
        return <UserSettings user={data} />;
      case 'api-status':
        return <ApiStatus userId={id} />;
      case 'api-keys':
        return <UserApiKeys userId={id} fullAccess={data.full_access} />;
      default:
        return null;
    }
  })();

  return (
    <section className="page">
      <Link to={paths.userAccounts} className="back-link">
        <span aria-hidden="true">← </span>Back
      </Link>
      <h1 className="page-title">User Detail</h1>
      {user.isError && <Alert message={{ kind: 'error', text: errorMessage(user.error) }} />}
      <div className="card detail-card">
        <UserHeader user={data} />
      </div>
      <Tabs tabs={TABS.map(([key, label]) => ({ key, label }))} active={tab} onChange={setTab}>
        <h2 className="tab-title">{title}</h2>
        {panel}
      </Tabs>
    </section>
  );
}
