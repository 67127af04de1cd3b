//! Plan slabs, a client's customised plan and plan choice, and the partner's My Plan;
//! `bulk_update_prices` run by a real worker.

use std::time::Duration;

use serde_json::json;

use crate::{
    common::TestApp,
    fixtures::{self, count, delete, put},
};

async fn slab(app: &TestApp, plan: &str, service: &str) -> Option<i64> {
    sqlx::query_scalar("SELECT pl.price_paise FROM plan_prices pl JOIN api_catalogue c ON c.id = pl.api_id WHERE pl.plan = $1 AND c.service = $2")
        .bind(plan)
        .bind(service)
        .fetch_optional(&app.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn plan_bulk_update_prices_is_applied_by_a_worker_in_one_go() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    for (i, s) in ["pan_a", "pan_b", "pan_c"].iter().enumerate() {
        let id = fixtures::api(&app, s, 1000).await;
        fixtures::slab_price(&app, "standard", id, 750 + i as i64).await;
    }
    let body = json!({"prices": [{"service": "pan_a", "price_paise": 700}, {"service": "pan_b", "price_paise": 650}, {"service": "pan_c", "price_paise": 0}]});
    let (s, b) = put(
        &app,
        "/api/v1/superadmin/plans/standard/prices",
        &body,
        Some(&admin),
    )
    .await;
    assert_eq!(s, 202, "{b}");
    let job_id = b["job_id"].as_str().unwrap().to_owned();
    // Queued, not applied yet.
    assert_eq!(slab(&app, "standard", "pan_a").await, Some(750));
    app.run_pending_jobs().await;
    let done = app
        .wait_for_job(&job_id, "done", Duration::from_secs(30))
        .await;
    assert_eq!(done["kind"], "bulk_update_prices");
    assert_eq!(
        (
            slab(&app, "standard", "pan_a").await,
            slab(&app, "standard", "pan_b").await,
            slab(&app, "standard", "pan_c").await
        ),
        (Some(700), Some(650), Some(0))
    );
    let audit: Vec<(String, serde_json::Value, serde_json::Value)> =
        sqlx::query_as("SELECT entity_id, before, after FROM audit_log WHERE action = 'plan_price.set' ORDER BY entity_id").fetch_all(&app.db.pool).await.unwrap();
    assert_eq!(audit.len(), 3);
    assert_eq!(audit[0].0, "standard:pan_a");
    assert_eq!(
        (
            audit[0].1["price_paise"].as_i64(),
            audit[0].2["price_paise"].as_i64()
        ),
        (Some(750), Some(700))
    );
    let (_, list) = app
        .get("/api/v1/superadmin/plans/standard/prices", Some(&admin))
        .await;
    assert_eq!(list["total"], 3);
    assert_eq!(list["items"][0]["service"], "pan_a");
    assert_eq!(list["items"][0]["price_paise"], 700);
}

#[tokio::test]
async fn plan_bulk_update_is_all_or_nothing() {
    let app = TestApp::spawn_with(|c| c.job_retry_base = Duration::from_millis(50)).await;
    let admin = app.superadmin_token();
    fixtures::api(&app, "keep_a", 1000).await;
    let doomed = fixtures::api(&app, "doomed_b", 1000).await;
    let body = json!({"prices": [{"service": "keep_a", "price_paise": 1}, {"service": "doomed_b", "price_paise": 2}]});
    let (s, b) = put(
        &app,
        "/api/v1/superadmin/plans/pro/prices",
        &body,
        Some(&admin),
    )
    .await;
    assert_eq!(s, 202);
    // The second service disappears before the worker runs: the whole list must fail.
    sqlx::query("DELETE FROM api_catalogue WHERE id = $1")
        .bind(doomed)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let worker = app.start_worker("bulk-atomic");
    let failed = app
        .wait_for_job(
            b["job_id"].as_str().unwrap(),
            "failed",
            Duration::from_secs(30),
        )
        .await;
    worker.stop().await;
    assert!(
        failed["last_error"]
            .as_str()
            .unwrap()
            .contains("Unknown service"),
        "{failed}"
    );
    assert_eq!(
        slab(&app, "pro", "keep_a").await,
        None,
        "no price of the list was applied"
    );
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM audit_log WHERE action LIKE 'plan_price%'"
        )
        .await,
        0
    );
}

