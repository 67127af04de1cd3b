//! The API catalogue the provider sells (super admin: API's and Test API's screens), and the
//! partner-visible summary of it.

pub mod plan_cards;
pub mod plans;
pub mod pricing;
pub mod products;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize};
use sqlx::{PgConnection, Postgres, QueryBuilder};

use crate::{
    Error, Result,
    error::Violations,
    infra::audit::{self, Actor},
    infra::paging::{self, List, Page, PageRequest},
};

/// The exact text of spec part 2, §5 and §8.
pub const RESPONSE_CODE_NOT_OBJECT: &str =
    r#"please enter response code as object ex: {"key":"value"}"#;

#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Api {
    pub id: i64,
    pub service: String,
    pub name: String,
    pub category: String,
    pub description: String,
    pub pid: String,
    /// `get` or `post`.
    pub method: String,
    pub endpoint: String,
    pub documentation_link: String,
    pub curl_code: String,
    /// The sample answer (a JSON object), also what sandbox calls return.
    #[schema(value_type = Object)]
    pub response_code: serde_json::Value,
    pub param_name: String,
    pub header_param_name: String,
    pub required_fields: Vec<String>,
    pub is_hidden: bool,
    pub is_verified: bool,
    pub is_new: bool,
    pub status: bool,
    pub default_price_paise: i64,
    /// On the sandbox (Test API's) list.
    pub is_sandbox: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const API_COLUMNS: &str = "c.id, c.service, c.name, c.category, c.description, c.pid, c.method, c.endpoint,
        c.documentation_link, c.curl_code, c.response_code, c.param_name, c.header_param_name, c.required_fields,
        c.is_hidden, c.is_verified, c.is_new, c.status, c.default_price_paise,
        EXISTS (SELECT 1 FROM sandbox_apis s WHERE s.api_id = c.id) AS is_sandbox, c.created_at, c.updated_at";

/// The add/edit form of the catalogue, as sent. Everything is optional here so that a missing
/// field gets the spec's "required" message rather than a decoding error.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct ApiInput {
    pub name: Option<String>,
    pub category: Option<String>,
    /// The service key callers use: lower-case letters, digits and underscores.
    pub service: Option<String>,
    pub description: Option<String>,
    pub endpoint: Option<String>,
    pub documentation_link: Option<String>,
    pub curl_code: Option<String>,
    /// A JSON object, or a string holding one.
    #[schema(value_type = Object)]
    pub response_code: Option<serde_json::Value>,
    /// `get` or `post` (default post).
    pub method: Option<String>,
    pub param_name: Option<String>,
    pub header_param_name: Option<String>,
    /// A list, or one comma-separated string.
    #[serde(deserialize_with = "list_or_csv")]
    #[schema(value_type = Option<Vec<String>>)]
    pub required_fields: Option<Vec<String>>,
    pub is_hidden: Option<bool>,
    pub is_verified: Option<bool>,
    pub is_new: Option<bool>,
    pub status: Option<bool>,
    pub default_price_paise: Option<i64>,
    /// Generated (`PID` and the next number) when left out.
    pub pid: Option<String>,
}

/// A checked [`ApiInput`].
#[derive(Debug, Clone)]
struct Valid {
    name: String,
    category: String,
    service: String,
    description: String,
    endpoint: String,
    documentation_link: String,
    curl_code: String,
    response_code: serde_json::Value,
    method: String,
    param_name: String,
    header_param_name: String,
    required_fields: Vec<String>,
    is_hidden: bool,
    is_verified: bool,
    is_new: bool,
    status: bool,
    default_price_paise: i64,
    pid: Option<String>,
}

fn list_or_csv<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<Vec<String>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        List(Vec<String>),
        Csv(String),
    }
    Ok(Option::<Raw>::deserialize(d)?.map(|r| {
        let items = match r {
            Raw::List(l) => l,
            Raw::Csv(s) => s.split(',').map(str::to_owned).collect(),
        };
        items
            .into_iter()
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect()
    }))
}

