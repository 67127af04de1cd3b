// / on a partner's site: its landing page when its Landing page switch is on, else sign-in
// (or the dashboard for a user already signed in).
import { Navigate } from 'react-router';
import { useLoadedSite } from '@/features/portal/api/get-site';
import { PortalLanding } from '@/features/portal/components/portal-landing';
import { portalPaths } from '@/features/portal/paths';
import { getUserToken } from '@/lib/auth';

export default function PortalHome() {
  const site = useLoadedSite();
  if (site.landing_page) return <PortalLanding site={site} />;
  return <Navigate to={getUserToken() ? portalPaths.dashboard : portalPaths.login} replace />;
}
