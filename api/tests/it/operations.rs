//! The operations view: the queue per kind, recent failures with Retry and Discard, worker
//! processes, the outbox, `/metrics`; and the super-admin guard over every admin path.

use std::time::Duration;

use domain::infra::queue::{self, Task};
use serde::Serialize;
use serde_json::{Value, json};

use crate::{common::TestApp, fixtures};

/// A payload the `send_mail` handler cannot decode: a job that fails by itself.
#[derive(Serialize)]
struct Garbled {
    nonsense: bool,
}

impl Task for Garbled {
    const KIND: &'static str = "send_mail";
    const MAX_ATTEMPTS: usize = 3;
}

fn kind<'a>(ops: &'a Value, name: &str) -> &'a Value {
    ops["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == name)
        .unwrap_or_else(|| panic!("no kind {name} in {ops}"))
}

#[tokio::test]
async fn failures_are_listed_retried_and_discarded() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    // A contact mail whose first delivery failed (as when SMTP is down), waiting for its
    // retry in an hour; and a job that cannot be decoded, which fails until out of attempts.
    let (s, b) = app
        .post(
            "/api/v1/public/contact",
            &json!({"name": "Asha", "email": "asha@example.in", "mobile": "98765"}),
            None,
        )
        .await;
    assert_eq!(s, 202, "{b}");
    let mail = b["job_id"].as_str().unwrap().to_owned();
    sqlx::query(r#"UPDATE apalis.jobs SET status = 'Failed', attempts = 1, done_at = now(), run_at = now() + interval '1 hour', last_result = '{"Err": "SMTP: connection refused"}' WHERE id = $1"#)
        .bind(&mail)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let mut conn = app.db.pool.acquire().await.unwrap();
    let bad = queue::push(&mut conn, &Garbled { nonsense: true }, None)
        .await
        .unwrap()
        .unwrap();
    drop(conn);
    assert_eq!(
        app.run_pending_jobs().await,
        3,
        "three attempts of the garbled job"
    );

    let (s, ops) = app.get("/api/v1/superadmin/jobs", Some(&admin)).await;
    assert_eq!(s, 200, "{ops}");
    let k = kind(&ops, "send_mail");
    assert_eq!(
        (
            k["failed"].as_i64(),
            k["retrying"].as_i64(),
            k["queued"].as_i64()
        ),
        (Some(1), Some(1), Some(0)),
        "{k}"
    );
    // Every kind the workers run is listed, with zeros when idle.
    assert_eq!(kind(&ops, "prune_jobs")["queued"], 0);
    let failures = ops["recent_failures"].as_array().unwrap();
    let f = failures.iter().find(|f| f["id"] == mail.as_str()).unwrap();
    assert_eq!(
        (
            f["status"].as_str(),
            f["last_error"].as_str(),
            f["attempts"].as_i64()
        ),
        (Some("retrying"), Some("SMTP: connection refused"), Some(1)),
        "{f}"
    );
    assert!(f["next_run_at"].is_string(), "{f}");
    let g = failures.iter().find(|f| f["id"] == bad.as_str()).unwrap();
    assert_eq!(
        (
            g["status"].as_str(),
            g["attempts"].as_i64(),
            g["max_attempts"].as_i64()
        ),
        (Some("failed"), Some(3), Some(3)),
        "{g}"
    );
    assert!(
        g["last_error"].as_str().unwrap().contains("decoding"),
        "{g}"
    );
    assert!(g["next_run_at"].is_null(), "{g}");

    // Retry: the mail runs now and succeeds.
    let before = testkit::outbox(&app.config).len();
    assert_eq!(
        app.post(
            &format!("/api/v1/superadmin/jobs/{mail}/retry"),
            &json!({}),
            Some(&admin)
        )
        .await
        .0,
        202
    );
    let (_, j) = app.get(&format!("/api/v1/jobs/{mail}"), Some(&admin)).await;
    assert_eq!(j["status"], "queued", "{j}");
    assert_eq!(app.run_pending_jobs().await, 1, "the retried mail, at once");
    let (_, j) = app.get(&format!("/api/v1/jobs/{mail}"), Some(&admin)).await;
    assert_eq!(j["status"], "done", "{j}");
    assert_eq!(testkit::outbox(&app.config).len(), before + 1);
    // A job that has not failed is neither retried nor discarded; an unknown one is 404.
    for action in ["retry", "discard"] {
        let (s, e) = app
            .post(
                &format!("/api/v1/superadmin/jobs/{mail}/{action}"),
                &json!({}),
                Some(&admin),
            )
            .await;
        assert_eq!(
            (s, e["error"]["code"].as_str()),
            (409, Some("conflict")),
            "{action}: {e}"
        );
        let (s, _) = app
            .post(
                &format!("/api/v1/superadmin/jobs/01ARZ3NDEKTSV4RRFFQ69G5FAV/{action}"),
                &json!({}),
                Some(&admin),
            )
            .await;
        assert_eq!(s, 404);
        let (s, _) = app
            .post(
                &format!("/api/v1/superadmin/jobs/{}/{action}", "x".repeat(65)),
                &json!({}),
                Some(&admin),
            )
            .await;
        assert_eq!(s, 404);
    }

    // Discard: the failed job stays stopped, leaves the failures, keeps its error.
    let res = app
        .client
        .post(app.url(&format!("/api/v1/superadmin/jobs/{bad}/discard")))
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    assert_eq!(
        app.run_pending_jobs().await,
        0,
        "a discarded job does not run again"
    );
    let (_, ops) = app.get("/api/v1/superadmin/jobs", Some(&admin)).await;
    let k = kind(&ops, "send_mail");
    assert_eq!(
        (
            k["failed"].as_i64(),
            k["retrying"].as_i64(),
            k["discarded"].as_i64(),
            k["done_last_hour"].as_i64()
        ),
        (Some(0), Some(0), Some(1), Some(1)),
        "{k}"
    );
    assert!(
        ops["recent_failures"].as_array().unwrap().is_empty(),
        "{ops}"
    );
    let (_, j) = app.get(&format!("/api/v1/jobs/{bad}"), Some(&admin)).await;
    assert_eq!(j["status"], "discarded", "{j}");
    assert!(j["finished_at"].is_string(), "{j}");
    let audited: i64 = sqlx::query_scalar("SELECT count(*) FROM audit_log WHERE entity = 'job' AND action IN ('job.retry', 'job.discard') AND actor_kind = 'superadmin'")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(audited, 2);
}

