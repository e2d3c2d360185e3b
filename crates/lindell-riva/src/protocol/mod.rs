//! The Appendix A protocol (Figs. A.1–A.3): Alice (P1) garbles `M + M'`
//! bundles of C and C' offline, Bob (P2) checks a committed random subset,
//! groups the rest into `N` buckets of `B` (and `B'`), receives his encoded
//! input labels by OT; online, one bucket per execution, four messages.
//!
//! | phase (driver) | paper step | code |
//! |---|---|---|
//! | setup | Fig. A.1 Setup: E, E' chosen by Bob, verified by Alice; base OTs | [`Setup::bob_choose`], [`Setup::alice_receive`], `KosSender/KosReceiver::setup` |
//! | independent | the OTs' randomness: Bob's random `y¹_j`, `d¹_j` are the choice bits of random OTs | [`Alice::independent`], [`Bob::independent`] |
//! | dependent | Fig. A.2: commit σ, seed_π, challenges; bundles; F_ExCom∆ZK (joint for C and C'); open σ; open checked seeds and check; OT label transfer | [`Alice::dependent`], [`Bob::dependent`] |
//! | online | Fig. A.3 for the next unused bucket | [`Alice::online`], [`Bob::online`] |
//!
//! Check names are the constants below; each is tested by a named cheat
//! (`tests.rs`, feature `adversary`).

mod alice;
mod bob;
pub mod bundle;
pub mod circuits;
mod kept;
mod pads;
pub mod record;
pub mod stored;

pub use alice::Alice;
pub use bob::{Bob, OutputSource};

use crate::excom::ExComParams;
use crate::params::{Choice, LrParams, Objective};
use crate::probe::{ProbeMatrix, ProbeSpec};
use brickyard_circuit::Circuit;
#[cfg(feature = "adversary")]
use brickyard_core::Block;
use brickyard_core::{Channel, Error, Result};
use brickyard_garble::GarblePlan;
use circuits::{Shape, XorNet, D_BITS};
use std::sync::{Arc, OnceLock};

/// Check: an opened seed does not match `ExtractCom(seed_j)`.
pub const CHECK_SEED: &str = "seed-decommit";
/// Check: a checked bundle regenerated from its seed differs (tables,
/// decoding, label commitments, output commitment, `ExtractCom(λ)`).
pub const CHECK_CIRCUIT: &str = "check-circuit";
/// Check: a checked bundle's mask from its seed differs from the mask
/// F_ExCom∆ZK revealed.
pub const CHECK_MASK: &str = "check-mask";
/// Check: a label received by OT does not open its commitment.
pub const CHECK_OT_LABEL: &str = "ot-label-decommit";
/// Check: a label of Alice's input does not open the commitment at the
/// position `x ⊕ m_i` fixed by the proven mask differences (Sec. 3.3).
pub const CHECK_INPUT: &str = "input-decommit";
/// Check: a label of a public input (`y²`, `D`, `d²`) does not open the
/// commitment of that bit.
pub const CHECK_PUBLIC_INPUT: &str = "public-input-decommit";
/// Check: `λ_i` does not open `ExtractCom(λ_i)`.
pub const CHECK_LAMBDA: &str = "lambda-decommit";
/// Check: the output labels do not open the output-label commitment.
pub const CHECK_OUTPUT: &str = "output-decommit";
/// Check: the values `W⁰_{i,v}⊕R_v`, `W¹_{i,v}⊕R_v⊕D` sent for some circuit
/// `i` and wire `v` are not of that form for one `R_v` common to all
/// circuits of the bucket (Fig. A.3 "P2 verifies ... all the values").
pub const CHECK_RECOVERY_ENC: &str = "recovery-encryption";
/// Check: the opened `D` does not hash to `H(D)`.
pub const CHECK_RECOVERY_HASH: &str = "recovery-hash";
/// Check: the circuits disagree, `D` was not learnt and no circuit's output
/// labels all match the decommitted ones (impossible with one honest
/// circuit in the bucket).
pub const CHECK_NO_VALID: &str = "no-valid-circuit";

