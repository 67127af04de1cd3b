import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { LoginForm } from '@/features/auth/components/login-form';
import { getPartnerStatus } from '@/features/onboarding/api/get-status';
import { paths } from '../../paths';
import { forgetSession, partnerSessionKeys } from '../../query-cache';

export default function LoginPage() {
  const queryClient = useQueryClient();
  return (
    <AuthLayout
      headerRight={
        <Link to={paths.signup} className="btn btn-outline">
          Sign Up
        </Link>
      }
    >
      <div className="card auth-card">
        <h1>Login</h1>
        <LoginForm checkStatus={getPartnerStatus} onSignedIn={() => forgetSession(queryClient, partnerSessionKeys())} />
      </div>
    </AuthLayout>
  );
}
