//! Named cheating strategies (cargo feature `adversary` only; without it
//! [`Cheats`] is empty and no code path can deviate from the protocol).
//!
//! Alice cheats on one randomly chosen item; Bob must then abort with
//! `Cheating { check }` or output the correct result.

#[cfg(feature = "adversary")]
use brickyard_core::prg::Prg;
#[cfg(feature = "adversary")]
use brickyard_core::Block;

/// A cheating strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cheat {
    /// alice: one garbled gate computes NAND (its committed output 0-key is the 1-key).
    NandGate,
    /// alice: one row of one garbled gate is corrupted.
    CorruptRow,
    /// alice: the commitment to one gate's output wire is inconsistent with the gate.
    InconsistentWire,
    /// alice: one soldering opens the XOR of the wrong pair of wires.
    BadSoldering,
    /// alice: one committed Δ-ROT string is not the one of the OT (selective-OT attack).
    SelectiveOt,
    /// alice: one committed Δ-ROT string is r⁰ ⊕ Δ (flips one input bit of Bob).
    FlipBobInput,
    /// alice: VerLeak claims a wrong lsb for one Δ-ROT string.
    LieVerLeak,
    /// alice: one of her input keys is neither of the wire's two keys.
    WrongInputKey,
    /// bob: shows wrong values r^b in the Δ-ROT check of step 10.
    WrongRotProof,
    /// alice: one authenticator's K¹ slot holds a wrong hash.
    CorruptAuthenticator,
    /// alice: every authenticator's K¹ slot accepts K⁰ ⊕ Δ' for one wrong
    /// Δ' (lsb 1), and one gate outputs its key ⊕ Δ': Bob would extract
    /// with Δ' if he confirmed it (the attack the Δ-confirmation rule stops).
    FalseDelta,
    /// alice: as [`Cheat::FalseDelta`] on a few authenticators only (about
    /// two expected among the checked): too few to make a majority.
    FalseDeltaFew,
    /// alice: one of the s spare Δ-ROT strings is committed wrongly
    /// (caught by step 10's opening).
    BadSpareRot,
    /// alice: the committed Δ has lsb 0 (caught by VerLeak's lsb(Δ) = 1).
    DeltaLsbZero,
    /// alice, knowing Bob's challenges in advance: every gate of every input
    /// bucket has a corrupted row and the head of every AND bucket computes
    /// NAND, none of them checked. Bob recovers Δ and finds no majority in
    /// the input bucket of Alice's first input: Theorem 2's bad event (an
    /// input bucket with a bad majority), which an honest Bob's fresh
    /// challenges leave to probability 2^-s. To force it, Bob draws his
    /// cut-and-choose and bucketing seeds from a fixed public seed
    /// ([`RIGGED_CHALLENGES`]) when he is given this strategy too (the
    /// test and the CLI demo do so); he is honest otherwise.
    BadInputBuckets,
}

/// The public seed of Bob's rigged challenges under
/// [`Cheat::BadInputBuckets`].
#[cfg(feature = "adversary")]
pub const RIGGED_CHALLENGES: Block = Block(0x6272_6963_6b79_6172_6420_7269_6767_6564);