/// The response code must be a JSON object; a string holding one is accepted (the form's
/// textarea sends text).
fn response_object(
    v: &Option<serde_json::Value>,
) -> std::result::Result<serde_json::Value, &'static str> {
    match v {
        None | Some(serde_json::Value::Null) => Err("Response code is required"),
        Some(serde_json::Value::String(s)) if s.trim().is_empty() => {
            Err("Response code is required")
        }
        Some(serde_json::Value::String(s)) => match serde_json::from_str::<serde_json::Value>(s) {
            Ok(o @ serde_json::Value::Object(_)) => Ok(o),
            _ => Err(RESPONSE_CODE_NOT_OBJECT),
        },
        Some(o @ serde_json::Value::Object(_)) => Ok(o.clone()),
        Some(_) => Err(RESPONSE_CODE_NOT_OBJECT),
    }
}

impl ApiInput {
    /// The rules of spec part 2, §5: name, category, service, description, endpoint,
    /// documentation link, curl code and response code required; parameter names optional.
    fn validate(&self) -> Result<Valid> {
        let mut v = Violations::new();
        let mut req = |field: &str, value: &Option<String>, label: &str, max: usize| -> String {
            let s = value.as_deref().unwrap_or("").trim().to_owned();
            if s.is_empty() {
                v.add(field, format!("{label} is required"));
            } else if s.chars().count() > max {
                v.add(field, format!("{label} is too long"));
            }
            s
        };
        let name = req("name", &self.name, "Name", 200);
        let category = req("category", &self.category, "Category", 100);
        let service = req("service", &self.service, "Service", 60);
        let description = req("description", &self.description, "Description", 5000);
        let endpoint = req("endpoint", &self.endpoint, "Endpoint", 2000);
        let documentation_link = req(
            "documentation_link",
            &self.documentation_link,
            "Documentation link",
            2000,
        );
        let curl_code = req("curl_code", &self.curl_code, "Curl code", 20000);
        for (field, value) in [
            ("name", &name),
            ("category", &category),
            ("description", &description),
        ] {
            v.check(
                crate::infra::text::is_plain_text(value),
                field,
                "Please remove special characters",
            );
        }
        let response_code = response_object(&self.response_code).unwrap_or_else(|m| {
            v.add("response_code", m);
            serde_json::Value::Null
        });
        if !service.is_empty() && !is_service_key(&service) {
            v.add(
                "service",
                "Service may contain only lower-case letters, digits and underscores (2 to 60)",
            );
        }
        let method = self
            .method
            .as_deref()
            .unwrap_or("post")
            .trim()
            .to_ascii_lowercase();
        if method != "get" && method != "post" {
            v.add("method", "Method must be get or post");
        }
        let default_price_paise = self.default_price_paise.unwrap_or(0);
        if default_price_paise < 0 {
            v.add("default_price_paise", "Price cannot be negative");
        } else if default_price_paise > crate::catalogue::pricing::MAX_PRICE_PAISE {
            v.add("default_price_paise", "Price is too large");
        }
        let pid = self
            .pid
            .as_deref()
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_owned);
        if pid.as_ref().is_some_and(|p| p.chars().count() > 40) {
            v.add("pid", "PID is too long");
        }
        v.into_result()?;
        Ok(Valid {
            name,
            category,
            service,
            description,
            endpoint,
            documentation_link,
            curl_code,
            response_code,
            method,
            param_name: self.param_name.as_deref().unwrap_or("").trim().to_owned(),
            header_param_name: self
                .header_param_name
                .as_deref()
                .unwrap_or("")
                .trim()
                .to_owned(),
            required_fields: self.required_fields.clone().unwrap_or_default(),
            is_hidden: self.is_hidden.unwrap_or(false),
            is_verified: self.is_verified.unwrap_or(true),
            is_new: self.is_new.unwrap_or(false),
            status: self.status.unwrap_or(true),
            default_price_paise,
            pid,
        })
    }
}

