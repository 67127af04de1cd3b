// /reset-password/:token on a partner's site: the link its users get by mail.
import { useParams } from 'react-router';
import { useLoadedSite } from '@/features/portal/api/get-site';
import { ResetPasswordForm } from '@/features/portal/components/password-reset';
import { SiteCard } from '@/features/portal/components/site-frame';

export default function PortalResetPasswordPage() {
  const site = useLoadedSite();
  const { token = '' } = useParams();
  return (
    <SiteCard site={site} title="Reset Password">
      <ResetPasswordForm token={token} />
    </SiteCard>
  );
}