#[tokio::test]
async fn plan_price_lists_validate_before_queueing() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    let id = fixtures::api(&app, "pan_a", 1000).await;
    fixtures::slab_price(&app, "premium", id, 600).await;
    // One price is applied at once.
    let (s, b) = put(
        &app,
        "/api/v1/superadmin/plans/premium/prices",
        &json!({"prices": [{"service": "pan_a", "price_paise": 550}]}),
        Some(&admin),
    )
    .await;
    assert_eq!((s, b["changed"].as_i64()), (200, Some(1)), "{b}");
    assert_eq!(slab(&app, "premium", "pan_a").await, Some(550));
    // Mistakes answer 422 at once and queue nothing.
    for (body, field, msg) in [
        (
            json!({"prices": [{"service": "pan_a", "price_paise": -1}, {"service": "pan_a", "price_paise": 5}]}),
            "prices[0].price_paise",
            "Price cannot be negative",
        ),
        (
            json!({"prices": [{"service": "pan_a", "price_paise": "5"}]}),
            "prices[0].price_paise",
            "Price must be a number",
        ),
        (
            json!({"prices": [{"service": "pan_a", "price_paise": 1}, {"service": "nope", "price_paise": 5}]}),
            "prices[1].service",
            "Unknown service: nope",
        ),
        (
            json!({"prices": [{"service": "pan_a", "price_paise": 1}, {"service": "pan_a", "price_paise": 5}]}),
            "prices[1].service",
            "pan_a is listed twice",
        ),
        (json!({"prices": []}), "prices", "Add at least one price"),
    ] {
        let (s, b) = put(
            &app,
            "/api/v1/superadmin/plans/premium/prices",
            &body,
            Some(&admin),
        )
        .await;
        assert_eq!(s, 422, "{body}");
        assert_eq!(b["error"]["fields"][field], msg, "{b}");
    }
    assert_eq!(count(&app, "SELECT count(*) FROM apalis.jobs").await, 0);
    assert_eq!(
        put(
            &app,
            "/api/v1/superadmin/plans/gold/prices",
            &json!({"prices": []}),
            Some(&admin)
        )
        .await
        .0,
        404
    );
    assert_eq!(
        app.get("/api/v1/superadmin/plans/Standard/prices", Some(&admin))
            .await
            .0,
        404
    );
    let p = fixtures::partner(&app, "notadmin").await;
    assert_eq!(
        app.get("/api/v1/superadmin/plans/standard/prices", Some(&p.token))
            .await
            .0,
        403
    );
    assert_eq!(
        app.get("/api/v1/superadmin/plans/standard/prices", None)
            .await
            .0,
        401
    );
}

#[tokio::test]
async fn plan_add_new_service_messages() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    fixtures::api(&app, "pan_a", 1000).await;
    let path = "/api/v1/superadmin/plans/prices";
    let cases = [
        (
            json!({"service": "pan_a", "price": 5}),
            "plan_type",
            "Plan Type is required",
        ),
        (
            json!({"plan_type": "pro", "price": 5}),
            "service",
            "Service Name is required",
        ),
        (
            json!({"plan_type": "pro", "service": "pan_a"}),
            "price_paise",
            "Price is required",
        ),
        (
            json!({"plan_type": "pro", "service": "pan_a", "price": ""}),
            "price_paise",
            "Price is required",
        ),
        (
            json!({"plan_type": "pro", "service": "pan_a", "price": -3}),
            "price_paise",
            "Price cannot be negative",
        ),
        (
            json!({"plan_type": "pro", "service": "pan_a", "price": -0.5}),
            "price_paise",
            "Price cannot be negative",
        ),
        (
            json!({"plan_type": "pro", "service": "pan_a", "price": 4.5}),
            "price_paise",
            "Price must be a whole number of paise",
        ),
        // Money is a JSON integer: a string of digits is refused like any other string.
        (
            json!({"plan_type": "pro", "service": "pan_a", "price": "450"}),
            "price_paise",
            "Price must be a number",
        ),
        (
            json!({"plan_type": "pro", "service": "pan_a", "price": "abc"}),
            "price_paise",
            "Price must be a number",
        ),
        (
            json!({"plan_type": "pro", "service": "pan_a", "price": true}),
            "price_paise",
            "Price must be a number",
        ),
        (
            json!({"plan_type": "pro", "service": "nope", "price": 3}),
            "service",
            "Unknown service: nope",
        ),
    ];
    for (body, field, msg) in cases {
        let (s, b) = app.post(path, &body, Some(&admin)).await;
        assert_eq!(s, 422, "{body}: {b}");
        assert_eq!(b["error"]["fields"][field], msg, "{body}: {b}");
    }
    let (s, b) = app.post(path, &json!({}), Some(&admin)).await;
    assert_eq!(s, 422);
    assert_eq!(
        b["error"]["fields"].as_object().unwrap().len(),
        3,
        "all three at once: {b}"
    );
    let (s, b) = app
        .post(
            path,
            &json!({"plan_type": "pro", "service": "pan_a", "price": 450}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(
        b,
        json!({"plan": "pro", "service": "pan_a", "price_paise": 450})
    );
    assert_eq!(slab(&app, "pro", "pan_a").await, Some(450));
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM audit_log WHERE action = 'plan_price.set' AND before IS NULL"
        )
        .await,
        1
    );
}

