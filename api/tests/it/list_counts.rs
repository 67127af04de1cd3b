//! Lists of ten million rows (issue 11): totals come from counters the writers keep in their
//! own transaction (`list_counts`, `list_totals`), and pages are found through them. These
//! tests hold the counters against `count(*)` after every kind of writer, and every counted
//! list's pages (first, far, last, past the end) against the same rows read with a plain
//! `ORDER BY … OFFSET`.

use futures::future::join_all;
use serde_json::{Value, json};

use crate::{
    common::TestApp,
    fixtures,
    gateway_support::{self as gs, FAIL_500, OK, Upstream},
};

/// Every counter row differs from a `count(*)` of what it counts, and every all-time total
/// from its scope's `count(*)`: none may.
pub(crate) async fn drift(app: &TestApp) -> Vec<String> {
    let mut wrong = Vec::new();
    // (source, scope, user, label): the columns the migration counts by ('' = no such level).
    for (source, scope, user, label) in [
        ("api_transactions", "partner_id", "user_id", "service"),
        ("product_transactions", "partner_id", "user_id", "product"),
        ("api_logs", "partner_id", "user_id", "service"),
        ("product_logs", "partner_id", "user_id", ""),
        ("wallet_entries", "wallet_id", "", "type"),
    ] {
        let mut sets = vec!["(scope, day)"];
        if !user.is_empty() {
            sets.push("(scope, user_id, day)");
        }
        if !label.is_empty() {
            sets.push("(scope, label, day)");
        }
        if !user.is_empty() && !label.is_empty() {
            sets.push("(scope, user_id, label, day)");
        }
        let user_out = if user.is_empty() {
            "0::bigint"
        } else {
            "COALESCE(user_id, 0)"
        };
        let label_out = if label.is_empty() {
            "''::text"
        } else {
            "COALESCE(label, '')"
        };
        let sql = format!(
            "WITH truth AS (
                 SELECT scope, {user_out} AS user_id, {label_out} AS label, day, count(*) AS n
                   FROM (SELECT {scope} AS scope, {u} AS user_id, {l} AS label, (created_at AT TIME ZONE 'Asia/Kolkata')::date AS day FROM {source}) r
                  GROUP BY GROUPING SETS ({sets})),
             kept AS (SELECT scope, user_id, label, day, n FROM list_counts WHERE source = '{source}' AND n <> 0)
             SELECT format('%s %s/%s/%s/%s: %s', '{source}', scope, user_id, label, day, n)
               FROM ((TABLE truth EXCEPT TABLE kept) UNION ALL (TABLE kept EXCEPT TABLE truth)) d
             UNION ALL
             SELECT format('%s total of %s: kept %s, counted %s', '{source}', scope, kept, counted)
               FROM (SELECT scope, n AS kept FROM list_totals WHERE source = '{source}') k
               FULL JOIN (SELECT {scope} AS scope, count(*) AS counted FROM {source} GROUP BY 1) c USING (scope)
              WHERE COALESCE(kept, 0) <> COALESCE(counted, 0)",
            u = if user.is_empty() { "0::bigint" } else { user },
            l = if label.is_empty() { "''::text" } else { label },
            sets = sets.join(", "),
        );
        let rows: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        wrong.extend(rows);
    }
    wrong
}

