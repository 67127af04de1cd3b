//! The metrics after known work: the gateway's calls by outcome and service with their
//! histograms, the jobs' counters, run-time histograms and attempt history, and the
//! database-wide gauges served apart from each process's own.

use domain::infra::queue::{self, Task};
use serde::Serialize;
use serde_json::json;

use crate::{
    common::TestApp,
    gateway_support::{self as gs, FAIL_500, OK, Upstream},
};

/// The value of the sample line `series` (name and labels, exactly), 0 when absent.
fn sample(body: &str, series: &str) -> f64 {
    body.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .map_or(0.0, |v| v.parse().unwrap())
}

async fn scrape(app: &TestApp, query: &str) -> String {
    let res = app
        .client
        .get(app.url(&format!("/metrics{query}")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    res.text().await.unwrap()
}

#[tokio::test]
async fn gateway_calls_are_counted_by_outcome_service_and_timed() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 300, 1_000, 1_000).await;
    let body = json!({"id_number": "X1"});
    for mode in [OK, OK, FAIL_500] {
        up.set(mode);
        gs::verify(&app, &app.base, &s.key, "pan_check", &body).await;
    }
    // Refused before any charge: a bad key, and an unknown service.
    let (st, _, _) = gs::verify(&app, &app.base, "kyc_live_nope", "pan_check", &body).await;
    assert_eq!(st, 401);
    let (st, _, _) = gs::verify(&app, &app.base, &s.key, "no_such_api", &body).await;
    assert_eq!(st, 404);

    let m = scrape(&app, "").await;
    let calls = |labels: &str| sample(&m, &format!("kyc_gateway_calls_total{{{labels}}}"));
    assert_eq!(calls("outcome=\"charged\",reason=\"\""), 2.0, "{m}");
    assert_eq!(
        calls("outcome=\"refunded\",reason=\"upstream_error\""),
        1.0,
        "{m}"
    );
    assert_eq!(
        calls("outcome=\"refused\",reason=\"unauthorized\""),
        1.0,
        "{m}"
    );
    assert_eq!(
        calls("outcome=\"refused\",reason=\"not_found\""),
        1.0,
        "{m}"
    );
    let svc = |outcome: &str| {
        sample(
            &m,
            &format!(
                "kyc_gateway_service_calls_total{{service=\"pan_check\",outcome=\"{outcome}\"}}"
            ),
        )
    };
    assert_eq!((svc("charged"), svc("refunded")), (2.0, 1.0), "{m}");
    // Three calls reached the upstream and the charge: three upstream times, three overheads.
    let family = m
        .lines()
        .find_map(|l| {
            l.strip_prefix("kyc_upstream_request_seconds_count{family=\"")?
                .split_once('"')
                .map(|(f, _)| f.to_owned())
        })
        .expect("an upstream histogram");
    assert_eq!(
        sample(
            &m,
            &format!("kyc_upstream_request_seconds_count{{family=\"{family}\"}}")
        ),
        3.0
    );
    assert_eq!(
        sample(
            &m,
            &format!("kyc_upstream_request_seconds_bucket{{family=\"{family}\",le=\"+Inf\"}}")
        ),
        3.0
    );
    assert_eq!(sample(&m, "kyc_gateway_overhead_seconds_count"), 3.0);
    assert!(sample(&m, "kyc_gateway_overhead_seconds_sum") > 0.0);
    // Each of the three waited for its charge and for its settlement (the refund included).
    for step in ["charge", "settle"] {
        let wait = |what: &str| sample(&m, &format!("kyc_gateway_money_wait_seconds_{what}"));
        assert_eq!(wait(&format!("count{{step=\"{step}\"}}")), 3.0, "{m}");
        assert_eq!(
            wait(&format!("bucket{{step=\"{step}\",le=\"+Inf\"}}")),
            3.0,
            "{m}"
        );
        assert!(wait(&format!("sum{{step=\"{step}\"}}")) > 0.0, "{m}");
    }
    // The charging groups: three charges and a refund went through the charging task, two
    // successful settlements through the settling one (per process: other tests' calls in the
    // same process count too, hence at least).
    let group = |what: &str, task: &str| sample(&m, &format!("{what}{{task=\"{task}\"}}"));
    assert!(
        group("kyc_gateway_charge_group_calls_total", "charge") >= 4.0,
        "{m}"
    );
    assert!(
        group("kyc_gateway_charge_group_calls_total", "settle") >= 2.0,
        "{m}"
    );
    assert!(
        group("kyc_gateway_charge_group_seconds_count", "charge") >= 1.0,
        "{m}"
    );
    assert!(
        group("kyc_gateway_charge_group_seconds_sum", "settle") > 0.0,
        "{m}"
    );
    assert!(
        group("kyc_gateway_charge_group_calls_total", "charge")
            >= group("kyc_gateway_charge_group_seconds_count", "charge"),
        "{m}"
    );
    // Every request is timed by its route template.
    assert_eq!(
        sample(
            &m,
            "kyc_http_request_duration_seconds_count{method=\"POST\",route=\"/api/v1/verify/{service}\"}"
        ),
        5.0,
        "{m}"
    );
    assert!(sample(&m, "process_open_fds") > 0.0, "{m}");
    assert!(sample(&m, "process_resident_memory_bytes") > 0.0, "{m}");
    assert!(m.contains("kyc_build_info{version=\""), "{m}");
}

