//! TinyOT-style preprocessing: authenticated bits (F_aBit), authenticated
//! AND triples (F_aAND, via F_LaAND and bucketing), Beaver multiplication
//! and MAC-checked opening — what TinyTable's Fig. 8 and, later,
//! authenticated garbling consume. Protocol page: `docs/protocols/tinyot.md`.
//!
//! Both parties run the same code with a [`Role`]. Each holds a global MAC
//! key Δ (bit 0 = 1, bit 1 = 1 for Alice and 0 for Bob, so that bit 1 of
//! `Δ_A ⊕ Δ_B` is 1 as the leaky AND needs) and two KOS sessions: one as
//! sender with its Δ (keys for the peer's bits), one as receiver (MACs on its
//! own bits).

pub mod bench;
pub mod bucket;
mod leaky_and;
mod open;
mod share;

pub use leaky_and::EQUALITY_CHECK;
pub use open::MAC_CHECK;
pub use share::{AndTriple, AuthShare, Role};

use crate::kos::{KosReceiver, KosSender};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use leaky_and::GCorruption;
use zeroize::Zeroize;

/// Name of the check on the bucketing coin toss.
pub const COIN_CHECK: &str = "coin-toss-commitment";

const COIN_CONTEXT: &str = "brickyard 2025-01 TinyOT coin-toss commitment v1";

/// A TinyOT session between two parties.
pub struct TinyOt {
    role: Role,
    s: usize,
    delta: Block,
    sender: KosSender,
    receiver: KosReceiver,
    prg: Prg,
    /// Session index of the next leaky AND triple (hash tweaks).
    leaky_index: u64,
    /// Reused buffers (large batches would otherwise fault in fresh pages).
    scratch: leaky_and::Scratch,
    leaky: Vec<AndTriple>,
    permuted: Vec<AndTriple>,
    diffs: Vec<AuthShare>,
    bits: Vec<bool>,
    macs: Vec<Block>,
    keys: Vec<Block>,
    #[cfg(feature = "adversary")]
    cheat: Option<crate::adversary::Cheat>,
}

impl std::fmt::Debug for TinyOt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TinyOt {{ role: {:?}, s: {} }}", self.role, self.s)
    }
}

impl Drop for TinyOt {
    fn drop(&mut self) {
        self.delta.zeroize();
    }
}

impl TinyOt {
    /// Sets up both KOS sessions (s = 40).
    pub fn setup(ch: &mut Channel, role: Role, prg: &mut Prg) -> Result<Self> {
        Self::setup_with(ch, role, prg, 40)
    }

    /// As [`TinyOt::setup`] with statistical parameter `s ≥ 40` (both parties
    /// must agree; it sizes the buckets).
    pub fn setup_with(ch: &mut Channel, role: Role, prg: &mut Prg, s: usize) -> Result<Self> {
        if s < 40 {
            return Err(Error::config(format!(
                "TinyOT s = {s} refused (need s ≥ 40)"
            )));
        }
        let bit1 = (role == Role::Alice) as u128;
        let delta = Block((prg.random_block().0 & !3) | 1 | (bit1 << 1));
        let (sender, receiver) = match role {
            Role::Alice => {
                let s = KosSender::setup_with_delta(ch, prg, delta)?;
                (s, KosReceiver::setup(ch, prg)?)
            }
            Role::Bob => {
                let r = KosReceiver::setup(ch, prg)?;
                (KosSender::setup_with_delta(ch, prg, delta)?, r)
            }
        };
        Ok(TinyOt {
            role,
            s,
            delta,
            sender,
            receiver,
            prg: Prg::from_seed(prg.random_block()),
            leaky_index: 0,
            scratch: Default::default(),
            leaky: Vec::new(),
            permuted: Vec::new(),
            diffs: Vec::new(),
            bits: Vec::new(),
            macs: Vec::new(),
            keys: Vec::new(),
            #[cfg(feature = "adversary")]
            cheat: None,
        })
    }

    /// This party's role.
    pub fn role(&self) -> Role {
        self.role
    }

    /// My global MAC key Δ (the peer's MACs are `K ⊕ b·Δ`).
    pub fn delta(&self) -> Block {
        self.delta
    }