#[tokio::test]
async fn the_oldest_waiting_job_is_timed() {
    let app = TestApp::spawn().await;
    let (_, b) = app
        .post(
            "/api/v1/public/contact",
            &json!({"name": "Asha", "email": "asha@example.in", "mobile": "98765"}),
            None,
        )
        .await;
    let id = b["job_id"].as_str().unwrap();
    sqlx::query("UPDATE apalis.jobs SET run_at = now() - interval '90 seconds' WHERE id = $1")
        .bind(id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (_, ops) = app
        .get("/api/v1/superadmin/jobs", Some(&app.superadmin_token()))
        .await;
    let k = kind(&ops, "send_mail");
    assert_eq!(k["queued"], 1, "{k}");
    let age = k["oldest_queued_secs"].as_f64().unwrap();
    assert!((90.0..120.0).contains(&age), "{age}");
    assert_eq!(
        kind(&ops, "smtp_test")["oldest_queued_secs"].as_f64(),
        Some(0.0)
    );
}

#[tokio::test]
async fn worker_processes_are_shown_from_start_to_stop() {
    // Beats far enough apart that a loaded machine does not make a live worker look missing.
    let app = TestApp::spawn_with(|c| c.worker_heartbeat = Duration::from_secs(3)).await;
    let admin = app.superadmin_token();
    let mut stops = vec![];
    let mut tasks = vec![];
    for pid in [4101u32, 4102] {
        // Each worker its own pool, sized as a worker process's is: one queue worker per job
        // kind holds a connection, more than the test's own pool of 10 has to spare.
        let pool = domain::infra::db::connect(&app.db.url, 30).await.unwrap();
        let ctx = jobs::JobContext::new(pool, app.config.clone()).unwrap();
        let process = jobs::workers::Process {
            id: format!("box-{pid}"),
            host: "box".into(),
            pid,
            concurrency: 4,
        };
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        stops.push(tx);
        tasks.push(tokio::spawn(jobs::workers::run(
            ctx,
            jobs::registry::platform(),
            process,
            async {
                let _ = rx.await;
            },
        )));
    }
    // Generous: on a loaded 2-core box the two workers' first registration can take seconds.
    let shown = testkit::eventually(Duration::from_secs(30), || async {
        let (_, ops) = app.get("/api/v1/superadmin/jobs", Some(&admin)).await;
        let w = ops["workers"].as_array().cloned().unwrap_or_default();
        (w.len() == 2).then_some(w)
    })
    .await
    .expect("two workers listed");
    for w in &shown {
        assert_eq!(
            (
                w["status"].as_str(),
                w["host"].as_str(),
                w["concurrency"].as_i64()
            ),
            (Some("running"), Some("box"), Some(4)),
            "{w}"
        );
        assert!(
            w["started_at"].is_string() && w["last_seen_at"].is_string(),
            "{w}"
        );
    }
    let mut pids: Vec<i64> = shown.iter().map(|w| w["pid"].as_i64().unwrap()).collect();
    pids.sort();
    assert_eq!(pids, [4101, 4102]);
    // Heartbeats move last_seen_at on.
    let first: chrono::DateTime<chrono::Utc> =
        sqlx::query_scalar("SELECT last_seen_at FROM worker_processes WHERE id = 'box-4101'")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    let beat = testkit::eventually(Duration::from_secs(15), || async {
        let t: chrono::DateTime<chrono::Utc> =
            sqlx::query_scalar("SELECT last_seen_at FROM worker_processes WHERE id = 'box-4101'")
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        (t > first).then_some(())
    })
    .await;
    assert!(beat.is_some(), "no heartbeat");
    // Scaling down: a stopped worker shows as stopped, the other still runs.
    let _ = stops.remove(0).send(());
    tokio::time::timeout(Duration::from_secs(40), tasks.remove(0))
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let (_, ops) = app.get("/api/v1/superadmin/jobs", Some(&admin)).await;
    let statuses: Vec<(i64, String)> = ops["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["pid"].as_i64().unwrap(),
                w["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [(4102, "running".to_owned()), (4101, "stopped".to_owned())]
    );
    let body = app
        .client
        .get(app.url("/metrics?scope=platform"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(body.contains("\nkyc_workers 1\n"), "{body}");
    let _ = stops.remove(0).send(());
    let _ = tokio::time::timeout(Duration::from_secs(40), tasks.remove(0)).await;
}

#[tokio::test]
async fn the_outbox_is_listed_and_read() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    for name in ["Asha", "Ravi"] {
        let (s, _) = app.post("/api/v1/public/contact", &json!({"name": name, "email": "asha@example.in", "mobile": "98765", "message": format!("Hello from {name}")}), None).await;
        assert_eq!(s, 202);
        app.run_pending_jobs().await;
    }
    let (s, page) = app
        .get("/api/v1/superadmin/mail?per_page=1", Some(&admin))
        .await;
    assert_eq!(s, 200, "{page}");
    assert_eq!(
        (
            page["total"].as_i64(),
            page["pages"].as_i64(),
            page["items"].as_array().unwrap().len()
        ),
        (Some(2), Some(2), 1),
        "{page}"
    );
    let newest = &page["items"][0];
    assert_eq!(
        newest["to"].as_str(),
        Some(app.config.contact_email.as_str()),
        "{newest}"
    );
    assert!(
        newest["at"].is_string() && !newest["subject"].as_str().unwrap().is_empty(),
        "{newest}"
    );
    let id = newest["id"].as_str().unwrap();
    let (s, m) = app
        .get(&format!("/api/v1/superadmin/mail/{id}"), Some(&admin))
        .await;
    assert_eq!(s, 200, "{m}");
    assert!(
        m["text"].as_str().unwrap().contains("Hello from Ravi"),
        "newest first: {m}"
    );
    // Nothing outside the folder, and no hidden file, can be named.
    for bad in ["..%2F..%2Fetc%2Fpasswd", "%2Eenv.eml", "nope.eml", "x.txt"] {
        let (s, e) = app
            .get(&format!("/api/v1/superadmin/mail/{bad}"), Some(&admin))
            .await;
        assert_eq!(s, 404, "{bad}: {e}");
    }
}

#[tokio::test]
async fn without_an_outbox_the_mail_page_says_so() {
    let app = TestApp::spawn_with(|c| {
        c.mail = domain::infra::config::MailConfig::Smtp(domain::infra::config::SmtpConfig {
            host: "127.0.0.1".into(),
            port: 9,
            user: None,
            password: None,
            tls: "none".into(),
            tls_name: None,
        })
    })
    .await;
    let (s, e) = app
        .get("/api/v1/superadmin/mail", Some(&app.superadmin_token()))
        .await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (404, Some("not_found")),
        "{e}"
    );
    assert!(
        e["error"]["message"].as_str().unwrap().contains("SMTP"),
        "{e}"
    );
}

#[tokio::test]
async fn metrics_count_requests_jobs_and_gateway_calls() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    app.get("/api/v1/superadmin/clients/12345", Some(&admin))
        .await;
    app.get("/api/v1/superadmin/clients/67890", Some(&admin))
        .await;
    app.get("/no/such/page/here", None).await;
    let (_, b) = app
        .post(
            "/api/v1/public/contact",
            &json!({"name": "Asha", "email": "asha@example.in", "mobile": "98765"}),
            None,
        )
        .await;
    assert!(b["job_id"].is_string());
    let res = app.client.get(app.url("/metrics")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain; version=0.0.4")
    );
    let body = res.text().await.unwrap();
    // Counted by route template, so ids do not make new series.
    assert!(body.contains("kyc_http_requests_total{method=\"GET\",route=\"/api/v1/superadmin/clients/{id}\",status=\"404\"} 2"), "{body}");
    assert!(body.contains("route=\"other\""), "{body}");
    assert!(!body.contains("12345"), "{body}");
    // The queue's gauges are the database's, served apart (scraped once, not per process).
    let platform = app
        .client
        .get(app.url("/metrics?scope=platform"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        platform.contains("kyc_jobs{kind=\"send_mail\",state=\"queued\"} 1"),
        "{platform}"
    );
    assert!(
        platform.contains("kyc_jobs_oldest_waiting_seconds{kind=\"send_mail\"}"),
        "{platform}"
    );
    assert!(
        body.contains("kyc_gateway_charges_total 0")
            && body.contains("kyc_gateway_refunds_total 0"),
        "{body}"
    );
    // Every sample line is `name{labels} number`.
    for line in body
        .lines()
        .chain(platform.lines())
        .filter(|l| !l.starts_with('#'))
    {
        let value = line.rsplit(' ').next().unwrap();
        assert!(value.parse::<f64>().is_ok(), "{line}");
    }
}

#[tokio::test]
async fn metrics_want_the_token_when_one_is_set() {
    let app = TestApp::spawn_with(|c| c.metrics_token = Some("s3cret-metrics-token".into())).await;
    assert_eq!(
        app.client
            .get(app.url("/metrics"))
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
    assert_eq!(
        app.client
            .get(app.url("/metrics"))
            .bearer_auth("wrong")
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
    assert_eq!(
        app.client
            .get(app.url("/metrics"))
            .bearer_auth("s3cret-metrics-token")
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
}

/// Every path under `/api/v1/superadmin/` in the OpenAPI document, every method: a partner's
/// token is 403, no token 401. Read from the document, so a new admin route is covered as
/// soon as it exists.
#[tokio::test]
async fn a_partner_token_is_refused_on_every_super_admin_path() {
    let app = TestApp::spawn().await;
    let token = fixtures::partner(&app, "guarded").await.token;
    let (_, doc) = app.get("/api/openapi.json", None).await;
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        let Some(rest) = path.strip_prefix("/api/v1/superadmin/") else {
            continue;
        };
        if rest == "login" {
            continue;
        }
        let concrete = path
            .split('/')
            .map(|seg| if seg.starts_with('{') { "1" } else { seg })
            .collect::<Vec<_>>()
            .join("/");
        let concrete = concrete
            .replace("/1/wallets/1/", "/1/wallets/api/")
            .replace("/plans/1/", "/plans/standard/");
        for method in item
            .as_object()
            .unwrap()
            .keys()
            .filter(|m| ["get", "post", "put", "patch", "delete"].contains(&m.as_str()))
        {
            let m = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            for (auth, want) in [(Some(token.as_str()), 403), (None, 401)] {
                let mut req = app
                    .client
                    .request(m.clone(), app.url(&concrete))
                    .json(&json!({}));
                if let Some(t) = auth {
                    req = req.bearer_auth(t);
                }
                let res = req.send().await.unwrap();
                let status = res.status().as_u16();
                let body: Value = res.json().await.unwrap_or(Value::Null);
                assert_eq!(
                    status,
                    want,
                    "{method} {concrete} with {}: {body}",
                    if auth.is_some() {
                        "a partner token"
                    } else {
                        "no token"
                    }
                );
                assert!(
                    body["error"]["code"].is_string(),
                    "{method} {concrete}: {body}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 15, "only {checked} super-admin operations found");
}
