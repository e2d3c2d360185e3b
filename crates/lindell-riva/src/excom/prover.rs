//! Alice's (P1's) side of F_ExCom∆ZK, as a chain of states:
//! [`AwaitingCommit`] (exists only once Bob's commitments arrived) →
//! [`ProverCommitted`] → [`ProverSession`] with one [`BucketToken`] per
//! bucket → [`AwaitingChallenge`]. A bucket's differences are produced only
//! by [`ProverSession::prove`], which consumes the bucket's single token;
//! the challenge is received only by [`ProverSession::respond`], which
//! consumes the state that `prove` returned.

use super::challenge;
use super::hashcom::Commitment;
use super::selection::Selection;
use super::split::{xor_into, SplitRandomness};
use super::ExComParams;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use zeroize::{Zeroize, Zeroizing};

#[cfg(feature = "adversary")]
use super::cheat::ProverCheat;

/// Bob's commitments received; Alice may now commit.
#[derive(Debug)]
pub struct AwaitingCommit {
    p: ExComParams,
    selection: Commitment,
    challenges: Vec<Commitment>,
}

fn recv_commitment(ch: &mut Channel) -> Result<Commitment> {
    let mut c = [0u8; 32];
    ch.recv_bytes(&mut c)?;
    Ok(Commitment(c))
}

impl AwaitingCommit {
    /// Receives Bob's commitments to his selection and his `N` challenges.
    pub fn receive(ch: &mut Channel, p: ExComParams) -> Result<Self> {
        let selection = recv_commitment(ch)?;
        let challenges = (0..p.buckets)
            .map(|_| recv_commitment(ch))
            .collect::<Result<_>>()?;
        Ok(AwaitingCommit {
            p,
            selection,
            challenges,
        })
    }

    /// Commits to `messages` (`M` of `msg_bytes` each) with `s` split
    /// commitments each, randomness from `prg`.
    pub fn commit(
        self,
        ch: &mut Channel,
        messages: Vec<Vec<u8>>,
        prg: &mut Prg,
    ) -> Result<ProverCommitted> {
        let p = self.p;
        if messages.len() != p.all_total() || messages.iter().any(|m| m.len() != p.msg_bytes) {
            return Err(Error::config("messages do not match the agreed sizes"));
        }
        let msgs: Vec<Zeroizing<Vec<u8>>> = messages.into_iter().map(Zeroizing::new).collect();
        let mut seeds = Vec::with_capacity(p.all_total());
        for (j, m) in msgs.iter().enumerate() {
            let mut seed = [0u8; 16];
            prg.fill_bytes(&mut seed);
            let rand = SplitRandomness::expand(Block::from_bytes(seed), p.s, p.msg_bytes);
            for c in rand.commitments(j, m) {
                ch.send_bytes(&c.0)?;
            }
            seeds.push(seed);
        }
        ch.flush()?;
        Ok(ProverCommitted {
            state: State {
                p,
                challenges: self.challenges,
                msgs,
                seeds,
                #[cfg(feature = "adversary")]
                cheat: ProverCheat::None,
                #[cfg(feature = "adversary")]
                seen_w: None,
            },
            selection: self.selection,
        })
    }
}

struct State {
    p: ExComParams,
    challenges: Vec<Commitment>,
    msgs: Vec<Zeroizing<Vec<u8>>>,
    seeds: Vec<[u8; 16]>,
    #[cfg(feature = "adversary")]
    cheat: ProverCheat,
    /// The last challenge opened (what the prototype's reuse would expose).
    #[cfg(feature = "adversary")]
    seen_w: Option<Vec<bool>>,
}

impl Drop for State {
    fn drop(&mut self) {
        self.seeds.zeroize();
    }
}

impl State {
    fn rand(&self, j: usize) -> SplitRandomness {
        SplitRandomness::expand(Block::from_bytes(self.seeds[j]), self.p.s, self.p.msg_bytes)
    }
}

/// Alice has committed; she waits for Bob's selection.
pub struct ProverCommitted {
    state: State,
    selection: Commitment,
}

impl ProverCommitted {
    /// Adversary mode: the strategy this prover follows.
    #[cfg(feature = "adversary")]
    pub fn set_cheat(&mut self, cheat: ProverCheat) {
        self.state.cheat = cheat;
    }

    /// Receives and checks Bob's selection opening (`cc-decommit`), then
    /// opens every checked message as `(m_j, seed_j)`. Returns the session
    /// and one token per bucket (Alice learns the buckets).
    pub fn receive_selection(self, ch: &mut Channel) -> Result<(ProverSession, Vec<BucketToken>)> {
        let p = self.state.p;
        let mut bytes = vec![0u8; Selection::opening_len(&p)];
        ch.recv_bytes(&mut bytes)?;
        let sel = Selection::from_opening(&p, &bytes, &self.selection)?;
        let (buckets, checked) = sel.buckets(&p);
        for &j in &checked {
            #[allow(unused_mut)]
            let mut m = self.state.msgs[j].to_vec();
            #[cfg(feature = "adversary")]
            if self.state.cheat == ProverCheat::BadCheckOpen {
                m[0] ^= 1;
            }
            ch.send_bytes(&m)?;
            ch.send_bytes(&self.state.seeds[j])?;
            m.zeroize();
        }
        ch.flush()?;
        let tokens = (0..p.buckets)
            .map(|bucket| BucketToken { bucket })
            .collect();
        Ok((
            ProverSession {
                state: self.state,
                buckets,
            },
            tokens,
        ))
    }
}

