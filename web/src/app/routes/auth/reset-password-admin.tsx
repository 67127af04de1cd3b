// /reset-password-admin/:token: the mailed reset link. The token is kept for
// /set-new-password/, which posts it with the new password; an expired token
// answers 400 there and shows 'Session expired ! Please try again'.
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { RESET_TOKEN_KEY } from '@/features/auth/api/passwords';
import { paths } from '../../paths';

export default function ResetPasswordAdminPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  useEffect(() => {
    sessionStorage.setItem(RESET_TOKEN_KEY, token);
    navigate(paths.setNewPassword, { replace: true });
  }, [token, navigate]);
  return <Spinner />;
}
