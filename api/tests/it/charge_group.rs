//! The charging group as one statement (`charge_group`, issue 21): the rules the gateway's
//! tests reach only by chance, driven directly: arrival order against the balances, an
//! idempotency key charged once within a group, a transaction settled by its first mention only
//! (one API log), refunds that restore both wallets, and references past eight digits.

use domain::wallets::charge::{self, CallLog, Charge, Charger, Item, Outcome, Settle};

use crate::{
    common::TestApp,
    gateway_support::{self as gs, Upstream},
};

fn charge(s: &gs::Setup, user_amount: i64, key: Option<&str>) -> Item {
    Item::Charge(Charge {
        partner_id: s.partner_id,
        user_id: s.user_id,
        api_id: s.api_id,
        service: "pan_check".into(),
        pid: "PID1".into(),
        mode: "live",
        amount_paise: 100,
        user_amount_paise: user_amount,
        user_wallet_id: Some(s.user_wallet),
        partner_wallet_id: Some(s.partner_wallet),
        idempotency_key: key.map(str::to_owned),
        settled: None,
        key_id: None,
    })
}

fn settle(txn: i64, success: bool) -> Item {
    Item::Settle(Settle {
        transaction_id: txn,
        success,
        status_code: if success { 200 } else { 502 },
        log: Some(CallLog {
            vid: format!("V{txn}"),
            vpid: "VP".into(),
            ip: Some("10.0.0.1".parse().unwrap()),
            latency_ms: 3,
            keep: false,
            sealed: None,
        }),
        charged_under: None,
    })
}

#[tokio::test]
async fn a_group_decides_in_arrival_order_charges_a_key_once_and_settles_by_first_mention() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    // The user's wallet covers two calls at 150, not three.
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 300, 1_000_000).await;
    let pool = &app.db.pool;

    let out = charge::commit_batch(
        pool,
        &[
            charge(&s, 150, Some("k1")),
            charge(&s, 150, Some("k1")),
            charge(&s, 150, None),
            charge(&s, 150, None),
        ],
    )
    .await
    .unwrap();
    let Outcome::Charged {
        transaction_id: a,
        user_remaining_paise: 150,
        ..
    } = out[0]
    else {
        panic!("{out:?}")
    };
    assert_eq!(out[1], Outcome::Duplicate { transaction_id: a });
    let Outcome::Charged {
        transaction_id: b,
        user_remaining_paise: 0,
        ..
    } = out[2]
    else {
        panic!("{out:?}")
    };
    assert_eq!(out[3], Outcome::Insufficient);
    assert_eq!(gs::balance(&app, s.user_wallet).await, 0);
    gs::audit(&app).await;

    // a succeeds by its first mention; the second mention (a refund) changes nothing; b is
    // refunded in the same group.
    let out = charge::commit_batch(pool, &[settle(a, true), settle(a, false), settle(b, false)])
        .await
        .unwrap();
    assert_eq!(
        out,
        vec![
            Outcome::Settled { refunded: false },
            Outcome::AlreadySettled,
            Outcome::Settled { refunded: true },
        ]
    );
    let logs: Vec<(i64, i32, i64)> = sqlx::query_as(
        "SELECT transaction_id, status_code, amount_paise FROM api_logs WHERE transaction_id = ANY($1) ORDER BY transaction_id",
    )
    .bind(vec![a, b])
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(logs, vec![(a, 200, 150), (b, 502, 0)]);
    let rows: Vec<(i64, String, i64)> = sqlx::query_as(
        "SELECT id, status, remaining_paise FROM api_transactions WHERE id = ANY($1) ORDER BY id",
    )
    .bind(vec![a, b])
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(
        rows,
        vec![(a, "success".into(), 150), (b, "refunded".into(), 150)]
    );
    assert_eq!(gs::balance(&app, s.user_wallet).await, 150);
    assert_eq!(gs::balance(&app, s.partner_wallet).await, 1_000_000 - 100);
    gs::audit(&app).await;

    // Settling again, from the job or a late gateway, changes nothing.
    let out = charge::commit_batch(pool, &[settle(b, false)])
        .await
        .unwrap();
    assert_eq!(out, vec![Outcome::AlreadySettled]);
    assert_eq!(gs::balance(&app, s.user_wallet).await, 150);
    gs::audit(&app).await;
}

