//! `provision_subdomain`: activates the sub-domain a partner claimed and records the result.
//!
//! Partner sites are served by Host header under a wildcard DNS record of `PLATFORM_DOMAIN`, so
//! activating is a state change of the partner's row (plus an audit entry with the site's URL).
//! Idempotent: a retry of an activated name changes nothing, and a job for a name the partner
//! has since replaced (or a partner that is gone) is void and counts as done.

use serde::{Deserialize, Serialize};
use sqlx::Connection;

use crate::{Job, JobContext, Task};
use domain::partners::subdomains::{self, Provisioned};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ProvisionSubdomain {
    pub partner_id: i64,
    pub subdomain: String,
}

impl Task for ProvisionSubdomain {
    const KIND: &'static str = "provision_subdomain";
}

impl Job for ProvisionSubdomain {
    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let url = ctx.config.partner_site_url(&self.subdomain);
        let mut conn = ctx.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        let result = subdomains::activate(&mut tx, self.partner_id, &self.subdomain, &url).await?;
        tx.commit().await?;
        match result {
            Provisioned::Activated => {
                tracing::info!(partner_id = self.partner_id, subdomain = %self.subdomain, %url, "sub-domain active")
            }
            Provisioned::AlreadyActive => {
                tracing::debug!(partner_id = self.partner_id, "sub-domain already active")
            }
            Provisioned::Stale => {
                tracing::info!(partner_id = self.partner_id, subdomain = %self.subdomain, "sub-domain claim replaced; nothing to do")
            }
        }
        Ok(())
    }
}
