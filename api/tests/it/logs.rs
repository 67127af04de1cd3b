//! A user's API and product logs: newest first, paged, date-filtered, and never another
//! partner's.

use serde_json::json;

use crate::{common::TestApp, fixtures};

async fn log_calls(app: &TestApp, partner_id: i64, user_id: i64, n: i64) {
    sqlx::query(
        "INSERT INTO api_logs (partner_id, user_id, service, pid, vid, vpid, status_code, amount_paise, created_at)
         SELECT $1, $2, 'pan_verification', 'PID1001', 'V' || g, 'P' || g, CASE WHEN g % 5 = 0 THEN 404 ELSE 200 END, 300,
                timestamptz '2026-11-01 10:00:00+00' + g * interval '1 hour'
           FROM generate_series(1, $3) g",
    )
    .bind(partner_id)
    .bind(user_id)
    .bind(n)
    .execute(&app.db.pool)
    .await
    .unwrap();
    sqlx::query("INSERT INTO product_logs (partner_id, user_id, description, status_code, amount_paise) VALUES ($1, $2, 'Bank statement analysis', 200, 5000)")
        .bind(partner_id)
        .bind(user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
}

#[tokio::test]
async fn logs_of_a_user_are_paged_newest_first_and_filtered_by_date() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "logs").await;
    let u = fixtures::user(&app, p.id, 1).await;
    log_calls(&app, p.id, u, 60).await;

    let (s, b) = app
        .get(
            &format!("/api/v1/partner/users/{u}/api-logs"),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        (
            b["total"].as_i64(),
            b["pages"].as_i64(),
            b["per_page"].as_i64()
        ),
        (Some(60), Some(2), Some(50))
    );
    assert_eq!(b["items"].as_array().unwrap().len(), 50);
    assert_eq!(b["items"][0]["vid"], "V60", "newest first");
    assert_eq!(
        b["items"][0]["status_code"], 404,
        "a failed call is logged with its code"
    );
    assert_eq!(b["items"][0]["amount_paise"], 300);
    let (_, b) = app
        .get(
            &format!("/api/v1/partner/users/{u}/api-logs?page=2"),
            Some(&p.token),
        )
        .await;
    assert_eq!(b["items"].as_array().unwrap().len(), 10);
    // Calls every hour from 1 Nov 11:00 UTC: the 1st is an IST day, which ends at 18:30 UTC, so
    // 11:00 .. 18:00 UTC are its 8 calls.
    let (_, b) = app
        .get(
            &format!("/api/v1/partner/users/{u}/api-logs?from=2026-11-01&to=2026-11-01"),
            Some(&p.token),
        )
        .await;
    assert_eq!(b["total"], 8, "{b}");
    let (s, b) = app
        .get(
            &format!("/api/v1/partner/users/{u}/api-logs?from=yesterday"),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 400, "{b}");

    let (s, b) = app
        .get(
            &format!("/api/v1/partner/users/{u}/product-logs"),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 200);
    assert_eq!(b["items"][0]["description"], "Bank statement analysis");
    assert_eq!(b["total"], 1);

    // The super admin reads them through the client.
    let admin = app.superadmin_token();
    let (s, b) = app
        .get(
            &format!("/api/v1/superadmin/clients/{}/users/{u}/api-logs", p.id),
            Some(&admin),
        )
        .await;
    assert_eq!((s, b["total"].clone()), (200, json!(60)));
}

#[tokio::test]
async fn another_partners_user_logs_are_404() {
    let app = TestApp::spawn().await;
    let a = fixtures::partner(&app, "loga").await;
    let b = fixtures::partner(&app, "logb").await;
    let ua = fixtures::user(&app, a.id, 1).await;
    log_calls(&app, a.id, ua, 3).await;
    for kind in ["api-logs", "product-logs"] {
        let (s, body) = app
            .get(
                &format!("/api/v1/partner/users/{ua}/{kind}"),
                Some(&b.token),
            )
            .await;
        assert_eq!(s, 404, "{kind}: {body}");
        assert!(body.get("items").is_none());
        let (s, _) = app
            .get(
                &format!("/api/v1/superadmin/clients/{}/users/{ua}/{kind}", b.id),
                Some(&app.superadmin_token()),
            )
            .await;
        assert_eq!(s, 404);
        let (s, _) = app
            .get(&format!("/api/v1/partner/users/{ua}/{kind}"), None)
            .await;
        assert_eq!(s, 401);
    }
}