#[tokio::test]
async fn references_match_the_ledgers_past_eight_digits() {
    let app = TestApp::spawn().await;
    for id in [7_i64, 12_345_678, 123_456_789] {
        let sql: String = sqlx::query_scalar("SELECT txn_reference($1)")
            .bind(id)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(sql, charge::reference(id));
    }
}

/// charge_group's statements are planned once per connection (migration
/// `20261202010001_charge_group_generic_plans`), not again on every group: a later
/// `CREATE OR REPLACE FUNCTION` that forgot the setting would silently bring the planner back onto
/// the hot path. Its other settings keep the plans on the indexes at any table size.
#[tokio::test]
async fn charge_group_runs_with_generic_index_plans() {
    let app = TestApp::spawn().await;
    let mut config: Vec<String> =
        sqlx::query_scalar("SELECT unnest(proconfig) FROM pg_proc WHERE proname = 'charge_group'")
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
    config.sort();
    assert_eq!(
        config,
        [
            "enable_hashjoin=off",
            "enable_mergejoin=off",
            "enable_seqscan=off",
            "kyc.counted_by_caller=on",
            "plan_cache_mode=force_generic_plan",
        ]
    );
}

/// `earnings_counts` rows that differ from the same sums over the successful transactions.
async fn earnings_drift(app: &TestApp) -> Vec<String> {
    sqlx::query_scalar(
        "WITH truth AS (
             SELECT partner_id, day, COALESCE(service, '') AS service, count(*) AS calls,
                    sum(user_amount_paise)::bigint AS revenue, sum(amount_paise)::bigint AS cost
               FROM (SELECT partner_id, (created_at AT TIME ZONE 'Asia/Kolkata')::date AS day, service,
                            user_amount_paise, amount_paise
                       FROM api_transactions WHERE status = 'success') t
              GROUP BY GROUPING SETS ((partner_id, day, service), (partner_id, day))),
         kept AS (SELECT partner_id, day, service, calls, revenue_paise, cost_paise FROM earnings_counts
                   WHERE calls <> 0 OR revenue_paise <> 0 OR cost_paise <> 0)
         SELECT format('%s %s %s: %s calls, %s / %s', partner_id, day, service, calls, revenue, cost)
           FROM ((TABLE truth EXCEPT TABLE kept) UNION ALL (TABLE kept EXCEPT TABLE truth)) d(partner_id, day, service, calls, revenue, cost)",
    )
    .fetch_all(&app.db.pool)
    .await
    .unwrap()
}

/// The list counters and the earnings both equal a recount of their rows.
async fn counts_exact(app: &TestApp, when: &str) {
    let lists = crate::list_counts::drift(app).await;
    let earnings = earnings_drift(app).await;
    assert!(
        lists.is_empty() && earnings.is_empty(),
        "{when}: lists {lists:?}, earnings {earnings:?}"
    );
}

