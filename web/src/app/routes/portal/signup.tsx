// /signup on a partner's site: only while the partner lets its users create accounts.
import { Navigate } from 'react-router';
import { useLoadedSite } from '@/features/portal/api/get-site';
import { SignUpForm } from '@/features/portal/components/sign-up-form';
import { SiteCard } from '@/features/portal/components/site-frame';
import { portalPaths } from '@/features/portal/paths';

export default function PortalSignUpPage() {
  const site = useLoadedSite();
  if (!site.signup.create_account) return <Navigate to={portalPaths.login} replace />;
  return (
    <SiteCard site={site} title="Create an account">
      <SignUpForm signup={site.signup} />
    </SiteCard>
  );
}
