//! The server's frame: probes, the OpenAPI document, the error shape, the web app fallback.

use crate::common::TestApp;
use serde_json::json;

#[tokio::test]
async fn probes_answer() {
    let app = TestApp::spawn().await;
    let (s, b) = app.get("/healthz", None).await;
    assert_eq!((s, b), (200, json!({"status": "ok"})));
    let (s, b) = app.get("/readyz", None).await;
    assert_eq!(s, 200);
    assert_eq!(b["postgres"], true);
}

#[tokio::test]
async fn readyz_is_503_when_postgres_is_gone() {
    let app = TestApp::spawn().await;
    app.db.pool.close().await;
    let (s, b) = app.get("/readyz", None).await;
    assert_eq!(s, 503);
    assert_eq!(b["postgres"], false);
}

#[tokio::test]
async fn openapi_document_lists_the_paths() {
    let app = TestApp::spawn().await;
    let (s, doc) = app.get("/api/openapi.json", None).await;
    assert_eq!(s, 200);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    for path in [
        "/healthz",
        "/readyz",
        "/api/v1/public/contact",
        "/api/v1/jobs/{id}",
    ] {
        assert!(
            doc["paths"].get(path).is_some(),
            "{path} missing from the OpenAPI document"
        );
    }
    // Every security scheme a path names is declared, and a server is given (issue 24).
    let schemes = &doc["components"]["securitySchemes"];
    assert_eq!(schemes["api_key"]["type"], "apiKey");
    assert_eq!(schemes["api_key"]["in"], "header");
    assert_eq!(schemes["api_key"]["name"], "X-Api-Key");
    assert_eq!(schemes["bearer"]["type"], "http");
    assert_eq!(schemes["bearer"]["scheme"], "bearer");
    assert!(doc["servers"][0]["url"].is_string(), "no servers");
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            for req in op["security"].as_array().into_iter().flatten() {
                for name in req.as_object().unwrap().keys() {
                    assert!(
                        schemes.get(name).is_some(),
                        "{method} {path} names the undeclared scheme {name}"
                    );
                }
            }
        }
    }
    // Every schema the document names is in it: clients and fuzzers cannot resolve a dangling $ref.
    let text = doc.to_string();
    for name in text
        .split("#/components/schemas/")
        .skip(1)
        .map(|r| r.split('"').next().unwrap())
    {
        assert!(
            doc["components"]["schemas"].get(name).is_some(),
            "schema {name} is referenced but missing"
        );
    }
    let html = app.client.get(app.url("/api/docs")).send().await.unwrap();
    assert_eq!(html.status(), 200);
    assert!(html.text().await.unwrap().contains("/api/openapi.json"));
}

#[tokio::test]
async fn unknown_api_paths_are_json_404_not_the_web_app() {
    let app = TestApp::spawn().await;
    let (s, b) = app.get("/api/v1/no-such-thing", None).await;
    assert_eq!(s, 404);
    assert_eq!(b["error"]["code"], "not_found");
}

#[tokio::test]
async fn malformed_json_is_400_in_the_contract_shape() {
    let app = TestApp::spawn().await;
    let res = app
        .client
        .post(app.url("/api/v1/public/contact"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let b: serde_json::Value = res.json().await.unwrap();
    assert_eq!(b["error"]["code"], "bad_request");
    let (s, b) = app
        .post("/api/v1/public/contact", &json!({"name": 5}), None)
        .await;
    assert_eq!(s, 422, "{b}");
}

#[tokio::test]
async fn job_state_needs_a_session_and_a_real_id() {
    let app = TestApp::spawn().await;
    let (s, _) = app.get("/api/v1/jobs/01ABC", None).await;
    assert_eq!(s, 401);
    let (s, _) = app.get("/api/v1/jobs/01ABC", Some("garbage")).await;
    assert_eq!(s, 401);
    let (s, b) = app
        .get("/api/v1/jobs/01ABC", Some(&app.superadmin_token()))
        .await;
    assert_eq!(s, 404, "{b}");
}

#[tokio::test]
async fn non_api_paths_answer_the_web_app() {
    let dist = testkit::scratch_dir("dist");
    std::fs::write(
        dist.join("index.html"),
        "<!doctype html><div id=root>spa-index</div>",
    )
    .unwrap();
    std::fs::create_dir_all(dist.join("assets")).unwrap();
    std::fs::write(dist.join("assets/app.js"), "console.log(1)").unwrap();
    let app = TestApp::spawn_with(|c| c.web_dist = dist.clone()).await;
    for path in [
        "/",
        "/dashboard",
        "/superadmin/clients",
        "/verify-email/abc",
    ] {
        let res = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(res.status(), 200, "{path}");
        assert!(res.text().await.unwrap().contains("spa-index"), "{path}");
    }
    let js = app
        .client
        .get(app.url("/assets/app.js"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(js, "console.log(1)");
}

#[tokio::test]
async fn nul_characters_in_queries_and_bodies_are_400_not_500() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    for path in [
        "/api/v1/superadmin/apis?category=%00",
        "/api/v1/superadmin/plans/standard/prices?category=a%00b",
    ] {
        let (s, b) = app.get(path, Some(&admin)).await;
        assert_eq!(s, 400, "{path}: {b}");
        assert_eq!(b["error"]["code"], "bad_request");
    }
    // A NUL inside JSON text reaches no column: refused as bad input wherever it is.
    let (s, b) = app
        .get("/api/v1/superadmin/clients?first_name=%00", Some(&admin))
        .await;
    assert_eq!(s, 400, "{b}");
    let (s, b) = app
        .post(
            "/api/v1/public/contact",
            &json!({"name": "A\u{0}", "email": "a@b.in", "mobile": "9876543210", "message": "hi"}),
            None,
        )
        .await;
    assert!(s == 400 || s == 422, "{s} {b}");
}