#[tokio::test]
async fn a_group_keeps_the_list_and_earnings_counts_its_triggers_stand_aside_for() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(
        &app,
        "acme",
        &up.base,
        "pan_check",
        100,
        1_000_000,
        1_000_000,
    )
    .await;
    let pool = &app.db.pool;
    let ids = |out: &[Outcome]| -> Vec<i64> {
        out.iter()
            .map(|o| match o {
                Outcome::Charged { transaction_id, .. } => *transaction_id,
                o => panic!("{o:?}"),
            })
            .collect()
    };

    // Pending charges, and charges settled in their own write (a sandbox call's answer).
    let mut settled = charge(&s, 150, None);
    if let Item::Charge(c) = &mut settled {
        c.settled = match settle(0, true) {
            Item::Settle(x) => x.log,
            _ => unreachable!(),
        };
    }
    let out = charge::commit_batch(
        pool,
        &[
            charge(&s, 150, None),
            settled.clone(),
            charge(&s, 120, None),
            settled,
        ],
    )
    .await
    .unwrap();
    let t = ids(&out);
    counts_exact(&app, "after charges").await;

    // One call made "yesterday" (moved by hand, which its triggers count) earns on its own day
    // when the group settles it; a success and a refund in one group.
    sqlx::query(
        "UPDATE api_transactions SET created_at = created_at - interval '1 day' WHERE id = $1",
    )
    .bind(t[0])
    .execute(pool)
    .await
    .unwrap();
    let out = charge::commit_batch(pool, &[settle(t[0], true), settle(t[2], false)])
        .await
        .unwrap();
    assert_eq!(
        out,
        vec![
            Outcome::Settled { refunded: false },
            Outcome::Settled { refunded: true }
        ]
    );
    counts_exact(&app, "after settlements").await;
    let days: i64 = sqlx::query_scalar(
        "SELECT count(DISTINCT day) FROM earnings_counts WHERE partner_id = $1 AND calls > 0",
    )
    .bind(s.partner_id)
    .fetch_one(pool)
    .await
    .unwrap();
    assert_eq!(days, 2, "the call moved to yesterday earns there");

    // Outside the group the triggers count again: a row written by hand is counted.
    sqlx::query(
        "INSERT INTO api_logs (partner_id, user_id, service, pid, vid, vpid, status_code) VALUES ($1, $2, 'pan_check', 'P', 'V', 'VP', 403)",
    )
    .bind(s.partner_id)
    .bind(s.user_id)
    .execute(pool)
    .await
    .unwrap();
    counts_exact(&app, "after a row written by hand").await;
    gs::audit(&app).await;
}

/// `charge_group_unflushed` (migration `20261203010001`) on one item, inside a transaction that
/// is rolled back: the `synchronous_commit` its commit would have used, or the error.
async fn commit_mode(
    app: &TestApp,
    s: &gs::Setup,
    is_charge: bool,
    has_log: bool,
    expected: Option<&str>,
) -> Result<String, sqlx::Error> {
    let mut tx = app.db.pool.begin().await.unwrap();
    let log = |v: &str| has_log.then(|| v.to_string());
    let written = sqlx::query(
        "SELECT * FROM charge_group_unflushed(ARRAY[$1], ARRAY[$2::bigint], ARRAY[$3::bigint],
            ARRAY[$4::bigint], ARRAY['pan_check'], ARRAY['PID1'], ARRAY['live'], ARRAY[100::bigint],
            ARRAY[100::bigint], ARRAY[$5::bigint], ARRAY[$6::bigint], ARRAY[NULL::text],
            ARRAY[NULL::bigint], ARRAY[$7::bigint], ARRAY[$8::bool], ARRAY[$9::int], ARRAY[$10],
            ARRAY[$11::text], ARRAY[$12::text], ARRAY['10.0.0.1'], ARRAY[3], ARRAY[false],
            ARRAY[NULL::bytea], true, $13)",
    )
    .bind(is_charge)
    .bind(s.partner_id)
    .bind(s.user_id)
    .bind(s.api_id)
    .bind(s.user_wallet)
    .bind(s.partner_wallet)
    .bind((!is_charge).then_some(0_i64))
    .bind((!is_charge).then_some(true))
    .bind((!is_charge || has_log).then_some(200))
    .bind(has_log)
    .bind(log("V1"))
    .bind(log("VP"))
    .bind(expected)
    .execute(&mut *tx)
    .await;
    let mode = match written {
        Ok(_) => Ok(sqlx::query_scalar("SHOW synchronous_commit")
            .fetch_one(&mut *tx)
            .await
            .unwrap()),
        Err(e) => Err(e),
    };
    tx.rollback().await.unwrap();
    mode
}

