//! What a reader needs to trust a report's numbers: which code (commit),
//! when, on what machine (CPU, cores, the SIMD paths the kernels take), how
//! busy the machine was, and the exact command.

use serde::Serialize;
use std::time::{SystemTime, UNIX_EPOCH};

/// The report's header facts.
#[derive(Clone, Debug, Serialize)]
pub struct Header {
    /// `git rev-parse HEAD` of the working directory, with ` (+ uncommitted
    /// changes)` when tracked files differ; `unknown` outside a checkout.
    pub commit: String,
    /// Start time, UTC (`YYYY-MM-DD HH:MM:SS UTC`).
    pub date: String,
    /// CPU model from `/proc/cpuinfo`.
    pub cpu: String,
    /// Logical cores this process may use.
    pub cores: usize,
    /// Total memory in GiB (`/proc/meminfo`).
    pub memory_gib: f64,
    /// The AES backend the kernels use (`vaes512`, `aesni`, `aes-crate`).
    pub aes_backend: &'static str,
    /// The SIMD features the kernels look for, as detected on this CPU.
    pub simd: Vec<(&'static str, bool)>,
    /// Optimised build or not (a debug build's numbers mean little).
    pub release_build: bool,
    /// `BRICKYARD_SPIN_US` (the read policy), `auto` when unset.
    pub spin: String,
    /// `/proc/loadavg` (1, 5, 15 min) when the report started.
    pub load_start: [f64; 3],
    /// The same when it ended.
    pub load_end: [f64; 3],
    /// Wall time of the whole report, seconds.
    pub duration_s: f64,
    /// The command line, shell-quoted.
    pub command: String,
}

impl Header {
    /// The facts at the start (the end-of-run fields are filled by
    /// [`Header::finish`]).
    pub fn start() -> Header {
        Header {
            commit: commit(),
            date: utc_now(),
            cpu: cpu_model(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory_gib: mem_total_gib(),
            aes_backend: brickyard_core::aes::backend_name(),
            simd: simd_features(),
            release_build: !cfg!(debug_assertions),
            spin: std::env::var(crate::localnet::SPIN_ENV).unwrap_or_else(|_| "auto".into()),
            load_start: load_avg(),
            load_end: [0.0; 3],
            duration_s: 0.0,
            command: command_line(),
        }
    }

    /// Records the load and the duration at the end.
    pub fn finish(&mut self, started: std::time::Instant) {
        self.load_end = load_avg();
        self.duration_s = started.elapsed().as_secs_f64();
    }

    /// `avx2 pclmulqdq … (not: avx512f …)`.
    pub fn simd_text(&self) -> String {
        let on: Vec<&str> = self.simd.iter().filter(|s| s.1).map(|s| s.0).collect();
        let off: Vec<&str> = self.simd.iter().filter(|s| !s.1).map(|s| s.0).collect();
        let mut t = if on.is_empty() {
            "none".to_string()
        } else {
            on.join(" ")
        };
        if !off.is_empty() {
            t += &format!(" (not available: {})", off.join(" "));
        }
        t
    }
}

fn commit() -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "HEAD"]) {
        Some(h) if !h.is_empty() => match git(&["status", "--porcelain", "--untracked-files=no"]) {
            Some(s) if s.is_empty() => h,
            Some(_) => format!("{h} (+ uncommitted changes)"),
            None => format!("{h} (status unknown)"),
        },
        _ => "unknown (not run in a git checkout)".into(),
    }
}

/// Days since 1970-01-01 to a civil date (proleptic Gregorian).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A UNIX time in seconds as `YYYY-MM-DD HH:MM:SS UTC`.
pub fn format_utc(secs: i64) -> String {
    let (y, m, d) = civil(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        s / 3600,
        s % 3600 / 60,
        s % 60
    )
}

fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    format_utc(secs)
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| format!("unknown ({})", std::env::consts::ARCH))
}

fn mem_total_gib() -> f64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            let l = t.lines().find(|l| l.starts_with("MemTotal:"))?;
            l.split_whitespace().nth(1)?.parse::<f64>().ok()
        })
        .map_or(0.0, |kb| kb / (1024.0 * 1024.0))
}

/// The 1, 5 and 15 minute load averages (zeros where unknown).
pub fn load_avg() -> [f64; 3] {
    let t = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    parse_load(&t)
}

fn parse_load(t: &str) -> [f64; 3] {
    let mut v = [0.0; 3];
    for (o, w) in v.iter_mut().zip(t.split_whitespace()) {
        *o = w.parse().unwrap_or(0.0);
    }
    v
}

/// The CPU features the kernels in `brickyard-core` dispatch on.
fn simd_features() -> Vec<(&'static str, bool)> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        vec![
            ("aes", has!("aes")),
            ("pclmulqdq", has!("pclmulqdq")),
            ("avx2", has!("avx2")),
            ("vaes", has!("vaes")),
            ("vpclmulqdq", has!("vpclmulqdq")),
            ("avx512f", has!("avx512f")),
            ("gfni", has!("gfni")),
        ]
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

/// The process's arguments as one shell-pasteable line (program name as
/// `brickyard`).
fn command_line() -> String {
    let mut parts = vec!["brickyard".to_string()];
    parts.extend(std::env::args().skip(1).map(|a| shell_quote(&a)));
    parts.join(" ")
}

/// `a` quoted for a POSIX shell when it needs it.
pub fn shell_quote(a: &str) -> String {
    let plain = !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:,=+@".contains(c));
    if plain {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_quotes_and_load() {
        assert_eq!(format_utc(0), "1970-01-01 00:00:00 UTC");
        // 2024-02-29 12:34:56 UTC (a leap day).
        assert_eq!(format_utc(1_709_210_096), "2024-02-29 12:34:56 UTC");
        assert_eq!(format_utc(1_798_761_599), "2026-12-31 23:59:59 UTC");
        assert_eq!(shell_quote("--out"), "--out");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(parse_load("0.50 1.25 2.00 3/400 1234\n"), [0.5, 1.25, 2.0]);
    }
}
