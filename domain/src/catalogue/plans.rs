//! Price lists: the four plan slabs (super admin, Plans), a partner's customised plan (client
//! details, Plan Details and API Pricing), the partner's plan choice, and the partner's own
//! read-only view (My Plan). What a call finally costs is `pricing`'s business.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, Postgres, QueryBuilder};

use crate::{
    Error, Result,
    catalogue::pricing,
    error::Violations,
    infra::audit::{self, Actor},
    infra::paging::{List, Page, PageRequest},
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PlanType {
    Default,
    Standard,
    Premium,
    Pro,
}

impl PlanType {
    pub const ALL: [PlanType; 4] = [
        PlanType::Default,
        PlanType::Standard,
        PlanType::Premium,
        PlanType::Pro,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            PlanType::Default => "default",
            PlanType::Standard => "standard",
            PlanType::Premium => "premium",
            PlanType::Pro => "pro",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str().eq_ignore_ascii_case(s.trim()))
    }
}

/// Where a price list applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    Plan(PlanType),
    Partner(i64),
}

/// One row of a price list to set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PriceItem {
    pub service: String,
    #[schema(value_type = i64)]
    pub price_paise: crate::money::Paise,
    /// Customised plans only: an inactive entry does not apply (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<bool>,
}

/// Checks a price list before anything is written or queued: not empty, each service known and
/// listed once, each price within range. Field names point at the offending row.
pub async fn validate_items(conn: &mut PgConnection, items: &[PriceItem]) -> Result<Vec<i64>> {
    let mut v = Violations::new();
    if items.is_empty() {
        v.add("prices", "Add at least one price");
    }
    if items.len() > 10_000 {
        v.add("prices", "At most 10000 prices at once");
    }
    let mut seen = std::collections::HashSet::new();
    for (i, it) in items.iter().enumerate() {
        let s = it.service.trim();
        if s.is_empty() {
            v.add(&format!("prices[{i}].service"), "Service Name is required");
        } else if !seen.insert(s) {
            v.add(
                &format!("prices[{i}].service"),
                format!("{s} is listed twice"),
            );
        }
        if let Err(m) = it.price_paise.price() {
            v.add(&format!("prices[{i}].price_paise"), m);
        }
    }
    v.into_result()?;
    let services: Vec<&str> = items.iter().map(|i| i.service.trim()).collect();
    let known: Vec<(String, i64)> =
        sqlx::query_as("SELECT service, id FROM api_catalogue WHERE service = ANY($1)")
            .bind(&services)
            .fetch_all(conn)
            .await?;
    let known: std::collections::HashMap<String, i64> = known.into_iter().collect();
    let mut v = Violations::new();
    let mut ids = Vec::with_capacity(items.len());
    for (i, s) in services.iter().enumerate() {
        match known.get(*s) {
            Some(id) => ids.push(*id),
            None => v.add(
                &format!("prices[{i}].service"),
                format!("Unknown service: {s}"),
            ),
        }
    }
    v.into_result()?;
    Ok(ids)
}

/// Applies a queued price list once (the `bulk_update_prices` job), in the caller's
/// transaction: the prices and an audit row keyed by `apply_id`. A second run with the same
/// `apply_id` (a retry after a crash that came after the commit) finds that row and changes
/// nothing: `Ok(None)`. Two runs at once (one worker presumed dead) take turns on a lock.
/// Returns the number of prices that changed.
pub async fn apply_price_list(
    conn: &mut PgConnection,
    apply_id: &str,
    target: Target,
    items: &[PriceItem],
    actor: Actor,
) -> Result<Option<usize>> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
        .bind(format!("bulk_update_prices:{apply_id}"))
        .execute(&mut *conn)
        .await?;
    let done: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM audit_log WHERE action = 'bulk_update_prices' AND entity_id = $1)")
        .bind(apply_id)
        .fetch_one(&mut *conn)
        .await?;
    if done {
        return Ok(None);
    }
    let changed = apply_prices(conn, target, items, actor).await?;
    let partner_id = match target {
        Target::Partner(p) => Some(p),
        Target::Plan(_) => None,
    };
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "bulk_update_prices",
            entity: "price_list",
            entity_id: apply_id.to_owned(),
            partner_id,
            before: None,
            after: Some(
                serde_json::json!({ "target": target, "prices": items.len(), "changed": changed }),
            ),
        },
    )
    .await?;
    Ok(Some(changed))
}

