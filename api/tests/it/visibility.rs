//! API and category visibility in its three scopes, and the six-part rule the gateway applies.

use serde_json::{Value, json};

use crate::{common::TestApp, fixtures};

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

async fn callable(app: &TestApp, partner: i64, user: i64, service: &str) -> bool {
    let mut conn = app.db.pool.acquire().await.unwrap();
    domain::gateway::visibility::callable(&mut conn, partner, user, service)
        .await
        .unwrap()
}

#[tokio::test]
async fn each_scope_sets_what_it_names_and_reads_it_back() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let u = fixtures::user(&app, p.id, 1).await;
    fixtures::api(&app, "pan_verify", 100).await;
    fixtures::api(&app, "gst_verify", 100).await;

    for path in [
        "/api/v1/partner/visibility".to_owned(),
        format!("/api/v1/partner/users/{u}/visibility"),
    ] {
        let (s, b) = app.get(&path, Some(&p.token)).await;
        assert_eq!(
            (s, b.clone()),
            (
                200,
                json!({"apis": {}, "categories": {}, "hidden_by_platform": []})
            ),
            "absent means shown: {path}"
        );
        let (s, b) = patch(
            &app,
            &path,
            &json!({"apis": {"pan_verify": false}}),
            &p.token,
        )
        .await;
        assert_eq!(s, 200, "{b}");
        let (s, b) = patch(
            &app,
            &path,
            &json!({"apis": {"gst_verify": true}, "categories": {"identity": false}}),
            &p.token,
        )
        .await;
        assert_eq!(s, 200, "{b}");
        // The earlier key stays; the category takes the catalogue's spelling.
        assert_eq!(
            b,
            json!({"apis": {"pan_verify": false, "gst_verify": true}, "categories": {"Identity": false}, "hidden_by_platform": []})
        );
        let (_, again) = app.get(&path, Some(&p.token)).await;
        assert_eq!(again, b);
        let (_, b) = patch(
            &app,
            &path,
            &json!({"apis": {"pan_verify": true}, "categories": {"IDENTITY": true}}),
            &p.token,
        )
        .await;
        assert_eq!(
            b,
            json!({"apis": {"pan_verify": true, "gst_verify": true}, "categories": {"Identity": true}, "hidden_by_platform": []}),
            "stored in the catalogue's spelling"
        );
    }
    let admin = app.superadmin_token();
    let path = format!("/api/v1/superadmin/clients/{}/visibility", p.id);
    let (s, b) = patch(&app, &path, &json!({"apis": {"gst_verify": false}}), &admin).await;
    assert_eq!((s, b["apis"]["gst_verify"].clone()), (200, json!(false)));
    // The partner's own setting stays its own and cannot undo the super admin's; its view and
    // each user's name the API as hidden by the platform (My APIs shows it so).
    let (_, mine) = app.get("/api/v1/partner/visibility", Some(&p.token)).await;
    assert_eq!(mine["apis"]["gst_verify"], true);
    assert_eq!(mine["hidden_by_platform"], json!(["gst_verify"]));
    let (_, theirs) = app
        .get(
            &format!("/api/v1/partner/users/{u}/visibility"),
            Some(&p.token),
        )
        .await;
    assert_eq!(theirs["hidden_by_platform"], json!(["gst_verify"]));
    let (_, admins) = app.get(&path, Some(&admin)).await;
    assert_eq!(
        admins["hidden_by_platform"],
        json!([]),
        "the super admin's own view"
    );
    assert!(!callable(&app, p.id, u, "gst_verify").await);
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM api_visibility").await,
        5
    );
}

