//! This process's job counters and run-time histograms for `/metrics`
//! (`kyc_jobs_finished_total`, `kyc_job_run_seconds`). The runner calls [`observe`] from its one
//! place where an attempt ends; the attempt's history (`job_attempts`) is written by the
//! database itself, from the job's row (migration `20261126160001_job_attempts`), so it holds
//! whichever engine or process ran the attempt, and commits with the job's state.
//!
//! The counters live in this process, in atomics: each worker serves its own on
//! `WORKER_METRICS_PORT` (`crate::metrics`).

use std::{
    sync::{
        OnceLock,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use domain::infra::metrics::{Histogram, OVERFLOW, Slots, head, label};

/// The outcomes counted: done; failed (the handler returned an error or panicked, whether a
/// retry follows or not); lost (its worker stopped beating and the job went back).
pub const OUTCOMES: [&str; 3] = ["done", "failed", "lost"];

/// A kind's counters in this process.
#[derive(Default)]
struct KindMetrics {
    finished: [AtomicU64; OUTCOMES.len()],
    run: Histogram,
}

/// Kinds are few and known; the bound only keeps a stray kind from growing the series.
fn kinds() -> &'static Slots<KindMetrics> {
    static KINDS: OnceLock<Slots<KindMetrics>> = OnceLock::new();
    KINDS.get_or_init(|| Slots::new(64))
}

/// Counts one ended attempt of `kind` with `outcome` (one of [`OUTCOMES`]) that ran for
/// `duration`. Atomics only: it runs once per job.
pub fn observe(kind: &str, outcome: &str, duration: Duration) {
    let m = kinds().get(0, kind);
    let i = OUTCOMES.iter().position(|o| *o == outcome).unwrap_or(1);
    m.finished[i].fetch_add(1, Ordering::Relaxed);
    if outcome != "lost" {
        m.run.observe(duration);
    }
}

/// Gateway transactions `settle_pending` refunded in this process: charges the api never
/// settled (it crashed, or its settlement failed).
static SETTLE_REFUNDS: AtomicU64 = AtomicU64::new(0);

/// Counts `n` stuck charges `settle_pending` refunded.
pub fn settle_refunds(n: u64) {
    SETTLE_REFUNDS.fetch_add(n, Ordering::Relaxed);
}

/// This process's job counters and run-time histograms, in Prometheus text format. Every
/// kind in `known` is written (zeros included) so that a rate is defined before the first run.
pub fn render(out: &mut String, known: &[&str]) {
    for k in known {
        kinds().get(0, k);
    }
    let entries: Vec<_> = kinds()
        .entries()
        .into_iter()
        .filter(|(_, k, m)| *k != OVERFLOW || m.run.count() > 0)
        .collect();
    head(
        out,
        "kyc_jobs_finished_total",
        "counter",
        "Job attempts that ended in this process, by kind and outcome (done; failed: an error or a panic, retried or not; lost: its worker stopped beating).",
    );
    for (_, kind, m) in &entries {
        let kind = label(kind);
        for (outcome, n) in OUTCOMES.iter().zip(&m.finished) {
            out.push_str(&format!(
                "kyc_jobs_finished_total{{kind=\"{kind}\",outcome=\"{outcome}\"}} {}\n",
                n.load(Ordering::Relaxed)
            ));
        }
    }
    head(
        out,
        "kyc_job_run_seconds",
        "histogram",
        "How long job attempts ran in this process (done or failed), by kind.",
    );
    for (_, kind, m) in &entries {
        m.run.render(
            out,
            "kyc_job_run_seconds",
            &format!("kind=\"{}\"", label(kind)),
        );
    }
    head(
        out,
        "kyc_settle_pending_refunds_total",
        "counter",
        "Pending gateway charges settle_pending refunded in this process (left by an api that crashed or could not settle).",
    );
    out.push_str(&format!(
        "kyc_settle_pending_refunds_total {}\n",
        SETTLE_REFUNDS.load(Ordering::Relaxed)
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_and_histograms_render() {
        observe("render_test", "done", Duration::from_millis(20));
        observe("render_test", "done", Duration::from_millis(200));
        observe("render_test", "lost", Duration::from_secs(9));
        let mut out = String::new();
        render(&mut out, &["render_test", "never_ran"]);
        assert!(out.contains("kyc_jobs_finished_total{kind=\"render_test\",outcome=\"done\"} 2\n"));
        assert!(out.contains("kyc_jobs_finished_total{kind=\"never_ran\",outcome=\"failed\"} 0\n"));
        assert!(out.contains("kyc_jobs_finished_total{kind=\"render_test\",outcome=\"lost\"} 1\n"));
        assert!(out.contains("kyc_job_run_seconds_bucket{kind=\"render_test\",le=\"0.025\"} 1\n"));
        assert!(out.contains("kyc_job_run_seconds_count{kind=\"render_test\"} 2\n"));
        assert!(out.contains("kyc_job_run_seconds_count{kind=\"never_ran\"} 0\n"));
        assert!(!out.contains(OVERFLOW));
    }
}
