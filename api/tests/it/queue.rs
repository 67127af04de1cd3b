//! The job queue's conventions: payloads hold no secret, money's one entry point queues its
//! alert in its own transaction, finished jobs are pruned, and the in-process runner keeps the
//! worker's books.

use std::time::Duration;

use domain::{
    infra::audit::Actor,
    infra::queue::{self, Task},
    wallets::{self, EntryType, Movement, Owner, Reason, WalletKind},
};
use serde_json::json;
use sqlx::Connection;

use crate::{
    auth_fixtures::{PASSWORD, fresh_ip, post_as, queued_mails, signed_up, token_after},
    common::TestApp,
    fixtures,
};

async fn payloads(app: &TestApp) -> Vec<String> {
    sqlx::query_scalar("SELECT convert_from(job, 'UTF8') FROM apalis.jobs ORDER BY id")
        .fetch_all(&app.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn the_queue_holds_no_token_link_or_password() {
    let app = TestApp::spawn().await;
    // Sign-up (and its verification), a password reset, and an end user made by the partner.
    let p = signed_up(&app, "secretive").await;
    let (s, b) = post_as(
        &app,
        &fresh_ip(),
        "/api/v1/partner/forgot-password",
        &json!({"email": p.email, "user_name": "secretive"}),
        None,
    )
    .await;
    assert_eq!(s, 202, "{b}");
    let user = json!({"first_name": "Meera", "last_name": "Nair", "email": "meera@example.in", "phone_number": "9812345678", "password": "Hidden-Pass-77", "full_access": false});
    let (s, b) = app
        .post("/api/v1/partner/users", &user, Some(&p.token))
        .await;
    assert_eq!(s, 201, "{b}");

    let mails = queued_mails(&app).await;
    let subjects: Vec<&str> = mails.iter().map(|(_, s, _)| s.as_str()).collect();
    assert_eq!(
        subjects,
        [
            "Verify your email address",
            "Reset your password",
            "Your account has been created"
        ]
    );
    let tokens = [
        token_after(&mails[0].2, "http://localhost:8080/verify-email/"),
        token_after(&mails[1].2, "http://localhost:8080/reset-password-admin/"),
    ];
    // The mailed reset link works: the token was minted when the mail was built.
    let (s, r) = app
        .post(
            "/api/v1/partner/reset-password/verify",
            &json!({"token": tokens[1]}),
            None,
        )
        .await;
    assert_eq!(s, 200, "{r}");

    let all = payloads(&app).await;
    assert_eq!(all.len(), 3, "{all:?}");
    for payload in &all {
        for secret in [
            tokens[0].as_str(),
            tokens[1].as_str(),
            "verify-email",
            "reset-password-admin",
            "http",
            PASSWORD,
            "Hidden-Pass-77",
        ] {
            assert!(
                !payload.contains(secret),
                "{secret:?} in the queue: {payload}"
            );
        }
    }
    // Only hashes in the token table too.
    let stored: Vec<Vec<u8>> = sqlx::query_scalar("SELECT token_hash FROM one_time_tokens")
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
    assert!(
        stored
            .iter()
            .all(|h| h.len() == 32 && !tokens.iter().any(|t| t.as_bytes() == h.as_slice()))
    );
}

#[tokio::test]
async fn a_reset_for_no_account_sends_nothing_and_answers_alike() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "alike").await;
    let before = queued_mails(&app).await.len();
    for body in [
        json!({"email": "nobody@partner.test", "user_name": "alike"}),
        json!({"email": p.email, "user_name": "alike"}),
    ] {
        let (s, b) = post_as(
            &app,
            &fresh_ip(),
            "/api/v1/partner/forgot-password",
            &body,
            None,
        )
        .await;
        assert_eq!((s, b["message"].as_str().is_some()), (202, true), "{b}");
    }
    // Both requests queued a job; only the one naming an account mailed.
    assert_eq!(app.run_pending_jobs().await, 2);
    let mails = queued_mails(&app).await;
    assert_eq!(mails.len(), before + 1);
    assert_eq!(mails.last().unwrap().0, p.email);
    let done: i64 = sqlx::query_scalar("SELECT count(*) FROM apalis.jobs WHERE status = 'Done'")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(done, 3, "sign-up mail and both resets done");
}