/// A payload the `send_mail` handler cannot decode: a job that fails by itself.
#[derive(Serialize)]
struct Garbled {
    nonsense: bool,
}

impl Task for Garbled {
    const KIND: &'static str = "send_mail";
    const MAX_ATTEMPTS: usize = 2;
}

#[tokio::test]
async fn jobs_are_counted_timed_and_their_attempts_kept() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    let before = jobs::metrics::render();
    let (_, b) = app
        .post(
            "/api/v1/public/contact",
            &json!({"name": "Asha", "email": "asha@example.in", "mobile": "98765"}),
            None,
        )
        .await;
    let mail = b["job_id"].as_str().unwrap().to_owned();
    let mut conn = app.db.pool.acquire().await.unwrap();
    let bad = queue::push(&mut conn, &Garbled { nonsense: true }, None)
        .await
        .unwrap()
        .unwrap();
    drop(conn);
    assert_eq!(app.run_pending_jobs().await, 3);

    let after = jobs::metrics::render();
    let delta = |series: &str| sample(&after, series) - sample(&before, series);
    let finished = |outcome: &str| {
        delta(&format!(
            "kyc_jobs_finished_total{{kind=\"send_mail\",outcome=\"{outcome}\"}}"
        ))
    };
    // The mail ran its handler once; the garbled job never reached one (it cannot be decoded).
    assert_eq!(
        (finished("done"), finished("failed"), finished("lost")),
        (1.0, 0.0, 0.0),
        "{after}"
    );
    assert_eq!(delta("kyc_job_run_seconds_count{kind=\"send_mail\"}"), 1.0);
    assert_eq!(
        delta("kyc_job_run_seconds_bucket{kind=\"send_mail\",le=\"+Inf\"}"),
        1.0
    );
    // Known kinds are there before they ever ran, so rates are defined from the start.
    assert!(
        after.contains("kyc_jobs_finished_total{kind=\"prune_exports\",outcome=\"failed\"}"),
        "{after}"
    );
    assert!(after.contains("kyc_build_info{version=\""), "{after}");

    let attempts: Vec<(String, i32, String, Option<String>)> = sqlx::query_as(
        "SELECT job_id, attempt, outcome, error FROM job_attempts ORDER BY job_id = $1 DESC, attempt",
    )
    .bind(&mail)
    .fetch_all(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(attempts.len(), 3, "{attempts:?}");
    assert_eq!(
        (
            attempts[0].0.as_str(),
            attempts[0].1,
            attempts[0].2.as_str(),
            &attempts[0].3
        ),
        (mail.as_str(), 1, "done", &None)
    );
    let bad_attempts: Vec<(i32, &str)> =
        attempts[1..].iter().map(|a| (a.1, a.2.as_str())).collect();
    assert_eq!(bad_attempts, [(1, "retrying"), (2, "failed")]);
    assert!(attempts[2].3.as_deref().unwrap().contains("decoding"));

    // Retried once out of attempts, it fails again: three attempts of three, never "3 of 2".
    let (s, _) = app
        .post(
            &format!("/api/v1/superadmin/jobs/{bad}/retry"),
            &json!({}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 202);
    assert_eq!(app.run_pending_jobs().await, 1);
    let (_, j) = app.get(&format!("/api/v1/jobs/{bad}"), Some(&admin)).await;
    assert_eq!(
        (
            j["status"].as_str(),
            j["attempts"].as_i64(),
            j["max_attempts"].as_i64()
        ),
        (Some("failed"), Some(3), Some(3)),
        "{j}"
    );
    let third: (i32, String) = sqlx::query_as(
        "SELECT attempt, outcome FROM job_attempts WHERE job_id = $1 ORDER BY id DESC LIMIT 1",
    )
    .bind(&bad)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(third, (3, "failed".to_owned()));
}

#[tokio::test]
async fn database_wide_gauges_are_served_apart() {
    let app = TestApp::spawn().await;
    app.post(
        "/api/v1/public/contact",
        &json!({"name": "Asha", "email": "asha@example.in", "mobile": "98765"}),
        None,
    )
    .await;
    let own = scrape(&app, "").await;
    assert!(!own.contains("kyc_jobs{"), "{own}");
    assert!(!own.contains("kyc_workers"), "{own}");
    let platform = scrape(&app, "?scope=platform").await;
    assert_eq!(
        sample(&platform, "kyc_jobs{kind=\"send_mail\",state=\"queued\"}"),
        1.0,
        "{platform}"
    );
    assert!(platform.contains("kyc_workers "), "{platform}");
    assert!(!platform.contains("kyc_http_requests_total"), "{platform}");
    let res = app
        .client
        .get(app.url("/metrics?scope=everything"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
}

#[tokio::test]
async fn a_worker_serves_its_own_metrics() {
    let app = TestApp::spawn().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let served = tokio::spawn(jobs::metrics::serve(listener, Some("tok".into())));
    let url = format!("http://{addr}/metrics");
    let res = app.client.get(&url).send().await.unwrap();
    assert_eq!(res.status(), 401);
    let res = app
        .client
        .get(&url)
        .bearer_auth("tok")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let body = res.text().await.unwrap();
    assert!(
        body.contains("# TYPE kyc_jobs_finished_total counter")
            && body.contains("# TYPE kyc_job_run_seconds histogram")
            && body.contains("kyc_build_info{version=\"")
            && body.contains("process=\"worker\""),
        "{body}"
    );
    let res = app
        .client
        .get(format!("http://{addr}/other"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    served.abort();
}

/// The metric names a file queries: every `kyc_…` and `process_…` identifier.
fn queried(text: &str) -> Vec<String> {
    let mut names = vec![];
    for prefix in ["kyc_", "process_"] {
        for (i, _) in text.match_indices(prefix) {
            if i > 0 && text[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let name: String = text[i..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            names.push(name);
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The Grafana dashboard and the alert rules (ops/) query only metrics the platform serves:
/// each api process's, the database-wide ones and a worker's. `promtool check rules` runs on
/// the rules in `scripts/test ops`.
#[tokio::test]
async fn the_dashboard_and_the_alerts_query_metrics_that_exist() {
    let app = TestApp::spawn().await;
    let served = format!(
        "{}{}{}",
        scrape(&app, "").await,
        scrape(&app, "?scope=platform").await,
        jobs::metrics::render()
    );
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dashboard = std::fs::read_to_string(root.join("ops/grafana/kyc-platform.json")).unwrap();
    let parsed: serde_json::Value = serde_json::from_str(&dashboard).expect("valid JSON");
    let exprs: Vec<String> = parsed["panels"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["targets"].as_array().cloned().unwrap_or_default())
        .filter_map(|t| t["expr"].as_str().map(str::to_owned))
        .collect();
    assert!(exprs.len() > 15, "{exprs:?}");
    let rules = std::fs::read_to_string(root.join("ops/prometheus/alerts.yml")).unwrap();
    let mut names = queried(&exprs.join("\n"));
    names.extend(queried(&rules));
    names.sort();
    names.dedup();
    assert!(names.len() > 10, "{names:?}");
    for name in names {
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|s| {
                name.strip_suffix(s)
                    .filter(|base| served.contains(&format!("# TYPE {base} histogram")))
            })
            .unwrap_or(&name);
        assert!(
            served.contains(&format!("# TYPE {family} ")),
            "{name} is queried but not served"
        );
    }
}
