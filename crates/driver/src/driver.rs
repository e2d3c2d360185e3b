//! Runs a protocol through its four phases and records the phase table.
//!
//! Each party runs [`run_party`] on its own channel; in one process
//! [`run_local`] runs both in two threads and merges their views. Phases are
//! separated by a one-byte barrier that is excluded from the statistics, so
//! a phase's wall time is not inflated by the peer still finishing the
//! previous one.
//!
//! **Online: latency and throughput.** For a protocol whose parties say
//! they can be pipelined ([`Party::pipelines`], so far `yao`) and E ≥ 2
//! executions, the first ⌈E/2⌉ executions are separated by barriers and
//! give the latency column (median single execution), and the remaining
//! ones run back to back with no barrier between them, each party starting
//! execution i+1 as soon as its own part of execution i is done; their
//! total wall time divided by their count is the throughput column. For
//! the other protocols (and E = 1) every execution is barrier-separated and
//! the throughput column is the mean single-execution time, as before; the
//! report's notes say which one a table shows.

use crate::party::{Outputs, Party, PartyInputs, Role};
use crate::report::{median, OnlineStats, PhaseStats, Report, StepStats, PHASE_NAMES};
use crate::steps::{self, Step};
use crate::RunConfig;
use brickyard_core::channel::Abort;
use brickyard_core::{Channel, ChannelStats, Error, Result};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Which phases a run performs: a preprocessing run stops before online, an
/// online run from a store skips what the store already holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseSet {
    /// Run setup, independent and dependent preprocessing (the dependent
    /// phase runs with the online executions instead when the party says
    /// [`Party::dependent_in_online_run`]).
    pub preprocess: bool,
    /// Run the online executions.
    pub online: bool,
}

impl PhaseSet {
    /// Every phase.
    pub const ALL: PhaseSet = PhaseSet {
        preprocess: true,
        online: true,
    };
}

/// One party's measurements of one phase.
#[derive(Clone, Debug, Default)]
pub struct LocalPhase {
    /// Wall time in milliseconds.
    pub wall_ms: f64,
    /// Traffic on this party's channel.
    pub traffic: ChannelStats,
}

/// One party's view of a run.
#[derive(Clone, Debug, Default)]
pub struct PartyRun {
    /// The four phases, in order (zeros for phases not run).
    pub phases: [LocalPhase; 4],
    /// Wall time of each online execution.
    pub execution_ms: Vec<f64>,
    /// Outputs of each execution, if this party learns them.
    pub outputs: Vec<Option<Outputs>>,
    /// Executions run back to back without barriers, and their total wall
    /// time in milliseconds (see the module docs); `(0, 0.0)` if none.
    pub pipelined: (usize, f64),
    /// Steps the party named in each preprocessing phase (phase index,
    /// step), and in the online phase the median of each step over the
    /// latency runs (one execution's), see [`crate::steps`].
    pub steps: Vec<(usize, Step)>,
}

const BARRIER_TAG: u8 = 0xB7;

pub(crate) fn barrier(ch: &mut Channel, role: Role, phase: u8) -> Result<()> {
    let mut got = [0u8; 2];
    let tag = [BARRIER_TAG, phase];
    match role {
        Role::Alice => {
            ch.send_bytes(&tag)?;
            ch.recv_bytes(&mut got)?;
        }
        Role::Bob => {
            ch.recv_bytes(&mut got)?;
            ch.send_bytes(&tag)?;
        }
    }
    ch.end_flight()?;
    if got != tag {
        return Err(Error::malformed(format!(
            "peer is out of step: expected phase barrier {phase}, got bytes {got:?}"
        )));
    }
    Ok(())
}

fn timed<T>(
    ch: &mut Channel,
    f: impl FnOnce(&mut Channel) -> Result<T>,
) -> Result<(T, LocalPhase)> {
    let before = ch.stats();
    let start = Instant::now();
    let out = f(ch)?;
    ch.end_flight()?;
    let wall_ms = start.elapsed().as_secs_f64() * 1e3;
    Ok((
        out,
        LocalPhase {
            wall_ms,
            traffic: ch.stats().since(&before),
        },
    ))
}

/// What each party says about its run before any cryptography: the
/// driver exchanges these and compares them field by field, so a mismatch
/// names the setting that differs. Everything here is public (the circuit
/// travels as a digest).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Agreement {
    /// Format of this message; a peer speaking another format is refused.
    version: u32,
    role: Role,
    protocol: String,
    circuit: [u8; 32],
    alice_groups: Vec<u64>,
    bob_groups: Vec<u64>,
    executions: u64,
    output: crate::OutputMode,
    store_session: Option<String>,
    /// The protocol's security parameters ([`Party::security_parameters`]).
    security: std::collections::BTreeMap<String, String>,
}

