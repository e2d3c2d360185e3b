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
    /// alice: one permutation seed H(Δ, i) does not match its D_i (when
    /// Step 5b runs she then has no witness and proves with a false one).
    BadPermSeed,
    /// alice: proves Step 5b with a witness whose Δ is off in one bit.
    BadDeltaProof,
    /// alice: proves Step 5b over a statement other than the one the
    /// transcript gives (one byte of ⟨Δ⟩'s public shifts changed): the
    /// statement digests differ.
    MisreportStatement,
    /// alice: one parity correction of the label i-hash batch is wrong.
    MalformedIhash,
    /// alice: one chosen output-label i-hash is of a wrong label.
    BadOutputIhash,
    /// alice: one of the two OT messages of one of Bob's input shares is
    /// a wrong label (selective failure on that share's bit).
    SelectiveOt,
    /// alice: every gate of one bucket outputs a label off by a random
    /// label (Bob's J rigged, so that the whole bucket is unchecked: the
    /// 2^-s event the cut-and-choose bounds). Bob finds no valid label.
    FaultyBucket,
    /// alice: one row (T_G or T_E) of one *checked* gate is corrupted (Bob's
    /// J rigged, known to Alice in advance): Lemma 5.3's case with equality,
    /// caught with probability exactly 1/2.
    CheckedRow,
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
        ("alice:bad-delta-proof", Cheat::BadDeltaProof, "Alice proves Step 5b with a Δ off in one bit (she has no witness)"),
        ("alice:misreport-5b-statement", Cheat::MisreportStatement, "Alice proves Step 5b over a statement other than the transcript's (one byte of ⟨Δ⟩'s shifts changed)"),
        ("alice:malformed-ihash", Cheat::MalformedIhash, "one parity correction of the label i-hashes is wrong"),
        ("alice:bad-output-ihash", Cheat::BadOutputIhash, "one garbled gate's output-label i-hash is of a wrong label"),
        ("alice:selective-ot", Cheat::SelectiveOt, "one OT message of one of Bob's input shares is wrong"),
        ("alice:faulty-bucket", Cheat::FaultyBucket, "every gate of one bucket gives an invalid label, Bob's J rigged so none is checked (bucket-empty)"),
        ("alice:checked-row", Cheat::CheckedRow, "one row of one checked gate is corrupted, Bob's J rigged (caught with probability 1/2)"),
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

    /// Whether it is Alice's but needs Bob's cut-and-choose J rigged (known
    /// to Alice before she garbles): Bob is given the strategy too and
    /// uses [`Cheats::rigged_j`] instead of a random J.
    pub fn rigs_bob(self) -> bool {
        matches!(
            self,
            Cheat::TwoValidLabels | Cheat::FaultyBucket | Cheat::CheckedRow
        )
    }
}

/// The strategy a party follows (always none without `adversary`).
#[derive(Clone, Debug, Default)]
pub struct Cheats {
    #[cfg(feature = "adversary")]
    cheat: Option<Cheat>,
    #[cfg(feature = "adversary")]
    target: u64,
    #[cfg(feature = "adversary")]
    j: brickyard_core::Block,
    /// Test-only: Setup skips Step 5b ([`Cheats::without_step_5b`]).
    #[cfg(feature = "adversary")]
    skip_5b: bool,
}

impl Cheats {
    /// Follows `cheat` on a random target.
    #[cfg(feature = "adversary")]
    pub fn new(cheat: Cheat) -> Self {
        Cheats {
            cheat: Some(cheat),
            target: brickyard_core::prg::Prg::new().random_u64(),
            j: crate::protocol::party::RIGGED_J,
            skip_5b: false,
        }
    }

    /// TEST-ONLY (feature `adversary`, which default builds, the CLI's
    /// release binary and the Python wheel never enable): this party's
    /// Setup skips Step 5b's proof, which costs seconds, so that the many
    /// protocol tests that are not about Step 5b fit CI's budget. Both
    /// parties must set it (otherwise the one that proves or verifies waits
    /// for a peer that has moved on, and the run fails). Without Step 5b
    /// the protocol is NOT secure against a malicious Alice on the
    /// Δ-extraction path. Without this call (every `Cheats::default()`,
    /// i.e. every run through the registry, the facade and Python) Setup
    /// always runs it.
    #[cfg(feature = "adversary")]
    pub fn without_step_5b(mut self) -> Self {
        self.skip_5b = true;
        self
    }

    /// Rigs J to `j` (default [`RIGGED_J`](crate::protocol::party::RIGGED_J));
    /// the statistical tests draw a fresh one per run so that Bob's
    /// challenges (a, b) stay uniform while Alice knows the selection.
    #[cfg(feature = "adversary")]
    pub fn with_j(mut self, j: brickyard_core::Block) -> Self {
        self.j = j;
        self
    }

    /// The J Bob uses when the strategy rigs it ([`Cheat::rigs_bob`]);
    /// `None` (a random J) otherwise and always without `adversary`.
    pub fn rigged_j(&self) -> Option<brickyard_core::Block> {
        #[cfg(feature = "adversary")]
        {
            self.cheat.filter(|c| c.rigs_bob()).map(|_| self.j)
        }
        #[cfg(not(feature = "adversary"))]
        {
            None
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

    /// Whether Setup runs Step 5b: always, except under the test-only
    /// [`Cheats::without_step_5b`] of an `adversary` build.
    pub fn runs_step_5b(&self) -> bool {
        #[cfg(feature = "adversary")]
        {
            !self.skip_5b
        }
        #[cfg(not(feature = "adversary"))]
        {
            true
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

/// Alice's faults that need the rigged selection (Generate, Step 2(c),
/// after garbling and before the output labels are i-hashed): under
/// [`Cheat::TwoValidLabels`] the first gate of the first bucket computes
/// NAND (that bucket yields w and w ⊕ Δ); under [`Cheat::FaultyBucket`]
/// every gate of the first bucket has its output label moved by a random
/// label (its i-hash is of the moved label, evaluation gives the other);
/// under [`Cheat::CheckedRow`] one table row of one checked gate is
/// corrupted.
pub(crate) fn rig_gates<const L: usize>(
    cheats: &Cheats,
    sz: &crate::protocol::generate::Sizes,
    out0: &mut [brickyard_garble::wide::Label<L>],
    tables: &mut [brickyard_garble::wide::Label<L>],
    delta: &brickyard_garble::wide::Label<L>,
    prg: &mut brickyard_core::prg::Prg,
) {
    use brickyard_core::Block;
    use brickyard_garble::wide;
    let Some(j) = cheats.rigged_j() else {
        return;
    };
    let asg = crate::protocol::check::assign(j, sz);
    let first = &asg.bucketed[..sz.bucket.min(asg.bucketed.len())];
    if cheats.is(Cheat::TwoValidLabels) {
        if let Some(&g) = first.first() {
            out0[g] = wide::xor(&out0[g], delta);
        }
    }
    if cheats.is(Cheat::FaultyBucket) {
        for &g in first {
            let mut r: wide::Label<L> = std::array::from_fn(|_| prg.random_block());
            r[0] = Block(r[0].0 | 2);
            out0[g] = wide::xor(&out0[g], &r);
        }
    }
    if cheats.is(Cheat::CheckedRow) && !asg.checked.is_empty() {
        let k = cheats.at(2 * asg.checked.len());
        let (g, _, _) = asg.checked[k / 2];
        tables[2 * g + k % 2][0] ^= Block(prg.random_block().0 | 1);
    }
}