/// A live call is answered only after its settlement, whose commit waits for the WAL flush and
/// so makes the charge before it durable too: a group of live charges alone need not wait for
/// its own flush. Anything answered on a group's commit (a settlement, a sandbox call charged and
/// settled at once) still waits for it, and a group for another life of the server writes
/// nothing.
#[tokio::test]
async fn only_a_group_of_live_charges_commits_without_waiting_for_the_flush() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 10_000, 10_000).await;
    let here: String = sqlx::query_scalar("SELECT server_incarnation()")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();

    assert_eq!(
        commit_mode(&app, &s, true, false, Some(&here))
            .await
            .unwrap(),
        "off",
        "live charges"
    );
    assert_eq!(
        commit_mode(&app, &s, true, true, Some(&here))
            .await
            .unwrap(),
        "on",
        "a charge settled at once"
    );
    assert_eq!(
        commit_mode(&app, &s, false, false, None).await.unwrap(),
        "on",
        "a settlement"
    );
    let refused = commit_mode(&app, &s, true, false, Some("another life of the server"))
        .await
        .unwrap_err();
    assert_eq!(
        refused
            .as_database_error()
            .and_then(|d| d.code())
            .as_deref(),
        Some("KY002"),
        "{refused}"
    );
    assert_eq!(gs::balance(&app, s.user_wallet).await, 10_000);

    // The same through the charging tasks: the charge names the incarnation it was made under.
    let charger = Charger::spawn(app.db.pool.clone());
    let Item::Charge(c) = charge(&s, 100, None) else {
        unreachable!()
    };
    let Outcome::Charged {
        under: Some(under), ..
    } = charger.charge(c).await.unwrap()
    else {
        panic!("not charged")
    };
    assert_eq!(&*under, here);
}

/// After a crash of Postgres a lost charge's id can be handed to a later call, so a settlement
/// is applied only under the incarnation of the server its charge was made under; any other is
/// left to `settle_pending` and changes nothing. Refunds (the charging task) and successes (the
/// settling task) alike, whether the task already knows the server changed or learns it from
/// the group it sends (a connection through PgBouncer outlives the server's crash). The crash is
/// played by this database's own `server_incarnation()` answering a new value, which is all a
/// charging task sees of one.
#[tokio::test]
async fn a_settlement_from_another_life_of_the_server_is_left_to_settle_pending() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 10_000, 10_000).await;
    let charger = Charger::spawn(app.db.pool.clone());
    let charge_one = || async {
        let Item::Charge(c) = charge(&s, 100, None) else {
            unreachable!()
        };
        match charger.charge(c).await.unwrap() {
            Outcome::Charged {
                transaction_id,
                under: Some(under),
                ..
            } => (transaction_id, under),
            other => panic!("not charged: {other:?}"),
        }
    };
    let status = |id: i64| {
        let pool = app.db.pool.clone();
        async move {
            sqlx::query_scalar::<_, String>("SELECT status FROM api_transactions WHERE id = $1")
                .bind(id)
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    let settlement = |id: i64, success: bool, under: &str| Settle {
        charged_under: Some(under.into()),
        ..match settle(id, success) {
            Item::Settle(st) => st,
            Item::Charge(_) => unreachable!(),
        }
    };
    let left_to_the_job = |r: domain::Result<Outcome>| {
        let e = r.unwrap_err();
        assert!(e.to_string().contains("settle_pending"), "{e}");
    };

    // Named under a life the tasks know is over: not sent.
    let (a, under_a) = charge_one().await;
    let (b, under_b) = charge_one().await;
    left_to_the_job(charger.settle(settlement(a, true, "an earlier life")).await);
    left_to_the_job(
        charger
            .settle(settlement(b, false, "an earlier life"))
            .await,
    );
    assert_eq!(status(a).await, "pending");
    assert_eq!(status(b).await, "pending");
    // Under their own, they settle.
    assert_eq!(
        charger.settle(settlement(a, true, &under_a)).await.unwrap(),
        Outcome::Settled { refunded: false }
    );
    assert_eq!(status(a).await, "success");

    // The server "restarts" under the tasks' connections. The charging task's next group is
    // refused by the server, the task reads the new incarnation, and b's refund, charged in the
    // old one, is left to the job; so is a success on the settling task.
    let (c, under_c) = charge_one().await;
    sqlx::query(
        "CREATE OR REPLACE FUNCTION server_incarnation() RETURNS text LANGUAGE sql STABLE AS $$ SELECT 'a new life' $$",
    )
    .execute(&app.db.pool)
    .await
    .unwrap();
    left_to_the_job(charger.settle(settlement(b, false, &under_b)).await);
    left_to_the_job(charger.settle(settlement(c, true, &under_c)).await);
    assert_eq!(status(b).await, "pending");
    assert_eq!(status(c).await, "pending");
    let (d, under_d) = charge_one().await;
    assert_eq!(&*under_d, "a new life");
    assert_eq!(
        charger.settle(settlement(d, true, &under_d)).await.unwrap(),
        Outcome::Settled { refunded: false }
    );
    assert_eq!(status(d).await, "success");
    assert_eq!(gs::balance(&app, s.user_wallet).await, 10_000 - 400);

    // What was left pending is the job's, as after any crash.
    charge::commit_batch(&app.db.pool, &[settle(b, false), settle(c, false)])
        .await
        .unwrap();
    assert_eq!(gs::balance(&app, s.user_wallet).await, 10_000 - 200);
    gs::audit(&app).await;
}

/// What a table of the call path holds, to compare before and after.
async fn call_rows(app: &TestApp) -> Vec<i64> {
    sqlx::query_scalar(
        "SELECT unnest(ARRAY[
             (SELECT count(*) FROM api_transactions), (SELECT count(*) FROM api_logs),
             (SELECT count(*) FROM api_results), (SELECT count(*) FROM wallet_entries),
             (SELECT coalesce(sum(n), 0)::bigint FROM list_counts),
             (SELECT coalesce(sum(n), 0)::bigint FROM list_totals),
             (SELECT coalesce(sum(calls), 0)::bigint FROM earnings_counts),
             (SELECT coalesce(sum(balance_paise), 0)::bigint FROM wallets)])",
    )
    .fetch_all(&app.db.pool)
    .await
    .unwrap()
}

