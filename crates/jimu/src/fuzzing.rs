//! Direct entry point of the fuzz target `jimu_decode` (feature
//! `fuzzing`): JIMU's protocol messages (Sec. 5.1) as each party reads
//! them, each step run on a state dealt once from fixed seeds (an honest
//! Setup, Generate, Check, random OTs and Build of one AND gate of Alice's
//! and Bob's bit, one execution, k = 88, s = 40), so a run costs only the step's reading and
//! checks.
//!
//! Byte 0: its low seven bits b pick step 1 + (b + 4 mod 5) (below; step
//! 0 has its own entry point, [`compress`], and target `jimu_compress`); bit 7 set means the rest are
//! 3-byte patches `(offset u16 LE, xor u8)` to the honest message of that
//! step (the dealt peer's), clear means the rest is the peer's stream
//! itself. The stream is read over `channel::scripted` with its frames.
//!
//! | step | reader | what it reads | checks reached |
//! |---|---|---|---|
//! | 0 ([`compress`]) | Bob, Setup (`setup::recv_compress`) | A' (16 × 32 bytes) | `compress-rank` |
//! | 1 | Alice, Check (`check::alice`) | J, r | `cut-and-choose-open` |
//! | 2 | Bob, Check (`check::bob`) | ρ^l, ρ^r, ρ^o and three labels per checked gate | `check-gate-rho`, `check-gate-label` |
//! | 3 | Bob, Build (`build::bob`) | a ρ difference and a label δ per soldered wire | ρ in GF(2^6) (`Malformed`), `solder-rho`, `solder-label` |
//! | 4 | Alice, Eval (`eval::alice`) | Bob's OT corrections | bits (`Malformed`) |
//! | 5 | Bob, Eval (`eval::bob`) | masked share labels, Alice's input labels, ρ^o | `alice-input-label`, `output-rho`, `bob-input-label` |
//!
//! Not reached from the stream (the dealt preprocessing is honest, and
//! the peer's messages cannot make an honest gate faulty without breaking
//! the i-hash): `check-gate-eval`, `bucket-empty`, `delta-recovery` and
//! `output-label`; nor the i-hash and OT messages of Setup, Generate and
//! the random OTs (fuzzed by `ihash_decode`, `ihash_*`, `ot_decode`,
//! `ot_session`) and Generate's tables flight (any 32 bytes are a row).

use crate::cheat::Cheats;
use crate::protocol::build::{self, AliceExec, BobExec, Owner};
use crate::protocol::check::{self, Assignment};
use crate::protocol::eval::{self, AliceRots, BobKeys, BobRots, EvalScratch};
use crate::protocol::generate::{self, AliceGates, BobGates, Sizes};
use crate::protocol::schedule::Schedule;
use crate::protocol::setup::{self, AliceSetup, BobSetup};
use crate::protocol::JimuOptions;
use brickyard_circuit::Circuit;
use brickyard_core::channel::{memory_transport_pair, scripted, Recording};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::{Role, RunConfig};
use brickyard_garble::wide::L88 as L;
use std::sync::{Arc, Mutex, OnceLock};

/// Bob's seed for his share bits in Eval (the honest Eval message is
/// Alice's answer to the corrections they give).
const EVAL_SEED: Block = Block(0x6a69_6d75_2d65_7661_6c2d_0001);
/// Alice's input x and Bob's y (one bit each).
const X: u64 = 1;
const Y: u64 = 1;

/// Both parties after an honest run up to (and through) Eval, and every
/// message each sent in the steps above.
pub struct Fixture {
    cfg: RunConfig,
    owner: Vec<Owner>,
    sched: Schedule,
    sz: Sizes,
    a_setup: AliceSetup<L>,
    a_gates: AliceGates<L>,
    a_com: [u8; 32],
    a_exec: AliceExec<L>,
    b_setup: BobSetup,
    b_gates: BobGates<L>,
    b_j: (Block, Block),
    b_asg: Assignment,
    b_exec: BobExec<L>,
    b_rots: BobRots,
    /// Bob's output of the recorded run.
    pub output: Vec<bool>,
    /// The honest message of each step.
    pub messages: [Vec<u8>; 6],
}

fn bits(n: usize, v: u64) -> Vec<bool> {
    (0..n).map(|i| (v >> i) & 1 == 1).collect()
}

/// One AND gate: Alice's bit and Bob's bit (the smallest circuit with a
/// bucket, a Check and an input of each party: a run stays cheap).
fn circuit() -> Circuit {
    let mut b = brickyard_circuit::CircuitBuilder::new();
    let x = b.input("x", 1);
    let y = b.input("y", 1);
    let z = b.and_bit(x.0[0], y.0[0]);
    b.output("z", &brickyard_circuit::BitVec(vec![z]));
    b.finish()
}

