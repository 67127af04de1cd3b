//! The texts of the platform's mails, built at send time by the `send_mail` job (see
//! [`super::SendMail`]): the links in them exist only in the mail, never in the job queue.

use super::Email;

/// The sign-up mail with the e-mail verification link (valid 24 hours).
pub fn verify_email(to: &str, first_name: &str, public_url: &str, token: &str) -> Email {
    let link = format!("{public_url}/verify-email/{token}");
    Email::new(
        to,
        "Verify your email address",
        format!(
            "Hello {first_name},\n\nThank you for signing up for whitelabel. Please verify your email address by opening this link \
             (it is valid for 24 hours):\n\n{link}\n\nIf you did not sign up, you can ignore this email.\n"
        ),
    )
}

/// Forgot password: the reset link (valid 1 hour, one use).
pub fn reset_password(
    to: &str,
    first_name: &str,
    user_name: &str,
    public_url: &str,
    token: &str,
) -> Email {
    let link = format!("{public_url}/reset-password-admin/{token}");
    Email::new(
        to,
        "Reset your password",
        format!(
            "Hello {first_name},\n\nWe received a request to reset the password of your account {user_name}. Open this link to set a new \
             password (it is valid for 1 hour and works once):\n\n{link}\n\nIf you did not ask for this, you can ignore this email.\n"
        ),
    )
}

/// To a partner's previous sign-in address after My Account's Profile changed it.
pub fn partner_email_changed(to: &str, first_name: &str, user_name: &str) -> Email {
    Email::new(
        to,
        "Your sign-in email was changed",
        format!(
            "Hello {first_name},\n\nThe email address you sign in with to your account {user_name} was changed, and this address no \
             longer signs in. If you made this change, there is nothing to do.\n\nIf you did not, someone may be using your account: \
             contact us at once.\n"
        ),
    )
}

/// The portal's forgot password: the reset link on the partner's own site (1 hour, one use).
pub fn user_reset_password(
    to: &str,
    first_name: &str,
    site_title: &str,
    site_url: &str,
    token: &str,
) -> Email {
    let link = format!("{site_url}/reset-password/{token}");
    Email::new(
        to,
        "Reset your password",
        format!(
            "Hello {first_name},\n\nWe received a request to reset the password of your {site_title} account. Open this link to set a new \
             password (it is valid for 1 hour and works once):\n\n{link}\n\nIf you did not ask for this, you can ignore this email.\n"
        ),
    )
}

/// Portal self sign-up: the link that verifies the address (24 hours, one use; the page asks
/// for the sign-up's password).
pub fn user_verify_email(
    to: &str,
    first_name: &str,
    site_title: &str,
    site_url: &str,
    token: &str,
) -> Email {
    let link = format!("{site_url}/verify-email/{token}");
    Email::new(
        to,
        "Verify your email address",
        format!(
            "Hello {first_name},\n\nThank you for signing up at {site_title}. Open this link and enter the password you chose to \
             verify your email address and sign in (it is valid for 24 hours and works once):\n\n{link}\n\nIf you did not sign up, \
             you can ignore this email: no account is opened without it.\n"
        ),
    )
}

/// Portal self sign-up with an address that already has a verified account: its owner is told,
/// instead of the one who signed up (the sign-up's answer never says the address is known).
pub fn user_signup_existing(to: &str, first_name: &str, site_title: &str, site_url: &str) -> Email {
    Email::new(
        to,
        "Someone tried to sign up with your email address",
        format!(
            "Hello {first_name},\n\nSomeone tried to create an account at {site_title} with this email address, which already has \
             an account. If it was you, sign in at {site_url}/login, or set a new password at {site_url}/forgot-password. If it was \
             not you, you can ignore this email: nothing has changed.\n"
        ),
    )
}

