import { AuthLayout } from '@/components/layouts/auth-layout';
import { SuperAdminLoginForm } from '@/features/auth/components/superadmin-login-form';

export default function SuperAdminLoginPage() {
  return (
    <AuthLayout>
      <div className="card auth-card">
        <h1>Super Admin Login</h1>
        <SuperAdminLoginForm />
      </div>
    </AuthLayout>
  );
}
