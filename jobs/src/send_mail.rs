//! `send_mail`: builds one message from its payload (`domain::mail::SendMail`, which names the
//! mail and carries ids, never its text's secrets) and delivers it through the platform mailer
//! (SMTP or the outbox), or through a partner's own SMTP server when the job names the partner
//! and its settings are active. The partner's password is opened here, at send time.
//!
//! Idempotent through `mail_deliveries`: a message id delivered once is never sent again.

use domain::{
    infra::crypto::SecretBox,
    mail::{self, Mailer, smtp_transport},
    partners::partner_smtp,
};

use crate::{Job, JobContext};

pub use domain::mail::SendMail;

/// The partner's active SMTP as a mailer, or the platform's.
async fn mailer_for(
    ctx: &JobContext,
    partner_id: Option<i64>,
) -> anyhow::Result<(Mailer, &'static str)> {
    if let Some(pid) = partner_id {
        let mut conn = ctx.pool.acquire().await?;
        let secrets = SecretBox::new(&ctx.config.encryption_key);
        if let Some(smtp) = partner_smtp::active(
            &mut conn,
            &secrets,
            pid,
            ctx.config.partner_smtp_allow_private,
        )
        .await?
        {
            return Ok((
                Mailer::Smtp {
                    transport: smtp_transport(&smtp.transport)?,
                    from: smtp.from,
                },
                "partner_smtp",
            ));
        }
    }
    Ok((ctx.mailer.clone(), ctx.mailer.transport_name()))
}

impl Job for SendMail {
    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let id = &self.message_id;
        let mut conn = ctx.pool.acquire().await?;
        // Delivered by an earlier attempt that died before it could report: nothing to do.
        if mail::delivered(&mut conn, id).await? {
            return Ok(());
        }
        let Some(email) = self.build(&mut conn, &ctx.config).await? else {
            tracing::info!(message_id = %id, "nothing to send any more");
            return Ok(());
        };
        drop(conn);
        let (mailer, transport) = mailer_for(ctx, self.partner_id).await?;
        mailer.send(&email).await?;
        mail::record_delivery(&mut *ctx.pool.acquire().await?, &email, transport).await?;
        tracing::info!(message_id = %id, transport, "mail delivered");
        Ok(())
    }
}
