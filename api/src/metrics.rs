//! This process's counters for `GET /metrics`: requests by route and status, and the
//! gateway's charges and refunds. Each api process counts its own (Prometheus adds them up
//! across processes); the queue's figures are read from Postgres at scrape time, so they are
//! the platform's whatever process answers.

use std::{
    collections::HashMap,
    fmt::Write,
    sync::{
        Mutex,
        atomic::{AtomicU64, Ordering},
    },
};

use axum::{
    extract::{MatchedPath, Request},
    middleware::Next,
    response::Response,
};

#[derive(Default)]
pub struct Metrics {
    /// (method, route template, status) → count. The route is the matched template
    /// (`/api/v1/superadmin/clients/{id}`), never the raw path, so the label set stays small.
    requests: Mutex<HashMap<(String, String, u16), u64>>,
    charges: AtomicU64,
    charged_paise: AtomicU64,
    refunds: AtomicU64,
    sandbox_calls: AtomicU64,
}

/// The gateway's route, whose answers say what was charged.
const VERIFY_ROUTE: &str = "/api/v1/verify/{service}";

impl Metrics {
    fn record(&self, method: &str, route: &str, res: &Response) {
        let status = res.status().as_u16();
        {
            let mut map = self.requests.lock().unwrap_or_else(|e| e.into_inner());
            *map.entry((method.to_owned(), route.to_owned(), status))
                .or_default() += 1;
        }
        if route != VERIFY_ROUTE || !res.headers().contains_key("x-transaction-id") {
            return;
        }
        // A call that reached the charging step carries its transaction: charged when the
        // charge was kept, refunded when the upstream failed. A sandbox call is charged too.
        if res
            .extensions()
            .get::<crate::verification::SandboxCall>()
            .is_some()
        {
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
        }
    }

    /// The counters in Prometheus text format.
    pub fn render(&self, out: &mut String) {
        let mut rows: Vec<((String, String, u16), u64)> = self
            .requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        rows.sort();
        head(
            out,
            "kyc_http_requests_total",
            "counter",
            "HTTP requests answered by this process, by method, route template and status.",
        );
        for ((method, route, status), n) in rows {
            let _ = writeln!(
                out,
                "kyc_http_requests_total{{method=\"{}\",route=\"{}\",status=\"{status}\"}} {n}",
                label(&method),
                label(&route)
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
    }
}

pub fn head(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

/// A label value with `\`, `"` and line breaks escaped, as the text format wants.
pub fn label(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// Middleware counting every answer. Paths that matched no route (the web app, 404s) count as
/// one route, `other`, so scanners cannot grow the label set.
pub async fn track(metrics: std::sync::Arc<Metrics>, req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_owned())
        .unwrap_or_else(|| "other".to_owned());
    let method = match req.method().as_str() {
        m @ ("GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS") => m.to_owned(),
        _ => "other".to_owned(),
    };
    let res = next.run(req).await;
    metrics.record(&method, &route, &res);
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_escaped() {
        assert_eq!(label("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }
}
