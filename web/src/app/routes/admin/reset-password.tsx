import { ChangePasswordForm } from '@/features/auth/components/change-password-form';

export default function ResetPasswordPage() {
  return (
    <section className="page">
      <h1 className="page-title">Reset Password</h1>
      <ChangePasswordForm />
    </section>
  );
}
