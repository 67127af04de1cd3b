//! `cargo run -p bench --release -- NAME [ARGS]`: one benchmark per module, each printing its
//! rates beside a reference measured in the same run (never a figure from another machine).

use std::process::ExitCode;

// The api's allocator (api/src/main.rs), as the gateway benchmark runs the api in this process.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod export;
mod gateway;
mod jobs;
mod lists;
mod signin;

/// Every benchmark: its name on the command line, what it measures, and its entry point.
type Entry = (
    &'static str,
    &'static str,
    fn(Vec<String>) -> anyhow::Result<()>,
);

const BENCHMARKS: &[Entry] = &[
    (
        "signin",
        "concurrent sign-ins: their latency, /healthz during the burst, resets (argon2 pool vs async threads)",
        signin::run,
    ),
    (
        "jobs",
        "the job queue: noop jobs/s worked and enqueue-to-start p50/p99 with one and two worker processes, Postgres-alone reference",
        jobs::run,
    ),
    (
        "jobs-worker",
        "(started by `jobs`) one worker process on the benchmark's database",
        jobs::worker,
    ),
    (
        "export",
        "export_csv job rows/s and peak memory growth on 1,000,000 transactions, beside psql \\copy of the same rows",
        export::run,
    ),
    (
        "lists",
        "server time of the big lists' page 1 and page 1,000 and the dashboards at 10,000,000 transactions, beside count(*) of the same rows",
        lists::run,
    ),
    (
        "gateway",
        "metered calls/s (1 hot user; 50 partners x 20 users; with and without Redis; sandbox; two api processes), refusals/s, latency overhead, Postgres-alone reference, ledger audit, floors",
        gateway::run,
    ),
    (
        "gateway-latency",
        "p50/p99 of a metered call beside a direct upstream call at each of RATES calls/s (default 50,200,500,1000): where the latency starts to queue",
        gateway::latency,
    ),
    (
        "gateway-api",
        "(started by `gateway`) one api process on the benchmark's database",
        gateway::api_process,
    ),
];

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_default();
    match BENCHMARKS.iter().find(|(n, _, _)| *n == name) {
        Some((_, _, run)) => match run(args.collect()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("bench {name}: {e:#}");
                ExitCode::FAILURE
            }
        },
        None => {
            eprintln!("usage: cargo run -p bench --release -- NAME\n\nbenchmarks:");
            for (n, what, _) in BENCHMARKS {
                eprintln!("  {n:<10} {what}");
            }
            ExitCode::from(2)
        }
    }
}
