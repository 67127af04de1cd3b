//! `send_mail`: delivers one message through the platform mailer (SMTP or the outbox).

use domain::mail::Email;
use serde::{Deserialize, Serialize};

use crate::{Job, JobContext};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SendMail {
    pub email: Email,
}

impl SendMail {
    pub fn new(email: Email) -> Self {
        Self { email }
    }
}

impl Job for SendMail {
    const KIND: &'static str = "send_mail";

    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let id = &self.email.message_id;
        // Delivered by an earlier attempt that died before it could report: nothing to do.
        let done: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM mail_deliveries WHERE message_id = $1)")
            .bind(id)
            .fetch_one(&ctx.pool)
            .await?;
        if done {
            return Ok(());
        }
        ctx.mailer.send(&self.email).await?;
        sqlx::query(
            "INSERT INTO mail_deliveries (message_id, recipient, subject, transport) VALUES ($1, $2, $3, $4)
             ON CONFLICT (message_id) DO NOTHING",
        )
        .bind(id)
        .bind(&self.email.to)
        .bind(&self.email.subject)
        .bind(ctx.mailer.transport_name())
        .execute(&ctx.pool)
        .await?;
        tracing::info!(message_id = %id, transport = ctx.mailer.transport_name(), "mail delivered");
        Ok(())
    }
}
