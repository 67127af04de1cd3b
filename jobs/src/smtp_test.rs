//! `smtp_test`: the SMTP step's 'send test mail'. Sends one message through the partner's
//! saved settings (active or not) to the partner's own address, and reports the outcome in the
//! job state: done, or failed with the server's answer as `last_error`; the console's SMTP
//! warning follows it (a failure is recorded as `smtp_test`, a success clears it). The host is checked
//! and pinned exactly as for real mail; the password never appears in the error, even when a
//! server echoes it back.

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
        let settings = partner_smtp::for_test(
            &mut conn,
            &secrets,
            self.partner_id,
            ctx.config.partner_smtp_allow_private,
        )
        .await;
        let (smtp, to) = match settings {
            Ok(Some(found)) => found,
            Ok(None) => anyhow::bail!("no SMTP settings are saved"),
            // The host is refused or does not resolve: the warning says so as well.
            Err(domain::Error::Other(e)) => {
                let error = format!("{e:#}");
                partner_smtp::record_failure(&mut conn, self.partner_id, Self::KIND, &error, false)
                    .await?;
                anyhow::bail!(error)
            }
            Err(e) => return Err(e.into()),
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
        // The outcome is the console's warning too: a test that goes through clears it.
        let mut conn = ctx.pool.acquire().await?;
        match sent {
            Ok(()) => {
                partner_smtp::record_success(&mut conn, self.partner_id).await?;
                Ok(())
            }
            Err(e) => {
                let error = partner_smtp::scrub(&format!("{e:#}"), &user, &password);
                partner_smtp::record_failure(&mut conn, self.partner_id, Self::KIND, &error, false)
                    .await?;
                anyhow::bail!(error)
            }
        }
    }
}
