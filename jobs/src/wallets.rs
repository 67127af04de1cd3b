//! The ledger's entry point for the api and the gateway: `domain::wallets::apply` plus the
//! low-balance mail, enqueued in the same transaction as the debit that crossed the threshold
//! (so a rolled-back debit never mails, and a committed crossing always does, exactly once).
//! The domain crate cannot reach the job queue, hence this thin layer here.

use domain::{
    PgConnection, Result,
    mail::Email,
    wallets::{self, LowBalance, Moved, Movement},
};
use sqlx::Connection;

use crate::SendMail;

/// Moves money (see `domain::wallets::apply`) and queues the low-balance alert if this debit
/// took the wallet below its threshold. Inside the caller's transaction when there is one.
pub async fn apply(conn: &mut PgConnection, m: &Movement<'_>) -> Result<Moved> {
    if conn.is_in_transaction() {
        apply_in_transaction(conn, m).await
    } else {
        let mut tx = conn.begin().await?;
        let moved = apply_in_transaction(&mut tx, m).await?;
        tx.commit().await?;
        Ok(moved)
    }
}

async fn apply_in_transaction(conn: &mut PgConnection, m: &Movement<'_>) -> Result<Moved> {
    let moved = wallets::apply(conn, m).await?;
    if let Some(low) = &moved.low_balance {
        alert(conn, low).await?;
    }
    Ok(moved)
}

/// Queues the alert mail to the partner that owns the wallet.
async fn alert(conn: &mut PgConnection, low: &LowBalance) -> Result<String> {
    let (email,): (String,) = sqlx::query_as("SELECT email::text FROM partners WHERE id = $1")
        .bind(low.partner_id)
        .fetch_one(&mut *conn)
        .await?;
    let user_label = match low.user_id {
        None => None,
        Some(u) => {
            let name: Option<String> = sqlx::query_scalar("SELECT first_name || ' ' || last_name FROM end_users WHERE id = $1")
                .bind(u)
                .fetch_optional(&mut *conn)
                .await?;
            Some(match name {
                Some(n) => format!("{n} ({u})"),
                None => u.to_string(),
            })
        }
    };
    let (subject, text) = low.mail_text(user_label.as_deref());
    let job_id = crate::enqueue(conn, &SendMail::new(Email::new(email, subject, text))).await?;
    tracing::info!(wallet = low.wallet_id, job = %job_id, "low-balance alert queued");
    Ok(job_id)
}

/// The alerts of a grouped charge (`domain::wallets::charge`), queued on its transaction.
pub fn alert_all<'c>(conn: &'c mut PgConnection, lows: &'c [LowBalance]) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<()>> + Send + 'c>> {
    Box::pin(async move {
        for low in lows {
            alert(conn, low).await?;
        }
        Ok(())
    })
}
