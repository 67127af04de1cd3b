//! The HTTP API: JSON under /api/v1, health probes, the OpenAPI document, and the built web
//! app for every other path.

pub mod auth;
pub mod batch;
pub mod client_ip;
pub mod credentials;
pub mod error;
pub mod extract;
pub mod filters;
pub mod gateway;
pub mod idempotency;
pub mod links;
pub mod metrics;
pub mod openapi;
pub mod ratelimit;
pub mod reply;
pub mod routes;
pub mod security_headers;
pub mod server;
pub mod session;
pub mod sites;
pub mod verification;

use std::sync::Arc;

use axum::{Router, http::Request};
use domain::{PgPool, infra::config::Config};
use tower_http::{
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    trace::TraceLayer,
};

/// What every handler shares, behind one `Arc`: axum clones the state for every middleware and
/// extractor of every request, and a struct of a dozen handles (counted references, the sealing
/// key's schedule, channel senders) cost the metered path a few percent of its CPU in clones and
/// drops (`perf`, README 'Benchmarks: the gateway').
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

pub struct Shared {
    pub pool: PgPool,
    pub config: Arc<Config>,
    /// Per-IP limits of sign-in, sign-up, forgot password and contact (`ratelimit`).
    pub limits: Arc<ratelimit::RateLimits>,
    /// Files: the local folder or S3, as `STORAGE` says.
    pub storage: domain::infra::storage::Storage,
    /// Sessions recently found live (`auth`), so hot paths do not read them per request.
    pub sessions: Arc<auth::SessionCache>,
    /// The metered gateway's charging task, upstream client, per-key limit and IP-hit counter.
    pub gateway: gateway::Gateway,
    /// This process's request and gateway counters (`GET /metrics`).
    pub metrics: Arc<metrics::Metrics>,
}

impl AppState {
    pub fn new(pool: PgPool, config: Arc<Config>) -> Self {
        let storage = domain::infra::storage::Storage::new(&config);
        let limits = Arc::new(ratelimit::RateLimits::from(&config.rate_limits));
        let gateway = gateway::Gateway::new(pool.clone(), &config);
        Self(Arc::new(Shared {
            pool,
            config,
            limits,
            storage,
            sessions: Default::default(),
            gateway,
            metrics: Default::default(),
        }))
    }
}

/// The whole application: API routes, probes, docs, and the web app as the fallback.
pub fn app(state: AppState) -> Router {
    let web = routes::web::service(&state.config.web_dist);
    let security =
        security_headers::SecurityHeaders::new(&state.config, &[openapi::inline_script()]);
    let metrics = state.metrics.clone();
    Router::from(routes::router())
        .merge(openapi::router())
        .fallback(web)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            gateway::sync_after_writes,
        ))
        .layer(axum::middleware::from_fn(error::framework_errors))
        .layer(axum::middleware::from_fn(move |req, next| metrics::track(metrics.clone(), req, next)))
        .layer(axum::middleware::map_response(move |res: axum::response::Response| {
            let security = security.clone();
            async move { security.apply(res) }
        }))
        .layer(
            TraceLayer::new_for_http().make_span_with(|req: &Request<_>| {
                let id = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("");
                // The path only: query strings may carry tokens.
                tracing::info_span!("http", method = %req.method(), path = %req.uri().path(), request_id = %id)
            }),
        )
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .with_state(state)
}

/// Serves until `shutdown` resolves, then drains in-flight requests; with the limits against
/// slow and greedy clients of `server`.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    server::serve(listener, state, shutdown).await
}

/// Resolves on SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
    tracing::info!("shutting down");
}
