//! Named deviations (cargo feature `adversary`, never in default builds),
//! each injected at the step it attacks, so tests can see the named check
//! catch it at the analysed rate.

/// What a malicious party does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cheat {
    /// Bob takes w + 1 seeds in Setup and answers with a guessed K.
    /// Caught by `ihash-setup-key` (always, up to a 2^-128 guess).
    ReceiverExtraSeed,
    /// Alice corrupts the Shamir share at `position`. Caught by
    /// `ihash-setup-shares` iff Bob did not watch the position
    /// (probability (n − w)/n).
    SenderBadShare {
        /// Code position.
        position: usize,
    },
    /// Alice XORs `delta` ≠ 0 into the parity correction of code position
    /// `position` ≥ ℓ for batch message `message` (< ν + ξ) and answers
    /// the check honestly. Caught by `ihash-consistency` iff the position
    /// is watched and some check coefficient of the message is nonzero:
    /// (w/n)(1 − 2^-σξ) for a hashed message, w/n for a mask.
    SenderBadCorrection {
        /// Code position (parity).
        position: usize,
        /// Message index in the batch.
        message: usize,
        /// The error.
        delta: u8,
    },
    /// Alice XORs `delta` ≠ 0 into symbol `symbol` of check answer `t`.
    /// Caught by `ihash-consistency` unless W falls inside the ≤ ℓ − 1
    /// zeros of Encode(e): probability ≥ 1 − C(ℓ−1, w)/C(n, w).
    SenderBadAnswer {
        /// Check index (< ξ).
        t: usize,
        /// Symbol index (< ℓ).
        symbol: usize,
        /// The error.
        delta: u8,
    },
    /// Alice sends a wrong image for the seed at `position` (setups with
    /// seed images). Caught by the images' check iff Bob watches the
    /// position (probability w/n).
    SenderBadImage {
        /// Code position.
        position: usize,
    },
}
