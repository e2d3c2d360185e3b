//! Bob's (P2's) side of F_ExCom∆ZK. [`VerifierAwaiting::start`] commits to
//! the selection and the per-bucket challenges and hands the challenges
//! back as values; per bucket, [`VerifierSession::receive_differences`]
//! takes the bucket's [`BucketChallenge`] by value and returns a
//! [`DifferenceClaim`]; [`VerifierSession::open_challenge`] consumes the
//! claim (and with it the challenge) to reveal `W_j`, leaving an
//! [`OpenedClaim`] that can only be verified. Nothing accepts differences
//! for a bucket whose challenge was revealed.

use super::challenge::BucketChallenge;
use super::hashcom::Commitment;
use super::selection::Selection;
use super::split::{opened_commitments, SplitRandomness};
use super::{ExComParams, CHECK_DECOMMIT, CHECK_DELTA_SUM, CHECK_DIFFERENCE, CHECK_OPEN};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use zeroize::Zeroizing;

#[cfg(feature = "adversary")]
use super::cheat::VerifierCheat;

/// Bob has committed; he waits for Alice's split commitments.
pub struct VerifierAwaiting {
    p: ExComParams,
    selection: Selection,
    #[cfg(feature = "adversary")]
    cheat: VerifierCheat,
}

impl VerifierAwaiting {
    /// Bob's own cut: `checked[j]` says bundle `j` is in the checked set
    /// `J` (his choice, committed; Alice learns it only when he opens it).
    /// Lets him keep a digest instead of a bundle he will only compare.
    pub fn checked(&self) -> Vec<bool> {
        let mut v = vec![false; self.p.all_total()];
        for j in self.selection.buckets(&self.p).1 {
            if let Some(c) = v.get_mut(j) {
                *c = true;
            }
        }
        v
    }

    /// Bob's own buckets `B_1..B_N` (members ascending, C's then C''s),
    /// fixed by his selection before any bundle arrives: he knows which
    /// of his OT choice bits each kept bundle's OT-fed wires will get.
    pub fn buckets(&self) -> Vec<Vec<usize>> {
        self.selection.buckets(&self.p).0
    }

    /// Chooses a uniform selection and `N` fresh challenges, and sends
    /// their commitments (Fig. 3.2 "Commit to Challenge"; Fig. A.2 "P2
    /// commits on σ and seed_π") before Alice commits.
    pub fn start(
        ch: &mut Channel,
        p: ExComParams,
        prg: &mut Prg,
    ) -> Result<(Self, Vec<BucketChallenge>)> {
        let selection = Selection::random(&p, prg);
        let challenges = (0..p.buckets)
            .map(|j| BucketChallenge::random(j, p.s, prg))
            .collect();
        Self::start_with(ch, p, selection, challenges)
    }

    /// As [`Self::start`] with a given selection and challenges (one per
    /// bucket, in bucket order); tests use it to model other choices.
    pub(crate) fn start_with(
        ch: &mut Channel,
        p: ExComParams,
        selection: Selection,
        challenges: Vec<BucketChallenge>,
    ) -> Result<(Self, Vec<BucketChallenge>)> {
        if challenges.len() != p.buckets
            || challenges.iter().enumerate().any(|(j, c)| c.bucket() != j)
        {
            return Err(Error::config("one challenge per bucket, in order"));
        }
        ch.send_bytes(&selection.commitment().0)?;
        for c in &challenges {
            ch.send_bytes(&c.commitment().0)?;
        }
        ch.flush()?;
        Ok((
            VerifierAwaiting {
                p,
                selection,
                #[cfg(feature = "adversary")]
                cheat: VerifierCheat::None,
            },
            challenges,
        ))
    }

    /// Adversary mode: the strategy this verifier follows.
    #[cfg(feature = "adversary")]
    pub fn set_cheat(&mut self, cheat: VerifierCheat) {
        self.cheat = cheat;
    }

