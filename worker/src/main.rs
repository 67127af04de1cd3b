//! `worker`: runs every background job handler (see `jobs::runner`) until SIGTERM, then lets
//! running jobs finish. Several worker processes may run side by side. It exits non-zero when
//! its queue stays out of reach for `WORKER_GIVE_UP_SECS`, for its process manager to restart
//! it. Its connections show as `application_name = 'worker'`.

use std::{process::ExitCode, sync::Arc};

use domain::infra::config::{self, Config};

// The api's allocator (api/src/main.rs): one allocator for every binary of the platform.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    config::load_dotenv();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .try_init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: starting the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> anyhow::Result<()> {
    let config = Arc::new(Config::from_env()?);
    let pool = domain::infra::db::connect_as(
        &config.database_url,
        jobs::runner::pool_size(&config),
        "worker",
    )
    .await
    .map_err(|e| anyhow::anyhow!("connecting to DATABASE_URL: {e}"))?;
    let ctx = jobs::JobContext::new(pool, config.clone())?;
    let process = jobs::workers::Process::current(config.worker_concurrency);
    tracing::info!(instance = %process.id, concurrency = config.worker_concurrency, "worker started");
    // Prometheus scrapes every worker here: its job counters are its own, in memory.
    let _metrics = match config.worker_metrics_port {
        Some(port) => {
            let addr = format!("{}:{port}", config.host);
            let listener = tokio::net::TcpListener::bind(&addr)
                .await
                .map_err(|e| anyhow::anyhow!("WORKER_METRICS_PORT: listening on {addr}: {e}"))?;
            tracing::info!(%addr, "worker metrics at /metrics");
            Some(AbortOnDrop(tokio::spawn(jobs::metrics::serve(
                listener,
                config.metrics_token.clone(),
            ))))
        }
        None => None,
    };
    jobs::workers::run(ctx, jobs::registry::platform(), process, shutdown_signal()).await
}

async fn shutdown_signal() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {},
        _ = async { match term.as_mut() { Some(t) => { t.recv().await; } None => std::future::pending::<()>().await } } => {},
    }
    tracing::info!("worker shutting down");
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}
