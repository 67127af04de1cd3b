//! What a call costs (design.md, "Money"), resolved in one place.
//!
//! - What the partner pays (`amount`): the partner's customised plan price (set by the super
//!   admin; an entry with status false does not apply) if any, else the price in the partner's
//!   plan slab, else the catalogue default.
//! - What the end user pays (`user_amount`): the user's own price if the partner set one, else
//!   the partner's price.
//!
//! Both come from the one query in [`prices`]; every screen and the gateway read it, so the
//! lists and the charge can never disagree. Per-user prices are written here too.

use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

use crate::{
    Error, Result,
    audit::{self, Actor},
    error::Violations,
};

/// Where a price came from, so screens can show whether it was customised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The end user's own price (user_prices).
    User,
    /// The partner's customised plan (partner_prices).
    Custom,
    /// The partner's plan slab (plan_prices).
    Plan,
    /// The catalogue default.
    Default,
}

/// The resolved prices of one API for one partner (and optionally one of its users).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Price {
    pub api_id: i64,
    pub service: String,
    pub name: String,
    pub category: String,
    pub pid: String,
    /// The partner's plan slab.
    pub plan: String,
    pub default_price_paise: i64,
    /// The slab's price, if the slab lists this API.
    pub plan_price_paise: Option<i64>,
    /// The partner's customised price, if the super admin set one (and it is active).
    pub custom_price_paise: Option<i64>,
    /// What the partner pays per call (`amount` of a transaction).
    pub amount_paise: i64,
    #[sqlx(try_from = "String")]
    pub amount_source: Source,
    /// The user's own price, if the partner set one.
    pub user_price_paise: Option<i64>,
    /// What the end user pays per call (`user_amount` of a transaction).
    pub user_amount_paise: i64,
    #[sqlx(try_from = "String")]
    pub user_amount_source: Source,
    /// The API is live in the catalogue and neither the catalogue nor the partner (for all its
    /// users or this one) hides it or its category.
    pub visible: bool,
}

impl TryFrom<String> for Source {
    type Error = String;
    fn try_from(s: String) -> std::result::Result<Self, String> {
        Ok(match s.as_str() {
            "user" => Source::User,
            "custom" => Source::Custom,
            "plan" => Source::Plan,
            "default" => Source::Default,
            other => return Err(format!("unknown price source {other:?}")),
        })
    }
}

/// The resolution itself. `$1` partner, `$2` user (NULL: partner prices only), `$3` service
/// (NULL: every API). A user of another partner matches no user price (`up.partner_id`).
const PRICES: &str = "
    SELECT c.id AS api_id, c.service, c.name, c.category, c.pid, p.plan::text AS plan, c.default_price_paise,
           pl.price_paise AS plan_price_paise,
           pp.price_paise AS custom_price_paise,
           COALESCE(pp.price_paise, pl.price_paise, c.default_price_paise) AS amount_paise,
           CASE WHEN pp.price_paise IS NOT NULL THEN 'custom'
                WHEN pl.price_paise IS NOT NULL THEN 'plan' ELSE 'default' END AS amount_source,
           up.price_paise AS user_price_paise,
           COALESCE(up.price_paise, pp.price_paise, pl.price_paise, c.default_price_paise) AS user_amount_paise,
           CASE WHEN up.price_paise IS NOT NULL THEN 'user'
                WHEN pp.price_paise IS NOT NULL THEN 'custom'
                WHEN pl.price_paise IS NOT NULL THEN 'plan' ELSE 'default' END AS user_amount_source,
           (c.status AND NOT c.is_hidden
            AND NOT EXISTS (SELECT 1 FROM api_visibility v
                             WHERE v.partner_id = p.id AND v.api_id = c.id AND NOT v.visible
                               AND (v.user_id IS NULL OR v.user_id = $2))
            AND NOT EXISTS (SELECT 1 FROM category_visibility v
                             WHERE v.partner_id = p.id AND lower(v.category) = lower(c.category) AND NOT v.visible
                               AND (v.user_id IS NULL OR v.user_id = $2))) AS visible
      FROM partners p
      CROSS JOIN api_catalogue c
      LEFT JOIN partner_prices pp ON pp.partner_id = p.id AND pp.api_id = c.id AND pp.status
      LEFT JOIN plan_prices pl ON pl.plan = p.plan AND pl.api_id = c.id
      LEFT JOIN user_prices up ON up.user_id = $2 AND up.partner_id = p.id AND up.api_id = c.id
     WHERE p.id = $1 AND ($3::text IS NULL OR c.service = $3)
     ORDER BY lower(c.category), c.name, c.id";

