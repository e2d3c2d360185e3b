//! Bob's cut-and-choose selection (Fig. A.2, "The cut-and-choose
//! mechanism"): `σ ∈ {0,1}^M` with exactly `NB` ones (the evaluated
//! circuits) and a seed `seed_π` whose PRF output maps the `i`-th evaluated
//! circuit to a bucket, exactly `B` per bucket. Bob commits to both before
//! Alice commits to anything, and opens them afterwards.

use super::hashcom::{commit, Commitment, Opening, Role};
use super::ExComParams;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Error, Result};
use zeroize::Zeroize;

/// Check name: Bob's selection does not open its commitment or has the wrong shape.
pub const CHECK_SELECTION: &str = "cc-decommit";

/// σ and seed_π, with the commitment randomness.
#[derive(Clone, Debug, Zeroize)]
#[zeroize(drop)]
pub struct Selection {
    sigma: Vec<bool>,
    seed_pi: [u8; 16],
    r: Opening,
}

impl Selection {
    /// A uniformly random σ (Fisher–Yates, unbiased) and a random seed_π.
    pub fn random(p: &ExComParams, prg: &mut Prg) -> Self {
        let mut idx: Vec<usize> = (0..p.total).collect();
        prg.shuffle(&mut idx);
        let mut sigma = vec![false; p.total];
        for &j in &idx[..p.evaluated()] {
            sigma[j] = true;
        }
        let mut seed_pi = [0u8; 16];
        let mut r = [0u8; 16];
        prg.fill_bytes(&mut seed_pi);
        prg.fill_bytes(&mut r);
        Selection { sigma, seed_pi, r }
    }

    fn encoded(&self) -> Vec<u8> {
        let mut v = super::bits_to_bytes(&self.sigma);
        v.extend_from_slice(&self.seed_pi);
        v
    }

    /// `ExtractCom(σ ‖ seed_π)`.
    pub fn commitment(&self) -> Commitment {
        commit(Role::Selection, &self.encoded(), &self.r)
    }

    /// The opening as sent: σ bytes, seed_π, r.
    pub fn opening_bytes(&self) -> Vec<u8> {
        let mut v = self.encoded();
        v.extend_from_slice(&self.r);
        v
    }

    /// Alice's side: parses and checks an opening against `c`.
    pub fn from_opening(p: &ExComParams, bytes: &[u8], c: &Commitment) -> Result<Self> {
        let sb = p.total.div_ceil(8);
        if bytes.len() != sb + 32 {
            return Err(Error::malformed("selection opening of the wrong length"));
        }
        let sigma = super::bytes_to_bits(&bytes[..sb], p.total)?;
        let mut seed_pi = [0u8; 16];
        let mut r = [0u8; 16];
        seed_pi.copy_from_slice(&bytes[sb..sb + 16]);
        r.copy_from_slice(&bytes[sb + 16..]);
        let s = Selection { sigma, seed_pi, r };
        if s.commitment() != *c {
            return Err(Error::Cheating {
                check: CHECK_SELECTION,
            });
        }
        if s.sigma.iter().filter(|&&b| b).count() != p.evaluated() {
            return Err(Error::Cheating {
                check: CHECK_SELECTION,
            });
        }
        Ok(s)
    }

    /// The buckets `B_1..B_N` (members ascending) and the checked set `J`.
    pub fn buckets(&self, p: &ExComParams) -> (Vec<Vec<usize>>, Vec<usize>) {
        let mut perm: Vec<usize> = (0..p.evaluated()).collect();
        Prg::from_seed(Block::from_bytes(self.seed_pi)).shuffle(&mut perm);
        let mut buckets = vec![Vec::with_capacity(p.bucket_size); p.buckets];
        let mut checked = Vec::with_capacity(p.total - p.evaluated());
        let mut i = 0;
        for (j, &eval) in self.sigma.iter().enumerate() {
            if eval {
                buckets[perm[i] / p.bucket_size].push(j);
                i += 1;
            } else {
                checked.push(j);
            }
        }
        (buckets, checked)
    }

    /// Test hook: a chosen σ (any weight) with a random seed_π.
    #[cfg(test)]
    pub(crate) fn with_sigma(sigma: Vec<bool>, prg: &mut Prg) -> Self {
        let mut seed_pi = [0u8; 16];
        let mut r = [0u8; 16];
        prg.fill_bytes(&mut seed_pi);
        prg.fill_bytes(&mut r);
        Selection { sigma, seed_pi, r }
    }

    /// Test/adversary hook: a copy whose opening no longer matches.
    #[cfg(feature = "adversary")]
    pub(crate) fn tampered(&self) -> Self {
        let mut s = self.clone();
        s.seed_pi[0] ^= 1;
        s
    }
}