/// Sets the prices of `items` on `target`, all in the caller's transaction: the previous
/// prices are locked and read, every row is upserted in one statement, and one audit row per
/// changed price records before and after. Returns the number of prices that changed.
pub async fn apply_prices(
    conn: &mut PgConnection,
    target: Target,
    items: &[PriceItem],
    actor: Actor,
) -> Result<usize> {
    let ids = validate_items(conn, items).await?;
    // validate_items refused every price that is not a whole number in range.
    let prices: Vec<i64> = items
        .iter()
        .map(|i| i.price_paise.whole().unwrap_or_default())
        .collect();
    let statuses: Vec<bool> = items.iter().map(|i| i.status.unwrap_or(true)).collect();
    let services: Vec<&str> = items.iter().map(|i| i.service.trim()).collect();
    if let Target::Partner(p) = target {
        crate::partners::tenancy::partner_exists(conn, p).await?;
    }
    // Before-images, locked so that two concurrent lists cannot interleave their audit rows.
    let before: Vec<(i64, i64, bool)> = match target {
        Target::Plan(plan) => sqlx::query_as(
            "SELECT api_id, price_paise, true FROM plan_prices WHERE plan = $1 AND api_id = ANY($2) ORDER BY api_id FOR UPDATE",
        )
        .bind(plan.as_str())
        .bind(&ids)
        .fetch_all(&mut *conn)
        .await?,
        Target::Partner(p) => sqlx::query_as(
            "SELECT api_id, price_paise, status FROM partner_prices WHERE partner_id = $1 AND api_id = ANY($2) ORDER BY api_id FOR UPDATE",
        )
        .bind(p)
        .bind(&ids)
        .fetch_all(&mut *conn)
        .await?,
    };
    let before: std::collections::HashMap<i64, (i64, bool)> =
        before.into_iter().map(|(a, p, s)| (a, (p, s))).collect();
    match target {
        Target::Plan(plan) => {
            sqlx::query(
                "INSERT INTO plan_prices (plan, api_id, price_paise)
                 SELECT $1, x.api_id, x.price FROM UNNEST($2::bigint[], $3::bigint[]) AS x(api_id, price)
                 ON CONFLICT (plan, api_id) DO UPDATE SET price_paise = EXCLUDED.price_paise, updated_at = now()
                  WHERE plan_prices.price_paise IS DISTINCT FROM EXCLUDED.price_paise",
            )
            .bind(plan.as_str())
            .bind(&ids)
            .bind(&prices)
            .execute(&mut *conn)
            .await?;
        }
        Target::Partner(p) => {
            sqlx::query(
                "INSERT INTO partner_prices (partner_id, api_id, price_paise, status)
                 SELECT $1, x.api_id, x.price, x.status FROM UNNEST($2::bigint[], $3::bigint[], $4::bool[]) AS x(api_id, price, status)
                 ON CONFLICT (partner_id, api_id) DO UPDATE SET price_paise = EXCLUDED.price_paise, status = EXCLUDED.status, updated_at = now()
                  WHERE (partner_prices.price_paise, partner_prices.status) IS DISTINCT FROM (EXCLUDED.price_paise, EXCLUDED.status)",
            )
            .bind(p)
            .bind(&ids)
            .bind(&prices)
            .bind(&statuses)
            .execute(&mut *conn)
            .await?;
        }
    }
    let (entity, prefix, partner_id) = match target {
        Target::Plan(plan) => ("plan_price", plan.as_str().to_owned(), None),
        Target::Partner(p) => ("partner_price", p.to_string(), Some(p)),
    };
    let mut rows = Vec::new();
    for (((id, price), status), service) in ids.iter().zip(&prices).zip(&statuses).zip(&services) {
        let old = before.get(id).copied();
        let status_matters = matches!(target, Target::Partner(_));
        if old == Some((*price, *status)) || (!status_matters && old.map(|o| o.0) == Some(*price)) {
            continue;
        }
        let image = |p: i64, s: bool| {
            if status_matters {
                serde_json::json!({ "service": service, "price_paise": p, "status": s })
            } else {
                serde_json::json!({ "service": service, "price_paise": p })
            }
        };
        rows.push(audit::Change {
            entity_id: format!("{prefix}:{service}"),
            partner_id,
            before: old.map(|(p, s)| image(p, s)),
            after: Some(image(*price, *status)),
        });
    }
    audit::record_many(conn, actor, &format!("{entity}.set"), entity, &rows).await?;
    Ok(rows.len())
}

/// One row of a slab's price list.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct SlabPrice {
    pub api_id: i64,
    pub service: String,
    pub name: String,
    pub category: String,
    pub pid: String,
    pub price_paise: i64,
    pub default_price_paise: i64,
    pub updated_at: DateTime<Utc>,
}