/// Prices of every API (or of `service` alone) for `partner_id`, and for `user_id` if given.
#[tracing::instrument(skip(conn))]
pub async fn prices(conn: &mut PgConnection, partner_id: i64, user_id: Option<i64>, service: Option<&str>) -> Result<Vec<Price>> {
    Ok(sqlx::query_as(PRICES).bind(partner_id).bind(user_id).bind(service).fetch_all(conn).await?)
}

/// The price of one call: `None` when the partner or the service does not exist.
pub async fn resolve(conn: &mut PgConnection, partner_id: i64, user_id: Option<i64>, service: &str) -> Result<Option<Price>> {
    Ok(prices(conn, partner_id, user_id, Some(service)).await?.pop())
}

/// A per-user price change from the User Detail "API Price" tab. `price_paise: null` removes
/// the user's price (the partner's price applies again).
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct UserPriceChange {
    pub service: String,
    pub price_paise: Option<i64>,
}

/// The largest price anyone may set: ₹1 crore per call.
pub const MAX_PRICE_PAISE: i64 = 1_000_000_000;

/// Sets an end user's prices (only the rows the partner changed are sent). All or nothing:
/// any unknown service or bad price refuses the whole list. Returns how many rows changed.
pub async fn set_user_prices(conn: &mut PgConnection, partner_id: i64, user_id: i64, changes: &[UserPriceChange], actor: Actor) -> Result<usize> {
    crate::tenancy::user_of_partner(conn, partner_id, user_id).await?;
    let mut v = Violations::new();
    if changes.is_empty() {
        v.add("prices", "Change at least one price");
    }
    let mut seen = std::collections::HashSet::new();
    for (i, c) in changes.iter().enumerate() {
        if c.service.trim().is_empty() {
            v.add(&format!("prices[{i}].service"), "Service Name is required");
        } else if !seen.insert(c.service.trim()) {
            v.add(&format!("prices[{i}].service"), format!("{} is listed twice", c.service.trim()));
        }
        match c.price_paise {
            Some(p) if p < 0 => v.add(&format!("prices[{i}].price_paise"), "Price cannot be negative"),
            Some(p) if p > MAX_PRICE_PAISE => v.add(&format!("prices[{i}].price_paise"), "Price is too large"),
            _ => {}
        }
    }
    v.into_result()?;
    let services: Vec<String> = changes.iter().map(|c| c.service.trim().to_owned()).collect();
    let known: Vec<(String, i64)> = sqlx::query_as("SELECT service, id FROM api_catalogue WHERE service = ANY($1)")
        .bind(&services)
        .fetch_all(&mut *conn)
        .await?;
    let known: std::collections::HashMap<String, i64> = known.into_iter().collect();
    let mut v = Violations::new();
    for (i, s) in services.iter().enumerate() {
        if !known.contains_key(s) {
            v.add(&format!("prices[{i}].service"), format!("Unknown service: {s}"));
        }
    }
    v.into_result()?;

    let mut audit_rows = Vec::new();
    for (c, service) in changes.iter().zip(&services) {
        let api_id = known[service];
        let before: Option<i64> = sqlx::query_scalar("SELECT price_paise FROM user_prices WHERE user_id = $1 AND api_id = $2 FOR UPDATE")
            .bind(user_id)
            .bind(api_id)
            .fetch_optional(&mut *conn)
            .await?;
        if before == c.price_paise {
            continue;
        }
        match c.price_paise {
            Some(p) => {
                sqlx::query(
                    "INSERT INTO user_prices (partner_id, user_id, api_id, price_paise) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (user_id, api_id) DO UPDATE SET price_paise = EXCLUDED.price_paise, updated_at = now()",
                )
                .bind(partner_id)
                .bind(user_id)
                .bind(api_id)
                .bind(p)
                .execute(&mut *conn)
                .await?;
            }
            None => {
                sqlx::query("DELETE FROM user_prices WHERE user_id = $1 AND api_id = $2").bind(user_id).bind(api_id).execute(&mut *conn).await?;
            }
        }
        audit_rows.push((
            format!("{user_id}:{service}"),
            Some(partner_id),
            Some(serde_json::json!({ "price_paise": before })),
            Some(serde_json::json!({ "price_paise": c.price_paise })),
        ));
    }
    audit::record_many(conn, actor, "user_price.set", "user_price", &audit_rows).await?;
    Ok(audit_rows.len())
}

/// Refuses a price outside `0..=MAX_PRICE_PAISE` with the spec's wording.
pub fn check_price(field: &str, price_paise: i64) -> Result<i64> {
    if price_paise < 0 {
        return Err(Error::invalid(field, "Price cannot be negative"));
    }
    if price_paise > MAX_PRICE_PAISE {
        return Err(Error::invalid(field, "Price is too large"));
    }
    Ok(price_paise)
}
