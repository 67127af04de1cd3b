// /superadmin/client-details (spec part 2, §2.15): the stored client's header and side tabs.
// Users (a client's users and one user's tabs) is in ./client-users.
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, useTabParam } from '@/components/ui/tabs';
import { useCatalogueSummary } from '@/features/catalogue/api/get-catalogue-summary';
import { useClient } from '@/features/clients/api/get-client';
import { readSelectedClient } from '@/features/clients/api/selected-client';
import { ClientHeader } from '@/features/clients/components/client-header';
import { ClientLogsTable } from '@/features/logs/components/client-logs-table';
import { ChangePlanForm } from '@/features/plans/components/change-plan-form';
import { ClientPlanDetails } from '@/features/plans/components/client-plan-details';
import { ClientPricing } from '@/features/plans/components/client-pricing';
import { ClientSettingsPanel } from '@/features/settings/components/client-settings-panel';
import { DocumentationForm } from '@/features/settings/components/documentation-form';
import { VisibilityAccordion } from '@/features/visibility/components/visibility-accordion';
import { CreditsPanel } from '@/features/wallets/components/credits-panel';
import { OwnerWalletEntries } from '@/features/wallets/components/wallet-entries-table';
import { errorMessage } from '@/lib/api-client';
import { paths } from '../../paths';
import { refreshClient } from '../../query-cache';
import { ClientUsers, USER_PARAMS } from './client-users';

const TABS = [
  ['plan-details', 'Plan Details'],
  ['users', 'Users'],
  ['credits', 'Credits'],
  ['api-pricing', 'API Pricing'],
  ['documentation', 'Documentation'],
  ['settings', 'Settings'],
  ['api-status', 'API Status'],
  ['wallet-transactions', 'Wallet Transactions'],
  ['api-logs', 'Api Logs'],
] as const;
type TabKey = (typeof TABS)[number][0];
const KEYS = TABS.map(([k]) => k);

export default function ClientDetailsPage() {
  const stored = readSelectedClient();
  const client = useClient(stored?.id ?? null);
  const [tab, setTab] = useTabParam<TabKey>(KEYS, 'plan-details', 'tab', USER_PARAMS);
  const catalogue = useCatalogueSummary('superadmin');
  const queryClient = useQueryClient();

  if (!stored) {
    return (
      <section className="page">
        <p className="empty-state">
          No client selected. <Link to={paths.superadmin.clients}>Back to clients</Link>
        </p>
      </section>
    );
  }
  const data = client.data ?? stored;
  const id = data.id;
  const title = TABS.find(([k]) => k === tab)?.[1] ?? '';

  const panel = (() => {
    switch (tab) {
      case 'plan-details':
        return <ClientPlanDetails clientId={id} />;
      case 'users':
        return <ClientUsers clientId={id} userName={data.user_name} />;
      case 'credits':
        return <CreditsPanel owner={{ scope: 'client', id }} />;
      case 'api-pricing':
        return <ClientPricing clientId={id} services={catalogue.data?.items ?? []} />;
      case 'api-status':
        return <VisibilityAccordion scope={{ scope: 'client', id }} apis={catalogue.data?.items ?? []} loading={catalogue.isLoading} />;
      case 'wallet-transactions':
        return <OwnerWalletEntries owner={{ scope: 'client', id }} />;
      case 'api-logs':
        return <ClientLogsTable clientId={id} services={catalogue.data?.items ?? []} />;
      case 'documentation':
        return <DocumentationForm clientId={id} />;
      case 'settings':
        return (
          <div className="settings-stack">
            <ClientSettingsPanel clientId={id} subdomain={data.subdomain} onDomainChanged={() => refreshClient(queryClient, id)} />
            <ChangePlanForm clientId={id} current={data.plan} onChanged={() => refreshClient(queryClient, id)} />
          </div>
        );
      default:
        return null;
    }
  })();

  return (
    <section className="page">
      {client.isError && <Alert message={{ kind: 'error', text: errorMessage(client.error) }} />}
      <ClientHeader client={data} backTo={paths.superadmin.clients} />
      <Tabs vertical tabs={TABS.map(([key, label]) => ({ key, label }))} active={tab} onChange={setTab}>
        <h2 className="tab-title">{title}</h2>
        {client.isLoading && !stored ? <Spinner /> : panel}
      </Tabs>
    </section>
  );
}
