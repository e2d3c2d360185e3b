//! Bob's per-bucket challenges `W_1..W_N ∈ {0,1}^s` (Fig. 3.2, "Commit to
//! Challenge", one per bucket). Each is committed before Alice commits to
//! anything and is opened only once, after Alice's differences for that
//! bucket have arrived.
//!
//! The type enforces both halves: a [`BucketChallenge`] is neither `Clone`
//! nor `Copy`, and the only way to reveal it is
//! [`super::verifier::VerifierSession::open_challenge`], which consumes the
//! [`super::verifier::DifferenceClaim`] that holds it — a claim exists only
//! once the bucket's differences were received. After the opening, the
//! claim has become an [`super::verifier::OpenedClaim`], which accepts no
//! further differences. The public prototype committed one `W` once and
//! revealed it for every bucket, so from the second bucket on the garbler
//! knew `W` before sending its differences and could prove false ones
//! (`notes/jimu-lindell-riva.md`, B3.1); here that order cannot be written.
//!
//! The honest order compiles:
//!
//! ```no_run
//! # use brickyard_lindell_riva::excom::*;
//! fn bucket(s: &VerifierSession, ch: &mut brickyard_core::Channel, c: BucketChallenge)
//!     -> brickyard_core::Result<ProvenDifferences> {
//!     let claim = s.receive_differences(ch, c)?; // differences first,
//!     let opened = s.open_challenge(ch, claim)?; // then W_j,
//!     s.verify(ch, opened)                       // then the openings.
//! }
//! ```
//!
//! Accepting differences after `W_j` was revealed does not (the challenge
//! was moved into the claim that the opening consumed):
//!
//! ```compile_fail,E0382
//! # use brickyard_lindell_riva::excom::*;
//! fn bucket(s: &VerifierSession, ch: &mut brickyard_core::Channel, c: BucketChallenge)
//!     -> brickyard_core::Result<()> {
//!     let claim = s.receive_differences(ch, c)?;
//!     let _opened = s.open_challenge(ch, claim)?;
//!     let _late = s.receive_differences(ch, c)?; // E0382: use of moved value
//!     Ok(())
//! }
//! ```
//!
//! Nor can a challenge be copied to serve two buckets:
//!
//! ```compile_fail,E0599
//! # use brickyard_lindell_riva::excom::*;
//! fn twice(c: BucketChallenge) -> (BucketChallenge, BucketChallenge) {
//!     (c.clone(), c) // E0599: no method `clone`
//! }
//! ```

use super::hashcom::{commit, Commitment, Opening, Role};
use brickyard_core::prg::Prg;
use brickyard_core::{Error, Result};
use zeroize::Zeroize;

/// Check name: a challenge opening does not match Bob's commitment.
pub const CHECK_CHALLENGE: &str = "challenge-decommit";

/// Bob's secret challenge for one bucket.
#[derive(Debug, Zeroize)]
#[zeroize(drop)]
pub struct BucketChallenge {
    bucket: usize,
    w: Vec<bool>,
    r: Opening,
}

impl BucketChallenge {
    /// A fresh random challenge for `bucket`.
    pub(crate) fn random(bucket: usize, s: u32, prg: &mut Prg) -> Self {
        let w = prg.random_bits(s as usize);
        let mut r = [0u8; 16];
        prg.fill_bytes(&mut r);
        BucketChallenge { bucket, w, r }
    }

    /// The bucket this challenge belongs to.
    pub fn bucket(&self) -> usize {
        self.bucket
    }

    /// `ExtractCom(W_j)`.
    pub fn commitment(&self) -> Commitment {
        commit(
            Role::Challenge(self.bucket as u64),
            &super::bits_to_bytes(&self.w),
            &self.r,
        )
    }

    /// Reveals `W_j`, consuming the challenge: the opening bytes and `W_j`.
    pub(crate) fn reveal(self) -> (Vec<u8>, Vec<bool>) {
        let mut v = super::bits_to_bytes(&self.w);
        v.extend_from_slice(&self.r);
        (v, self.w.clone())
    }

    /// Test hook: a chosen `W` (to model the prototype's single challenge).
    #[cfg(all(test, feature = "adversary"))]
    pub(crate) fn fixed(bucket: usize, w: Vec<bool>, prg: &mut Prg) -> Self {
        let mut r = [0u8; 16];
        prg.fill_bytes(&mut r);
        BucketChallenge { bucket, w, r }
    }

    /// Adversary hook: an opening with one bit of `W` flipped.
    #[cfg(feature = "adversary")]
    pub(crate) fn reveal_tampered(mut self) -> (Vec<u8>, Vec<bool>) {
        self.w[0] ^= true;
        self.reveal()
    }
}

/// Alice's side: parses an opening of bucket `bucket`'s challenge.
pub(crate) fn open(bucket: usize, s: u32, bytes: &[u8], c: &Commitment) -> Result<Vec<bool>> {
    let wb = (s as usize).div_ceil(8);
    if bytes.len() != wb + 16 {
        return Err(Error::malformed("challenge opening of the wrong length"));
    }
    let w = super::bytes_to_bits(&bytes[..wb], s as usize)?;
    let mut r = [0u8; 16];
    r.copy_from_slice(&bytes[wb..]);
    if commit(Role::Challenge(bucket as u64), &bytes[..wb], &r) != *c {
        return Err(Error::Cheating {
            check: CHECK_CHALLENGE,
        });
    }
    Ok(w)
}
