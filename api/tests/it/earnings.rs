//! The partner dashboard's earnings: revenue (what the users paid), cost (what the partner
//! paid) and margin, per day and per API, read from counters and exactly equal to the sums over
//! the transactions themselves; refunded, failed and pending calls earn nothing; one partner
//! never sees another's.

use serde_json::{Value, json};

use crate::{
    common::TestApp,
    fixtures,
    gateway_support::{self as gs, Upstream},
    portal,
};

/// The same figures computed the slow way, from the transactions, for checking the counters.
async fn raw(app: &TestApp, partner_id: i64, from: &str, to: &str) -> (i64, i64, i64) {
    sqlx::query_as(
        "SELECT count(*), COALESCE(sum(user_amount_paise), 0)::bigint, COALESCE(sum(amount_paise), 0)::bigint FROM api_transactions
          WHERE partner_id = $1 AND status = 'success' AND (created_at AT TIME ZONE 'Asia/Kolkata')::date BETWEEN $2::date AND $3::date",
    )
    .bind(partner_id)
    .bind(from)
    .bind(to)
    .fetch_one(&app.db.pool)
    .await
    .unwrap()
}

fn totals(b: &Value) -> (i64, i64, i64, i64) {
    (
        b["calls"].as_i64().unwrap(),
        b["revenue_paise"].as_i64().unwrap(),
        b["cost_paise"].as_i64().unwrap(),
        b["margin_paise"].as_i64().unwrap(),
    )
}

#[tokio::test]
async fn gateway_calls_earn_their_margin_and_refunded_calls_earn_nothing() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(
        &app, "earnacme", &up.base, "earn_pan", 1_000, 100_000, 100_000,
    )
    .await;
    let token = fixtures::partner_token(&app, s.partner_id, "earnacme").await;
    // The partner sells at 20 % over its cost: the user pays ₹12.00, the partner ₹10.00.
    let (st, b) = fixtures::put(
        &app,
        "/api/v1/partner/selling-prices/margin",
        &json!({"default_margin_percent": 20}),
        Some(&token),
    )
    .await;
    assert_eq!(st, 200, "{b}");

    for _ in 0..3 {
        assert_eq!(
            gs::verify(
                &app,
                &app.base,
                &s.key,
                "earn_pan",
                &json!({"id_number": "ABCDE1234F"})
            )
            .await
            .0,
            200
        );
    }
    up.set(gs::FAIL_500);
    for _ in 0..2 {
        assert_eq!(
            gs::verify(
                &app,
                &app.base,
                &s.key,
                "earn_pan",
                &json!({"id_number": "ABCDE1234F"})
            )
            .await
            .0,
            502
        );
    }
    let refunded = fixtures::count(
        &app,
        "SELECT count(*) FROM api_transactions WHERE status = 'refunded'",
    )
    .await;
    assert_eq!(refunded, 2);

    let today = domain::infra::ist::today().to_string();
    let (st, e) = app
        .get(
            &format!("/api/v1/partner/earnings?from={today}&to={today}"),
            Some(&token),
        )
        .await;
    assert_eq!(st, 200, "{e}");
    assert_eq!(totals(&e), (3, 3_600, 3_000, 600), "{e}");
    assert_eq!(
        raw(&app, s.partner_id, &today, &today).await,
        (3, 3_600, 3_000)
    );
    assert_eq!(e["days"].as_array().unwrap().len(), 1);
    assert_eq!(e["days"][0]["day"], today.as_str());
    assert_eq!(e["days"][0]["margin_paise"], 600);
    assert_eq!(e["apis"].as_array().unwrap().len(), 1);
    assert_eq!(
        (
            e["apis"][0]["service"].as_str(),
            e["apis"][0]["name"].as_str()
        ),
        (Some("earn_pan"), Some("API earn_pan")),
        "{e}"
    );
    assert_eq!(totals(&e["apis"][0]), (3, 3_600, 3_000, 600));
    // The default period is the last 30 days, today included.
    let (_, d) = app.get("/api/v1/partner/earnings", Some(&token)).await;
    assert_eq!(
        (d["days"].as_array().unwrap().len(), d["to"].as_str()),
        (30, Some(today.as_str()))
    );
    assert_eq!(totals(&d), (3, 3_600, 3_000, 600));
}

