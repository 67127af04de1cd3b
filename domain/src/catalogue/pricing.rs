//! What a call costs (design.md, "Money"), resolved in one place.
//!
//! - What the partner pays (`amount`): the partner's customised plan price (set by the super
//!   admin; an entry with status false does not apply) if any, else the price in the partner's
//!   plan slab, else the catalogue default.
//! - What the end user pays (`user_amount`): the user's own price if the partner set one, else
//!   the partner's selling price for the API, else the partner's cost (`amount`) plus the
//!   partner's default margin (zero until the partner sets one), rounded half up to the paisa.
//!
//! Both come from the one query in [`prices`]; every screen and the gateway read it, so the
//! lists and the charge can never disagree. Per-user prices are written here too.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

use crate::{
    Error, Result,
    error::Violations,
    infra::audit::{self, Actor},
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
    /// The partner's selling price for the API (partner_selling_prices).
    Selling,
    /// The partner's cost plus its default margin (only when the margin is above zero: with no
    /// margin the user pays the cost, and the source is the cost's own).
    Margin,
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
    /// The partner's selling price for this API, if it set one.
    pub selling_price_paise: Option<i64>,
    /// The partner's default margin over its cost, in basis points (1250 = 12.5%).
    pub default_margin_bps: i32,
    /// What a user of the partner without a price of its own pays: the selling price, else the
    /// cost plus the default margin. Shown beside the cost on My Plan.
    pub sells_at_paise: i64,
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
            "selling" => Source::Selling,
            "margin" => Source::Margin,
            other => return Err(format!("unknown price source {other:?}")),
        })
    }
}

/// The resolution itself. `$1` partner, `$2` user (NULL: partner prices only); `{service}` is
/// where one service is picked. A user of another partner matches no user price
/// (`up.partner_id`).
const PRICES: &str = "
    SELECT api_id, service, name, category, pid, plan, default_price_paise, plan_price_paise, custom_price_paise,
           amount_paise, amount_source, selling_price_paise, default_margin_bps, sells_at_paise, user_price_paise,
           COALESCE(user_price_paise, sells_at_paise) AS user_amount_paise,
           CASE WHEN user_price_paise IS NOT NULL THEN 'user'
                WHEN selling_price_paise IS NOT NULL THEN 'selling'
                WHEN default_margin_bps > 0 THEN 'margin' ELSE amount_source END AS user_amount_source,
           visible
      FROM (SELECT *, COALESCE(selling_price_paise, amount_paise + (amount_paise * default_margin_bps + 5000) / 10000) AS sells_at_paise
              FROM (SELECT c.id AS api_id, c.service, c.name, c.category, c.pid, p.plan::text AS plan, c.default_price_paise,
                           pl.price_paise AS plan_price_paise,
                           pp.price_paise AS custom_price_paise,
                           COALESCE(pp.price_paise, pl.price_paise, c.default_price_paise) AS amount_paise,
                           CASE WHEN pp.price_paise IS NOT NULL THEN 'custom'
                                WHEN pl.price_paise IS NOT NULL THEN 'plan' ELSE 'default' END AS amount_source,
                           sp.price_paise AS selling_price_paise,
                           p.default_margin_bps,
                           up.price_paise AS user_price_paise,
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
                      LEFT JOIN partner_selling_prices sp ON sp.partner_id = p.id AND sp.api_id = c.id
                      LEFT JOIN user_prices up ON up.user_id = $2 AND up.partner_id = p.id AND up.api_id = c.id
                     WHERE p.id = $1 AND {service}) costs) sells
     ORDER BY lower(category), name, api_id";

/// Two statements rather than one with `$3 IS NULL OR c.service = $3`: with that, Postgres
/// plans the gateway's one-service query afresh on every call (about 0.9 ms against 0.19 ms).
static PRICE_OF_ALL: LazyLock<String> = LazyLock::new(|| PRICES.replace("{service}", "TRUE"));
/// `$3` the service.
pub(crate) static PRICE_OF_ONE: LazyLock<String> =
    LazyLock::new(|| PRICES.replace("{service}", "c.service = $3"));