#[tokio::test]
async fn counters_stay_exact_through_every_writer_under_concurrency() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(
        &app,
        "counted",
        &up.base,
        "pan_check",
        300,
        5_000_000,
        50_000_000,
    )
    .await;
    let token = fixtures::partner_token(&app, s.partner_id, "counted").await;
    // A second user of the same partner, with its own key and funds, calling the same API.
    let second = fixtures::user(&app, s.partner_id, 2).await;
    sqlx::query("UPDATE end_users SET full_access = true WHERE id = $1")
        .bind(second)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (st, b) = app
        .post(
            &format!("/api/v1/partner/users/{second}/wallets/api/entries"),
            &json!({"type": "credit", "amount_paise": 1_000_000}),
            Some(&token),
        )
        .await;
    assert_eq!(st, 200, "{b}");
    let second_key = gs::key(&app, s.partner_id, second, "live").await;
    assert!(
        drift(&app).await.is_empty(),
        "before any call: {:?}",
        drift(&app).await
    );

    // Grouped charges: concurrent calls of both users, some failing upstream (refunds),
    // beside concurrent manual credits and debits of both users' wallets.
    up.set(OK);
    let calls = (0..24).map(|i| {
        let key = if i % 3 == 0 {
            second_key.clone()
        } else {
            s.key.clone()
        };
        let app = &app;
        async move {
            gs::verify(
                app,
                &app.base,
                &key,
                "pan_check",
                &json!({"id_number": format!("C{i}")}),
            )
            .await
            .0
        }
    });
    let moves = (0..12).map(|i| {
        let (app, token) = (&app, &token);
        let user = if i % 2 == 0 { s.user_id } else { second };
        let kind = if i % 4 < 2 { "credit" } else { "debit" };
        async move {
            app.post(
                &format!("/api/v1/partner/users/{user}/wallets/api/entries"),
                &json!({"type": kind, "amount_paise": 100 + i}),
                Some(token),
            )
            .await
            .0
        }
    });
    let (codes, moved) = tokio::join!(join_all(calls), join_all(moves));
    assert!(codes.iter().all(|c| *c == 200), "{codes:?}");
    assert!(moved.iter().all(|c| *c == 200), "{moved:?}");
    up.set(FAIL_500);
    let failing = (0..8).map(|i| {
        let app = &app;
        let key = s.key.clone();
        async move {
            gs::verify(
                app,
                &app.base,
                &key,
                "pan_check",
                &json!({"id_number": format!("F{i}")}),
            )
            .await
            .0
        }
    });
    assert!(join_all(failing).await.iter().all(|c| *c == 502));
    let refunded: i64 =
        sqlx::query_scalar("SELECT count(*) FROM api_transactions WHERE status = 'refunded'")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert_eq!(refunded, 8, "failed calls are settled as refunded");
    assert!(
        drift(&app).await.is_empty(),
        "after calls and wallet moves: {:?}",
        drift(&app).await
    );

    // Product rows, then writes by hand that move rows between counters: a row moved to
    // another day and service, another user's; deletes; and a user deleted with its rows.
    for (user, product) in [
        (s.user_id, "E-Sign"),
        (second, "E-Sign"),
        (second, "Bank statement"),
    ] {
        sqlx::query("INSERT INTO product_transactions (partner_id, user_id, product, pid, amount_type, amount_paise, user_amount_paise) VALUES ($1, $2, $3, 'PRD1', 'debit', 10, 20)")
            .bind(s.partner_id)
            .bind(user)
            .bind(product)
            .execute(&app.db.pool)
            .await
            .unwrap();
        sqlx::query("INSERT INTO product_logs (partner_id, user_id, description, status_code) VALUES ($1, $2, $3, 200)").bind(s.partner_id).bind(user).bind(product).execute(&app.db.pool).await.unwrap();
    }
    sqlx::query("UPDATE api_transactions SET created_at = created_at - interval '3 days', service = 'moved' WHERE id IN (SELECT id FROM api_transactions ORDER BY id LIMIT 5)")
        .execute(&app.db.pool)
        .await
        .unwrap();
    sqlx::query("UPDATE api_logs SET user_id = $1 WHERE id IN (SELECT id FROM api_logs WHERE user_id = $2 ORDER BY id LIMIT 3)").bind(second).bind(s.user_id).execute(&app.db.pool).await.unwrap();
    sqlx::query(
        "UPDATE wallet_entries SET created_at = created_at - interval '40 days' WHERE id % 3 = 0",
    )
    .execute(&app.db.pool)
    .await
    .unwrap();
    sqlx::query(
        "DELETE FROM api_logs WHERE id IN (SELECT id FROM api_logs ORDER BY id DESC LIMIT 2)",
    )
    .execute(&app.db.pool)
    .await
    .unwrap();
    assert!(
        drift(&app).await.is_empty(),
        "after moves and deletes: {:?}",
        drift(&app).await
    );
    sqlx::query("DELETE FROM end_users WHERE id = $1")
        .bind(second)
        .execute(&app.db.pool)
        .await
        .unwrap();
    assert!(
        drift(&app).await.is_empty(),
        "after a user's rows went with it: {:?}",
        drift(&app).await
    );
    let remaining: i64 = sqlx::query_scalar("SELECT count(*) FROM api_transactions")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert!(remaining > 0);

    // The dashboards read the all-time counters.
    let (st, b) = app
        .get(
            "/api/v1/superadmin/dashboard",
            Some(&app.superadmin_token()),
        )
        .await;
    assert_eq!(st, 200, "{b}");
    assert_eq!(
        (
            b["total_transactions"].as_i64(),
            b["accessed_products"].as_i64()
        ),
        (Some(remaining), Some(1)),
        "{b}"
    );
    sqlx::query("TRUNCATE product_logs")
        .execute(&app.db.pool)
        .await
        .unwrap();
    assert!(
        drift(&app).await.is_empty(),
        "after a truncate: {:?}",
        drift(&app).await
    );
    gs::audit(&app).await;
}

