//! The two `brickyard run` processes of one run: Alice listens on a port
//! the OS picks, Bob connects to the address she prints; both print
//! `--json`. A run that outlives its budget has both processes killed; a
//! process that fails is a typed error carrying its kind, exit code and
//! the end of its stderr.

use crate::error::{exit, CliError};
use brickyard_core::Error;
use brickyard_protocols::RunConfig;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What every run of one command shares.
pub(crate) struct Spec<'a> {
    /// This binary.
    pub exe: &'a Path,
    pub circuit: &'a str,
    pub executions: usize,
    /// Budget of a run (both processes); also their `--timeout`.
    pub timeout: Duration,
}

/// One process's `run --json`, the parts the table needs.
#[derive(Clone, Debug, Default)]
pub(crate) struct PartyView {
    /// Per phase: wall ms, bytes sent, bytes received.
    pub phases: [(f64, u64, u64); 4],
    /// Each barrier-separated execution's wall time.
    pub execution_ms: Vec<f64>,
    /// Outputs per execution, one string per group (`--format bits`).
    pub outputs: Vec<Vec<String>>,
}

/// How long a process that is still running may take to end after its
/// peer failed (it should stop at once on the abort frame).
const GRACE: Duration = Duration::from_secs(10);
/// Lines of a failed process's stderr kept in the error.
const STDERR_LINES: usize = 20;

/// A running child and the threads draining its pipes.
struct Running {
    role: &'static str,
    child: Child,
    stdout: Option<JoinHandle<String>>,
    stderr: Arc<Mutex<Vec<String>>>,
    stderr_thread: Option<JoinHandle<()>>,
    status: Option<ExitStatus>,
}

impl Running {
    fn spawn(
        spec: &Spec,
        protocol: &str,
        role: &'static str,
        peer: [&str; 2],
        input: &str,
        listening: Option<mpsc::Sender<String>>,
    ) -> Result<Running, CliError> {
        let secs = spec.timeout.as_secs().max(1).to_string();
        let mut child = Command::new(spec.exe)
            .args(["run", "--role", role, peer[0], peer[1]])
            .args(["--protocol", protocol, "--circuit", spec.circuit])
            .args(["--executions", &spec.executions.to_string()])
            .args(["--output", "bob", "--format", "bits", "--input", "-"])
            .args(["--timeout", &secs, "--connect-timeout", "60", "--json"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| CliError::Io {
                path: spec.exe.display().to_string(),
                source,
            })?;
        // The child reads all of stdin before anything else; a child that
        // exits first makes this fail, and its exit status says why.
        if let Some(mut sin) = child.stdin.take() {
            let _ = sin.write_all(input.as_bytes());
        }
        let mut out = child.stdout.take();
        let stdout = Some(std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(o) = out.as_mut() {
                let _ = o.read_to_string(&mut s);
            }
            s
        }));
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let lines = stderr.clone();
        let err = child.stderr.take();
        let stderr_thread = Some(std::thread::spawn(move || {
            let Some(err) = err else { return };
            for line in BufReader::new(err).lines() {
                let Ok(line) = line else { break };
                if let (Some(tx), Some((_, addr))) = (&listening, line.split_once("listening on "))
                {
                    let _ = tx.send(addr.trim().to_string());
                }
                if let Ok(mut l) = lines.lock() {
                    l.push(line);
                }
            }
        }));
        Ok(Running {
            role,
            child,
            stdout,
            stderr,
            stderr_thread,
            status: None,
        })
    }

    /// Polls for the exit; true once it has exited.
    fn poll(&mut self) -> Result<bool, CliError> {
        if self.status.is_none() {
            self.status = self.child.try_wait().map_err(Error::Io)?;
        }
        Ok(self.status.is_some())
    }

    fn kill(&mut self) {
        if self.status.is_none() {
            let _ = self.child.kill();
            self.status = self.child.wait().ok();
        }
    }

    /// Waits for the pipes to drain (the process has exited).
    fn collect(&mut self) -> (String, String) {
        let out = self
            .stdout
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_default();
        if let Some(h) = self.stderr_thread.take() {
            let _ = h.join();
        }
        let lines = self.stderr.lock().map(|l| l.clone()).unwrap_or_default();
        let tail = lines[lines.len().saturating_sub(STDERR_LINES)..].join("\n");
        (out, tail)
    }

    fn failed(&self) -> bool {
        self.status.is_some_and(|s| !s.success())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The kind names the CLI prints (`docs/cli.md`), as static strings.
const KINDS: [&str; 12] = [
    "internal",
    "usage",
    "config",
    "cheating",
    "io",
    "timeout",
    "disconnected",
    "exhausted",
    "storage",
    "malformed",
    "peer-aborted",
    "authentication",
];

/// The typed error of a failed process: its JSON error (kind, message)
/// and exit code, with the end of its stderr.
fn failure(protocol: &str, r: &Running, stdout: &str, stderr: &str) -> CliError {
    let code = r
        .status
        .and_then(|s| s.code())
        .and_then(|c| u8::try_from(c).ok())
        .filter(|c| (1..=9).contains(c))
        .unwrap_or(exit::INTERNAL);
    let err: Option<Value> = stdout
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str::<Value>(l).ok())
        .and_then(|v| v.get("error").cloned());
    let kind_of = |k: &str| KINDS.iter().find(|x| **x == k).copied();
    let kind = err
        .as_ref()
        .and_then(|e| e["kind"].as_str())
        .and_then(kind_of)
        .unwrap_or("internal");
    let msg = err
        .as_ref()
        .and_then(|e| e["message"].as_str().map(str::to_string))
        .unwrap_or_else(|| match r.status {
            Some(s) => format!("exited with {s}"),
            None => "did not exit".into(),
        });
    CliError::Child {
        kind,
        code,
        message: format!(
            "bench versus: {protocol}: `brickyard run --role {}` failed (exit {code}, {kind}): {msg}\n--- its stderr (last lines) ---\n{stderr}",
            r.role
        ),
    }
}

