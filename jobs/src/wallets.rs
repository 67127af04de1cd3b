//! The alert hook of the gateway's grouped charger (`domain::wallets::charge::Charger`): its
//! low-balance crossings go through `domain::wallets::queue_alert`, the same insert that
//! `domain::wallets::apply` makes for its own, on the charge's transaction.

use domain::{
    PgConnection, Result,
    wallets::{self, LowBalance},
};

/// The alerts of a grouped charge (`domain::wallets::charge`), queued on its transaction.
pub fn alert_all<'c>(conn: &'c mut PgConnection, lows: &'c [LowBalance]) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<()>> + Send + 'c>> {
    Box::pin(async move {
        for low in lows {
            wallets::queue_alert(conn, low).await?;
        }
        Ok(())
    })
}
