// /reset-password-admin/:token: the mailed reset link (spec part 2 §2.10). The token is
// checked first; on success it is kept with the returned user id and name for
// /set-new-password/, and an expired link (400) shows 'Session expired ! Please try again'.
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { Spinner } from '@/components/ui/spinner';
import {
  RESET_TOKEN_KEY,
  RESET_USER_KEY,
  SESSION_EXPIRED,
  useVerifyResetToken,
} from '@/features/auth/api/passwords';
import { ApiError, errorMessage } from '@/lib/api-client';
import { paths } from '../../paths';

export default function ResetPasswordAdminPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const check = useVerifyResetToken(token);

  useEffect(() => {
    if (!check.isSuccess) return;
    sessionStorage.setItem(RESET_TOKEN_KEY, token);
    sessionStorage.setItem(RESET_USER_KEY, JSON.stringify(check.data));
    navigate(paths.setNewPassword, { replace: true });
  }, [check.isSuccess, check.data, token, navigate]);

  if (!check.isError) return <Spinner />;
  const expired = check.error instanceof ApiError && check.error.status === 400;
  return (
    <AuthLayout>
      <div className="card auth-card center">
        <p className="field-error big-message" role="alert">
          {expired ? SESSION_EXPIRED : errorMessage(check.error)}
        </p>
        <Link to={paths.auth}>Log In</Link>
      </div>
    </AuthLayout>
  );
}