/// The ids of `path`'s page beside its total, and the same page read from `sql` (the list's
/// ids in its order) with a plain OFFSET.
async fn same_page(app: &TestApp, token: &str, path: &str, sql: &str, page: i64, per_page: i64) {
    let sep = if path.contains('?') { '&' } else { '?' };
    let (st, b) = app
        .get(
            &format!("{path}{sep}page={page}&per_page={per_page}"),
            Some(token),
        )
        .await;
    assert_eq!(st, 200, "{path}: {b}");
    let ids: Vec<i64> = b["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect();
    let all: Vec<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned()))
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
    let from = ((page - 1) * per_page) as usize;
    let want: Vec<i64> = all
        .iter()
        .skip(from)
        .take(per_page as usize)
        .copied()
        .collect();
    assert_eq!(ids, want, "{path} page {page} of {per_page}");
    assert_eq!(b["total"].as_i64(), Some(all.len() as i64), "{path}: total");
    assert_eq!(
        b["pages"].as_i64(),
        Some((all.len() as i64 + per_page - 1) / per_page),
        "{path}: pages"
    );
}

#[tokio::test]
async fn counted_lists_answer_first_far_and_last_pages_with_exact_totals() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "pages").await;
    let token = fixtures::partner_token(&app, p.id, "pages").await;
    let other = fixtures::partner(&app, "neighbour").await;
    let (a, b, c) = (
        fixtures::user(&app, p.id, 1).await,
        fixtures::user(&app, p.id, 2).await,
        fixtures::user(&app, p.id, 3).await,
    );
    let stranger = fixtures::user(&app, other.id, 1).await;
    let email_b: String = sqlx::query_scalar("SELECT email::text FROM end_users WHERE id = $1")
        .bind(b)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    // 1,200 calls over 12 days in bursts of 4 sharing one instant (ties ordered by id), three
    // services, most of them user a's; and some of the neighbour's on the same days.
    for (partner, users, n) in [
        (p.id, vec![a, a, a, b, c], 1200),
        (other.id, vec![stranger], 100),
    ] {
        sqlx::query(
            "INSERT INTO api_transactions (partner_id, user_id, service, pid, status, status_code, amount_paise, user_amount_paise, created_at)
             SELECT $1, ($2::bigint[])[1 + g % array_length($2, 1)], (ARRAY['pan_check', 'gst_check', 'aadhaar_lite'])[1 + g % 3],
                    'PID' || lpad(g::text, 6, '0'), 'success', 200, 100, 120,
                    timestamptz '2026-11-20 23:00:00+00' - ((g / 4) * interval '57 minutes')
               FROM generate_series(1, $3) g",
        )
        .bind(partner)
        .bind(&users)
        .bind(n)
        .execute(&app.db.pool)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO api_logs (partner_id, user_id, transaction_id, service, pid, vid, vpid, status_code, amount_paise, created_at)
             SELECT partner_id, user_id, id, service, pid, 'V' || id, 'VP' || id, 200, 120, created_at FROM api_transactions WHERE partner_id = $1",
        )
        .bind(partner)
        .execute(&app.db.pool)
        .await
        .unwrap();
    }
    let order = "ORDER BY t.created_at DESC, t.id DESC";
    let txns = |cond: &str| {
        format!(
            "SELECT t.id FROM api_transactions t JOIN end_users u ON u.id = t.user_id WHERE t.partner_id = {} {cond} {order}",
            p.id
        )
    };
    let logs = |cond: &str| {
        format!(
            "SELECT t.id FROM api_logs t JOIN end_users u ON u.id = t.user_id WHERE t.partner_id = {} {cond} {order}",
            p.id
        )
    };
    let cases: Vec<(String, String)> = vec![
        // One user's calls (User Detail's tab is that user's wallet ledger, counted below).
        (
            format!("/api/v1/partner/api-transactions?user_id={a}"),
            txns(&format!("AND t.user_id = {a}")),
        ),
        // Days are IST days: 15 Nov 00:00 IST is 14 Nov 18:30 UTC.
        (
            format!("/api/v1/partner/api-transactions?user_id={a}&from=2026-11-15&to=2026-11-18"),
            txns(&format!(
                "AND t.user_id = {a} AND t.created_at >= '2026-11-15 00:00+05:30' AND t.created_at < '2026-11-19 00:00+05:30'"
            )),
        ),
        (
            format!("/api/v1/partner/users/{b}/api-logs"),
            logs(&format!("AND t.user_id = {b}")),
        ),
        ("/api/v1/partner/api-transactions".into(), txns("")),
        (
            "/api/v1/partner/api-transactions?from=2026-11-12&to=2026-11-16".into(),
            txns(
                "AND t.created_at >= '2026-11-12 00:00+05:30' AND t.created_at < '2026-11-17 00:00+05:30'",
            ),
        ),
        (
            format!("/api/v1/partner/api-transactions?user_id={c}"),
            txns(&format!("AND t.user_id = {c}")),
        ),
        (
            format!(
                "/api/v1/partner/api-transactions?email={}",
                &email_b[..email_b.find('@').unwrap()]
            ),
            txns(&format!("AND u.email = '{email_b}'")),
        ),
        (
            "/api/v1/partner/api-transactions?services=CHECK&from=2026-11-14".into(),
            txns("AND t.service LIKE '%check' AND t.created_at >= '2026-11-14 00:00+05:30'"),
        ),
        (
            format!("/api/v1/partner/api-transactions?services=gst&user_id={a}"),
            txns(&format!("AND t.service = 'gst_check' AND t.user_id = {a}")),
        ),
        (
            "/api/v1/partner/api-transactions?pid=PID0001".into(),
            txns("AND t.pid LIKE 'PID0001%'"),
        ),
        (
            "/api/v1/partner/api-logs?services=aadhaar".into(),
            logs("AND t.service = 'aadhaar_lite'"),
        ),
    ];
    for (path, sql) in &cases {
        let all: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT count(*) FROM ({sql}) x"
        )))
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert!(all > 0, "{path} selects nothing");
        let last = (all + 6) / 7;
        for page in [1, 2, last / 2, last - 1, last, last + 1] {
            same_page(&app, &token, path, sql, page.max(1), 7).await;
        }
        same_page(&app, &token, path, sql, 1, 50).await;
    }
    // The super admin's client logs: user and service narrow them through the counters; a
    // user of another client has none here.
    let admin = app.superadmin_token();
    let client_logs = |cond: &str| {
        format!(
            "SELECT t.id FROM api_logs t WHERE t.partner_id = {} {cond} {order}",
            p.id
        )
    };
    for (path, sql) in [
        (
            format!(
                "/api/v1/superadmin/clients/{}/api-logs?user_id={a}&service=pan_check",
                p.id
            ),
            client_logs(&format!("AND t.user_id = {a} AND t.service = 'pan_check'")),
        ),
        (
            format!(
                "/api/v1/superadmin/clients/{}/api-logs?from=2026-11-10&to=2026-11-10",
                p.id
            ),
            client_logs(
                "AND t.created_at >= '2026-11-10 00:00+05:30' AND t.created_at < '2026-11-11 00:00+05:30'",
            ),
        ),
    ] {
        same_page(&app, &admin, &path, &sql, 1, 7).await;
        same_page(&app, &admin, &path, &sql, 9, 7).await;
    }
    let (_, body) = app
        .get(
            &format!(
                "/api/v1/superadmin/clients/{}/api-logs?user_id={stranger}",
                p.id
            ),
            Some(&admin),
        )
        .await;
    assert_eq!(
        (body["total"].clone(), body["items"].clone()),
        (json!(0), json!([])),
        "another client's user"
    );
    let (_, body) = app
        .get(
            &format!("/api/v1/partner/api-transactions?user_id={stranger}"),
            Some(&token),
        )
        .await;
    assert_eq!(
        (body["total"].clone(), body["items"].clone()),
        (json!(0), json!([])),
        "another partner's user"
    );
    let (st, _) = app
        .get(
            &format!("/api/v1/partner/users/{stranger}/api-transactions"),
            Some(&token),
        )
        .await;
    assert_eq!(st, 404);

    // A wallet's entries: many on one day, the ledger and the type filter.
    let mut conn = app.db.pool.acquire().await.unwrap();
    let wallet = domain::wallets::wallet_id(
        &mut conn,
        domain::wallets::Owner::User {
            partner_id: p.id,
            user_id: a,
        },
        domain::wallets::WalletKind::Api,
    )
    .await
    .unwrap();
    drop(conn);
    sqlx::query(
        "INSERT INTO wallet_entries (wallet_id, type, amount_paise, balance_after_paise, reason, actor_kind, created_at)
         SELECT $1, CASE WHEN g % 5 = 0 THEN 'debit' ELSE 'credit' END, 10, 10 * g, 'manual', 'system',
                timestamptz '2026-11-20 12:00:00+00' - ((g / 3) * interval '41 minutes')
           FROM generate_series(1, 300) g",
    )
    .bind(wallet)
    .execute(&app.db.pool)
    .await
    .unwrap();
    let entries = |cond: &str| {
        format!("SELECT id FROM wallet_entries t WHERE wallet_id = {wallet} {cond} {order}")
    };
    for (path, sql) in [
        (
            format!("/api/v1/partner/users/{a}/wallets/api/ledger"),
            entries(""),
        ),
        (
            format!("/api/v1/partner/users/{a}/wallet-entries?type=debit"),
            entries("AND type = 'debit'"),
        ),
        (
            format!("/api/v1/partner/users/{a}/wallet-entries?from=2026-11-19&to=2026-11-19"),
            entries(
                "AND created_at >= '2026-11-19 00:00+05:30' AND created_at < '2026-11-20 00:00+05:30'",
            ),
        ),
    ] {
        for page in [1, 5, 20, 43, 44] {
            same_page(&app, &token, &path, &sql, page, 7).await;
        }
    }
}

