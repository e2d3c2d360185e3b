//! F_ExCom∆ZK (Sec. 3, Figs. 3.1, 3.2, 3.4): Alice commits to `M`
//! messages (the circuits' input masks `m_j`); Bob chooses `N` disjoint
//! buckets of `B` and learns, for every bucket, the XOR differences of
//! consecutive members — proven in zero knowledge — and the messages outside
//! every bucket in the clear.
//!
//! Steps, each a method on the party's typestate (prover = Alice = P1,
//! verifier = Bob = P2):
//!
//! 1. Bob commits (ROM `ExtractCom`) to his selection (σ, seed_π) and to
//!    one challenge `W_j ∈ {0,1}^s` per bucket — before Alice commits.
//! 2. Alice sends `s` split commitments per message.
//! 3. Bob opens the selection; Alice checks it (`cc-decommit`) and opens
//!    every checked message by `(m_j, seed_j)`; Bob recomputes its split
//!    commitments (`excom-check-open`).
//! 4. Per bucket: Alice sends `∆_k = m_{a_k} ⊕ m_{a_{k+1}}` and
//!    `δ⁰_{k,i} = m_{a_k}⊕r_{a_k,i}⊕m_{a_{k+1}}⊕r_{a_{k+1},i}`,
//!    `δ¹_{k,i} = r_{a_k,i}⊕r_{a_{k+1},i}`; Bob checks `δ⁰⊕δ¹ = ∆`
//!    (`excom-delta-sum`), then opens `W_j` (Alice checks it,
//!    `challenge-decommit`); Alice opens side `W_{j,i}` of every member's
//!    `i`-th split commitment; Bob checks the openings (`excom-decommit`)
//!    and that each pair's opened values XOR to `δ^{W_i}` (`mask-difference`).
//!
//! A false `∆` survives step 4 only if Alice guessed every bit of `W_j`:
//! probability `2^-s` per bucket, because `W_j` is fresh, committed before
//! Alice's commitments and opened after her differences.

pub(crate) mod challenge;
#[cfg(feature = "adversary")]
mod cheat;
mod hashcom;
mod prover;
mod selection;
mod split;
mod verifier;

pub use challenge::{BucketChallenge, CHECK_CHALLENGE};
#[cfg(feature = "adversary")]
pub use cheat::{ProverCheat, VerifierCheat};
pub use hashcom::{block_input, commit, commit_block, commit_blocks, Commitment, Opening, Role};
pub use prover::{AwaitingChallenge, AwaitingCommit, BucketToken, ProverCommitted, ProverSession};
pub use selection::{Selection, CHECK_SELECTION};
pub use verifier::{
    CheckedMessage, DifferenceClaim, OpenedClaim, ProvenDifferences, VerifierAwaiting,
    VerifierSession,
};

use brickyard_core::{Error, Result};

/// Check name: a checked message does not open its split commitments.
pub const CHECK_OPEN: &str = "excom-check-open";
/// Check name: `δ⁰_i ⊕ δ¹_i ≠ ∆`.
pub const CHECK_DELTA_SUM: &str = "excom-delta-sum";
/// Check name: an opened side does not match its commitment.
pub const CHECK_DECOMMIT: &str = "excom-decommit";
/// Check name: opened sides of a pair do not XOR to the claimed `δ^{W_i}`.
pub const CHECK_DIFFERENCE: &str = "mask-difference";

/// Largest number of messages (circuits) accepted.
pub const MAX_TOTAL: usize = 1 << 20;
/// Largest message length in bytes.
pub const MAX_MSG_BYTES: usize = 1 << 16;
/// Smallest `s` accepted outside tests.
pub const MIN_S: u32 = 40;
/// Largest `s` (a challenge is a few bytes).
pub const MAX_S: u32 = 256;

/// Sizes both parties agreed on; every receive is sized from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExComParams {
    /// Statistical parameter: split commitments per message, bits per challenge.
    pub s: u32,
    /// Bytes per message.
    pub msg_bytes: usize,
    /// Messages `M`.
    pub total: usize,
    /// Buckets `N`.
    pub buckets: usize,
    /// Messages per bucket `B`.
    pub bucket_size: usize,
    /// A second cut-and-choose run jointly with the first (Fig. A.2: the
    /// masks of C and C' go through one F_ExCom∆ZK call so that Bob learns
    /// the differences across a bucket's C and C' circuits): `(M', B')`.
    /// Its messages are numbered `M..M+M'`; bucket `j` is then the union of
    /// C's bucket `j` and C''s bucket `j`.
    pub second: Option<(usize, usize)>,
}

