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
}

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
    ];

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

    #[cfg(feature = "adversary")]
    fn is(&self, c: Cheat) -> bool {
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
    }

    /// `chosen` = O⁰ (q) | Δ | r⁰ (n + s).
    #[cfg(feature = "adversary")]
    pub(crate) fn corrupt_commitments(&self, chosen: &mut [Block], q: usize, delta: Block) {
        let rots = chosen.len() - q - 1 - super::params::S as usize;
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
    }

    /// The item whose set Alice alters under `which` (for items produced
    /// on demand rather than listed), if she follows it.
    #[cfg(feature = "adversary")]
    pub(crate) fn set_target(&self, which: Cheat, n: usize) -> Option<usize> {
        (self.is(which) && n > 0).then(|| self.at(n))
    }

    /// Alters one set Alice opens (she then opens a different XOR than Bob
    /// verifies against).
    #[cfg(feature = "adversary")]
    pub(crate) fn corrupt_sets(&self, which: Cheat, sets: &mut [Vec<usize>], other: usize) {
        if self.is(which) && !sets.is_empty() {
            let i = self.at(sets.len());
            sets[i].push(other);
        }
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
