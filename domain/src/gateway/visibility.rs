//! Which catalogue APIs an end user may see and call.
//!
//! **The rule the gateway applies.** An API is callable by user U of partner P only when none
//! of these six settings says hidden; a setting that is absent means shown:
//!
//! 1. the super admin's per-client API setting (`api_visibility`, `scope = 'admin'`, `user_id` NULL),
//! 2. the super admin's per-client category setting (`category_visibility`, `scope = 'admin'`),
//! 3. the partner-wide API setting, My APIs (`api_visibility`, `scope = 'partner'`, `user_id` NULL),
//! 4. the partner-wide category setting (`category_visibility`, `scope = 'partner'`, `user_id` NULL),
//! 5. the per-user API setting (`api_visibility`, `scope = 'partner'`, `user_id = U`),
//! 6. the per-user category setting (`category_visibility`, `scope = 'partner'`, `user_id = U`).
//!
//! Categories compare case-insensitively. Beside visibility, the catalogue entry must be enabled
//! (`status AND NOT is_hidden`) and the partner's Restrict ALL APIs must be off
//! (`domain::partners::settings`). [`callable`] answers the six-part rule in one query; rows of every
//! scope of the partner with `user_id` NULL or U, any `visible = false`, hide it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

use crate::{Error, Result, error::Violations};

/// Whose setting: the super admin's for a client, the partner's for all its users, or the
/// partner's for one user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Admin { partner_id: i64 },
    Partner { partner_id: i64 },
    User { partner_id: i64, user_id: i64 },
}

impl Scope {
    fn parts(self) -> (i64, &'static str, Option<i64>) {
        match self {
            Scope::Admin { partner_id } => (partner_id, "admin", None),
            Scope::Partner { partner_id } => (partner_id, "partner", None),
            Scope::User {
                partner_id,
                user_id,
            } => (partner_id, "partner", Some(user_id)),
        }
    }
}

/// `{apis: {service: bool}, categories: {category: bool}}`: the explicit settings of a scope.
/// What is absent is shown.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Visibility {
    #[serde(default)]
    pub apis: BTreeMap<String, bool>,
    #[serde(default)]
    pub categories: BTreeMap<String, bool>,
    /// Read only, on the partner's and its users' settings: the services the super admin hid
    /// for this client (by API or by category). They stay hidden whatever these settings say,
    /// so My APIs shows them as hidden and not to be changed.
    #[serde(default)]
    pub hidden_by_platform: Vec<String>,
}

/// No PATCH names more entries than this (the catalogue has a few hundred APIs).
pub const MAX_PATCH_ENTRIES: usize = 2000;

/// The explicit settings of `scope`. The owner (partner, or user of the partner) must exist.
pub async fn get(conn: &mut PgConnection, scope: Scope) -> Result<Visibility> {
    check_owner(conn, scope).await?;
    let (partner_id, kind, user_id) = scope.parts();
    let apis: Vec<(String, bool)> = sqlx::query_as(
        "SELECT c.service, v.visible FROM api_visibility v JOIN api_catalogue c ON c.id = v.api_id
          WHERE v.partner_id = $1 AND v.scope = $2 AND v.user_id IS NOT DISTINCT FROM $3",
    )
    .bind(partner_id)
    .bind(kind)
    .bind(user_id)
    .fetch_all(&mut *conn)
    .await?;
    let categories: Vec<(String, bool)> = sqlx::query_as(
        "SELECT category, visible FROM category_visibility
          WHERE partner_id = $1 AND scope = $2 AND user_id IS NOT DISTINCT FROM $3",
    )
    .bind(partner_id)
    .bind(kind)
    .bind(user_id)
    .fetch_all(&mut *conn)
    .await?;
    let hidden_by_platform = if kind == "admin" {
        Vec::new()
    } else {
        sqlx::query_scalar(
            "SELECT c.service FROM api_catalogue c
              WHERE EXISTS (SELECT 1 FROM api_visibility v
                             WHERE v.partner_id = $1 AND v.scope = 'admin' AND v.user_id IS NULL AND v.api_id = c.id AND NOT v.visible)
                 OR EXISTS (SELECT 1 FROM category_visibility k
                             WHERE k.partner_id = $1 AND k.scope = 'admin' AND k.user_id IS NULL
                               AND lower(k.category) = lower(c.category) AND NOT k.visible)
              ORDER BY c.service",
        )
        .bind(partner_id)
        .fetch_all(&mut *conn)
        .await?
    };
    Ok(Visibility {
        apis: apis.into_iter().collect(),
        categories: categories.into_iter().collect(),
        hidden_by_platform,
    })
}