const AGREEMENT_VERSION: u32 = 3;

impl Agreement {
    fn new(
        cfg: &RunConfig,
        protocol: &str,
        role: Role,
        security: std::collections::BTreeMap<String, String>,
    ) -> Agreement {
        let groups = |g: &[usize]| g.iter().map(|&x| x as u64).collect();
        Agreement {
            version: AGREEMENT_VERSION,
            role,
            protocol: protocol.to_string(),
            circuit: cfg.circuit_digest(),
            alice_groups: groups(&cfg.alice_groups),
            bob_groups: groups(&cfg.bob_groups),
            executions: cfg.executions as u64,
            output: cfg.output,
            store_session: cfg.store_session.clone(),
            security,
        }
    }

    /// Every setting that differs between `self` (ours) and `peer`, with
    /// both values, for the error message.
    fn differences(&self, peer: &Agreement) -> Vec<String> {
        let short = |s: &str| s.chars().take(40).collect::<String>();
        let hex = |d: &[u8; 32]| {
            d[..6]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        };
        let groups = |a: &[u64], b: &[u64]| {
            let l = |v: &[u64]| {
                v.iter()
                    .take(16)
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            };
            format!("alice [{}] bob [{}]", l(a), l(b))
        };
        let session = |s: &Option<String>| match s {
            Some(s) => short(s),
            None => "none (preprocessing now)".to_string(),
        };
        let mut d = Vec::new();
        if self.protocol != peer.protocol {
            d.push(format!(
                "protocol: this side {}, peer {}",
                self.protocol,
                short(&peer.protocol)
            ));
        }
        if self.circuit != peer.circuit {
            d.push(format!(
                "circuit: digest {}… here, {}… at the peer",
                hex(&self.circuit),
                hex(&peer.circuit)
            ));
        }
        if self.alice_groups != peer.alice_groups || self.bob_groups != peer.bob_groups {
            d.push(format!(
                "input ownership: this side {}, peer {}",
                groups(&self.alice_groups, &self.bob_groups),
                groups(&peer.alice_groups, &peer.bob_groups)
            ));
        }
        if self.executions != peer.executions {
            d.push(format!(
                "executions: this side {}, peer {}",
                self.executions, peer.executions
            ));
        }
        if self.output != peer.output {
            d.push(
                format!(
                    "output: this side {:?}, peer {:?}",
                    self.output, peer.output
                )
                .to_lowercase(),
            );
        }
        if self.security != peer.security {
            let l = |m: &std::collections::BTreeMap<String, String>| {
                m.iter()
                    .take(8)
                    .map(|(k, v)| format!("{}={}", short(k), short(v)))
                    .collect::<Vec<_>>()
                    .join(",")
            };
            d.push(format!(
                "security parameters: this side [{}], peer [{}]",
                l(&self.security),
                l(&peer.security)
            ));
        }
        if self.store_session != peer.store_session {
            d.push(format!(
                "store session: this side {}, peer {}",
                session(&self.store_session),
                session(&peer.store_session)
            ));
        }
        d
    }
}

/// The run-agreement exchange (untimed, like the barriers): both parties
/// send their [`Agreement`] and check the peer's. Two parties with the same
/// role, or any differing setting, stop here with [`Error::Config`] naming
/// what differs, before any cryptography.
pub(crate) fn agree(
    ch: &mut Channel,
    cfg: &RunConfig,
    protocol: &str,
    role: Role,
    security: std::collections::BTreeMap<String, String>,
) -> Result<()> {
    let mine = Agreement::new(cfg, protocol, role, security);
    ch.send_msg(&mine)?;
    let theirs: Agreement = ch.recv_msg()?;
    ch.end_flight()?;
    if theirs.version != AGREEMENT_VERSION {
        return Err(Error::config(format!(
            "the peer speaks run-agreement version {}, this side {AGREEMENT_VERSION}: use the same brickyard version",
            theirs.version
        )));
    }
    if theirs.role == role {
        return Err(Error::config(format!(
            "both parties were started as {}: one must be --role alice, the other --role bob",
            role.name()
        )));
    }
    let d = mine.differences(&theirs);
    if !d.is_empty() {
        return Err(Error::config(format!(
            "settings differ from the peer's: {}",
            d.join("; ")
        )));
    }
    Ok(())
}

