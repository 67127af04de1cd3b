//! Each of the super admin's client settings (client details, Settings and API Status), set
//! through its endpoint, takes effect where it matters: at the metered gateway for the client's
//! users (Test api, the API base URL and its status, User Status, Restrict ALL APIs, hidden APIs
//! and categories) and on the client's site (Batch Processing).

use serde_json::{Value, json};

use crate::{
    auth_fixtures::put,
    common::TestApp,
    fixtures,
    gateway_support::{self as gs, Upstream},
};

async fn patch(app: &TestApp, path: &str, body: &Value, token: &str) -> (u16, Value) {
    let res = app
        .client
        .patch(app.url(path))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .unwrap();
    let s = res.status().as_u16();
    (s, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn every_client_setting_is_honoured_by_the_gateway() {
    let platform = Upstream::start().await;
    let app = TestApp::spawn_with(|c| c.upstream_base_url = platform.base.clone()).await;
    let own = Upstream::start().await;
    // Starts on the client's own base URL (switched on), Test api off, funded.
    let s = gs::live(&app, "acme", &own.base, "pan_check", 100, 10_000, 10_000).await;
    let other = gs::live(&app, "other", &own.base, "gst_check", 100, 10_000, 10_000).await;
    let admin = app.superadmin_token();
    let settings = format!("/api/v1/superadmin/clients/{}/settings", s.partner_id);
    let visibility = format!("/api/v1/superadmin/clients/{}/visibility", s.partner_id);
    let body = json!({"id_number": "ABCDE1234F"});
    let call = |service: &'static str| {
        let (app, key, body) = (&app, s.key.clone(), body.clone());
        async move { gs::verify(app, &app.base, &key, service, &body).await }
    };
    let offered = || async {
        let res = app
            .client
            .get(app.url("/api/v1/verify"))
            .header("x-api-key", &s.key)
            .send()
            .await
            .unwrap();
        let list: Value = res.json().await.unwrap();
        let mut services = list
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|o| o["service"].as_str().unwrap().to_owned())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        services.sort();
        services
    };
    let set = |b: Value| {
        let (app, path, admin) = (&app, settings.clone(), admin.clone());
        async move {
            let (st, r) = patch(app, &path, &b, &admin).await;
            assert_eq!(st, 200, "{b}: {r}");
        }
    };

    // The client's own base URL, while its status is on.
    let (st, h, _) = call("pan_check").await;
    assert_eq!(
        (st, &h["x-charged-paise"]),
        (200, &"100".parse::<reqwest::header::HeaderValue>().unwrap())
    );
    assert_eq!((own.hits(), platform.hits()), (1, 0));
    // Status off: the platform's upstream, though the URL is kept.
    set(json!({"base_url_active": false})).await;
    assert_eq!(call("pan_check").await.0, 200);
    assert_eq!((own.hits(), platform.hits()), (1, 1));
    // A new URL with the status on: there.
    let moved = Upstream::start().await;
    set(json!({"base_url": moved.base, "base_url_active": true})).await;
    assert_eq!(call("pan_check").await.0, 200);
    assert_eq!((own.hits(), platform.hits(), moved.hits()), (1, 1, 1));

    // Test api: the catalogue's sample and nothing upstream; free, as the partner does not
    // charge its sandbox calls.
    set(json!({"test_api": true})).await;
    let (st, h, b) = call("pan_check").await;
    assert_eq!(
        (st, crate::gateway_support::sample_of(b)),
        (200, json!({"status": "ok"}))
    );
    assert_eq!(h["x-charged-paise"], "0");
    assert_eq!(moved.hits(), 1);
    set(json!({"test_api": false})).await;
    assert_eq!(call("pan_check").await.0, 200);
    assert_eq!(moved.hits(), 2);

    // User Status false: every call of the client's users is refused (and its sign-in).
    set(json!({"is_active": false})).await;
    assert_eq!(call("pan_check").await.0, 403);
    set(json!({"is_active": true})).await;
    assert_eq!(call("pan_check").await.0, 200);

    // Restrict ALL APIs: refused, and nothing is offered.
    set(json!({"restrict_all_apis": true})).await;
    assert_eq!(call("pan_check").await.0, 403);
    assert!(offered().await.is_empty());
    set(json!({"restrict_all_apis": false})).await;
    assert_eq!(offered().await, vec!["gst_check", "pan_check"]);

    // API Status: a hidden API is refused 403 for the client's users, and not offered; the
    // partner cannot show it again from its own My APIs.
    let (st, _) = patch(
        &app,
        &visibility,
        &json!({"apis": {"pan_check": false}, "categories": {}}),
        &admin,
    )
    .await;
    assert_eq!(st, 200);
    let (st, _, b) = call("pan_check").await;
    assert_eq!(st, 403, "{b}");
    assert_eq!(offered().await, vec!["gst_check"]);
    let partner_token = fixtures::partner_token(&app, s.partner_id, "acme").await;
    let (st, _) = patch(
        &app,
        "/api/v1/partner/visibility",
        &json!({"apis": {"pan_check": true}, "categories": {}}),
        &partner_token,
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(
        call("pan_check").await.0,
        403,
        "the super admin's Hide is over the partner's Show"
    );
    // Another client's users are untouched.
    assert_eq!(
        gs::verify(&app, &app.base, &other.key, "gst_check", &body)
            .await
            .0,
        200
    );
    patch(
        &app,
        &visibility,
        &json!({"apis": {"pan_check": true}, "categories": {}}),
        &admin,
    )
    .await;
    assert_eq!(call("pan_check").await.0, 200);
    // A hidden category hides every API in it.
    let (st, _) = patch(
        &app,
        &visibility,
        &json!({"apis": {}, "categories": {"identity": false}}),
        &admin,
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(call("pan_check").await.0, 403);
    assert_eq!(call("gst_check").await.0, 403);
    assert!(offered().await.is_empty());
    patch(
        &app,
        &visibility,
        &json!({"apis": {}, "categories": {"identity": true}}),
        &admin,
    )
    .await;
    assert_eq!(call("pan_check").await.0, 200);
    gs::audit(&app).await;
}

#[tokio::test]
async fn batch_processing_is_what_the_clients_site_reads() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    let p = fixtures::partner(&app, "alpha").await;
    let (st, r) = put(
        &app,
        "/api/v1/partner/subdomain",
        &json!({"subdomain": "alpha-kyc"}),
        Some(&p.token),
    )
    .await;
    assert_eq!(st, 202, "{r}");
    app.run_pending_jobs().await;
    let site = || async {
        app.get("/api/v1/public/branding?subdomain=alpha-kyc", None)
            .await
            .1["batch_processing"]
            .clone()
    };
    assert_eq!(site().await, json!(false));
    let path = format!("/api/v1/superadmin/clients/{}/settings", p.id);
    assert_eq!(
        patch(&app, &path, &json!({"batch_processing": true}), &admin)
            .await
            .0,
        200
    );
    assert_eq!(site().await, json!(true));
    assert_eq!(
        patch(&app, &path, &json!({"batch_processing": false}), &admin)
            .await
            .0,
        200
    );
    assert_eq!(site().await, json!(false));
}

/// Issue 22, finding 2: the client API base URL may not reach the platform itself, the private
/// network or a metadata service, neither when saved nor at the call (a URL stored before the
/// check, or a name that moved), and `UPSTREAM_BASE_URL` itself stays trusted.
#[tokio::test]
async fn the_client_base_url_reaches_public_addresses_only() {
    let platform = Upstream::start().await;
    let app = TestApp::spawn_with(|c| {
        c.upstream_base_url = platform.base.clone();
        c.upstream_allow_private = false;
    })
    .await;
    let own = Upstream::start().await;
    // `own` listens on loopback, as the platform's /metrics did in the attack.
    let s = gs::live(&app, "acme", &own.base, "pan_check", 100, 10_000, 10_000).await;
    let admin = app.superadmin_token();
    let settings = format!("/api/v1/superadmin/clients/{}/settings", s.partner_id);
    for bad in [
        format!("{}/metrics?x=", app.base),
        "http://169.254.169.254/latest".to_owned(),
        "http://10.0.0.1".to_owned(),
        "http://[::1]:8080".to_owned(),
        "http://localhost:8181".to_owned(),
        own.base.clone(),
    ] {
        let (st, b) = patch(
            &app,
            &settings,
            &json!({"base_url": bad, "base_url_active": true}),
            &admin,
        )
        .await;
        assert_eq!(st, 422, "{bad} was accepted: {b}");
        assert_eq!(
            b["error"]["fields"]["base_url"],
            "Base URL must be a public server, not a local or private address",
            "{bad}"
        );
    }

    // Stored before the check existed: the call is refused before anything is sent, refunded.
    let body = json!({"id_number": "ABCDE1234F"});
    let before = gs::balance(&app, s.user_wallet).await;
    let (st, h, b) = gs::verify(&app, &app.base, &s.key, "pan_check", &body).await;
    assert_eq!(st, 502, "{b}");
    assert_eq!(b["error"]["code"], "upstream_unreachable");
    assert_eq!(h["x-charged-paise"], "0");
    assert_eq!(own.hits(), 0, "nothing reached the internal address");
    assert_eq!(gs::balance(&app, s.user_wallet).await, before);
    // A name is checked when the connection is made, too.
    let port = own.base.rsplit(':').next().unwrap();
    sqlx::query("UPDATE partners SET api_base_url = $2 WHERE id = $1")
        .bind(s.partner_id)
        .bind(format!("http://localhost:{port}"))
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (st, _, b) = gs::verify(&app, &app.base, &s.key, "pan_check", &body).await;
    assert_eq!(
        (st, &b["error"]["code"]),
        (502, &json!("upstream_unreachable"))
    );
    assert_eq!(own.hits(), 0);

    // The platform's own upstream is trusted, on loopback or not.
    let (st, b) = patch(&app, &settings, &json!({"base_url_active": false}), &admin).await;
    assert_eq!(st, 200, "{b}");
    let (st, _, b) = gs::verify(&app, &app.base, &s.key, "pan_check", &body).await;
    assert_eq!(st, 200, "{b}");
    assert_eq!(platform.hits(), 1);
    let (st, b) = patch(
        &app,
        &settings,
        &json!({"base_url": format!("{}/v2", platform.base), "base_url_active": true}),
        &admin,
    )
    .await;
    assert_eq!(st, 200, "the trusted upstream's origin is accepted: {b}");
}
