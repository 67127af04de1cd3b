// /signup on a partner's site: only while the partner lets its users create accounts.
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router';
import { useLoadedSite } from '@/features/portal/api/get-site';
import { portalKeys } from '@/features/portal/api/keys';
import { SignUpForm } from '@/features/portal/components/sign-up-form';
import { SiteCard } from '@/features/portal/components/site-frame';
import { portalPaths } from '@/features/portal/paths';
import { setUserToken } from '@/lib/auth';

export default function PortalSignUpPage() {
  const site = useLoadedSite();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  if (!site.signup.create_account) return <Navigate to={portalPaths.login} replace />;
  return (
    <SiteCard site={site} title="Create an account">
      <SignUpForm
        signup={site.signup}
        onSignedUp={({ token }) => {
          setUserToken(token);
          queryClient.removeQueries({ queryKey: portalKeys.session() });
          navigate(portalPaths.dashboard, { replace: true });
        }}
      />
    </SiteCard>
  );
}