fn owners(cfg: &RunConfig) -> Vec<Owner> {
    build::owners(
        &brickyard_driver::layout::input_positions(cfg, Role::Alice),
        &brickyard_driver::layout::input_positions(cfg, Role::Bob),
    )
}

fn len(log: &Arc<Mutex<Vec<u8>>>) -> usize {
    log.lock().map(|v| v.len()).unwrap_or(0)
}

type AliceState = (
    AliceSetup<L>,
    AliceGates<L>,
    [u8; 32],
    AliceExec<L>,
    AliceRots,
    [usize; 6],
);

fn alice(ch: &mut Channel, cfg: &RunConfig, log: &Arc<Mutex<Vec<u8>>>) -> Result<AliceState> {
    let prg = &mut Prg::from_seed(Block(0xa11ce));
    let (opts, cheats) = (JimuOptions::default(), Cheats::default());
    let mut st = setup::alice::<L>(ch, prg, &opts, &cheats)?;
    let sz = Sizes::new(cfg, &opts)?;
    let (g, com) = generate::alice(
        ch,
        &mut st.wire,
        &mut st.perm,
        &st.delta,
        &st.compress,
        &sz,
        prg,
        &cheats,
    )?;
    let a0 = len(log);
    let asg = check::alice(ch, &g, &st.delta, &sz, &com)?;
    let a1 = len(log);
    let rots = eval::alice_rots(ch, &mut st.kos, &sz)?;
    let a2 = len(log);
    let lp = st.perm.params().ell;
    let owner = owners(cfg);
    let mut execs = build::alice(
        ch,
        &cfg.circuit,
        &owner,
        &g,
        &asg,
        &sz,
        &st.delta,
        lp,
        prg,
        &cheats,
    )?;
    let a3 = len(log);
    let mut ex = execs.pop().ok_or_else(|| Error::config("no execution"))?;
    eval::alice_prepare(&mut ex, &rots, &sz)?;
    eval::alice(ch, &ex, &sz, &st.delta, &bits(1, X), prg, &cheats)?;
    let a4 = len(log);
    Ok((st, g, com, ex, rots, [a0, a1, a2, a3, a4, 0]))
}

fn bob_keys(st: &BobSetup) -> BobKeys<'_> {
    BobKeys {
        wire: st.wire.verifier(),
        perm: st.perm.verifier(),
        perm_params: *st.perm.params(),
        h_delta: &st.h_delta,
        d: &st.d,
        compress: &st.compress,
        alice_rho: None,
    }
}

/// The dealt state, built once from fixed seeds (the same in every
/// process, so a corpus stays valid).
pub fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| build_fixture().expect("honest jimu run"))
}

