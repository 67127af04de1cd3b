//! This process's metrics for `GET /metrics`: requests by route and status with their
//! durations, the gateway's calls by outcome and service with the upstream's time and the
//! gateway's own, and the process itself. Each api process counts its own (Prometheus adds
//! them up across processes); the database-wide gauges are `routes::metrics`'s `platform`
//! scope, scraped once.
//!
//! Everything a request touches is atomics in fixed tables (`domain::infra::metrics`): no lock
//! and no allocation per request, the gateway's hot path included.

use std::{
    fmt::Write,
    sync::atomic::{AtomicU64, Ordering},
    time::{Duration, Instant},
};

use axum::{
    extract::{MatchedPath, Request},
    middleware::Next,
    response::Response,
};
use domain::infra::metrics::{Histogram, Slots};
pub use domain::infra::metrics::{head, label};

/// The statuses counted apart; any other is counted under `other`.
const STATUSES: [u16; 28] = [
    200, 201, 202, 204, 206, 301, 302, 303, 304, 307, 308, 400, 401, 402, 403, 404, 405, 406, 409,
    410, 413, 415, 422, 429, 500, 502, 503, 504,
];

const METHODS: [&str; 8] = [
    "other", "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS",
];

/// One route template and method.
struct RouteStats {
    statuses: [AtomicU64; STATUSES.len() + 1],
    duration: Histogram,
}

impl Default for RouteStats {
    fn default() -> Self {
        Self {
            statuses: std::array::from_fn(|_| AtomicU64::new(0)),
            duration: Histogram::default(),
        }
    }
}

/// One service's calls that reached the charging step.
#[derive(Default)]
struct ServiceStats {
    charged: AtomicU64,
    refunded: AtomicU64,
}

/// Why calls were refused before any money moved: the error codes of the contract.
#[derive(Default)]
struct Count(AtomicU64);

pub struct Metrics {
    /// By (method, route template). The route is the matched template
    /// (`/api/v1/superadmin/clients/{id}`), never the raw path, so the label set stays small.
    routes: Slots<RouteStats>,
    charges: AtomicU64,
    charged_paise: AtomicU64,
    refunds: AtomicU64,
    sandbox_calls: AtomicU64,
    /// Refunded calls by the upstream's failure (its error code).
    refunded_by: Slots<Count>,
    /// Refused calls by error code.
    refused_by: Slots<Count>,
    /// By the catalogue's service key; bounded by the table.
    services: Slots<ServiceStats>,
    /// Upstream call time by service family (the catalogue's category).
    upstream: Slots<Histogram>,
    /// The gateway's own time per call: from its checks to the settled answer, less the
    /// upstream's time.
    overhead: Histogram,
    /// How long a metered call waited for its money to be committed, by [`MoneyStep`]: the
    /// charging task's group in flight, then its own. With the upstream's time these are a
    /// call's three waits, so a slow tail can be placed in one of them from outside.
    money_wait: [Histogram; 2],
}

/// The two commits a metered call waits for (a sandbox call's one write is its charge).
#[derive(Clone, Copy)]
pub enum MoneyStep {
    Charge = 0,
    Settle = 1,
}

impl Default for Metrics {
    fn default() -> Self {
        Self {
            routes: Slots::new(512),
            charges: Default::default(),
            charged_paise: Default::default(),
            refunds: Default::default(),
            sandbox_calls: Default::default(),
            refunded_by: Slots::new(16),
            refused_by: Slots::new(64),
            services: Slots::new(256),
            upstream: Slots::new(64),
            overhead: Histogram::default(),
            money_wait: Default::default(),
        }
    }
}