    /// Receives the `2s·M` split commitments, opens the selection, and
    /// checks every opened message (`excom-check-open`). Returns the session
    /// and the checked messages `(j, m_j)`.
    pub fn receive_commitments(
        self,
        ch: &mut Channel,
    ) -> Result<(VerifierSession, Vec<CheckedMessage>)> {
        let p = self.p;
        let per = 2 * p.s as usize;
        let mut raw = vec![0u8; p.all_total() * per * 32];
        ch.recv_bytes(&mut raw)?;
        let commitments: Vec<Commitment> = raw
            .chunks_exact(32)
            .map(|c| Commitment(c.try_into().unwrap_or([0; 32])))
            .collect();
        drop(raw);
        #[allow(unused_mut)]
        let mut opening = self.selection.opening_bytes();
        #[cfg(feature = "adversary")]
        if self.cheat == VerifierCheat::BadSelectionOpen {
            opening = self.selection.tampered().opening_bytes();
        }
        ch.send_bytes(&opening)?;
        ch.flush()?;
        let (buckets, checked) = self.selection.buckets(&p);
        let mut opened = Vec::with_capacity(checked.len());
        let mut m = vec![0u8; p.msg_bytes];
        let mut seed = [0u8; 16];
        for &j in &checked {
            ch.recv_bytes(&mut m)?;
            ch.recv_bytes(&mut seed)?;
            let rand = SplitRandomness::expand(Block::from_bytes(seed), p.s, p.msg_bytes);
            if rand.commitments(j, &m)[..] != commitments[j * per..(j + 1) * per] {
                return Err(Error::Cheating { check: CHECK_OPEN });
            }
            opened.push((j, m.clone()));
        }
        Ok((
            VerifierSession {
                p,
                commitments,
                buckets,
                #[cfg(feature = "adversary")]
                cheat: self.cheat,
            },
            opened,
        ))
    }
}

/// A checked message opened in the clear: `(j, m_j)`.
pub type CheckedMessage = (usize, Vec<u8>);

/// Bob's state after the cut.
pub struct VerifierSession {
    p: ExComParams,
    commitments: Vec<Commitment>,
    buckets: Vec<Vec<usize>>,
    #[cfg(feature = "adversary")]
    cheat: VerifierCheat,
}

/// One pair's claimed difference with its `s` pairs `(δ⁰_i, δ¹_i)`, as
/// received: `∆ ‖ (δ⁰_i ‖ δ¹_i)_i`.
struct PairClaim {
    bytes: Vec<u8>,
}

impl PairClaim {
    fn delta(&self, mb: usize) -> &[u8] {
        &self.bytes[..mb]
    }

    /// `δ^side_i`.
    fn d(&self, mb: usize, i: usize, side: bool) -> &[u8] {
        let at = mb * (1 + 2 * i + side as usize);
        &self.bytes[at..at + mb]
    }
}

/// A bucket's differences, received while its challenge is still secret.
pub struct DifferenceClaim {
    challenge: BucketChallenge,
    pairs: Vec<PairClaim>,
}

/// A bucket whose challenge was revealed: it can only be verified.
pub struct OpenedClaim {
    bucket: usize,
    w: Vec<bool>,
    pairs: Vec<PairClaim>,
}

/// The result for one bucket: its members and the proven
/// `∆_k = m_{a_k} ⊕ m_{a_{k+1}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvenDifferences {
    /// Bucket index.
    pub bucket: usize,
    /// Members `a_1 < … < a_B`.
    pub members: Vec<usize>,
    /// `∆_k` for `k = 1..B−1`.
    pub deltas: Vec<Zeroizing<Vec<u8>>>,
}

impl VerifierSession {
    /// `B_1..B_N`, members ascending.
    pub fn buckets(&self) -> &[Vec<usize>] {
        &self.buckets
    }

