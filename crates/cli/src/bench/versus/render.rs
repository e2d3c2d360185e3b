//! The comparison as a text table, a Markdown table for
//! `docs/choosing.md`, or JSON (`docs/bench-json.md`), and the progress
//! line on stderr.

use super::{Cell, PeerRow, RoundFig, Row, COLUMNS};
use serde_json::{json, Value};
use std::io::IsTerminal;

/// Everything printed.
pub(crate) struct Report<'a> {
    pub circuit: &'a str,
    pub and_gates: usize,
    pub executions: usize,
    pub rounds: usize,
    pub rows: &'a [Row],
    pub peer: Option<&'a PeerRow>,
    /// Protocol order of each round.
    pub orders: &'a [Vec<String>],
    /// `/proc/loadavg` before the first run and after the last.
    pub load: [Option<[f64; 3]>; 2],
}

/// Three significant digits, as the issue's table prints times.
pub(crate) fn sig3(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let mag = x.abs().log10().floor() as i32;
    let decimals = (2 - mag).max(0) as usize;
    format!("{x:.decimals$}")
}

/// Bytes in decimal units (1 KB = 1000 B), three significant digits.
pub(crate) fn bytes(b: f64) -> String {
    let (v, unit) = match b {
        b if b >= 1e9 => (b / 1e9, "GB"),
        b if b >= 1e6 => (b / 1e6, "MB"),
        b if b >= 1e3 => (b / 1e3, "KB"),
        b => return format!("{} B", b.round()),
    };
    format!("{} {unit}", sig3(v))
}

fn cell(c: &Option<Cell>) -> String {
    match c {
        None => "—".into(),
        Some(Cell {
            ms, bytes: Some(b), ..
        }) => format!("{} ({})", sig3(*ms), bytes(*b)),
        Some(Cell { ms, .. }) => sig3(*ms),
    }
}

/// Ours / peer for one column: time, and bytes where both have them.
fn ratio(ours: &Option<Cell>, peer: &Option<Cell>) -> Option<(f64, Option<f64>)> {
    let (o, p) = (ours.as_ref()?, peer.as_ref()?);
    if p.ms <= 0.0 {
        return None;
    }
    let b = match (o.bytes, p.bytes) {
        (Some(x), Some(y)) if y > 0.0 => Some(x / y),
        _ => None,
    };
    Some((o.ms / p.ms, b))
}

fn times(x: f64) -> String {
    format!("{}×", sig3(x))
}

fn ratio_text(r: Option<(f64, Option<f64>)>) -> String {
    match r {
        None => "—".into(),
        Some((t, Some(b))) => format!("{} ({})", times(t), times(b)),
        Some((t, None)) => times(t),
    }
}

