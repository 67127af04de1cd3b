//! The worker binary started as ops would start it, for the tests that kill it, and a partner
//! set up to run batches.
#![allow(dead_code)] // each test binary uses its part of it

use std::process::{Child, Command, Stdio};

use domain::{
    PgPool,
    gateway::batches::{self, NewBatch},
    infra::audit::Actor,
    wallets::{self, EntryType, Movement, Owner, Reason, WalletKind},
};
use sqlx::Connection;

/// A worker process on `db_url`, mailing through the test SMTP server on `smtp_port`, with
/// one-second heartbeats and `extra` settings.
pub fn spawn_worker(db_url: &str, smtp_port: u16, extra: &[(&str, &str)]) -> Process {
    let dir = testkit::scratch_dir("worker-cwd");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_worker"));
    cmd.current_dir(&dir)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", db_url)
        .env("JWT_SECRET", "test-jwt-secret-of-at-least-32-characters")
        .env("ENCRYPTION_KEY", "2a".repeat(32))
        .env(
            "LINK_SIGNING_KEY",
            "test-link-signing-key-of-32-characters!",
        )
        .env("MAIL", "smtp")
        .env("SMTP_HOST", "127.0.0.1")
        .env("SMTP_PORT", smtp_port.to_string())
        .env("SMTP_TLS", "none")
        .env("WORKER_HEARTBEAT_SECS", "1")
        .env("JOB_RETRY_BASE_MS", "200")
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // Its log, kept in its scratch folder for a failing test's post-mortem.
    if let Ok(log) = std::fs::File::create(dir.join("worker.log")) {
        if let Ok(copy) = log.try_clone() {
            cmd.stdout(copy);
        }
        cmd.stderr(log);
    }
    for (k, v) in extra {
        cmd.env(k, v);
    }
    Process(cmd.spawn().expect("starting the worker binary"))
}

/// A child process killed when dropped: a failing assertion must not leave a worker running
/// against a dropped database, retrying for minutes beside the next tests.
pub struct Process(pub Child);

impl std::ops::Deref for Process {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Process {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// A partner with Batch Processing, a full-access user, a sandbox `pan_check` API at `price`,
/// both wallets funded.
pub struct BatchPartner {
    pub partner_id: i64,
    pub user_id: i64,
    pub user_wallet: i64,
    pub partner_wallet: i64,
    pub funds: i64,
}

impl BatchPartner {
    pub async fn create(pool: &PgPool, price: i64) -> Self {
        let partner_id: i64 = sqlx::query_scalar(
            "INSERT INTO partners (first_name, last_name, email, phone_number, user_name, password_hash, email_verified_at, batch_processing, charge_sandbox)
             VALUES ('Test', 'Partner', 'acme@partner.test', '9876543210', 'acme', 'x', now(), true, true) RETURNING id",
        )
        .fetch_one(pool)
        .await
        .unwrap();
        let user_id: i64 = sqlx::query_scalar(
            "INSERT INTO end_users (partner_id, first_name, last_name, email, phone_number, password_hash, full_access)
             VALUES ($1, 'Asha', 'Rao', 'asha@example.in', '9876543210', 'x', true) RETURNING id",
        )
        .bind(partner_id)
        .fetch_one(pool)
        .await
        .unwrap();
        let input = serde_json::from_value(serde_json::json!({
            "name": "PAN", "category": "Identity", "service": "pan_check", "description": "Verifies a PAN", "endpoint": "/v1/pan",
            "documentation_link": "https://docs.example/pan", "curl_code": "curl -X POST https://api.example/v1/pan",
            "response_code": {"status": "ok"}, "method": "post", "required_fields": ["id_number"], "default_price_paise": price
        }))
        .unwrap();
        let mut conn = pool.acquire().await.unwrap();
        let api = domain::catalogue::create(&mut conn, &input, Actor::system())
            .await
            .unwrap();
        sqlx::query("INSERT INTO sandbox_apis (api_id) VALUES ($1)")
            .bind(api.id)
            .execute(pool)
            .await
            .unwrap();
        let funds = 1_000_000;
        let mut wallet = async |owner| {
            let w = wallets::wallet_id(&mut conn, owner, WalletKind::Api)
                .await
                .unwrap();
            let m = Movement {
                wallet_id: w,
                entry_type: EntryType::Credit,
                amount_paise: funds,
                reason: Reason::Manual,
                reference: None,
                idempotency_key: None,
                actor: Actor::system(),
            };
            wallets::apply(&mut conn, &m).await.unwrap();
            w
        };
        let user_wallet = wallet(Owner::User {
            partner_id,
            user_id,
        })
        .await;
        let partner_wallet = wallet(Owner::Partner(partner_id)).await;
        Self {
            partner_id,
            user_id,
            user_wallet,
            partner_wallet,
            funds,
        }
    }

    /// A batch of `rows` PANs as the api writes it: rows and job in one transaction.
    pub async fn queue_batch(&self, pool: &PgPool, rows: usize) -> i64 {
        let csv: String = std::iter::once("id_number\n".to_owned())
            .chain((1..=rows).map(|i| format!("PAN{i:05}\n")))
            .collect();
        let parsed = batches::parse(csv.as_bytes(), &["id_number".to_owned()]).unwrap();
        let new = NewBatch {
            partner_id: self.partner_id,
            user_id: self.user_id,
            key_id: None,
            service: "pan_check",
            sandbox: true,
            ip: "127.0.0.1".parse().unwrap(),
            file_name: "kyc.csv",
        };
        let mut conn = pool.acquire().await.unwrap();
        let mut tx = conn.begin().await.unwrap();
        let id = batches::create(&mut tx, &new, &parsed).await.unwrap();
        let job_id = jobs::enqueue(&mut tx, &jobs::RunBatch { batch_id: id })
            .await
            .unwrap();
        batches::set_job(&mut tx, id, &job_id).await.unwrap();
        tx.commit().await.unwrap();
        id
    }
}