#[tokio::test]
async fn moving_money_queues_its_alert_in_the_same_transaction() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "entrypoint").await;
    let mut conn = app.db.pool.acquire().await.unwrap();
    let wallet = wallets::wallet_id(&mut conn, Owner::Partner(p.id), WalletKind::Api)
        .await
        .unwrap();
    let movement = |entry_type, amount_paise| Movement {
        wallet_id: wallet,
        entry_type,
        amount_paise,
        reason: Reason::Manual,
        reference: None,
        idempotency_key: None,
        actor: Actor::system(),
    };
    wallets::apply(&mut conn, &movement(EntryType::Credit, 5_000))
        .await
        .unwrap();
    wallets::set_alert_threshold(
        &mut conn,
        Owner::Partner(p.id),
        WalletKind::Api,
        Some(3_000),
        Actor::partner(p.id),
    )
    .await
    .unwrap();

    // A crossing rolled back: neither the debit nor its alert happened.
    let mut tx = conn.begin().await.unwrap();
    let moved = wallets::apply(&mut tx, &movement(EntryType::Debit, 4_000))
        .await
        .unwrap();
    assert!(moved.low_balance.is_some());
    tx.rollback().await.unwrap();
    assert!(payloads(&app).await.is_empty());

    // Committed (on a bare connection: apply's own transaction): one alert, ids only.
    wallets::apply(&mut conn, &movement(EntryType::Debit, 4_000))
        .await
        .unwrap();
    wallets::apply(&mut conn, &movement(EntryType::Debit, 500))
        .await
        .unwrap();
    let all = payloads(&app).await;
    assert_eq!(all.len(), 1, "one alert per crossing: {all:?}");
    assert!(
        !all[0].contains(&p.email) && !all[0].contains("Low balance"),
        "{}",
        all[0]
    );
    assert_eq!(app.run_pending_jobs().await, 1);
    let mails = testkit::outbox_mails(&app.config);
    assert_eq!(mails.len(), 1);
    assert_eq!(
        (mails[0].to.as_str(), mails[0].subject.as_str()),
        (p.email.as_str(), "Low balance: your API Wallet")
    );
    assert!(
        mails[0].text.contains("Balance: ₹10.00\nThreshold: ₹30.00"),
        "{}",
        mails[0].text
    );
}

/// A payload of the `send_mail` queue that no handler can read.
#[derive(serde::Serialize)]
struct Garbled {
    nonsense: bool,
}

impl Task for Garbled {
    const KIND: &'static str = "send_mail";
    const MAX_ATTEMPTS: usize = 1;
}

