// /forgot-password on a partner's site: only while the partner offers it.
import { Navigate } from 'react-router';
import { useLoadedSite } from '@/features/portal/api/get-site';
import { ForgotPasswordForm } from '@/features/portal/components/password-reset';
import { SiteCard } from '@/features/portal/components/site-frame';
import { portalPaths } from '@/features/portal/paths';

export default function PortalForgotPasswordPage() {
  const site = useLoadedSite();
  if (!site.signup.forgot_password) return <Navigate to={portalPaths.login} replace />;
  return (
    <SiteCard site={site} title="Forgot password">
      <ForgotPasswordForm />
    </SiteCard>
  );
}
