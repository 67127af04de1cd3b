//! Outgoing mail: SMTP through lettre, or (the default) an outbox folder of `.eml` files.

use std::path::PathBuf;

use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{Mailbox, MultiPart, header::ContentType},
    transport::smtp::authentication::Credentials,
};
use serde::{Deserialize, Serialize};

use crate::config::{MailConfig, SmtpConfig};

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
        let from: Mailbox = from.parse().map_err(|e| anyhow::anyhow!("MAIL_FROM {from:?}: {e}"))?;
        let to: Mailbox = self.to.parse().map_err(|e| anyhow::anyhow!("recipient {:?}: {e}", self.to))?;
        let mut b = Message::builder()
            .from(from)
            .to(to)
            .subject(&self.subject)
            .message_id(Some(format!("<{}>", self.message_id)));
        if let Some(r) = &self.reply_to {
            if let Ok(mb) = r.parse::<Mailbox>() {
                b = b.reply_to(mb);
            }
        }
        let msg = match &self.html {
            None => b.header(ContentType::TEXT_PLAIN).body(self.text.clone())?,
            Some(html) => b.multipart(MultiPart::alternative_plain_html(self.text.clone(), html.clone()))?,
        };
        Ok(msg)
    }
}

#[derive(Clone)]
pub enum Mailer {
    Outbox { dir: PathBuf, from: String },
    Smtp { transport: AsyncSmtpTransport<Tokio1Executor>, from: String },
}

impl Mailer {
    pub fn new(config: &MailConfig, from: &str) -> anyhow::Result<Self> {
        Ok(match config {
            MailConfig::Outbox { dir } => Mailer::Outbox { dir: dir.clone(), from: from.to_owned() },
            MailConfig::Smtp(smtp) => Mailer::Smtp { transport: smtp_transport(smtp)?, from: from.to_owned() },
        })
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
                let id: String = email.message_id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
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