/// Runs one protocol once as two processes and returns Alice's and Bob's
/// views.
pub(crate) fn run_pair(
    spec: &Spec,
    protocol: &str,
    alice_input: &str,
    bob_input: &str,
) -> Result<(PartyView, PartyView), CliError> {
    let deadline = Instant::now() + spec.timeout;
    let (tx, rx) = mpsc::channel();
    let mut alice = Running::spawn(
        spec,
        protocol,
        "alice",
        ["--listen", "127.0.0.1:0"],
        alice_input,
        Some(tx),
    )?;
    let addr = match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(a) => a,
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            // Her stderr closed without the address: she has exited.
            alice.status = alice.child.wait().ok();
            let (out, err) = alice.collect();
            return Err(failure(protocol, &alice, &out, &err));
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            alice.kill();
            return Err(timeout(spec, protocol, &mut [alice]));
        }
    };
    let bob = Running::spawn(spec, protocol, "bob", ["--connect", &addr], bob_input, None)?;
    let mut both = [alice, bob];
    let mut grace: Option<Instant> = None;
    loop {
        let mut done = true;
        for r in both.iter_mut() {
            done &= r.poll()?;
        }
        if done {
            break;
        }
        let now = Instant::now();
        if both.iter().any(Running::failed) && grace.is_none() {
            grace = Some(now + GRACE);
        }
        if now >= deadline || grace.is_some_and(|g| now >= g) {
            for r in both.iter_mut() {
                r.kill();
            }
            if grace.is_none() {
                return Err(timeout(spec, protocol, &mut both));
            }
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let [mut alice, mut bob] = both;
    let (a_out, a_err) = alice.collect();
    let (b_out, b_err) = bob.collect();
    if alice.failed() || bob.failed() {
        // The one that failed first says why; the other usually reports
        // only that its peer aborted.
        let peer_aborted =
            |r: &Running| r.status.and_then(|s| s.code()) == Some(i32::from(exit::PEER_ABORTED));
        let a_first = alice.failed() && (!peer_aborted(&alice) || !bob.failed());
        return Err(if a_first {
            failure(protocol, &alice, &a_out, &a_err)
        } else {
            failure(protocol, &bob, &b_out, &b_err)
        });
    }
    Ok((
        parse_view(protocol, "alice", &a_out)?,
        parse_view(protocol, "bob", &b_out)?,
    ))
}

fn timeout(spec: &Spec, protocol: &str, rs: &mut [Running]) -> CliError {
    let tails: Vec<String> = rs
        .iter_mut()
        .map(|r| {
            let (_, err) = r.collect();
            format!("--- {} stderr (last lines) ---\n{err}", r.role)
        })
        .collect();
    Error::Timeout(format!(
        "bench versus: {protocol}: the run did not finish within {} s (--child-timeout); its processes were killed\n{}",
        spec.timeout.as_secs(),
        tails.join("\n")
    ))
    .into()
}

/// Reads one process's `run --json` line.
pub(crate) fn parse_view(protocol: &str, role: &str, stdout: &str) -> Result<PartyView, CliError> {
    let bad = |what: &str| -> CliError {
        Error::Malformed(format!(
            "bench versus: {protocol}: {role}'s `run --json` output {what}"
        ))
        .into()
    };
    let v: Value = stdout
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .ok_or_else(|| bad("is not JSON"))?;
    let phases = v["phases"]
        .as_array()
        .filter(|p| p.len() == 4)
        .ok_or_else(|| bad("lacks the four phases"))?;
    let mut view = PartyView::default();
    for (i, p) in phases.iter().enumerate() {
        let name = brickyard_protocols::report::PHASE_NAMES[i];
        if p["name"].as_str() != Some(name) {
            return Err(bad(&format!("has no phase `{name}` at position {i}")));
        }
        view.phases[i] = (
            p["wall_ms"]
                .as_f64()
                .ok_or_else(|| bad("lacks a phase's wall_ms"))?,
            p["bytes_sent"]
                .as_u64()
                .ok_or_else(|| bad("lacks a phase's bytes_sent"))?,
            p["bytes_received"]
                .as_u64()
                .ok_or_else(|| bad("lacks a phase's bytes_received"))?,
        );
    }
    view.execution_ms = v["online"]["execution_ms"]
        .as_array()
        .ok_or_else(|| bad("lacks online.execution_ms"))?
        .iter()
        .map(|x| {
            x.as_f64()
                .ok_or_else(|| bad("has a non-number execution time"))
        })
        .collect::<Result<_, _>>()?;
    view.outputs = v["outputs"]
        .as_array()
        .ok_or_else(|| bad("lacks outputs"))?
        .iter()
        .map(|e| {
            e.as_array()
                .ok_or_else(|| bad("has an execution's outputs that are not a list"))?
                .iter()
                .map(|g| {
                    g.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| bad("has a non-string output"))
                })
                .collect()
        })
        .collect::<Result<_, _>>()?;
    Ok(view)
}

