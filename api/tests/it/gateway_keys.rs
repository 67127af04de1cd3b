//! Issue 24: an end user's key controls (name, expiry, IP list, API list) enforced by the
//! gateway through its cache, the usage per key, and a call's answer read back by its
//! transaction id while `RESULT_RETENTION_HOURS` keeps it.

use std::time::{Duration, Instant};

use domain::wallets::Owner;
use serde_json::{Value, json};

use crate::{
    common::TestApp,
    fixtures,
    gateway_support::{self as gs, FAIL_500, OK, Upstream},
    portal::{self, site, token},
};

const INSIDE: &str = "198.51.100.7";
const OUTSIDE: &str = "203.0.113.9";

/// A live partner site whose user has full access, funded wallets, and two APIs at 300 and 200
/// paise; the user's portal token.
struct Live {
    site: portal::Site,
    token: String,
    up: Upstream,
}

async fn live(app: &TestApp, name: &str) -> Live {
    let up = Upstream::start().await;
    let site = site(app, name).await;
    sqlx::query("UPDATE partners SET sandbox_enabled = false, api_base_url = $2, base_url_status = true WHERE id = $1")
        .bind(site.partner.id)
        .bind(&up.base)
        .execute(&app.db.pool)
        .await
        .unwrap();
    sqlx::query("UPDATE end_users SET full_access = true WHERE id = $1")
        .bind(site.user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    for (service, price) in [("pan_check", 300), ("gst_check", 200)] {
        let exists: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM api_catalogue WHERE service = $1)")
                .bind(service)
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        if !exists {
            fixtures::api(app, service, price).await;
        }
    }
    let user = Owner::User {
        partner_id: site.partner.id,
        user_id: site.user_id,
    };
    gs::credit(app, user, 100_000).await;
    gs::credit(app, Owner::Partner(site.partner.id), 100_000).await;
    let token = token(app, name, &site.email).await;
    Live { site, token, up }
}

async fn create_key(app: &TestApp, token: &str, body: Value) -> (u16, Value) {
    app.post("/api/v1/me/api-keys", &body, Some(token)).await
}

async fn patch(app: &TestApp, path: &str, body: &Value, token: &str) -> (u16, Value) {
    let res = app
        .client
        .patch(app.url(path))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .unwrap();
    (
        res.status().as_u16(),
        res.json().await.unwrap_or(Value::Null),
    )
}

/// A call of `service` from the client address `ip` (the tests' loopback peer is a trusted
/// proxy, so `X-Forwarded-For` names the client).
async fn call_from(
    app: &TestApp,
    base: &str,
    key: &str,
    service: &str,
    ip: &str,
) -> (u16, reqwest::header::HeaderMap, Value) {
    let res = app
        .client
        .post(format!("{base}/api/v1/verify/{service}"))
        .header("x-api-key", key)
        .header("x-forwarded-for", ip)
        .json(&json!({"id_number": "ABCDE1234F"}))
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    (status, headers, res.json().await.unwrap_or(Value::Null))
}

/// Calls until `want` answers or `within` passes.
async fn until(
    app: &TestApp,
    base: &str,
    key: &str,
    service: &str,
    ip: &str,
    want: u16,
    within: Duration,
) -> Option<Value> {
    let started = Instant::now();
    while started.elapsed() < within {
        let (st, _, body) = call_from(app, base, key, service, ip).await;
        if st == want {
            return Some(body);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    None
}

fn key_of<'a>(list: &'a Value, id: &Value) -> &'a Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|k| k["id"] == *id)
        .unwrap()
}

