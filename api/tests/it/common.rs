//! `TestApp`: a fresh database, the real router on a loopback port, a real HTTP client, and
//! a way to run the job workers in-process.

#![allow(dead_code)]

use std::{sync::Arc, time::Duration};

use api::{
    AppState,
    auth::{Claims, Role},
};
use domain::infra::config::Config;
use serde_json::Value;
use tokio::sync::oneshot;

pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    pub db: testkit::TestDb,
    pub config: Arc<Config>,
    pub state: AppState,
    /// A live session of super admin 1, so `superadmin_token` stays a plain function.
    superadmin_sid: uuid::Uuid,
    shutdown: Option<oneshot::Sender<()>>,
}

pub struct WorkerHandle {
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl WorkerHandle {
    pub async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let _ = tokio::time::timeout(Duration::from_secs(40), &mut self.task).await;
    }
}

impl TestApp {
    pub async fn spawn() -> Self {
        Self::spawn_with(|_| {}).await
    }

    pub async fn spawn_with(tweak: impl FnOnce(&mut Config)) -> Self {
        let db = testkit::TestDb::new().await;
        let mut config = testkit::config(&db.url);
        tweak(&mut config);
        let config = Arc::new(config);
        let state = AppState::new(db.pool.clone(), config.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (tx, rx) = oneshot::channel::<()>();
        let s = state.clone();
        tokio::spawn(async move {
            api::serve(listener, s, async {
                let _ = rx.await;
            })
            .await
            .unwrap();
        });
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        let mut conn = db.pool.acquire().await.unwrap();
        let superadmin_sid = domain::infra::sessions::start(
            &mut conn,
            domain::infra::sessions::PrincipalKind::Superadmin,
            1,
            config.session_ttl,
        )
        .await
        .unwrap();
        drop(conn);
        Self {
            base,
            client,
            db,
            config,
            state,
            superadmin_sid,
            shutdown: Some(tx),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Starts every job worker in this process, as the `worker` binary would.
    pub fn start_worker(&self, instance: &str) -> WorkerHandle {
        let ctx = jobs::JobContext::new(self.db.pool.clone(), self.config.clone()).unwrap();
        let (tx, rx) = oneshot::channel::<()>();
        let instance = instance.to_owned();
        let process = jobs::workers::Process {
            id: instance.clone(),
            host: "test".into(),
            pid: std::process::id(),
            concurrency: self.config.worker_concurrency,
        };
        let task = tokio::spawn(async move {
            jobs::workers::run(ctx, jobs::registry::platform(), process, async {
                let _ = rx.await;
            })
            .await
        });
        WorkerHandle {
            stop: Some(tx),
            task,
        }
    }

    /// Runs every due job of every kind in this process, through the worker's handlers and
    /// bookkeeping, until none is due; returns how many ran. Tests use it instead of a live
    /// worker and a polling timeout.
    pub async fn run_pending_jobs(&self) -> usize {
        let ctx = jobs::JobContext::new(self.db.pool.clone(), self.config.clone()).unwrap();
        jobs::runner::run_pending(&ctx).await.unwrap()
    }

    pub fn superadmin_token(&self) -> String {
        self.state
            .issue_token(Claims {
                sub: 1,
                role: Role::Superadmin,
                user_name: None,
                subdomain: None,
                email: Some("root@test".into()),
                exp: 0,
                iat: 0,
                sid: self.superadmin_sid,
            })
            .unwrap()
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut req = self.client.get(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    pub async fn post(&self, path: &str, body: &Value, token: Option<&str>) -> (u16, Value) {
        let mut req = self.client.post(self.url(path)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    /// Polls the job-state endpoint until the job reaches `status`.
    pub async fn wait_for_job(&self, id: &str, status: &str, timeout: Duration) -> Value {
        let token = self.superadmin_token();
        let path = format!("/api/v1/jobs/{id}");
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let (_, body) = self.get(&path, Some(&token)).await;
            if body["status"] == status {
                return body;
            }
            if tokio::time::Instant::now() >= deadline {
                panic!("job {id} did not reach {status}; last state {body}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(s) = self.shutdown.take() {
            let _ = s.send(());
        }
    }
}

/// How many rows `table` holds on `pool` (a name from the test's own list, never from input).
pub async fn row_count(pool: &domain::PgPool, table: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT count(*) FROM {table}")))
        .fetch_one(pool)
        .await
        .unwrap()
}