impl Cheat {
    /// Every strategy with its role and name.
    pub const ALL: &'static [(&'static str, Cheat, &'static str)] = &[
        (
            "alice:nand-gate",
            Cheat::NandGate,
            "one garbled gate computes NAND",
        ),
        (
            "alice:corrupt-row",
            Cheat::CorruptRow,
            "one ciphertext of one gate is corrupted",
        ),
        (
            "alice:inconsistent-wire",
            Cheat::InconsistentWire,
            "one output-wire commitment disagrees with its gate",
        ),
        (
            "alice:bad-soldering",
            Cheat::BadSoldering,
            "one soldering opens the wrong pair of wires",
        ),
        (
            "alice:selective-ot",
            Cheat::SelectiveOt,
            "one committed Δ-ROT string is not the OT's",
        ),
        (
            "alice:flip-bob-input",
            Cheat::FlipBobInput,
            "one committed Δ-ROT string is r⁰ ⊕ Δ",
        ),
        (
            "alice:lie-verleak",
            Cheat::LieVerLeak,
            "VerLeak claims a wrong lsb",
        ),
        (
            "alice:wrong-input-key",
            Cheat::WrongInputKey,
            "one of Alice's input keys is invalid",
        ),
        (
            "bob:wrong-rot-proof",
            Cheat::WrongRotProof,
            "Bob shows wrong r^b in the Δ-ROT check",
        ),
        (
            "alice:corrupt-authenticator",
            Cheat::CorruptAuthenticator,
            "one authenticator's K¹ slot is wrong",
        ),
        (
            "alice:false-delta",
            Cheat::FalseDelta,
            "every authenticator and one gate point Bob at a wrong Δ'",
        ),
        (
            "alice:false-delta-few",
            Cheat::FalseDeltaFew,
            "a few authenticators and one gate point Bob at a wrong Δ'",
        ),
        (
            "alice:bad-spare-rot",
            Cheat::BadSpareRot,
            "one spare Δ-ROT string of step 10 is committed wrongly",
        ),
        (
            "alice:delta-lsb-zero",
            Cheat::DeltaLsbZero,
            "the committed Δ has lsb 0",
        ),
        (
            "alice:bad-input-buckets",
            Cheat::BadInputBuckets,
            "knowing Bob's (rigged) challenges, every input bucket is bad and Δ leaks",
        ),
    ];

    /// Whether the peer (Bob) must be given the strategy too: it rigs his
    /// challenges (see [`Cheat::BadInputBuckets`]).
    pub fn rigs_bob(self) -> bool {
        self == Cheat::BadInputBuckets
    }

    /// Parses `alice:NAME` / `bob:NAME`.
    pub fn parse(s: &str) -> Option<Cheat> {
        Self::ALL
            .iter()
            .find(|(n, _, _)| *n == s)
            .map(|(_, c, _)| *c)
    }
}

/// The strategy a party follows (always none without `adversary`).
#[derive(Clone, Debug, Default)]
pub struct Cheats {
    #[cfg(feature = "adversary")]
    pub(crate) cheat: Option<Cheat>,
    #[cfg(feature = "adversary")]
    pub(crate) target: usize,
}

impl Cheats {
    /// Follows `cheat` on a random target.
    #[cfg(feature = "adversary")]
    pub fn new(cheat: Cheat) -> Self {
        Cheats {
            cheat: Some(cheat),
            target: Prg::new().random_u64() as usize,
        }
    }

    /// Whether this party follows `c`.
    #[cfg(feature = "adversary")]
    pub(crate) fn is(&self, c: Cheat) -> bool {
        self.cheat == Some(c)
    }

    /// Target index below `n`.
    #[cfg(feature = "adversary")]
    fn at(&self, n: usize) -> usize {
        self.target % n.max(1)
    }

    #[cfg(feature = "adversary")]
    pub(crate) fn corrupt_components(
        &self,
        o0: &mut [Block],
        tables: &mut [Block],
        _auths: &mut [Block],
        delta: Block,
    ) {
        let j = self.at(o0.len());
        if self.is(Cheat::NandGate) {
            o0[j] ^= delta;
        }
        if self.is(Cheat::CorruptRow) {
            tables[2 * j] ^= Block(0x5a5a_0000_0000_0000_0000_0000_0000_0006);
        }
        if self.is(Cheat::FalseDelta) || self.is(Cheat::FalseDeltaFew) {
            o0[j] ^= self.false_delta(delta);
        }
    }

    /// [`Cheat::BadInputBuckets`], Alice: predicts Bob's rigged
    /// challenges and corrupts what they leave unchecked (before the
    /// tables and commitments are sent).
    #[cfg(feature = "adversary")]
    pub(crate) fn corrupt_input_buckets(
        &self,
        plan: &super::generate::Plan,
        o0: &mut [Block],
        tables: &mut [Block],
        delta: Block,
    ) {
        if !self.is(Cheat::BadInputBuckets) {
            return;
        }
        let mut prg = Prg::from_seed(RIGGED_CHALLENGES);
        let (_, _, surv) = super::cut_and_choose::draw(&mut prg, plan);
        let (heads, input) = super::bucketing::predicted(prg.random_block(), plan, surv);
        for j in heads {
            o0[j] ^= delta;
        }
        // One ciphertext off changes two of the four key pairs that share
        // a left key: no three of the four outputs agree, so no vote.
        for j in input {
            tables[2 * j] ^= Block(0x0bad << 80);
        }
    }

