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
    /// With a second cut-and-choose, each part gets its own uniform σ with
    /// exactly `NB` (resp. `NB'`) ones.
    pub fn random(p: &ExComParams, prg: &mut Prg) -> Self {
        let mut sigma = vec![false; p.all_total()];
        for (first, total, b) in p.parts() {
            let mut idx: Vec<usize> = (first..first + total).collect();
            prg.shuffle(&mut idx);
            for &j in &idx[..p.buckets * b] {
                sigma[j] = true;
            }
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
        let sb = p.all_total().div_ceil(8);
        if bytes.len() != sb + 32 {
            return Err(Error::malformed("selection opening of the wrong length"));
        }
        let sigma = super::bytes_to_bits(&bytes[..sb], p.all_total())?;
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
        for (first, total, b) in p.parts() {
            let ones = s.sigma[first..first + total].iter().filter(|&&x| x).count();
            if ones != p.buckets * b {
                return Err(Error::Cheating {
                    check: CHECK_SELECTION,
                });
            }
        }
        Ok(s)
    }

    /// Bytes of an opening: σ, seed_π, r.
    pub fn opening_len(p: &ExComParams) -> usize {
        p.all_total().div_ceil(8) + 32
    }

    /// The buckets `B_1..B_N` (members ascending; with a second
    /// cut-and-choose, C's members then C''s) and the checked set `J`.
    /// One PRG from seed_π draws π for each part in turn.
    pub fn buckets(&self, p: &ExComParams) -> (Vec<Vec<usize>>, Vec<usize>) {
        let mut pi = Prg::from_seed(Block::from_bytes(self.seed_pi));
        let mut buckets = vec![Vec::with_capacity(p.members()); p.buckets];
        let mut checked = Vec::new();
        for (first, total, b) in p.parts() {
            let mut perm: Vec<usize> = (0..p.buckets * b).collect();
            pi.shuffle(&mut perm);
            let mut i = 0;
            for j in first..first + total {
                if self.sigma[j] {
                    buckets[perm[i] / b].push(j);
                    i += 1;
                } else {
                    checked.push(j);
                }
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
