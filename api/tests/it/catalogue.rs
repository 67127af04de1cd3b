//! The super admin's catalogue (API's, Test API's) and the partner-visible summary.

use serde_json::json;

use crate::{
    common::TestApp,
    fixtures::{self, api_json, count, delete, put},
};

#[tokio::test]
async fn catalogue_add_edit_delete_with_the_spec_rules() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    let (s, a) = app
        .post(
            "/api/v1/superadmin/apis",
            &api_json("pan_check", 300),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 201, "{a}");
    assert_eq!(a["service"], "pan_check");
    assert_eq!(a["response_code"], json!({"status": "ok"}));
    assert_eq!(
        a["pid"], "PID1001",
        "a generated PID continues the numbering"
    );
    assert_eq!(
        (
            a["status"].as_bool(),
            a["is_hidden"].as_bool(),
            a["is_sandbox"].as_bool()
        ),
        (Some(true), Some(false), Some(false))
    );
    let id = a["id"].as_i64().unwrap();

    // Unique service.
    let (s, b) = app
        .post(
            "/api/v1/superadmin/apis",
            &api_json("pan_check", 1),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 409, "{b}");
    // The response code must be an object; a string holding one is fine.
    for bad in [json!("[1,2]"), json!("not json"), json!([1]), json!(42)] {
        let mut body = api_json("aadhaar", 100);
        body["response_code"] = bad;
        let (s, b) = app
            .post("/api/v1/superadmin/apis", &body, Some(&admin))
            .await;
        assert_eq!(s, 422);
        assert_eq!(
            b["error"]["fields"]["response_code"],
            r#"please enter response code as object ex: {"key":"value"}"#
        );
    }
    let mut body = api_json("aadhaar", 100);
    body["response_code"] = json!("{\"key\":\"value\"}");
    body["required_fields"] = json!("aadhaar_number, name");
    body["param_name"] = json!("aadhaar_number");
    let (s, b) = app
        .post("/api/v1/superadmin/apis", &body, Some(&admin))
        .await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(b["required_fields"], json!(["aadhaar_number", "name"]));
    assert_eq!(b["pid"], "PID1002");

    // Required fields; parameter names are optional.
    let (s, b) = app
        .post("/api/v1/superadmin/apis", &json!({}), Some(&admin))
        .await;
    assert_eq!(s, 422);
    for f in [
        "name",
        "category",
        "service",
        "description",
        "endpoint",
        "documentation_link",
        "curl_code",
        "response_code",
    ] {
        assert!(b["error"]["fields"][f].is_string(), "{f}: {b}");
    }
    assert!(b["error"]["fields"]["param_name"].is_null());
    assert_eq!(b["error"]["fields"]["name"], "Name is required");
    let mut body = api_json("bad_method", 1);
    body["method"] = json!("delete");
    body["default_price_paise"] = json!(-1);
    let (_, b) = app
        .post("/api/v1/superadmin/apis", &body, Some(&admin))
        .await;
    assert_eq!(b["error"]["fields"]["method"], "Method must be get or post");
    assert_eq!(
        b["error"]["fields"]["default_price_paise"],
        "Price cannot be negative"
    );

    // Edit: every field replaced, PID kept, price change audited.
    let mut edit = api_json("pan_check", 450);
    edit["name"] = json!("PAN Check v2");
    edit["method"] = json!("GET");
    edit["is_new"] = json!(true);
    let (s, e) = put(
        &app,
        &format!("/api/v1/superadmin/apis/{id}"),
        &edit,
        Some(&admin),
    )
    .await;
    assert_eq!(s, 200, "{e}");
    assert_eq!(
        (
            e["name"].as_str(),
            e["method"].as_str(),
            e["pid"].as_str(),
            e["default_price_paise"].as_i64()
        ),
        (
            Some("PAN Check v2"),
            Some("get"),
            Some("PID1001"),
            Some(450)
        )
    );
    let audit: (serde_json::Value, serde_json::Value) = sqlx::query_as(
        "SELECT before, after FROM audit_log WHERE action = 'api.update' AND entity_id = $1",
    )
    .bind(id.to_string())
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(
        (
            audit.0["default_price_paise"].as_i64(),
            audit.1["default_price_paise"].as_i64()
        ),
        (Some(300), Some(450))
    );
    let (s, _) = put(
        &app,
        &format!("/api/v1/superadmin/apis/{id}"),
        &api_json("aadhaar", 1),
        Some(&admin),
    )
    .await;
    assert_eq!(s, 409, "renaming onto a taken service");
    let (s, _) = put(
        &app,
        "/api/v1/superadmin/apis/99999",
        &api_json("nope_x", 1),
        Some(&admin),
    )
    .await;
    assert_eq!(s, 404);

    // Delete, with its prices.
    fixtures::slab_price(&app, "pro", id, 100).await;
    assert_eq!(
        delete(&app, &format!("/api/v1/superadmin/apis/{id}"), Some(&admin)).await,
        204
    );
    assert_eq!(
        delete(&app, &format!("/api/v1/superadmin/apis/{id}"), Some(&admin)).await,
        404
    );
    assert_eq!(
        app.get(&format!("/api/v1/superadmin/apis/{id}"), Some(&admin))
            .await
            .0,
        404
    );
    assert_eq!(count(&app, "SELECT count(*) FROM plan_prices").await, 0);
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM audit_log WHERE action = 'api.delete'"
        )
        .await,
        1
    );
}