/// The APIs a slab lists, by category and name.
pub async fn slab_prices(
    conn: &mut PgConnection,
    plan: PlanType,
    category: Option<&str>,
    page: PageRequest,
) -> Result<Page<SlabPrice>> {
    let category = category
        .map(str::trim)
        .filter(|c| !c.is_empty() && !c.eq_ignore_ascii_case("all"));
    List {
        columns: "c.id AS api_id, c.service, c.name, c.category, c.pid, pl.price_paise, c.default_price_paise, pl.updated_at",
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM plan_prices pl JOIN api_catalogue c ON c.id = pl.api_id WHERE pl.plan = ").push_bind(plan.as_str());
            push_category(q, category);
        },
        order_by: "lower(c.category), c.name, c.id",
    }
    .fetch(conn, page)
    .await
}

/// `AND` one category (case-insensitive) of the catalogue `c`, when there is one.
fn push_category(q: &mut QueryBuilder<Postgres>, category: Option<&str>) {
    if let Some(c) = category {
        q.push(" AND lower(c.category) = lower(")
            .push_bind(c.to_owned())
            .push(")");
    }
}

/// One entry of a partner's customised plan (client details, API Pricing).
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct CustomPrice {
    pub api_id: i64,
    pub service: String,
    pub name: String,
    pub category: String,
    pub pid: String,
    pub price_paise: i64,
    /// An inactive entry is kept but does not apply.
    pub status: bool,
    /// What the partner would pay without this entry (its slab, else the catalogue default).
    pub plan_price_paise: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

pub async fn custom_prices(
    conn: &mut PgConnection,
    partner_id: i64,
    category: Option<&str>,
    page: PageRequest,
) -> Result<Page<CustomPrice>> {
    crate::partners::tenancy::partner_exists(conn, partner_id).await?;
    let category = category
        .map(str::trim)
        .filter(|c| !c.is_empty() && !c.eq_ignore_ascii_case("all"));
    List {
        columns: "c.id AS api_id, c.service, c.name, c.category, c.pid, pp.price_paise, pp.status,
                  COALESCE(pl.price_paise, c.default_price_paise) AS plan_price_paise, pp.created_at, pp.updated_at",
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push(
                "FROM partner_prices pp
                 JOIN api_catalogue c ON c.id = pp.api_id
                 JOIN partners p ON p.id = pp.partner_id
                 LEFT JOIN plan_prices pl ON pl.plan = p.plan AND pl.api_id = c.id
                 WHERE pp.partner_id = ",
            )
            .push_bind(partner_id);
            push_category(q, category);
        },
        order_by: "lower(c.category), c.name, c.id",
    }
    .fetch(conn, page)
    .await
}

/// Removes one customised price: the partner pays its slab's price for it again.
pub async fn delete_custom_price(
    conn: &mut PgConnection,
    partner_id: i64,
    service: &str,
    actor: Actor,
) -> Result<()> {
    crate::partners::tenancy::partner_exists(conn, partner_id).await?;
    let removed: Option<(i64, bool)> = sqlx::query_as(
        "DELETE FROM partner_prices pp USING api_catalogue c
          WHERE pp.partner_id = $1 AND pp.api_id = c.id AND c.service = $2
         RETURNING pp.price_paise, pp.status",
    )
    .bind(partner_id)
    .bind(service)
    .fetch_optional(&mut *conn)
    .await?;
    let (price, status) = removed.ok_or(Error::NotFound)?;
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "partner_price.delete",
            entity: "partner_price",
            entity_id: format!("{partner_id}:{service}"),
            partner_id: Some(partner_id),
            before: Some(
                serde_json::json!({ "service": service, "price_paise": price, "status": status }),
            ),
            after: None,
        },
    )
    .await?;
    Ok(())
}

/// Change Plan (client details, Settings): moves the partner to another slab and marks the
/// plan as selected.
pub async fn change_plan(
    conn: &mut PgConnection,
    partner_id: i64,
    plan: PlanType,
    actor: Actor,
) -> Result<()> {
    let before: Option<(String, Option<DateTime<Utc>>)> = sqlx::query_as(
        "SELECT plan::text, plan_selected_at FROM partners WHERE id = $1 FOR UPDATE",
    )
    .bind(partner_id)
    .fetch_optional(&mut *conn)
    .await?;
    let (old, _) = before.ok_or(Error::NotFound)?;
    sqlx::query(
        "UPDATE partners SET plan = $2, plan_selected_at = now(), updated_at = now() WHERE id = $1",
    )
    .bind(partner_id)
    .bind(plan.as_str())
    .execute(&mut *conn)
    .await?;
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "partner.change_plan",
            entity: "partner",
            entity_id: partner_id.to_string(),
            partner_id: Some(partner_id),
            before: Some(serde_json::json!({ "plan": old })),
            after: Some(serde_json::json!({ "plan": plan.as_str() })),
        },
    )
    .await?;
    Ok(())
}

