//! `send_mail`: delivers one message through the platform mailer (SMTP or the outbox), or
//! through a partner's own SMTP server when the job names the partner and its settings are
//! active. The partner's password is opened here, at send time: it is never in the payload.

use domain::{
    crypto::SecretBox,
    mail::{Email, Mailer, smtp_transport},
    partner_smtp,
};
use serde::{Deserialize, Serialize};

use crate::{Job, JobContext};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SendMail {
    pub email: Email,
    /// Mail to a partner's own end users: sent through that partner's SMTP when active.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partner_id: Option<i64>,
}

impl SendMail {
    pub fn new(email: Email) -> Self {
        Self { email, partner_id: None }
    }

    /// A message on behalf of `partner_id`, through its own mail server when it has one.
    pub fn for_partner(email: Email, partner_id: i64) -> Self {
        Self { email, partner_id: Some(partner_id) }
    }
}

/// The partner's active SMTP as a mailer, or the platform's.
async fn mailer_for(ctx: &JobContext, partner_id: Option<i64>) -> anyhow::Result<(Mailer, &'static str)> {
    if let Some(pid) = partner_id {
        let mut conn = ctx.pool.acquire().await?;
        let secrets = SecretBox::new(&ctx.config.encryption_key);
        if let Some(smtp) = partner_smtp::active(&mut conn, &secrets, pid).await? {
            return Ok((Mailer::Smtp { transport: smtp_transport(&smtp.transport)?, from: smtp.from }, "partner_smtp"));
        }
    }
    Ok((ctx.mailer.clone(), ctx.mailer.transport_name()))
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
        let (mailer, transport) = mailer_for(ctx, self.partner_id).await?;
        mailer.send(&self.email).await?;
        sqlx::query(
            "INSERT INTO mail_deliveries (message_id, recipient, subject, transport) VALUES ($1, $2, $3, $4)
             ON CONFLICT (message_id) DO NOTHING",
        )
        .bind(id)
        .bind(&self.email.to)
        .bind(&self.email.subject)
        .bind(transport)
        .execute(&ctx.pool)
        .await?;
        tracing::info!(message_id = %id, transport, "mail delivered");
        Ok(())
    }
}
