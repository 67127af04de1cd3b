// End-user sign-in on the partner's site: e-mail, password and the captcha.
import { Link } from 'react-router';
import { CredentialsForm } from '@/components/ui/credentials-form';
import { signIn, signInSchema } from '../api/sign-in';
import type { UserSession } from '../api/types';
import { portalPaths } from '../paths';

type Props = {
  /** Forgot password is offered only while the partner allows it. */
  forgotPassword: boolean;
  signUp: boolean;
  onSignedIn: (session: UserSession) => void;
};

export function SignInForm({ forgotPassword, signUp, onSignedIn }: Props) {
  return (
    <CredentialsForm
      label="Login"
      idPrefix="portal-login"
      captchaKey="portal-login"
      schema={signInSchema}
      signIn={signIn}
      onSignedIn={(session) => onSignedIn(session)}
      extras={() =>
        forgotPassword && (
          <div className="form-links">
            <Link to={portalPaths.forgotPassword}>Forgot password</Link>
          </div>
        )
      }
      footer={
        signUp && (
          <p className="center">
            New here? <Link to={portalPaths.signup}>Create an account</Link>
          </p>
        )
      }
    />
  );
}
