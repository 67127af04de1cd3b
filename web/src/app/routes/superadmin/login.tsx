import { useQueryClient } from '@tanstack/react-query';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { SuperAdminLoginForm } from '@/features/auth/components/superadmin-login-form';
import { forgetSession, superAdminSessionKeys } from '../../query-cache';

export default function SuperAdminLoginPage() {
  const queryClient = useQueryClient();
  return (
    <AuthLayout>
      <div className="card auth-card">
        <h1>Super Admin Login</h1>
        <SuperAdminLoginForm onSignedIn={() => forgetSession(queryClient, superAdminSessionKeys())} />
      </div>
    </AuthLayout>
  );
}
