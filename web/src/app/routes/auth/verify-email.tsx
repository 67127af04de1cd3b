// /verify-email/:id (spec part 1 "Email verification"). After the 2 seconds it goes to
// /complete-details when the partner is signed in in this browser; a partner who opened the
// mailed link elsewhere has no session there, and the wizard would show it a blank sign-up
// form, so it goes to sign-in instead (the page says "You can login to your dashboard").
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { Spinner } from '@/components/ui/spinner';
import { useVerifyEmail } from '@/features/auth/api/verify-email';
import { getPartnerToken } from '@/lib/auth';
import { paths } from '../../paths';

export const VERIFY_REDIRECT_MS = 2000;

export default function VerifyEmailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const result = useVerifyEmail(id);

  useEffect(() => {
    if (!result.isSuccess) return;
    const next = getPartnerToken() ? paths.completeDetails : paths.auth;
    const t = setTimeout(() => navigate(next, { replace: true }), VERIFY_REDIRECT_MS);
    return () => clearTimeout(t);
  }, [result.isSuccess, navigate]);

  return (
    <AuthLayout>
      <div className="card auth-card center">
        {result.isPending && <Spinner label="Updating Status" />}
        {result.isSuccess && <p className="field-ok big-message">Your email is verified successfully, You can login to your dashboard.</p>}
        {result.isError && <p className="field-error big-message">Error Updating Status</p>}
      </div>
    </AuthLayout>
  );
}