#[tokio::test]
async fn plan_of_a_partner_customised_and_read_only_my_plan() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    let a = fixtures::api(&app, "pan_a", 1000).await;
    fixtures::api(&app, "pan_b", 2000).await;
    fixtures::slab_price(&app, "premium", a, 600).await;
    let p = fixtures::partner(&app, "planner").await;

    // No plan selected yet.
    let (s, mine) = app.get("/api/v1/partner/plan", Some(&p.token)).await;
    assert_eq!(s, 200);
    assert_eq!(mine["plan"], serde_json::Value::Null);
    assert_eq!(mine["items"], json!([]));

    // Change Plan.
    let (s, plan) = put(
        &app,
        &format!("/api/v1/superadmin/clients/{}/plan", p.id),
        &json!({"plan": "premium"}),
        Some(&admin),
    )
    .await;
    assert_eq!(s, 200, "{plan}");
    assert_eq!(plan["plan"], "premium");
    let (_, mine) = app.get("/api/v1/partner/plan", Some(&p.token)).await;
    assert_eq!(mine["plan"], "premium");
    assert!(mine["updated_at"].is_string());
    let prices: Vec<(String, i64)> = mine["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["service"].as_str().unwrap().to_owned(),
                i["price_paise"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        prices,
        [("pan_a".to_owned(), 600), ("pan_b".to_owned(), 2000)]
    );
    assert!(
        mine["items"][0]["category"].is_string()
            && mine["items"][0]["pid"].is_string()
            && mine["items"][0]["name"].is_string()
    );

    // API Pricing: one customised price (direct), then two (job), then delete one.
    let path = format!("/api/v1/superadmin/clients/{}/prices", p.id);
    let (s, r) = put(
        &app,
        &path,
        &json!({"prices": [{"service": "pan_b", "price_paise": 1500}]}),
        Some(&admin),
    )
    .await;
    assert_eq!(s, 200, "{r}");
    let (_, plan) = app
        .get(
            &format!("/api/v1/superadmin/clients/{}/plan", p.id),
            Some(&admin),
        )
        .await;
    assert_eq!(plan["customised"], true);
    let b_row = plan["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["service"] == "pan_b")
        .unwrap()
        .clone();
    assert_eq!(
        (
            b_row["amount_paise"].as_i64(),
            b_row["amount_source"].as_str()
        ),
        (Some(1500), Some("custom"))
    );
    let (s, q) = put(&app, &path, &json!({"prices": [{"service": "pan_a", "price_paise": 500}, {"service": "pan_b", "price_paise": 1400, "status": false}]}), Some(&admin)).await;
    assert_eq!(s, 202);
    app.run_pending_jobs().await;
    app.wait_for_job(
        q["job_id"].as_str().unwrap(),
        "done",
        Duration::from_secs(30),
    )
    .await;
    let (_, list) = app
        .get(&format!("{path}?category=IDENTITY"), Some(&admin))
        .await;
    assert_eq!(
        (list["total"].as_i64(), list["per_page"].as_i64()),
        (Some(2), Some(10))
    );
    assert_eq!(list["categories"], json!(["identity"]));
    let (_, mine) = app.get("/api/v1/partner/plan", Some(&p.token)).await;
    let prices: Vec<i64> = mine["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["price_paise"].as_i64().unwrap())
        .collect();
    assert_eq!(
        prices,
        [500, 2000],
        "pan_b's entry is inactive: the slab (here the default) applies"
    );
    assert_eq!(
        delete(&app, &format!("{path}/pan_a"), Some(&admin)).await,
        204
    );
    assert_eq!(
        delete(&app, &format!("{path}/pan_a"), Some(&admin)).await,
        404
    );
    let (_, list) = app.get(&path, Some(&admin)).await;
    assert_eq!(list["total"], 1);
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM audit_log WHERE entity = 'partner_price'"
        )
        .await,
        4
    );

    // Unknown client; a partner is not the super admin.
    assert_eq!(
        app.get("/api/v1/superadmin/clients/999999/plan", Some(&admin))
            .await
            .0,
        404
    );
    assert_eq!(
        put(
            &app,
            "/api/v1/superadmin/clients/999999/prices",
            &json!({"prices": [{"service": "pan_a", "price_paise": 1}]}),
            Some(&admin)
        )
        .await
        .0,
        404
    );
    assert_eq!(
        put(
            &app,
            &format!("/api/v1/superadmin/clients/{}/plan", p.id),
            &json!({"plan": "gold"}),
            Some(&admin)
        )
        .await
        .0,
        422
    );
    assert_eq!(
        app.get(
            &format!("/api/v1/superadmin/clients/{}/plan", p.id),
            Some(&p.token)
        )
        .await
        .0,
        403
    );
    assert_eq!(app.get("/api/v1/partner/plan", Some(&admin)).await.0, 403);
}

#[tokio::test]
async fn plan_customised_prices_alone_count_as_a_plan() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    fixtures::api(&app, "pan_a", 1000).await;
    let p = fixtures::partner(&app, "custom-only").await;
    put(
        &app,
        &format!("/api/v1/superadmin/clients/{}/prices", p.id),
        &json!({"prices": [{"service": "pan_a", "price_paise": 10}]}),
        Some(&admin),
    )
    .await;
    let (_, mine) = app.get("/api/v1/partner/plan", Some(&p.token)).await;
    assert_eq!(
        (mine["plan"].as_str(), mine["customised"].as_bool()),
        (Some("default"), Some(true))
    );
    assert_eq!(mine["items"][0]["price_paise"], 10);
}
