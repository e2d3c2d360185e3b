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
    /// The first execution's time. In a fresh process (what `brickyard
    /// run` does, and the bench's first run) it also pays for whatever
    /// steady state has already paid (first touch of material, cold code,
    /// lazy initialisation), so it is reported beside the median.
    #[serde(default)]
    pub first_ms: f64,
}

/// One sub-step of a phase as one party saw it (`brickyard_driver::steps`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepStats {
    /// The phase it belongs to (`setup`, `independent`, …).
    pub phase: String,
    /// `alice` or `bob`.
    pub party: String,
    /// Step name, as the protocol names it.
    pub name: String,
    /// That party's wall time in the step (waits for the peer included).
    pub wall_ms: f64,
    /// CPU time of that party's thread in the step (helper threads not
    /// counted; absent where the platform does not say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<f64>,
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
    /// Per-phase breakdown into the steps a protocol names (empty for
    /// protocols that name none); the online phase's are one execution's
    /// (medians over the latency runs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<StepStats>,
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
        if !self.steps.is_empty() {
            s += &format!(
                "steps (each party's view; wall includes waits for the peer, cpu is its thread's; online: one execution, medians):\n  {:<12} {:<6} {:<36} {:>9} {:>9}\n",
                "phase", "party", "step", "wall ms", "cpu ms"
            );
            for st in &self.steps {
                let cpu = st.cpu_ms.map_or("-".to_string(), |c| format!("{c:.3}"));
                s += &format!(
                    "  {:<12} {:<6} {:<36} {:>9.3} {:>9}\n",
                    st.phase, st.party, st.name, st.wall_ms, cpu
                );
            }
        }
        s += &format!(
            "online latency {} (median), first execution {}, throughput {}/execution",
            human_ms(self.online.latency_ms),
            human_ms(self.online.first_ms),
            human_ms(self.online.throughput_ms)
        );
        // A gate rate means something only for circuits big enough that
        // gates, not round trips, set the time.
        if self.and_gates >= MIN_GATES_FOR_RATE && self.online.throughput_ms > 0.0 {
            let rate = self.and_gates as f64 / (self.online.throughput_ms * 1e3);
            s += &format!(" = {rate:.1} M AND/s");
        }
        s.push('\n');
        s
    }
}

/// Below this many AND gates the table prints no AND-gate rate: the time
/// of a tiny circuit is round trips and overhead, and a rate like
/// "0.0 M AND/s" only misleads.
pub const MIN_GATES_FOR_RATE: u64 = 1000;

/// A duration given in milliseconds, in a unit that suits it (µs below a
/// millisecond, s above ten seconds).
pub fn human_ms(ms: f64) -> String {
    if ms < 1.0 {
        format!("{:.1} µs", ms * 1e3)
    } else if ms < 10_000.0 {
        format!("{ms:.3} ms")
    } else {
        format!("{:.2} s", ms / 1e3)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_line_units_and_no_rate_for_tiny_circuits() {
        assert_eq!(human_ms(0.0421), "42.1 µs");
        assert_eq!(human_ms(3.5), "3.500 ms");
        assert_eq!(human_ms(12_345.0), "12.35 s");
        let mut r = Report {
            and_gates: 31,
            online: OnlineStats {
                latency_ms: 0.05,
                throughput_ms: 0.04,
                first_ms: 0.07,
            },
            ..Default::default()
        };
        let t = r.table();
        assert!(t.contains("50.0 µs (median)"), "{t}");
        assert!(t.contains("first execution 70.0 µs"), "{t}");
        assert!(!t.contains("AND/s"), "{t}");
        r.and_gates = 6400;
        assert!(r.table().contains("M AND/s"));
    }
}
