//! Outgoing mail: SMTP through lettre, or (the default) an outbox folder of `.eml` files; and
//! the `send_mail` job's payload, [`SendMail`], which names the mail to build rather than
//! carrying its text (the texts are in [`texts`], built at send time).

pub mod contact;

use std::path::PathBuf;

use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{Mailbox, MultiPart, header::ContentType},
    transport::smtp::authentication::Credentials,
};
use serde::{Deserialize, Serialize};

use crate::{
    infra::config::{MailConfig, SmtpConfig},
    infra::queue::Task,
    money::WalletKind,
};

pub mod outbox;
pub mod texts;

/// One message, as a job carries it. `message_id` is fixed when the job is enqueued so that a
/// retried delivery is recognisable as the same message.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Email {
    pub message_id: String,
    pub to: String,
    pub subject: String,
    pub text: String,
    #[serde(default)]
    pub html: Option<String>,
    #[serde(default)]
    pub reply_to: Option<String>,
}

impl Email {
    pub fn new(to: impl Into<String>, subject: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            message_id: format!("{}@kyc-platform", uuid::Uuid::new_v4()),
            to: to.into(),
            subject: subject.into(),
            text: text.into(),
            html: None,
            reply_to: None,
        }
    }

    pub fn to_message(&self, from: &str) -> anyhow::Result<Message> {
        let from: Mailbox = from
            .parse()
            .map_err(|e| anyhow::anyhow!("MAIL_FROM {from:?}: {e}"))?;
        let to: Mailbox = self
            .to
            .parse()
            .map_err(|e| anyhow::anyhow!("recipient {:?}: {e}", self.to))?;
        let mut b = Message::builder()
            .from(from)
            .to(to)
            .subject(&self.subject)
            .message_id(Some(format!("<{}>", self.message_id)));
        if let Some(r) = &self.reply_to
            && let Ok(mb) = r.parse::<Mailbox>()
        {
            b = b.reply_to(mb);
        }
        let msg = match &self.html {
            None => b.header(ContentType::TEXT_PLAIN).body(self.text.clone())?,
            Some(html) => b.multipart(MultiPart::alternative_plain_html(
                self.text.clone(),
                html.clone(),
            ))?,
        };
        Ok(msg)
    }
}

/// Whether a message went out already: a retry of a job that delivered, then died before it
/// could report, finds it here and sends nothing.
pub async fn delivered(conn: &mut sqlx::PgConnection, message_id: &str) -> crate::Result<bool> {
    Ok(
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM mail_deliveries WHERE message_id = $1)")
            .bind(message_id)
            .fetch_one(conn)
            .await?,
    )
}

/// Records a delivered message (see [`delivered`]).
pub async fn record_delivery(
    conn: &mut sqlx::PgConnection,
    email: &Email,
    transport: &str,
) -> crate::Result<()> {
    sqlx::query(
        "INSERT INTO mail_deliveries (message_id, recipient, subject, transport) VALUES ($1, $2, $3, $4)
         ON CONFLICT (message_id) DO NOTHING",
    )
    .bind(&email.message_id)
    .bind(&email.to)
    .bind(&email.subject)
    .bind(transport)
    .execute(conn)
    .await?;
    Ok(())
}

#[derive(Clone)]
pub enum Mailer {
    Outbox {
        dir: PathBuf,
        from: String,
    },
    Smtp {
        transport: AsyncSmtpTransport<Tokio1Executor>,
        from: String,
    },
}

impl Mailer {
    pub fn new(config: &MailConfig, from: &str) -> anyhow::Result<Self> {
        Ok(match config {
            MailConfig::Outbox { dir } => Mailer::Outbox {
                dir: dir.clone(),
                from: from.to_owned(),
            },
            MailConfig::Smtp(smtp) => Mailer::Smtp {
                transport: smtp_transport(smtp)?,
                from: from.to_owned(),
            },
        })
    }

    /// The same mailer sending as `name` (the address stays the mailer's own): the platform's
    /// mailer standing in for a partner's failed server keeps the partner's name on the mail.
    pub fn with_sender_name(&self, name: &str) -> Mailer {
        let rename = |from: &str| match from.parse::<Mailbox>() {
            Ok(mb) if !name.trim().is_empty() => {
                Mailbox::new(Some(name.trim().to_owned()), mb.email).to_string()
            }
            _ => from.to_owned(),
        };
        match self {
            Mailer::Outbox { dir, from } => Mailer::Outbox {
                dir: dir.clone(),
                from: rename(from),
            },
            Mailer::Smtp { transport, from } => Mailer::Smtp {
                transport: transport.clone(),
                from: rename(from),
            },
        }
    }

