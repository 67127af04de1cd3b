//! A partner's SMTP password cannot be redirected: a new host, port or user needs the password
//! again; hosts that resolve to local, private or metadata addresses are refused when saved
//! and again by the worker right before it connects; 'send test mail' reports through the job
//! state without ever showing the password.

use std::time::Duration;

use domain::{
    infra::crypto::SecretBox,
    partners::partner_smtp::{self, SmtpForm},
};
use serde_json::{Value, json};

use crate::{
    auth_fixtures::{put, signed_up},
    common::TestApp,
};

fn settings(host: &str, port: u16, user: &str, password: &str) -> Value {
    json!({"host": host, "port": port, "user": user, "password": password, "from": "no-reply@acme.test",
           "company_name": "Acme KYC", "secure": false, "active": true})
}

#[tokio::test]
async fn changing_host_port_or_user_needs_the_password_again() {
    let app = TestApp::spawn_with(|c| c.partner_smtp_allow_private = true).await;
    let p = signed_up(&app, "redirect").await;
    let smtp = testkit::SmtpServer::start().await;
    let (s, b) = put(
        &app,
        "/api/v1/partner/smtp",
        &settings("127.0.0.1", smtp.port, "mailer", "sup3r-secret-pw"),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 200, "{b}");

    // The attack of the finding: a new host, the password left empty to keep the stored one.
    let other = testkit::SmtpServer::start().await;
    for (host, port, user) in [
        ("localhost", smtp.port, "mailer"),
        ("127.0.0.1", other.port, "mailer"),
        ("127.0.0.1", smtp.port, "someone-else"),
    ] {
        let (s, b) = put(
            &app,
            "/api/v1/partner/smtp",
            &settings(host, port, user, ""),
            Some(&p.token),
        )
        .await;
        assert_eq!(
            (s, b["error"]["fields"]["password"].as_str()),
            (422, Some(partner_smtp::PASSWORD_AGAIN)),
            "{host}:{port} {user}: {b}"
        );
    }
    let (_, v) = app.get("/api/v1/partner/smtp", Some(&p.token)).await;
    assert_eq!(
        (v["host"].as_str(), v["port"].as_i64(), v["user"].as_str()),
        (Some("127.0.0.1"), Some(smtp.port as i64), Some("mailer"))
    );

    // Same server, other details: the stored password is kept; a new server with its password is fine.
    let mut keep = settings("127.0.0.1", smtp.port, "mailer", "");
    keep["company_name"] = json!("Acme KYC Ltd");
    assert_eq!(
        put(&app, "/api/v1/partner/smtp", &keep, Some(&p.token))
            .await
            .0,
        200
    );
    let (s, _) = put(
        &app,
        "/api/v1/partner/smtp",
        &settings("127.0.0.1", other.port, "mailer", "other-pw"),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 200);

    // The test mail goes to the server the password was given for, and nowhere else.
    let (s, b) = app
        .post("/api/v1/partner/smtp/test", &json!({}), Some(&p.token))
        .await;
    assert_eq!(s, 202, "{b}");
    let worker = app.start_worker("smtp-redirect");
    app.wait_for_job(
        b["job_id"].as_str().unwrap(),
        "done",
        Duration::from_secs(20),
    )
    .await;
    worker.stop().await;
    assert!(smtp.auths().is_empty(), "{:?}", smtp.auths());
    assert_eq!(other.auths(), ["mailer:other-pw"]);
    let got = other.received();
    assert_eq!(got.len(), 1);
    assert!(
        got[0].contains("To: redirect@partner.test"),
        "to the partner's own address: {}",
        got[0]
    );
    assert!(
        got[0].contains("Subject: Test mail from your SMTP settings"),
        "{}",
        got[0]
    );
}

#[tokio::test]
async fn local_private_and_metadata_hosts_are_refused_when_saved() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "privhost").await;
    for host in [
        "127.0.0.1",
        "localhost",
        "169.254.169.254",
        "10.0.0.5",
        "192.168.1.10",
        "100.64.0.1",
        "0.0.0.0",
        "2130706433",
        "224.0.0.1",
    ] {
        let (s, b) = put(
            &app,
            "/api/v1/partner/smtp",
            &settings(host, 587, "mailer", "pw-123456"),
            Some(&p.token),
        )
        .await;
        assert_eq!(
            (s, b["error"]["fields"]["host"].as_str()),
            (422, Some(partner_smtp::PRIVATE_HOST)),
            "{host}: {b}"
        );
    }
    let (_, v) = app.get("/api/v1/partner/smtp", Some(&p.token)).await;
    assert_eq!(v["configured"], false);
    // A name that does not resolve (yet) is saved: the worker checks it before each connection.
    let (s, b) = put(
        &app,
        "/api/v1/partner/smtp",
        &settings("smtp.example.invalid", 587, "mailer", "pw-123456"),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 200, "{b}");
}

