import { Link } from 'react-router';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { LoginForm } from '@/features/auth/components/login-form';
import { getPartnerStatus } from '@/features/partner/api/get-status';
import { paths } from '../../paths';

export default function LoginPage() {
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
        <LoginForm checkStatus={getPartnerStatus} />
      </div>
    </AuthLayout>
  );
}