/// Add User Manually: the new end user learns it has an account (never its password).
pub fn account_created(to: &str, first_name: &str, user_id: i64) -> Email {
    Email::new(
        to,
        "Your account has been created",
        format!(
            "Hello {first_name},\n\nAn account has been created for you (user id {user_id}). Sign in with this e-mail address and the password your administrator gave you.\n"
        ),
    )
}

/// The SMTP step's 'send test mail', to the partner's own address through its own server.
pub fn smtp_test(to: &str, host: &str) -> Email {
    Email::new(
        to,
        "Test mail from your SMTP settings",
        format!(
            "This is a test message sent through your mail server {host}. Your SMTP settings work.\n"
        ),
    )
}

/// TruBank: the partner decided on the user's bank-statement verification request. Only the
/// account number's last four digits are written out.
pub fn bank_statement_decided(
    to: &str,
    first_name: &str,
    request_id: &str,
    account_number: &str,
    bank_name: &str,
    status: &str,
    comment: Option<&str>,
) -> Email {
    let tail: String = account_number
        .chars()
        .rev()
        .take(4)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let comment = comment
        .map(|c| format!("\nComment: {c}\n"))
        .unwrap_or_default();
    Email::new(
        to,
        format!("Bank statement verification {request_id}: {status}"),
        format!(
            "Hello {first_name},\n\nYour bank statement verification request {request_id} (account ending {tail}, {bank_name}) \
             has been reviewed.\n\nStatus: {status}\n{comment}\nThe details are also available from the API: \
             GET /api/v1/products/bank-statements/{request_id}\n"
        ),
    )
}

/// A webhook endpoint that failed every delivery for 5 days was disabled.
pub fn webhook_disabled(to: &str, url: &str) -> Email {
    Email::new(
        to,
        "Your webhook endpoint was disabled",
        format!(
            "Hello,\n\nEvery delivery to your webhook endpoint {url} has failed for 5 days, so it has been disabled and no \
             events are sent to it any more. Once it answers again, enable it on the Webhooks page; you can replay the \
             deliveries it missed from its delivery log.\n"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    // The texts as the handlers wrote them before they moved here, byte for byte.
    #[test]
    fn texts_are_the_old_handlers() {
        let v = verify_email("a@b.in", "Asha", "http://x", "TOK");
        assert_eq!(v.subject, "Verify your email address");
        assert_eq!(
            v.text,
            "Hello Asha,\n\nThank you for signing up for whitelabel. Please verify your email address by opening this link (it is valid for 24 hours):\n\nhttp://x/verify-email/TOK\n\nIf you did not sign up, you can ignore this email.\n"
        );
        let r = reset_password("a@b.in", "Asha", "asha_r", "http://x", "TOK");
        assert_eq!(r.subject, "Reset your password");
        assert_eq!(
            r.text,
            "Hello Asha,\n\nWe received a request to reset the password of your account asha_r. Open this link to set a new password (it is valid for 1 hour and works once):\n\nhttp://x/reset-password-admin/TOK\n\nIf you did not ask for this, you can ignore this email.\n"
        );
        let c = account_created("m@e.in", "Meera", 12);
        assert_eq!(
            (c.to.as_str(), c.subject.as_str()),
            ("m@e.in", "Your account has been created")
        );
        assert_eq!(
            c.text,
            "Hello Meera,\n\nAn account has been created for you (user id 12). Sign in with this e-mail address and the password your administrator gave you.\n"
        );
    }

    #[test]
    fn bank_statement_decision_names_the_request_not_the_account() {
        let m = bank_statement_decided(
            "a@b.in",
            "Asha",
            "TRB123",
            "501001234590",
            "HDFC Bank",
            "Not verified",
            Some("Pages missing"),
        );
        assert_eq!(
            m.subject,
            "Bank statement verification TRB123: Not verified"
        );
        assert!(
            m.text.contains("account ending 4590, HDFC Bank")
                && m.text
                    .contains("Status: Not verified\n\nComment: Pages missing\n"),
            "{}",
            m.text
        );
        assert!(!m.text.contains("501001234590"));
    }
}