/// Sets the entries `patch` names and leaves the others; an unknown service or category is a
/// field error naming it (`apis.<service>` or `categories.<category>`) and nothing is written.
/// Run it in a transaction: entries are written one by one.
pub async fn patch(
    conn: &mut PgConnection,
    scope: Scope,
    patch: &Visibility,
) -> Result<Visibility> {
    check_owner(conn, scope).await?;
    if patch.apis.len() + patch.categories.len() > MAX_PATCH_ENTRIES {
        return Err(Error::invalid(
            "apis",
            format!("At most {MAX_PATCH_ENTRIES} entries at once"),
        ));
    }
    let services: Vec<String> = patch.apis.keys().cloned().collect();
    let known: Vec<(String, i64)> =
        sqlx::query_as("SELECT service, id FROM api_catalogue WHERE service = ANY($1)")
            .bind(&services)
            .fetch_all(&mut *conn)
            .await?;
    let known: BTreeMap<String, i64> = known.into_iter().collect();
    let wanted: Vec<String> = patch
        .categories
        .keys()
        .map(|c| c.trim().to_lowercase())
        .collect();
    // The catalogue's own spelling of each category, so that lists show it as the catalogue does.
    let spelled: Vec<(String, String)> =
        sqlx::query_as("SELECT DISTINCT ON (lower(category)) lower(category), category FROM api_catalogue WHERE lower(category) = ANY($1) ORDER BY lower(category), category")
            .bind(&wanted)
            .fetch_all(&mut *conn)
            .await?;
    let spelled: BTreeMap<String, String> = spelled.into_iter().collect();

    let mut v = Violations::new();
    for s in patch.apis.keys().filter(|s| !known.contains_key(*s)) {
        v.add(
            &format!("apis.{}", clip(s)),
            format!("Unknown service '{}'", clip(s)),
        );
    }
    for c in patch
        .categories
        .keys()
        .filter(|c| !spelled.contains_key(&c.trim().to_lowercase()))
    {
        v.add(
            &format!("categories.{}", clip(c)),
            format!("Unknown category '{}'", clip(c)),
        );
    }
    v.into_result()?;

    let (partner_id, kind, user_id) = scope.parts();
    for (service, visible) in &patch.apis {
        sqlx::query(
            "INSERT INTO api_visibility (partner_id, scope, user_id, api_id, visible) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (partner_id, scope, (COALESCE(user_id, 0)), api_id) DO UPDATE SET visible = EXCLUDED.visible, updated_at = now()",
        )
        .bind(partner_id)
        .bind(kind)
        .bind(user_id)
        .bind(known[service])
        .bind(visible)
        .execute(&mut *conn)
        .await?;
    }
    for (category, visible) in &patch.categories {
        sqlx::query(
            "INSERT INTO category_visibility (partner_id, scope, user_id, category, visible) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (partner_id, scope, (COALESCE(user_id, 0)), (lower(category)))
             DO UPDATE SET category = EXCLUDED.category, visible = EXCLUDED.visible, updated_at = now()",
        )
        .bind(partner_id)
        .bind(kind)
        .bind(user_id)
        .bind(&spelled[&category.trim().to_lowercase()])
        .bind(visible)
        .execute(&mut *conn)
        .await?;
    }
    get(conn, scope).await
}

/// Whether `user_id` of `partner_id` may see and call `service` under the six-part rule (the
/// catalogue entry enabled too). Unknown service: `false`.
pub async fn callable(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    service: &str,
) -> Result<bool> {
    Ok(sqlx::query_scalar(
        "SELECT c.status AND NOT c.is_hidden
                AND NOT EXISTS (SELECT 1 FROM api_visibility v
                                 WHERE v.partner_id = $1 AND v.api_id = c.id AND NOT v.visible
                                   AND (v.user_id IS NULL OR v.user_id = $2))
                AND NOT EXISTS (SELECT 1 FROM category_visibility v
                                 WHERE v.partner_id = $1 AND lower(v.category) = lower(c.category) AND NOT v.visible
                                   AND (v.user_id IS NULL OR v.user_id = $2))
           FROM api_catalogue c WHERE c.service = $3",
    )
    .bind(partner_id)
    .bind(user_id)
    .bind(service)
    .fetch_optional(conn)
    .await?
    .unwrap_or(false))
}

async fn check_owner(conn: &mut PgConnection, scope: Scope) -> Result<()> {
    match scope {
        Scope::Admin { partner_id } | Scope::Partner { partner_id } => {
            crate::partners::tenancy::partner_exists(conn, partner_id).await
        }
        Scope::User {
            partner_id,
            user_id,
        } => crate::partners::tenancy::user_of_partner(conn, partner_id, user_id).await,
    }
}

/// Names echoed in an error stay short whatever the client sent.
fn clip(s: &str) -> String {
    s.chars().take(100).collect()
}