#[tokio::test]
async fn catalogue_list_pages_ten_by_default_and_filters() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    for i in 0..23 {
        fixtures::api(&app, &format!("svc_{i:02}"), 100 + i).await;
    }
    let (s, page) = app.get("/api/v1/superadmin/apis", Some(&admin)).await;
    assert_eq!(s, 200);
    assert_eq!(
        (
            page["per_page"].as_i64(),
            page["total"].as_i64(),
            page["pages"].as_i64()
        ),
        (Some(10), Some(23), Some(3))
    );
    assert_eq!(page["items"].as_array().unwrap().len(), 10);
    let (_, last) = app
        .get("/api/v1/superadmin/apis?page=3", Some(&admin))
        .await;
    assert_eq!(last["items"].as_array().unwrap().len(), 3);
    let (_, found) = app
        .get("/api/v1/superadmin/apis?q=svc_1", Some(&admin))
        .await;
    assert_eq!(found["total"], 10, "svc_10..svc_19");
    let (_, none) = app
        .get("/api/v1/superadmin/apis?category=banking", Some(&admin))
        .await;
    assert_eq!(none["total"], 0);
    let (_, all) = app
        .get("/api/v1/superadmin/apis?category=All", Some(&admin))
        .await;
    assert_eq!(all["total"], 23);

    // The partner-visible summary leaves out hidden and inactive APIs.
    sqlx::query("UPDATE api_catalogue SET is_hidden = true WHERE service = 'svc_00'")
        .execute(&app.db.pool)
        .await
        .unwrap();
    sqlx::query("UPDATE api_catalogue SET status = false WHERE service = 'svc_01'")
        .execute(&app.db.pool)
        .await
        .unwrap();
    let p = fixtures::partner(&app, "viewer").await;
    let (s, cat) = app.get("/api/v1/catalogue", Some(&p.token)).await;
    assert_eq!(s, 200);
    assert_eq!(cat["items"].as_array().unwrap().len(), 21);
    assert_eq!(cat["categories"], json!(["identity"]));
    assert_eq!(app.get("/api/v1/catalogue", None).await.0, 401);
    assert_eq!(
        app.get("/api/v1/superadmin/apis", Some(&p.token)).await.0,
        403
    );
    assert_eq!(
        app.post(
            "/api/v1/superadmin/apis",
            &api_json("x_y", 1),
            Some(&p.token)
        )
        .await
        .0,
        403
    );
}

#[tokio::test]
async fn catalogue_sandbox_list_add_and_remove() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    let a = fixtures::api(&app, "pan_basic", 100).await;
    let b = fixtures::api(&app, "gst_basic", 100).await;
    let (s, added) = app
        .post(
            "/api/v1/superadmin/test-apis",
            &json!({"service": "pan_basic"}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 201, "{added}");
    assert_eq!(added["is_sandbox"], true);
    let (s, _) = app
        .post(
            "/api/v1/superadmin/test-apis",
            &json!({"api_id": b}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 201);
    let (s, _) = app
        .post(
            "/api/v1/superadmin/test-apis",
            &json!({"api_id": b}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 201, "adding twice is harmless");
    let (_, list) = app.get("/api/v1/superadmin/test-apis", Some(&admin)).await;
    assert_eq!(list["total"], 2);
    assert_eq!(
        delete(
            &app,
            &format!("/api/v1/superadmin/test-apis/{a}"),
            Some(&admin)
        )
        .await,
        204
    );
    let (_, list) = app.get("/api/v1/superadmin/test-apis", Some(&admin)).await;
    assert_eq!(list["total"], 1);
    assert_eq!(list["items"][0]["service"], "gst_basic");
    let (s, b) = app
        .post(
            "/api/v1/superadmin/test-apis",
            &json!({"service": "nope"}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 422, "{b}");
    assert_eq!(
        app.post(
            "/api/v1/superadmin/test-apis",
            &json!({"api_id": 9999}),
            Some(&admin)
        )
        .await
        .0,
        404
    );
    // Still in the catalogue.
    assert_eq!(count(&app, "SELECT count(*) FROM api_catalogue").await, 2);
}