#[tokio::test]
async fn an_api_is_callable_only_when_no_setting_hides_it() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let other = fixtures::partner(&app, "beta").await;
    let u = fixtures::user(&app, p.id, 1).await;
    let u2 = fixtures::user(&app, p.id, 2).await;
    let v = fixtures::user(&app, other.id, 3).await;
    fixtures::api(&app, "pan_verify", 100).await;
    let admin = app.superadmin_token();
    assert!(callable(&app, p.id, u, "pan_verify").await);
    assert!(!callable(&app, p.id, u, "no_such_api").await);

    let scopes = [
        (
            format!("/api/v1/superadmin/clients/{}/visibility", p.id),
            admin.clone(),
            true,
        ),
        (
            "/api/v1/partner/visibility".to_owned(),
            p.token.clone(),
            true,
        ),
        (
            format!("/api/v1/partner/users/{u}/visibility"),
            p.token.clone(),
            false,
        ),
    ];
    for (path, token, partner_wide) in &scopes {
        for body in [
            json!({"apis": {"pan_verify": false}}),
            json!({"categories": {"Identity": false}}),
        ] {
            let (s, _) = patch(&app, path, &body, token).await;
            assert_eq!(s, 200);
            assert!(
                !callable(&app, p.id, u, "pan_verify").await,
                "{path} {body}"
            );
            assert_eq!(
                callable(&app, p.id, u2, "pan_verify").await,
                !partner_wide,
                "{path} {body} for another user"
            );
            assert!(
                callable(&app, other.id, v, "pan_verify").await,
                "another partner is untouched"
            );
            // A true elsewhere never overrides a false.
            let (s, _) = patch(
                &app,
                "/api/v1/partner/visibility",
                &json!({"apis": {"pan_verify": true}}),
                &p.token,
            )
            .await;
            assert_eq!(s, 200);
            if !(path.ends_with("/partner/visibility") && body["apis"].is_object()) {
                assert!(!callable(&app, p.id, u, "pan_verify").await);
            }
            let reset = if body["apis"].is_object() {
                json!({"apis": {"pan_verify": true}})
            } else {
                json!({"categories": {"Identity": true}})
            };
            patch(&app, path, &reset, token).await;
            assert!(
                callable(&app, p.id, u, "pan_verify").await,
                "shown again after {path} {body}"
            );
        }
    }
}

#[tokio::test]
async fn unknown_names_bad_bodies_and_tenancy() {
    let app = TestApp::spawn().await;
    let a = fixtures::partner(&app, "alpha").await;
    let b = fixtures::partner(&app, "beta").await;
    let ua = fixtures::user(&app, a.id, 1).await;
    fixtures::api(&app, "pan_verify", 100).await;

    let (s, e) = patch(
        &app,
        "/api/v1/partner/visibility",
        &json!({"apis": {"pan_verify": false, "nope": false}, "categories": {"Astrology": true}}),
        &a.token,
    )
    .await;
    assert_eq!(s, 422, "{e}");
    assert_eq!(e["error"]["fields"]["apis.nope"], "Unknown service 'nope'");
    assert_eq!(
        e["error"]["fields"]["categories.Astrology"],
        "Unknown category 'Astrology'"
    );
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM api_visibility").await,
        0,
        "nothing written"
    );
    for body in [
        json!({"apis": {"pan_verify": "no"}}),
        json!({"apis": ["pan_verify"]}),
        json!({"apis": 1}),
        json!({"apis": {"pan_verify": null}}),
    ] {
        let (s, e) = patch(&app, "/api/v1/partner/visibility", &body, &a.token).await;
        assert_eq!(s, 422, "{body}: {e}");
    }
    let (s, _) = patch(
        &app,
        "/api/v1/partner/visibility",
        &json!({"apis": {"pan\u{0}": false}}),
        &a.token,
    )
    .await;
    assert!(s == 400 || s == 422, "{s}");

    // Partner B: 404 for A's user; a partner token on the super admin's paths: 403.
    let user_path = format!("/api/v1/partner/users/{ua}/visibility");
    assert_eq!(app.get(&user_path, Some(&b.token)).await.0, 404);
    assert_eq!(
        patch(
            &app,
            &user_path,
            &json!({"apis": {"pan_verify": false}}),
            &b.token
        )
        .await
        .0,
        404
    );
    let client_path = format!("/api/v1/superadmin/clients/{}/visibility", a.id);
    assert_eq!(app.get(&client_path, Some(&a.token)).await.0, 403);
    assert_eq!(
        patch(
            &app,
            &client_path,
            &json!({"apis": {"pan_verify": false}}),
            &a.token
        )
        .await
        .0,
        403
    );
    assert_eq!(
        app.get(
            "/api/v1/superadmin/clients/999999/visibility",
            Some(&app.superadmin_token())
        )
        .await
        .0,
        404
    );
    assert_eq!(app.get("/api/v1/partner/visibility", None).await.0, 401);
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM api_visibility").await,
        0
    );
}
