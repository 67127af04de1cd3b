//! Price resolution against a real database: every level of design.md "Money", each on its
//! own and overriding the one below it.

use domain::{
    PgPool,
    catalogue::plans::{self, PlanType, PriceItem, Target},
    catalogue::pricing::{self, Source, UserPriceChange},
    catalogue::{self, ApiInput},
    infra::audit::Actor,
};

async fn api(pool: &PgPool, service: &str, default_price_paise: i64) -> i64 {
    let input: ApiInput = serde_json::from_value(serde_json::json!({
        "name": service, "category": "Identity", "service": service, "description": "d", "endpoint": "/x",
        "documentation_link": "https://docs.example/x", "curl_code": "curl", "response_code": {"ok": true},
        "default_price_paise": default_price_paise
    }))
    .unwrap();
    catalogue::create(&mut pool.acquire().await.unwrap(), &input, Actor::system())
        .await
        .unwrap()
        .id
}

async fn partner(pool: &PgPool, name: &str, plan: &str) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO partners (first_name, last_name, email, phone_number, user_name, password_hash, plan)
         VALUES ('P', 'Q', $1 || '@p.test', '9876543210', $1, 'x', $2) RETURNING id",
    )
    .bind(name)
    .bind(plan)
    .fetch_one(pool)
    .await
    .unwrap()
}

async fn user(pool: &PgPool, partner_id: i64) -> i64 {
    sqlx::query_scalar("INSERT INTO end_users (partner_id, first_name, last_name, email, phone_number, password_hash) VALUES ($1, 'A', 'B', $1 || '@u.test', '9876543210', 'x') RETURNING id")
        .bind(partner_id)
        .fetch_one(pool)
        .await
        .unwrap()
}

fn item(service: &str, price_paise: i64) -> PriceItem {
    PriceItem {
        service: service.into(),
        price_paise: price_paise.into(),
        status: None,
    }
}

/// (amount, its source, user_amount, its source)
async fn price(
    pool: &PgPool,
    partner_id: i64,
    user_id: Option<i64>,
    service: &str,
) -> (i64, Source, i64, Source) {
    let p = pricing::resolve(
        &mut pool.acquire().await.unwrap(),
        partner_id,
        user_id,
        service,
    )
    .await
    .unwrap()
    .expect("priced");
    (
        p.amount_paise,
        p.amount_source,
        p.user_amount_paise,
        p.user_amount_source,
    )
}

#[tokio::test]
async fn price_resolution_covers_every_level() {
    let db = testkit::TestDb::new().await;
    let pool = &db.pool;
    api(pool, "pan", 1000).await;
    let p = partner(pool, "reseller", "premium").await;
    let u = user(pool, p).await;
    let mut conn = pool.acquire().await.unwrap();
    let admin = Actor::superadmin(1);

    // 1. Nothing but the catalogue default.
    assert_eq!(
        price(pool, p, None, "pan").await,
        (1000, Source::Default, 1000, Source::Default)
    );
    assert_eq!(
        price(pool, p, Some(u), "pan").await,
        (1000, Source::Default, 1000, Source::Default)
    );

    // 2. A price in another slab changes nothing; one in the partner's slab applies.
    plans::apply_prices(
        &mut conn,
        Target::Plan(PlanType::Standard),
        &[item("pan", 750)],
        admin,
    )
    .await
    .unwrap();
    assert_eq!(price(pool, p, None, "pan").await.0, 1000);
    plans::apply_prices(
        &mut conn,
        Target::Plan(PlanType::Premium),
        &[item("pan", 600)],
        admin,
    )
    .await
    .unwrap();
    assert_eq!(
        price(pool, p, Some(u), "pan").await,
        (600, Source::Plan, 600, Source::Plan)
    );

    // 3. The customised plan beats the slab, while its entry is active.
    plans::apply_prices(&mut conn, Target::Partner(p), &[item("pan", 550)], admin)
        .await
        .unwrap();
    assert_eq!(
        price(pool, p, Some(u), "pan").await,
        (550, Source::Custom, 550, Source::Custom)
    );
    plans::apply_prices(
        &mut conn,
        Target::Partner(p),
        &[PriceItem {
            service: "pan".into(),
            price_paise: 550.into(),
            status: Some(false),
        }],
        admin,
    )
    .await
    .unwrap();
    assert_eq!(
        price(pool, p, None, "pan").await.1,
        Source::Plan,
        "an inactive customised entry does not apply"
    );
    plans::apply_prices(&mut conn, Target::Partner(p), &[item("pan", 550)], admin)
        .await
        .unwrap();

    // 4. The user's own price sets what the user pays, never what the partner pays.
    let change = [UserPriceChange {
        service: "pan".into(),
        price_paise: 900.into(),
    }];
    pricing::set_user_prices(&mut conn, p, u, &change, Actor::partner(p))
        .await
        .unwrap();
    assert_eq!(
        price(pool, p, Some(u), "pan").await,
        (550, Source::Custom, 900, Source::User)
    );
    assert_eq!(
        price(pool, p, None, "pan").await,
        (550, Source::Custom, 550, Source::Custom),
        "the partner's own view"
    );

    // A user price is scoped to its partner: another partner asking with that user id sees none.
    let other = partner(pool, "rival", "premium").await;
    assert_eq!(
        price(pool, other, Some(u), "pan").await,
        (600, Source::Plan, 600, Source::Plan)
    );

    // Moving the partner to another slab moves the fallback, not the overrides.
    plans::change_plan(&mut conn, p, PlanType::Standard, admin)
        .await
        .unwrap();
    plans::delete_custom_price(&mut conn, p, "pan", admin)
        .await
        .unwrap();
    assert_eq!(
        price(pool, p, Some(u), "pan").await,
        (750, Source::Plan, 900, Source::User)
    );

    // Unknown service or partner: no price.
    assert!(
        pricing::resolve(&mut conn, p, None, "nope")
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        pricing::resolve(&mut conn, 1, None, "pan")
            .await
            .unwrap()
            .is_none()
    );

    // The list and the single resolution agree.
    let list = pricing::prices(&mut conn, p, Some(u), None).await.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(
        (list[0].amount_paise, list[0].user_amount_paise),
        (750, 900)
    );

    // Every price change left an audit row with before and after.
    let audited: i64 = sqlx::query_scalar("SELECT count(*) FROM audit_log WHERE entity IN ('plan_price', 'partner_price', 'user_price') AND after IS DISTINCT FROM before")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(
        audited,
        2 + 3 + 1 + 1,
        "two slab prices, three customised changes, one user price, one delete"
    );
}
