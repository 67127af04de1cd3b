// Client details, Users (spec part 2 §2.15): the client's users, 8 per page, and one user's
// detail with the partner console's own tabs (API Transactions, API Logs, Product Transactions,
// Product Logs, API Price, Credits, Settings) over the super admin's endpoints, and Back. The
// open user is in the URL (`?tab=users&user=ID&utab=…`), so reload and the back button keep it.
import { useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, useTabParam } from '@/components/ui/tabs';
import { UserLogsTable } from '@/features/logs/components/user-logs-table';
import { UserPriceTable } from '@/features/pricing/components/user-price-table';
import { UserTransactionsTable } from '@/features/transactions/components/user-transactions-table';
import { useUser } from '@/features/users/api/get-user';
import { UserCards } from '@/features/users/components/user-cards';
import { UserHeader } from '@/features/users/components/user-header';
import { UserSettings } from '@/features/users/components/user-settings';
import { CreditsPanel } from '@/features/wallets/components/credits-panel';
import { errorMessage } from '@/lib/api-client';

const USER_TABS = [
  ['api-transactions', 'API Transactions'],
  ['api-logs', 'API Logs'],
  ['product-transactions', 'Product Transactions'],
  ['product-logs', 'Product Logs'],
  ['api-price', 'API Price'],
  ['credits', 'Credits'],
  ['settings', 'Settings'],
] as const;
type UserTab = (typeof USER_TABS)[number][0];
const USER_TAB_KEYS = USER_TABS.map(([k]) => k);

/** The URL params of the open user (and the list page it was opened from); the client tabs drop them. */
export const USER_PARAMS = ['user', 'utab', 'upage'] as const;

function ClientUserDetail({ clientId, userId, onBack }: { clientId: number; userId: number; onBack: () => void }) {
  const user = useUser(userId, clientId);
  const [tab, setTab] = useTabParam<UserTab>(USER_TAB_KEYS, 'api-transactions', 'utab');
  const ref = { userId, clientId };

  const panel = (() => {
    switch (tab) {
      case 'api-transactions':
        return <UserTransactionsTable {...ref} kind="api" />;
      case 'api-logs':
        return <UserLogsTable {...ref} kind="api" />;
      case 'product-transactions':
        return <UserTransactionsTable {...ref} kind="product" />;
      case 'product-logs':
        return <UserLogsTable {...ref} kind="product" />;
      case 'api-price':
        return <UserPriceTable {...ref} />;
      case 'credits':
        return <CreditsPanel owner={{ scope: 'user', id: userId, clientId }} />;
      case 'settings':
        return user.data ? <UserSettings user={user.data} clientId={clientId} /> : <Spinner />;
      default:
        return null;
    }
  })();

  return (
    <div className="client-user-detail">
      <button type="button" className="back-link link-button" onClick={onBack}>
        <span aria-hidden="true">← </span>Back
      </button>
      {user.isError && <Alert message={{ kind: 'error', text: errorMessage(user.error) }} />}
      {user.isLoading && <Spinner />}
      {user.data && (
        <div className="card detail-card">
          <UserHeader user={user.data} />
        </div>
      )}
      {!user.isError && (
        <Tabs tabs={USER_TABS.map(([key, label]) => ({ key, label }))} active={tab} onChange={setTab}>
          {panel}
        </Tabs>
      )}
    </div>
  );
}

export function ClientUsers({ clientId, userName }: { clientId: number; userName: string }) {
  const [params, setParams] = useSearchParams();
  const raw = Number.parseInt(params.get('user') ?? '', 10);
  const open = Number.isFinite(raw) && raw > 0 ? raw : null;

  // Opening a user keeps the list's page aside (`upage`), so Back returns to that page.
  const view = (id: number | null) =>
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      const listPage = id === null ? prev.get('upage') : prev.get('page');
      for (const k of [...USER_PARAMS, 'page']) p.delete(k);
      if (id !== null) p.set('user', String(id));
      const pageParam = id === null ? 'page' : 'upage';
      if (listPage) p.set(pageParam, listPage);
      return p;
    });

  if (open !== null) return <ClientUserDetail clientId={clientId} userId={open} onBack={() => view(null)} />;
  return <UserCards client={{ id: clientId, userName }} onView={(u) => view(u.id)} />;
}
