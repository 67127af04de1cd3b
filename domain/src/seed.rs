//! The demo data of `api seed`: a super admin, the catalogue with its sandbox list and the four
//! plan slabs, and a demo partner (sub-domain `demo`) with end users, wallets and some months of
//! consistent activity (every balance equals the sum of its ledger). Idempotent: the catalogue
//! is inserted by service key, and the demo partner's data only when the partner is new.

use rand::{Rng, SeedableRng, rngs::StdRng};
use serde::Deserialize;
use sqlx::{PgConnection, PgPool};

use crate::infra::crypto;

const CATALOGUE: &str = include_str!("../seed/catalogue.json");

/// What each slab pays, as a share of the catalogue default (the plans' advertised discounts).
pub const SLAB_SHARE_PERCENT: [(&str, i64); 4] = [
    ("default", 100),
    ("standard", 75),
    ("premium", 60),
    ("pro", 45),
];

#[derive(Deserialize)]
struct Catalogue {
    apis: Vec<CatalogueApi>,
}

#[derive(Deserialize)]
struct CatalogueApi {
    service: String,
    name: String,
    category: String,
    description: String,
    pid: String,
    method: String,
    endpoint: String,
    documentation_link: String,
    curl_code: String,
    required_fields: Vec<String>,
    param_name: String,
    header_param_name: String,
    sample_response: serde_json::Value,
    default_price_paise: i64,
    sandbox: bool,
}

impl CatalogueApi {
    /// The entry as the super admin's Add API form sends one, so that the seed's entries pass
    /// the same rules.
    fn input(&self) -> crate::catalogue::ApiInput {
        crate::catalogue::ApiInput {
            name: Some(self.name.clone()),
            category: Some(self.category.clone()),
            service: Some(self.service.clone()),
            description: Some(self.description.clone()),
            endpoint: Some(self.endpoint.clone()),
            documentation_link: Some(self.documentation_link.clone()),
            curl_code: Some(self.curl_code.clone()),
            response_code: Some(self.sample_response.clone()),
            method: Some(self.method.clone()),
            param_name: Some(self.param_name.clone()),
            header_param_name: Some(self.header_param_name.clone()),
            required_fields: Some(self.required_fields.clone()),
            default_price_paise: Some(self.default_price_paise),
            pid: Some(self.pid.clone()),
            ..Default::default()
        }
    }
}

#[derive(Debug, Default)]
pub struct SeedReport {
    pub apis_added: u64,
    pub demo_partner_created: bool,
    pub users: usize,
    pub api_transactions: usize,
    pub bank_statements: usize,
}

pub struct DemoLogins {
    pub partner_email: &'static str,
    pub partner_user_name: &'static str,
}

pub const DEMO: DemoLogins = DemoLogins {
    partner_email: "demo@example.in",
    partner_user_name: "demo",
};

pub async fn run(
    pool: &PgPool,
    admin_email: &str,
    admin_password: &str,
) -> anyhow::Result<SeedReport> {
    let demo_password =
        std::env::var("DEMO_PARTNER_PASSWORD").unwrap_or_else(|_| admin_password.to_owned());
    crate::auth::superadmins::upsert(pool, admin_email, admin_password).await?;
    let mut tx = pool.begin().await?;
    let mut report = SeedReport {
        apis_added: catalogue(&mut tx).await?,
        ..Default::default()
    };
    if let Some(partner_id) = demo_partner(&mut tx, &demo_password).await? {
        report.demo_partner_created = true;
        let users = demo_users(&mut tx, partner_id).await?;
        report.users = users.len();
        report.api_transactions = demo_activity(&mut tx, partner_id, &users).await?;
        report.bank_statements = demo_bank_statements(&mut tx, partner_id, &users).await?;
    }
    tx.commit().await?;
    Ok(report)
}