impl PartyView {
    /// The outputs as bits, one vector per group per execution.
    pub(crate) fn outputs_bits(&self, cfg: &RunConfig) -> Result<Vec<Vec<Vec<bool>>>, CliError> {
        let groups = &cfg.circuit.outputs;
        self.outputs
            .iter()
            .map(|e| {
                if e.len() != groups.len() {
                    return Err(Error::Malformed(format!(
                        "bench versus: Bob printed {} output group(s), the circuit has {}",
                        e.len(),
                        groups.len()
                    ))
                    .into());
                }
                e.iter()
                    .zip(groups)
                    .map(|(s, g)| {
                        brickyard_circuit::parse_value(s, g.width()).map_err(|err| {
                            CliError::from(Error::Malformed(format!(
                                "bench versus: Bob's output `{s}`: {err}"
                            )))
                        })
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_json_line_is_read_and_a_broken_one_is_malformed() {
        let line = r#"{"role":"bob","outputs":[["b01"]],"phases":[
            {"name":"setup","wall_ms":1.5,"bytes_sent":10,"bytes_received":20,"flights_sent":1},
            {"name":"independent","wall_ms":2.5,"bytes_sent":30,"bytes_received":40,"flights_sent":1},
            {"name":"dependent","wall_ms":0.0,"bytes_sent":0,"bytes_received":0,"flights_sent":0},
            {"name":"online","wall_ms":0.5,"bytes_sent":5,"bytes_received":6,"flights_sent":1}],
            "online":{"latency_ms":0.4,"first_ms":0.4,"execution_ms":[0.4]},"steps":[]}"#
            .replace('\n', "");
        let v = parse_view("yao", "bob", &format!("noise\n{line}\n")).unwrap();
        assert_eq!(v.phases[1], (2.5, 30, 40));
        assert_eq!(v.execution_ms, vec![0.4]);
        assert_eq!(v.outputs, vec![vec!["b01".to_string()]]);
        let broken = line.replace("\"execution_ms\":[0.4]", "\"execution_ms\":\"x\"");
        let e = parse_view("yao", "bob", &broken).unwrap_err();
        assert_eq!(e.exit_code(), exit::MALFORMED, "{e}");
        let e = parse_view("yao", "bob", "not json").unwrap_err();
        assert_eq!(e.kind(), "malformed");
    }
}
