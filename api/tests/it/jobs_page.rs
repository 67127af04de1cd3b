//! The Jobs page's API: lists per state and kind, a job's detail with every attempt, bulk
//! Retry and Discard with a confirmed count, reviving a discarded job, the periodic jobs and
//! the throughput per minute.

use domain::infra::queue::{self, Task};
use serde::Serialize;
use serde_json::{Value, json};

use crate::common::TestApp;

/// A payload the `send_mail` handler cannot decode: a job that fails by itself.
#[derive(Serialize)]
struct Garbled {
    nonsense: bool,
}

impl Task for Garbled {
    const KIND: &'static str = "send_mail";
    const MAX_ATTEMPTS: usize = 2;
}

async fn list(app: &TestApp, admin: &str, query: &str) -> Value {
    let (s, b) = app
        .get(
            &format!("/api/v1/superadmin/jobs/list?{query}"),
            Some(admin),
        )
        .await;
    assert_eq!(s, 200, "{query}: {b}");
    b
}

async fn state_of(app: &TestApp, admin: &str, id: &str) -> String {
    let (_, j) = app.get(&format!("/api/v1/jobs/{id}"), Some(admin)).await;
    j["status"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn jobs_are_browsed_detailed_retried_discarded_and_revived() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    let contact = json!({"name": "Asha", "email": "asha@example.in", "mobile": "98765"});
    let (_, b) = app.post("/api/v1/public/contact", &contact, None).await;
    let mail = b["job_id"].as_str().unwrap().to_owned();
    let mut conn = app.db.pool.acquire().await.unwrap();
    let bad = queue::push(&mut conn, &Garbled { nonsense: true }, None)
        .await
        .unwrap()
        .unwrap();
    drop(conn);
    assert_eq!(app.run_pending_jobs().await, 3);
    // Two more mails: one due, one scheduled for later.
    let (_, b) = app.post("/api/v1/public/contact", &contact, None).await;
    let later = b["job_id"].as_str().unwrap().to_owned();
    sqlx::query("UPDATE apalis.jobs SET run_at = now() + interval '1 hour' WHERE id = $1")
        .bind(&later)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (_, b) = app.post("/api/v1/public/contact", &contact, None).await;
    let due = b["job_id"].as_str().unwrap().to_owned();

    for (query, id) in [
        ("state=failed&kind=send_mail", &bad),
        ("state=done", &mail),
        ("state=scheduled", &later),
        ("state=queued&kind=send_mail", &due),
    ] {
        let page = list(&app, &admin, query).await;
        assert_eq!(page["total"], 1, "{query}: {page}");
        assert_eq!(page["items"][0]["id"], id.as_str(), "{query}: {page}");
    }
    assert_eq!(
        list(&app, &admin, "state=failed&kind=prune_jobs").await["total"],
        0
    );
    let f = &list(&app, &admin, "state=failed").await["items"][0];
    assert_eq!(
        (
            f["attempts"].as_i64(),
            f["max_attempts"].as_i64(),
            f["state"].as_str()
        ),
        (Some(2), Some(2), Some("failed")),
        "{f}"
    );
    let (s, e) = app
        .get("/api/v1/superadmin/jobs/list?state=lost", Some(&admin))
        .await;
    assert_eq!(s, 400, "{e}");

    // The detail: arguments, every attempt, and when a waiting job runs next.
    let (s, d) = app
        .get(&format!("/api/v1/superadmin/jobs/{bad}"), Some(&admin))
        .await;
    assert_eq!(s, 200, "{d}");
    assert_eq!(d["args"], json!({"nonsense": true}));
    assert_eq!(d["kind"], "send_mail");
    let history = d["history"].as_array().unwrap();
    let outcomes: Vec<(i64, &str)> = history
        .iter()
        .map(|a| {
            (
                a["attempt"].as_i64().unwrap(),
                a["outcome"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(outcomes, [(1, "retrying"), (2, "failed")], "{d}");
    assert!(history[1]["error"].as_str().unwrap().contains("decoding"));
    assert!(history[1]["duration_ms"].as_f64().unwrap() >= 0.0);
    assert!(d["next_run_at"].is_null(), "{d}");
    let (_, d) = app
        .get(&format!("/api/v1/superadmin/jobs/{later}"), Some(&admin))
        .await;
    assert_eq!(d["state"], "scheduled");
    assert!(d["next_run_at"].is_string(), "{d}");
    let (s, _) = app
        .get(
            "/api/v1/superadmin/jobs/01ARZ3NDEKTSV4RRFFQ69G5FAV",
            Some(&admin),
        )
        .await;
    assert_eq!(s, 404);

    // Bulk Discard of the failed ones: refused while the confirmed count is stale.
    let bulk = |body: Value| {
        let app = &app;
        let admin = admin.clone();
        async move {
            app.post("/api/v1/superadmin/jobs/bulk", &body, Some(&admin))
                .await
        }
    };
    let (s, e) = bulk(json!({"action": "discard", "state": "failed", "expected": 5})).await;
    assert_eq!(s, 409, "{e}");
    assert_eq!(state_of(&app, &admin, &bad).await, "failed");
    let (s, b) = bulk(json!({"action": "discard", "state": "failed", "expected": 1})).await;
    assert_eq!((s, b["count"].as_i64()), (200, Some(1)), "{b}");
    assert_eq!(state_of(&app, &admin, &bad).await, "discarded");
    let (s, _) = bulk(json!({"action": "retry", "state": "queued"})).await;
    assert_eq!(
        s, 400,
        "retry applies to failed, retrying and discarded jobs"
    );
    let (s, _) = bulk(json!({"action": "discard", "state": "done"})).await;
    assert_eq!(s, 400, "done jobs are not discarded");

    // Revive: back to the queue with one more attempt, which fails again: 3 of 3.
    let (s, _) = app
        .post(
            &format!("/api/v1/superadmin/jobs/{mail}/revive"),
            &json!({}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 409, "only a discarded job is revived");
    let (s, _) = app
        .post(
            &format!("/api/v1/superadmin/jobs/{bad}/revive"),
            &json!({}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 202);
    assert_eq!(state_of(&app, &admin, &bad).await, "queued");
    // The due mail and the revived job.
    assert_eq!(app.run_pending_jobs().await, 2);
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

    // Bulk Retry of the failed send_mail jobs.
    let (s, b) =
        bulk(json!({"action": "retry", "state": "failed", "kind": "send_mail", "expected": 1}))
            .await;
    assert_eq!((s, b["count"].as_i64()), (200, Some(1)), "{b}");
    assert_eq!(state_of(&app, &admin, &bad).await, "queued");
    let audited: Vec<String> = sqlx::query_scalar(
        "SELECT action FROM audit_log WHERE entity = 'job' AND actor_kind = 'superadmin' ORDER BY id",
    )
    .fetch_all(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(
        audited,
        ["job.bulk_discard", "job.revive", "job.bulk_retry"]
    );
    let after: Value =
        sqlx::query_scalar("SELECT after FROM audit_log WHERE action = 'job.bulk_retry'")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert_eq!(
        after,
        json!({"state": "failed", "kind": "send_mail", "count": 1})
    );

    // Throughput: this minute's done and failed attempts of send_mail.
    let (s, t) = app
        .get("/api/v1/superadmin/jobs/throughput", Some(&admin))
        .await;
    assert_eq!(s, 200, "{t}");
    let (done, failed) = t["minutes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["kind"] == "send_mail")
        .fold((0, 0), |(d, f), m| {
            (
                d + m["done"].as_i64().unwrap(),
                f + m["failed"].as_i64().unwrap(),
            )
        });
    assert_eq!((done, failed), (2, 3), "{t}");

    // The periodic jobs with their schedule and next run.
    let (_, ops) = app.get("/api/v1/superadmin/jobs", Some(&admin)).await;
    let periodic = ops["periodic"].as_array().unwrap();
    let kinds: Vec<&str> = periodic
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "aggregate_ip_hits",
            "settle_pending",
            "prune_jobs",
            "prune_exports",
            "prune_results",
            "analyze_tables",
        ]
    );
    for p in periodic {
        assert!(
            p["schedule"].is_string() && p["next_run_at"].is_string(),
            "{p}"
        );
    }
    assert!(ops["running"].as_array().unwrap().is_empty(), "{ops}");
}

#[tokio::test]
async fn a_kind_is_paused_and_resumed_from_the_api() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    let (s, _) = app
        .post(
            "/api/v1/superadmin/jobs/kinds/send_mail/pause",
            &json!({}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 204);
    let (_, ops) = app.get("/api/v1/superadmin/jobs", Some(&admin)).await;
    assert_eq!(ops["paused"][0]["kind"], "send_mail", "{ops}");

    // A mail queued while paused waits; resumed, it runs.
    let contact = json!({"name": "Asha", "email": "asha@example.in", "mobile": "98765"});
    let (_, b) = app.post("/api/v1/public/contact", &contact, None).await;
    let mail = b["job_id"].as_str().unwrap().to_owned();
    assert_eq!(app.run_pending_jobs().await, 0);
    assert_eq!(state_of(&app, &admin, &mail).await, "queued");
    let (s, _) = app
        .post(
            "/api/v1/superadmin/jobs/kinds/send_mail/resume",
            &json!({}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 204);
    let (_, ops) = app.get("/api/v1/superadmin/jobs", Some(&admin)).await;
    assert_eq!(ops["paused"], json!([]));
    assert_eq!(app.run_pending_jobs().await, 1);
    assert_eq!(state_of(&app, &admin, &mail).await, "done");

    // Audited, once each; an unknown kind is 404; a partner is refused.
    let audited: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM audit_log WHERE action IN ('job_kind.pause', 'job_kind.resume')",
    )
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(audited, 2);
    let (s, b) = app
        .post(
            "/api/v1/superadmin/jobs/kinds/no_such_kind/pause",
            &json!({}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 404, "{b}");
    let partner = crate::fixtures::partner(&app, "paused").await.token;
    let (s, _) = app
        .post(
            "/api/v1/superadmin/jobs/kinds/send_mail/pause",
            &json!({}),
            Some(&partner),
        )
        .await;
    assert_eq!(s, 403);
}