async fn catalogue(conn: &mut PgConnection) -> anyhow::Result<u64> {
    let cat: Catalogue = serde_json::from_str(CATALOGUE)?;
    let mut added = 0;
    for a in &cat.apis {
        // By service key: an entry the super admin has since edited is left as it is.
        if crate::catalogue::id_of_service(conn, &a.service)
            .await?
            .is_some()
        {
            continue;
        }
        let id = crate::catalogue::insert(conn, &a.input()).await?;
        added += 1;
        if a.sandbox {
            sqlx::query("INSERT INTO sandbox_apis (api_id) VALUES ($1) ON CONFLICT DO NOTHING")
                .bind(id)
                .execute(&mut *conn)
                .await?;
        }
        for (plan, share) in SLAB_SHARE_PERCENT {
            sqlx::query("INSERT INTO plan_prices (plan, api_id, price_paise) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
                .bind(plan)
                .bind(id)
                .bind(a.default_price_paise * share / 100)
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(added)
}

/// Creates the demo partner; `None` when it already exists.
async fn demo_partner(conn: &mut PgConnection, password: &str) -> anyhow::Result<Option<i64>> {
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO partners (first_name, last_name, email, phone_number, user_name, password_hash, email_verified_at,
                               plan, billing_cycle, plan_selected_at, subdomain, subdomain_status, title, description,
                               branding_done, smtp_done, theme_primary, theme_secondary, theme_tertiary, documentation_link,
                               default_margin_bps, created_at)
         VALUES ('Demo', 'Partner', $1, '9876543210', $2, $3, now(), 'standard', 'monthly', now(), 'demo', 'active',
                 'Demo KYC - Home', 'Demo KYC - API KYC Solution', true, true, '#0F766E', '#7C3AED', '#F59E0B',
                 'https://docs.kycapi.example', 2000, now() - interval '150 days')
         ON CONFLICT (email) DO NOTHING RETURNING id",
    )
    .bind(DEMO.partner_email)
    .bind(DEMO.partner_user_name)
    .bind(crypto::hash_password(password)?)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(id) = id {
        for kind in ["api", "product"] {
            sqlx::query("INSERT INTO wallets (partner_id, kind) VALUES ($1, $2)")
                .bind(id)
                .bind(kind)
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(id)
}

const FIRST: [&str; 24] = [
    "Aarav", "Vivaan", "Aditya", "Vihaan", "Arjun", "Sai", "Reyansh", "Ishaan", "Krishna", "Rohan",
    "Ananya", "Diya", "Aadhya", "Saanvi", "Pari", "Myra", "Kavya", "Priya", "Neha", "Meera",
    "Rahul", "Sneha", "Pooja", "Karan",
];
const LAST: [&str; 16] = [
    "Sharma", "Verma", "Iyer", "Nair", "Reddy", "Gupta", "Mehta", "Patel", "Singh", "Kumar", "Das",
    "Joshi", "Rao", "Menon", "Kapoor", "Chopra",
];

async fn demo_users(conn: &mut PgConnection, partner_id: i64) -> anyhow::Result<Vec<i64>> {
    let hash = crypto::hash_password("User@12345")?;
    let mut ids = Vec::new();
    for i in 0..36usize {
        let (first, last) = (FIRST[i % FIRST.len()], LAST[(i * 7) % LAST.len()]);
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO end_users (partner_id, first_name, last_name, email, phone_number, password_hash, is_active,
                                    full_access, address_name, address1, address2, address3, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'Registered office', $9, 'MG Road', 'Bengaluru 560001',
                     now() - make_interval(days => $10))
             RETURNING id",
        )
        .bind(partner_id)
        .bind(first)
        .bind(last)
        .bind(format!("{}.{}{}@example.in", first.to_lowercase(), last.to_lowercase(), i + 1))
        .bind(format!("9{:09}", 812_345_670 + i as i64 * 7_919))
        .bind(&hash)
        .bind(i % 9 != 8)
        .bind(i % 3 == 0)
        .bind(format!("{} {}, Floor {}", 10 + i, ["Residency Road", "Brigade Road", "Church Street"][i % 3], i % 5 + 1))
        .bind(140 - (i as i32 * 3))
        .fetch_one(&mut *conn)
        .await?;
        for kind in ["api", "product"] {
            sqlx::query("INSERT INTO wallets (partner_id, user_id, kind) VALUES ($1, $2, $3)")
                .bind(partner_id)
                .bind(id)
                .bind(kind)
                .execute(&mut *conn)
                .await?;
        }
        ids.push(id);
    }
    Ok(ids)
}

/// One ledger movement to write: wallet, credit or debit, amount, when, why.
struct Move {
    wallet: i64,
    credit: bool,
    amount: i64,
    at: chrono::DateTime<chrono::Utc>,
    reason: &'static str,
    reference: String,
    actor: &'static str,
}

async fn demo_activity(
    conn: &mut PgConnection,
    partner_id: i64,
    users: &[i64],
) -> anyhow::Result<usize> {
    let mut rng = StdRng::seed_from_u64(20261122);
    let now = chrono::Utc::now();
    let apis: Vec<(i64, String, String)> = sqlx::query_as(
        "SELECT c.id, c.service, c.pid
           FROM api_catalogue c JOIN plan_prices p ON p.api_id = c.id AND p.plan = 'standard'
          ORDER BY c.id LIMIT 60",
    )
    .fetch_all(&mut *conn)
    .await?;
    // The demo partner sells at its 20% default margin, with its own selling price on two APIs
    // and one user's own price on a third, so every level of the resolution shows in the demo.
    let actor = crate::infra::audit::Actor::partner(partner_id);
    let change = |service: &str, paise: i64| crate::catalogue::pricing::UserPriceChange {
        service: service.to_owned(),
        price_paise: paise.into(),
    };
    if apis.len() >= 3 {
        crate::catalogue::pricing::set_selling_prices(
            conn,
            partner_id,
            &[change(&apis[1].1, 1500), change(&apis[2].1, 2500)],
            actor,
        )
        .await?;
        crate::catalogue::pricing::set_user_prices(
            conn,
            partner_id,
            users[0],
            &[change(&apis[0].1, 800)],
            actor,
        )
        .await?;
    }
    // What each user's calls cost: the resolution the gateway charges with and API Price shows.
    let mut price_of = std::collections::HashMap::<(i64, i64), (i64, i64)>::new();
    for &u in users {
        for p in crate::catalogue::pricing::prices(conn, partner_id, Some(u), None).await? {
            price_of.insert((u, p.api_id), (p.amount_paise, p.user_amount_paise));
        }
    }
    let wallet = |user: Option<i64>, kind: &'static str| {
        sqlx::query_scalar::<_, i64>("SELECT id FROM wallets WHERE partner_id = $1 AND user_id IS NOT DISTINCT FROM $2 AND kind = $3")
            .bind(partner_id)
            .bind(user)
            .bind(kind)
    };
    let partner_api = wallet(None, "api").fetch_one(&mut *conn).await?;
    let partner_product = wallet(None, "product").fetch_one(&mut *conn).await?;
    let mut user_wallets = Vec::new();
    for &u in users {
        user_wallets.push((
            u,
            wallet(Some(u), "api").fetch_one(&mut *conn).await?,
            wallet(Some(u), "product").fetch_one(&mut *conn).await?,
        ));
    }

    // Calls first, so the top-ups can be sized to cover them.
    let mut calls: Vec<(i64, usize, chrono::DateTime<chrono::Utc>, bool)> = (0..4200)
        .map(|_| {
            let user = rng.random_range(0..users.len());
            let api = rng.random_range(0..apis.len().min(25))
                + if rng.random_bool(0.3) {
                    rng.random_range(0..apis.len().saturating_sub(25))
                } else {
                    0
                };
            let at = now - chrono::Duration::seconds(rng.random_range(3_600..120 * 86_400));
            (
                user as i64,
                api.min(apis.len() - 1),
                at,
                rng.random_bool(0.93),
            )
        })
        .collect();
    calls.sort_by_key(|c| c.2);
    let start = now - chrono::Duration::days(125);

    let mut moves = Vec::new();
    // The super admin funds the partner; the partner funds its users.
    moves.push(Move {
        wallet: partner_api,
        credit: true,
        amount: 250_000 * 100,
        at: start,
        reason: "manual",
        reference: "Opening credit".into(),
        actor: "superadmin",
    });
    moves.push(Move {
        wallet: partner_product,
        credit: true,
        amount: 50_000 * 100,
        at: start,
        reason: "manual",
        reference: "Opening credit".into(),
        actor: "superadmin",
    });
    for (_, api_w, product_w) in &user_wallets {
        moves.push(Move {
            wallet: *api_w,
            credit: true,
            amount: rng.random_range(40..120) * 100_000,
            at: start,
            reason: "manual",
            reference: "Wallet top-up".into(),
            actor: "partner",
        });
        moves.push(Move {
            wallet: *product_w,
            credit: true,
            amount: rng.random_range(5..20) * 100_000,
            at: start,
            reason: "manual",
            reference: "Wallet top-up".into(),
            actor: "partner",
        });
    }

    let mut tx_rows = Vec::new();
    for (n, (user, api, at, ok)) in calls.iter().enumerate() {
        let (api_id, service, pid) = &apis[*api];
        let (uid, user_api_w, _) = user_wallets[*user as usize];
        let (partner_price, user_price) = price_of[&(uid, *api_id)];
        let partner_price = &partner_price;
        let reference = crate::wallets::charge::reference(n as i64 + 1);
        moves.push(Move {
            wallet: user_api_w,
            credit: false,
            amount: user_price,
            at: *at,
            reason: "api_call",
            reference: reference.clone(),
            actor: "user",
        });
        moves.push(Move {
            wallet: partner_api,
            credit: false,
            amount: *partner_price,
            at: *at,
            reason: "api_call",
            reference: reference.clone(),
            actor: "user",
        });
        if !ok {
            let later = *at + chrono::Duration::seconds(1);
            moves.push(Move {
                wallet: user_api_w,
                credit: true,
                amount: user_price,
                at: later,
                reason: "refund",
                reference: reference.clone(),
                actor: "system",
            });
            moves.push(Move {
                wallet: partner_api,
                credit: true,
                amount: *partner_price,
                at: later,
                reason: "refund",
                reference: reference.clone(),
                actor: "system",
            });
        }
        tx_rows.push((
            uid,
            *api_id,
            service.clone(),
            pid.clone(),
            *at,
            *ok,
            *partner_price,
            user_price,
            reference,
        ));
    }
    let mut product_rows = Vec::new();
    for n in 0..400 {
        let (uid, _, user_product_w) = user_wallets[rng.random_range(0..user_wallets.len())];
        let at = now - chrono::Duration::seconds(rng.random_range(3_600..120 * 86_400));
        let (product, price) = [
            ("Bank Statement Analyser", 4900),
            ("E-Sign", 2500),
            ("Credit Score Check", 9900),
            ("AML Screening", 1500),
        ][n % 4];
        let reference = format!("PRD{:08}", n + 1);
        moves.push(Move {
            wallet: user_product_w,
            credit: false,
            amount: price,
            at,
            reason: "product",
            reference: reference.clone(),
            actor: "user",
        });
        moves.push(Move {
            wallet: partner_product,
            credit: false,
            amount: price * 3 / 4,
            at,
            reason: "product",
            reference: reference.clone(),
            actor: "user",
        });
        product_rows.push((uid, product, at, price, price * 3 / 4, reference));
    }

    // Running balances per wallet in time order; the wallet row gets the final one.
    moves.sort_by_key(|m| (m.at, !m.credit));
    let mut balance = std::collections::HashMap::<i64, i64>::new();
    let mut after = std::collections::HashMap::<(String, i64), i64>::new();
    let (mut w, mut ty, mut amt, mut bal, mut why, mut refr, mut actor, mut at) = (
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
    );
    for m in &moves {
        let b = balance.entry(m.wallet).or_default();
        *b += if m.credit { m.amount } else { -m.amount };
        anyhow::ensure!(*b >= 0, "seed would overdraw wallet {}", m.wallet);
        after.insert((m.reference.clone(), m.wallet), *b);
        w.push(m.wallet);
        ty.push(if m.credit { "credit" } else { "debit" });
        amt.push(m.amount);
        bal.push(*b);
        why.push(m.reason);
        refr.push(m.reference.clone());
        actor.push(m.actor);
        at.push(m.at);
    }
    sqlx::query(
        "INSERT INTO wallet_entries (wallet_id, type, amount_paise, balance_after_paise, reason, reference, actor_kind, created_at)
         SELECT * FROM UNNEST($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])",
    )
    .bind(&w).bind(&ty).bind(&amt).bind(&bal).bind(&why).bind(&refr).bind(&actor).bind(&at)
    .execute(&mut *conn)
    .await?;
    for (wallet, b) in &balance {
        sqlx::query("UPDATE wallets SET balance_paise = $2 WHERE id = $1")
            .bind(wallet)
            .bind(b)
            .execute(&mut *conn)
            .await?;
    }

    for (uid, api_id, service, pid, at, ok, partner_price, user_price, reference) in &tx_rows {
        let user_api_w = user_wallets
            .iter()
            .find(|u| u.0 == *uid)
            .map(|u| u.1)
            .unwrap_or_default();
        let remaining = after.get(&(reference.clone(), user_api_w)).copied();
        let partner_remaining = after.get(&(reference.clone(), partner_api)).copied();
        let code = if *ok {
            200
        } else {
            [400, 404, 422, 502][(*api_id % 4) as usize]
        };
        let tx_id: i64 = sqlx::query_scalar(
            "INSERT INTO api_transactions (partner_id, user_id, api_id, service, pid, status, status_code, amount_paise,
                                           user_amount_paise, remaining_paise, partner_remaining_paise, created_at, settled_at)
             VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$12) RETURNING id",
        )
        .bind(partner_id).bind(uid).bind(api_id).bind(service).bind(pid)
        .bind(if *ok { "success" } else { "refunded" }).bind(code).bind(partner_price).bind(user_price)
        .bind(remaining).bind(partner_remaining).bind(at)
        .fetch_one(&mut *conn)
        .await?;
        sqlx::query(
            "INSERT INTO api_logs (partner_id, user_id, transaction_id, service, pid, vid, vpid, status_code, amount_paise, ip, latency_ms, created_at)
             VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10::inet,$11,$12)",
        )
        .bind(partner_id).bind(uid).bind(tx_id).bind(service).bind(pid)
        .bind(format!("VID{tx_id:08}")).bind(format!("VP{:010}", tx_id * 7_919 % 10_000_000_000))
        .bind(code).bind(if *ok { *user_price } else { 0 })
        .bind(format!("103.21.{}.{}", uid % 200, tx_id % 250 + 1)).bind(120 + (tx_id % 900) as i32).bind(at)
        .execute(&mut *conn)
        .await?;
    }
    for (uid, product, at, price, partner_price, reference) in &product_rows {
        let user_product_w = user_wallets
            .iter()
            .find(|u| u.0 == *uid)
            .map(|u| u.2)
            .unwrap_or_default();
        sqlx::query(
            "INSERT INTO product_transactions (partner_id, user_id, product, pid, amount_type, amount_paise, user_amount_paise, remaining_paise,
                                               partner_remaining_paise, created_at)
             VALUES ($1,$2,$3,$4,'debit',$5,$6,$7,$8,$9)",
        )
        .bind(partner_id).bind(uid).bind(product).bind(reference).bind(partner_price).bind(price)
        .bind(after.get(&(reference.clone(), user_product_w)).copied())
        .bind(after.get(&(reference.clone(), partner_product)).copied()).bind(at)
        .execute(&mut *conn)
        .await?;
        sqlx::query("INSERT INTO product_logs (partner_id, user_id, description, status_code, amount_paise, created_at) VALUES ($1,$2,$3,200,$4,$5)")
            .bind(partner_id).bind(uid).bind(format!("{product} ({reference})")).bind(price).bind(at)
            .execute(&mut *conn)
            .await?;
    }
    // Hit counts per user, IP and day, as the gateway would have folded them.
    sqlx::query(
        "INSERT INTO ip_hits (partner_id, user_id, ip, day, hits, first_seen, last_seen)
         SELECT partner_id, user_id, ip, created_at::date, count(*), min(created_at), max(created_at)
           FROM api_logs WHERE partner_id = $1 GROUP BY partner_id, user_id, ip, created_at::date",
    )
    .bind(partner_id)
    .execute(&mut *conn)
    .await?;
    Ok(tx_rows.len())
}