/// Named cheats (feature `adversary` installs them; default builds never do).
#[cfg_attr(not(feature = "adversary"), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Cheat {
    /// Honest.
    #[default]
    None,
    /// alice:`bad-circuit`: the first `k` bundles of C have a corrupted
    /// table (`check-circuit` if any is checked; else never a wrong output).
    BadCircuit(usize),
    /// alice:`inconsistent-input`: the second circuit of each bucket gets
    /// the label of `¬x_0` (`input-decommit`).
    InconsistentInput,
    /// alice:`false-difference`: a false `∆` in bucket 0 (`mask-difference`).
    FalseDifference,
    /// alice:`two-outputs`: bundle 0 of C computes `f` with output bit 0
    /// negated, with consistent labels: if it is evaluated Bob learns `D`,
    /// recovers `x` and outputs `f(x, y)`; if checked, `check-circuit`.
    TwoOutputs,
    /// alice:`bad-lambda`: decommits a wrong `λ` online (`lambda-decommit`).
    BadLambda,
    /// alice:`selective-ot`: corrupts the 1-message of the first `y¹` OT
    /// of every bucket (`ot-label-decommit` iff `y¹_0 = 1`: independent of `y`).
    SelectiveOt,
    /// alice:`wrong-D`: sends `H(D*)` for a `D* ≠ D` and uses `D`
    /// everywhere else, so the opened `D` misses the hash (`recovery-hash`).
    WrongD,
    /// alice:`bad-recovery-encryption`: one `W¹⊕R⊕D` is off (`recovery-encryption`).
    BadRecoveryEncryption,
    /// alice:`bad-seed-open`: opens a checked bundle's seed with a wrong
    /// commitment randomness (`seed-decommit`).
    BadSeedOpen,
    /// alice:`bad-mask`: commits in F_ExCom∆ZK to masks other than the
    /// bundles' (all flipped alike, so the differences still prove)
    /// (`check-mask`).
    BadMask,
    /// alice:`bad-public-label`: a `y²` label opens no commitment
    /// (`public-input-decommit`).
    BadPublicLabel,
    /// alice:`bad-output-decommit`: a wrong output label in the
    /// decommitment (`output-decommit`).
    BadOutputDecommit,
    /// bob:`short-probe-matrix`: E with one evaluation point too few
    /// (distance `s − 1`), so some `s − 1` bits of `y¹` would fix a bit of
    /// `E·y¹` (`probe-resistance` at Alice).
    ShortProbeMatrix,
    /// bob:`bad-selection-open`: opens σ, seed_π wrongly (`cc-decommit` at Alice).
    BadSelectionOpen,
    /// bob:`guess-D`: sends `d² ⊕ E'd¹` for a guessed `d` although all
    /// circuits agreed; C' then outputs 0, never `x`.
    GuessD,
    /// alice:`bad-recovery-circuit`: bundle 0 of C computes `f` with output
    /// bit 0 negated (as `two-outputs`, so a bucket holding it makes Bob
    /// learn `D` and use C'), and the first bundle of C' (a minority of
    /// any bucket, B' ≥ 3) outputs `x` with bit 0 negated. Checked:
    /// `check-circuit`; else C''s majority is still `x` and Bob outputs
    /// `f(x, y)`.
    BadRecoveryCircuit,
    /// alice:`split-r`: a different `R_v` for each circuit of the bucket,
    /// each pair consistent on its own (`recovery-encryption`). Unchecked,
    /// it would hide `D` from a Bob whose circuits disagree.
    SplitR,
    /// alice:`invalid-output-labels`: every C circuit of bucket 0 commits
    /// to output labels shifted off the garbled ones, and every second one
    /// flips its first decoding bit, so the circuits disagree, `D` is not
    /// learnt and no circuit is valid (`no-valid-circuit`). Only reachable
    /// when no C circuit of the bucket is honest, which the cut-and-choose
    /// prevents except with probability 2^-s: the cheat therefore runs
    /// against a Bob whose selection comes from a fixed public seed
    /// (adversary builds only; the demo rigs Bob for it).
    InvalidOutputLabels,
}

/// The public seed of a Bob rigged for [`Cheat::InvalidOutputLabels`].
#[cfg(feature = "adversary")]
pub(crate) const RIGGED_SEED: Block = Block(0x0005_eed0_fb0b);

