//! `send_mail` end to end: enqueued by the api (contact form), delivered by the worker's
//! handlers (run in-process) to the outbox and to a real SMTP server on loopback; retries wait
//! with backoff.

use std::time::Duration;

use crate::common::TestApp;
use domain::infra::config::{MailConfig, SmtpConfig};
use serde_json::json;

fn contact() -> serde_json::Value {
    json!({"name": "Asha Rao", "email": "asha@example.in", "mobile": "9876543210", "message": "Need 10k PAN checks a month"})
}

#[tokio::test]
async fn contact_form_is_delivered_to_the_outbox() {
    let app = TestApp::spawn().await;
    let (s, body) = app.post("/api/v1/public/contact", &contact(), None).await;
    assert_eq!(s, 202, "{body}");
    let job_id = body["job_id"].as_str().unwrap().to_owned();
    let (_, state) = app
        .get(
            &format!("/api/v1/jobs/{job_id}"),
            Some(&app.superadmin_token()),
        )
        .await;
    assert_eq!(state["kind"], "send_mail");
    assert_eq!(state["status"], "queued");

    app.run_pending_jobs().await;
    let done = app
        .wait_for_job(&job_id, "done", Duration::from_secs(20))
        .await;
    assert_eq!(done["attempts"], 1, "{done}");
    assert!(done["finished_at"].is_string());

    let mails = testkit::outbox(&app.config);
    assert_eq!(mails.len(), 1);
    let m = &mails[0];
    assert!(m.contains("To: sales@provider.test"), "{m}");
    assert!(m.contains("Reply-To: asha@example.in"), "{m}");
    assert!(m.contains("Subject: Contact form: Asha Rao"), "{m}");
    assert!(m.contains("Need 10k PAN checks a month"), "{m}");
}

#[tokio::test]
async fn contact_form_rules() {
    let app = TestApp::spawn().await;
    let (s, b) = app
        .post(
            "/api/v1/public/contact",
            &json!({"name": "", "email": "x", "mobile": "12345678901"}),
            None,
        )
        .await;
    assert_eq!(s, 422);
    assert_eq!(b["error"]["code"], "validation_failed");
    assert_eq!(b["error"]["fields"]["name"], "Name is required");
    assert_eq!(b["error"]["fields"]["email"], "Please enter a valid email");
    assert_eq!(
        b["error"]["fields"]["mobile"],
        "Phone must be at most 10 characters"
    );
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM apalis.jobs")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(n, 0, "a refused form enqueues nothing");
}

#[tokio::test]
async fn contact_form_is_delivered_over_smtp() {
    let smtp = testkit::SmtpServer::start().await;
    let port = smtp.port;
    let app = TestApp::spawn_with(|c| {
        c.mail = MailConfig::Smtp(SmtpConfig {
            host: "127.0.0.1".into(),
            port,
            user: None,
            password: None,
            tls: "none".into(),
            tls_name: None,
        })
    })
    .await;
    let (s, body) = app.post("/api/v1/public/contact", &contact(), None).await;
    assert_eq!(s, 202);
    app.run_pending_jobs().await;
    app.wait_for_job(
        body["job_id"].as_str().unwrap(),
        "done",
        Duration::from_secs(20),
    )
    .await;
    let got = smtp.received();
    assert_eq!(got.len(), 1);
    assert!(got[0].contains("Subject: Contact form: Asha Rao"));
    assert!(got[0].contains("Need 10k PAN checks a month"));
}

#[tokio::test]
async fn a_failed_delivery_is_retried_after_a_backoff() {
    // Nothing listens on this port: the first attempts fail until a server appears.
    let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = probe.local_addr().unwrap().port();
    drop(probe);
    let app = TestApp::spawn_with(|c| {
        c.mail = MailConfig::Smtp(SmtpConfig {
            host: "127.0.0.1".into(),
            port,
            user: None,
            password: None,
            tls: "none".into(),
            tls_name: None,
        });
        c.job_retry_base = Duration::from_secs(2);
    })
    .await;
    let (_, body) = app.post("/api/v1/public/contact", &contact(), None).await;
    let job_id = body["job_id"].as_str().unwrap().to_owned();
    app.run_pending_jobs().await;
    let failed = app
        .wait_for_job(&job_id, "retrying", Duration::from_secs(20))
        .await;
    assert_eq!(failed["attempts"], 1);
    assert!(
        failed["last_error"].as_str().unwrap_or("").len() > 3,
        "{failed}"
    );
    // The retry is scheduled in the future, not fetched again at once.
    let wait: f64 = sqlx::query_scalar(
        "SELECT extract(epoch FROM run_at - now())::float8 FROM apalis.jobs WHERE id = $1",
    )
    .bind(&job_id)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert!(wait > 0.5, "retry not pushed out: {wait}s");
    tokio::time::sleep(Duration::from_millis(500)).await;
    app.run_pending_jobs().await;
    let (_, still) = app
        .get(
            &format!("/api/v1/jobs/{job_id}"),
            Some(&app.superadmin_token()),
        )
        .await;
    assert_eq!(still["attempts"], 1, "retried before its backoff: {still}");
}
