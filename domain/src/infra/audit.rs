//! The audit log: who changed what, with the state before and after. Written on the caller's
//! connection, so the row commits (or not) together with the change it describes.

use serde::Serialize;
use sqlx::PgConnection;

/// Who acted. `id` is the super admin's, partner's or end user's id; `None` for the system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Actor {
    pub kind: ActorKind,
    pub id: Option<i64>,
    /// The client address of the request (`api::client_ip`); `None` for the system and jobs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ip: Option<std::net::IpAddr>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActorKind {
    Superadmin,
    Partner,
    User,
    System,
}

impl ActorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ActorKind::Superadmin => "superadmin",
            ActorKind::Partner => "partner",
            ActorKind::User => "user",
            ActorKind::System => "system",
        }
    }
}

impl Actor {
    pub fn superadmin(id: i64) -> Self {
        Self {
            kind: ActorKind::Superadmin,
            id: Some(id),
            ip: None,
        }
    }
    pub fn partner(id: i64) -> Self {
        Self {
            kind: ActorKind::Partner,
            id: Some(id),
            ip: None,
        }
    }
    pub fn user(id: i64) -> Self {
        Self {
            kind: ActorKind::User,
            id: Some(id),
            ip: None,
        }
    }
    pub fn system() -> Self {
        Self {
            kind: ActorKind::System,
            id: None,
            ip: None,
        }
    }
    /// The same actor, acting from the client address `ip`.
    pub fn from_ip(self, ip: std::net::IpAddr) -> Self {
        Self {
            ip: Some(ip),
            ..self
        }
    }
}

/// One audit row. `entity_id` is text so composite keys ("standard:pan_verification") fit.
#[derive(Debug, Clone)]
pub struct Record<'a> {
    pub actor: Actor,
    pub action: &'a str,
    pub entity: &'a str,
    pub entity_id: String,
    pub partner_id: Option<i64>,
    pub before: Option<serde_json::Value>,
    pub after: Option<serde_json::Value>,
}

#[tracing::instrument(skip_all, fields(action = r.action))]
pub async fn record(conn: &mut PgConnection, r: &Record<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO audit_log (actor_kind, actor_id, action, entity, entity_id, partner_id, before, after, client_ip)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::inet)",
    )
    .bind(r.actor.kind.as_str())
    .bind(r.actor.id)
    .bind(r.action)
    .bind(r.entity)
    .bind(&r.entity_id)
    .bind(r.partner_id)
    .bind(&r.before)
    .bind(&r.after)
    .bind(r.actor.ip.map(|ip| ip.to_string()))
    .execute(conn)
    .await?;
    Ok(())
}

/// One entity's row of a [`record_many`]: the actor, action and entity are shared.
#[derive(Debug, Clone)]
pub struct Change {
    pub entity_id: String,
    pub partner_id: Option<i64>,
    pub before: Option<serde_json::Value>,
    pub after: Option<serde_json::Value>,
}

/// Many rows of one action in one statement (a bulk price change writes one row per price).
pub async fn record_many(
    conn: &mut PgConnection,
    actor: Actor,
    action: &str,
    entity: &str,
    rows: &[Change],
) -> Result<(), sqlx::Error> {
    if rows.is_empty() {
        return Ok(());
    }
    let ids: Vec<&str> = rows.iter().map(|r| r.entity_id.as_str()).collect();
    let partners: Vec<Option<i64>> = rows.iter().map(|r| r.partner_id).collect();
    let before: Vec<Option<serde_json::Value>> = rows.iter().map(|r| r.before.clone()).collect();
    let after: Vec<Option<serde_json::Value>> = rows.iter().map(|r| r.after.clone()).collect();
    sqlx::query(
        "INSERT INTO audit_log (actor_kind, actor_id, action, entity, entity_id, partner_id, before, after, client_ip)
         SELECT $1, $2, $3, $4, x.id, x.partner_id, x.before, x.after, $9::inet
           FROM UNNEST($5::text[], $6::bigint[], $7::jsonb[], $8::jsonb[]) AS x(id, partner_id, before, after)",
    )
    .bind(actor.kind.as_str())
    .bind(actor.id)
    .bind(action)
    .bind(entity)
    .bind(&ids)
    .bind(&partners)
    .bind(&before)
    .bind(&after)
    .bind(actor.ip.map(|ip| ip.to_string()))
    .execute(conn)
    .await?;
    Ok(())
}