    /// Receives the bucket's differences and checks `δ⁰_i ⊕ δ¹_i = ∆`
    /// (`excom-delta-sum`). Takes the bucket's challenge, still unopened.
    pub fn receive_differences(
        &self,
        ch: &mut Channel,
        challenge: BucketChallenge,
    ) -> Result<DifferenceClaim> {
        let p = self.p;
        let mb = p.msg_bytes;
        let mut pairs = Vec::with_capacity(p.members() - 1);
        for _ in 1..p.members() {
            let mut bytes = vec![0u8; p.pair_claim_bytes()];
            ch.recv_bytes(&mut bytes)?;
            let (delta, ds) = bytes.split_at(mb);
            for d in ds.chunks_exact(2 * mb) {
                let (d0, d1) = d.split_at(mb);
                if d0.iter().zip(d1).zip(delta).any(|((a, b), c)| a ^ b != *c) {
                    return Err(Error::Cheating {
                        check: CHECK_DELTA_SUM,
                    });
                }
            }
            pairs.push(PairClaim { bytes });
        }
        Ok(DifferenceClaim { challenge, pairs })
    }

    /// Reveals the bucket's challenge `W_j` (Fig. 3.2 step 3), consuming it.
    pub fn open_challenge(&self, ch: &mut Channel, claim: DifferenceClaim) -> Result<OpenedClaim> {
        let bucket = claim.challenge.bucket();
        #[cfg(feature = "adversary")]
        let (bytes, w) = if self.cheat == VerifierCheat::BadChallengeOpen {
            claim.challenge.reveal_tampered()
        } else {
            claim.challenge.reveal()
        };
        #[cfg(not(feature = "adversary"))]
        let (bytes, w) = claim.challenge.reveal();
        ch.send_bytes(&bytes)?;
        ch.flush()?;
        Ok(OpenedClaim {
            bucket,
            w,
            pairs: claim.pairs,
        })
    }

    /// Receives Alice's openings of side `W_i` of every member's split
    /// commitments and checks them (`excom-decommit`) and each pair's
    /// difference (`mask-difference`), Fig. 3.2 steps 4–6.
    pub fn verify(&self, ch: &mut Channel, o: OpenedClaim) -> Result<ProvenDifferences> {
        let p = self.p;
        let (per, s, mb) = (2 * p.s as usize, p.s as usize, p.msg_bytes);
        let members = &self.buckets[o.bucket];
        // Every member's opened values, `s` of `mb` bytes each, back to back.
        let mut values = vec![0u8; members.len() * s * mb];
        let mut buf = vec![0u8; p.member_open_bytes()];
        let mut got = Vec::with_capacity(s);
        for (t, &j) in members.iter().enumerate() {
            ch.recv_bytes(&mut buf)?;
            opened_commitments(j, &buf, mb, &o.w, &mut got);
            let want = (0..s).map(|i| &self.commitments[j * per + 2 * i + o.w[i] as usize]);
            if got.len() != s || !got.iter().zip(want).all(|(a, b)| a == b) {
                return Err(Error::Cheating {
                    check: CHECK_DECOMMIT,
                });
            }
            for (i, chunk) in buf.chunks_exact(mb + 16).enumerate() {
                let at = (t * s + i) * mb;
                values[at..at + mb].copy_from_slice(&chunk[..mb]);
            }
        }
        let value = |t: usize, i: usize| &values[(t * s + i) * mb..(t * s + i + 1) * mb];
        for (k, pair) in o.pairs.iter().enumerate() {
            for (i, &wi) in o.w.iter().enumerate() {
                let d = pair.d(mb, i, wi);
                let ok = value(k, i)
                    .iter()
                    .zip(value(k + 1, i))
                    .zip(d)
                    .all(|((a, b), c)| a ^ b == *c);
                if !ok {
                    return Err(Error::Cheating {
                        check: CHECK_DIFFERENCE,
                    });
                }
            }
        }
        Ok(ProvenDifferences {
            bucket: o.bucket,
            members: members.clone(),
            deltas: o
                .pairs
                .into_iter()
                .map(|pc| Zeroizing::new(pc.delta(mb).to_vec()))
                .collect(),
        })
    }
}