/// Rows of partner `p` written by hand: (user, service, days ago, status, cost, user amount).
async fn rows(app: &TestApp, p: i64, user: i64, list: &[(&str, i32, &str, i64, i64)]) {
    for (service, ago, status, cost, paid) in list {
        sqlx::query(
            "INSERT INTO api_transactions (partner_id, user_id, service, pid, status, amount_paise, user_amount_paise, created_at)
             VALUES ($1, $2, $3, 'PID', $4, $5, $6, date_trunc('day', now() AT TIME ZONE 'Asia/Kolkata') AT TIME ZONE 'Asia/Kolkata' - make_interval(days => $7) + interval '1 hour')",
        )
        .bind(p)
        .bind(user)
        .bind(service)
        .bind(status)
        .bind(cost)
        .bind(paid)
        .bind(ago)
        .execute(&app.db.pool)
        .await
        .unwrap();
    }
}

#[tokio::test]
async fn counters_equal_the_transactions_through_every_change_and_per_partner() {
    let app = TestApp::spawn().await;
    let a = fixtures::partner(&app, "earna").await;
    let b = fixtures::partner(&app, "earnb").await;
    let (ua, ub) = (
        fixtures::user(&app, a.id, 1).await,
        fixtures::user(&app, b.id, 1).await,
    );
    fixtures::api(&app, "earn_aml", 500).await;
    rows(
        &app,
        a.id,
        ua,
        &[
            ("earn_aml", 0, "success", 500, 700),
            ("earn_aml", 0, "success", 500, 650),
            ("earn_aml", 1, "success", 500, 700),
            ("earn_bank", 1, "success", 2_000, 1_800), // sold below cost: a negative margin
            ("earn_bank", 2, "refunded", 2_000, 2_500),
            ("earn_bank", 2, "failed", 2_000, 2_500),
            ("earn_aml", 3, "pending", 500, 700),
            ("earn_aml", 40, "success", 500, 700), // outside a 30-day period
        ],
    )
    .await;
    rows(&app, b.id, ub, &[("earn_aml", 0, "success", 9_000, 9_999)]).await;
    let day = |ago: i64| (domain::infra::ist::today() - chrono::Duration::days(ago)).to_string();
    let get = |token: String, from: String, to: String| {
        let app = &app;
        async move {
            app.get(
                &format!("/api/v1/partner/earnings?from={from}&to={to}"),
                Some(&token),
            )
            .await
            .1
        }
    };
    let check = |e: Value, expect: (i64, i64, i64)| {
        assert_eq!(
            totals(&e),
            (expect.0, expect.1, expect.2, expect.1 - expect.2),
            "{e}"
        );
        let days: i64 = e["days"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["revenue_paise"].as_i64().unwrap())
            .sum();
        let apis: i64 = e["apis"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["revenue_paise"].as_i64().unwrap())
            .sum();
        assert_eq!(
            (days, apis),
            (expect.1, expect.1),
            "per day and per API add up to the total: {e}"
        );
    };
    for (from, to) in [(29, 0), (0, 0), (1, 1), (3, 2), (45, 0)] {
        let expect = raw(&app, a.id, &day(from), &day(to)).await;
        check(get(a.token.clone(), day(from), day(to)).await, expect);
    }
    let e = get(a.token.clone(), day(29), day(0)).await;
    assert_eq!(totals(&e), (4, 3_850, 3_500, 350));
    let bank = e["apis"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["service"] == "earn_bank")
        .unwrap()
        .clone();
    assert_eq!(
        (bank["name"].as_str(), bank["margin_paise"].as_i64()),
        (Some("earn_bank"), Some(-200)),
        "an API gone from the catalogue keeps its key as name"
    );
    assert_eq!(e["apis"][0]["service"], "earn_aml", "highest revenue first");

    // Settling, refunding after success, moving and deleting rows: the counters follow.
    sqlx::query("UPDATE api_transactions SET status = 'success' WHERE partner_id = $1 AND status = 'pending'").bind(a.id).execute(&app.db.pool).await.unwrap();
    sqlx::query("UPDATE api_transactions SET status = 'refunded' WHERE partner_id = $1 AND user_amount_paise = 650").bind(a.id).execute(&app.db.pool).await.unwrap();
    sqlx::query("UPDATE api_transactions SET created_at = created_at - interval '1 day' WHERE partner_id = $1 AND service = 'earn_bank'").bind(a.id).execute(&app.db.pool).await.unwrap();
    sqlx::query("UPDATE api_transactions SET remaining_paise = 1 WHERE partner_id = $1")
        .bind(a.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    sqlx::query("DELETE FROM api_transactions WHERE partner_id = $1 AND created_at < now() - interval '30 days'").bind(a.id).execute(&app.db.pool).await.unwrap();
    for (from, to) in [(29, 0), (0, 0), (2, 2), (3, 3), (45, 0)] {
        let expect = raw(&app, a.id, &day(from), &day(to)).await;
        check(get(a.token.clone(), day(from), day(to)).await, expect);
    }
    // And the whole table agrees, row for row.
    let drift = fixtures::count(
        &app,
        "SELECT count(*) FROM (
            SELECT partner_id, (created_at AT TIME ZONE 'Asia/Kolkata')::date AS day, service, count(*) AS calls, sum(user_amount_paise) AS revenue, sum(amount_paise) AS cost
              FROM api_transactions WHERE status = 'success' GROUP BY 1, 2, 3) t
          FULL JOIN (SELECT * FROM earnings_counts WHERE service <> '' AND calls <> 0) e USING (partner_id, day, service)
         WHERE t.calls IS DISTINCT FROM e.calls OR t.revenue IS DISTINCT FROM e.revenue_paise OR t.cost IS DISTINCT FROM e.cost_paise",
    )
    .await;
    assert_eq!(drift, 0);

    // Tenant isolation: b sees its own call only, a never sees b's.
    let eb = get(b.token.clone(), day(29), day(0)).await;
    assert_eq!(totals(&eb), (1, 9_999, 9_000, 999));
    let ea = get(a.token.clone(), day(29), day(0)).await;
    assert!(!ea.to_string().contains("9999"), "{ea}");
}

