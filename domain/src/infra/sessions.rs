//! Sessions that can be ended: each signed token names a row here, and is accepted only while
//! that row is live (not revoked, not expired). Logout ends one session; a password change or
//! reset ends all of the principal's (but the caller's, on a change); deactivation and deletion
//! end them through triggers (see the migration), whatever code path does it.

use std::time::Duration;

use sqlx::PgConnection;
use uuid::Uuid;

use crate::Result;

/// Who a session belongs to. `User` is the end users' portal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PrincipalKind {
    Partner,
    Superadmin,
    User,
}

impl PrincipalKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PrincipalKind::Partner => "partner",
            PrincipalKind::Superadmin => "superadmin",
            PrincipalKind::User => "user",
        }
    }
}

/// Starts a session of `ttl` (the token's own lifetime) and returns its id for the token.
pub async fn start(
    conn: &mut PgConnection,
    kind: PrincipalKind,
    principal_id: i64,
    ttl: Duration,
) -> Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query(
        "INSERT INTO sessions (id, principal_kind, principal_id, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4))",
    )
    .bind(id)
    .bind(kind.as_str())
    .bind(principal_id)
    .bind(ttl.as_secs_f64())
    .execute(conn)
    .await?;
    Ok(id)
}

/// Whether session `id` is live and belongs to this principal.
pub async fn is_live(
    conn: &mut PgConnection,
    id: Uuid,
    kind: PrincipalKind,
    principal_id: i64,
) -> Result<bool> {
    Ok(sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM sessions
                         WHERE id = $1 AND principal_kind = $2 AND principal_id = $3
                           AND revoked_at IS NULL AND expires_at > now())",
    )
    .bind(id)
    .bind(kind.as_str())
    .bind(principal_id)
    .fetch_one(conn)
    .await?)
}

/// Ends one session (logout). Ending an ended one is not an error.
pub async fn end(conn: &mut PgConnection, id: Uuid) -> Result<()> {
    sqlx::query("UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Ends every live session of the principal except `keep` (the caller's own, on a password
/// change). Returns how many ended.
pub async fn end_all(
    conn: &mut PgConnection,
    kind: PrincipalKind,
    principal_id: i64,
    keep: Option<Uuid>,
) -> Result<u64> {
    let done = sqlx::query(
        "UPDATE sessions SET revoked_at = now()
          WHERE principal_kind = $1 AND principal_id = $2 AND revoked_at IS NULL AND id IS DISTINCT FROM $3",
    )
    .bind(kind.as_str())
    .bind(principal_id)
    .bind(keep)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Deletes sessions that expired over a day ago: their tokens are refused by their own expiry
/// already, so the rows only grow the table (hourly, by `prune_jobs`).
pub async fn prune_expired(conn: &mut PgConnection) -> Result<u64> {
    Ok(
        sqlx::query("DELETE FROM sessions WHERE expires_at < now() - interval '1 day'")
            .execute(conn)
            .await?
            .rows_affected(),
    )
}