/// The refusals of the user kept in its API log, as (status code, reason), oldest first; waits
/// until `n` are there (they are written off the call's path).
async fn refusals(app: &TestApp, user_id: i64, n: usize) -> Vec<(i32, String)> {
    let mut rows = vec![];
    for _ in 0..100 {
        rows = sqlx::query_as(
            "SELECT status_code, reason FROM api_logs WHERE user_id = $1 AND reason IS NOT NULL ORDER BY id",
        )
        .bind(user_id)
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        if rows.len() >= n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    rows
}

#[tokio::test]
async fn gateway_key_expiry_ip_list_and_api_list_are_enforced_and_logged() {
    let app = TestApp::spawn().await;
    let l = live(&app, "acme").await;
    let expires = (chrono::Utc::now() + chrono::Duration::hours(1)).to_rfc3339();
    let (s, created) = create_key(
        &app,
        &l.token,
        json!({"mode": "live", "name": " CI server ", "expires_at": expires,
               "allowed_ips": ["198.51.100.0/24", "2001:db8::1"], "allowed_services": ["pan_check"]}),
    )
    .await;
    assert_eq!(s, 201, "{created}");
    let key = created["key"].as_str().unwrap().to_owned();

    let (_, list) = app.get("/api/v1/me/api-keys", Some(&l.token)).await;
    let k = key_of(&list, &created["id"]);
    assert_eq!(k["name"], "CI server");
    assert_eq!(k["allowed_ips"], json!(["198.51.100.0/24", "2001:db8::1"]));
    assert_eq!(k["allowed_services"], json!(["pan_check"]));
    assert!(k["expires_at"].is_string(), "{k}");
    assert_eq!(k["status"], "active");

    // From inside the list, the listed API: charged as usual.
    let (st, h, body) = call_from(&app, &app.base, &key, "pan_check", INSIDE).await;
    assert_eq!(
        (st, h["x-charged-paise"].to_str().unwrap()),
        (200, "300"),
        "{body}"
    );
    // From elsewhere: 403 with its own code, nothing charged.
    let (st, _, body) = call_from(&app, &app.base, &key, "pan_check", OUTSIDE).await;
    assert_eq!(
        (st, body["error"]["code"].as_str()),
        (403, Some("key_ip_not_allowed")),
        "{body}"
    );
    // An API off the key's list: 403 with its own code.
    let (st, _, body) = call_from(&app, &app.base, &key, "gst_check", INSIDE).await;
    assert_eq!(
        (st, body["error"]["code"].as_str()),
        (403, Some("key_api_not_allowed")),
        "{body}"
    );
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("gst_check"),
        "{body}"
    );
    // What the key may call says so too.
    let offers: Value = app
        .client
        .get(app.url("/api/v1/verify"))
        .header("x-api-key", &key)
        .header("x-forwarded-for", INSIDE)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let services: Vec<&str> = offers
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["service"].as_str().unwrap())
        .collect();
    assert_eq!(services, ["pan_check"]);

    // Past its expiry (moved by SQL; the cache hears of it), 401 saying why.
    sqlx::query("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1")
        .bind(created["id"].as_i64().unwrap())
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    let (st, _, body) = call_from(&app, &app.base, &key, "pan_check", INSIDE).await;
    assert_eq!(st, 401, "{body}");
    portal::assert_error(&body);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("This API key expired at "),
        "{body}"
    );
    let (_, list) = app.get("/api/v1/me/api-keys", Some(&l.token)).await;
    assert_eq!(key_of(&list, &created["id"])["status"], "expired");

    // Each refusal is in the user's API log with its status code and reason.
    let logged = refusals(&app, l.site.user_id, 3).await;
    let codes: Vec<i32> = logged.iter().map(|(c, _)| *c).collect();
    assert_eq!(codes, [403, 403, 401], "{logged:?}");
    assert_eq!(
        logged[0].1,
        "This API key may not be used from this IP address"
    );
    assert_eq!(logged[1].1, "This API key may not call gst_check");
    assert!(logged[2].1.starts_with("This API key expired at "));
    let charged: i64 =
        sqlx::query_scalar("SELECT count(*) FROM api_transactions WHERE user_id = $1")
            .bind(l.site.user_id)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert_eq!(charged, 1, "refusals move no money");
    gs::audit(&app).await;
}

