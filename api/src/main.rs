//! `api serve | migrate | seed | create-superadmin <email>`.
//! Errors end the process with one line on stderr (no panic, no backtrace) and exit code 1.

use std::{process::ExitCode, sync::Arc};

use api::AppState;
use domain::infra::config::{self, Config};

/// Under metered load glibc's allocator was a fifth of the CPU of the process serving the api
/// (`perf`: `_int_malloc`, `malloc_consolidate`, `unlink_chunk` on every request's headers,
/// bodies and futures); README 'Benchmarks: the gateway', stop 30.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "usage: api <serve|migrate|seed|create-superadmin EMAIL|openapi>   (create-superadmin reads the password from SUPERADMIN_PASSWORD; openapi prints the OpenAPI document)";

fn main() -> ExitCode {
    config::load_dotenv();
    init_tracing();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return fail(format!("starting the runtime: {e}")),
    };
    let result = runtime.block_on(async {
        match args.first().map(String::as_str) {
            Some("serve") | None => serve().await,
            Some("migrate") => migrate().await,
            Some("seed") => seed().await,
            Some("create-superadmin") => create_superadmin(args.get(1).cloned()).await,
            Some("openapi") => openapi(),
            Some(other) => Err(anyhow::anyhow!("unknown command {other:?}; {USAGE}")),
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(format!("{e:#}")),
    }
}

/// Prints the OpenAPI document (no configuration or database needed): `scripts/test` validates
/// it with openapi-spec-validator.
fn openapi() -> anyhow::Result<()> {
    println!(
        "{}",
        serde_json::to_string_pretty(&api::openapi::document())?
    );
    Ok(())
}

fn fail(message: String) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}

fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .try_init();
}

async fn pool_only() -> anyhow::Result<domain::PgPool> {
    let url = config::database_url()?;
    domain::infra::db::connect(&url, 5)
        .await
        .map_err(|e| anyhow::anyhow!("connecting to DATABASE_URL: {e}"))
}

async fn migrate() -> anyhow::Result<()> {
    use sqlx::migrate::MigrateDatabase;
    let url = config::database_url()?;
    if !sqlx::Postgres::database_exists(&url).await.unwrap_or(false) {
        sqlx::Postgres::create_database(&url)
            .await
            .map_err(|e| anyhow::anyhow!("creating the database of DATABASE_URL: {e}"))?;
        tracing::info!("database created");
    }
    let pool = pool_only().await?;
    jobs::migrate_all(&pool).await?;
    tracing::info!("migrations applied");
    Ok(())
}

async fn seed() -> anyhow::Result<()> {
    let pool = pool_only().await?;
    let email = std::env::var("SUPERADMIN_EMAIL").unwrap_or_else(|_| "admin@localhost".into());
    let password = std::env::var("SUPERADMIN_PASSWORD").map_err(|_| config::ConfigError {
        var: "SUPERADMIN_PASSWORD",
        problem: "is not set".into(),
    })?;
    let report = domain::seed::run(&pool, &email, &password).await?;
    // The demo's statement files need the store, which needs the whole configuration.
    match Config::from_env() {
        Ok(config) => {
            let stored =
                domain::seed::demo_files(&pool, &domain::infra::storage::Storage::new(&config))
                    .await?;
            tracing::info!(stored, "demo statement files");
        }
        Err(e) => {
            tracing::warn!(error = %e, "demo statement files not stored: the configuration is incomplete")
        }
    }
    tracing::info!(?report, "seed done");
    Ok(())
}

async fn create_superadmin(email: Option<String>) -> anyhow::Result<()> {
    let email = email.ok_or_else(|| anyhow::anyhow!("{USAGE}"))?;
    let password = std::env::var("SUPERADMIN_PASSWORD").map_err(|_| config::ConfigError {
        var: "SUPERADMIN_PASSWORD",
        problem: "is not set".into(),
    })?;
    let pool = pool_only().await?;
    let id = domain::auth::superadmins::upsert(&pool, &email, &password).await?;
    println!("super admin {email} (id {id}) ready");
    Ok(())
}

async fn serve() -> anyhow::Result<()> {
    let config = Arc::new(Config::from_env()?);
    let pool = domain::infra::db::connect_keeping(
        &config.database_url,
        config.database_max_connections,
        domain::infra::db::API_WARM_CONNECTIONS,
    )
    .await
    .map_err(|e| anyhow::anyhow!("connecting to DATABASE_URL: {e}"))?;
    let addr = format!("{}:{}", config.host, config.port);
    let listener = tokio::net::TcpListener::bind(&addr)
        .await
        .map_err(|e| anyhow::anyhow!("binding {addr}: {e}"))?;
    tracing::info!(%addr, public_url = %config.public_url, "api listening");
    api::serve(
        listener,
        AppState::new(pool, config),
        api::shutdown_signal(),
    )
    .await?;
    Ok(())
}