/// Tells the peer why this party stops, unless the error came from the
/// peer or the connection (then there is no one to tell). Best effort.
pub fn abort_peer(ch: &mut Channel, err: &Error) {
    if !matches!(err, Error::PeerAborted { .. } | Error::Disconnected(_)) {
        ch.send_abort(&Abort::for_error(err));
    }
}

/// Runs one party. `inputs` holds this party's inputs for each execution;
/// its length is the number of online executions performed. On error no
/// outputs are returned at all; on `Cheating` the party's store (if any)
/// is durably poisoned first ([`Party::poison_store`]), and the peer is
/// sent an abort frame with the error's kind and a short reason
/// ([`abort_peer`]), so it stops at once instead of waiting for a timeout.
pub fn run_party(
    protocol: &str,
    party: &mut dyn Party,
    role: Role,
    ch: &mut Channel,
    cfg: &RunConfig,
    inputs: &[PartyInputs],
    phases: PhaseSet,
) -> Result<PartyRun> {
    let r = run_party_inner(protocol, party, role, ch, cfg, inputs, phases);
    if let Err(Error::Cheating { check }) = &r {
        if let Err(e) = party.poison_store(check) {
            return Err(Error::Storage(format!(
                "the peer was caught cheating (check `{check}`) and poisoning the store failed: {e}"
            )));
        }
    }
    r
}

fn run_party_inner(
    protocol: &str,
    party: &mut dyn Party,
    role: Role,
    ch: &mut Channel,
    cfg: &RunConfig,
    inputs: &[PartyInputs],
    phases: PhaseSet,
) -> Result<PartyRun> {
    for i in inputs {
        cfg.check_inputs(role, i)?;
    }
    let r = run_phases(protocol, party, role, ch, cfg, inputs, phases);
    if let Err(e) = &r {
        abort_peer(ch, e);
    }
    r
}

fn run_phases(
    protocol: &str,
    party: &mut dyn Party,
    role: Role,
    ch: &mut Channel,
    cfg: &RunConfig,
    inputs: &[PartyInputs],
    phases: PhaseSet,
) -> Result<PartyRun> {
    let mut run = PartyRun::default();
    agree(ch, cfg, protocol, role, party.security_parameters())?;
    let late = party.dependent_in_online_run();
    // A preprocessing phase, timed, with the steps the party names in it.
    let phase = |run: &mut PartyRun,
                 ch: &mut Channel,
                 i: usize,
                 f: &mut dyn FnMut(&mut Channel) -> Result<()>|
     -> Result<()> {
        barrier(ch, role, i as u8)?;
        steps::begin();
        let r = timed(ch, f);
        let named = steps::take();
        run.phases[i] = r?.1;
        run.steps.extend(named.into_iter().map(|s| (i, s)));
        Ok(())
    };
    if phases.preprocess {
        phase(&mut run, ch, 0, &mut |c| party.setup(c))?;
        phase(&mut run, ch, 1, &mut |c| party.independent(c))?;
        if !late {
            phase(&mut run, ch, 2, &mut |c| party.dependent(c))?;
        }
    }
    if phases.online {
        if late {
            phase(&mut run, ch, 2, &mut |c| party.dependent(c))?;
        }
        barrier(ch, role, 250)?;
        // The barrier's wait (the peer finishing its preprocessing) and
        // the phases before it leave the read spin backing off; online
        // flights are short.
        ch.new_stage();
        let (_, mut total) = timed(ch, |c| party.begin_online(c))?;
        let progress = cfg.progress.clone();
        progress.stage_start("online executions", inputs.len() as u64);
        // Both parties compute the same split: `pipelines` is a property of
        // the protocol, and the execution count is in the agreed digest.
        let latency_runs = if party.pipelines() && inputs.len() >= 2 {
            inputs.len().div_ceil(2)
        } else {
            inputs.len()
        };
        let add = |total: &mut LocalPhase, p: &LocalPhase| {
            total.wall_ms += p.wall_ms;
            total.traffic.bytes_sent += p.traffic.bytes_sent;
            total.traffic.bytes_received += p.traffic.bytes_received;
            total.traffic.rounds += p.traffic.rounds;
        };
        let mut per_exec_steps = Vec::with_capacity(latency_runs);
        for (e, inp) in inputs[..latency_runs].iter().enumerate() {
            barrier(ch, role, 3 + (e % 200) as u8)?;
            steps::begin();
            // The whole execution as one more step, beside the protocol's
            // own: what its steps leave out shows as the difference.
            let all = steps::Timer::start(EXECUTION_STEP);
            let r = timed(ch, |c| party.online(c, inp));
            all.stop();
            let mut named = steps::take();
            // Its wall time is the execution's own figure (the latency's),
            // not the timer's, which also counts `timed`'s bookkeeping.
            if let (Ok((_, p)), Some(x)) = (&r, named.iter_mut().find(|x| x.name == EXECUTION_STEP))
            {
                x.ms = p.wall_ms;
            }
            per_exec_steps.push(named);
            let (out, p) = r?;
            party.after_execution();
            add(&mut total, &p);
            run.execution_ms.push(p.wall_ms);
            run.outputs.push(out);
            progress.advance(1);
        }
        run.steps
            .extend(median_steps(&per_exec_steps).into_iter().map(|s| (3, s)));
        let rest = &inputs[latency_runs..];
        if !rest.is_empty() {
            barrier(ch, role, 251)?;
            let (outs, p) = timed(ch, |c| {
                rest.iter()
                    .map(|inp| {
                        let out = party.online(c, inp)?;
                        // Push this execution's last message now: the peer
                        // may be waiting for it while we start the next.
                        c.end_flight()?;
                        party.after_execution();
                        progress.advance(1);
                        Ok(out)
                    })
                    .collect::<Result<Vec<_>>>()
            })?;
            add(&mut total, &p);
            run.pipelined = (rest.len(), p.wall_ms);
            run.outputs.extend(outs);
        }
        run.phases[3] = total;
    }
    Ok(run)
}

