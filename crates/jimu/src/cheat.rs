//! Named cheating strategies (cargo feature `adversary` only; without it
//! [`Cheats::is`] is constant `false`, so no code path can deviate from
//! the protocol). The honest party must abort with `Cheating { check }`
//! naming the check that catches the cheat, or output the correct result.

/// A cheating strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cheat {
    /// alice: one bucket gate computes NAND and its soldering is fixed up,
    /// so the bucket yields two valid labels on some inputs: Bob extracts
    /// Δ* and outputs f(x, y), never aborts.
    TwoValidLabels,
    /// alice: one garbled gate computes NAND (its output i-hash is of the
    /// NAND gate's label).
    NandGate,
    /// alice: one row (T_G or T_E) of one garbled gate is corrupted.
    CorruptRow,
    /// alice: one label soldering δ is off by a random label.
    BadSolderLabel,
    /// alice: one ρ soldering is off in one symbol.
    BadSolderRho,
    /// alice: one of her input labels is neither of the wire's labels.
    WrongInputLabel,
    /// alice: one output wire's ρ^o is flipped in one symbol (flipping
    /// Bob's output bit if accepted).
    WrongOutputRho,
    /// alice: one permutation seed H(Δ, i) does not match its D_i.
    BadPermSeed,
    /// alice: one parity correction of the label i-hash batch is wrong.
    MalformedIhash,
    /// alice: one chosen output-label i-hash is of a wrong label.
    BadOutputIhash,
    /// alice: one of the two OT messages of one of Bob's input shares is
    /// a wrong label (selective failure on that share's bit).
    SelectiveOt,
    /// bob: opens a J other than the committed one.
    BadJOpen,
    /// bob: takes w + 1 seeds in the label i-hash's w-out-of-n OT.
    WatchMore,
}

impl Cheat {
    /// Every strategy: (`role:name`, strategy, what it does).
    pub const ALL: &'static [(&'static str, Cheat, &'static str)] = &[
        ("alice:two-valid-labels", Cheat::TwoValidLabels, "a NAND bucket gate soldered to give two valid labels: Bob extracts Δ and outputs f(x, y)"),
        ("alice:nand-gate", Cheat::NandGate, "one garbled gate computes NAND"),
        ("alice:corrupt-row", Cheat::CorruptRow, "one row of one garbled gate is corrupted"),
        ("alice:bad-solder-label", Cheat::BadSolderLabel, "one label soldering is wrong"),
        ("alice:bad-solder-rho", Cheat::BadSolderRho, "one permutation-string soldering is wrong"),
        ("alice:wrong-input-label", Cheat::WrongInputLabel, "one of Alice's input labels is neither label of its wire"),
        ("alice:wrong-output-rho", Cheat::WrongOutputRho, "one output wire's ρ^o is wrong (flips the output if accepted)"),
        ("alice:bad-perm-seed", Cheat::BadPermSeed, "one permutation seed H(Δ, i) does not match its D_i"),
        ("alice:malformed-ihash", Cheat::MalformedIhash, "one parity correction of the label i-hashes is wrong"),
        ("alice:bad-output-ihash", Cheat::BadOutputIhash, "one garbled gate's output-label i-hash is of a wrong label"),
        ("alice:selective-ot", Cheat::SelectiveOt, "one OT message of one of Bob's input shares is wrong"),
        ("bob:bad-J-open", Cheat::BadJOpen, "Bob opens a cut-and-choose J other than the committed one"),
        ("bob:watch-more", Cheat::WatchMore, "Bob takes w + 1 seeds in the label i-hash setup"),
    ];

    /// Parses `alice:NAME` / `bob:NAME`.
    pub fn parse(s: &str) -> Option<Cheat> {
        Self::ALL
            .iter()
            .find(|(n, _, _)| *n == s)
            .map(|(_, c, _)| *c)
    }

    /// Whether Bob plays it (else Alice).
    pub fn is_bob(self) -> bool {
        matches!(self, Cheat::BadJOpen | Cheat::WatchMore)
    }
}

/// The strategy a party follows (always none without `adversary`).
#[derive(Clone, Debug, Default)]
pub struct Cheats {
    #[cfg(feature = "adversary")]
    cheat: Option<Cheat>,
    #[cfg(feature = "adversary")]
    target: u64,
}

impl Cheats {
    /// Follows `cheat` on a random target.
    #[cfg(feature = "adversary")]
    pub fn new(cheat: Cheat) -> Self {
        Cheats {
            cheat: Some(cheat),
            target: brickyard_core::prg::Prg::new().random_u64(),
        }
    }

    /// Whether this party follows `c` (constant `false` without
    /// `adversary`).
    #[inline(always)]
    pub fn is(&self, c: Cheat) -> bool {
        #[cfg(feature = "adversary")]
        {
            self.cheat == Some(c)
        }
        #[cfg(not(feature = "adversary"))]
        {
            let _ = c;
            false
        }
    }

    /// The random target index below `n`.
    pub fn at(&self, n: usize) -> usize {
        #[cfg(feature = "adversary")]
        {
            (self.target % n.max(1) as u64) as usize
        }
        #[cfg(not(feature = "adversary"))]
        {
            let _ = n;
            0
        }
    }
}
