//! What the gateway tests share: a fake upstream on loopback (axum) whose behaviour a test
//! switches, API keys written straight to the database in the agreed format, a funded partner
//! and user, a second api instance on the same database, and the ledger audit.

#![allow(dead_code)]

use std::{
    sync::{
        Arc,
        atomic::{AtomicU8, AtomicUsize, Ordering},
    },
    time::Duration,
};

use axum::{Router, body::Bytes, extract::State, http::StatusCode, response::IntoResponse};
use domain::{
    infra::audit::Actor,
    wallets::{self, EntryType, Movement, Owner, Reason, WalletKind},
};
use tokio::sync::oneshot;

use crate::{common::TestApp, fixtures};

/// The last request the upstream got: URI, body, and its `x-consent-id` header.
pub type LastRequest = Arc<std::sync::Mutex<Option<(String, String, Option<String>)>>>;

pub const OK: u8 = 0;
pub const FAIL_500: u8 = 1;
pub const HANG: u8 = 2;
/// 200 or 500 after [`SLOW`]: long enough for a client to hang up first.
pub const SLOW_OK: u8 = 3;
pub const SLOW_500: u8 = 4;
pub const SLOW: Duration = Duration::from_millis(600);

/// A fake verification provider: answers `{"ok":true,"echo":<body>}` with 200, or 500, or
/// never (until the test ends), as `mode` says; counts the requests it got.
#[derive(Clone)]
pub struct Upstream {
    pub base: String,
    pub mode: Arc<AtomicU8>,
    pub hits: Arc<AtomicUsize>,
    pub last: LastRequest,
    _stop: Arc<oneshot::Sender<()>>,
}

#[derive(Clone)]
struct UpState {
    mode: Arc<AtomicU8>,
    hits: Arc<AtomicUsize>,
    last: LastRequest,
}

async fn answer(State(s): State<UpState>, req: axum::extract::Request) -> axum::response::Response {
    s.hits.fetch_add(1, Ordering::SeqCst);
    let uri = req.uri().to_string();
    let consent = req
        .headers()
        .get("x-consent-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body = axum::body::to_bytes(req.into_body(), 1 << 20)
        .await
        .unwrap_or_default();
    *s.last.lock().unwrap() = Some((uri, String::from_utf8_lossy(&body).into_owned(), consent));
    let mode = s.mode.load(Ordering::SeqCst);
    if matches!(mode, SLOW_OK | SLOW_500) {
        tokio::time::sleep(SLOW).await;
    }
    match mode {
        FAIL_500 | SLOW_500 => {
            (StatusCode::INTERNAL_SERVER_ERROR, "{\"error\":\"boom\"}").into_response()
        }
        HANG => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            StatusCode::OK.into_response()
        }
        _ => {
            let echo: serde_json::Value =
                serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
            (
                [
                    ("content-type", "application/json"),
                    ("x-request-id", "up-123"),
                ],
                Bytes::from(serde_json::json!({"ok": true, "echo": echo}).to_string()),
            )
                .into_response()
        }
    }
}

impl Upstream {
    pub async fn start() -> Self {
        let mode = Arc::new(AtomicU8::new(OK));
        let hits = Arc::new(AtomicUsize::new(0));
        let last = Arc::new(std::sync::Mutex::new(None));
        let state = UpState {
            mode: mode.clone(),
            hits: hits.clone(),
            last: last.clone(),
        };
        let app = Router::new().fallback(answer).with_state(state);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (tx, rx) = oneshot::channel::<()>();
        tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = rx.await;
                })
                .await
                .unwrap();
        });
        Self {
            base,
            mode,
            hits,
            last,
            _stop: Arc::new(tx),
        }
    }

    pub fn set(&self, mode: u8) {
        self.mode.store(mode, Ordering::SeqCst);
    }

    pub fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

/// A base URL where nothing listens: the port was bound, then freed.
pub async fn refused_base() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    drop(l);
    format!("http://{addr}")
}

/// A new key in the agreed format (`kyc_live_`/`kyc_test_` + 32 base62), stored as its
/// SHA-256 like the keys API stores it.
pub async fn key(app: &TestApp, partner_id: i64, user_id: i64, mode: &str) -> String {
    let secret = uuid::Uuid::new_v4().simple().to_string();
    let key = format!(
        "kyc_{}_{secret}",
        if mode == "live" { "live" } else { "test" }
    );
    sqlx::query("INSERT INTO api_keys (partner_id, user_id, prefix, key_hash, mode) VALUES ($1, $2, $3, $4, $5)")
        .bind(partner_id)
        .bind(user_id)
        .bind(&key[..16])
        .bind(domain::gateway::key_hash(&key).as_slice())
        .bind(mode)
        .execute(&app.db.pool)
        .await
        .unwrap();
    key
}

pub async fn credit(app: &TestApp, owner: Owner, amount: i64) -> i64 {
    let mut conn = app.db.pool.acquire().await.unwrap();
    let w = wallets::wallet_id(&mut conn, owner, WalletKind::Api)
        .await
        .unwrap();
    if amount > 0 {
        wallets::apply(
            &mut conn,
            &Movement {
                wallet_id: w,
                entry_type: EntryType::Credit,
                amount_paise: amount,
                reason: Reason::Manual,
                reference: None,
                idempotency_key: None,
                actor: Actor::system(),
            },
        )
        .await
        .unwrap();
    }
    w
}

pub struct Setup {
    pub partner_id: i64,
    pub user_id: i64,
    pub key: String,
    pub user_wallet: i64,
    pub partner_wallet: i64,
    pub api_id: i64,
}