/// The demo statements' file name: [`demo_files`] stores a small PDF under every key ending so.
const DEMO_STATEMENT: &str = "DEMO0_statement.pdf";

/// Two TruBank requests of demo users, bought through `trubank::submit` (so charged through the
/// ledger like real ones): one waiting in the queue, one already verified.
async fn demo_bank_statements(
    conn: &mut PgConnection,
    partner_id: i64,
    users: &[i64],
) -> anyhow::Result<usize> {
    let demo = [
        ("50100234567812", "HDFC Bank", true),
        ("91201004567890", "Axis Bank", false),
    ];
    let mut made = 0;
    for ((number, bank, decided), &user_id) in demo.into_iter().zip(users.iter().skip(1)) {
        let name: String = sqlx::query_scalar(
            "SELECT first_name || ' ' || last_name FROM end_users WHERE id = $1",
        )
        .bind(user_id)
        .fetch_one(&mut *conn)
        .await?;
        let s = crate::trubank::Submission {
            account_name: name,
            account_number: number.into(),
            bank_name: bank.into(),
            file_key: format!(
                "{}{DEMO_STATEMENT}",
                crate::infra::storage::upload::statement_folder(partner_id, user_id)
            ),
        };
        let r = match crate::trubank::submit(
            conn,
            partner_id,
            user_id,
            &s,
            crate::infra::audit::Actor::user(user_id),
        )
        .await?
        {
            crate::trubank::Submitted::Created(r) | crate::trubank::Submitted::Replayed(r) => r,
        };
        if decided {
            // Written directly: the demo's past decision mails nobody.
            sqlx::query("UPDATE bank_statement_requests SET status = 'verified', comments = $2, decided_at = now(), updated_at = now() WHERE id = $1")
                .bind(r.id)
                .bind("Statement matches the account summary")
                .execute(&mut *conn)
                .await?;
        }
        made += 1;
    }
    Ok(made)
}

/// Stores the demo statements' PDF wherever a demo request names one that is not stored yet
/// (the seed itself only writes rows; `api seed` calls this with the configured store).
pub async fn demo_files(
    pool: &PgPool,
    storage: &crate::infra::storage::Storage,
) -> anyhow::Result<usize> {
    const PDF: &[u8] = b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n\
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >> endobj\n\
4 0 obj << /Length 60 >> stream\nBT /F1 18 Tf 72 760 Td (Demo bank statement - sample only) Tj ET\nendstream endobj\n\
5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";
    let keys: Vec<String> = sqlx::query_scalar(
        "SELECT file_key FROM bank_statement_requests WHERE file_key LIKE '%/' || $1",
    )
    .bind(DEMO_STATEMENT)
    .fetch_all(pool)
    .await?;
    let mut stored = 0;
    for key in keys {
        if !storage.exists(&key).await? {
            storage
                .put_bytes(&key, PDF.to_vec(), "application/pdf")
                .await?;
            stored += 1;
        }
    }
    Ok(stored)
}
