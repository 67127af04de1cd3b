// The warning above My Account's SMTP settings when the partner's own mail server failed a mail:
// when, which mail, the server's answer, and what became of the mail. Before it existed a broken
// server failed quietly while the console said the mail was sent.
import { formatDate } from '@/lib/format';
import type { SmtpFailure } from '../api/smtp';

/** Each mail kind (`domain::mail::Mail::kind`) as the partner knows it. */
const MAIL_NAMES: Record<string, string> = {
  user_password_reset: "a user's password reset mail",
  user_signup: "a user's sign-up verification mail",
  account_created: "a new user's account mail",
  verify_email: 'an e-mail verification mail',
  password_reset: 'a password reset mail',
  low_balance: 'a low balance alert',
  bank_statement_decided: 'a bank statement decision mail',
  webhook_disabled: 'a webhook notice',
  smtp_test: 'the test mail',
};

export function SmtpFailureWarning({ failure }: { failure: SmtpFailure }) {
  const mail = MAIL_NAMES[failure.mail] ?? 'a mail';
  return (
    <div className="alert alert-warning smtp-failure" role="alert">
      <div>
        <strong>Your SMTP server did not send {mail}.</strong>
        <p>
          At {formatDate(failure.at)} it answered: <code className="wrap-anywhere">{failure.error}</code>
        </p>
        <p>
          {failure.fallback
            ? "So that your user still gets it, it was sent from the platform's mail server under your company name."
            : failure.mail === 'smtp_test'
              ? 'Mail to your users goes through this server while it is active.'
              : 'It was not sent; it is tried again later.'}{' '}
          Check the settings below, save them and send a test mail.
        </p>
      </div>
    </div>
  );
}