/// A live partner (Test api off, its base URL switched on and pointing at `base`), a
/// full-access user, an API `service` at `price` paise for both, both wallets funded, a live key.
pub async fn live(
    app: &TestApp,
    name: &str,
    base: &str,
    service: &str,
    price: i64,
    user_funds: i64,
    partner_funds: i64,
) -> Setup {
    let p = fixtures::partner(app, name).await;
    sqlx::query("UPDATE partners SET sandbox_enabled = false, api_base_url = $2, base_url_status = true WHERE id = $1")
        .bind(p.id)
        .bind(base)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let user_id = fixtures::user(app, p.id, 1).await;
    sqlx::query("UPDATE end_users SET full_access = true WHERE id = $1")
        .bind(user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let api_id: i64 = match sqlx::query_scalar("SELECT id FROM api_catalogue WHERE service = $1")
        .bind(service)
        .fetch_optional(&app.db.pool)
        .await
        .unwrap()
    {
        Some(id) => id,
        None => fixtures::api(app, service, price).await,
    };
    let user_wallet = credit(
        app,
        Owner::User {
            partner_id: p.id,
            user_id,
        },
        user_funds,
    )
    .await;
    let partner_wallet = credit(app, Owner::Partner(p.id), partner_funds).await;
    let key = key(app, p.id, user_id, "live").await;
    Setup {
        partner_id: p.id,
        user_id,
        key,
        user_wallet,
        partner_wallet,
        api_id,
    }
}

pub async fn balance(app: &TestApp, wallet: i64) -> i64 {
    sqlx::query_scalar("SELECT balance_paise FROM wallets WHERE id = $1")
        .bind(wallet)
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

pub async fn verify(
    app: &TestApp,
    base: &str,
    key: &str,
    service: &str,
    body: &serde_json::Value,
) -> (u16, reqwest::header::HeaderMap, serde_json::Value) {
    let res = app
        .client
        .post(format!("{base}/api/v1/verify/{service}"))
        .header("x-api-key", key)
        .json(body)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    (
        status,
        headers,
        res.json().await.unwrap_or(serde_json::Value::Null),
    )
}

/// Another api process on the same database: its own pool, its own charging task.
pub async fn second_instance(app: &TestApp) -> (String, oneshot::Sender<()>) {
    instance_on(app, &app.db.url).await
}

/// An api process on the test's database reached at `database_url` (through a proxy, say).
pub async fn instance_on(app: &TestApp, database_url: &str) -> (String, oneshot::Sender<()>) {
    let pool = domain::infra::db::connect(database_url, 10).await.unwrap();
    let state = api::AppState::new(pool, app.config.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = oneshot::channel::<()>();
    tokio::spawn(async move {
        api::serve(listener, state, async {
            let _ = rx.await;
        })
        .await
        .unwrap();
    });
    (base, tx)
}

/// The ledger is exact: every balance equals the sum of its entries, none is negative, and
/// every gateway transaction has its debits (and, when refunded, its refunds) and no more.
pub async fn audit(app: &TestApp) {
    let drift: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM wallets w
          WHERE w.balance_paise <> COALESCE((SELECT sum(CASE WHEN e.type = 'credit' THEN e.amount_paise ELSE -e.amount_paise END)
                                               FROM wallet_entries e WHERE e.wallet_id = w.id), 0)
             OR w.balance_paise < 0",
    )
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(drift, 0, "a balance differs from the sum of its entries");
    let bad: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM api_transactions t
          WHERE (SELECT count(*) FROM wallet_entries e WHERE e.reference = 'TXN' || lpad(t.id::text, greatest(8, length(t.id::text)), '0') AND e.reason = 'api_call')
                <> (CASE WHEN t.user_amount_paise > 0 THEN 1 ELSE 0 END + CASE WHEN t.amount_paise > 0 THEN 1 ELSE 0 END)
             OR (SELECT count(*) FROM wallet_entries e WHERE e.reference = 'TXN' || lpad(t.id::text, greatest(8, length(t.id::text)), '0') AND e.reason = 'refund')
                <> (CASE WHEN t.status = 'refunded' THEN (CASE WHEN t.user_amount_paise > 0 THEN 1 ELSE 0 END + CASE WHEN t.amount_paise > 0 THEN 1 ELSE 0 END) ELSE 0 END)",
    )
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(bad, 0, "a transaction's entries do not match its status");
}

/// Waits until the api process has heard of every change committed so far (the gateway's
/// cache drops what changed when it hears of it: within milliseconds, at most a second).
/// Changes made through the API are heard before their answer; this is for tests that write
/// straight to the database.
pub async fn changed(app: &TestApp) {
    app.state.gateway.cache.sync(&app.db.pool).await;
}

/// A sandbox answer without its `request_id` (fresh on every call), to compare with the sample.
pub fn sample_of(mut body: serde_json::Value) -> serde_json::Value {
    if let Some(obj) = body.as_object_mut() {
        let id = obj.remove("request_id");
        assert!(
            id.as_ref()
                .and_then(|v| v.as_str())
                .is_some_and(|s| s.len() == 36),
            "a fresh request_id: {id:?}"
        );
    }
    body
}

/// The partner charges its sandbox calls (off, they are free).
pub async fn charge_sandbox(app: &TestApp, partner_id: i64) {
    sqlx::query("UPDATE partners SET charge_sandbox = true WHERE id = $1")
        .bind(partner_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    changed(app).await;
}