impl Cheat {
    /// `role:name` of every cheat.
    pub const ALL: &'static [(&'static str, Cheat)] = &[
        ("alice:bad-circuit", Cheat::BadCircuit(1)),
        ("alice:inconsistent-input", Cheat::InconsistentInput),
        ("alice:false-difference", Cheat::FalseDifference),
        ("alice:two-outputs", Cheat::TwoOutputs),
        ("alice:bad-lambda", Cheat::BadLambda),
        ("alice:selective-ot", Cheat::SelectiveOt),
        ("alice:wrong-D", Cheat::WrongD),
        (
            "alice:bad-recovery-encryption",
            Cheat::BadRecoveryEncryption,
        ),
        ("alice:bad-seed-open", Cheat::BadSeedOpen),
        ("alice:bad-mask", Cheat::BadMask),
        ("alice:bad-public-label", Cheat::BadPublicLabel),
        ("alice:bad-output-decommit", Cheat::BadOutputDecommit),
        ("bob:short-probe-matrix", Cheat::ShortProbeMatrix),
        ("bob:bad-selection-open", Cheat::BadSelectionOpen),
        ("bob:guess-D", Cheat::GuessD),
        ("alice:bad-recovery-circuit", Cheat::BadRecoveryCircuit),
        ("alice:split-r", Cheat::SplitR),
        ("alice:invalid-output-labels", Cheat::InvalidOutputLabels),
    ];

    /// What each cheat does, for `--list-cheats`.
    pub fn describe(self) -> &'static str {
        match self {
            Cheat::None => "honest",
            Cheat::BadCircuit(_) => "a corrupted table in bundle 0 of C (check-circuit when checked)",
            Cheat::InconsistentInput => "another x in the second circuit of each bucket (input-decommit)",
            Cheat::FalseDifference => "a false mask difference in bucket 0 (mask-difference)",
            Cheat::TwoOutputs => "bundle 0 negates output bit 0: check-circuit, or Bob recovers x and outputs f(x, y)",
            Cheat::BadLambda => "a wrong λ decommitted online (lambda-decommit)",
            Cheat::SelectiveOt => "corrupts the 1-message of the first y¹ OT of each bucket (ot-label-decommit, independent of y)",
            Cheat::WrongD => "sends H(D*) for D* ≠ D (recovery-hash)",
            Cheat::BadRecoveryEncryption => "one W¹⊕R⊕D is off (recovery-encryption)",
            Cheat::BadSeedOpen => "opens a checked seed wrongly (seed-decommit)",
            Cheat::BadMask => "commits to other masks in F_ExCom∆ZK (check-mask)",
            Cheat::BadPublicLabel => "a y² label opens no commitment (public-input-decommit)",
            Cheat::BadOutputDecommit => "a wrong output label decommitted (output-decommit)",
            Cheat::ShortProbeMatrix => "E with distance s−1 (probe-resistance at Alice)",
            Cheat::BadSelectionOpen => "opens σ, seed_π wrongly (cc-decommit at Alice)",
            Cheat::GuessD => "sends d² for a guessed d: C' outputs 0, never x",
            Cheat::BadRecoveryCircuit => "bundle 0 negates an output and a minority of C' is wrong: check-circuit, or f(x, y) from C''s majority",
            Cheat::SplitR => "a different R_v per circuit (recovery-encryption)",
            Cheat::InvalidOutputLabels => "all C circuits of bucket 0 disagree with invalid output labels, Bob's selection rigged (no-valid-circuit)",
        }
    }

    /// Looks a `role:name` up.
    pub fn parse(spec: &str) -> Option<Cheat> {
        Self::ALL.iter().find(|(n, _)| *n == spec).map(|(_, c)| *c)
    }

    /// Whether Bob must be configured for the strategy too (his selection
    /// rigged), even though it is Alice's.
    pub fn rigs_bob(self) -> bool {
        self == Cheat::InvalidOutputLabels
    }
}

/// What both parties derived in setup: parameters, E and E', the circuits
/// C and C' and their garbling plans.
pub struct Setup {
    /// Statistical security per execution.
    pub s: u32,
    /// `B, p, M` and `B', p', M'` (Lemmas 2.2 / 2.3).
    pub params: LrParams,
    /// The function.
    pub f: Arc<Circuit>,
    /// Alice's input positions in `f`'s flattened input order.
    pub alice: Vec<usize>,
    /// Bob's input positions.
    pub bob: Vec<usize>,
    /// E (Bob's input encoding).
    pub e: ProbeMatrix,
    /// E' (encoding of `d`).
    pub e2: ProbeMatrix,
    /// Plan of C.
    pub plan: GarblePlan,
    /// Plan of C'.
    pub plan2: GarblePlan,
    /// Input classes of C.
    pub shape: Shape,
    /// Input classes of C'.
    pub shape2: Shape,
    /// The joint F_ExCom∆ZK sizes.
    pub excom: ExComParams,
    /// `E` and `E'` as Bob chose them (what a store records).
    pub specs: (ProbeSpec, ProbeSpec),
    /// Bob's forms of C and C' (compiled by [`Setup::evaluated`]).
    evaluated: OnceLock<Evaluated>,
}