/// A response extension naming the error code of an error answer (`ApiError`), so that
/// refusals are counted by reason.
#[derive(Debug, Clone, Copy)]
pub struct ErrorCode(pub &'static str);

/// A response extension on a sandbox call's answer (the catalogue's sample, no upstream), so
/// that sandbox calls are counted apart.
#[derive(Debug, Clone, Copy)]
pub struct SandboxCall;

/// The gateway's route, whose answers say what was charged.
const VERIFY_ROUTE: &str = "/api/v1/verify/{service}";

impl Metrics {
    fn record(&self, method: u8, route: &str, res: &Response, took: Duration) {
        let status = res.status().as_u16();
        let stats = self.routes.get(method, route);
        let i = STATUSES
            .iter()
            .position(|s| *s == status)
            .unwrap_or(STATUSES.len());
        stats.statuses[i].fetch_add(1, Ordering::Relaxed);
        stats.duration.observe(took);
        if route != VERIFY_ROUTE {
            return;
        }
        if !res.headers().contains_key("x-transaction-id") {
            // Refused before the charge: no money moved.
            if let Some(ErrorCode(code)) = res.extensions().get::<ErrorCode>() {
                self.refused_by
                    .get(0, code)
                    .0
                    .fetch_add(1, Ordering::Relaxed);
            }
            return;
        }
        // A call that reached the charging step carries its transaction: charged when the
        // charge was kept, refunded when the upstream failed. A sandbox call is charged too.
        if res.extensions().get::<SandboxCall>().is_some() {
            self.sandbox_calls.fetch_add(1, Ordering::Relaxed);
        }
        let charged: u64 = res
            .headers()
            .get("x-charged-paise")
            .and_then(|v| v.to_str().ok())
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        if charged > 0 {
            self.charges.fetch_add(1, Ordering::Relaxed);
            self.charged_paise.fetch_add(charged, Ordering::Relaxed);
        } else if !res.status().is_success() {
            self.refunds.fetch_add(1, Ordering::Relaxed);
            let code = res.extensions().get::<ErrorCode>().map_or("other", |c| c.0);
            self.refunded_by
                .get(0, code)
                .0
                .fetch_add(1, Ordering::Relaxed);
        }
    }

    /// A gateway call that was charged and then kept (`kept`) or refunded, for service
    /// `service` of family `family`; `upstream` is the upstream's time (`None` for a sandbox
    /// call, answered by the sample) and `total` the gateway's whole time for it.
    pub fn gateway_call(
        &self,
        service: &str,
        family: &str,
        kept: bool,
        upstream: Option<Duration>,
        total: Duration,
    ) {
        let s = self.services.get(0, service);
        if kept { &s.charged } else { &s.refunded }.fetch_add(1, Ordering::Relaxed);
        if let Some(u) = upstream {
            self.upstream.get(0, family).observe(u);
        }
        self.overhead
            .observe(total.saturating_sub(upstream.unwrap_or_default()));
    }

    /// Awaits `commit`, a metered call's charge or settlement, and records how long the call
    /// waited for it.
    pub async fn money_wait<T>(&self, step: MoneyStep, commit: impl Future<Output = T>) -> T {
        let waited = Instant::now();
        let done = commit.await;
        self.money_wait[step as usize].observe(waited.elapsed());
        done
    }

    /// The metrics in Prometheus text format.
    pub fn render(&self, out: &mut String) {
        let routes = self.routes.entries();
        head(
            out,
            "kyc_http_requests_total",
            "counter",
            "HTTP requests answered by this process, by method, route template and status.",
        );
        for (method, route, stats) in &routes {
            for (i, n) in stats.statuses.iter().enumerate() {
                let n = n.load(Ordering::Relaxed);
                if n == 0 {
                    continue;
                }
                let status = STATUSES.get(i).map_or("other".to_owned(), u16::to_string);
                let _ = writeln!(
                    out,
                    "kyc_http_requests_total{{method=\"{}\",route=\"{}\",status=\"{status}\"}} {n}",
                    METHODS[usize::from(*method)],
                    label(route)
                );
            }
        }
        head(
            out,
            "kyc_http_request_duration_seconds",
            "histogram",
            "Time to answer an HTTP request (to its headers) in this process, by method and route template.",
        );
        for (method, route, stats) in &routes {
            if stats.duration.count() == 0 {
                continue;
            }
            stats.duration.render(
                out,
                "kyc_http_request_duration_seconds",
                &format!(
                    "method=\"{}\",route=\"{}\"",
                    METHODS[usize::from(*method)],
                    label(route)
                ),
            );
        }
        let counters = [
            (
                "kyc_gateway_charges_total",
                "Gateway calls charged by this process.",
                &self.charges,
            ),
            (
                "kyc_gateway_charged_paise_total",
                "Paise charged to end users' wallets for those calls.",
                &self.charged_paise,
            ),
            (
                "kyc_gateway_refunds_total",
                "Gateway calls refunded by this process because the upstream failed (settle_pending's refunds are not counted here).",
                &self.refunds,
            ),
            (
                "kyc_gateway_sandbox_calls_total",
                "Sandbox (or Test api) gateway calls answered by this process with the sample.",
                &self.sandbox_calls,
            ),
        ];
        for (name, help, value) in counters {
            head(out, name, "counter", help);
            let _ = writeln!(out, "{name} {}", value.load(Ordering::Relaxed));
        }
        head(
            out,
            "kyc_gateway_calls_total",
            "counter",
            "Gateway calls (POST /verify/{service}) answered by this process by outcome: charged; refunded (the upstream failed; reason: its error code); refused before any charge (reason: the error code).",
        );
        let _ = writeln!(
            out,
            "kyc_gateway_calls_total{{outcome=\"charged\",reason=\"\"}} {}",
            self.charges.load(Ordering::Relaxed)
        );
        for (outcome, table) in [
            ("refunded", &self.refunded_by),
            ("refused", &self.refused_by),
        ] {
            for (_, reason, n) in table.entries() {
                let n = n.0.load(Ordering::Relaxed);
                if n > 0 {
                    let _ = writeln!(
                        out,
                        "kyc_gateway_calls_total{{outcome=\"{outcome}\",reason=\"{}\"}} {n}",
                        label(reason)
                    );
                }
            }
        }
        head(
            out,
            "kyc_gateway_service_calls_total",
            "counter",
            "Gateway calls that reached the charge (API key and portal Try-it), by the catalogue's service and outcome (charged or refunded).",
        );
        for (_, service, s) in self.services.entries() {
            for (outcome, n) in [("charged", &s.charged), ("refunded", &s.refunded)] {
                let n = n.load(Ordering::Relaxed);
                if n > 0 {
                    let _ = writeln!(
                        out,
                        "kyc_gateway_service_calls_total{{service=\"{}\",outcome=\"{outcome}\"}} {n}",
                        label(service)
                    );
                }
            }
        }
        head(
            out,
            "kyc_upstream_request_seconds",
            "histogram",
            "Time of the upstream's answer to a gateway call, by service family (the catalogue's category).",
        );
        for (_, family, h) in self.upstream.entries() {
            if h.count() > 0 {
                h.render(
                    out,
                    "kyc_upstream_request_seconds",
                    &format!("family=\"{}\"", label(family)),
                );
            }
        }
        head(
            out,
            "kyc_gateway_overhead_seconds",
            "histogram",
            "The gateway's own time per charged call: its checks, the charge and the settlement, less the upstream's time.",
        );
        self.overhead
            .render(out, "kyc_gateway_overhead_seconds", "");
        head(
            out,
            "kyc_gateway_money_wait_seconds",
            "histogram",
            "Time a metered call waited for the commit of its charge (step=\"charge\") or of its settlement (step=\"settle\"): the charging task's group in flight, then its own.",
        );
        for (step, h) in ["charge", "settle"].iter().zip(&self.money_wait) {
            h.render(
                out,
                "kyc_gateway_money_wait_seconds",
                &format!("step=\"{step}\""),
            );
        }
        let groups = &*domain::wallets::charge::GROUPS;
        head(
            out,
            "kyc_gateway_charge_group_seconds",
            "histogram",
            "Time of one group of the charging task, from its first statement to its commit (task=\"charge\": charges and refunds; task=\"settle\": successful settlements).",
        );
        for (task, g) in groups {
            g.seconds.render(
                out,
                "kyc_gateway_charge_group_seconds",
                &format!("task=\"{task}\""),
            );
        }
        head(
            out,
            "kyc_gateway_charge_group_calls_total",
            "counter",
            "Calls carried by the charging task's groups; over the groups' count, the mean group size.",
        );
        for (task, g) in groups {
            let _ = writeln!(
                out,
                "kyc_gateway_charge_group_calls_total{{task=\"{task}\"}} {}",
                g.calls.load(Ordering::Relaxed)
            );
        }
    }
}

/// Middleware counting and timing every answer. Paths that matched no route (the web app,
/// 404s) count as one route, `other`, so scanners cannot grow the label set.
pub async fn track(metrics: std::sync::Arc<Metrics>, req: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = req.extensions().get::<MatchedPath>().cloned();
    let method = METHODS
        .iter()
        .position(|m| *m == req.method().as_str())
        .unwrap_or(0) as u8;
    let res = next.run(req).await;
    metrics.record(
        method,
        route.as_ref().map_or("other", MatchedPath::as_str),
        &res,
        started.elapsed(),
    );
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_escaped() {
        assert_eq!(label("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }

    #[test]
    fn requests_are_counted_and_timed_by_route() {
        let m = Metrics::default();
        let ok = Response::new(axum::body::Body::empty());
        m.record(1, "/api/v1/x/{id}", &ok, Duration::from_millis(7));
        m.record(1, "/api/v1/x/{id}", &ok, Duration::from_millis(70));
        let mut teapot = Response::new(axum::body::Body::empty());
        *teapot.status_mut() = axum::http::StatusCode::IM_A_TEAPOT;
        m.record(2, "/api/v1/x/{id}", &teapot, Duration::from_millis(1));
        let mut out = String::new();
        m.render(&mut out);
        assert!(out.contains(
            "kyc_http_requests_total{method=\"GET\",route=\"/api/v1/x/{id}\",status=\"200\"} 2\n"
        ));
        assert!(out.contains(
            "kyc_http_requests_total{method=\"POST\",route=\"/api/v1/x/{id}\",status=\"other\"} 1\n"
        ));
        assert!(out.contains("kyc_http_request_duration_seconds_bucket{method=\"GET\",route=\"/api/v1/x/{id}\",le=\"0.01\"} 1\n"));
        assert!(out.contains("kyc_http_request_duration_seconds_bucket{method=\"GET\",route=\"/api/v1/x/{id}\",le=\"0.1\"} 2\n"));
        assert!(out.contains(
            "kyc_http_request_duration_seconds_count{method=\"GET\",route=\"/api/v1/x/{id}\"} 2\n"
        ));
    }
}