#[tokio::test]
async fn ip_hits_count_their_user_and_ip_groups() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "hits").await;
    let token = fixtures::partner_token(&app, p.id, "hits").await;
    let u = fixtures::user(&app, p.id, 1).await;
    // Three IPs over four days: three groups of twelve day rows.
    sqlx::query(
        "INSERT INTO ip_hits (partner_id, user_id, ip, day, hits, first_seen, last_seen)
         SELECT $1, $2, ('10.0.0.' || i)::inet, date '2026-11-20' - d, i + d, now() - d * interval '1 day', now() - d * interval '1 day' + i * interval '1 minute'
           FROM generate_series(1, 3) i, generate_series(0, 3) d",
    )
    .bind(p.id)
    .bind(u)
    .execute(&app.db.pool)
    .await
    .unwrap();
    let (st, b) = app
        .get("/api/v1/partner/ip-hits?per_page=2", Some(&token))
        .await;
    assert_eq!(st, 200, "{b}");
    assert_eq!(
        (b["total"].clone(), b["pages"].clone()),
        (json!(3), json!(2)),
        "{b}"
    );
    let items: &Vec<Value> = b["items"].as_array().unwrap();
    assert_eq!(
        (items[0]["ip"].clone(), items[0]["hits"].clone()),
        (json!("10.0.0.3"), json!(3 * 4 + 6)),
        "{b}"
    );
    let (_, b) = app
        .get("/api/v1/partner/ip-hits?per_page=2&page=2", Some(&token))
        .await;
    assert_eq!(b["items"][0]["ip"], "10.0.0.1", "{b}");
}