/// A partner's plan as the client-details Plan Details tab shows it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ClientPlan {
    pub partner_id: i64,
    pub plan: PlanType,
    pub plan_selected_at: Option<DateTime<Utc>>,
    /// The super admin set at least one customised price.
    pub customised: bool,
    /// Every API with the partner's effective price and where it comes from.
    pub items: Vec<pricing::Price>,
}

pub async fn client_plan(conn: &mut PgConnection, partner_id: i64) -> Result<ClientPlan> {
    let row: Option<(String, Option<DateTime<Utc>>, bool)> = sqlx::query_as(
        "SELECT plan::text, plan_selected_at, EXISTS (SELECT 1 FROM partner_prices WHERE partner_id = p.id) FROM partners p WHERE id = $1",
    )
    .bind(partner_id)
    .fetch_optional(&mut *conn)
    .await?;
    let (plan, plan_selected_at, customised) = row.ok_or(Error::NotFound)?;
    let items = pricing::prices(conn, partner_id, None, None).await?;
    Ok(ClientPlan {
        partner_id,
        plan: PlanType::parse(&plan).unwrap_or(PlanType::Default),
        plan_selected_at,
        customised,
        items,
    })
}

/// One row of My Plan.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct MyPlanItem {
    pub api_id: i64,
    pub service: String,
    pub category: String,
    pub name: String,
    pub pid: String,
    /// What the partner pays per call (its cost).
    pub price_paise: i64,
    /// What a user without a price of its own pays (`domain::catalogue::pricing`): the partner's selling
    /// price for the API, else the cost plus the default margin.
    pub sells_at_paise: i64,
}

/// The partner's own, read-only view (My Plan). `plan` is `null` while the partner has no plan
/// (never selected one and has no customised prices): the screen says 'No plan selected yet'.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct MyPlan {
    pub plan: Option<PlanType>,
    pub customised: bool,
    /// The last change to the plan choice or to any price in it.
    pub updated_at: Option<DateTime<Utc>>,
    pub items: Vec<MyPlanItem>,
}

pub async fn my_plan(conn: &mut PgConnection, partner_id: i64) -> Result<MyPlan> {
    #[derive(sqlx::FromRow)]
    struct Row {
        plan: String,
        selected_at: Option<DateTime<Utc>>,
        custom_at: Option<DateTime<Utc>>,
        slab_at: Option<DateTime<Utc>>,
    }
    let row: Option<Row> = sqlx::query_as(
        "SELECT p.plan::text AS plan, p.plan_selected_at AS selected_at,
                (SELECT max(updated_at) FROM partner_prices WHERE partner_id = p.id) AS custom_at,
                (SELECT max(updated_at) FROM plan_prices WHERE plan = p.plan) AS slab_at
           FROM partners p WHERE p.id = $1",
    )
    .bind(partner_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Row {
        plan,
        selected_at,
        custom_at,
        slab_at,
    } = row.ok_or(Error::NotFound)?;
    let customised = custom_at.is_some();
    if selected_at.is_none() && !customised {
        return Ok(MyPlan {
            plan: None,
            customised: false,
            updated_at: None,
            items: vec![],
        });
    }
    let updated_at = [selected_at, custom_at, slab_at]
        .into_iter()
        .flatten()
        .max();
    let items = pricing::prices(conn, partner_id, None, None)
        .await?
        .into_iter()
        .filter(|p| p.visible)
        .map(|p| MyPlanItem {
            api_id: p.api_id,
            service: p.service,
            category: p.category,
            name: p.name,
            pid: p.pid,
            price_paise: p.amount_paise,
            sells_at_paise: p.sells_at_paise,
        })
        .collect();
    Ok(MyPlan {
        plan: PlanType::parse(&plan),
        customised,
        updated_at,
        items,
    })
}

/// The distinct lower-cased categories of a partner's customised prices (API Pricing filter).
pub async fn custom_price_categories(
    conn: &mut PgConnection,
    partner_id: i64,
) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar(
        "SELECT DISTINCT lower(c.category) FROM partner_prices pp JOIN api_catalogue c ON c.id = pp.api_id
          WHERE pp.partner_id = $1 ORDER BY 1",
    )
    .bind(partner_id)
    .fetch_all(conn)
    .await?)
}
