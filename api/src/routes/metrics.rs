//! `GET /metrics`: Prometheus text format. This process's request and gateway counters
//! (`crate::metrics`), and the queue's counts per kind and state, read from Postgres.

use axum::{
    extract::State,
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
};
use sha2::{Digest, Sha256};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    error::{ApiError, ApiResult},
    metrics::{head, label},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(metrics))
}

/// Requests by route and status, gateway charges and refunds, jobs by kind and state, and the
/// queue's oldest waiting age. Only on the platform's own host (404 on a partner's site); with
/// `METRICS_TOKEN` set it wants `Authorization: Bearer …` (`scripts/run` generates one).
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "Prometheus text format", content_type = "text/plain"), (status = 401, body = crate::error::ErrorBody)))]
pub async fn metrics(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    // Partner sites share this api: their hosts are the public's, and the counters are ours.
    if !crate::sites::is_platform_host(&state, &headers) {
        return Err(ApiError::not_found());
    }
    if let Some(token) = &state.config.metrics_token {
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or("");
        // Compared as digests: equal length, no early exit on the secret's bytes.
        if Sha256::digest(given.as_bytes()) != Sha256::digest(token.as_bytes()) {
            return Err(ApiError::unauthorized("This needs the metrics token"));
        }
    }
    let mut out = String::new();
    state.metrics.render(&mut out);
    let kinds = jobs::overview::kinds(&state.pool, &jobs::runner::KINDS).await?;
    head(
        &mut out,
        "kyc_jobs",
        "gauge",
        "Jobs in the queue by kind and state (done: finished in the last hour).",
    );
    for k in &kinds {
        let kind = label(&k.kind);
        for (st, n) in [
            ("queued", k.queued),
            ("running", k.running),
            ("retrying", k.retrying),
            ("failed", k.failed),
            ("discarded", k.discarded),
            ("done", k.done_last_hour),
        ] {
            out.push_str(&format!("kyc_jobs{{kind=\"{kind}\",state=\"{st}\"}} {n}\n"));
        }
    }
    head(
        &mut out,
        "kyc_jobs_oldest_waiting_seconds",
        "gauge",
        "How long the oldest due job of each kind has waited for a worker.",
    );
    for k in &kinds {
        out.push_str(&format!(
            "kyc_jobs_oldest_waiting_seconds{{kind=\"{}\"}} {:.3}\n",
            label(&k.kind),
            k.oldest_queued_secs
        ));
    }
    let live = jobs::workers::running(&state.pool, state.config.worker_heartbeat).await?;
    head(
        &mut out,
        "kyc_workers",
        "gauge",
        "Worker processes heartbeating.",
    );
    out.push_str(&format!("kyc_workers {live}\n"));
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
        )],
        out,
    )
        .into_response())
}
