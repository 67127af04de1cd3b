import { AuthLayout } from '@/components/layouts/auth-layout';
import { SetNewPasswordForm } from '@/features/auth/components/set-new-password-form';

export default function SetNewPasswordPage() {
  return (
    <AuthLayout>
      <div className="card auth-card">
        <h1>Set new password</h1>
        <SetNewPasswordForm />
      </div>
    </AuthLayout>
  );
}
