// /login on a partner's site: the end user's sign-in.
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useLoadedSite } from '@/features/portal/api/get-site';
import { portalKeys } from '@/features/portal/api/keys';
import { SiteCard } from '@/features/portal/components/site-frame';
import { SignInForm } from '@/features/portal/components/sign-in-form';
import { portalPaths } from '@/features/portal/paths';
import { setUserToken } from '@/lib/auth';

export default function PortalLoginPage() {
  const site = useLoadedSite();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <SiteCard site={site} title="Login">
      <SignInForm
        forgotPassword={site.signup.forgot_password}
        signUp={site.signup.create_account}
        onSignedIn={({ token }) => {
          setUserToken(token);
          // A fresh sign-in must not show what an earlier session left in the cache.
          queryClient.removeQueries({ queryKey: portalKeys.session() });
          navigate(portalPaths.dashboard, { replace: true });
        }}
      />
    </SiteCard>
  );
}
