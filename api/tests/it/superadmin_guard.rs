//! The super-admin guard over the whole console: every operation the OpenAPI document lists
//! under `/api/v1/superadmin` refuses a partner's token with 403 and an anonymous call with 401.
//! The paths are read from the document, so a route added later is covered without editing this.

use serde_json::{Value, json};

use crate::{common::TestApp, fixtures};

/// A concrete value for each path parameter, valid enough that the handler's own checks would
/// pass: only the guard may be what refuses the call.
fn fill(path: &str, client: i64, user: i64) -> String {
    let mut out = String::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('}').unwrap() + start;
        let value = match &rest[start + 1..end] {
            "id" => client.to_string(),
            "user_id" => user.to_string(),
            "kind" => "api".into(),
            "plan" => "default".into(),
            "service" => "pan_verify".into(),
            other => panic!(
                "path parameter {{{other}}} of {path}: give it a value in superadmin_guard::fill"
            ),
        };
        out.push_str(&value);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

#[tokio::test]
async fn a_partner_token_is_refused_on_every_super_admin_operation() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let user = fixtures::user(&app, p.id, 1).await;
    let (s, doc) = app.get("/api/openapi.json", None).await;
    assert_eq!(s, 200);

    // Sign-in is the one super-admin operation open to anybody.
    let public = [("post", "/api/v1/superadmin/login")];
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.starts_with("/api/v1/superadmin/") {
            continue;
        }
        for method in item
            .as_object()
            .unwrap()
            .keys()
            .filter(|m| ["get", "post", "put", "patch", "delete"].contains(&m.as_str()))
        {
            if public.contains(&(method.as_str(), path.as_str())) {
                continue;
            }
            let url = app.url(&fill(path, p.id, user));
            let m = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            for (token, want) in [(Some(p.token.as_str()), 403), (None, 401)] {
                let mut req = app.client.request(m.clone(), &url).json(&json!({}));
                if let Some(t) = token {
                    req = req.bearer_auth(t);
                }
                let res = req.send().await.unwrap();
                let status = res.status().as_u16();
                let body: Value = res.json().await.unwrap_or(Value::Null);
                assert_eq!(
                    status,
                    want,
                    "{} {path} with {}: {body}",
                    method.to_uppercase(),
                    if token.is_some() {
                        "a partner token"
                    } else {
                        "no token"
                    }
                );
                assert_eq!(
                    body["error"]["code"],
                    if want == 403 {
                        "forbidden"
                    } else {
                        "unauthorized"
                    },
                    "{} {path}: {body}",
                    method.to_uppercase()
                );
            }
            checked += 1;
        }
    }
    assert!(
        checked >= 40,
        "only {checked} super-admin operations in the document"
    );
    // Nothing a refused call could have written.
    assert_eq!(
        fixtures::count(
            &app,
            "SELECT count(*) FROM audit_log WHERE actor_kind = 'superadmin'"
        )
        .await,
        0
    );
}
