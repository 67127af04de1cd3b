//! `GET /api/v1/jobs/{id}` is tenant-scoped: a partner sees the jobs it caused, nothing else.

use serde_json::json;

use crate::{
    auth_fixtures::{put, signed_up},
    common::TestApp,
};

#[tokio::test]
async fn a_partner_sees_only_its_own_jobs() {
    let app = TestApp::spawn().await;
    let a = signed_up(&app, "alpha").await;
    let b = signed_up(&app, "bravo").await;
    let (s, r) = put(
        &app,
        "/api/v1/partner/subdomain",
        &json!({"subdomain": "alpha-kyc"}),
        Some(&a.token),
    )
    .await;
    assert_eq!(s, 202, "{r}");
    let own = r["job_id"].as_str().unwrap().to_owned();
    // A platform job: the contact form's mail (its error would show the provider's mail setup).
    let (s, r) = app.post("/api/v1/public/contact", &json!({"name": "Asha Rao", "email": "asha@example.in", "mobile": "9876543210", "message": "Hi"}), None).await;
    assert_eq!(s, 202, "{r}");
    let platform = r["job_id"].as_str().unwrap().to_owned();

    let (s, j) = app
        .get(&format!("/api/v1/jobs/{own}"), Some(&a.token))
        .await;
    assert_eq!(
        (s, j["kind"].as_str()),
        (200, Some("provision_subdomain")),
        "{j}"
    );
    // Another partner's job and the platform's are 404, the same as a job that does not exist.
    for id in [
        own.as_str(),
        platform.as_str(),
        "01ARZ3NDEKTSV4RRFFQ69G5FAV",
    ] {
        let (s, e) = app.get(&format!("/api/v1/jobs/{id}"), Some(&b.token)).await;
        assert_eq!(
            (s, e["error"]["code"].as_str()),
            (404, Some("not_found")),
            "{id}: {e}"
        );
    }
    let (s, _) = app
        .get(&format!("/api/v1/jobs/{platform}"), Some(&a.token))
        .await;
    assert_eq!(s, 404);
    // The super admin sees every job.
    for id in [&own, &platform] {
        assert_eq!(
            app.get(&format!("/api/v1/jobs/{id}"), Some(&app.superadmin_token()))
                .await
                .0,
            200
        );
    }
}

#[tokio::test]
async fn an_end_users_welcome_mail_is_its_partners_job() {
    let app = TestApp::spawn().await;
    let a = signed_up(&app, "alpha").await;
    let body = json!({"first_name": "Ravi", "last_name": "Kumar", "email": "ravi@example.in", "phone_number": "9876543210", "password": "Secret123", "full_access": true});
    let (s, r) = app
        .post("/api/v1/partner/users", &body, Some(&a.token))
        .await;
    assert_eq!(s, 201, "{r}");
    let job: String = sqlx::query_scalar("SELECT job_id FROM job_owners WHERE partner_id = $1")
        .bind(a.id)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    let (s, j) = app
        .get(&format!("/api/v1/jobs/{job}"), Some(&a.token))
        .await;
    assert_eq!((s, j["kind"].as_str()), (200, Some("send_mail")), "{j}");
}

#[tokio::test]
async fn deactivated_and_deleted_partners_are_refused() {
    let app = TestApp::spawn().await;
    let a = signed_up(&app, "alpha").await;
    let (_, r) = put(
        &app,
        "/api/v1/partner/subdomain",
        &json!({"subdomain": "alpha-kyc"}),
        Some(&a.token),
    )
    .await;
    let own = r["job_id"].as_str().unwrap().to_owned();
    assert_eq!(
        app.get(&format!("/api/v1/jobs/{own}"), Some(&a.token))
            .await
            .0,
        200
    );
    // Behind the sessions' cache: the account's state is read on this route too.
    sqlx::query("UPDATE partners SET is_active = false WHERE id = $1")
        .bind(a.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (s, _) = app
        .get(&format!("/api/v1/jobs/{own}"), Some(&a.token))
        .await;
    assert!(s == 401 || s == 403, "{s}");
    sqlx::query("DELETE FROM partners WHERE id = $1")
        .bind(a.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(
        app.get(&format!("/api/v1/jobs/{own}"), Some(&a.token))
            .await
            .0,
        401
    );
}