    pub fn transport_name(&self) -> &'static str {
        match self {
            Mailer::Outbox { .. } => "outbox",
            Mailer::Smtp { .. } => "smtp",
        }
    }

    pub async fn send(&self, email: &Email) -> anyhow::Result<()> {
        match self {
            Mailer::Outbox { dir, from } => {
                let bytes = email.to_message(from)?.formatted();
                tokio::fs::create_dir_all(dir).await?;
                // Sortable by time; the message id keeps a retried write on the same file.
                let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.6fZ");
                let id: String = email
                    .message_id
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                let final_path = dir.join(format!("{stamp}-{id}.eml"));
                let tmp = dir.join(format!(".{id}.tmp"));
                tokio::fs::write(&tmp, bytes).await?;
                tokio::fs::rename(&tmp, &final_path).await?;
                Ok(())
            }
            Mailer::Smtp { transport, from } => {
                transport.send(email.to_message(from)?).await?;
                Ok(())
            }
        }
    }
}

/// The `send_mail` job: one message, named by what it is and whom it is about. The handler
/// builds the text at send time ([`SendMail::build`]), so the queue (kept until pruned, and in
/// every backup) holds no link, token or password. `message_id` is fixed at enqueue time: a
/// retried delivery is recognisable as the same message (see `mail_deliveries`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(from = "SendMailWire")]
pub struct SendMail {
    pub message_id: String,
    pub mail: Mail,
    /// Mail to a partner's own end users: sent through that partner's SMTP when active.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partner_id: Option<i64>,
}

/// What a `send_mail` job sends.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "mail", rename_all = "snake_case")]
pub enum Mail {
    /// A message whose text holds nothing secret or personal (a test mail), carried as it is.
    Message(Email),
    /// The landing page's contact form, kept in `contact_requests`.
    Contact { request_id: i64 },
    /// The sign-up link; the token is minted into the row reserved by the request
    /// (`tokens::reserve`), so the link exists only in the mail.
    VerifyEmail { partner_id: i64, token_id: i64 },
    /// Forgot password: the account is looked up, and its token issued, when the mail is
    /// built, so the request answers alike (and as fast) whether or not the account exists.
    PasswordReset { email: String, user_name: String },
    /// The portal's forgot password for an end user of `partner_id`: looked up, and its token
    /// issued, when the mail is built (as [`Mail::PasswordReset`]).
    UserPasswordReset { partner_id: i64, email: String },
    /// Portal self sign-up on `partner_id`'s site with `email`: the verification link, or the
    /// owner's notice when the address already has a verified account, chosen (and its token
    /// issued) when the mail is built (`portal::signup`).
    UserSignup { partner_id: i64, email: String },
    /// Add User Manually: the mail to the new end user.
    AccountCreated { partner_id: i64, user_id: i64 },
    /// The low-balance alert to the partner that owns the wallet (`wallets::LowBalance`'s
    /// fields: ids and amounts only).
    LowBalance {
        wallet_id: i64,
        partner_id: i64,
        user_id: Option<i64>,
        kind: WalletKind,
        balance_paise: i64,
        threshold_paise: i64,
    },
    /// TruBank: the partner decided on a bank-statement verification request (its row id).
    BankStatementDecided { request_id: i64 },
    /// A webhook endpoint failed every delivery for 5 days and was disabled: to its owner.
    WebhookDisabled { endpoint_id: i64 },
    /// My Account, Profile: the partner's sign-in address changed; the notice goes to the old
    /// address, so a change its owner did not make does not go unseen.
    PartnerEmailChanged { partner_id: i64, old_email: String },
}

impl Mail {
    /// The mail's name where people see it (the partner's SMTP warning) and in logs.
    pub fn kind(&self) -> &'static str {
        match self {
            Mail::Message(_) => "message",
            Mail::Contact { .. } => "contact",
            Mail::VerifyEmail { .. } => "verify_email",
            Mail::PasswordReset { .. } => "password_reset",
            Mail::UserPasswordReset { .. } => "user_password_reset",
            Mail::UserSignup { .. } => "user_signup",
            Mail::AccountCreated { .. } => "account_created",
            Mail::LowBalance { .. } => "low_balance",
            Mail::BankStatementDecided { .. } => "bank_statement_decided",
            Mail::WebhookDisabled { .. } => "webhook_disabled",
            Mail::PartnerEmailChanged { .. } => "partner_email_changed",
        }
    }

    /// A mail an end user cannot do without (a reset link, the sign-up link, the mail that
    /// says an account exists): when the partner's own server fails it, the platform's mailer
    /// sends it at once under the partner's name rather than retrying a broken server while the
    /// link's hour runs out. Notices and alerts wait for the partner's server.
    pub fn is_account_mail(&self) -> bool {
        matches!(
            self,
            Mail::VerifyEmail { .. }
                | Mail::PasswordReset { .. }
                | Mail::UserPasswordReset { .. }
                | Mail::UserSignup { .. }
                | Mail::AccountCreated { .. }
        )
    }
}

impl Task for SendMail {
    const KIND: &'static str = "send_mail";
}

impl SendMail {
    /// A message sent as it is. Only for texts without a secret: the queue keeps payloads.
    pub fn new(email: Email) -> Self {
        Self {
            message_id: email.message_id.clone(),
            mail: Mail::Message(email),
            partner_id: None,
        }
    }