/// What Bob evaluates: the forms of C and C' whose inputs are the wires
/// of `E·y¹` and `E'·d¹` (`circuits::main_circuit_evaluated`,
/// `circuits::recovery_circuit_evaluated`: the same AND gates in the same
/// order, so Alice's tables serve them), and the XOR networks of `E` and
/// `E'` that make those wires' labels from his OT labels offline.
pub struct Evaluated {
    /// Plan of C with `E·y¹` as inputs (`x`, `E·y¹`, `y²`).
    pub plan: GarblePlan,
    /// Plan of C' with `E'·d¹` as inputs (`x`, `E'·d¹`, `D`, `d²`).
    pub plan2: GarblePlan,
    /// The network of `E·y¹`, as C has it.
    pub net: XorNet,
    /// The network of `E'·d¹`, as C' has it.
    pub net2: XorNet,
}

/// What the parties agreed before setup.
#[derive(Clone)]
pub struct Agreed {
    /// The function.
    pub f: Arc<Circuit>,
    /// Alice's input positions.
    pub alice: Vec<usize>,
    /// Bob's input positions.
    pub bob: Vec<usize>,
    /// `N`.
    pub executions: usize,
    /// `s`.
    pub s: u32,
    /// Parameters by the lemmas (computed from `N` and `s`).
    pub params: LrParams,
}

impl Agreed {
    /// Parameters for `N` executions at `s` (fewest circuits for C and C').
    pub fn new(
        f: Arc<Circuit>,
        alice: Vec<usize>,
        bob: Vec<usize>,
        executions: usize,
        s: u32,
    ) -> Result<Self> {
        let search = Choice::Search(Objective::Circuits, None);
        let params = LrParams::new(executions as u64, s, search, search)?;
        Self::with_params(f, alice, bob, params)
    }

    /// With parameters computed at an `s` below the minimum: statistical
    /// tests only (detection rates need small `M`).
    #[cfg(any(test, feature = "adversary"))]
    pub fn insecure_for_tests(
        f: Arc<Circuit>,
        alice: Vec<usize>,
        bob: Vec<usize>,
        executions: usize,
        s: u32,
    ) -> Result<Self> {
        let search = Choice::Search(Objective::Circuits, None);
        let params = LrParams::any_s(executions as u64, s, search, search)?;
        Self::with_params(f, alice, bob, params)
    }

    fn with_params(
        f: Arc<Circuit>,
        alice: Vec<usize>,
        bob: Vec<usize>,
        params: LrParams,
    ) -> Result<Self> {
        if alice.is_empty() || bob.is_empty() {
            return Err(Error::config(
                "lindell-riva needs inputs from both Alice and Bob",
            ));
        }
        Ok(Agreed {
            f,
            alice,
            bob,
            executions: params.executions as usize,
            s: params.s,
            params,
        })
    }
}

impl Setup {
    /// Bob chooses E (|y| rows) and E' (|D| rows), sends their specs, and
    /// builds the setup.
    pub fn bob_choose(
        ch: &mut Channel,
        a: &Agreed,
        prg: &mut brickyard_core::prg::Prg,
        cheat: Cheat,
    ) -> Result<Setup> {
        let mut spec = ProbeSpec::choose(a.bob.len(), a.s, prg)?;
        if cheat == Cheat::ShortProbeMatrix {
            spec.blocks[0].points.pop();
            ch.send_msg(&spec)?;
            ch.send_msg(&ProbeSpec::choose(D_BITS, a.s, prg)?)?;
            ch.flush()?;
            return Err(Error::config("short probe matrix sent (cheat)"));
        }
        let spec2 = ProbeSpec::choose(D_BITS, a.s, prg)?;
        ch.send_msg(&spec)?;
        ch.send_msg(&spec2)?;
        ch.flush()?;
        Self::build(a, &spec, &spec2)
    }

    /// Alice receives E and E' and verifies both are `s`-probe-resistant
    /// (`probe-resistance`).
    pub fn alice_receive(ch: &mut Channel, a: &Agreed) -> Result<Setup> {
        let spec: ProbeSpec = ch.recv_msg()?;
        let spec2: ProbeSpec = ch.recv_msg()?;
        Self::build(a, &spec, &spec2)
    }