/// The last transaction id handed out (0 before the first).
async fn last_transaction_id(app: &TestApp) -> i64 {
    sqlx::query_scalar(
        "SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM api_transactions_id_seq",
    )
    .fetch_one(&app.db.pool)
    .await
    .unwrap()
}

/// Each charging connection runs a free call, charged and settled at once, on the newest end
/// user inside a transaction it rolls back, so that the function's statements and their
/// foreign-key checks are planned before a call waits for them. Nothing of it stays: no row, no
/// count, no balance moved; only the transaction id it took, one per connection.
#[tokio::test]
async fn a_new_charging_connection_warms_up_on_a_call_it_rolls_back() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 10_000, 10_000).await;
    let rows = call_rows(&app).await;
    let ids = last_transaction_id(&app).await;

    let charger = Charger::spawn(app.db.pool.clone());
    // A settlement that matches nothing, through each task: answered once the task has connected
    // and warmed its connection.
    for success in [true, false] {
        let Item::Settle(nothing) = settle(0, success) else {
            unreachable!()
        };
        assert_eq!(
            charger.settle(nothing).await.unwrap(),
            Outcome::AlreadySettled
        );
    }
    assert_eq!(call_rows(&app).await, rows, "the warm-ups left rows behind");
    assert_eq!(
        last_transaction_id(&app).await,
        ids + 2,
        "each of the two connections charged its free call"
    );
    counts_exact(&app, "after the warm-ups").await;

    // The first calls are charged and settled as ever.
    let Item::Charge(c) = charge(&s, 100, None) else {
        unreachable!()
    };
    let Outcome::Charged { transaction_id, .. } = charger.charge(c).await.unwrap() else {
        panic!("not charged")
    };
    let Item::Settle(done) = settle(transaction_id, true) else {
        unreachable!()
    };
    assert_eq!(
        charger.settle(done).await.unwrap(),
        Outcome::Settled { refunded: false }
    );
    assert_eq!(gs::balance(&app, s.user_wallet).await, 9_900);
    counts_exact(&app, "after a call").await;
    gs::audit(&app).await;
}