    /// A message on behalf of `partner_id`, through its own mail server when it has one.
    pub fn for_partner(email: Email, partner_id: i64) -> Self {
        Self {
            partner_id: Some(partner_id),
            ..Self::new(email)
        }
    }

    /// A mail the handler builds from the database at send time.
    pub fn of(mail: Mail) -> Self {
        Self {
            message_id: format!("{}@kyc-platform", uuid::Uuid::new_v4()),
            mail,
            partner_id: None,
        }
    }

    /// Sent through `partner_id`'s own mail server when it has one.
    pub fn via_partner(self, partner_id: i64) -> Self {
        Self {
            partner_id: Some(partner_id),
            ..self
        }
    }
}

/// Payloads queued before `mail` existed carried the whole message as `email`: still read.
#[derive(Deserialize)]
#[serde(untagged)]
enum SendMailWire {
    Now {
        message_id: String,
        mail: Mail,
        #[serde(default)]
        partner_id: Option<i64>,
    },
    Before {
        email: Email,
        #[serde(default)]
        partner_id: Option<i64>,
    },
}

impl From<SendMailWire> for SendMail {
    fn from(w: SendMailWire) -> Self {
        match w {
            SendMailWire::Now {
                message_id,
                mail,
                partner_id,
            } => Self {
                message_id,
                mail,
                partner_id,
            },
            SendMailWire::Before { email, partner_id } => Self {
                partner_id,
                ..Self::new(email)
            },
        }
    }
}

pub fn smtp_transport(c: &SmtpConfig) -> anyhow::Result<AsyncSmtpTransport<Tokio1Executor>> {
    use lettre::transport::smtp::client::{Tls, TlsParameters};
    let mut b = match &c.tls_name {
        // Connect to the checked address, verify the certificate against the host's name: a
        // second DNS answer cannot move the connection anywhere else.
        Some(name) => {
            let b = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&c.host);
            match c.tls.as_str() {
                "tls" => b.tls(Tls::Wrapper(TlsParameters::new(name.clone())?)),
                "starttls" => b.tls(Tls::Required(TlsParameters::new(name.clone())?)),
                _ => b,
            }
        }
        None => match c.tls.as_str() {
            "tls" => AsyncSmtpTransport::<Tokio1Executor>::relay(&c.host)?,
            "starttls" => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&c.host)?,
            _ => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&c.host),
        },
    }
    .port(c.port)
    .timeout(Some(std::time::Duration::from_secs(30)));
    if let (Some(user), Some(pass)) = (&c.user, &c.password) {
        b = b.credentials(Credentials::new(user.clone(), pass.clone()));
    }
    Ok(b.build())
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn payloads_round_trip_and_old_ones_still_read() {
        let low = Mail::LowBalance {
            wallet_id: 7,
            partner_id: 3,
            user_id: Some(9),
            kind: WalletKind::Api,
            balance_paise: 900,
            threshold_paise: 1000,
        };
        for job in [
            SendMail::of(low),
            SendMail::for_partner(Email::new("a@b.in", "Hi", "Text"), 3),
        ] {
            let bytes = serde_json::to_vec(&job).unwrap();
            assert_eq!(serde_json::from_slice::<SendMail>(&bytes).unwrap(), job);
        }
        let old = r#"{"email":{"message_id":"m1@kyc-platform","to":"a@b.in","subject":"S","text":"T"},"partner_id":4}"#;
        let job: SendMail = serde_json::from_str(old).unwrap();
        assert_eq!(
            (job.message_id.as_str(), job.partner_id),
            ("m1@kyc-platform", Some(4))
        );
        assert!(matches!(job.mail, Mail::Message(ref e) if e.subject == "S"));
        assert!(serde_json::from_str::<SendMail>(r#"{"mail":{"mail":"nope"}}"#).is_err());
    }

    #[test]
    fn a_stand_in_mailer_keeps_its_address_and_takes_the_partners_name() {
        let platform = Mailer::Outbox {
            dir: "/tmp/x".into(),
            from: "KYC Platform <no-reply@kyc.test>".into(),
        };
        let Mailer::Outbox { from, .. } = platform.with_sender_name("Acme, \"KYC\"") else {
            panic!()
        };
        let mb: Mailbox = from.parse().unwrap();
        assert_eq!(
            (mb.name.as_deref(), mb.email.to_string().as_str()),
            (Some("Acme, \"KYC\""), "no-reply@kyc.test")
        );
        assert!(
            Mail::UserPasswordReset {
                partner_id: 1,
                email: "a@b.in".into()
            }
            .is_account_mail()
                && !Mail::WebhookDisabled { endpoint_id: 1 }.is_account_mail()
        );
    }

    #[test]
    fn addresses_the_check_accepts_build_messages() {
        for good in [
            "a@example.com",
            "first.last+tag@sub.example.co.in",
            "o'brien@example.ie",
            "x_y-z@example.museum",
            "用户@例子.广告",
        ] {
            assert!(crate::infra::email_address::is_valid(good));
            Email::new(good, "s", "t")
                .to_message("KYC <no-reply@example.com>")
                .unwrap();
        }
    }
}