/// Prices of every API (or of `service` alone) for `partner_id`, and for `user_id` if given.
#[tracing::instrument(skip(conn))]
pub async fn prices(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: Option<i64>,
    service: Option<&str>,
) -> Result<Vec<Price>> {
    let q = sqlx::query_as(match service {
        Some(_) => PRICE_OF_ONE.as_str(),
        None => PRICE_OF_ALL.as_str(),
    })
    .bind(partner_id)
    .bind(user_id);
    Ok(match service {
        Some(s) => q.bind(s),
        None => q,
    }
    .fetch_all(conn)
    .await?)
}

/// The price of one call: `None` when the partner or the service does not exist.
pub async fn resolve(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: Option<i64>,
    service: &str,
) -> Result<Option<Price>> {
    Ok(prices(conn, partner_id, user_id, Some(service))
        .await?
        .pop())
}

/// A per-user price change from the User Detail "API Price" tab. `price_paise: null` removes
/// the user's price (the partner's price applies again).
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct UserPriceChange {
    pub service: String,
    /// Absent or null removes the user's price.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub price_paise: crate::money::Paise,
}

pub use crate::money::MAX_PRICE_PAISE;

/// Sets an end user's prices (only the rows the partner changed are sent). All or nothing:
/// any unknown service or bad price refuses the whole list. Returns how many rows changed.
pub async fn set_user_prices(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    changes: &[UserPriceChange],
    actor: Actor,
) -> Result<usize> {
    crate::partners::tenancy::user_of_partner(conn, partner_id, user_id).await?;
    set_rows(conn, partner_id, Some(user_id), changes, actor).await
}

/// Sets the partner's selling prices for all its users (My Plan), with the rules of
/// [`set_user_prices`]; `price_paise: null` removes one (cost plus margin applies again).
pub async fn set_selling_prices(
    conn: &mut PgConnection,
    partner_id: i64,
    changes: &[UserPriceChange],
    actor: Actor,
) -> Result<usize> {
    crate::partners::tenancy::partner_exists(conn, partner_id).await?;
    set_rows(conn, partner_id, None, changes, actor).await
}

/// One price list written row by row: a user's own (`user_id`) or the partner's selling prices.
async fn set_rows(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: Option<i64>,
    changes: &[UserPriceChange],
    actor: Actor,
) -> Result<usize> {
    let mut v = Violations::new();
    if changes.is_empty() {
        v.add("prices", "Change at least one price");
    }
    let mut seen = std::collections::HashSet::new();
    for (i, c) in changes.iter().enumerate() {
        if c.service.trim().is_empty() {
            v.add(&format!("prices[{i}].service"), "Service Name is required");
        } else if !seen.insert(c.service.trim()) {
            v.add(
                &format!("prices[{i}].service"),
                format!("{} is listed twice", c.service.trim()),
            );
        }
        if let Err(m) = c.price_paise.optional_price() {
            v.add(&format!("prices[{i}].price_paise"), m);
        }
    }
    v.into_result()?;
    let services: Vec<String> = changes
        .iter()
        .map(|c| c.service.trim().to_owned())
        .collect();
    let known: Vec<(String, i64)> =
        sqlx::query_as("SELECT service, id FROM api_catalogue WHERE service = ANY($1)")
            .bind(&services)
            .fetch_all(&mut *conn)
            .await?;
    let known: std::collections::HashMap<String, i64> = known.into_iter().collect();
    let mut v = Violations::new();
    for (i, s) in services.iter().enumerate() {
        if !known.contains_key(s) {
            v.add(
                &format!("prices[{i}].service"),
                format!("Unknown service: {s}"),
            );
        }
    }
    v.into_result()?;

    // The two tables differ only in their key: (user, API) or (partner, API).
    let (select, upsert, delete, key) = match user_id {
        Some(u) => (
            "SELECT price_paise FROM user_prices WHERE user_id = $1 AND api_id = $2 FOR UPDATE",
            "INSERT INTO user_prices (partner_id, user_id, api_id, price_paise) VALUES ($3, $1, $2, $4)
             ON CONFLICT (user_id, api_id) DO UPDATE SET price_paise = EXCLUDED.price_paise, updated_at = now()",
            "DELETE FROM user_prices WHERE user_id = $1 AND api_id = $2",
            u,
        ),
        None => (
            "SELECT price_paise FROM partner_selling_prices WHERE partner_id = $1 AND api_id = $2 FOR UPDATE",
            "INSERT INTO partner_selling_prices (partner_id, api_id, price_paise) VALUES ($3, $2, $4)
             ON CONFLICT (partner_id, api_id) DO UPDATE SET price_paise = EXCLUDED.price_paise, updated_at = now()",
            "DELETE FROM partner_selling_prices WHERE partner_id = $1 AND api_id = $2",
            partner_id,
        ),
    };
    let mut audit_rows = Vec::new();
    for (c, service) in changes.iter().zip(&services) {
        let api_id = known[service];
        let price = c.price_paise.optional_price().unwrap_or_default();
        let before: Option<i64> = sqlx::query_scalar(select)
            .bind(key)
            .bind(api_id)
            .fetch_optional(&mut *conn)
            .await?;
        if before == price {
            continue;
        }
        match price {
            Some(p) => {
                sqlx::query(upsert)
                    .bind(key)
                    .bind(api_id)
                    .bind(partner_id)
                    .bind(p)
                    .execute(&mut *conn)
                    .await?;
            }
            None => {
                sqlx::query(delete)
                    .bind(key)
                    .bind(api_id)
                    .execute(&mut *conn)
                    .await?;
            }
        }
        audit_rows.push(audit::Change {
            entity_id: match user_id {
                Some(u) => format!("{u}:{service}"),
                None => service.clone(),
            },
            partner_id: Some(partner_id),
            before: Some(serde_json::json!({ "price_paise": before })),
            after: Some(serde_json::json!({ "price_paise": price })),
        });
    }
    let (action, entity) = if user_id.is_some() {
        ("user_price.set", "user_price")
    } else {
        ("selling_price.set", "selling_price")
    };
    audit::record_many(conn, actor, action, entity, &audit_rows).await?;
    Ok(audit_rows.len())
}

