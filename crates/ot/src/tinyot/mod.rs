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

use crate::kos::{KosReceiver, KosSender, KOS_BATCH};
use crate::mem;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use leaky_and::GCorruption;
use zeroize::Zeroize;

/// Name of the check on the bucketing coin toss.
pub const COIN_CHECK: &str = "coin-toss-commitment";

const COIN_CONTEXT: &str = "brickyard 2025-01 TinyOT coin-toss commitment v1";

/// Leaky triples per pipeline step: KOS extends their aBits (one check
/// batch per direction) and the leaky AND's passes and exchanges run on
/// them right away, while their 1.5 MB of MACs and keys are still in cache.
const STEP: usize = 1 << 14;

/// One leaky triple as bucketing moves it: the MACs and keys of `x, y, z`
/// (its three bits travel beside it in one byte).
#[derive(Clone, Copy, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct LeakyRec {
    mac: [Block; 3],
    key: [Block; 3],
}

impl zeroize::DefaultIsZeroes for LeakyRec {}

impl LeakyRec {
    #[inline]
    fn share(&self, bits: u8, k: usize) -> AuthShare {
        AuthShare {
            bit: (bits >> k) & 1 == 1,
            mac: self.mac[k],
            key: self.key[k],
        }
    }
}

/// The session's large buffers, reused by every call (a fresh page costs
/// more than the work done on it) and wiped when the session drops.
///
/// A bucketing batch of `N` leaky triples uses them in turn: `bits`,
/// `macs`, `keys` (3N each, triple `i`'s `x, y, z` at `3i…3i + 2`) receive
/// the aBits from KOS and go through the leaky AND; the triples are then
/// scattered into random piles in `recs`/`rbits`; `order` lists the
/// permuted slots; and the bucket differences `d_j` and members `x_j` are
/// written over the (by then dead) front of `bits`/`macs`/`keys`.
#[cfg_attr(feature = "fuzzing", derive(Clone))]
#[derive(Default)]
struct Batch {
    bits: Vec<bool>,
    macs: Vec<Block>,
    keys: Vec<Block>,
    recs: Vec<LeakyRec>,
    rbits: Vec<u8>,
    order: Vec<u32>,
    perm: bucket::PermScratch,
    leaky: leaky_and::Scratch,
    opened: Vec<bool>,
}

impl Drop for Batch {
    fn drop(&mut self) {
        self.macs.zeroize();
        self.keys.zeroize();
        self.recs.zeroize();
    }
}

