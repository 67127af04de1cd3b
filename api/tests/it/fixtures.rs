//! Rows the money tests need, written straight to the database (partners, end users, catalogue
//! entries), and sessions for them.

#![allow(dead_code)]

use api::auth::{Claims, Role};
use domain::{catalogue::ApiInput, infra::audit::Actor};
use serde_json::json;

use crate::common::TestApp;

pub struct Partner {
    pub id: i64,
    pub email: String,
    pub token: String,
}

/// A verified partner on `plan` (NULL plan_selected_at unless `selected`), with a session.
pub async fn partner(app: &TestApp, user_name: &str) -> Partner {
    partner_on(app, user_name, "default", false).await
}

pub async fn partner_on(app: &TestApp, user_name: &str, plan: &str, selected: bool) -> Partner {
    let email = format!("{user_name}@partner.test");
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO partners (first_name, last_name, email, phone_number, user_name, password_hash, email_verified_at, plan, plan_selected_at)
         VALUES ('Test', 'Partner', $1, '9876543210', $2, 'x', now(), $3, CASE WHEN $4 THEN now() END) RETURNING id",
    )
    .bind(&email)
    .bind(user_name)
    .bind(plan)
    .bind(selected)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    let token = partner_token(app, id, user_name).await;
    Partner { id, email, token }
}

/// A token of a new session of partner `id`.
pub async fn partner_token(app: &TestApp, id: i64, user_name: &str) -> String {
    let mut conn = app.db.pool.acquire().await.unwrap();
    let claims = Claims {
        sub: id,
        role: Role::Partner,
        user_name: Some(user_name.into()),
        subdomain: None,
        email: None,
        exp: 0,
        iat: 0,
        sid: uuid::Uuid::nil(),
    };
    app.state.start_session(&mut conn, claims).await.unwrap()
}

/// An end user of `partner_id`.
pub async fn user(app: &TestApp, partner_id: i64, n: u32) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO end_users (partner_id, first_name, last_name, email, phone_number, password_hash)
         VALUES ($1, 'Asha', 'Rao', $2, '9876543210', 'x') RETURNING id",
    )
    .bind(partner_id)
    .bind(format!("user{n}.{partner_id}@example.in"))
    .fetch_one(&app.db.pool)
    .await
    .unwrap()
}

/// A catalogue entry with every required field.
pub fn api_input(service: &str, default_price_paise: i64) -> ApiInput {
    serde_json::from_value(api_json(service, default_price_paise)).unwrap()
}

pub fn api_json(service: &str, default_price_paise: i64) -> serde_json::Value {
    json!({
        "name": format!("API {service}"), "category": "Identity", "service": service,
        "description": "Verifies a thing", "endpoint": format!("/v1/{service}"),
        "documentation_link": format!("https://docs.example/{service}"),
        "curl_code": "curl -X POST https://api.example/v1", "response_code": {"status": "ok"},
        "method": "post", "required_fields": ["id_number"], "default_price_paise": default_price_paise
    })
}

pub async fn api(app: &TestApp, service: &str, default_price_paise: i64) -> i64 {
    let mut conn = app.db.pool.acquire().await.unwrap();
    domain::catalogue::create(
        &mut conn,
        &api_input(service, default_price_paise),
        Actor::system(),
    )
    .await
    .unwrap()
    .id
}

/// A slab price, written directly.
pub async fn slab_price(app: &TestApp, plan: &str, api_id: i64, price_paise: i64) {
    sqlx::query("INSERT INTO plan_prices (plan, api_id, price_paise) VALUES ($1, $2, $3) ON CONFLICT (plan, api_id) DO UPDATE SET price_paise = $3")
        .bind(plan)
        .bind(api_id)
        .bind(price_paise)
        .execute(&app.db.pool)
        .await
        .unwrap();
}

pub async fn count(app: &TestApp, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

pub async fn put(
    app: &TestApp,
    path: &str,
    body: &serde_json::Value,
    token: Option<&str>,
) -> (u16, serde_json::Value) {
    let mut req = app.client.put(app.url(path)).json(body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(serde_json::Value::Null))
}

pub async fn delete(app: &TestApp, path: &str, token: Option<&str>) -> u16 {
    let mut req = app.client.delete(app.url(path));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    req.send().await.unwrap().status().as_u16()
}