    /// Installs a cheating strategy (tests only).
    #[cfg(feature = "adversary")]
    pub fn set_cheat(&mut self, cheat: Option<crate::adversary::Cheat>) {
        use crate::adversary::{Cheat, KosReceiverCheat};
        self.cheat = cheat;
        // The KOS cheats are played by this party's KOS receiver (its aBits).
        self.receiver.set_cheat(match cheat {
            Some(Cheat::KosInconsistentColumn) => Some(KosReceiverCheat::InconsistentColumns {
                columns: 1,
                guess: true,
            }),
            Some(Cheat::KosWrongCheckValue) => Some(KosReceiverCheat::WrongCheckValue),
            _ => None,
        });
    }

    #[cfg(feature = "adversary")]
    fn cheating(&self, c: crate::adversary::Cheat) -> bool {
        self.cheat == Some(c)
    }

    /// `n` random authenticated bits ⟦r⟧ (F_aBit both ways, paired): my
    /// random share with its MAC from the peer's KOS sender, and my key for
    /// the peer's share from mine. Alice's bits are extended first.
    pub fn abits(&mut self, ch: &mut Channel, n: usize) -> Result<Vec<AuthShare>> {
        let mut out = vec![AuthShare::default(); n];
        self.abits_into(ch, &mut out)?;
        Ok(out)
    }

    /// [`TinyOt::abits`] into a caller's slice.
    pub fn abits_into(&mut self, ch: &mut Channel, out: &mut [AuthShare]) -> Result<()> {
        self.abits_with(ch, out.len(), |i, s| out[i] = s)
    }

    /// Extends `n` aBits both ways, one KOS check batch at a time, and
    /// hands aBit `i` to `put` (so large requests need no `n`-sized
    /// temporaries).
    fn abits_with(
        &mut self,
        ch: &mut Channel,
        n: usize,
        mut put: impl FnMut(usize, AuthShare),
    ) -> Result<()> {
        let mut start = 0;
        while start < n {
            let m = (n - start).min(crate::kos::KOS_BATCH);
            self.bits.clear();
            self.bits.extend(self.prg.random_bits(m));
            self.macs.resize(m, Block::ZERO);
            self.keys.resize(m, Block::ZERO);
            match self.role {
                Role::Alice => {
                    self.receiver
                        .correlated_into(ch, &self.bits, &mut self.macs)?;
                    self.sender.correlated_into(ch, &mut self.keys)?;
                }
                Role::Bob => {
                    self.sender.correlated_into(ch, &mut self.keys)?;
                    self.receiver
                        .correlated_into(ch, &self.bits, &mut self.macs)?;
                }
            }
            for i in 0..m {
                put(
                    start + i,
                    AuthShare {
                        bit: self.bits[i],
                        mac: self.macs[i],
                        key: self.keys[i],
                    },
                );
            }
            start += m;
        }
        self.macs.zeroize();
        self.keys.zeroize();
        Ok(())
    }

    /// `⟦x⟧ ⊕ c` for a public bit `c`: Alice flips her share, Bob shifts his
    /// key for it by `c·Δ_B` (local).
    pub fn add_public(&self, s: AuthShare, c: bool) -> AuthShare {
        match self.role {
            Role::Alice => AuthShare {
                bit: s.bit ^ c,
                ..s
            },
            Role::Bob => AuthShare {
                key: s.key ^ self.delta.and_bit(c),
                ..s
            },
        }
    }

    /// Opens shares to both parties with one batched MAC check
    /// (`Cheating { check: "mac-check" }` on a bad MAC).
    pub fn open(&mut self, ch: &mut Channel, shares: &[AuthShare]) -> Result<Vec<bool>> {
        let mut bits: Vec<bool> = shares.iter().map(|s| s.bit).collect();
        let mut macs: Vec<Block> = shares.iter().map(|s| s.mac).collect();
        #[cfg(feature = "adversary")]
        if self.cheating(crate::adversary::Cheat::ForgedMac) && !bits.is_empty() {
            bits[0] ^= true;
            macs[0] ^= self.prg.random_block();
        }
        let r = open::open_with(ch, self.role, self.delta, shares, &bits, &macs);
        bits.zeroize();
        macs.zeroize();
        r
    }