    /// [`Cheat::BadInputBuckets`], Bob: the PRG his challenges come from.
    #[cfg(feature = "adversary")]
    pub(crate) fn rigged_challenges(&self) -> Option<Prg> {
        self.is(Cheat::BadInputBuckets)
            .then(|| Prg::from_seed(RIGGED_CHALLENGES))
    }

    /// The wrong Δ' of [`Cheat::FalseDelta`]: lsb 1 like Δ, so a bucket's
    /// two candidates differing by it look like two valid keys.
    #[cfg(feature = "adversary")]
    fn false_delta(&self, delta: Block) -> Block {
        delta ^ Block(((self.target as u128 | 1) << 1) | (1 << 90))
    }

    /// Alters the authenticator tables `out` (2 per key) of the keys
    /// `k0` with ids from `first`, after they were made with Δ.
    #[cfg(feature = "adversary")]
    pub(crate) fn corrupt_auths(
        &self,
        k0: &[Block],
        first: usize,
        total: usize,
        delta: Block,
        out: &mut [Block],
    ) {
        let remake = |j: usize, out: &mut [Block]| {
            let mut t = [Block::ZERO; 2];
            let mut tw = [Block::ZERO; 2];
            let wrong = self.false_delta(delta);
            super::component::make_auths_into(
                &k0[j..j + 1],
                wrong,
                (first + j) as u64,
                &mut t,
                &mut tw,
            );
            out[2 * j..2 * j + 2].copy_from_slice(&t);
        };
        if self.is(Cheat::CorruptAuthenticator) {
            let t = self.at(total);
            if (first..first + k0.len()).contains(&t) {
                let j = t - first;
                let slot = 2 * j + (!k0[j].lsb()) as usize;
                out[slot] ^= Block(0x3c << 40);
            }
        }
        if self.is(Cheat::FalseDelta) {
            (0..k0.len()).for_each(|j| remake(j, out));
        }
        if self.is(Cheat::FalseDeltaFew) {
            // One in 64 authenticators, a random residue: with p_a ≤ 1/2,
            // about total/128 or fewer are checked.
            let r = self.target % 64;
            (0..k0.len())
                .filter(|j| (first + j) % 64 == r)
                .for_each(|j| remake(j, out));
        }
    }

    /// `chosen` = O⁰ (q) | Δ | r⁰ (n + spare), spare = s_c.
    #[cfg(feature = "adversary")]
    pub(crate) fn corrupt_commitments(
        &self,
        chosen: &mut [Block],
        q: usize,
        spare: usize,
        delta: Block,
    ) {
        let rots = chosen.len() - q - 1 - spare;
        if self.is(Cheat::InconsistentWire) {
            chosen[self.at(q)] ^= Block(0x77 << 8);
        }
        // The first Δ-ROT: the one Bob's first input bit will use.
        if self.is(Cheat::SelectiveOt) && rots > 0 {
            chosen[q + 1] ^= Block(0x1234 << 16);
        }
        if self.is(Cheat::FlipBobInput) && rots > 0 {
            chosen[q + 1] ^= delta;
        }
        // The spare Δ-ROTs are the last s_c strings.
        if self.is(Cheat::BadSpareRot) {
            chosen[q + 1 + rots + self.at(spare)] ^= Block(0x42 << 24);
        }
        if self.is(Cheat::DeltaLsbZero) {
            chosen[q] ^= Block(1);
        }
    }

    /// The item whose set Alice alters under `which` (for items produced
    /// on demand rather than listed), if she follows it.
    #[cfg(feature = "adversary")]
    pub(crate) fn set_target(&self, which: Cheat, n: usize) -> Option<usize> {
        (self.is(which) && n > 0).then(|| self.at(n))
    }

    #[cfg(feature = "adversary")]
    pub(crate) fn corrupt_online(
        &self,
        keys: &mut [Block],
        _sets: &mut [Vec<usize>],
        _l: &super::material::Layout,
        _d: Block,
    ) {
        if self.is(Cheat::WrongInputKey) && !keys.is_empty() {
            let i = self.at(keys.len());
            keys[i] ^= Block(0x99 << 32);
        }
    }

    #[cfg(feature = "adversary")]
    pub(crate) fn bob_wrong_rot_proof(&self, shown: &mut [Block]) {
        if self.is(Cheat::WrongRotProof) {
            let i = self.at(shown.len());
            shown[i] ^= Block(1 << 70);
        }
    }
}
