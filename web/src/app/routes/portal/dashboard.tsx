// /dashboard on a partner's site.
import { useLoadedSite } from '@/features/portal/api/get-site';
import { Dashboard } from '@/features/portal/components/dashboard';

export default function PortalDashboardPage() {
  return <Dashboard site={useLoadedSite()} />;
}
