//! The super admin's Api Logs of a client: every user's calls, with its six filters.

use crate::{common::TestApp, fixtures};

#[tokio::test]
async fn a_clients_api_logs_are_filtered_and_paged() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    let a = fixtures::partner(&app, "alpha").await;
    let b = fixtures::partner(&app, "bravo").await;
    let (u1, u2) = (
        fixtures::user(&app, a.id, 1).await,
        fixtures::user(&app, a.id, 2).await,
    );
    let other = fixtures::user(&app, b.id, 1).await;
    // 60 calls of user 1 (pan) over two days, 1 of user 2 (gst), 1 of the other client.
    sqlx::query(
        "INSERT INTO api_logs (partner_id, user_id, service, pid, vid, vpid, status_code, amount_paise, created_at)
         SELECT $1, $2, 'pan_verification', 'PID' || i, 'VID' || i, 'VPID' || i, 200, 100,
                timestamptz '2026-11-20 10:00:00+00' + (i || ' hours')::interval
           FROM generate_series(1, 60) i",
    )
    .bind(a.id)
    .bind(u1)
    .execute(&app.db.pool)
    .await
    .unwrap();
    for (p, u, service) in [
        (a.id, u2, "gst_verification"),
        (b.id, other, "pan_verification"),
    ] {
        sqlx::query("INSERT INTO api_logs (partner_id, user_id, service, pid, vid, vpid, status_code, created_at) VALUES ($1, $2, $3, 'PIDX', 'VIDX', 'VPIDX', 502, '2026-11-21 09:00:00+00')")
            .bind(p)
            .bind(u)
            .bind(service)
            .execute(&app.db.pool)
            .await
            .unwrap();
    }
    let path = |q: &str| format!("/api/v1/superadmin/clients/{}/api-logs{q}", a.id);
    let (s, page) = app.get(&path(""), Some(&admin)).await;
    assert_eq!(s, 200, "{page}");
    assert_eq!(
        (
            page["total"].as_i64(),
            page["per_page"].as_i64(),
            page["pages"].as_i64()
        ),
        (Some(61), Some(50), Some(2)),
        "50 a page"
    );
    assert_eq!(page["items"][0]["pid"], "PID60", "newest first");
    let (_, p2) = app.get(&path("?page=2"), Some(&admin)).await;
    assert_eq!(p2["items"].as_array().unwrap().len(), 11);

    let count = |q: &'static str| {
        let (app, admin, url) = (&app, admin.clone(), path(q));
        async move {
            let (s, p) = app.get(&url, Some(&admin)).await;
            assert_eq!(s, 200, "{q}: {p}");
            p["total"].as_i64().unwrap()
        }
    };
    assert_eq!(count("?pid=PID7").await, 1);
    assert_eq!(count("?vid=VID8").await, 1);
    assert_eq!(
        count("?vpid=VPIDX").await,
        1,
        "the other client's log is not counted"
    );
    assert_eq!(count("?service=gst_verification").await, 1);
    assert_eq!(
        count("?from=2026-11-21&to=2026-11-21").await,
        25,
        "14:00 on the 20th is hour 4; the 21st holds hours 14..37 and the gst call"
    );
    let (_, p) = app
        .get(&path(&format!("?user_id={u2}")), Some(&admin))
        .await;
    assert_eq!(p["total"], 1);
    assert_eq!(
        app.get(&path(&format!("?user_id={other}")), Some(&admin))
            .await
            .1["total"],
        0
    );
    // Bad filters are field errors, an unknown client 404.
    let (s, e) = app.get(&path("?user_id=12a"), Some(&admin)).await;
    assert_eq!(
        (s, e["error"]["fields"]["user_id"].as_str()),
        (422, Some("User ID contains only numeric values.")),
        "{e}"
    );
    let (s, _) = app.get(&path("?from=yesterday"), Some(&admin)).await;
    assert_eq!(s, 400);
    let (s, _) = app
        .get(&path(&format!("?pid={}", "x".repeat(101))), Some(&admin))
        .await;
    assert_eq!(s, 422);
    assert_eq!(
        app.get("/api/v1/superadmin/clients/999999/api-logs", Some(&admin))
            .await
            .0,
        404
    );
}
