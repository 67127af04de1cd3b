//! Issue 22, finding 3: a portal session belongs to the site that issued it. `?subdomain=`
//! never beats a partner's Host, and a user's token is refused on another partner's host.

use serde_json::{Value, json};

use crate::{
    common::TestApp,
    portal::{PASSWORD, site, token},
};

async fn send(
    app: &TestApp,
    method: &str,
    path: &str,
    host: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut req = app
        .client
        .request(method.parse().unwrap(), app.url(path))
        .header("host", host);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    let res = req.send().await.unwrap();
    (
        res.status().as_u16(),
        res.json().await.unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn a_portal_session_is_bound_to_its_site() {
    let app = TestApp::spawn_with(|c| c.rate_limits.sign_in = 1000).await;
    let a = site(&app, "pasite").await;
    let b = site(&app, "pbsite").await;

    // The attack: A's user, A's site in the query, B's Host. The Host wins: no session.
    let login = json!({"email": a.email, "password": PASSWORD, "captcha": {}});
    let (st, body) = send(
        &app,
        "POST",
        "/api/v1/me/login?subdomain=pasite",
        "pbsite.localhost",
        None,
        Some(login.clone()),
    )
    .await;
    assert_eq!(st, 401, "{body}");
    assert!(body.get("token").is_none());
    // The public description follows the Host too.
    let (st, body) = send(
        &app,
        "GET",
        "/api/v1/public/portal?subdomain=pasite",
        "pbsite.localhost",
        None,
        None,
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(body["subdomain"], "pbsite", "{body}");
    // On A's own host A's user signs in; the token works there.
    let (st, body) = send(
        &app,
        "POST",
        "/api/v1/me/login",
        "pasite.localhost",
        None,
        Some(login),
    )
    .await;
    assert_eq!(st, 200, "{body}");
    let a_token = body["token"].as_str().unwrap().to_owned();
    assert_eq!(
        send(
            &app,
            "GET",
            "/api/v1/me",
            "pasite.localhost",
            Some(&a_token),
            None
        )
        .await
        .0,
        200
    );

    // B's user's token (issued through the query, locally) is refused on A's host, and A's on
    // B's; each works on its own.
    let b_token = token(&app, "pbsite", &b.email).await;
    for (tok, host) in [
        (&b_token, "pasite.localhost"),
        (&a_token, "pbsite.localhost"),
    ] {
        for path in ["/api/v1/me", "/api/v1/me/api-keys", "/api/v1/exports"] {
            let (st, body) = send(&app, "GET", path, host, Some(tok), None).await;
            assert_eq!(st, 401, "{path} on {host}: {body}");
        }
    }
    assert_eq!(
        send(
            &app,
            "GET",
            "/api/v1/me",
            "pbsite.localhost",
            Some(&b_token),
            None
        )
        .await
        .0,
        200
    );
    // Local runs and the tests: the platform's own address carries no site.
    assert_eq!(app.get("/api/v1/me", Some(&b_token)).await.0, 200);
}
