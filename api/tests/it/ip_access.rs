//! Whitelist IP and blocked IPs: the spec's rules and messages, paging and filters, and that
//! a partner reaches only its own users' entries.

use serde_json::{Value, json};

use crate::{common::TestApp, fixtures};

const WL: &str = "/api/v1/partner/ip-whitelist";
const BL: &str = "/api/v1/partner/blocked-ips";

#[tokio::test]
async fn whitelist_rules_and_messages() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let u = fixtures::user(&app, p.id, 1).await;

    let (s, b) = app
        .post(
            WL,
            &json!({"user_id": "12a", "ip": "300.1.1.1", "comments": "  "}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 422, "{b}");
    assert_eq!(
        b["error"]["fields"]["user_id"],
        "User ID contains only numeric values."
    );
    assert_eq!(
        b["error"]["fields"]["ip"],
        "Please enter a valid IP address!"
    );
    assert_eq!(b["error"]["fields"]["comments"], "Comments are required");
    let (s, b) = app.post(WL, &json!({}), Some(&p.token)).await;
    assert_eq!(s, 422);
    assert_eq!(b["error"]["fields"]["user_id"], "User ID is required");
    assert_eq!(b["error"]["fields"]["ip"], "IP is required");
    for ip in [
        "10.0.0",
        "::1",
        "2001:db8::1",
        "10.0.0.1/24",
        "010.0.0.1",
        "1.2.3.4 5",
    ] {
        let (s, b) = app
            .post(
                WL,
                &json!({"user_id": u, "ip": ip, "comments": "x"}),
                Some(&p.token),
            )
            .await;
        assert_eq!(
            (s, b["error"]["fields"]["ip"].clone()),
            (422, json!("Please enter a valid IP address!")),
            "{ip}"
        );
    }
    for user_id in [
        json!(-3),
        json!(1.5),
        json!(true),
        json!("99999999999999999999999"),
    ] {
        let (s, b) = app
            .post(
                WL,
                &json!({"user_id": user_id, "ip": "10.0.0.1", "comments": "x"}),
                Some(&p.token),
            )
            .await;
        assert_eq!(
            (s, b["error"]["fields"]["user_id"].clone()),
            (422, json!("User ID contains only numeric values.")),
            "{user_id}"
        );
    }
    let (s, b) = app
        .post(
            WL,
            &json!({"user_id": u, "ip": "10.0.0.1", "comments": "c".repeat(501)}),
            Some(&p.token),
        )
        .await;
    assert_eq!(
        (s, b["error"]["fields"]["comments"].clone()),
        (422, json!("Comments must be at most 500 characters"))
    );
    let (s, _) = app
        .post(
            WL,
            &json!({"user_id": u, "ip": "10.0.0.1", "comments": "nul\u{0}"}),
            Some(&p.token),
        )
        .await;
    assert!(s == 400 || s == 422, "{s}");
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM ip_whitelist").await,
        0
    );

    // A user id as a string of digits or a number; the same IP twice for a user: 409.
    let (s, b) = app
        .post(
            WL,
            &json!({"user_id": u.to_string(), "ip": " 10.0.0.1 ", "comments": " office "}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(
        (
            b["user_id"].as_i64(),
            b["ip"].as_str(),
            b["comments"].as_str()
        ),
        (Some(u), Some("10.0.0.1"), Some("office"))
    );
    let (s, b) = app
        .post(
            WL,
            &json!({"user_id": u, "ip": "10.0.0.1", "comments": "again"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(
        (s, b["error"]["message"].clone()),
        (409, json!("This IP is already whitelisted for this user"))
    );
    let (s, _) = app
        .post(
            WL,
            &json!({"user_id": 999_999, "ip": "10.0.0.2", "comments": "x"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 404, "a user that is not the partner's");
}

#[tokio::test]
async fn lists_are_newest_first_paged_and_filtered() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let u1 = fixtures::user(&app, p.id, 1).await;
    let u2 = fixtures::user(&app, p.id, 2).await;
    for (u, ip) in [(u1, "10.0.0.1"), (u1, "10.0.0.2"), (u2, "10.0.0.1")] {
        let (s, b) = app
            .post(
                WL,
                &json!({"user_id": u, "ip": ip, "comments": "c"}),
                Some(&p.token),
            )
            .await;
        assert_eq!(s, 201, "{b}");
    }
    let (s, b) = app.get(&format!("{WL}?per_page=2"), Some(&p.token)).await;
    assert_eq!(s, 200);
    assert_eq!(
        (
            b["total"].as_i64(),
            b["pages"].as_i64(),
            b["items"].as_array().unwrap().len()
        ),
        (Some(3), Some(2), 2)
    );
    assert_eq!(
        (
            b["items"][0]["user_id"].as_i64(),
            b["items"][0]["ip"].as_str()
        ),
        (Some(u2), Some("10.0.0.1")),
        "newest first"
    );
    let (_, b) = app.get(&format!("{WL}?user_id={u1}"), Some(&p.token)).await;
    assert_eq!(b["total"], 2);
    let (_, b) = app.get(&format!("{WL}?ip=10.0.0.1"), Some(&p.token)).await;
    assert_eq!(b["total"], 2);
    let today = domain::infra::ist::today();
    let (_, b) = app
        .get(
            &format!("{WL}?user_id={u1}&ip=10.0.0.2&date={today}"),
            Some(&p.token),
        )
        .await;
    assert_eq!(b["total"], 1);
    let (_, b) = app
        .get(&format!("{WL}?date=2001-01-01"), Some(&p.token))
        .await;
    assert_eq!(b["total"], 0);
    let (_, b) = app
        .get(
            &format!("/api/v1/partner/users/{u2}/ip-whitelist"),
            Some(&p.token),
        )
        .await;
    assert_eq!(
        (b["total"].as_i64(), b["items"][0]["ip"].as_str()),
        (Some(1), Some("10.0.0.1"))
    );

    for (q, field) in [
        ("user_id=1x", "user_id"),
        ("ip=1.2.3", "ip"),
        ("date=2024-13-01", "date"),
        ("date=yesterday", "date"),
    ] {
        let (s, b) = app.get(&format!("{WL}?{q}"), Some(&p.token)).await;
        assert_eq!(s, 422, "{q}: {b}");
        assert!(b["error"]["fields"][field].is_string(), "{q}: {b}");
    }
    assert_eq!(
        app.get(&format!("{WL}?page=x"), Some(&p.token)).await.0,
        400
    );

    // Remove one: 204, then 404.
    let id = b_id(&app, &p.token, u1, "10.0.0.2").await;
    assert_eq!(
        fixtures::delete(&app, &format!("{WL}/{id}"), Some(&p.token)).await,
        204
    );
    assert_eq!(
        fixtures::delete(&app, &format!("{WL}/{id}"), Some(&p.token)).await,
        404
    );
    let (_, b) = app.get(WL, Some(&p.token)).await;
    assert_eq!(b["total"], 2);
}

async fn b_id(app: &TestApp, token: &str, user: i64, ip: &str) -> i64 {
    let (_, b) = app
        .get(&format!("{WL}?user_id={user}&ip={ip}"), Some(token))
        .await;
    b["items"][0]["id"].as_i64().unwrap()
}

#[tokio::test]
async fn block_and_unblock() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let u = fixtures::user(&app, p.id, 1).await;
    let (s, b) = app
        .post(
            BL,
            &json!({"user_id": u, "ip": "192.168.1.9"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(
        (s, b["error"]["fields"]["comments"].clone()),
        (422, json!("Comments are required"))
    );
    let (s, b) = app
        .post(
            BL,
            &json!({"user_id": u, "ip": "bad", "comments": "x"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(
        (s, b["error"]["fields"]["ip"].clone()),
        (422, json!("Please enter a valid IP address!"))
    );
    let (s, b) = app
        .post(
            BL,
            &json!({"user_id": u, "ip": "192.168.1.9", "comments": "abuse"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let id = b["id"].as_i64().unwrap();
    let (s, _) = app
        .post(
            BL,
            &json!({"user_id": u, "ip": "192.168.1.9", "comments": "abuse"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 409);
    // An IPv6 client can be blocked too (the gateway sees whatever the socket says).
    let (s, b) = app
        .post(
            BL,
            &json!({"user_id": u, "ip": "2001:db8::7", "comments": "v6"}),
            Some(&p.token),
        )
        .await;
    assert_eq!((s, b["ip"].as_str()), (201, Some("2001:db8::7")));
    let (_, list) = app.get(BL, Some(&p.token)).await;
    assert_eq!(list["total"], 2);
    assert_eq!(
        fixtures::delete(&app, &format!("{BL}/{id}"), Some(&p.token)).await,
        204
    );
    assert_eq!(
        fixtures::delete(&app, &format!("{BL}/{id}"), Some(&p.token)).await,
        404
    );
    let (_, list) = app.get(BL, Some(&p.token)).await;
    assert_eq!(list["total"], 1);
    assert_eq!(
        fixtures::count(
            &app,
            "SELECT count(*) FROM audit_log WHERE action LIKE 'blocked_ips.%'"
        )
        .await,
        3
    );
}

#[tokio::test]
async fn another_partner_reaches_none_of_it() {
    let app = TestApp::spawn().await;
    let a = fixtures::partner(&app, "alpha").await;
    let b = fixtures::partner(&app, "beta").await;
    let ua = fixtures::user(&app, a.id, 1).await;
    let (_, w) = app
        .post(
            WL,
            &json!({"user_id": ua, "ip": "10.0.0.1", "comments": "c"}),
            Some(&a.token),
        )
        .await;
    let (_, bl) = app
        .post(
            BL,
            &json!({"user_id": ua, "ip": "10.0.0.9", "comments": "c"}),
            Some(&a.token),
        )
        .await;

    for path in [WL, BL] {
        let (s, e) = app
            .post(
                path,
                &json!({"user_id": ua, "ip": "10.0.0.5", "comments": "c"}),
                Some(&b.token),
            )
            .await;
        assert_eq!(s, 404, "{path}: {e}");
        let (_, list): (u16, Value) = app
            .get(&format!("{path}?user_id={ua}"), Some(&b.token))
            .await;
        assert_eq!(list["total"], 0, "{path}");
    }
    assert_eq!(
        fixtures::delete(&app, &format!("{WL}/{}", w["id"]), Some(&b.token)).await,
        404
    );
    assert_eq!(
        fixtures::delete(&app, &format!("{BL}/{}", bl["id"]), Some(&b.token)).await,
        404
    );
    assert_eq!(
        app.get(
            &format!("/api/v1/partner/users/{ua}/ip-whitelist"),
            Some(&b.token)
        )
        .await
        .0,
        404
    );
    assert_eq!(app.get(WL, Some(&app.superadmin_token())).await.0, 403);
    assert_eq!(app.get(BL, None).await.0, 401);
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM ip_whitelist").await
            + fixtures::count(&app, "SELECT count(*) FROM blocked_ips").await,
        2
    );
}