impl ExComParams {
    /// Checked parameters (`s ≥ 40`, `N·B < M`, sizes bounded).
    pub fn new(
        s: u32,
        msg_bytes: usize,
        total: usize,
        buckets: usize,
        bucket_size: usize,
    ) -> Result<Self> {
        if s < MIN_S {
            return Err(Error::config(format!("F_ExCom∆ZK needs s >= {MIN_S}")));
        }
        Self::any_s(s, msg_bytes, total, buckets, bucket_size)
    }

    /// Without the lower bound on `s`: for the statistical tests only.
    #[cfg(any(test, feature = "adversary"))]
    pub fn insecure_for_tests(
        s: u32,
        msg_bytes: usize,
        total: usize,
        buckets: usize,
        bucket_size: usize,
    ) -> Result<Self> {
        Self::any_s(s, msg_bytes, total, buckets, bucket_size)
    }

    /// Without the lower bound on `s`, for callers that already enforced
    /// it (the protocol's `s` comes from parameters refused below 40).
    pub(crate) fn any_s(
        s: u32,
        msg_bytes: usize,
        total: usize,
        buckets: usize,
        bucket_size: usize,
    ) -> Result<Self> {
        let ok = (1..=MAX_S).contains(&s)
            && (1..=MAX_MSG_BYTES).contains(&msg_bytes)
            && total <= MAX_TOTAL
            && buckets >= 1
            && bucket_size >= 1
            && buckets
                .checked_mul(bucket_size)
                .is_some_and(|nb| nb <= total);
        if !ok {
            return Err(Error::config(format!(
                "bad F_ExCom∆ZK sizes: s={s} bytes={msg_bytes} M={total} N={buckets} B={bucket_size}"
            )));
        }
        Ok(ExComParams {
            s,
            msg_bytes,
            total,
            buckets,
            bucket_size,
            second: None,
        })
    }

    /// Adds the second cut-and-choose (`M'` messages, buckets of `B'`), run
    /// jointly with the first.
    pub fn with_second(mut self, total: usize, bucket_size: usize) -> Result<Self> {
        let ok = bucket_size >= 1
            && self
                .buckets
                .checked_mul(bucket_size)
                .is_some_and(|nb| nb <= total)
            && self
                .total
                .checked_add(total)
                .is_some_and(|t| t <= MAX_TOTAL);
        if !ok {
            return Err(Error::config(format!(
                "bad second cut-and-choose: M'={total} N={} B'={bucket_size}",
                self.buckets
            )));
        }
        self.second = Some((total, bucket_size));
        Ok(self)
    }

    /// `N·B` (of the first cut-and-choose).
    pub fn evaluated(&self) -> usize {
        self.buckets * self.bucket_size
    }

    /// All messages, `M` (+ `M'`).
    pub fn all_total(&self) -> usize {
        self.total + self.second.map_or(0, |(t, _)| t)
    }

    /// Members of one (joint) bucket, `B` (+ `B'`).
    pub fn members(&self) -> usize {
        self.bucket_size + self.second.map_or(0, |(_, b)| b)
    }

    /// The cut-and-chooses as `(first index, M, B)`.
    pub(crate) fn parts(&self) -> Vec<(usize, usize, usize)> {
        let mut v = vec![(0, self.total, self.bucket_size)];
        if let Some((t, b)) = self.second {
            v.push((self.total, t, b));
        }
        v
    }

    /// Bytes of one pair's difference message: `∆` and `s` pairs `(δ⁰, δ¹)`.
    fn pair_claim_bytes(&self) -> usize {
        (1 + 2 * self.s as usize) * self.msg_bytes
    }

    /// Bytes of one member's openings: `s` × (value, opening).
    fn member_open_bytes(&self) -> usize {
        self.s as usize * (self.msg_bytes + 16)
    }
}

/// Little-endian bit packing.
pub(crate) fn bits_to_bytes(bits: &[bool]) -> Vec<u8> {
    let mut v = vec![0u8; bits.len().div_ceil(8)];
    for (i, &b) in bits.iter().enumerate() {
        v[i / 8] |= (b as u8) << (i % 8);
    }
    v
}

/// Inverse of [`bits_to_bytes`]; nonzero padding is `Malformed`.
pub(crate) fn bytes_to_bits(bytes: &[u8], n: usize) -> Result<Vec<bool>> {
    if bytes.len() != n.div_ceil(8) {
        return Err(Error::malformed("bit vector of the wrong length"));
    }
    if !n.is_multiple_of(8) && bytes[n / 8] >> (n % 8) != 0 {
        return Err(Error::malformed("nonzero padding in bit vector"));
    }
    Ok((0..n).map(|i| bytes[i / 8] >> (i % 8) & 1 == 1).collect())
}

#[cfg(test)]
mod tests;