#[tokio::test]
async fn the_worker_checks_the_host_again_before_connecting() {
    // Saved while the name was public, say; now it points at loopback. Without
    // PARTNER_SMTP_ALLOW_PRIVATE the worker must not connect, let alone send the password.
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "rebind").await;
    let smtp = testkit::SmtpServer::start().await;
    let secrets = SecretBox::new(&app.config.encryption_key);
    let form = SmtpForm::parse(
        "localhost",
        Some(smtp.port.into()),
        "mailer",
        "sup3r-secret-pw",
        "no-reply@acme.test",
        "Acme",
        Some(false),
        Some(true),
    )
    .unwrap();
    partner_smtp::save(
        &mut app.db.pool.acquire().await.unwrap(),
        &secrets,
        p.id,
        &form,
    )
    .await
    .unwrap();

    let mail = domain::mail::Email::new("enduser@example.in", "Welcome", "Hello");
    let mail_job = jobs::enqueue_now(&app.db.pool, &jobs::SendMail::for_partner(mail, p.id))
        .await
        .unwrap();
    let (s, b) = app
        .post("/api/v1/partner/smtp/test", &json!({}), Some(&p.token))
        .await;
    assert_eq!(s, 202, "{b}");
    let worker = app.start_worker("smtp-rebind");
    let failed = app
        .wait_for_job(&mail_job, "retrying", Duration::from_secs(20))
        .await;
    let test = app
        .wait_for_job(
            b["job_id"].as_str().unwrap(),
            "failed",
            Duration::from_secs(20),
        )
        .await;
    worker.stop().await;
    for state in [&failed, &test] {
        let err = state["last_error"].as_str().unwrap_or_default();
        assert!(
            err.contains("the SMTP host localhost resolves to") && err.contains("refused"),
            "{state}"
        );
        assert!(!err.contains("sup3r-secret-pw"), "{state}");
    }
    assert!(
        smtp.auths().is_empty() && smtp.received().is_empty(),
        "the worker connected"
    );
}

#[tokio::test]
async fn a_failed_test_mail_reports_a_readable_error_without_the_password() {
    let app = TestApp::spawn_with(|c| c.partner_smtp_allow_private = true).await;
    let p = signed_up(&app, "smtpfail").await;
    let (s, b) = app
        .post("/api/v1/partner/smtp/test", &json!({}), Some(&p.token))
        .await;
    assert_eq!(
        (s, b["error"]["fields"]["host"].as_str()),
        (422, Some("Save the SMTP settings first")),
        "{b}"
    );
    // Nothing listens on this port.
    let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = probe.local_addr().unwrap().port();
    drop(probe);
    let (s, _) = put(
        &app,
        "/api/v1/partner/smtp",
        &settings("127.0.0.1", port, "mailer", "sup3r-secret-pw"),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 200);
    let (s, b) = app
        .post("/api/v1/partner/smtp/test", &json!({}), Some(&p.token))
        .await;
    assert_eq!(s, 202);
    let worker = app.start_worker("smtp-fail");
    let state = app
        .wait_for_job(
            b["job_id"].as_str().unwrap(),
            "failed",
            Duration::from_secs(20),
        )
        .await;
    worker.stop().await;
    assert_eq!(
        (state["kind"].as_str(), state["attempts"].as_i64()),
        (Some("smtp_test"), Some(1)),
        "{state}"
    );
    // The partner that asked sees its job's outcome too.
    let (s, mine) = app
        .get(
            &format!("/api/v1/jobs/{}", b["job_id"].as_str().unwrap()),
            Some(&p.token),
        )
        .await;
    assert_eq!(
        (s, mine["status"].as_str()),
        (200, Some("failed")),
        "{mine}"
    );
    let err = state["last_error"].as_str().unwrap();
    assert!(
        !err.is_empty() && !err.contains("sup3r-secret-pw"),
        "{state}"
    );
    // No partner session: 401.
    assert_eq!(
        app.post("/api/v1/partner/smtp/test", &json!({}), None)
            .await
            .0,
        401
    );
}