/// The partner's default margin over its cost, as a request gives it: a JSON number of percent
/// with at most two decimals (12.5), `0..=1000`.
pub fn parse_margin(v: &serde_json::Value) -> Result<i32> {
    const FIELD: &str = "default_margin_percent";
    let Some(f) = v.as_f64().filter(|_| v.is_number()) else {
        return Err(Error::invalid(
            FIELD,
            if v.is_null() {
                "Margin is required"
            } else {
                "Margin must be a number"
            },
        ));
    };
    if f < 0.0 {
        return Err(Error::invalid(FIELD, "Margin cannot be negative"));
    }
    if f > 1000.0 {
        return Err(Error::invalid(FIELD, "Margin cannot be above 1000%"));
    }
    let bps = (f * 100.0).round();
    if (f * 100.0 - bps).abs() > 1e-6 {
        return Err(Error::invalid(
            FIELD,
            "Margin can have at most two decimals",
        ));
    }
    Ok(bps as i32)
}

/// The partner's default margin in basis points.
pub async fn margin(conn: &mut PgConnection, partner_id: i64) -> Result<i32> {
    sqlx::query_scalar("SELECT default_margin_bps FROM partners WHERE id = $1")
        .bind(partner_id)
        .fetch_optional(conn)
        .await?
        .ok_or(Error::NotFound)
}

/// Sets the partner's default margin (My Plan). Returns the margin before.
pub async fn set_margin(
    conn: &mut PgConnection,
    partner_id: i64,
    bps: i32,
    actor: Actor,
) -> Result<i32> {
    let before: i32 =
        sqlx::query_scalar("SELECT default_margin_bps FROM partners WHERE id = $1 FOR UPDATE")
            .bind(partner_id)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or(Error::NotFound)?;
    if before != bps {
        sqlx::query(
            "UPDATE partners SET default_margin_bps = $2, updated_at = now() WHERE id = $1",
        )
        .bind(partner_id)
        .bind(bps)
        .execute(&mut *conn)
        .await?;
        audit::record_many(
            conn,
            actor,
            "margin.set",
            "partner",
            &[audit::Change {
                entity_id: partner_id.to_string(),
                partner_id: Some(partner_id),
                before: Some(serde_json::json!({ "default_margin_bps": before })),
                after: Some(serde_json::json!({ "default_margin_bps": bps })),
            }],
        )
        .await?;
    }
    Ok(before)
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