#[tokio::test]
async fn gateway_a_change_to_a_keys_lists_is_in_force_everywhere_within_a_second() {
    let app = TestApp::spawn().await;
    let l = live(&app, "acme").await;
    let (second, _stop) = gs::second_instance(&app).await;
    let (_, created) = create_key(&app, &l.token, json!({"mode": "live", "name": "server"})).await;
    let key = created["key"].as_str().unwrap().to_owned();
    let id = created["id"].as_i64().unwrap();
    // Both processes hold the key's caller in memory.
    for base in [&app.base, &second] {
        for service in ["pan_check", "gst_check"] {
            assert_eq!(call_from(&app, base, &key, service, OUTSIDE).await.0, 200);
        }
    }

    // An API list written by neither process: refused by both within a second.
    sqlx::query("UPDATE api_keys SET allowed_services = '{pan_check}' WHERE id = $1")
        .bind(id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    for base in [&app.base, &second] {
        let body = until(
            &app,
            base,
            &key,
            "gst_check",
            OUTSIDE,
            403,
            Duration::from_secs(1),
        )
        .await
        .unwrap_or_else(|| panic!("{base} still lets the key call gst_check"));
        assert_eq!(body["error"]["code"], "key_api_not_allowed");
        assert_eq!(
            call_from(&app, base, &key, "pan_check", OUTSIDE).await.0,
            200
        );
    }

    // Through the portal: in force here when it answers, and in the other process within a second.
    let (s, updated) = patch(
        &app,
        &format!("/api/v1/me/api-keys/{id}"),
        &json!({"allowed_services": [], "allowed_ips": ["198.51.100.0/24"]}),
        &l.token,
    )
    .await;
    assert_eq!(s, 200, "{updated}");
    assert_eq!(
        updated["name"], "server",
        "an absent field is left as it was"
    );
    assert_eq!(updated["allowed_ips"], json!(["198.51.100.0/24"]));
    assert_eq!(updated["allowed_services"], json!([]));
    let (st, _, body) = call_from(&app, &app.base, &key, "gst_check", OUTSIDE).await;
    assert_eq!(
        (st, &body["error"]["code"]),
        (403, &json!("key_ip_not_allowed"))
    );
    let body = until(
        &app,
        &second,
        &key,
        "gst_check",
        OUTSIDE,
        403,
        Duration::from_secs(1),
    )
    .await
    .expect("the other process still lets the key in from anywhere");
    assert_eq!(body["error"]["code"], "key_ip_not_allowed");
    for base in [&app.base, &second] {
        assert_eq!(
            call_from(&app, base, &key, "gst_check", INSIDE).await.0,
            200,
            "the list lifted"
        );
    }
    gs::audit(&app).await;
}

#[tokio::test]
async fn gateway_key_usage_counts_each_keys_calls_and_spend_of_the_last_30_days() {
    let app = TestApp::spawn().await;
    let l = live(&app, "acme").await;
    let (_, a) = create_key(&app, &l.token, json!({"mode": "live", "name": "a"})).await;
    let (_, b) = create_key(&app, &l.token, json!({"mode": "live", "name": "b"})).await;
    let (_, idle) = create_key(&app, &l.token, json!({"mode": "live", "name": "idle"})).await;
    let (ka, kb) = (a["key"].as_str().unwrap(), b["key"].as_str().unwrap());
    for _ in 0..3 {
        assert_eq!(
            call_from(&app, &app.base, ka, "pan_check", INSIDE).await.0,
            200
        );
    }
    assert_eq!(
        call_from(&app, &app.base, ka, "gst_check", INSIDE).await.0,
        200
    );
    // A failed call is a call, refunded: no spend.
    l.up.set(FAIL_500);
    assert_eq!(
        call_from(&app, &app.base, ka, "pan_check", INSIDE).await.0,
        502
    );
    l.up.set(OK);
    assert_eq!(
        call_from(&app, &app.base, kb, "gst_check", INSIDE).await.0,
        200
    );
    // One of a's calls is older than the window.
    sqlx::query(
        "UPDATE api_transactions SET created_at = now() - interval '31 days'
          WHERE id = (SELECT min(id) FROM api_transactions WHERE key_id = $1)",
    )
    .bind(a["id"].as_i64().unwrap())
    .execute(&app.db.pool)
    .await
    .unwrap();
    // The console's calls (sandbox calls, so the API goes on the sandbox list; charged, as the
    // partner charges its sandbox calls here) belong to no key.
    sqlx::query("INSERT INTO sandbox_apis (api_id) SELECT id FROM api_catalogue WHERE service = 'pan_check'")
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::charge_sandbox(&app, l.site.partner.id).await;
    let (s, tried) = app
        .post(
            "/api/v1/me/try/pan_check",
            &json!({"id_number": "X"}),
            Some(&l.token),
        )
        .await;
    assert_eq!((s, &tried["charged_paise"]), (200, &json!(300)), "{tried}");

    let (_, list) = app.get("/api/v1/me/api-keys", Some(&l.token)).await;
    assert_eq!(
        key_of(&list, &a["id"])["usage"],
        json!({"calls": 4, "spend_paise": 300 + 300 + 200})
    );
    assert_eq!(
        key_of(&list, &b["id"])["usage"],
        json!({"calls": 1, "spend_paise": 200})
    );
    assert_eq!(
        key_of(&list, &idle["id"])["usage"],
        json!({"calls": 0, "spend_paise": 0})
    );
    // The partner's view of its user's keys says the same.
    let ptoken = fixtures::partner_token(&app, l.site.partner.id, "acme").await;
    let (s, plist) = app
        .get(
            &format!("/api/v1/partner/users/{}/api-keys", l.site.user_id),
            Some(&ptoken),
        )
        .await;
    assert_eq!(s, 200, "{plist}");
    assert_eq!(
        key_of(&plist, &a["id"])["usage"],
        key_of(&list, &a["id"])["usage"]
    );
}

#[tokio::test]
async fn gateway_key_controls_refuse_bad_input_and_another_users_key() {
    let app = TestApp::spawn().await;
    let l = live(&app, "acme").await;
    let (_, mine) = create_key(&app, &l.token, json!({"mode": "sandbox"})).await;
    assert_eq!(mine["mode"], "sandbox", "name and lists are optional");

    let past = (chrono::Utc::now() - chrono::Duration::minutes(1)).to_rfc3339();
    let too_many: Vec<String> = (0..51).map(|i| format!("10.0.0.{i}")).collect();
    let cases = [
        (json!({"mode": "live", "name": "x".repeat(101)}), "name"),
        (json!({"mode": "live", "name": "a\u{7}b"}), "name"),
        (json!({"mode": "live", "expires_at": past}), "expires_at"),
        (
            json!({"mode": "live", "expires_at": "tomorrow"}),
            "expires_at",
        ),
        (
            json!({"mode": "live", "expires_at": "2040-01-01T00:00:00Z"}),
            "expires_at",
        ),
        (
            json!({"mode": "live", "allowed_ips": ["10.0.0.300"]}),
            "allowed_ips",
        ),
        (
            json!({"mode": "live", "allowed_ips": ["example.com"]}),
            "allowed_ips",
        ),
        (
            json!({"mode": "live", "allowed_ips": too_many}),
            "allowed_ips",
        ),
        (
            json!({"mode": "live", "allowed_services": ["no_such_api"]}),
            "allowed_services",
        ),
    ];
    for (body, field) in &cases {
        let (s, b) = create_key(&app, &l.token, body.clone()).await;
        assert_eq!(s, 422, "{body} -> {b}");
        portal::assert_error(&b);
        assert!(b["error"]["fields"][field].is_string(), "{body} -> {b}");
    }
    // Wrong types and unknown fields are 422 in the same shape, never a 500.
    for body in [
        json!({"mode": "live", "allowed_ips": "10.0.0.1"}),
        json!({"mode": "live", "allowed_services": [1]}),
        json!({"mode": "live", "expires": "2027-01-01T00:00:00Z"}),
    ] {
        let (s, b) = create_key(&app, &l.token, body.clone()).await;
        assert_eq!(s, 422, "{body} -> {b}");
        portal::assert_error(&b);
    }
    let id = mine["id"].as_i64().unwrap();
    let path = format!("/api/v1/me/api-keys/{id}");
    let (s, b) = patch(
        &app,
        &path,
        &json!({"allowed_ips": ["300.1.1.1"]}),
        &l.token,
    )
    .await;
    assert_eq!(
        (s, b["error"]["fields"]["allowed_ips"].is_string()),
        (422, true),
        "{b}"
    );
    let (s, b) = patch(
        &app,
        &path,
        &json!({"expires_at": "2027-01-01T00:00:00Z"}),
        &l.token,
    )
    .await;
    assert_eq!(s, 422, "the expiry is chosen at creation only: {b}");
    let keys: i64 = sqlx::query_scalar("SELECT count(*) FROM api_keys WHERE user_id = $1")
        .bind(l.site.user_id)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(keys, 1, "no refused creation made a key");

    // Another user of the same partner, and the partner's neighbour, see none of it.
    let (other, email) = portal::user_with_password(&app, l.site.partner.id, 2).await;
    let other_token = token(&app, "acme", &email).await;
    let (s, b) = patch(&app, &path, &json!({"name": "mine now"}), &other_token).await;
    assert_eq!(s, 404, "{b}");
    portal::assert_error(&b);
    assert_eq!(fixtures::delete(&app, &path, Some(&other_token)).await, 404);
    let (_, list) = app.get("/api/v1/me/api-keys", Some(&other_token)).await;
    assert_eq!(list, json!([]));
    let neighbour = fixtures::partner(&app, "beta").await;
    let (s, _) = patch(
        &app,
        &format!("/api/v1/partner/users/{}/api-keys/{id}", l.site.user_id),
        &json!({"name": "x"}),
        &neighbour.token,
    )
    .await;
    assert_eq!(s, 404);
    let ptoken = fixtures::partner_token(&app, l.site.partner.id, "acme").await;
    let (s, _) = patch(
        &app,
        &format!("/api/v1/partner/users/{other}/api-keys/{id}"),
        &json!({"name": "x"}),
        &ptoken,
    )
    .await;
    assert_eq!(s, 404, "a key under another user's path");
    let (s, b) = patch(
        &app,
        &format!("/api/v1/partner/users/{}/api-keys/{id}", l.site.user_id),
        &json!({"name": "Set by the partner", "allowed_services": ["pan_check"]}),
        &ptoken,
    )
    .await;
    assert_eq!((s, &b["name"]), (200, &json!("Set by the partner")), "{b}");
    let name: String = sqlx::query_scalar("SELECT name FROM api_keys WHERE id = $1")
        .bind(id)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(name, "Set by the partner");
}

/// The kept answer of a call by its transaction id, read with `key`.
async fn kept(app: &TestApp, key: &str, id: &str) -> (u16, Value) {
    let res = app
        .client
        .get(app.url(&format!("/api/v1/verify/transactions/{id}")))
        .header("x-api-key", key)
        .header("x-forwarded-for", INSIDE)
        .send()
        .await
        .unwrap();
    (
        res.status().as_u16(),
        res.json().await.unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn gateway_results_are_read_back_by_transaction_id_sealed_and_only_by_their_owner() {
    let app = TestApp::spawn().await;
    let l = live(&app, "acme").await;
    let (_, a) = create_key(&app, &l.token, json!({"mode": "live"})).await;
    let (_, a2) = create_key(&app, &l.token, json!({"mode": "live"})).await;
    let key = a["key"].as_str().unwrap();
    let (st, h, body) = call_from(&app, &app.base, key, "pan_check", INSIDE).await;
    assert_eq!(st, 200);
    let txn = h["x-transaction-id"].to_str().unwrap().to_owned();

    let (s, got) = kept(&app, key, &txn).await;
    assert_eq!(s, 200, "{got}");
    assert_eq!(got["id"].as_i64().unwrap().to_string(), txn);
    assert_eq!(got["service"], "pan_check");
    assert_eq!(got["status"], "success");
    assert_eq!(got["status_code"], 200);
    assert_eq!(got["charged_paise"], 300);
    assert!(got["created_at"].is_string());
    assert_eq!(got["response"], body, "the answer the call got");
    // Another key of the same user reads it too: the calls are the user's.
    assert_eq!(kept(&app, a2["key"].as_str().unwrap(), &txn).await.0, 200);

    // Sealed at rest: the answer is nowhere in clear.
    let clear: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM api_results WHERE position(convert_to('ABCDE1234F', 'UTF8') in sealed) > 0",
    )
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM api_results")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!((clear, rows), (0, 1));

    // A failed call: refunded, with the error it was answered.
    l.up.set(FAIL_500);
    let (st, h, _) = call_from(&app, &app.base, key, "gst_check", INSIDE).await;
    assert_eq!(st, 502);
    let failed = h["x-transaction-id"].to_str().unwrap().to_owned();
    let (s, got) = kept(&app, key, &failed).await;
    assert_eq!(s, 200, "{got}");
    assert_eq!(
        (&got["status"], &got["status_code"], &got["charged_paise"]),
        (&json!("refunded"), &json!(500), &json!(0))
    );
    assert_eq!(got["response"]["error"]["code"], "upstream_error");

    // Another user's key, an unknown id, a malformed id, no key: 404 or 401, in the contract's shape.
    let other = live(&app, "beta").await;
    let (_, ok) = create_key(&app, &other.token, json!({"mode": "live"})).await;
    let other_key = ok["key"].as_str().unwrap();
    let (s, b) = kept(&app, other_key, &txn).await;
    assert_eq!(s, 404, "{b}");
    portal::assert_error(&b);
    assert_eq!(kept(&app, key, "999999999").await.0, 404);
    assert_eq!(kept(&app, key, "abc").await.0, 404);
    assert_eq!(
        kept(&app, "kyc_live_0123456789abcdefghijABCDEFGHIJ01", &txn)
            .await
            .0,
        401
    );
    // A key kept off this address reads nothing from here either.
    let (_, fenced) = create_key(
        &app,
        &l.token,
        json!({"mode": "live", "allowed_ips": ["192.0.2.1"]}),
    )
    .await;
    let (s, b) = kept(&app, fenced["key"].as_str().unwrap(), &txn).await;
    assert_eq!(
        (s, &b["error"]["code"]),
        (403, &json!("key_ip_not_allowed"))
    );
}

#[tokio::test]
async fn gateway_results_are_pruned_after_their_retention() {
    let app = TestApp::spawn().await;
    let l = live(&app, "acme").await;
    let (_, a) = create_key(&app, &l.token, json!({"mode": "live"})).await;
    let key = a["key"].as_str().unwrap();
    let mut txns = vec![];
    for _ in 0..2 {
        let (st, h, _) = call_from(&app, &app.base, key, "pan_check", INSIDE).await;
        assert_eq!(st, 200);
        txns.push(h["x-transaction-id"].to_str().unwrap().to_owned());
    }
    // The first answer is past the default 24 hours.
    sqlx::query("UPDATE api_results SET created_at = now() - interval '24 hours 1 minute' WHERE transaction_id = $1")
        .bind(txns[0].parse::<i64>().unwrap())
        .execute(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(
        kept(&app, key, &txns[0]).await.0,
        404,
        "not read past the retention"
    );
    assert_eq!(kept(&app, key, &txns[1]).await.0, 200);

    let ctx = jobs::JobContext::new(app.db.pool.clone(), app.config.clone()).unwrap();
    jobs::registry::enqueue_periodic::<jobs::PruneResults>(&ctx, chrono::Utc::now())
        .await
        .unwrap()
        .expect("queued");
    app.run_pending_jobs().await;
    let left: Vec<i64> = sqlx::query_scalar("SELECT transaction_id FROM api_results ORDER BY 1")
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(
        left,
        [txns[1].parse::<i64>().unwrap()],
        "the old answer deleted, the new one kept"
    );
    assert_eq!(kept(&app, key, &txns[1]).await.0, 200);
    // The call itself stays in the history.
    let calls: i64 = sqlx::query_scalar("SELECT count(*) FROM api_transactions WHERE key_id = $1")
        .bind(a["id"].as_i64().unwrap())
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(calls, 2);
}

#[tokio::test]
async fn gateway_results_retention_zero_keeps_none() {
    let app = TestApp::spawn_with(|c| c.gateway.result_retention = Duration::ZERO).await;
    let l = live(&app, "acme").await;
    let (_, a) = create_key(&app, &l.token, json!({"mode": "live"})).await;
    let key = a["key"].as_str().unwrap();
    let (st, h, _) = call_from(&app, &app.base, key, "pan_check", INSIDE).await;
    assert_eq!(st, 200);
    let txn = h["x-transaction-id"].to_str().unwrap();
    assert_eq!(kept(&app, key, txn).await.0, 404);
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM api_results")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(rows, 0);
}