fn build_fixture() -> Result<Fixture> {
    let mut cfg = RunConfig::new(Arc::new(circuit()))?;
    cfg.executions = 1;
    let (ta, tb) = memory_transport_pair();
    let (ra, log_a) = Recording::new(ta);
    let (rb, log_b) = Recording::new(tb);
    let cfg_a = cfg.clone();
    let la = log_a.clone();
    let h = std::thread::spawn(move || alice(&mut Channel::new(ra), &cfg_a, &la));
    let ch = &mut Channel::new(rb);
    let prg = &mut Prg::from_seed(Block(0xb0b));
    let opts = JimuOptions::default();
    let cheats = Cheats::default();
    let mut st = setup::bob::<L>(ch, prg, &opts, &cheats)?;
    let sz = Sizes::new(&cfg, &opts)?;
    let (j, r) = (prg.random_block(), prg.random_block());
    let mut gprg = Prg::from_seed(prg.random_block());
    let g = generate::bob::<L>(ch, &mut st.wire, &mut st.perm, &sz, &mut gprg, j, r)?;
    let b0 = len(&log_b);
    let asg = check::bob(
        ch,
        &g,
        &st.wire,
        &st.perm,
        &st.h_delta,
        &st.compress,
        &sz,
        j,
        r,
        &cheats,
    )?;
    let b1 = len(&log_b);
    let rots = eval::bob_rots(ch, &mut st.kos, &sz, prg)?;
    let owner = owners(&cfg);
    let sched = Schedule::new(&cfg.circuit);
    let mut execs = build::bob(
        ch,
        &cfg.circuit,
        &sched,
        &owner,
        &g,
        &asg,
        &sz,
        &st.wire,
        &st.perm,
        &st.h_delta,
        &st.compress,
    )?;
    let mut ex = execs.pop().ok_or_else(|| Error::config("no execution"))?;
    eval::bob_prepare(
        &mut ex,
        &rots,
        &sz,
        st.wire.params(),
        &mut Prg::from_seed(EVAL_SEED),
    )?;
    let b2 = len(&log_b);
    let output = eval::bob(
        ch,
        &cfg.circuit,
        &sched,
        &owner,
        &ex,
        &rots,
        &sz,
        &bob_keys(&st),
        &bits(1, Y),
        &mut EvalScratch::default(),
    )?;
    let b3 = len(&log_b);
    let (a_setup, a_gates, a_com, a_exec, _, [a0, a1, a2, a3, a4, _]) = h
        .join()
        .map_err(|_| Error::config("alice thread panicked"))??;
    let (sa, sb) = (
        log_a.lock().map(|v| v.clone()).unwrap_or_default(),
        log_b.lock().map(|v| v.clone()).unwrap_or_default(),
    );
    // A' as Alice sends it: one frame of its own.
    let framed = |payload: &[u8]| -> Vec<u8> {
        let (x, y) = memory_transport_pair();
        let (rec, log) = Recording::new(y);
        let mut c = Channel::new(rec);
        c.send_bytes(payload)
            .and_then(|_| c.flush())
            .expect("memory");
        drop((c, x));
        let v = log.lock().map(|v| v.clone()).unwrap_or_default();
        v
    };
    let messages = [
        framed(a_setup.compress.rows()),
        sb[b0..b1].to_vec(),
        sa[a0..a1].to_vec(),
        sa[a2..a3].to_vec(),
        sb[b2..b3].to_vec(),
        sa[a3..a4].to_vec(),
    ];
    Ok(Fixture {
        cfg,
        owner,
        sched,
        sz,
        a_setup,
        a_gates,
        a_com,
        a_exec,
        b_setup: st,
        b_gates: g,
        b_j: (j, r),
        b_asg: asg,
        b_exec: ex,
        b_rots: rots,
        output,
        messages,
    })
}

/// The step `sel` picks: 1 + (its low seven bits + 4 mod 5), so that
/// 1..=5 pick steps 1..=5. Step 0 (A')
/// has its own entry point, [`compress`]: its rank check and tables cost
/// about 10 ms a run in the fuzz build, and its many branches drew the
/// fuzzer's corpus to it.
fn step(sel: u8) -> usize {
    1 + ((sel & 0x7f) as usize + 4) % 5
}

/// Step 0 alone (the target `jimu_compress`): Bob reads A' from `data`
/// (the peer's stream) and checks its rank.
pub fn compress(data: &[u8]) -> Result<()> {
    setup::recv_compress::<L>(&mut scripted(data)).map(drop)
}

/// The peer's stream for `sel` and the rest of the input (module docs).
fn script(f: &Fixture, sel: u8, rest: &[u8]) -> Vec<u8> {
    if sel & 0x80 == 0 {
        return rest.to_vec();
    }
    let mut bytes = f.messages[step(sel)].clone();
    for p in rest.chunks_exact(3) {
        if bytes.is_empty() {
            break;
        }
        let off = u16::from_le_bytes([p[0], p[1]]) as usize % bytes.len();
        bytes[off] ^= p[2];
    }
    bytes
}

/// Runs the step byte 0 picks on the rest of `data` (module docs). `Ok`
/// (with Bob's output bits for Eval) or a typed error.
pub fn decode(data: &[u8]) -> Result<Option<Vec<bool>>> {
    let Some((&sel, rest)) = data.split_first() else {
        return Ok(None);
    };
    let f = fixture();
    let ch = &mut scripted(&script(f, sel, rest));
    let c = &f.cfg.circuit;
    let (a, b) = (&f.a_setup, &f.b_setup);
    let cheats = Cheats::default();
    match step(sel) {
        0 => unreachable!("step 0 is `compress`"),
        1 => check::alice(ch, &f.a_gates, &a.delta, &f.sz, &f.a_com).map(|_| None),
        2 => check::bob(
            ch,
            &f.b_gates,
            &b.wire,
            &b.perm,
            &b.h_delta,
            &b.compress,
            &f.sz,
            f.b_j.0,
            f.b_j.1,
            &cheats,
        )
        .map(|_| None),
        3 => build::bob(
            ch,
            c,
            &f.sched,
            &f.owner,
            &f.b_gates,
            &f.b_asg,
            &f.sz,
            &b.wire,
            &b.perm,
            &b.h_delta,
            &b.compress,
        )
        .map(|_| None),
        4 => eval::alice(
            ch,
            &f.a_exec,
            &f.sz,
            &a.delta,
            &bits(1, X),
            &mut Prg::from_seed(Block(1)),
            &cheats,
        )
        .map(|_| None),
        _ => eval::bob(
            ch,
            c,
            &f.sched,
            &f.owner,
            &f.b_exec,
            &f.b_rots,
            &f.sz,
            &bob_keys(b),
            &bits(1, Y),
            &mut EvalScratch::default(),
        )
        .map(Some),
    }
}