/// The online step that is the whole execution.
const EXECUTION_STEP: &str = "= the execution (its latency)";

/// The online steps of one execution: per step name (in the order first
/// seen), the median over the latency runs of its wall and CPU time, a
/// run that did not name it counting as zero. Medians, as the latency is
/// one, so that the breakdown adds up to about the latency reported.
fn median_steps(runs: &[Vec<Step>]) -> Vec<Step> {
    let mut names: Vec<&'static str> = Vec::new();
    for s in runs.iter().flatten() {
        if !names.contains(&s.name) {
            names.push(s.name);
        }
    }
    names
        .into_iter()
        .map(|name| {
            fn of<'a>(r: &'a [Step], name: &str) -> Option<&'a Step> {
                r.iter().find(|s| s.name == name)
            }
            let ms: Vec<f64> = runs
                .iter()
                .map(|r| of(r, name).map_or(0.0, |s| s.ms))
                .collect();
            let cpu: Option<Vec<f64>> = runs
                .iter()
                .map(|r| of(r, name).map_or(Some(0.0), |s| s.cpu_ms))
                .collect();
            Step {
                name,
                ms: median(&ms),
                cpu_ms: cpu.map(|c| median(&c)),
            }
        })
        .collect()
}

/// Merges the two parties' views into the shared report.
pub fn merge(alice: &PartyRun, bob: &PartyRun) -> (Vec<PhaseStats>, OnlineStats) {
    let (phases, online, _) = merge_with_steps(alice, bob);
    (phases, online)
}

/// [`merge`], with the steps both parties named (Alice's, then Bob's).
pub fn merge_with_steps(
    alice: &PartyRun,
    bob: &PartyRun,
) -> (Vec<PhaseStats>, OnlineStats, Vec<StepStats>) {
    let steps = [("alice", alice), ("bob", bob)]
        .iter()
        .flat_map(|(who, run)| {
            run.steps.iter().map(move |(i, s)| StepStats {
                phase: PHASE_NAMES[*i].to_string(),
                party: who.to_string(),
                name: s.name.to_string(),
                wall_ms: s.ms,
                cpu_ms: s.cpu_ms,
            })
        })
        .collect();
    let (phases, online) = merge_phases(alice, bob);
    (phases, online, steps)
}

fn merge_phases(alice: &PartyRun, bob: &PartyRun) -> (Vec<PhaseStats>, OnlineStats) {
    let phases = PHASE_NAMES
        .iter()
        .enumerate()
        .map(|(i, name)| PhaseStats {
            name: name.to_string(),
            wall_ms: alice.phases[i].wall_ms.max(bob.phases[i].wall_ms),
            bytes_alice_to_bob: alice.phases[i].traffic.bytes_sent,
            bytes_bob_to_alice: bob.phases[i].traffic.bytes_sent,
            rounds: alice.phases[i].traffic.rounds + bob.phases[i].traffic.rounds,
        })
        .collect();
    let per_exec: Vec<f64> = alice
        .execution_ms
        .iter()
        .zip(&bob.execution_ms)
        .map(|(a, b)| a.max(*b))
        .collect();
    let online = OnlineStats {
        latency_ms: median(&per_exec),
        throughput_ms: match (alice.pipelined, bob.pipelined) {
            ((n, a), (m, b)) if n > 0 && n == m => a.max(b) / n as f64,
            _ if per_exec.is_empty() => 0.0,
            _ => per_exec.iter().sum::<f64>() / per_exec.len() as f64,
        },
        first_ms: per_exec.first().copied().unwrap_or(0.0),
    };
    (phases, online)
}