pub fn is_service_key(s: &str) -> bool {
    (2..=60).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// A unique violation names what is taken: the service key or the PID.
fn taken(e: sqlx::Error) -> Error {
    if let sqlx::Error::Database(d) = &e
        && d.is_unique_violation()
    {
        return match d.constraint() {
            Some(c) if c.contains("pid") => Error::conflict("An API with this PID already exists"),
            _ => Error::conflict("An API with this service already exists"),
        };
    }
    Error::Db(e)
}

#[derive(Debug, Clone, Default)]
pub struct ApiFilter {
    /// Matches name, service or PID (case-insensitive substring).
    pub q: Option<String>,
    pub category: Option<String>,
    pub sandbox_only: bool,
}

pub async fn list(conn: &mut PgConnection, f: &ApiFilter, page: PageRequest) -> Result<Page<Api>> {
    let search = paging::contains_pattern(f.q.as_deref());
    let category = f
        .category
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty() && !s.eq_ignore_ascii_case("all"));
    List {
        columns: API_COLUMNS,
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM api_catalogue c WHERE true");
            if let Some(s) = &search {
                q.push(" AND (c.name ILIKE ").push_bind(s.clone());
                q.push(" OR c.service ILIKE ").push_bind(s.clone());
                q.push(" OR c.pid ILIKE ").push_bind(s.clone()).push(")");
            }
            if let Some(c) = category {
                q.push(" AND lower(c.category) = lower(")
                    .push_bind(c.to_owned())
                    .push(")");
            }
            if f.sandbox_only {
                q.push(" AND EXISTS (SELECT 1 FROM sandbox_apis s WHERE s.api_id = c.id)");
            }
        },
        order_by: "c.id",
    }
    .fetch(conn, page)
    .await
}

pub async fn get(conn: &mut PgConnection, id: i64) -> Result<Api> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {API_COLUMNS} FROM api_catalogue c WHERE c.id = $1"
    )))
    .bind(id)
    .fetch_optional(conn)
    .await?
    .ok_or(Error::NotFound)
}

type IdQuery<'q> = sqlx::query::QueryScalar<'q, sqlx::Postgres, i64, sqlx::postgres::PgArguments>;

/// Binds an entry's fields in the order both the INSERT and the UPDATE list them.
fn bind_fields<'q>(q: IdQuery<'q>, a: &'q Valid) -> IdQuery<'q> {
    q.bind(&a.service)
        .bind(&a.name)
        .bind(&a.category)
        .bind(&a.description)
        .bind(&a.pid)
        .bind(&a.method)
        .bind(&a.endpoint)
        .bind(&a.documentation_link)
        .bind(&a.curl_code)
        .bind(&a.response_code)
        .bind(&a.param_name)
        .bind(&a.header_param_name)
        .bind(&a.required_fields)
        .bind(a.is_hidden)
        .bind(a.is_verified)
        .bind(a.is_new)
        .bind(a.status)
        .bind(a.default_price_paise)
}

/// The catalogue's one insert (the super admin's Add API, and the seed): the entry's rules
/// checked, then the row; a PID left out continues the catalogue's numbering. 409 naming the
/// service or PID that is taken.
pub async fn insert(conn: &mut PgConnection, input: &ApiInput) -> Result<i64> {
    let a = input.validate()?;
    // Generated PIDs continue the catalogue's numbering; the lock keeps two creations from
    // picking the same number.
    sqlx::query("SELECT pg_advisory_xact_lock(hashtext('api_catalogue.pid'))")
        .execute(&mut *conn)
        .await?;
    let insert = sqlx::query_scalar(
        "INSERT INTO api_catalogue (service, name, category, description, pid, method, endpoint, documentation_link, curl_code,
                                    response_code, param_name, header_param_name, required_fields, is_hidden, is_verified,
                                    is_new, status, default_price_paise)
         VALUES ($1, $2, $3, $4,
                 COALESCE($5, 'PID' || (SELECT COALESCE(max(substring(pid FROM '^PID([0-9]{1,15})$')::bigint), 1000) + 1 FROM api_catalogue)),
                 $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
         RETURNING id",
    );
    bind_fields(insert, &a)
        .fetch_one(&mut *conn)
        .await
        .map_err(taken)
}

