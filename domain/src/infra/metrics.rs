//! Prometheus primitives shared by the api and the worker: counters and histograms that are
//! atomics only (the gateway's hot path records into them, so no lock and no allocation per
//! call), a bounded table that gives a label value its slot, process metrics read from
//! `/proc`, and the text format's helpers.

use std::{
    fmt::Write,
    hash::{Hash, Hasher},
    sync::{
        OnceLock,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

/// Upper bounds (seconds) of the latency buckets: from a millisecond (the gateway's overhead)
/// to a minute (a slow job or upstream).
pub const LATENCY_BUCKETS: [f64; 16] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0,
];

/// A histogram of durations over [`LATENCY_BUCKETS`]: per-bucket counts (not cumulative; the
/// rendering adds them up), the sum in microseconds and the count.
#[derive(Default)]
pub struct Histogram {
    buckets: [AtomicU64; LATENCY_BUCKETS.len()],
    sum_micros: AtomicU64,
    count: AtomicU64,
}

impl Histogram {
    pub fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        if let Some(i) = LATENCY_BUCKETS.iter().position(|b| secs <= *b) {
            self.buckets[i].fetch_add(1, Ordering::Relaxed);
        }
        self.sum_micros.fetch_add(
            u64::try_from(d.as_micros()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
        self.count.fetch_add(1, Ordering::Relaxed);
    }

    /// The observed durations added up.
    pub fn sum(&self) -> Duration {
        Duration::from_micros(self.sum_micros.load(Ordering::Relaxed))
    }

    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// The `_bucket`, `_sum` and `_count` lines of `name` with the labels `labels` (already
    /// formatted, `kind="x"`, or empty).
    pub fn render(&self, out: &mut String, name: &str, labels: &str) {
        let sep = if labels.is_empty() { "" } else { "," };
        let mut cumulative = 0;
        for (b, n) in LATENCY_BUCKETS.iter().zip(&self.buckets) {
            cumulative += n.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"{b}\"}} {cumulative}");
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"+Inf\"}} {count}");
        let sum = self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        if labels.is_empty() {
            let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {count}");
        } else {
            let _ = writeln!(
                out,
                "{name}_sum{{{labels}}} {sum}\n{name}_count{{{labels}}} {count}"
            );
        }
    }
}

/// A fixed table from a label value (and a small discriminant, such as the method) to its
/// metrics `T`. A value seen before is found by hashing and probing, with no lock and no
/// allocation; a new value takes a free slot once. When the table is full, further values share
/// one overflow entry, labelled [`OVERFLOW`], so callers cannot grow the series without bound.
/// The label value of a full table's shared entry.
pub const OVERFLOW: &str = "(overflow)";

/// A slot's tag, name and metrics.
type Entry<T> = (u8, Box<str>, T);

pub struct Slots<T> {
    slots: Box<[OnceLock<Entry<T>>]>,
    overflow: T,
}

impl<T: Default> Slots<T> {
    pub fn new(capacity: usize) -> Self {
        Self {
            slots: (0..capacity.max(1)).map(|_| OnceLock::new()).collect(),
            overflow: T::default(),
        }
    }

    /// The entry of `(tag, name)`, made on first use.
    pub fn get(&self, tag: u8, name: &str) -> &T {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (tag, name).hash(&mut h);
        let n = self.slots.len();
        let start = (h.finish() as usize) % n;
        for i in 0..n {
            let slot = &self.slots[(start + i) % n];
            let (t, k, v) = match slot.get() {
                Some(e) => e,
                None => slot.get_or_init(|| (tag, name.into(), T::default())),
            };
            if *t == tag && &**k == name {
                return v;
            }
        }
        &self.overflow
    }

    /// Every entry in use, sorted, then the overflow (as [`OVERFLOW`], tag 0).
    pub fn entries(&self) -> Vec<(u8, &str, &T)> {
        let mut v: Vec<(u8, &str, &T)> = self
            .slots
            .iter()
            .filter_map(|s| s.get().map(|(t, k, v)| (*t, &**k, v)))
            .collect();
        v.sort_by(|a, b| (a.1, a.0).cmp(&(b.1, b.0)));
        v.push((0, OVERFLOW, &self.overflow));
        v
    }
}

/// `# HELP` and `# TYPE` of a family.
pub fn head(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

/// A label value with `\`, `"` and line breaks escaped, as the text format wants.
pub fn label(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// The process metrics of the Prometheus client libraries (CPU seconds, resident and virtual
/// memory, open and maximum file descriptors, start time) read from `/proc/self`, and
/// `{prefix}_build_info` (1, labelled with the version), for the process `process` (`api` or
/// `worker`). Off Linux only the build info is written.
pub fn render_process(out: &mut String, prefix: &str, process: &str) {
    let name = format!("{prefix}_build_info");
    head(
        out,
        &name,
        "gauge",
        "Always 1; the labels say which build this process runs.",
    );
    let _ = writeln!(
        out,
        "{name}{{version=\"{}\",process=\"{process}\"}} 1",
        env!("CARGO_PKG_VERSION")
    );
    let Some(p) = read_proc() else { return };
    let gauges: [(&str, &str, &str, f64); 6] = [
        (
            "process_cpu_seconds_total",
            "counter",
            "Total user and system CPU time spent in seconds.",
            p.cpu_secs,
        ),
        (
            "process_resident_memory_bytes",
            "gauge",
            "Resident memory size in bytes.",
            p.rss_bytes,
        ),
        (
            "process_virtual_memory_bytes",
            "gauge",
            "Virtual memory size in bytes.",
            p.vsize_bytes,
        ),
        (
            "process_open_fds",
            "gauge",
            "Number of open file descriptors.",
            p.open_fds,
        ),
        (
            "process_max_fds",
            "gauge",
            "Maximum number of open file descriptors.",
            p.max_fds,
        ),
        (
            "process_start_time_seconds",
            "gauge",
            "Start time of the process since unix epoch in seconds.",
            p.start_time,
        ),
    ];
    for (name, kind, help, v) in gauges {
        head(out, name, kind, help);
        let _ = writeln!(out, "{name} {v}");
    }
}

struct Proc {
    cpu_secs: f64,
    rss_bytes: f64,
    vsize_bytes: f64,
    open_fds: f64,
    max_fds: f64,
    start_time: f64,
}

/// Clock ticks per second and the page size: Linux's usual values (`getconf CLK_TCK` and
/// `PAGESIZE` on x86-64 and arm64), which saves a libc dependency.
const TICKS: f64 = 100.0;
const PAGE: f64 = 4096.0;

fn read_proc() -> Option<Proc> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name may hold spaces: the fields start after its closing parenthesis.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let num = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields counted from 3 (state) in proc(5): utime 14, stime 15, starttime 22, vsize 23,
    // rss 24.
    let boot = std::fs::read_to_string("/proc/stat")
        .ok()?
        .lines()
        .find_map(|l| {
            l.strip_prefix("btime ")
                .and_then(|v| v.trim().parse::<f64>().ok())
        })
        .unwrap_or(0.0);
    let open_fds = std::fs::read_dir("/proc/self/fd").ok()?.count() as f64;
    let max_fds = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Max open files"))
                .and_then(|l| l.split_whitespace().nth(3).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0.0);
    Some(Proc {
        cpu_secs: (num(11) + num(12)) / TICKS,
        start_time: boot + num(19) / TICKS,
        vsize_bytes: num(20),
        rss_bytes: num(21) * PAGE,
        open_fds,
        max_fds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_renders_cumulative_buckets() {
        let h = Histogram::default();
        h.observe(Duration::from_millis(3));
        h.observe(Duration::from_millis(40));
        h.observe(Duration::from_secs(1000));
        let mut out = String::new();
        h.render(&mut out, "x_seconds", "kind=\"a\"");
        assert!(out.contains("x_seconds_bucket{kind=\"a\",le=\"0.0025\"} 0\n"));
        assert!(out.contains("x_seconds_bucket{kind=\"a\",le=\"0.005\"} 1\n"));
        assert!(out.contains("x_seconds_bucket{kind=\"a\",le=\"0.05\"} 2\n"));
        assert!(out.contains("x_seconds_bucket{kind=\"a\",le=\"300\"} 2\n"));
        assert!(out.contains("x_seconds_bucket{kind=\"a\",le=\"+Inf\"} 3\n"));
        assert!(out.contains("x_seconds_count{kind=\"a\"} 3\n"));
        assert!(out.contains("x_seconds_sum{kind=\"a\"} 1000.043\n"));
    }

    #[test]
    fn slots_are_bounded() {
        let s: Slots<AtomicU64> = Slots::new(2);
        s.get(1, "a").fetch_add(1, Ordering::Relaxed);
        s.get(1, "a").fetch_add(1, Ordering::Relaxed);
        s.get(2, "a").fetch_add(1, Ordering::Relaxed);
        s.get(1, "b").fetch_add(1, Ordering::Relaxed);
        let e: Vec<(u8, &str, u64)> = s
            .entries()
            .into_iter()
            .map(|(t, k, v)| (t, k, v.load(Ordering::Relaxed)))
            .collect();
        assert_eq!(e, vec![(1, "a", 2), (2, "a", 1), (0, OVERFLOW, 1)]);
    }

    #[test]
    fn process_metrics_are_read() {
        let mut out = String::new();
        render_process(&mut out, "kyc", "api");
        assert!(out.contains("kyc_build_info{version="));
        if cfg!(target_os = "linux") {
            for m in [
                "process_cpu_seconds_total ",
                "process_resident_memory_bytes ",
                "process_open_fds ",
                "process_max_fds ",
                "process_start_time_seconds ",
            ] {
                assert!(out.contains(m), "{m} in {out}");
            }
            let rss: f64 = out
                .lines()
                .find_map(|l| l.strip_prefix("process_resident_memory_bytes "))
                .unwrap()
                .parse()
                .unwrap();
            assert!(rss > 1e6, "{rss}");
        }
    }
}
