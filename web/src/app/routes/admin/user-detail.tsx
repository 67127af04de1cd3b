// /user-detail (spec part 1, 'User Detail'): the stored user's header and ten tabs. API
// Transactions, Product Transactions, API Logs, Product Logs, API Price, Credits and Settings
// are built; the rest show their title for now.
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Tabs, useTabParam } from '@/components/ui/tabs';
import { UserPriceTable } from '@/features/pricing/components/user-price-table';
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
] as const;
type TabKey = (typeof TABS)[number][0];
const KEYS = TABS.map(([k]) => k);

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
        return <UserTransactionsTable userId={id} kind="api" />;
      case 'product-transactions':
        return <UserTransactionsTable userId={id} kind="product" />;
      case 'api-logs':
        return <UserLogsTable userId={id} kind="api" />;
      case 'product-logs':
        return <UserLogsTable userId={id} kind="product" />;
      case 'api-price':
        return <UserPriceTable userId={id} />;
      case 'credits':
        return <CreditsPanel owner={{ scope: 'user', id }} />;
      case 'settings':
        return <UserSettings user={data} />;
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