/// The right to prove one bucket's differences, once.
#[derive(Debug)]
pub struct BucketToken {
    bucket: usize,
}

impl BucketToken {
    /// The bucket.
    pub fn bucket(&self) -> usize {
        self.bucket
    }
}

/// A bucket whose differences were sent; only its challenge remains.
#[derive(Debug)]
pub struct AwaitingChallenge {
    bucket: usize,
}

/// Alice's state after the cut: the buckets and her committed messages.
pub struct ProverSession {
    state: State,
    buckets: Vec<Vec<usize>>,
}

impl ProverSession {
    /// `B_1..B_N`, members ascending.
    pub fn buckets(&self) -> &[Vec<usize>] {
        &self.buckets
    }

    /// Sends the bucket's `∆_k` and `(δ⁰_{k,i}, δ¹_{k,i})` for consecutive
    /// members (Fig. 3.2, "P1 provides a proof of difference", steps 1–2).
    pub fn prove(&mut self, ch: &mut Channel, token: BucketToken) -> Result<AwaitingChallenge> {
        let bucket = token.bucket;
        let members = &self.buckets[bucket];
        let st = &self.state;
        let mb = st.p.msg_bytes;
        // One pair's claim `∆ ‖ (δ⁰_i ‖ δ¹_i)_i`, built in place and sent
        // in one piece; each member's randomness is expanded once.
        let mut claim = Zeroizing::new(vec![0u8; st.p.pair_claim_bytes()]);
        let mut prev: Option<SplitRandomness> = None;
        for (k, pair) in members.windows(2).enumerate() {
            let (a, b) = (pair[0], pair[1]);
            let ra = match prev.take() {
                Some(r) => r,
                None => st.rand(a),
            };
            let rb = st.rand(b);
            let (delta, ds) = claim.split_at_mut(mb);
            xor_into(delta, &st.msgs[a], &st.msgs[b]);
            for (i, d) in ds.chunks_exact_mut(2 * mb).enumerate() {
                // δ¹_i = r_{a,i} ⊕ r_{b,i}; δ⁰_i = (m_a ⊕ r_{a,i}) ⊕ (m_b ⊕ r_{b,i}) = ∆ ⊕ δ¹_i.
                let (d0, d1) = d.split_at_mut(mb);
                xor_into(d1, ra.r(i), rb.r(i));
                xor_into(d0, delta, d1);
            }
            #[cfg(feature = "adversary")]
            super::cheat::apply(&st.cheat, st.seen_w.as_deref(), bucket, k, &mut claim, mb);
            let _ = k;
            ch.send_bytes(&claim)?;
            prev = Some(rb);
        }
        ch.flush()?;
        Ok(AwaitingChallenge { bucket })
    }

    /// Receives `W_j`, checks it against Bob's commitment for this bucket
    /// (`challenge-decommit`) and opens side `W_{j,i}` of every member's
    /// `i`-th split commitment (steps 3–4).
    pub fn respond(&mut self, ch: &mut Channel, a: AwaitingChallenge) -> Result<()> {
        let st = &self.state;
        let mut bytes = vec![0u8; (st.p.s as usize).div_ceil(8) + 16];
        ch.recv_bytes(&mut bytes)?;
        let w = challenge::open(a.bucket, st.p.s, &bytes, &st.challenges[a.bucket])?;
        let mb = st.p.msg_bytes;
        // A member's `s` (value, opening) pairs in one buffer, one write.
        let mut out = Zeroizing::new(vec![0u8; st.p.member_open_bytes()]);
        for &j in &self.buckets[a.bucket] {
            let rand = st.rand(j);
            for (i, (&wi, chunk)) in w.iter().zip(out.chunks_exact_mut(mb + 16)).enumerate() {
                let (v, o) = chunk.split_at_mut(mb);
                rand.side_value_into(&st.msgs[j], i, wi as u8, v);
                #[cfg(feature = "adversary")]
                if st.cheat == ProverCheat::BadSideOpen && i == 0 {
                    v[0] ^= 1;
                }
                o.copy_from_slice(&rand.open[i][wi as usize]);
            }
            ch.send_bytes(&out)?;
        }
        ch.flush()?;
        #[cfg(feature = "adversary")]
        {
            self.state.seen_w = Some(w);
        }
        Ok(())
    }
}
