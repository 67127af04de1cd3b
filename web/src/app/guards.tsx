// Route guards (spec part 2 §2.1).
import { Navigate, Outlet } from 'react-router';
import { getPartnerToken, getSuperAdminToken, getUserToken } from '@/lib/auth';
import { errorMessage } from '@/lib/api-client';
import { Spinner } from '@/components/ui/spinner';
import { usePartnerMe } from '@/features/onboarding/api/get-me';
import { portalPaths } from '@/features/portal/paths';
import { paths } from './paths';

/** Client-admin routes: signed out -> /auth; onboarding not finished -> /complete-details. */
export function PartnerGuard() {
  const token = getPartnerToken();
  const me = usePartnerMe(!!token);
  if (!token) return <Navigate to={paths.auth} replace />;
  if (me.isPending) return <Spinner />;
  if (me.isError) {
    return (
      <div className="page-center">
        <p role="alert">{errorMessage(me.error)}</p>
        <button type="button" className="btn btn-primary" onClick={() => me.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (me.data.onboarding_step < 6) return <Navigate to={paths.completeDetails} replace />;
  return <Outlet />;
}

/** /auth: a signed-in partner goes on to the dashboard. */
export function PartnerGuestOnly() {
  return getPartnerToken() ? <Navigate to={paths.dashboard} replace /> : <Outlet />;
}

/** Super-admin routes: signed out -> /superadmin/auth. */
export function SuperAdminGuard() {
  return getSuperAdminToken() ? <Outlet /> : <Navigate to={paths.superadmin.auth} replace />;
}

/** /superadmin/auth: a signed-in super admin goes on to the dashboard. */
export function SuperAdminGuestOnly() {
  return getSuperAdminToken() ? <Navigate to={paths.superadmin.dashboard} replace /> : <Outlet />;
}

/** The portal's signed-in pages: signed out -> /login on the partner's site. */
export function UserGuard() {
  return getUserToken() ? <Outlet /> : <Navigate to={portalPaths.login} replace />;
}

/** The portal's /login and /signup: a signed-in user goes on to the dashboard. */
export function UserGuestOnly() {
  return getUserToken() ? <Navigate to={portalPaths.dashboard} replace /> : <Outlet />;
}