pub async fn create(conn: &mut PgConnection, input: &ApiInput, actor: Actor) -> Result<Api> {
    let id = insert(conn, input).await?;
    let api = get(conn, id).await?;
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "api.create",
            entity: "api",
            entity_id: id.to_string(),
            partner_id: None,
            before: None,
            after: Some(serde_json::to_value(&api).map_err(anyhow::Error::from)?),
        },
    )
    .await?;
    Ok(api)
}

/// Replaces every field of the entry (the edit form sends them all). The PID stays unless a
/// new one is given.
pub async fn update(
    conn: &mut PgConnection,
    id: i64,
    input: &ApiInput,
    actor: Actor,
) -> Result<Api> {
    let a = input.validate()?;
    let before = get_for_update(conn, id).await?;
    let update = sqlx::query_scalar(
        "UPDATE api_catalogue
            SET service = $2, name = $3, category = $4, description = $5, pid = COALESCE($6, pid), method = $7,
                endpoint = $8, documentation_link = $9, curl_code = $10, response_code = $11, param_name = $12,
                header_param_name = $13, required_fields = $14, is_hidden = $15, is_verified = $16, is_new = $17,
                status = $18, default_price_paise = $19, updated_at = now()
          WHERE id = $1 RETURNING id",
    )
    .bind(id);
    let _: i64 = bind_fields(update, &a)
        .fetch_one(&mut *conn)
        .await
        .map_err(taken)?;
    let after = get(conn, id).await?;
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "api.update",
            entity: "api",
            entity_id: id.to_string(),
            partner_id: None,
            before: Some(serde_json::to_value(&before).map_err(anyhow::Error::from)?),
            after: Some(serde_json::to_value(&after).map_err(anyhow::Error::from)?),
        },
    )
    .await?;
    Ok(after)
}

async fn get_for_update(conn: &mut PgConnection, id: i64) -> Result<Api> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {API_COLUMNS} FROM api_catalogue c WHERE c.id = $1 FOR UPDATE OF c"
    )))
    .bind(id)
    .fetch_optional(conn)
    .await?
    .ok_or(Error::NotFound)
}

/// Deletes the entry and, by cascade, its slab, customised and user prices and its sandbox
/// listing. Past transactions keep their service and PID (their api_id becomes NULL).
pub async fn delete(conn: &mut PgConnection, id: i64, actor: Actor) -> Result<()> {
    let before = get_for_update(conn, id).await?;
    sqlx::query("DELETE FROM api_catalogue WHERE id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "api.delete",
            entity: "api",
            entity_id: id.to_string(),
            partner_id: None,
            before: Some(serde_json::to_value(&before).map_err(anyhow::Error::from)?),
            after: None,
        },
    )
    .await?;
    Ok(())
}

/// Puts an API on the sandbox (Test API's) list, or takes it off. Idempotent.
pub async fn set_sandbox(conn: &mut PgConnection, id: i64, on: bool, actor: Actor) -> Result<Api> {
    let before = get_for_update(conn, id).await?;
    if on {
        sqlx::query("INSERT INTO sandbox_apis (api_id) VALUES ($1) ON CONFLICT DO NOTHING")
            .bind(id)
            .execute(&mut *conn)
            .await?;
    } else {
        sqlx::query("DELETE FROM sandbox_apis WHERE api_id = $1")
            .bind(id)
            .execute(&mut *conn)
            .await?;
    }
    if before.is_sandbox != on {
        audit::record(
            conn,
            &audit::Record {
                actor,
                action: if on {
                    "api.sandbox_add"
                } else {
                    "api.sandbox_remove"
                },
                entity: "api",
                entity_id: id.to_string(),
                partner_id: None,
                before: Some(serde_json::json!({ "is_sandbox": before.is_sandbox })),
                after: Some(serde_json::json!({ "is_sandbox": on })),
            },
        )
        .await?;
    }
    get(conn, id).await
}

