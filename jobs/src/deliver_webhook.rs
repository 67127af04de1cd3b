//! `deliver_webhook`: one attempt of one webhook delivery (payload: the delivery id, with the
//! generation and attempt it was queued for). The attempt's outcome is recorded, and a failure
//! queues the next attempt after the schedule's delay (`domain::webhooks::SCHEDULE`): an HTTP
//! failure is not a failure of this job. An endpoint disabled for failing 5 days has its owner
//! mailed, in the transaction that disabled it.

use domain::{
    infra::crypto::SecretBox,
    mail::{Mail, SendMail},
    webhooks::{
        deliveries::{self, Recorded},
        endpoints, sender,
    },
};

use crate::{Job, JobContext};

pub use domain::webhooks::DeliverWebhook;

impl Job for DeliverWebhook {
    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let secrets = SecretBox::new(&ctx.config.encryption_key);
        let prepared = {
            let mut conn = ctx.pool.acquire().await?;
            deliveries::prepare(&mut conn, &secrets, &self).await?
        };
        // Finished, replayed or endpoint disabled meanwhile: nothing to send.
        let Some(p) = prepared else { return Ok(()) };
        let timestamp = chrono::Utc::now().timestamp();
        let signature = p.signature(timestamp)?;
        let outcome = sender::send(
            &sender::Request {
                url: &p.url,
                msg_id: &p.msg_id,
                timestamp,
                signature: &signature,
                body: &p.body,
            },
            ctx.config.webhook_allow_private,
        )
        .await;
        let mut tx = ctx.pool.begin().await?;
        let recorded = deliveries::record(&mut tx, &self, &outcome).await?;
        if let Recorded::Disabled { endpoint_id } = recorded {
            let partner = endpoints::disabled_notice(&mut tx, endpoint_id)
                .await?
                .and_then(|(_, partner, _)| partner);
            let mail = SendMail::of(Mail::WebhookDisabled { endpoint_id });
            let mail = match partner {
                Some(p) => mail.via_partner(p),
                None => mail,
            };
            domain::infra::queue::push(&mut tx, &mail, None).await?;
            tracing::warn!(
                endpoint_id,
                "webhook endpoint disabled after 5 days of failures"
            );
        }
        tx.commit().await?;
        tracing::info!(
            delivery = self.delivery_id,
            attempt = self.attempt + 1,
            status = outcome.status_code,
            latency_ms = outcome.latency_ms,
            ?recorded,
            "webhook attempt"
        );
        Ok(())
    }
}