    /// `n` leaky AND triples (F_LaAND): correct, but a cheater may have
    /// learned `x` shares of the triples it attacked (each attack caught
    /// with probability 1/2). Use [`TinyOt::and_triples`] unless you are
    /// testing the leak.
    pub fn leaky_and_triples(&mut self, ch: &mut Channel, n: usize) -> Result<Vec<AndTriple>> {
        let mut t = vec![AndTriple::default(); n];
        self.leaky_into(ch, &mut t)?;
        Ok(t)
    }

    /// Leaky triples into `t` (aBits for x, y, z, then F_LaAND).
    fn leaky_into(&mut self, ch: &mut Channel, t: &mut [AndTriple]) -> Result<()> {
        let n = t.len();
        self.abits_with(ch, 3 * n, |i, s| match i / n {
            0 => t[i].x = s,
            1 => t[i - n].y = s,
            _ => t[i - 2 * n].z = s,
        })?;
        let corrupt = self.g_corruption();
        leaky_and::leaky_and(
            ch,
            self.role,
            self.delta,
            self.leaky_index,
            t,
            corrupt,
            &mut self.scratch,
        )?;
        self.leaky_index += n as u64;
        Ok(())
    }

    fn g_corruption(&self) -> GCorruption {
        #[cfg(feature = "adversary")]
        {
            use crate::adversary::Cheat;
            if self.cheating(Cheat::LeakyAndCorrupt) {
                return GCorruption::Error;
            }
            if self.cheating(Cheat::InconsistentDelta) {
                return GCorruption::OtherDelta;
            }
        }
        GCorruption::None
    }

    /// A uniformly random seed neither party controls: Alice commits to
    /// hers, Bob sends his, Alice opens. Drawn after the leaky triples are
    /// fixed, so the bucketing permutation is independent of any attack.
    fn coin_toss(&mut self, ch: &mut Channel) -> Result<Block> {
        let mine = self.prg.random_block();
        match self.role {
            Role::Alice => {
                let nonce = self.prg.random_block();
                let c = commit(mine, nonce);
                ch.send_bytes(&c)?;
                ch.flush()?;
                let theirs = ch.recv_block()?;
                ch.send_blocks(&[mine, nonce])?;
                ch.flush()?;
                Ok(mine ^ theirs)
            }
            Role::Bob => {
                let mut c = [0u8; 32];
                ch.recv_bytes(&mut c)?;
                ch.send_block(mine)?;
                ch.flush()?;
                let open = ch.recv_block_vec(2)?;
                if commit(open[0], open[1]) != c {
                    return Err(Error::Cheating { check: COIN_CHECK });
                }
                Ok(mine ^ open[0])
            }
        }
    }

