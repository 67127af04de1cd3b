//! The IP Hits list: sums per user and IP, the date filter, Active or Blocked, and tenancy.

use serde_json::json;

use crate::{common::TestApp, fixtures};

async fn hits(app: &TestApp, partner: i64, user: i64, ip: &str, day: &str, n: i64) {
    sqlx::query(
        "INSERT INTO ip_hits (partner_id, user_id, ip, day, hits, first_seen, last_seen)
         VALUES ($1, $2, $3::inet, $4::date, $5, ($4::date + time '08:00') AT TIME ZONE 'UTC', ($4::date + time '18:00') AT TIME ZONE 'UTC')",
    )
    .bind(partner)
    .bind(user)
    .bind(ip)
    .bind(day)
    .bind(n)
    .execute(&app.db.pool)
    .await
    .unwrap();
}

#[tokio::test]
async fn hits_per_user_and_ip_with_their_status() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let other = fixtures::partner(&app, "beta").await;
    let u1 = fixtures::user(&app, p.id, 1).await;
    let u2 = fixtures::user(&app, p.id, 2).await;
    let v = fixtures::user(&app, other.id, 3).await;
    hits(&app, p.id, u1, "10.0.0.1", "2026-11-20", 5).await;
    hits(&app, p.id, u1, "10.0.0.1", "2026-11-21", 7).await;
    hits(&app, p.id, u1, "10.0.0.2", "2026-11-21", 1).await;
    hits(&app, p.id, u2, "10.0.0.1", "2026-11-19", 2).await;
    hits(&app, other.id, v, "10.0.0.1", "2026-11-21", 100).await;

    let (s, b) = app.get("/api/v1/partner/ip-hits", Some(&p.token)).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["total"], 3, "one row per user and IP: {b}");
    let first = &b["items"][0];
    assert_eq!(
        (
            first["user_id"].as_i64(),
            first["ip"].as_str(),
            first["hits"].as_i64()
        ),
        (Some(u1), Some("10.0.0.1"), Some(12))
    );
    assert!(
        first["first_seen"]
            .as_str()
            .unwrap()
            .starts_with("2026-11-20")
    );
    assert!(
        first["last_seen"]
            .as_str()
            .unwrap()
            .starts_with("2026-11-21")
    );
    assert_eq!(first["status"], "active");
    assert_eq!(
        b["items"][2]["user_id"].as_i64(),
        Some(u2),
        "least recently seen last"
    );

    let (_, b) = app
        .get("/api/v1/partner/ip-hits?date=2026-11-20", Some(&p.token))
        .await;
    assert_eq!(
        (b["total"].as_i64(), b["items"][0]["hits"].as_i64()),
        (Some(1), Some(5))
    );
    let (_, b) = app
        .get(
            &format!("/api/v1/partner/ip-hits?user_id={u1}&ip=10.0.0.2"),
            Some(&p.token),
        )
        .await;
    assert_eq!(
        (b["total"].as_i64(), b["items"][0]["hits"].as_i64()),
        (Some(1), Some(1))
    );
    let (_, b) = app
        .get("/api/v1/partner/ip-hits?per_page=1&page=3", Some(&p.token))
        .await;
    assert_eq!(
        (b["pages"].as_i64(), b["items"][0]["user_id"].as_i64()),
        (Some(3), Some(u2))
    );

    // Blocked marks the pair, with the record to unblock; unblocking makes it active again.
    let (s, blk) = app
        .post(
            "/api/v1/partner/blocked-ips",
            &json!({"user_id": u1, "ip": "10.0.0.1", "comments": "abuse"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 201);
    let (_, b) = app
        .get(
            &format!("/api/v1/partner/users/{u1}/ip-hits"),
            Some(&p.token),
        )
        .await;
    assert_eq!(b["total"], 2);
    assert_eq!(
        (
            b["items"][0]["status"].clone(),
            b["items"][0]["blocked_id"].clone()
        ),
        (json!("blocked"), blk["id"].clone())
    );
    assert_eq!(b["items"][1]["status"], "active");
    let (_, b) = app
        .get(
            &format!("/api/v1/partner/ip-hits?user_id={u2}"),
            Some(&p.token),
        )
        .await;
    assert_eq!(b["items"][0]["status"], "active", "the block is per user");
    assert_eq!(
        fixtures::delete(
            &app,
            &format!("/api/v1/partner/blocked-ips/{}", blk["id"]),
            Some(&p.token)
        )
        .await,
        204
    );
    let (_, b) = app
        .get(
            &format!("/api/v1/partner/users/{u1}/ip-hits"),
            Some(&p.token),
        )
        .await;
    assert_eq!(b["items"][0]["status"], "active");

    // Bad filters, another partner's user, the wrong role.
    for q in ["user_id=abc", "ip=10.0.0", "date=21-11-2026"] {
        let (s, b) = app
            .get(&format!("/api/v1/partner/ip-hits?{q}"), Some(&p.token))
            .await;
        assert_eq!(s, 422, "{q}: {b}");
    }
    let (_, b) = app
        .get(
            &format!("/api/v1/partner/ip-hits?user_id={v}"),
            Some(&p.token),
        )
        .await;
    assert_eq!(b["total"], 0);
    assert_eq!(
        app.get(
            &format!("/api/v1/partner/users/{v}/ip-hits"),
            Some(&p.token)
        )
        .await
        .0,
        404
    );
    assert_eq!(
        app.get("/api/v1/partner/ip-hits", Some(&app.superadmin_token()))
            .await
            .0,
        403
    );
}