/// The catalogue id of a service key.
pub async fn id_of_service(conn: &mut PgConnection, service: &str) -> Result<Option<i64>> {
    Ok(
        sqlx::query_scalar("SELECT id FROM api_catalogue WHERE service = $1")
            .bind(service.trim())
            .fetch_optional(conn)
            .await?,
    )
}

/// One API as partners see the catalogue (My APIs, the price screens' labels).
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Summary {
    pub api_id: i64,
    pub service: String,
    pub name: String,
    pub category: String,
    pub pid: String,
    pub description: String,
    pub method: String,
    pub required_fields: Vec<String>,
    pub is_new: bool,
    pub is_sandbox: bool,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Catalogue {
    pub items: Vec<Summary>,
    /// Distinct lower-cased categories, for the category filters.
    pub categories: Vec<String>,
}

/// Every live, not hidden API.
pub async fn summary(conn: &mut PgConnection) -> Result<Catalogue> {
    let items: Vec<Summary> = sqlx::query_as(
        "SELECT c.id AS api_id, c.service, c.name, c.category, c.pid, c.description, c.method, c.required_fields, c.is_new,
                EXISTS (SELECT 1 FROM sandbox_apis s WHERE s.api_id = c.id) AS is_sandbox
           FROM api_catalogue c WHERE c.status AND NOT c.is_hidden
          ORDER BY lower(c.category), c.name, c.id",
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut categories: Vec<String> = items.iter().map(|i| i.category.to_lowercase()).collect();
    categories.sort();
    categories.dedup();
    Ok(Catalogue { items, categories })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full() -> ApiInput {
        serde_json::from_value(serde_json::json!({
            "name": "PAN", "category": "Identity", "service": "pan_x", "description": "d", "endpoint": "/v1/pan",
            "documentation_link": "https://docs.example/pan", "curl_code": "curl ...", "response_code": "{\"ok\":true}",
            "required_fields": "pan_number, name"
        }))
        .unwrap()
    }

    #[test]
    fn required_fields_and_response_code() {
        let v = full().validate().unwrap();
        assert_eq!(v.required_fields, ["pan_number", "name"]);
        assert_eq!(v.response_code, serde_json::json!({"ok": true}));
        assert_eq!(v.method, "post");

        let Err(Error::Invalid { fields, .. }) = ApiInput::default().validate() else {
            panic!()
        };
        for f in [
            "name",
            "category",
            "service",
            "description",
            "endpoint",
            "documentation_link",
            "curl_code",
            "response_code",
        ] {
            assert!(fields.contains_key(f), "{f} not required");
        }
        assert!(!fields.contains_key("param_name"));

        for bad in [
            serde_json::json!("[1,2]"),
            serde_json::json!("not json"),
            serde_json::json!([1]),
            serde_json::json!(5),
        ] {
            let mut i = full();
            i.response_code = Some(bad);
            let Err(Error::Invalid { fields, .. }) = i.validate() else {
                panic!()
            };
            assert_eq!(fields["response_code"], RESPONSE_CODE_NOT_OBJECT);
        }
    }
}

/// A live API's request, for the OpenAPI document's examples of `POST /verify/{service}`.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct RequestShape {
    pub service: String,
    pub name: String,
    pub required_fields: Vec<String>,
}

/// Every API that is on and not hidden by the super admin, by service.
pub async fn request_shapes(conn: &mut PgConnection) -> Result<Vec<RequestShape>> {
    Ok(sqlx::query_as(
        "SELECT service, name, required_fields FROM api_catalogue
          WHERE status AND NOT is_hidden ORDER BY service",
    )
    .fetch_all(conn)
    .await?)
}