#[tokio::test]
async fn bad_periods_are_422_and_others_are_refused() {
    let app = TestApp::spawn().await;
    let a = fixtures::partner(&app, "earnbad").await;
    let t = Some(a.token.as_str());
    for (q, field) in [
        ("from=yesterday", "from"),
        ("from=2026-02-30&to=2026-03-01", "from"),
        ("to=2026-1-1x", "to"),
        ("from=2026-03-01&to=2026-02-01", "from"),
        ("from=2024-01-01&to=2025-01-01", "to"),
        ("from=%00&to=%FF", "from"),
    ] {
        let (s, e) = app.get(&format!("/api/v1/partner/earnings?{q}"), t).await;
        assert_eq!(s, 422, "{q}: {e}");
        assert!(e["error"]["fields"][field].is_string(), "{q}: {e}");
    }
    let (s, e) = app
        .get("/api/v1/partner/earnings?from=2025-01-01&to=2025-12-31", t)
        .await;
    assert_eq!((s, e["days"].as_array().map(Vec::len)), (200, Some(365)));
    let (s, e) = app.get("/api/v1/partner/earnings?from[]=x", t).await;
    assert!((200..500).contains(&s), "{e}");
    assert_eq!(app.get("/api/v1/partner/earnings", None).await.0, 401);
    let site = portal::site(&app, "earnsite").await;
    let user = portal::token(&app, "earnsite", &site.email).await;
    assert_eq!(
        app.get("/api/v1/partner/earnings", Some(&user)).await.0,
        403
    );
}
