// /verify-email/:token on a partner's site: the sign-up link its users get by mail. The
// sign-up's password finishes it and signs the user in.
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useLoadedSite } from '@/features/portal/api/get-site';
import { portalKeys } from '@/features/portal/api/keys';
import { VerifyEmailForm } from '@/features/portal/components/verify-email-form';
import { SiteCard } from '@/features/portal/components/site-frame';
import { portalPaths } from '@/features/portal/paths';
import { setUserToken } from '@/lib/auth';

export default function PortalVerifyEmailPage() {
  const site = useLoadedSite();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <SiteCard site={site} title="Verify your email address">
      <VerifyEmailForm
        token={token}
        onVerified={({ token: session }) => {
          setUserToken(session);
          queryClient.removeQueries({ queryKey: portalKeys.session() });
          navigate(portalPaths.dashboard, { replace: true });
        }}
      />
    </SiteCard>
  );
}