/// A pair of connected channels for a single-process run, with the name of
/// the network setting for the report.
pub struct LocalNet {
    /// Alice's end.
    pub alice: Channel,
    /// Bob's end.
    pub bob: Channel,
    /// Name for the report (`memory`, `loopback`, `lan`, …).
    pub name: String,
}

/// The outcome of a single-process run: the report and both parties' outputs
/// per execution.
pub struct LocalRun {
    /// The phase table.
    pub report: Report,
    /// Bob's outputs per execution (empty with output to Alice only).
    pub bob_outputs: Vec<Outputs>,
    /// Alice's outputs per execution, when she learns them.
    pub alice_outputs: Option<Vec<Outputs>>,
}

/// Runs both parties in two threads over `net` and merges their reports.
/// If either party fails, the run fails and no output is returned.
#[allow(clippy::too_many_arguments)]
pub fn run_local(
    protocol: &str,
    circuit_name: &str,
    mut alice: Box<dyn Party>,
    mut bob: Box<dyn Party>,
    cfg: &RunConfig,
    alice_inputs: Vec<PartyInputs>,
    bob_inputs: Vec<PartyInputs>,
    net: LocalNet,
) -> Result<LocalRun> {
    let LocalNet {
        alice: mut ch_a,
        bob: mut ch_b,
        name,
    } = net;
    let mut cfg_a = cfg.clone();
    // Alice counts her progress apart: the caller's meter shows Bob's view
    // (one count per execution, not two).
    cfg_a.progress = Default::default();
    let proto = protocol.to_string();
    let handle = std::thread::Builder::new()
        .name("alice".into())
        .spawn(move || {
            let r = run_party(
                &proto,
                alice.as_mut(),
                Role::Alice,
                &mut ch_a,
                &cfg_a,
                &alice_inputs,
                PhaseSet::ALL,
            );
            drop(ch_a);
            r
        })
        .map_err(Error::Io)?;
    let bob_run = run_party(
        protocol,
        bob.as_mut(),
        Role::Bob,
        &mut ch_b,
        cfg,
        &bob_inputs,
        PhaseSet::ALL,
    );
    drop(ch_b);
    let alice_run = handle
        .join()
        .map_err(|_| Error::Config("Alice's thread panicked".into()))?;
    let (alice_run, bob_run) = match (alice_run, bob_run) {
        (Ok(a), Ok(b)) => (a, b),
        // Report the root cause: a party that saw the peer vanish or abort
        // reports Disconnected or PeerAborted, which is rarely the
        // interesting error.
        (Err(e), Ok(_)) | (Ok(_), Err(e)) => return Err(e),
        (Err(ea), Err(eb)) => {
            return Err(match (&ea, &eb) {
                (Error::Disconnected(_) | Error::PeerAborted { .. }, _) => eb,
                _ => ea,
            })
        }
    };
    let (phases, online, steps) = merge_with_steps(&alice_run, &bob_run);
    let pipelined = bob_run.pipelined.0;
    let notes = if pipelined > 0 {
        vec![format!(
            "throughput: {pipelined} executions pipelined (no barrier between them); latency: median of the other {} (barrier-separated)",
            bob_run.execution_ms.len()
        )]
    } else {
        vec!["throughput: mean of barrier-separated executions (no pipelined mode for this protocol or E = 1)".to_string()]
    };
    let executions = bob_run.outputs.len();
    let bob_outputs = if cfg.output.learns(Role::Bob) {
        bob_run
            .outputs
            .into_iter()
            .map(|o| o.ok_or_else(|| Error::Config("Bob produced no output".into())))
            .collect::<Result<Vec<_>>>()?
    } else {
        Vec::new()
    };
    let alice_outputs = alice_run.outputs.into_iter().collect::<Option<Vec<_>>>();
    if cfg.output.learns(Role::Alice) && alice_outputs.is_none() {
        return Err(Error::Config("Alice produced no output".into()));
    }
    Ok(LocalRun {
        report: Report {
            protocol: protocol.to_string(),
            circuit: circuit_name.to_string(),
            executions,
            net: name,
            phases,
            online,
            and_gates: cfg.circuit.and_count() as u64,
            notes,
            steps,
        },
        bob_outputs,
        alice_outputs,
    })
}
