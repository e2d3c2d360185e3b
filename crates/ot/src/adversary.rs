//! Named cheating strategies (cargo feature `adversary`, never in default
//! builds). Each one is a deviation a real attacker could make, injected at
//! the exact protocol step it attacks, so tests can measure that the honest
//! party's check catches it with the analysed probability and never accepts
//! a wrong value.

use brickyard_core::Block;

/// Every strategy this crate can play, by name (the CLI lists these).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cheat {
    /// KOS receiver: flips its choice bits in one column of the first 128
    /// rows and guesses that column's bit of Δ in the check. Caught with
    /// probability 1/2 per column; if not caught it learned that bit.
    KosInconsistentColumn,
    /// KOS receiver: answers the check with a wrong `x̃`. Caught always
    /// (probability 1 − 2^-128 over χ… exactly 1 here: Δ ≠ 0).
    KosWrongCheckValue,
    /// TinyOT party: computes its leaky-AND message with a Δ' ≠ its MAC key
    /// Δ (inconsistent Δ). Caught per attacked triple when the honest
    /// party's `x` share is 1 (probability 1/2); bucketing hides what the
    /// abort leaks.
    InconsistentDelta,
    /// TinyOT party: adds an error to its leaky-AND message (selective
    /// failure on the peer's `x` share). Caught with probability 1/2 per
    /// attacked triple.
    LeakyAndCorrupt,
    /// TinyOT party: opens a flipped bit with a guessed MAC. Caught with
    /// probability 1 − 2^-126 (two bits of each Δ are fixed).
    ForgedMac,
    /// TinyOT party: adds an error (bit 1 clear) to the leaky-AND `G` of
    /// one triple, then, as Alice, enumerates B's candidate `G'` vectors
    /// against B's first F_EQ message and answers with the one that
    /// matches. Against the old deterministic digest this was never
    /// caught; against the hiding commitment it is caught exactly when
    /// the honest party's `x` share is 1 (probability 1/2).
    LeakyAndAdaptiveEquality,
    /// TinyOT Alice: opens the bucketing coin toss to a different seed
    /// than she committed to. Caught always (coin-toss-commitment).
    CoinTossEquivocate,
}

impl Cheat {
    /// All strategies, in listing order.
    pub const ALL: [Cheat; 7] = [
        Cheat::KosInconsistentColumn,
        Cheat::KosWrongCheckValue,
        Cheat::InconsistentDelta,
        Cheat::LeakyAndCorrupt,
        Cheat::ForgedMac,
        Cheat::LeakyAndAdaptiveEquality,
        Cheat::CoinTossEquivocate,
    ];

    /// The strategy's command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Cheat::KosInconsistentColumn => "kos-inconsistent-column",
            Cheat::KosWrongCheckValue => "kos-wrong-check-value",
            Cheat::InconsistentDelta => "inconsistent-delta",
            Cheat::LeakyAndCorrupt => "leaky-and-corrupt",
            Cheat::ForgedMac => "forged-mac",
            Cheat::LeakyAndAdaptiveEquality => "leaky-and-adaptive-equality",
            Cheat::CoinTossEquivocate => "coin-toss-equivocate",
        }
    }

    /// One line: what the cheater does and the check that catches it.
    pub fn describe(self) -> &'static str {
        match self {
            Cheat::KosInconsistentColumn => {
                "KOS receiver uses different choice bits in one column and guesses Δ_j (caught w.p. 1/2 by kos-consistency)"
            }
            Cheat::KosWrongCheckValue => {
                "KOS receiver answers the challenge with a wrong x (caught by kos-consistency)"
            }
            Cheat::InconsistentDelta => {
                "TinyOT party uses a different Δ in its leaky-AND message (caught w.p. 1/2 per triple by leaky-and-equality)"
            }
            Cheat::LeakyAndCorrupt => {
                "TinyOT party adds an error to its leaky-AND message (caught w.p. 1/2 per triple by leaky-and-equality)"
            }
            Cheat::ForgedMac => {
                "TinyOT party opens a flipped bit with a guessed MAC (caught by mac-check)"
            }
            Cheat::LeakyAndAdaptiveEquality => {
                "TinyOT party attacks a leaky AND and adapts its F_EQ answer to the peer's first message (caught w.p. 1/2 by leaky-and-equality)"
            }
            Cheat::CoinTossEquivocate => {
                "TinyOT Alice opens the bucketing coin toss to another seed (caught by coin-toss-commitment)"
            }
        }
    }

    /// Parses a name printed by [`Cheat::name`].
    pub fn parse(s: &str) -> Option<Cheat> {
        Cheat::ALL.into_iter().find(|c| c.name() == s)
    }
}

/// How a KOS receiver deviates (installed with
/// [`crate::kos::KosReceiver::set_cheat`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KosReceiverCheat {
    /// Flip the choice bits of the first 128 rows in the *last* `columns`
    /// columns (bits of Δ that no protocol fixes) and answer the check as
    /// if `Δ_j = guess` for each.
    InconsistentColumns {
        /// Number of attacked columns (each is a 1/2 gamble).
        columns: usize,
        /// The guessed value of each attacked bit of Δ.
        guess: bool,
    },
    /// Answer the check with `x̃ ⊕ 1`.
    WrongCheckValue,
}

/// The error pattern added to the first block of an attacked column.
const FLIP: Block = Block::ONES;

impl KosReceiverCheat {
    /// Applied to the `u` columns of every chunk before they are sent;
    /// only the batch's first data chunk is touched.
    pub(crate) fn corrupt_columns(self, u: &mut [Block], nb: usize, first_chunk: bool) {
        if let KosReceiverCheat::InconsistentColumns { columns, .. } = self {
            if first_chunk {
                for col in u.chunks_exact_mut(nb).rev().take(columns) {
                    col[0] ^= FLIP;
                }
            }
        }
    }

    /// Applied to the check answer: the attacked columns' `t̃^j` absorb
    /// `guess·χ_0·FLIP`, exactly what passes when the guess is right.
    pub(crate) fn adjust_reply(self, t: &mut [Block], x: &mut Block, chi: &[Block]) {
        match self {
            KosReceiverCheat::InconsistentColumns { columns, guess } => {
                let e = brickyard_core::gf128::gf_mul(chi[0], FLIP).and_bit(guess);
                for tj in t.iter_mut().rev().take(columns) {
                    *tj ^= e;
                }
            }
            KosReceiverCheat::WrongCheckValue => *x ^= Block(1),
        }
    }
}
