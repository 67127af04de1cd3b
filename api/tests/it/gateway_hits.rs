//! IP hits and the per-key rate limit, with and without Redis: every call of a known key counts
//! exactly once for (user, IP), under concurrency through two api instances, and across a fold
//! interrupted by a dying worker.

use std::time::Duration;

use domain::gateway::hits::{RedisHits, namespace};
use jobs::{AggregateIpHits, Job};
use redis::AsyncCommands;
use serde_json::json;

use crate::{
    common::TestApp,
    gateway_support::{self as gs, Upstream},
};

const REDIS: &str = "redis://127.0.0.1:6379";

/// `n` calls at once, alternating between two instances, from `ip` (the tests trust loopback as
/// a proxy, so X-Forwarded-For names the client). The wallet covers some; all count.
async fn calls(app: &TestApp, second: &str, key: &str, ip: &str, n: usize) {
    let mut tasks = Vec::new();
    for i in 0..n {
        let base = if i % 2 == 0 {
            app.base.clone()
        } else {
            second.to_owned()
        };
        let (client, key, ip) = (app.client.clone(), key.to_owned(), ip.to_owned());
        tasks.push(tokio::spawn(async move {
            let res = client
                .post(format!("{base}/api/v1/verify/pan_check"))
                .header("x-api-key", key)
                .header("x-forwarded-for", ip)
                .json(&json!({"id_number": "X"}))
                .send()
                .await
                .unwrap();
            assert!(
                matches!(res.status().as_u16(), 200 | 402),
                "{}",
                res.status()
            );
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
}

async fn hits_of(app: &TestApp, ip: &str) -> i64 {
    sqlx::query_scalar("SELECT COALESCE(sum(hits), 0)::bigint FROM ip_hits WHERE host(ip) = $1")
        .bind(ip)
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

async fn aggregate(app: &TestApp) {
    let ctx = jobs::JobContext::new(app.db.pool.clone(), app.config.clone()).unwrap();
    AggregateIpHits {
        period: "test".into(),
    }
    .run(&ctx)
    .await
    .unwrap();
}

/// Folds until the counts reach `expect` (the api writes hits in the background), then once
/// more to show nothing is added twice.
async fn folded_exactly(app: &TestApp, expect: &[(&str, i64)]) {
    let reached = testkit::eventually(Duration::from_secs(20), || async {
        aggregate(app).await;
        let mut all = true;
        for (ip, n) in expect {
            all &= hits_of(app, ip).await == *n;
        }
        all.then_some(())
    })
    .await;
    let mut got = Vec::new();
    for (ip, _) in expect {
        got.push(hits_of(app, ip).await);
    }
    assert!(reached.is_some(), "hits {got:?}, expected {expect:?}");
    aggregate(app).await;
    for (ip, n) in expect {
        assert_eq!(
            hits_of(app, ip).await,
            *n,
            "a second fold added hits of {ip}"
        );
    }
}

#[tokio::test]
async fn gateway_ip_hits_are_exact_under_concurrency_without_redis() {
    let app = TestApp::spawn_with(|c| c.gateway.rate_limit_per_minute = 10_000).await;
    let (second, _stop) = gs::second_instance(&app).await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 3_000, 1_000_000).await;
    tokio::join!(
        calls(&app, &second, &s.key, "203.0.113.1", 60),
        calls(&app, &second, &s.key, "203.0.113.2", 40)
    );
    folded_exactly(&app, &[("203.0.113.1", 60), ("203.0.113.2", 40)]).await;
    let (user, partner): (i64, i64) =
        sqlx::query_as("SELECT user_id, partner_id FROM ip_hits LIMIT 1")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert_eq!((user, partner), (s.user_id, s.partner_id));
    // A refused call of a known key counts too; an unknown key has no user to count for.
    sqlx::query("INSERT INTO blocked_ips (partner_id, user_id, ip, comments) VALUES ($1, $2, '203.0.113.2', 'x')")
        .bind(s.partner_id)
        .bind(s.user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    let res = app
        .client
        .post(app.url("/api/v1/verify/pan_check"))
        .header("x-api-key", &s.key)
        .header("x-forwarded-for", "203.0.113.2")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    folded_exactly(&app, &[("203.0.113.1", 60), ("203.0.113.2", 41)]).await;
}

#[tokio::test]
async fn gateway_ip_hits_with_redis_survive_a_worker_dying_mid_fold() {
    let app = TestApp::spawn_with(|c| {
        c.redis_url = Some(REDIS.into());
        c.gateway.rate_limit_per_minute = 10_000;
    })
    .await;
    let (second, _stop) = gs::second_instance(&app).await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 3_000, 1_000_000).await;
    let redis = RedisHits::connect(REDIS, &app.db.url).await.unwrap();
    let mut conn = redis::Client::open(REDIS)
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let live = format!("{}:ip_hits:live", namespace(&app.db.url));
    let watcher = conn.clone();
    let counted = |n: i64| {
        let conn = watcher.clone();
        let live = live.clone();
        async move {
            testkit::eventually(Duration::from_secs(20), || {
                let (mut conn, live) = (conn.clone(), live.clone());
                async move {
                    let all: Vec<(String, i64)> = conn.hgetall(&live).await.unwrap();
                    (all.iter()
                        .filter(|(f, _)| !f.ends_with("|f") && !f.ends_with("|l"))
                        .map(|(_, v)| v)
                        .sum::<i64>()
                        == n)
                        .then_some(())
                }
            })
            .await
            .is_some()
        }
    };

    calls(&app, &second, &s.key, "203.0.113.1", 100).await;
    assert!(counted(100).await, "100 hits in Redis");
    // A worker set the hash aside and died before writing anything.
    let first = redis.take().await.unwrap().unwrap();
    calls(&app, &second, &s.key, "203.0.113.1", 20).await;
    assert!(counted(20).await);
    // Another set its hash aside, committed the counts, and died before deleting the hash.
    let second_fold = redis.take().await.unwrap().unwrap();
    let kept: Vec<(String, i64)> = conn.hgetall(&second_fold).await.unwrap();
    redis.fold_key(&app.db.pool, &second_fold).await.unwrap();
    let _: () = conn.hset_multiple(&second_fold, &kept).await.unwrap();
    assert_eq!(hits_of(&app, "203.0.113.1").await, 20);
    calls(&app, &second, &s.key, "203.0.113.1", 10).await;
    assert!(counted(10).await);

    folded_exactly(&app, &[("203.0.113.1", 130)]).await;
    let left: Vec<String> = conn
        .keys(format!("{}:ip_hits:*", namespace(&app.db.url)))
        .await
        .unwrap();
    assert!(
        left.is_empty(),
        "fold keys left behind: {left:?} (first {first})"
    );
}

#[tokio::test]
async fn gateway_rate_limit_with_redis_is_shared_by_two_instances() {
    let app = TestApp::spawn_with(|c| {
        c.redis_url = Some(REDIS.into());
        c.gateway.rate_limit_per_minute = 4;
    })
    .await;
    let (second, _stop) = gs::second_instance(&app).await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 10_000, 10_000).await;
    let mut statuses = Vec::new();
    for i in 0..6 {
        let base = if i % 2 == 0 {
            app.base.clone()
        } else {
            second.clone()
        };
        let (st, h, _) =
            gs::verify(&app, &base, &s.key, "pan_check", &json!({"id_number": "X"})).await;
        if st == 429 {
            let wait: u64 = h["retry-after"].to_str().unwrap().parse().unwrap();
            assert!((1..=15).contains(&wait), "{wait}");
        }
        statuses.push(st);
    }
    assert_eq!(
        statuses,
        [200, 200, 200, 200, 429, 429],
        "one budget of 4 a minute across both processes"
    );
    assert_eq!(up.hits(), 4);
    // Another key has its own budget.
    let other = gs::key(&app, s.partner_id, s.user_id, "live").await;
    assert_eq!(
        gs::verify(
            &app,
            &second,
            &other,
            "pan_check",
            &json!({"id_number": "X"})
        )
        .await
        .0,
        200
    );
}
