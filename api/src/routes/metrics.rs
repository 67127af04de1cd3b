//! `GET /metrics`: Prometheus text format. By default this process's own metrics
//! (`crate::metrics`, and the process's CPU, memory and files); with `scope=platform` the
//! queue's counts per kind and state, read from Postgres: the same in every process, so they
//! are served apart and scraped once.

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
    extract::Query,
    metrics::{head, label},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(metrics))
}

/// Which metrics `GET /metrics` serves.
#[derive(Debug, Default, serde::Deserialize, utoipa::IntoParams)]
pub struct Scope {
    /// `process` (the default): this api process's own counters, histograms and process
    /// metrics, to scrape on every replica. `platform`: the database-wide gauges (the queue per
    /// kind and state, paused kinds, live workers), the same whichever process answers: scrape
    /// them once, through the balancer, so that nothing is summed twice.
    pub scope: Option<String>,
}

/// Prometheus text format: this process's requests (by route and status, with durations), the
/// gateway's calls (by outcome and service, upstream and overhead times), the process and build;
/// or, with `scope=platform`, the queue's database-wide gauges. Only on the platform's own host
/// (404 on a partner's site); with `METRICS_TOKEN` set it wants `Authorization: Bearer …`
/// (`scripts/run` generates one).
#[utoipa::path(get, path = "/metrics", tag = "operations", params(Scope),
    responses((status = 200, description = "Prometheus text format", content_type = "text/plain"), (status = 401, body = crate::error::ErrorBody)))]
pub async fn metrics(
    State(state): State<AppState>,
    Query(scope): Query<Scope>,
    headers: HeaderMap,
) -> ApiResult<Response> {
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
    match scope.scope.as_deref() {
        None | Some("process") => {
            state.metrics.render(&mut out);
            domain::infra::metrics::render_process(&mut out, "kyc", "api");
        }
        Some("platform") => platform(&state, &mut out).await?,
        Some(_) => return Err(ApiError::bad_request("scope is process or platform")),
    }
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
        )],
        out,
    )
        .into_response())
}

/// The database-wide gauges.
async fn platform(state: &AppState, out: &mut String) -> ApiResult<()> {
    let kinds = jobs::overview::kinds(&state.pool, jobs::registry::kinds()).await?;
    head(
        out,
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
        out,
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
        out,
        "kyc_workers",
        "gauge",
        "Worker processes heartbeating.",
    );
    out.push_str(&format!("kyc_workers {live}\n"));
    Ok(())
}
