//! `cargo run -p bench --release -- NAME [ARGS]`: one benchmark per module, each printing its
//! rates beside a reference measured in the same run (never a figure from another machine).

use std::process::ExitCode;

mod signin;

/// Every benchmark: its name on the command line, what it measures, and its entry point.
type Entry = (&'static str, &'static str, fn(Vec<String>) -> anyhow::Result<()>);

const BENCHMARKS: &[Entry] = &[
    ("signin", "concurrent sign-ins: their latency, /healthz during the burst, resets (argon2 pool vs async threads)", signin::run),
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