/// A TinyOT session between two parties.
#[cfg_attr(feature = "fuzzing", derive(Clone))]
pub struct TinyOt {
    role: Role,
    s: usize,
    delta: Block,
    sender: KosSender,
    receiver: KosReceiver,
    prg: Prg,
    /// Session index of the next leaky AND triple (hash tweaks).
    leaky_index: u64,
    batch: Batch,
    beaver: BeaverScratch,
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
        let delta = Self::draw_delta(role, prg);
        // The two KOS sessions' base OTs at once (`base::exchange_random`):
        // this party receives one batch with the bits of its Δ as choices
        // (its KOS sender) and sends the other (its KOS receiver), so both
        // parties compute their half of both batches at the same time
        // instead of one direction after the other.
        let mut choices: Vec<bool> = (0..crate::iknp::KAPPA).map(|j| delta.bit(j)).collect();
        let exchanged = crate::base::exchange_random(ch, prg, crate::iknp::KAPPA, &choices);
        choices.zeroize();
        let (sent, got) = exchanged?;
        let sender = KosSender::from_base(delta, got, prg)?;
        let receiver = KosReceiver::from_base(sent, prg)?;
        Ok(Self::from_parts(role, s, delta, sender, receiver, prg))
    }

    /// A MAC key Δ with bit 0 set and bit 1 = (role is Alice), so the two
    /// parties' keys differ and `G'`'s bit 1 carries the `d` share.
    pub(crate) fn draw_delta(role: Role, prg: &mut Prg) -> Block {
        let bit1 = (role == Role::Alice) as u128;
        Block((prg.random_block().0 & !3) | 1 | (bit1 << 1))
    }

    /// The session over two KOS sessions whose base OTs are done (the
    /// sender's with `delta` from [`TinyOt::draw_delta`]); `s ≥ 40` is
    /// checked by the caller.
    pub(crate) fn from_parts(
        role: Role,
        s: usize,
        delta: Block,
        sender: KosSender,
        receiver: KosReceiver,
        prg: &mut Prg,
    ) -> Self {
        TinyOt {
            role,
            s,
            delta,
            sender,
            receiver,
            prg: Prg::from_seed(prg.random_block()),
            leaky_index: 0,
            batch: Batch::default(),
            beaver: BeaverScratch::default(),
            #[cfg(feature = "adversary")]
            cheat: None,
        }
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

    /// This party's `x` share of leaky triple `i` of the last batch, kept
    /// even when the batch failed (selective-failure tests: whether an
    /// attack was caught must equal whether this bit was 1).
    #[cfg(feature = "adversary")]
    pub fn last_leaky_x_share(&self, i: usize) -> Option<bool> {
        self.batch.bits.get(3 * i).copied()
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
        let mut bt = std::mem::take(&mut self.batch);
        let n = out.len();
        mem::clear_for(&mut bt.bits, n);
        mem::set_len(&mut bt.macs, n);
        mem::set_len(&mut bt.keys, n);
        let r = self.fill_abits(ch, &mut bt.bits, &mut bt.macs, &mut bt.keys);
        if r.is_ok() {
            let shares = bt.bits.iter().zip(&bt.macs).zip(&bt.keys);
            for (o, ((&bit, &mac), &key)) in out.iter_mut().zip(shares) {
                *o = AuthShare { bit, mac, key };
            }
        }
        self.batch = bt;
        r
    }

    /// Extends `macs.len()` aBits both ways, one KOS check batch per
    /// direction at a time: KOS writes my MACs and my keys straight into
    /// `macs` and `keys`, and my random bits are appended to `bits`.
    fn fill_abits(
        &mut self,
        ch: &mut Channel,
        bits: &mut Vec<bool>,
        macs: &mut [Block],
        keys: &mut [Block],
    ) -> Result<()> {
        let chunks = macs.chunks_mut(KOS_BATCH).zip(keys.chunks_mut(KOS_BATCH));
        for (macs, keys) in chunks {
            match self.role {
                Role::Alice => {
                    self.receiver
                        .correlated_random_into(ch, &mut self.prg, bits, macs)?;
                    self.sender.correlated_into(ch, keys)?;
                }
                Role::Bob => {
                    self.sender.correlated_into(ch, keys)?;
                    self.receiver
                        .correlated_random_into(ch, &mut self.prg, bits, macs)?;
                }
            }
        }
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
        let bits: Vec<bool> = shares.iter().map(|s| s.bit).collect();
        let mut macs: Vec<Block> = shares.iter().map(|s| s.mac).collect();
        let mut keys: Vec<Block> = shares.iter().map(|s| s.key).collect();
        let mut out = Vec::new();
        let r = self.open_parts(ch, &bits, &macs, &keys, &mut out);
        macs.zeroize();
        keys.zeroize();
        r.map(|()| out)
    }

    /// Opens the aBits given as parallel arrays into `out` (`x_i = x_me ⊕
    /// x_peer`), with the batched MAC check; the adversary's forged MAC is
    /// played here.
    fn open_parts(
        &mut self,
        ch: &mut Channel,
        bits: &[bool],
        macs: &[Block],
        keys: &[Block],
        out: &mut Vec<bool>,
    ) -> Result<()> {
        #[cfg(feature = "adversary")]
        if self.cheating(crate::adversary::Cheat::ForgedMac) && !bits.is_empty() {
            let (mut b, mut m) = (bits.to_vec(), macs.to_vec());
            b[0] ^= true;
            m[0] ^= self.prg.random_block();
            open::open_parts(ch, self.role, self.delta, &b, &m, keys, out)?;
            for (o, &b) in out.iter_mut().zip(bits) {
                *o ^= b;
            }
            return Ok(());
        }
        open::open_parts(ch, self.role, self.delta, bits, macs, keys, out)?;
        for (o, &b) in out.iter_mut().zip(bits) {
            *o ^= b;
        }
        Ok(())
    }

    /// `n` leaky AND triples (F_LaAND): correct, but a cheater may have
    /// learned `x` shares of the triples it attacked (each attack caught
    /// with probability 1/2). Use [`TinyOt::and_triples`] unless you are
    /// testing the leak.
    pub fn leaky_and_triples(&mut self, ch: &mut Channel, n: usize) -> Result<Vec<AndTriple>> {
        let mut bt = std::mem::take(&mut self.batch);
        let r = self.leaky_batch(ch, n, &mut bt).map(|()| {
            let share = |j: usize| AuthShare {
                bit: bt.bits[j],
                mac: bt.macs[j],
                key: bt.keys[j],
            };
            (0..n)
                .map(|i| AndTriple {
                    x: share(3 * i),
                    y: share(3 * i + 1),
                    z: share(3 * i + 2),
                })
                .collect()
        });
        self.batch = bt;
        r
    }

    /// `n` leaky triples into `bt.bits`/`macs`/`keys`, a [`STEP`] at a
    /// time (3·STEP aBits, then F_LaAND on them), then the batch's F_EQ.
    fn leaky_batch(&mut self, ch: &mut Channel, n: usize, bt: &mut Batch) -> Result<()> {
        mem::clear_for(&mut bt.bits, 3 * n);
        mem::set_len(&mut bt.macs, 3 * n);
        mem::set_len(&mut bt.keys, 3 * n);
        let mut eq = leaky_and::Equality::new();
        for start in (0..n).step_by(STEP) {
            let r = 3 * start..3 * (start + STEP).min(n);
            let (macs, keys) = (&mut bt.macs[r.clone()], &mut bt.keys[r.clone()]);
            self.fill_abits(ch, &mut bt.bits, macs, keys)?;
            let corrupt = if start == 0 {
                self.g_corruption()
            } else {
                GCorruption::None
            };
            leaky_and::step(
                ch,
                self.role,
                self.delta,
                self.leaky_index + start as u64,
                &mut bt.bits[r],
                macs,
                keys,
                corrupt,
                &mut bt.leaky,
                &mut eq,
            )?;
        }
        self.leaky_index += n as u64;
        leaky_and::check(ch, self.role, eq, &mut self.prg)
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
            if self.cheating(Cheat::LeakyAndAdaptiveEquality) {
                return GCorruption::Adaptive;
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
                #[allow(unused_mut)]
                let mut opened = mine;
                #[cfg(feature = "adversary")]
                if self.cheating(crate::adversary::Cheat::CoinTossEquivocate) {
                    // Opens a seed other than the committed one.
                    opened ^= Block(1);
                }
                ch.send_blocks(&[opened, nonce])?;
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

    /// `n` authenticated AND triples (F_aAND): leaky triples in batches
    /// that [`bucket::plan`] sizes from `(s, n)` together with the bucket
    /// size, each batch randomly permuted by a coin toss and combined in
    /// buckets.
    pub fn and_triples(&mut self, ch: &mut Channel, n: usize) -> Result<Vec<AndTriple>> {
        let mut out = Vec::new();
        self.and_triples_into(ch, n, &mut out)?;
        Ok(out)
    }

    /// [`TinyOt::and_triples`] into `out` (cleared first; its capacity is
    /// reused, so a caller that keeps the vector pays no fresh pages).
    pub fn and_triples_into(
        &mut self,
        ch: &mut Channel,
        n: usize,
        out: &mut Vec<AndTriple>,
    ) -> Result<()> {
        let (batches, _, b) = bucket::plan(self.s, n)?;
        out.as_mut_slice().zeroize_shares();
        out.clear();
        out.reserve(n);
        let mut bt = std::mem::take(&mut self.batch);
        let mut r = Ok(());
        for m in bucket::batch_sizes(n, batches).filter(|&m| m > 0) {
            r = bucket::check_bucket_size(self.s, m, b)
                .and_then(|()| self.leaky_batch(ch, m * b, &mut bt))
                .and_then(|()| self.combine(ch, &mut bt, b, out));
            if r.is_err() {
                break;
            }
        }
        self.batch = bt;
        if r.is_err() {
            out.as_mut_slice().zeroize_shares();
            out.clear();
        }
        r
    }

    /// Permutes the leaky triples of `bt` by a coin toss and combines each
    /// run of `b` consecutive permuted triples into one bucket:
    /// `x = ⊕_j x_j`, `y = y_0`, `z = ⊕_j z_j ⊕ d_j·x_j` with
    /// `d_j = y_0 ⊕ y_j` opened (MAC-checked).
    fn combine(
        &mut self,
        ch: &mut Channel,
        bt: &mut Batch,
        b: usize,
        out: &mut Vec<AndTriple>,
    ) -> Result<()> {
        let seed = self.coin_toss(ch)?;
        let mut prg = Prg::from_seed(seed);
        let n = bt.bits.len() / 3;
        let Batch {
            bits,
            macs,
            keys,
            recs,
            rbits,
            order,
            perm,
            opened,
            ..
        } = bt;
        // Scatter the triples into random piles (sequential reads, one
        // sequential write stream per pile), then list each pile's slots in
        // a random order.
        mem::set_len(recs, n);
        mem::set_len(rbits, n);
        bucket::pile_scatter(&mut prg, n, perm, |i, slot| {
            let j = 3 * i;
            recs[slot] = LeakyRec {
                mac: [macs[j], macs[j + 1], macs[j + 2]],
                key: [keys[j], keys[j + 1], keys[j + 2]],
            };
            rbits[slot] = bits[j] as u8 | (bits[j + 1] as u8) << 1 | (bits[j + 2] as u8) << 2;
        });
        mem::clear_for(order, n);
        bucket::pile_order(&mut prg, perm, order);
        // The aBit arrays are dead now: the front two thirds hold the
        // differences `d_j` and the members `x_j` (j ≥ 1) of every bucket.
        let nd = (n / b) * (b - 1);
        let (db, rest) = bits.split_at_mut(nd);
        let xb = &mut rest[..nd];
        let (dm, rest) = macs.split_at_mut(nd);
        let xm = &mut rest[..nd];
        let (dk, rest) = keys.split_at_mut(nd);
        let xk = &mut rest[..nd];
        // Walk the order `b` triples a bucket: consecutive slots lie in one
        // pile (a few hundred pages), so the random reads stay local.
        let (recs, rbits, order) = (&*recs, &*rbits, &*order);
        let first = out.len();
        out.extend(order.chunks_exact(b).enumerate().map(|(k, bucket)| {
            let (r0, b0) = (&recs[bucket[0] as usize], rbits[bucket[0] as usize]);
            let y = r0.share(b0, 1);
            let (mut x, mut z) = (r0.share(b0, 0), r0.share(b0, 2));
            for (j, &m) in bucket[1..].iter().enumerate() {
                let (r, bits) = (&recs[m as usize], rbits[m as usize]);
                let o = k * (b - 1) + j;
                let dj = y.xor(r.share(bits, 1));
                (db[o], dm[o], dk[o]) = (dj.bit, dj.mac, dj.key);
                let xj = r.share(bits, 0);
                (xb[o], xm[o], xk[o]) = (xj.bit, xj.mac, xj.key);
                x = x.xor(xj);
                z = z.xor(r.share(bits, 2));
            }
            AndTriple { x, y, z }
        }));
        self.open_parts(ch, db, dm, dk, opened)?;
        for (k, t) in out[first..].iter_mut().enumerate() {
            for j in k * (b - 1)..(k + 1) * (b - 1) {
                let xj = AuthShare {
                    bit: xb[j],
                    mac: xm[j],
                    key: xk[j],
                };
                t.z = t.z.xor(xj.scale(opened[j]));
            }
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
        let mut de = Vec::new();
        let operands = xs.iter().copied().zip(ys.iter().copied());
        self.beaver_open(ch, triples, operands, &mut de)?;
        let n = xs.len();
        Ok((0..n)
            .map(|i| self.beaver_product(&triples[i], de[i], de[n + i]))
            .collect())
    }

    /// The opening of [`TinyOt::mul_many`] for operands given as an
    /// iterator of pairs `(⟦x_i⟧, ⟦y_i⟧)`, one per triple; leaves `d_i` in
    /// `de[i]` and `e_i` in `de[n + i]`, from which
    /// [`TinyOt::beaver_product`] gives `⟦x_i·y_i⟧`. No operand or product
    /// vector is built (the masked shares go through the session's reused
    /// buffers).
    ///
    /// # Panics
    /// If `operands` yields fewer pairs than there are triples (caller bug).
    pub fn beaver_open(
        &mut self,
        ch: &mut Channel,
        triples: &[AndTriple],
        operands: impl IntoIterator<Item = (AuthShare, AuthShare)>,
        de: &mut Vec<bool>,
    ) -> Result<()> {
        let n = triples.len();
        let mut sc = std::mem::take(&mut self.beaver);
        mem::set_len(&mut sc.bits, 2 * n);
        mem::set_len(&mut sc.macs, 2 * n);
        mem::set_len(&mut sc.keys, 2 * n);
        let mut operands = operands.into_iter();
        for (i, t) in triples.iter().enumerate() {
            let (x, y) = operands.next().expect("beaver_open: too few operands");
            let (d, e) = (x.xor(t.x), y.xor(t.y));
            (sc.bits[i], sc.macs[i], sc.keys[i]) = (d.bit, d.mac, d.key);
            (sc.bits[n + i], sc.macs[n + i], sc.keys[n + i]) = (e.bit, e.mac, e.key);
        }
        let r = self.open_parts(ch, &sc.bits, &sc.macs, &sc.keys, de);
        self.beaver = sc;
        r
    }

    /// `⟦x·y⟧ = ⟦c⟧ ⊕ d·⟦b⟧ ⊕ e·⟦a⟧ ⊕ d·e` for the triple `(a, b, c)` and
    /// the opened `d = x ⊕ a`, `e = y ⊕ b` (local).
    #[inline]
    pub fn beaver_product(&self, t: &AndTriple, d: bool, e: bool) -> AuthShare {
        let z = t.z.xor(t.y.scale(d)).xor(t.x.scale(e));
        self.add_public(z, d & e)
    }
}

/// Reused buffers of [`TinyOt::beaver_open`] (wiped on drop).
#[cfg_attr(feature = "fuzzing", derive(Clone))]
#[derive(Default)]
struct BeaverScratch {
    bits: Vec<bool>,
    macs: Vec<Block>,
    keys: Vec<Block>,
}

impl Drop for BeaverScratch {
    fn drop(&mut self) {
        self.macs.zeroize();
        self.keys.zeroize();
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