    /// `n` authenticated AND triples (F_aAND): leaky triples in batches of
    /// at most [`bucket::TRIPLE_BATCH`], each batch randomly permuted by a
    /// coin toss and combined in buckets whose size [`bucket::plan`]
    /// computes from `(s, ℓ)`.
    pub fn and_triples(&mut self, ch: &mut Channel, n: usize) -> Result<Vec<AndTriple>> {
        let (_, ell, b) = bucket::plan(self.s, n)?;
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let m = (n - out.len()).min(ell);
            self.and_batch(ch, m, b, &mut out)?;
        }
        Ok(out)
    }

    fn and_batch(
        &mut self,
        ch: &mut Channel,
        ell: usize,
        b: usize,
        out: &mut Vec<AndTriple>,
    ) -> Result<()> {
        bucket::check_bucket_size(self.s, ell, b)?;
        let mut leaky = std::mem::take(&mut self.leaky);
        leaky.resize(ell * b, AndTriple::default());
        let r = self
            .leaky_into(ch, &mut leaky)
            .and_then(|()| self.combine(ch, &leaky, b, out));
        leaky.zeroize_shares();
        self.leaky = leaky;
        r
    }

    /// Permutes the leaky triples by a coin toss and combines each run of
    /// `b` consecutive permuted triples into one bucket.
    fn combine(
        &mut self,
        ch: &mut Channel,
        leaky: &[AndTriple],
        b: usize,
        out: &mut Vec<AndTriple>,
    ) -> Result<()> {
        let seed = self.coin_toss(ch)?;
        // Shuffle 4-byte indices (cache-friendly), then gather the 144-byte
        // triples once in permuted order: independent loads the CPU
        // overlaps, instead of moving whole triples around.
        let idx: Vec<u32> = (0..leaky.len() as u32).collect();
        let mut order = Vec::new();
        bucket::shuffle_into(&mut Prg::from_seed(seed), &idx, &mut order);
        let mut perm = std::mem::take(&mut self.permuted);
        perm.clear();
        perm.extend(order.iter().map(|&i| leaky[i as usize]));
        let r = self.combine_permuted(ch, &perm, b, out);
        perm.zeroize_shares();
        self.permuted = perm;
        r
    }

    fn combine_permuted(
        &mut self,
        ch: &mut Channel,
        perm: &[AndTriple],
        b: usize,
        out: &mut Vec<AndTriple>,
    ) -> Result<()> {
        // d_j = y_0 ⊕ y_j for every non-first member of every bucket.
        let mut diffs = std::mem::take(&mut self.diffs);
        diffs.clear();
        for bk in perm.chunks_exact(b) {
            diffs.extend(bk[1..].iter().map(|t| bk[0].y.xor(t.y)));
        }
        let d = self.open(ch, &diffs);
        diffs.as_mut_slice().zeroize_shares();
        self.diffs = diffs;
        let d = d?;
        for (bk, d) in perm.chunks_exact(b).zip(d.chunks_exact(b - 1)) {
            let mut t = bk[0];
            for (tj, &dj) in bk[1..].iter().zip(d) {
                t.x = t.x.xor(tj.x);
                t.z = t.z.xor(tj.z).xor(tj.x.scale(dj));
            }
            out.push(t);
        }
        Ok(())
    }

    /// Beaver multiplication: `⟦x·y⟧` from one triple (opens `x ⊕ a`,
    /// `y ⊕ b` with the MAC check).
    pub fn mul(
        &mut self,
        ch: &mut Channel,
        x: AuthShare,
        y: AuthShare,
        triple: AndTriple,
    ) -> Result<AuthShare> {
        Ok(self.mul_many(ch, &[x], &[y], &[triple])?[0])
    }

    /// Beaver multiplication of many pairs in one opening:
    /// `z = c ⊕ d·b ⊕ e·a ⊕ d·e` with `d = x ⊕ a`, `e = y ⊕ b` public.
    ///
    /// # Panics
    /// If the slices have different lengths (caller bug).
    pub fn mul_many(
        &mut self,
        ch: &mut Channel,
        xs: &[AuthShare],
        ys: &[AuthShare],
        triples: &[AndTriple],
    ) -> Result<Vec<AuthShare>> {
        assert!(
            xs.len() == ys.len() && xs.len() == triples.len(),
            "mul_many: lengths"
        );
        let n = xs.len();
        let mut masked = Vec::with_capacity(2 * n);
        masked.extend(xs.iter().zip(triples).map(|(x, t)| x.xor(t.x)));
        masked.extend(ys.iter().zip(triples).map(|(y, t)| y.xor(t.y)));
        let de = self.open(ch, &masked)?;
        Ok((0..n)
            .map(|i| {
                let (d, e, t) = (de[i], de[n + i], triples[i]);
                let z = t.z.xor(t.y.scale(d)).xor(t.x.scale(e));
                self.add_public(z, d & e)
            })
            .collect())
    }
}

fn commit(v: Block, nonce: Block) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key(COIN_CONTEXT);
    h.update(&v.to_bytes());
    h.update(&nonce.to_bytes());
    *h.finalize().as_bytes()
}

/// Wiping of share vectors (they hold MACs and keys).
trait ZeroizeShares {
    fn zeroize_shares(&mut self);
}

impl ZeroizeShares for [AuthShare] {
    fn zeroize_shares(&mut self) {
        for s in self.iter_mut() {
            s.mac.zeroize();
            s.key.zeroize();
            s.bit = false;
        }
    }
}

impl ZeroizeShares for Vec<AuthShare> {
    fn zeroize_shares(&mut self) {
        self.as_mut_slice().zeroize_shares();
    }
}

impl ZeroizeShares for [AndTriple] {
    fn zeroize_shares(&mut self) {
        for t in self.iter_mut() {
            for s in [&mut t.x, &mut t.y, &mut t.z] {
                s.mac.zeroize();
                s.key.zeroize();
            }
        }
    }
}
