// Super-admin login (spec part 2 §2.12): username (e-mail), password, captcha.
import { useNavigate } from 'react-router';
import { CredentialsForm } from '@/components/ui/credentials-form';
import { setSuperAdminToken } from '@/lib/auth';
import { loginSuperAdmin, superAdminLoginSchema } from '../api/superadmin-login';

/** `onSignedIn` runs once the token is stored: the app drops what an earlier session cached. */
export function SuperAdminLoginForm({ onSignedIn }: { onSignedIn?: () => void }) {
  const navigate = useNavigate();
  return (
    <CredentialsForm
      label="Super admin login"
      idPrefix="sa"
      captchaKey="superadmin-login"
      schema={superAdminLoginSchema}
      emailLabel="Username"
      emailPlaceholder="Email"
      signIn={loginSuperAdmin}
      onSignedIn={({ token }, input) => {
        setSuperAdminToken(token);
        sessionStorage.setItem('superadmin_user', input.email);
        onSignedIn?.();
        navigate('/superadmin/dashboard', { replace: true });
      }}
    />
  );
}
