// Partner login (spec part 1 "Partner login").
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CredentialsForm } from '@/components/ui/credentials-form';
import { decodeJwt, setPartnerToken, type PartnerClaims } from '@/lib/auth';
import { loginPartner, loginSchema } from '../api/login';
import { ForgotPasswordModal } from './forgot-password-modal';

/**
 * Where a partner goes after signing in: with a sub-domain in the token the
 * status check decides between /dashboard and /complete-details; without one,
 * straight to /complete-details.
 */
export async function afterLoginPath(token: string, checkStatus: () => Promise<{ onboarding_step: number }>) {
  const claims = decodeJwt<PartnerClaims>(token);
  if (!claims?.subdomain) return '/complete-details';
  try {
    const status = await checkStatus();
    return status.onboarding_step >= 6 ? '/dashboard' : '/complete-details';
  } catch {
    return '/complete-details';
  }
}

type Props = {
  checkStatus: () => Promise<{ onboarding_step: number }>;
  /** Called once the token is stored: the app drops what an earlier session left cached. */
  onSignedIn?: () => void;
};

export function LoginForm({ checkStatus, onSignedIn }: Props) {
  const navigate = useNavigate();
  const [forgotOpen, setForgotOpen] = useState(false);

  return (
    <>
      <CredentialsForm
        label="Login"
        idPrefix="login"
        captchaKey="partner-login"
        schema={loginSchema}
        initial={{ email: '', password: '', captcha: '', terms: false }}
        signIn={loginPartner}
        onSignedIn={async ({ token }) => {
          setPartnerToken(token);
          onSignedIn?.();
          navigate(await afterLoginPath(token, checkStatus), { replace: true });
        }}
        extras={(form) => (
          <>
            <div className="field">
              <label className="checkbox">
                <input type="checkbox" checked={form.values.terms} onChange={(e) => form.setValue('terms', e.target.checked)} />
                <span>I agree to the Terms and Conditions</span>
              </label>
              {form.errors.terms && <span className="field-error">{form.errors.terms}</span>}
            </div>
            <div className="form-links">
              <button type="button" className="link-button" onClick={() => setForgotOpen(true)}>
                Forgot password
              </button>
            </div>
          </>
        )}
      />
      <ForgotPasswordModal open={forgotOpen} onClose={() => setForgotOpen(false)} />
    </>
  );
}