    fn build(a: &Agreed, spec: &ProbeSpec, spec2: &ProbeSpec) -> Result<Setup> {
        spec.verify(a.bob.len(), a.s)?;
        spec2.verify(D_BITS, a.s)?;
        let e = spec.build()?;
        let e2 = spec2.build()?;
        let c = circuits::main_circuit(&a.f, &a.alice, &a.bob, &e)?;
        let c2 = circuits::recovery_circuit(a.alice.len(), &e2)?;
        let plan = GarblePlan::new(&c)?;
        let plan2 = GarblePlan::new(&c2)?;
        let shape = Shape {
            x: a.alice.len(),
            ot: e.cols(),
            public: a.bob.len(),
        };
        let shape2 = Shape {
            x: a.alice.len(),
            ot: e2.cols(),
            public: 2 * D_BITS,
        };
        let p = &a.params;
        let n = p.executions as usize;
        let msg_bytes = a.alice.len().div_ceil(8);
        let excom = ExComParams::any_s(a.s, msg_bytes, p.main.m as usize, n, p.main.b as usize)?
            .with_second(p.recovery.m as usize, p.recovery.b as usize)?;
        Ok(Setup {
            s: a.s,
            params: a.params.clone(),
            f: a.f.clone(),
            alice: a.alice.clone(),
            bob: a.bob.clone(),
            e,
            e2,
            plan,
            plan2,
            shape,
            shape2,
            excom,
            specs: (spec.clone(), spec2.clone()),
            evaluated: OnceLock::new(),
        })
    }

    /// Bob's forms of C and C', compiled on first use (Alice never needs
    /// them; Bob asks in setup, so that no later phase pays for them).
    pub fn evaluated(&self) -> Result<&Evaluated> {
        if let Some(e) = self.evaluated.get() {
            return Ok(e);
        }
        let c = circuits::main_circuit_evaluated(&self.f, &self.alice, &self.bob, &self.e)?;
        let c2 = circuits::recovery_circuit_evaluated(self.alice.len(), &self.e2)?;
        let ev = Evaluated {
            plan: GarblePlan::new(&c)?,
            plan2: GarblePlan::new(&c2)?,
            net: XorNet::new(&self.e),
            net2: XorNet::new(&self.e2),
        };
        if ev.plan.table_blocks() != self.plan.table_blocks()
            || ev.plan2.table_blocks() != self.plan2.table_blocks()
            || ev.net.rows() != self.shape.public
            || ev.net2.rows() != D_BITS
        {
            return Err(Error::config(
                "lindell-riva: Bob's forms of C and C' differ from Alice's",
            ));
        }
        Ok(self.evaluated.get_or_init(|| ev))
    }

    /// The setup a store recorded, for the agreed function and `s`: the
    /// parameters are recomputed from the recorded `N` by the lemmas and
    /// `E`, `E'` are verified again.
    pub fn from_record(a: &Agreed, rec: &record::SetupRecord) -> Result<Setup> {
        if rec.s != a.s {
            return Err(Error::config(format!(
                "lindell-riva: the store was made at s = {}, this run asks s = {}",
                rec.s, a.s
            )));
        }
        let made = Agreed::new(
            a.f.clone(),
            a.alice.clone(),
            a.bob.clone(),
            rec.executions as usize,
            rec.s,
        )?;
        Self::build(&made, &rec.e, &rec.e2)
    }

    /// What a store records of this setup.
    pub fn record(&self) -> record::SetupRecord {
        record::SetupRecord {
            executions: self.params.executions,
            s: self.s,
            e: self.specs.0.clone(),
            e2: self.specs.1.clone(),
        }
    }

    /// `N`.
    pub fn buckets(&self) -> usize {
        self.params.executions as usize
    }
    /// `B`.
    pub fn b(&self) -> usize {
        self.params.main.b as usize
    }
    /// `B'`.
    pub fn b2(&self) -> usize {
        self.params.recovery.b as usize
    }
    /// `M`.
    pub fn m(&self) -> usize {
        self.params.main.m as usize
    }
    /// `M + M'`.
    pub fn total(&self) -> usize {
        self.excom.all_total()
    }
    /// Plan and shape of bundle `j` (C for `j < M`, else C').
    pub fn of(&self, j: usize) -> (&GarblePlan, Shape) {
        if j < self.m() {
            (&self.plan, self.shape)
        } else {
            (&self.plan2, self.shape2)
        }
    }
    /// Random OTs per bucket: `|y¹| + |d¹|`.
    pub fn ots_per_bucket(&self) -> usize {
        self.shape.ot + self.shape2.ot
    }
    /// Output bits of C.
    pub fn outputs(&self) -> usize {
        self.plan.output_wires().len()
    }
}

/// `H(D)` (random oracle, BLAKE3 derive-key).
pub(crate) fn hash_d(d: brickyard_core::Block) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key("brickyard lindell-riva H(D) v1");
    h.update(&d.to_bytes());
    *h.finalize().as_bytes()
}

#[cfg(all(test, feature = "adversary"))]
mod cheat_tests;
#[cfg(test)]
mod tests;