#[tokio::test]
async fn the_in_process_runner_keeps_the_workers_books() {
    let app = TestApp::spawn().await;
    let mut conn = app.db.pool.acquire().await.unwrap();
    let bad = queue::push(&mut conn, &Garbled { nonsense: true }, None)
        .await
        .unwrap()
        .unwrap();
    let (s, b) = app
        .post(
            "/api/v1/public/contact",
            &json!({"name": "Asha", "email": "asha@example.in", "mobile": "98765"}),
            None,
        )
        .await;
    assert_eq!(s, 202, "{b}");
    let good = b["job_id"].as_str().unwrap().to_owned();
    assert_eq!(app.run_pending_jobs().await, 2);
    assert_eq!(app.run_pending_jobs().await, 0, "nothing due any more");
    let admin = app.superadmin_token();
    let (_, g) = app.get(&format!("/api/v1/jobs/{good}"), Some(&admin)).await;
    assert_eq!(
        (g["status"].as_str(), g["attempts"].as_i64()),
        (Some("done"), Some(1)),
        "{g}"
    );
    // Not stuck in the queue: failed for good, with the reason.
    let (_, f) = app.get(&format!("/api/v1/jobs/{bad}"), Some(&admin)).await;
    assert_eq!(
        (f["status"].as_str(), f["attempts"].as_i64()),
        (Some("failed"), Some(1)),
        "{f}"
    );
    assert!(
        f["last_error"].as_str().unwrap().contains("decoding"),
        "{f}"
    );
    // A duplicate idempotency key is not an error, and inserts nothing.
    assert!(
        queue::push(&mut conn, &Garbled { nonsense: false }, Some("k"))
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        queue::push(&mut conn, &Garbled { nonsense: false }, Some("k"))
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn finished_jobs_are_pruned_after_the_retention() {
    let app = TestApp::spawn_with(|c| c.job_retention = Duration::from_secs(3600)).await;
    let p = fixtures::partner(&app, "pruned").await;
    let mut ids = Vec::new();
    for _ in 0..5 {
        let (s, b) = app
            .post(
                "/api/v1/public/contact",
                &json!({"name": "Asha", "email": "asha@example.in", "mobile": "98765"}),
                None,
            )
            .await;
        assert_eq!(s, 202, "{b}");
        ids.push(b["job_id"].as_str().unwrap().to_owned());
    }
    app.run_pending_jobs().await;
    let set = |id: &str, sql: &'static str| {
        let pool = app.db.pool.clone();
        let id = id.to_owned();
        async move { sqlx::query(sql).bind(id).execute(&pool).await.unwrap() }
    };
    // 0: done two hours ago; 1: done just now; 2: failed two hours ago, retrying; 3: failed two
    // hours ago for good; 4: scheduled, never run.
    set(
        &ids[0],
        "UPDATE apalis.jobs SET done_at = now() - interval '2 hours' WHERE id = $1",
    )
    .await;
    set(&ids[2], "UPDATE apalis.jobs SET status = 'Failed', attempts = 1, done_at = now() - interval '2 hours', run_at = now() + interval '1 hour' WHERE id = $1").await;
    set(&ids[3], "UPDATE apalis.jobs SET status = 'Failed', attempts = max_attempts, done_at = now() - interval '2 hours' WHERE id = $1").await;
    set(&ids[4], "UPDATE apalis.jobs SET status = 'Pending', attempts = 0, done_at = NULL, run_at = now() + interval '1 hour' WHERE id = $1").await;
    domain::infra::job_owners::record(&mut app.db.pool.acquire().await.unwrap(), &ids[0], p.id)
        .await
        .unwrap();
    // Rows that only grow: a session, a token and a failure window two days past their end go,
    // live ones stay.
    for sql in [
        "INSERT INTO sessions (id, principal_kind, principal_id, expires_at) VALUES (gen_random_uuid(), 'partner', 1, now() - interval '2 days'), (gen_random_uuid(), 'partner', 1, now() + interval '1 hour')",
        "INSERT INTO sign_in_attempts (account, attempts, window_start) VALUES ('old', 3, now() - interval '2 days'), ('new', 3, now())",
    ] {
        sqlx::query(sql).execute(&app.db.pool).await.unwrap();
    }
    sqlx::query(
        "INSERT INTO one_time_tokens (token_hash, purpose, subject_kind, subject_id, expires_at)
         VALUES ('\\x01', 'reset_password', 'partner', 1, now() - interval '2 days'), ('\\x02', 'reset_password', 'partner', 1, now() + interval '1 hour')",
    )
    .execute(&app.db.pool)
    .await
    .unwrap();
    let tokens_before: i64 = sqlx::query_scalar("SELECT count(*) FROM one_time_tokens")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    let live_sessions: i64 =
        sqlx::query_scalar("SELECT count(*) FROM sessions WHERE expires_at > now()")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();

    let ctx = jobs::JobContext::new(app.db.pool.clone(), app.config.clone()).unwrap();
    let at = chrono::Utc::now();
    let prune = jobs::registry::enqueue_periodic::<jobs::PruneJobs>(&ctx, at)
        .await
        .unwrap()
        .expect("enqueued");
    assert!(
        jobs::registry::enqueue_periodic::<jobs::PruneJobs>(&ctx, at)
            .await
            .unwrap()
            .is_none(),
        "once per period"
    );
    assert_eq!(app.run_pending_jobs().await, 1);

    let left: Vec<String> = sqlx::query_scalar("SELECT id FROM apalis.jobs ORDER BY id")
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(
        left,
        [ids[1].clone(), ids[2].clone(), ids[4].clone(), prune],
        "old finished jobs gone, the rest kept"
    );
    let owners: i64 = sqlx::query_scalar("SELECT count(*) FROM job_owners")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(owners, 0, "a pruned job's owner row goes with it");
    let left: (i64, i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM sessions WHERE expires_at < now()), (SELECT count(*) FROM sessions WHERE expires_at > now()),
                (SELECT count(*) FROM sign_in_attempts WHERE account = 'old')",
    )
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(
        left,
        (0, live_sessions, 0),
        "expired rows gone, live sessions kept"
    );
    let tokens_after: i64 = sqlx::query_scalar("SELECT count(*) FROM one_time_tokens")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(
        tokens_after,
        tokens_before - 1,
        "the expired token gone, the live one kept"
    );
}

#[tokio::test]
async fn a_contact_enquiry_is_kept_and_its_mail_carries_only_its_id() {
    let app = TestApp::spawn().await;
    let form = json!({"name": "Kavya Iyer", "email": "kavya@example.in", "mobile": "9811122233", "message": "Pricing for 10,000 PAN checks?"});
    let (s, b) = post_as(&app, &fresh_ip(), "/api/v1/public/contact", &form, None).await;
    assert_eq!(s, 202, "{b}");
    let all = payloads(&app).await;
    assert_eq!(all.len(), 1);
    for personal in ["Kavya", "kavya@example.in", "9811122233", "PAN checks"] {
        assert!(
            !all[0].contains(personal),
            "{personal:?} in the queue: {}",
            all[0]
        );
    }
    let kept: (String, String) = sqlx::query_as("SELECT name, message FROM contact_requests")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(
        kept,
        ("Kavya Iyer".into(), "Pricing for 10,000 PAN checks?".into())
    );
    assert_eq!(app.run_pending_jobs().await, 1);
    let mails = testkit::outbox_mails(&app.config);
    assert_eq!(mails.len(), 1);
    assert_eq!(
        (mails[0].to.as_str(), mails[0].subject.as_str()),
        ("sales@provider.test", "Contact form: Kavya Iyer")
    );
    assert!(
        mails[0].text.contains("Phone: 9811122233")
            && mails[0].text.contains("Email: kavya@example.in"),
        "{}",
        mails[0].text
    );
}
