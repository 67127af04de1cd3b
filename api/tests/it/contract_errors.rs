//! Issue 22, finding 7: what the framework answers by itself is in the contract's error shape
//! too (405, 413); money is a JSON integer only; an idempotency key in the body may not
//! silently win over a different `Idempotency-Key` header.

use serde_json::{Value, json};

use crate::{
    common::TestApp,
    fixtures,
    gateway_support::{self as gs, Upstream},
};

#[tokio::test]
async fn method_not_allowed_and_too_large_answer_in_the_contract_shape() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 10_000, 10_000).await;

    let res = app
        .client
        .get(app.url("/api/v1/verify/pan_check"))
        .header("x-api-key", &s.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 405);
    let b: Value = res.json().await.unwrap();
    assert_eq!(b["error"]["code"], "method_not_allowed", "{b}");
    assert!(b["error"]["message"].is_string());

    let big = format!("{{\"id_number\": \"{}\"}}", "A".repeat(3 << 20));
    let res = app
        .client
        .post(app.url("/api/v1/verify/pan_check"))
        .header("x-api-key", &s.key)
        .header("content-type", "application/json")
        .body(big)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 413);
    let b: Value = res.json().await.unwrap();
    assert_eq!(b["error"]["code"], "too_large", "{b}");
    assert_eq!(up.hits(), 0);
    assert_eq!(
        gs::balance(&app, s.user_wallet).await,
        10_000,
        "nothing charged"
    );
}

#[tokio::test]
async fn amounts_are_integers_and_two_idempotency_keys_must_agree() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "acme").await;
    let user = fixtures::user(&app, p.id, 1).await;
    let path = format!("/api/v1/partner/users/{user}/wallets/api/entries");
    let post = |body: Value, header: Option<&'static str>| {
        let (app, path, token) = (&app, path.clone(), p.token.clone());
        async move {
            let mut req = app
                .client
                .post(app.url(&path))
                .bearer_auth(token)
                .json(&body);
            if let Some(h) = header {
                req = req.header("idempotency-key", h);
            }
            let res = req.send().await.unwrap();
            (
                res.status().as_u16(),
                res.json::<Value>().await.unwrap_or(Value::Null),
            )
        }
    };

    for amount in [json!(1000.0), json!(1e3), json!(10.5)] {
        let (st, b) = post(json!({"type": "credit", "amount_paise": amount}), None).await;
        assert_eq!(st, 422, "{amount}: {b}");
        assert!(b["error"]["fields"]["amount_paise"].is_string(), "{b}");
    }

    let (st, b) = post(
        json!({"type": "credit", "amount_paise": 1000, "idempotency_key": "body-key"}),
        Some("header-key"),
    )
    .await;
    assert_eq!(st, 422, "{b}");
    assert_eq!(
        b["error"]["fields"]["idempotency_key"],
        "The idempotency key in the body differs from the Idempotency-Key header"
    );
    let balance = || async {
        let (_, w) = app
            .get(
                &format!("/api/v1/partner/users/{user}/wallets"),
                Some(&p.token),
            )
            .await;
        w["api"]["balance_paise"].as_i64()
    };
    assert_eq!(balance().await, Some(0), "nothing moved");

    // The same key in both places is one request, replayed once.
    let body = json!({"type": "credit", "amount_paise": 1000, "idempotency_key": "k1"});
    let (st, first) = post(body.clone(), Some("k1")).await;
    assert_eq!(st, 200, "{first}");
    let (st, again) = post(body, Some("k1")).await;
    assert_eq!(
        (st, again["replayed"].as_bool()),
        (200, Some(true)),
        "{again}"
    );
    assert_eq!(balance().await, Some(1000));
}
