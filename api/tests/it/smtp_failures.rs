//! A partner's own SMTP server that fails is no longer silent (issue 23): the failure is
//! recorded on the partner (when, which mail, the error without the password) and shown by
//! `GET /partner/smtp`; an account mail (here a portal password reset) still reaches the user
//! through the platform's mailer under the partner's name, while a notice waits for retries;
//! saving settings, or a test mail that goes through, clears the warning.

use serde_json::{Value, json};

use crate::{
    auth_fixtures::{post_as, put},
    common::TestApp,
    portal,
};

const PASSWORD: &str = "sup3r-secret-pw";

fn settings(port: u16) -> Value {
    json!({"host": "127.0.0.1", "port": port, "user": "mailer", "password": PASSWORD,
           "from": "no-reply@acme.test", "company_name": "Acme KYC", "secure": false, "active": true})
}

/// A port nothing listens on: the server refuses the connection, as a dead host would.
fn closed_port() -> u16 {
    let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    probe.local_addr().unwrap().port()
}

async fn last_failure(app: &TestApp, token: &str) -> Value {
    let (s, v) = app.get("/api/v1/partner/smtp", Some(token)).await;
    assert_eq!(s, 200, "{v}");
    v["last_failure"].clone()
}

#[tokio::test]
async fn a_broken_partner_server_is_shown_and_account_mail_still_arrives() {
    let app = TestApp::spawn_with(|c| c.partner_smtp_allow_private = true).await;
    let site = portal::site(&app, "brokenmail").await;
    let other = portal::site(&app, "fineother").await;
    let p = &site.partner;
    sqlx::query(
        "INSERT INTO partner_signup_settings (partner_id, forgot_password) VALUES ($1, true)",
    )
    .bind(p.id)
    .execute(&app.db.pool)
    .await
    .unwrap();
    let port = closed_port();
    let (s, b) = put(
        &app,
        "/api/v1/partner/smtp",
        &settings(port),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["last_failure"], Value::Null, "{b}");

    // An account mail: the user asks for a reset link on the partner's site.
    let (s, b) = post_as(
        &app,
        &crate::auth_fixtures::fresh_ip(),
        "/api/v1/me/forgot-password?subdomain=brokenmail",
        &json!({"email": site.email}),
        None,
    )
    .await;
    assert_eq!(s, 202, "{b}");
    app.run_pending_jobs().await;

    // It arrived through the platform's mailer, under the partner's name, answerable to it.
    let raw: Vec<String> = testkit::outbox(&app.config)
        .into_iter()
        .filter(|m| m.contains(&site.email))
        .collect();
    assert_eq!(raw.len(), 1, "one reset mail to the user: {raw:?}");
    let mail = testkit::parse_mail(&raw[0]);
    assert!(
        mail.text.contains(&format!(
            "{}/reset-password/",
            app.config.partner_site_url("brokenmail")
        )),
        "{}",
        mail.text
    );
    let header = |name: &str| {
        raw[0]
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with(&format!("{name}:")))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(
        header("from").contains("Acme KYC") && header("from").contains("<no-reply@localhost>"),
        "the partner's name on the platform's address: {}",
        header("from")
    );
    assert!(
        header("reply-to").contains("no-reply@acme.test"),
        "{}",
        header("reply-to")
    );
    let transport: String =
        sqlx::query_scalar("SELECT transport FROM mail_deliveries WHERE recipient = $1")
            .bind(&site.email)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert_eq!(transport, jobs::send_mail::FALLBACK_TRANSPORT);

    // The failure is the partner's to see: when, which mail, the error, and that it went anyway.
    let f = last_failure(&app, &p.token).await;
    assert_eq!(
        (f["mail"].as_str(), f["fallback"].as_bool()),
        (Some("user_password_reset"), Some(true)),
        "{f}"
    );
    let error = f["error"].as_str().unwrap_or_default();
    assert!(!error.is_empty() && !error.contains(PASSWORD), "{f}");
    assert!(
        chrono::DateTime::parse_from_rfc3339(f["at"].as_str().unwrap_or_default()).is_ok(),
        "{f}"
    );
    // Another partner sees nothing of it.
    assert_eq!(last_failure(&app, &other.partner.token).await, Value::Null);

    // A notice is not an account mail: it waits for the partner's server, retried.
    let notice = domain::mail::Email::new("someone@example.in", "Your statement", "Decided");
    let job = jobs::enqueue_now(&app.db.pool, &jobs::SendMail::for_partner(notice, p.id))
        .await
        .unwrap();
    app.run_pending_jobs().await;
    let (_, state) = app
        .get(
            &format!("/api/v1/jobs/{job}"),
            Some(&app.superadmin_token()),
        )
        .await;
    assert!(
        matches!(state["status"].as_str(), Some("retrying" | "failed"))
            && state["last_error"].as_str().is_some_and(|e| e
                .contains("the partner's SMTP server failed")
                && !e.contains(PASSWORD)),
        "{state}"
    );
    assert!(
        !testkit::outbox(&app.config)
            .iter()
            .any(|m| m.contains("someone@example.in")),
        "a notice is not sent by the platform"
    );
    let f = last_failure(&app, &p.token).await;
    assert_eq!(
        (f["mail"].as_str(), f["fallback"].as_bool()),
        (Some("message"), Some(false)),
        "{f}"
    );
    // Its next attempt waits until the server is mended (below), so it cannot interleave.
    let hold = |at: &'static str| {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE apalis.jobs SET run_at = {at} WHERE id = $1"
        )))
        .bind(job.clone())
        .execute(&app.db.pool)
    };
    hold("now() + interval '1 hour'").await.unwrap();

    // A failed test mail says so too; new settings clear the warning, and a test mail that
    // goes through keeps it clear.
    let (s, b) = app
        .post("/api/v1/partner/smtp/test", &json!({}), Some(&p.token))
        .await;
    assert_eq!(s, 202, "{b}");
    app.run_pending_jobs().await;
    assert_eq!(last_failure(&app, &p.token).await["mail"], "smtp_test");
    let smtp = testkit::SmtpServer::start().await;
    let (s, b) = put(
        &app,
        "/api/v1/partner/smtp",
        &settings(smtp.port),
        Some(&p.token),
    )
    .await;
    assert_eq!((s, &b["last_failure"]), (200, &Value::Null), "{b}");
    sqlx::query("UPDATE partner_smtp SET last_error = 'earlier', last_error_at = now(), last_error_mail = 'low_balance' WHERE partner_id = $1")
        .bind(p.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (s, b) = app
        .post("/api/v1/partner/smtp/test", &json!({}), Some(&p.token))
        .await;
    assert_eq!(s, 202, "{b}");
    hold("now()").await.unwrap();
    app.run_pending_jobs().await;
    let received = smtp.received();
    assert!(
        received
            .iter()
            .any(|m| m.contains("Test mail from your SMTP settings")),
        "the test mail went through: {received:?}"
    );
    // The notice, retried, went out through the mended server too (never through the platform's).
    assert!(
        received.iter().any(|m| m.contains("someone@example.in")),
        "{received:?}"
    );
    assert_eq!(last_failure(&app, &p.token).await, Value::Null);
}