impl Report<'_> {
    /// The columns a table shows: the issue's five, and the first
    /// execution when it differs from the online column (E > 1).
    fn shown(&self) -> usize {
        if self.executions > 1 {
            6
        } else {
            5
        }
    }

    fn load_text(&self) -> String {
        match self.load {
            [Some(a), Some(b)] => format!(
                "load average {:.2} at the start, {:.2} at the end",
                a[0], b[0]
            ),
            _ => "load average unknown".into(),
        }
    }

    fn headline(&self) -> String {
        let per = if self.executions > 1 {
            format!(
                "{} executions per run, figures per execution (phase ÷ {}; first: the first execution alone)",
                self.executions, self.executions
            )
        } else {
            "1 execution per run".into()
        };
        format!(
            "{} ({} AND gates), output to Bob; {per}; medians of {} alternating round(s), each party a fresh `brickyard run` process over loopback; {}",
            self.circuit,
            self.and_gates,
            self.rounds,
            self.load_text()
        )
    }

    /// The aligned text table, with a ratio line under each of our rows
    /// when a peer is given.
    pub fn text(&self) -> String {
        let n = self.shown();
        let mut lines: Vec<Vec<String>> = Vec::new();
        let mut head = vec!["ms (bytes)".to_string()];
        head.extend(COLUMNS[..n].iter().map(|c| c.to_string()));
        lines.push(head);
        if let Some(p) = self.peer {
            let mut l = vec![format!("{} (peer)", p.name)];
            l.extend(p.cells[..n].iter().map(cell));
            lines.push(l);
        }
        for r in self.rows {
            let mut l = vec![r.label.clone()];
            l.extend(r.cells[..n].iter().map(cell));
            lines.push(l);
            if let Some(p) = self.peer {
                let mut l = vec!["  ours / peer".to_string()];
                l.extend((0..n).map(|i| ratio_text(ratio(&r.cells[i], &p.cells[i]))));
                lines.push(l);
            }
        }
        let widths: Vec<usize> = (0..=n)
            .map(|c| {
                lines
                    .iter()
                    .map(|l| l[c].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut s = format!("bench versus: {}\n", self.headline());
        for l in &lines {
            for (c, v) in l.iter().enumerate() {
                let pad = widths[c] - v.chars().count();
                if c == 0 {
                    s += &format!("{v}{}", " ".repeat(pad));
                } else {
                    s += &format!("  {}{v}", " ".repeat(pad));
                }
            }
            s.push('\n');
        }
        if let Some(src) = self.peer.and_then(|p| p.source.as_ref()) {
            s += &format!("peer: {src}\n");
        }
        s += "—: no traffic in that phase (see docs/choosing.md for what each column holds per protocol)\n";
        s
    }

    /// Markdown for `docs/choosing.md`: the peer's row (bold) first, ours
    /// below; with a peer, a second table of ratios ours / peer.
    pub fn markdown(&self) -> String {
        let n = self.shown();
        let head = if self.executions > 1 {
            format!("ms (bytes) per execution, E = {}", self.executions)
        } else {
            "ms (bytes)".into()
        };
        let rule = format!("|{}\n", "---|".repeat(n + 1));
        let mut s = format!("| {head} | {} |\n{rule}", COLUMNS[..n].join(" | "));
        if let Some(p) = self.peer {
            let cells: Vec<String> = p.cells[..n].iter().map(cell).collect();
            s += &format!("| **{} (the peer)** | {} |\n", p.name, cells.join(" | "));
        }
        for r in self.rows {
            let cells: Vec<String> = r.cells[..n].iter().map(cell).collect();
            s += &format!("| {} | {} |\n", md_label(r), cells.join(" | "));
        }
        if let Some(p) = self.peer {
            s += &format!(
                "\n| ours / {} | {} |\n{rule}",
                p.name,
                COLUMNS[..n].join(" | ")
            );
            for r in self.rows {
                let cells: Vec<String> = (0..n)
                    .map(|i| ratio_text(ratio(&r.cells[i], &p.cells[i])))
                    .collect();
                s += &format!("| {} | {} |\n", md_label(r), cells.join(" | "));
            }
        }
        s += &format!(
            "\n{}. Reproduce: `brickyard bench versus --protocols {} --circuit {} --rounds {}{} --markdown`.\n",
            self.headline(),
            self.rows
                .iter()
                .map(|r| r.protocol.as_str())
                .collect::<Vec<_>>()
                .join(","),
            self.circuit,
            self.rounds,
            if self.executions > 1 {
                format!(" --executions {}", self.executions)
            } else {
                String::new()
            }
        );
        s
    }

    /// The JSON document (`docs/bench-json.md`).
    pub fn json(&self) -> Value {
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|r| {
                let mut v = json!({
                    "protocol": r.protocol,
                    "label": r.label,
                    "security": r.security,
                    "semi_honest": r.security.starts_with("semi-honest"),
                    "columns": columns_json(&r.cells),
                    "latency_ms": r.latency_ms,
                    "rounds": r.rounds.iter().map(round_json).collect::<Vec<_>>(),
                });
                if let Some(p) = self.peer {
                    let ratios: serde_json::Map<String, Value> = COLUMNS
                        .iter()
                        .enumerate()
                        .map(|(i, c)| {
                            let x = ratio(&r.cells[i], &p.cells[i])
                                .map(|(t, b)| json!({"ms": t, "bytes": b}));
                            (c.to_string(), x.unwrap_or(Value::Null))
                        })
                        .collect();
                    v["ratio_to_peer"] = Value::Object(ratios);
                }
                v
            })
            .collect();
        json!({
            "circuit": self.circuit,
            "and_gates": self.and_gates,
            "executions": self.executions,
            "rounds": self.rounds,
            "order": self.orders,
            "load_start": self.load[0],
            "load_end": self.load[1],
            "protocols": rows,
            "peer": self.peer.map(|p| json!({
                "name": p.name,
                "source": p.source,
                "columns": columns_json(&p.cells),
            })),
        })
    }
}

fn md_label(r: &Row) -> String {
    match r.label.strip_prefix(r.protocol.as_str()) {
        Some(rest) => format!("`{}`{rest}", r.protocol),
        None => r.label.clone(),
    }
}

fn columns_json(cells: &[Option<Cell>; 6]) -> Value {
    let m: serde_json::Map<String, Value> = COLUMNS
        .iter()
        .zip(cells)
        .map(|(c, x)| {
            let v = match x {
                None => Value::Null,
                Some(x) => {
                    let mut v = json!({"ms": x.ms, "bytes": x.bytes});
                    if let Some((a, b)) = x.split {
                        v["bytes_alice_to_bob"] = json!(a);
                        v["bytes_bob_to_alice"] = json!(b);
                    }
                    v
                }
            };
            (c.to_string(), v)
        })
        .collect();
    Value::Object(m)
}

fn round_json(r: &RoundFig) -> Value {
    json!({
        "phases": r.phases.iter().zip(brickyard_protocols::report::PHASE_NAMES).map(|(p, n)| json!({
            "name": n, "wall_ms": p.wall_ms, "bytes_alice_to_bob": p.a2b, "bytes_bob_to_alice": p.b2a,
        })).collect::<Vec<_>>(),
        "first_ms": r.first_ms,
        "latency_ms": r.latency_ms,
    })
}

/// One line on stderr per run: rewritten in place on a terminal, one line
/// each otherwise (logs).
pub(crate) struct Progress {
    total: usize,
    done: usize,
    tty: bool,
    line: String,
}

impl Progress {
    pub fn new(total: usize) -> Progress {
        Progress {
            total,
            done: 0,
            tty: std::io::stderr().is_terminal(),
            line: String::new(),
        }
    }

    pub fn start(&mut self, round: usize, rounds: usize, protocol: &str) {
        self.line = format!(
            "bench versus: run {}/{} (round {}/{rounds}): {protocol}",
            self.done + 1,
            self.total,
            round + 1
        );
        if self.tty {
            eprint!("\r\x1b[K{} …", self.line);
        }
    }

    pub fn done(&mut self, fig: &RoundFig) {
        self.done += 1;
        let total: f64 = fig.phases.iter().map(|p| p.wall_ms).sum();
        let msg = format!("{}: {} ms all phases", self.line, sig3(total));
        if self.tty {
            eprint!("\r\x1b[K{msg}");
        } else {
            eprintln!("{msg}");
        }
    }

    pub fn finish(&self) {
        if self.tty {
            eprintln!();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_print_like_the_issue() {
        assert_eq!(sig3(35.8), "35.8");
        assert_eq!(sig3(9.951), "9.95");
        assert_eq!(sig3(0.8951), "0.895");
        assert_eq!(sig3(131.2), "131");
        assert_eq!(sig3(1234.0), "1234");
        assert_eq!(bytes(3_500_000.0), "3.50 MB");
        assert_eq!(bytes(542_000.0), "542 KB");
        assert_eq!(bytes(4_990.0), "4.99 KB");
        assert_eq!(bytes(999.0), "999 B");
        assert_eq!(times(2.5), "2.50×");
        assert_eq!(times(12.34), "12.3×");
        assert_eq!(times(0.01234), "0.0123×");
    }

    #[test]
    fn ratios_need_both_cells() {
        let c = |ms, b| {
            Some(Cell {
                ms,
                bytes: b,
                split: None,
            })
        };
        assert_eq!(ratio(&c(60.0, None), &c(30.0, None)), Some((2.0, None)));
        assert_eq!(
            ratio(&c(60.0, Some(10.0)), &c(30.0, Some(5.0))),
            Some((2.0, Some(2.0)))
        );
        assert_eq!(ratio(&None, &c(30.0, None)), None);
        assert_eq!(ratio(&c(1.0, None), &None), None);
        assert_eq!(ratio(&c(1.0, None), &c(0.0, None)), None);
    }
}