/// The honest input of step `step` (1..=5) in raw mode: the unit tests,
/// and seeds for a fuzz corpus.
pub fn honest(step: u8) -> Vec<u8> {
    [vec![step], fixture().messages[step as usize].clone()].concat()
}

/// The honest input of [`compress`]: A' in its frame.
pub fn honest_compress() -> Vec<u8> {
    fixture().messages[0].clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_of(r: Result<Option<Vec<bool>>>) -> String {
        match r {
            Err(Error::Cheating { check }) => check.to_string(),
            Err(e) => format!("other: {e}"),
            Ok(_) => "ok".into(),
        }
    }

    /// A patch input for step `step` (patch mode) flipping `xor` at `off`
    /// of the honest message.
    fn patch(step: u8, off: usize, xor: u8) -> Vec<u8> {
        let o = (off as u16).to_le_bytes();
        vec![0x80 | step, o[0], o[1], xor]
    }

    #[test]
    fn direct_decoders_accept_honest_messages_and_refuse_bad_ones() {
        let f = fixture();
        assert_eq!(f.output, bits(1, X & Y), "the recorded run ANDs");
        eprintln!(
            "T = {}, B = {}, checked gates = {}, message bytes = {:?}",
            f.sz.t,
            f.sz.bucket,
            f.b_asg.checked.len(),
            f.messages.iter().map(Vec::len).collect::<Vec<_>>()
        );
        for step in 1..6u8 {
            let h = honest(step);
            let out = decode(&h).unwrap_or_else(|e| panic!("step {step}: {e}"));
            if step == 5 {
                assert_eq!(out, Some(bits(1, X & Y)), "Bob's output");
            }
            // Patch mode with no patches is the honest message.
            assert_eq!(
                check_of(decode(&[0x80 | step])),
                "ok",
                "step {step}: patch mode"
            );
            // Cut short: an error.
            assert!(decode(&h[..h.len() - 1]).is_err(), "step {step}: cut");
            assert!(decode(&[step]).is_err(), "step {step}: empty");
        }
        // Each step's first payload byte (after the 4-byte frame header)
        // altered: the step's named check or typed error.
        let m = &f.messages;
        compress(&honest_compress()).expect("A'");
        let mut rows = honest_compress();
        rows[4] ^= 0xff;
        compress(&rows).expect("any full-rank A'");
        rows[4..].fill(0);
        assert!(matches!(
            compress(&rows),
            Err(Error::Cheating {
                check: "compress-rank"
            })
        ));
        assert!(compress(&m[0][..m[0].len() - 1]).is_err(), "A' cut");
        assert_eq!(check_of(decode(&patch(1, 4, 1))), "cut-and-choose-open");
        assert_eq!(check_of(decode(&patch(2, 4, 1))), "check-gate-rho");
        // Check's one frame: the ρ's (3 per checked gate), then the labels.
        let c = f.b_asg.checked.len();
        let lp = f.b_setup.perm.params().ell;
        assert!(c > 0, "no checked gate");
        assert_eq!(
            check_of(decode(&patch(2, 4 + 3 * c * lp + 1, 1))),
            "check-gate-label"
        );
        assert_eq!(check_of(decode(&patch(3, 4, 1))), "solder-rho");
        assert!(
            check_of(decode(&patch(3, 4, 0x80))).starts_with("other: "),
            "a ρ outside GF(2^6) is malformed"
        );
        assert!(
            check_of(decode(&patch(4, 4, 2))).starts_with("other: "),
            "a correction > 1"
        );
        let last = m[5].len() - 1;
        assert_eq!(check_of(decode(&patch(5, last, 1))), "output-rho");
    }

    /// Check and Build verify their pairs in batches: one bad pair in the
    /// middle of a batch still trips its own named check, and with two bad
    /// pairs the error is that of the first in the one-by-one order (a
    /// gate's ρ's, then its labels, gate after gate; a soldering's ρ, then
    /// its label, soldering after soldering).
    #[test]
    fn one_bad_pair_inside_a_batch_trips_its_check() {
        let f = fixture();
        let multi = |step: u8, patches: &[(usize, u8)]| {
            let mut v = vec![0x80 | step];
            for &(off, x) in patches {
                v.extend_from_slice(&(off as u16).to_le_bytes());
                v.push(x);
            }
            check_of(decode(&v))
        };
        let hdr = 4;
        let lp = f.b_setup.perm.params().ell;
        let lw = 16 * L;
        // Check: c gates, 3c ρ's then 3c labels in one frame.
        let c = f.b_asg.checked.len();
        assert!(c >= 8, "too few checked gates for a batch: {c}");
        let rho = |k: usize, s: usize| hdr + (3 * k + s) * lp;
        let label = |k: usize, s: usize| hdr + 3 * c * lp + (3 * k + s) * lw;
        let mid = c / 2;
        assert_eq!(multi(2, &[(rho(mid, 1), 1)]), "check-gate-rho");
        assert_eq!(multi(2, &[(label(mid, 2) + 5, 1)]), "check-gate-label");
        assert_eq!(multi(2, &[(label(c - 1, 0), 0x10)]), "check-gate-label");
        // An earlier gate's label before a later gate's ρ.
        assert_eq!(
            multi(2, &[(label(1, 1), 1), (rho(c - 1, 2), 1)]),
            "check-gate-label"
        );
        assert_eq!(
            multi(2, &[(rho(1, 0), 1), (label(c - 1, 2), 1)]),
            "check-gate-rho"
        );
        // Build: n solderings (3 per bucket gate), their ρ's then their δ's.
        let n = 3 * f.sz.bucket * f.sz.n * f.sz.e;
        assert!(n >= 8, "too few solderings for a batch: {n}");
        let srho = |k: usize| hdr + k * lp;
        let slab = |k: usize| hdr + n * lp + k * lw;
        assert_eq!(multi(3, &[(srho(n / 2), 1)]), "solder-rho");
        assert_eq!(multi(3, &[(slab(n / 2) + 7, 4)]), "solder-label");
        assert_eq!(multi(3, &[(slab(n - 1), 1)]), "solder-label");
        assert_eq!(multi(3, &[(slab(2), 1), (srho(n - 1), 1)]), "solder-label");
        assert_eq!(multi(3, &[(srho(2), 1), (slab(n - 1), 1)]), "solder-rho");
    }

    #[test]
    fn eval_checks_alice_labels_and_bobs_share_labels() {
        let f = fixture();
        // Bob's message: one frame of (2·ns + na)·L blocks, then ρ^o.
        let ns = f.sz.nb * f.sz.s;
        let blocks = 16 * L;
        let hdr = 4;
        // Alice's first input label.
        let alice_label = hdr + 2 * ns * blocks + 3;
        let mut seen = Vec::new();
        for off in [alice_label, hdr + 3, hdr + blocks + 3] {
            let o = (off as u16).to_le_bytes();
            seen.push(check_of(decode(&[0x80 | 5, o[0], o[1], 1])));
        }
        assert_eq!(seen[0], "alice-input-label", "{seen:?}");
        // The first share: one of the two masked labels is Bob's; a flip
        // there is the delayed `bob-input-label`, in the other nothing.
        let mut shares = [seen[1].clone(), seen[2].clone()];
        shares.sort();
        assert_eq!(
            shares,
            ["bob-input-label".to_string(), "ok".to_string()],
            "{seen:?}"
        );
    }

    /// Writes the honest inputs into `$BRICKYARD_FUZZ_SEEDS` (a fuzz
    /// corpus directory) when it is set, and A' into
    /// `$BRICKYARD_FUZZ_SEEDS_COMPRESS`: `cargo test -p brickyard-jimu --features
    /// fuzzing --lib fuzzing -- --ignored write_seeds`.
    #[test]
    #[ignore]
    fn write_seeds() {
        let Some(dir) = std::env::var_os("BRICKYARD_FUZZ_SEEDS") else {
            return;
        };
        std::fs::create_dir_all(&dir).unwrap();
        for sel in 1u8..6 {
            let v = honest(sel);
            std::fs::write(std::path::Path::new(&dir).join(format!("honest-{sel}")), v).unwrap();
        }
        if let Some(c) = std::env::var_os("BRICKYARD_FUZZ_SEEDS_COMPRESS") {
            std::fs::create_dir_all(&c).unwrap();
            std::fs::write(std::path::Path::new(&c).join("honest"), honest_compress()).unwrap();
        }
    }
}
