//! `smtp_test`: the SMTP step's 'send test mail'. Sends one message through the partner's
//! saved settings (active or not) to the partner's own address, and reports the outcome in the
//! job state: done, or failed with the server's answer as `last_error`. The host is checked
//! and pinned exactly as for real mail; the password never appears in the error, even when a
//! server echoes it back.

use base64::Engine;
use domain::{
    infra::crypto::SecretBox,
    mail::{Mailer, smtp_transport, texts},
    partners::partner_smtp,
};
use serde::{Deserialize, Serialize};

use crate::{Job, JobContext, Task};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SmtpTest {
    pub partner_id: i64,
}

impl Task for SmtpTest {
    const KIND: &'static str = "smtp_test";
    // The partner waits for the answer: one attempt, reported at once. A repeat after a
    // worker crash sends a second test mail, which is harmless.
    const MAX_ATTEMPTS: usize = 1;
}

impl Job for SmtpTest {
    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let mut conn = ctx.pool.acquire().await?;
        let secrets = SecretBox::new(&ctx.config.encryption_key);
        let Some((smtp, to)) = partner_smtp::for_test(
            &mut conn,
            &secrets,
            self.partner_id,
            ctx.config.partner_smtp_allow_private,
        )
        .await?
        else {
            anyhow::bail!("no SMTP settings are saved");
        };
        drop(conn);
        let (user, password) = (
            smtp.transport.user.clone().unwrap_or_default(),
            smtp.transport.password.clone().unwrap_or_default(),
        );
        let host = smtp
            .transport
            .tls_name
            .clone()
            .unwrap_or_else(|| smtp.transport.host.clone());
        let mail = texts::smtp_test(&to, &host);
        let sent = async {
            Mailer::Smtp {
                transport: smtp_transport(&smtp.transport)?,
                from: smtp.from,
            }
            .send(&mail)
            .await
        }
        .await;
        sent.map_err(|e| anyhow::anyhow!("{}", scrub(&format!("{e:#}"), &user, &password)))
    }
}

/// `message` with the password, and the AUTH PLAIN and LOGIN forms that carry it, masked.
fn scrub(message: &str, user: &str, password: &str) -> String {
    if password.is_empty() {
        return message.to_owned();
    }
    let b64 = base64::engine::general_purpose::STANDARD;
    let mut out = message.to_owned();
    for secret in [
        b64.encode(format!("\0{user}\0{password}")),
        b64.encode(password),
        password.to_owned(),
    ] {
        out = out.replace(&secret, partner_smtp::PASSWORD_MASK);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_password_never_reaches_the_error() {
        let msg = "535 auth failed for bob: s3cret, AGJvYgBzM2NyZXQ= and czNjcmV0";
        let out = super::scrub(msg, "bob", "s3cret");
        assert!(
            !out.contains("s3cret")
                && !out.contains("AGJvYgBzM2NyZXQ=")
                && !out.contains("czNjcmV0"),
            "{out}"
        );
        assert!(out.starts_with("535 auth failed for bob: ********"));
    }
}
