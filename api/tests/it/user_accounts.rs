//! User Accounts in the partner console (issue 23): search on the server, Edit under Add User's
//! rules, Deactivate and Activate (what an inactive user can no longer do), the password-reset
//! mail, and the partner's own profile; each refused for another partner's user with a 404.

use serde_json::{Value, json};

use crate::{
    auth_fixtures::{self, fresh_ip, post_as, queued_mails, token_after},
    common::TestApp,
    fixtures,
    portal::{self, PASSWORD},
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
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

async fn add_user(
    app: &TestApp,
    token: &str,
    first: &str,
    last: &str,
    email: &str,
    phone: &str,
) -> i64 {
    let body = json!({"first_name": first, "last_name": last, "email": email, "phone_number": phone,
                      "password": "Secret-123", "full_access": false});
    let (s, b) = app.post("/api/v1/partner/users", &body, Some(token)).await;
    assert_eq!(s, 201, "{b}");
    b["id"].as_i64().unwrap()
}

fn emails(list: &Value) -> Vec<&str> {
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["email"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn search_finds_users_by_whole_name_email_and_mobile_of_this_partner_only() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let other = fixtures::partner(&app, "beta").await;
    add_user(
        &app,
        &p.token,
        "Meera",
        "Nair",
        "meera@example.in",
        "9812345678",
    )
    .await;
    add_user(
        &app,
        &p.token,
        "Ravi",
        "Kumar",
        "ravi@shop.in",
        "9000011111",
    )
    .await;
    add_user(
        &app,
        &other.token,
        "Meera",
        "Nair",
        "meera@beta.in",
        "9812345678",
    )
    .await;

    let search = |q: &str| {
        let (app, token, q) = (&app, p.token.clone(), q.to_owned());
        async move {
            let url = reqwest::Url::parse_with_params(
                &app.url("/api/v1/partner/users"),
                [("q", q.as_str())],
            )
            .unwrap();
            let res = app.client.get(url).bearer_auth(token).send().await.unwrap();
            (res.status().as_u16(), res.json::<Value>().await.unwrap())
        }
    };
    for (q, want) in [
        ("meera nair", vec!["meera@example.in"]),
        ("  KUMAR ", vec!["ravi@shop.in"]),
        ("@shop", vec!["ravi@shop.in"]),
        ("98123", vec!["meera@example.in"]),
        ("", vec!["ravi@shop.in", "meera@example.in"]),
        // LIKE's wildcards are text here.
        ("%", vec![]),
        ("nobody", vec![]),
    ] {
        let (s, list) = search(q).await;
        assert_eq!(s, 200, "{q}: {list}");
        assert_eq!(emails(&list), want, "{q:?}");
        assert_eq!(list["total"], want.len(), "{q:?}");
    }
    let (s, b) = search(&"x".repeat(101)).await;
    assert_eq!(
        (s, b["error"]["fields"]["q"].as_str()),
        (422, Some("Search text must be at most 100 characters"))
    );
    let (s, b) = search("meera\u{7}").await;
    assert_eq!(
        (s, b["error"]["code"].as_str()),
        (422, Some("validation_failed")),
        "{b}"
    );
    assert!(b["error"]["fields"]["q"].is_string());
}

#[tokio::test]
async fn edit_changes_name_email_and_phone_under_add_users_rules_and_is_audited() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let other = fixtures::partner(&app, "beta").await;
    let id = add_user(
        &app,
        &p.token,
        "Meera",
        "Nair",
        "meera@example.in",
        "9812345678",
    )
    .await;
    add_user(
        &app,
        &p.token,
        "Ravi",
        "Kumar",
        "ravi@shop.in",
        "9000011111",
    )
    .await;
    let theirs = add_user(
        &app,
        &other.token,
        "Asha",
        "Rao",
        "asha@beta.in",
        "9000022222",
    )
    .await;
    let path = format!("/api/v1/partner/users/{id}");

    let (s, u) = patch(
        &app,
        &path,
        &json!({"first_name": " Meera Devi ", "last_name": "Iyer", "email": "Meera.Iyer@Example.in", "phone_number": "9876543210"}),
        &p.token,
    )
    .await;
    assert_eq!(s, 200, "{u}");
    assert_eq!(
        (
            &u["first_name"],
            &u["last_name"],
            &u["email"],
            &u["phone_number"],
            &u["is_active"]
        ),
        (
            &json!("Meera Devi"),
            &json!("Iyer"),
            &json!("meera.iyer@example.in"),
            &json!("9876543210"),
            &json!(true)
        )
    );
    let (before, after): (Value, Value) = sqlx::query_as(
        "SELECT before, after FROM audit_log WHERE action = 'user.edit' AND entity_id = $1 ORDER BY id LIMIT 1",
    )
    .bind(id.to_string())
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(
        (before["email"].as_str(), after["email"].as_str()),
        (Some("meera@example.in"), Some("meera.iyer@example.in"))
    );
    assert_eq!(
        fixtures::count(
            &app,
            "SELECT count(*) FROM audit_log WHERE action = 'user.update'"
        )
        .await,
        0,
        "an edit alone is no Settings change"
    );

    // One field at a time is an edit too; the others stay.
    let (s, u) = patch(
        &app,
        &path,
        &json!({"phone_number": "9000000001"}),
        &p.token,
    )
    .await;
    assert_eq!(
        (s, u["first_name"].as_str(), u["phone_number"].as_str()),
        (200, Some("Meera Devi"), Some("9000000001"))
    );

    // Add User's messages, field by field; nothing changes.
    let (s, b) = patch(
        &app,
        &path,
        &json!({"first_name": "M3era", "last_name": "", "email": "not-mail", "phone_number": "98-12"}),
        &p.token,
    )
    .await;
    assert_eq!(s, 422, "{b}");
    let f = &b["error"]["fields"];
    assert_eq!(
        f["first_name"],
        "No special character & numbers allowed in first name"
    );
    assert_eq!(f["last_name"], "Last name is required");
    assert_eq!(f["email"], "Please enter a valid email");
    assert_eq!(
        f["phone_number"],
        "No special character & alphabets allowed in phone number."
    );
    let (s, b) = patch(
        &app,
        &path,
        &json!({"first_name": "x".repeat(101)}),
        &p.token,
    )
    .await;
    assert_eq!(
        (s, b["error"]["fields"]["first_name"].as_str()),
        (422, Some("Name is too long"))
    );
    let (s, b) = patch(&app, &path, &json!({"nickname": "M"}), &p.token).await;
    assert_eq!(
        (s, b["error"]["code"].as_str()),
        (422, Some("validation_failed")),
        "{b}"
    );
    let (s, b) = patch(&app, &path, &json!({"email": 7}), &p.token).await;
    assert_eq!(s, 422, "{b}");

    // Another user of this partner has the address: 409 on the field. Another partner's user
    // may have it.
    let (s, b) = patch(&app, &path, &json!({"email": "RAVI@shop.in"}), &p.token).await;
    assert_eq!(
        (s, b["error"]["fields"]["email"].as_str()),
        (409, Some("A user with this email already exists")),
        "{b}"
    );
    let (s, _) = patch(&app, &path, &json!({"email": "asha@beta.in"}), &p.token).await;
    assert_eq!(s, 200);

    // Another partner's user: 404, and nothing changed.
    let (s, b) = patch(
        &app,
        &format!("/api/v1/partner/users/{theirs}"),
        &json!({"first_name": "Hacked"}),
        &p.token,
    )
    .await;
    assert_eq!((s, b["error"]["code"].as_str()), (404, Some("not_found")));
    let name: String = sqlx::query_scalar("SELECT first_name FROM end_users WHERE id = $1")
        .bind(theirs)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(name, "Asha");
    let (s, _) = patch(
        &app,
        "/api/v1/partner/users/abc",
        &json!({"first_name": "A"}),
        &p.token,
    )
    .await;
    assert_eq!(s, 404);

    // The super admin's path sets the Settings choices only.
    let (s, _) = patch(
        &app,
        &format!("/api/v1/superadmin/clients/{}/users/{id}", p.id),
        &json!({"first_name": "Other"}),
        &app.superadmin_token(),
    )
    .await;
    assert_eq!(s, 422);
}

#[tokio::test]
async fn a_deactivated_user_is_refused_by_the_gateway_and_the_portal_until_activated() {
    let app = TestApp::spawn().await;
    let site = portal::site(&app, "acme").await;
    let p = &site.partner;
    let (s, key) = app
        .post(
            &format!("/api/v1/partner/users/{}/api-keys", site.user_id),
            &json!({"mode": "sandbox"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 201, "{key}");
    let key = key["key"].as_str().unwrap().to_owned();
    let offers = || {
        let (app, key) = (&app, key.clone());
        async move {
            let res = app
                .client
                .get(app.url("/api/v1/verify"))
                .header("x-api-key", key)
                .send()
                .await
                .unwrap();
            let status = res.status().as_u16();
            (status, res.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    assert_eq!(offers().await.0, 200);
    let session = portal::token(&app, "acme", &site.email).await;

    let path = format!("/api/v1/partner/users/{}", site.user_id);
    let (s, u) = patch(&app, &path, &json!({"is_active": false}), &p.token).await;
    assert_eq!((s, u["is_active"].as_bool()), (200, Some(false)));
    let (s, b) = offers().await;
    assert_eq!(
        (s, b["error"]["message"].as_str()),
        (403, Some("This user is inactive"))
    );
    assert_eq!(
        portal::login(&app, "acme", &site.email, PASSWORD).await.0,
        401
    );
    let (s, _) = app.get("/api/v1/me", Some(&session)).await;
    assert_eq!(s, 401, "a live session is refused too");
    let (_, list) = app.get("/api/v1/partner/users", Some(&p.token)).await;
    assert_eq!(list["items"][0]["is_active"], false);

    let (s, _) = patch(&app, &path, &json!({"is_active": true}), &p.token).await;
    assert_eq!(s, 200);
    assert_eq!(offers().await.0, 200);
    assert_eq!(
        portal::login(&app, "acme", &site.email, PASSWORD).await.0,
        200
    );
    assert_eq!(
        fixtures::count(
            &app,
            "SELECT count(*) FROM audit_log WHERE action = 'user.update'"
        )
        .await,
        2
    );
}

#[tokio::test]
async fn the_console_mails_a_user_the_portals_reset_link_once_a_minute() {
    let app = TestApp::spawn().await;
    let site = portal::site(&app, "acme").await;
    let p = &site.partner;
    let beta = portal::site(&app, "beta").await;
    let reset = |user: i64, token: &str| {
        let (app, token) = (&app, token.to_owned());
        async move {
            app.post(
                &format!("/api/v1/partner/users/{user}/password-reset"),
                &json!({}),
                Some(&token),
            )
            .await
        }
    };

    let (s, b) = reset(site.user_id, &p.token).await;
    assert_eq!(s, 202, "{b}");
    assert!(b["job_id"].is_string());
    assert_eq!(
        b["message"],
        format!("A password reset link is being sent to {}", site.email)
    );
    let (s, job) = app
        .get(
            &format!("/api/v1/jobs/{}", b["job_id"].as_str().unwrap()),
            Some(&p.token),
        )
        .await;
    assert_eq!(
        (s, job["kind"].as_str()),
        (200, Some("send_mail")),
        "the partner may follow its job"
    );

    let mails = queued_mails(&app).await;
    let (_, subject, text) = mails
        .iter()
        .rev()
        .find(|(to, _, _)| *to == site.email)
        .expect("a reset mail");
    assert_eq!(subject, "Reset your password");
    let link = token_after(
        text,
        &format!("{}/reset-password/", app.config.partner_site_url("acme")),
    );
    let (s, b) = app
        .post(
            "/api/v1/me/reset-password?subdomain=acme",
            &json!({"token": link, "new_password": "NewSecret@1", "confirm_new_password": "NewSecret@1"}),
            None,
        )
        .await;
    assert_eq!(s, 200, "the portal's reset takes the link: {b}");
    assert_eq!(
        portal::login(&app, "acme", &site.email, "NewSecret@1")
            .await
            .0,
        200
    );

    // Again within the minute: 429 with Retry-After, and no second mail.
    let res = app
        .client
        .post(app.url(&format!(
            "/api/v1/partner/users/{}/password-reset",
            site.user_id
        )))
        .bearer_auth(&p.token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 429);
    let wait: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert_eq!(
        fixtures::count(
            &app,
            "SELECT count(*) FROM audit_log WHERE action = 'user.password_reset_mail'"
        )
        .await,
        1
    );

    // An inactive user, or a site that is not live: there is nothing the link could open.
    let (other, _) = portal::user_with_password(&app, p.id, 2).await;
    patch(
        &app,
        &format!("/api/v1/partner/users/{other}"),
        &json!({"is_active": false}),
        &p.token,
    )
    .await;
    let (s, b) = reset(other, &p.token).await;
    assert_eq!(
        (s, b["error"]["code"].as_str()),
        (409, Some("conflict")),
        "{b}"
    );
    assert!(b["error"]["message"].as_str().unwrap().contains("inactive"));
    sqlx::query("UPDATE partners SET subdomain_status = 'pending' WHERE id = $1")
        .bind(beta.partner.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (s, b) = reset(beta.user_id, &beta.partner.token).await;
    assert_eq!(s, 409, "{b}");

    // Another partner's user, an unknown one, a bad id; and no token.
    assert_eq!(reset(beta.user_id, &p.token).await.0, 404);
    assert_eq!(reset(999_999, &p.token).await.0, 404);
    let (s, _) = app
        .post(
            "/api/v1/partner/users/x/password-reset",
            &json!({}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 404);
    assert_eq!(
        app.post(
            &format!("/api/v1/partner/users/{}/password-reset", site.user_id),
            &json!({}),
            None
        )
        .await
        .0,
        401
    );
    let mails = queued_mails(&app).await;
    assert_eq!(
        mails
            .iter()
            .filter(|(_, s, _)| s == "Reset your password")
            .count(),
        1
    );
}

#[tokio::test]
async fn a_partner_manages_a_users_keys_but_not_another_partners() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let other = fixtures::partner(&app, "beta").await;
    let mine = fixtures::user(&app, p.id, 1).await;
    let theirs = fixtures::user(&app, other.id, 1).await;
    let keys = |u: i64| format!("/api/v1/partner/users/{u}/api-keys");

    let (s, b) = app
        .post(&keys(mine), &json!({"mode": "live"}), Some(&p.token))
        .await;
    assert_eq!(s, 201);
    let id = b["id"].as_i64().unwrap();
    let (s, b) = app
        .post(&keys(mine), &json!({"mode": "gold"}), Some(&p.token))
        .await;
    assert_eq!(
        (s, b["error"]["code"].as_str()),
        (422, Some("validation_failed"))
    );
    let (s, _) = app.post(&keys(mine), &json!({}), Some(&p.token)).await;
    assert_eq!(s, 422);

    assert_eq!(
        app.post(&keys(theirs), &json!({"mode": "live"}), Some(&p.token))
            .await
            .0,
        404
    );
    assert_eq!(app.get(&keys(theirs), Some(&p.token)).await.0, 404);
    assert_eq!(
        fixtures::delete(&app, &format!("{}/{id}", keys(theirs)), Some(&other.token)).await,
        404
    );
    assert_eq!(
        fixtures::delete(&app, &format!("{}/{id}", keys(mine)), Some(&other.token)).await,
        404
    );
    assert_eq!(
        fixtures::delete(&app, &format!("{}/{id}", keys(mine)), Some(&p.token)).await,
        204
    );
    let (_, list) = app.get(&keys(mine), Some(&p.token)).await;
    assert_eq!(list[0]["status"], "revoked");
}

#[tokio::test]
async fn the_partner_edits_its_profile_keeping_its_email_unique_and_audited() {
    let app = TestApp::spawn().await;
    let me = auth_fixtures::signed_up(&app, "alpha").await;
    let other = fixtures::partner(&app, "beta").await;

    let (s, b) = app.get("/api/v1/partner/profile", Some(&me.token)).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        (
            b["email"].as_str(),
            b["user_name"].as_str(),
            b["first_name"].as_str()
        ),
        (Some("alpha@partner.test"), Some("alpha"), Some("Asha"))
    );

    let put = |body: Value| {
        let (app, token) = (&app, me.token.clone());
        async move { auth_fixtures::put(app, "/api/v1/partner/profile", &body, Some(&token)).await }
    };
    let (s, b) =
        put(json!({"first_name": "", "last_name": "R", "email": "nope", "phone_number": "12"}))
            .await;
    assert_eq!(s, 422, "{b}");
    let f = &b["error"]["fields"];
    assert_eq!(f["first_name"], "First name is required");
    assert_eq!(f["email"], "Please enter a valid email");
    assert_eq!(f["phone_number"], "Please enter a valid phone number");
    let (s, b) = put(json!({})).await;
    assert_eq!(s, 422);
    assert_eq!(b["error"]["fields"].as_object().unwrap().len(), 4);
    let (s, b) = put(json!({"first_name": "A\u{0}", "last_name": "R", "email": "a@b.in", "phone_number": "9876543210"})).await;
    assert_eq!(
        (s, b["error"]["fields"]["first_name"].as_str()),
        (422, Some("First name contains invalid characters"))
    );

    // Another partner's sign-in address, in any case: 409 on the field, nothing saved.
    let (s, b) = put(json!({"first_name": "Asha", "last_name": "Rao", "email": "BETA@partner.test", "phone_number": "9876543210"})).await;
    assert_eq!(
        (s, b["error"]["fields"]["email"].as_str()),
        (409, Some("This email is already registered")),
        "{b}"
    );
    let (_, b) = app.get("/api/v1/partner/profile", Some(&me.token)).await;
    assert_eq!(b["email"], "alpha@partner.test");

    let (s, b) = put(json!({"first_name": "Asha Devi", "last_name": "Rao", "email": " Asha.New@Partner.TEST ", "phone_number": "+91 98765 43210"})).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        (b["email"].as_str(), b["first_name"].as_str()),
        (Some("asha.new@partner.test"), Some("Asha Devi"))
    );
    let (_, me_now) = app.get("/api/v1/partner/me", Some(&me.token)).await;
    assert_eq!(me_now["email"], "asha.new@partner.test");
    // Its own address again is no conflict.
    let (s, _) = put(json!({"first_name": "Asha Devi", "last_name": "Rao", "email": "asha.new@partner.test", "phone_number": "9876543210"})).await;
    assert_eq!(s, 200);

    // The old address is told, once: the second save kept the address.
    let notices: Vec<_> = queued_mails(&app)
        .await
        .into_iter()
        .filter(|(_, subject, _)| subject == "Your sign-in email was changed")
        .collect();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].0, "alpha@partner.test");
    assert!(
        notices[0].2.contains("your account alpha was changed"),
        "{}",
        notices[0].2
    );

    // The new address signs in; the old one no longer does.
    auth_fixtures::login(&app, "asha.new@partner.test", auth_fixtures::PASSWORD).await;
    let body = json!({"email": "alpha@partner.test", "password": auth_fixtures::PASSWORD, "captcha": null});
    let (s, _) = post_as(&app, &fresh_ip(), "/api/v1/partner/login", &body, None).await;
    assert_eq!(s, 401);

    let (before, after): (Value, Value) = sqlx::query_as(
        "SELECT before, after FROM audit_log WHERE action = 'partner.profile_update' AND entity_id = $1 ORDER BY id LIMIT 1",
    )
    .bind(me.id.to_string())
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(
        (before["email"].as_str(), after["email"].as_str()),
        (Some("alpha@partner.test"), Some("asha.new@partner.test"))
    );

    // The super admin and end users have no partner profile.
    assert_eq!(
        app.get("/api/v1/partner/profile", Some(&app.superadmin_token()))
            .await
            .0,
        403
    );
    assert_eq!(app.get("/api/v1/partner/profile", None).await.0, 401);
    let (_, b) = app.get("/api/v1/partner/profile", Some(&other.token)).await;
    assert_eq!(b["email"], "beta@partner.test", "each partner sees its own");
}

#[tokio::test]
async fn the_console_paths_are_in_the_openapi_document() {
    let app = TestApp::spawn().await;
    let (_, doc) = app.get("/api/openapi.json", None).await;
    for (path, method) in [
        ("/api/v1/partner/users/{id}/password-reset", "post"),
        ("/api/v1/partner/users/{id}", "patch"),
        ("/api/v1/partner/profile", "get"),
        ("/api/v1/partner/profile", "put"),
    ] {
        assert!(
            doc["paths"][path][method].is_object(),
            "{method} {path} missing from the OpenAPI document"
        );
    }
    let edit = &doc["components"]["schemas"]["UpdateUser"]["properties"];
    for field in [
        "is_active",
        "full_access",
        "first_name",
        "last_name",
        "email",
        "phone_number",
    ] {
        assert!(edit[field].is_object(), "UpdateUser.{field}");
    }
}
