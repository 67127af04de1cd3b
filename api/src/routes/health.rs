//! Liveness and readiness probes.

use axum::{Json, extract::State, http::StatusCode};
use serde_json::{Value, json};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(readyz))
}

/// 200 while the process runs.
#[utoipa::path(get, path = "/healthz", tag = "health", responses((status = 200, description = "alive")))]
pub async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok"}))
}

/// 200 when Postgres answers, else 503.
#[utoipa::path(get, path = "/readyz", tag = "health", responses((status = 200, description = "ready"), (status = 503, description = "a dependency is down")))]
pub async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    let db = tokio::time::timeout(
        std::time::Duration::from_secs(3),
        sqlx::query("SELECT 1").execute(&state.pool),
    )
    .await
    .map(|r| r.is_ok())
    .unwrap_or(false);
    let redis = match &state.config.redis_url {
        None => None,
        Some(url) => Some(redis_ping(url).await),
    };
    let ok = db && redis.unwrap_or(true);
    let status = if ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let mut body = json!({"status": if ok { "ok" } else { "unavailable" }, "postgres": db});
    if let Some(r) = redis {
        body["redis"] = r.into();
    }
    (status, Json(body))
}

/// A bare RESP PING over TCP: readiness needs no client library.
async fn redis_ping(url: &str) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = url
        .trim_start_matches("redis://")
        .rsplit('@')
        .next()
        .unwrap_or("")
        .split('/')
        .next()
        .unwrap_or("")
        .to_owned();
    let attempt = async {
        let mut s = tokio::net::TcpStream::connect(&addr).await.ok()?;
        s.write_all(b"PING\r\n").await.ok()?;
        let mut buf = [0u8; 64];
        let n = s.read(&mut buf).await.ok()?;
        Some(buf[..n].starts_with(b"+PONG") || buf[..n].starts_with(b"-NOAUTH"))
    };
    tokio::time::timeout(std::time::Duration::from_secs(2), attempt)
        .await
        .ok()
        .flatten()
        .unwrap_or(false)
}
