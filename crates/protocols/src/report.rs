//! The per-phase table every protocol reports, and its stable JSON form
//! (documented in `docs/bench-json.md`).

use serde::{Deserialize, Serialize};

/// Names of the four phases, in order.
pub const PHASE_NAMES: [&str; 4] = ["setup", "independent", "dependent", "online"];

/// One row of the phase table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PhaseStats {
    /// `setup`, `independent`, `dependent` or `online`.
    pub name: String,
    /// Wall time: the slower party's time from the start to the end of the
    /// phase (start aligned by an untimed barrier).
    pub wall_ms: f64,
    /// Bytes Alice sent in the phase.
    pub bytes_alice_to_bob: u64,
    /// Bytes Bob sent in the phase.
    pub bytes_bob_to_alice: u64,
    /// Messages (flights) in the phase, both directions together.
    pub rounds: u64,
}

/// Online timing over the executions of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OnlineStats {
    /// Median single-execution time.
    pub latency_ms: f64,
    /// Online time per execution, amortised over all executions.
    pub throughput_ms: f64,
}

/// A whole run's report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Protocol name.
    pub protocol: String,
    /// Circuit name or path.
    pub circuit: String,
    /// Number of online executions.
    pub executions: usize,
    /// Network setting (`memory`, `loopback`, `lan`, `wan`, or `RTT_MS,MBIT`).
    pub net: String,
    /// One row per phase, in order.
    pub phases: Vec<PhaseStats>,
    /// Online latency and throughput.
    pub online: OnlineStats,
    /// AND gates of the circuit (for rates such as AND gates per second).
    #[serde(default)]
    pub and_gates: u64,
    /// Notes a reader of the numbers must see (e.g. "trusted dealer").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Report {
    /// The phase table as aligned text.
    pub fn table(&self) -> String {
        let mut s = format!(
            "protocol {}  circuit {}  executions {}  net {}\n",
            self.protocol, self.circuit, self.executions, self.net
        );
        for n in &self.notes {
            s += &format!("note: {n}\n");
        }
        s += &format!(
            "{:<12} {:>12} {:>14} {:>14} {:>7}\n",
            "phase", "wall ms", "bytes A->B", "bytes B->A", "rounds"
        );
        for p in &self.phases {
            s += &format!(
                "{:<12} {:>12.3} {:>14} {:>14} {:>7}\n",
                p.name, p.wall_ms, p.bytes_alice_to_bob, p.bytes_bob_to_alice, p.rounds
            );
        }
        s += &format!(
            "online latency {:.3} ms (median), throughput {:.3} ms/execution",
            self.online.latency_ms, self.online.throughput_ms
        );
        if self.and_gates > 0 && self.online.throughput_ms > 0.0 {
            let rate = self.and_gates as f64 / (self.online.throughput_ms * 1e3);
            s += &format!(" = {rate:.1} M AND/s");
        }
        s.push('\n');
        s
    }
}

/// Median of a non-empty list (0 for an empty one).
pub fn median(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    let m = s.len() / 2;
    if s.len() % 2 == 1 {
        s[m]
    } else {
        (s[m - 1] + s[m]) / 2.0
    }
}
