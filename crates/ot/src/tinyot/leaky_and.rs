//! F_LaAND, the leaky AND of Wang–Ranellucci–Katz (CCS 2017,
//! "Authenticated Garbling…", Fig. 8; the 2PC version of their "Global-scale"
//! protocol), reconstructed in our notation.
//!
//! Input: random ⟦x⟧, ⟦y⟧, ⟦z⟧ per triple. Output: the same ⟦x⟧, ⟦y⟧ and a
//! corrected ⟦z⟧ with `z = x·y`. For party P with key Δ_P (peer Q):
//!
//! ```text
//! C_P  = K_P[y_Q] ⊕ M_P[y_P] ⊕ y_P·Δ_P
//! G_P  = H(K_P[x_Q]) ⊕ H(K_P[x_Q] ⊕ Δ_P) ⊕ C_P                 ──► Q
//! S_P  = H(M_P[x_P]) ⊕ H(K_P[x_Q]) ⊕ M_P[z_P] ⊕ K_P[z_Q] ⊕ x_P·(G_Q ⊕ C_P)
//! G'_P = S_P ⊕ z_P·Δ_P,   d_P = bit 1 of G'_P                     ◄─► d
//! ```
//!
//! Algebra: `C_A ⊕ C_B = y·(Δ_A ⊕ Δ_B)` and
//! `G'_A ⊕ G'_B = (x·y ⊕ z)·(Δ_A ⊕ Δ_B)`. Bit 1 of Δ_A is 1 and of Δ_B is 0,
//! so `d_A ⊕ d_B = x·y ⊕ z`: when it is 1 the parties add the public 1 to
//! ⟦z⟧ (A flips its bit and G'_A ^= Δ_A; B flips its key and G'_B ^= Δ_B).
//! Then `G'_A = G'_B` for every triple, which both check by exchanging
//! domain-separated digests (B commits first). A party who deviates either
//! makes a triple wrong — then G' differ by a multiple of Δ_A ⊕ Δ_B it
//! cannot predict — or adds an error multiplied by the peer's `x` share:
//! the check then fails iff that share is 1, which is the only leak
//! ("leaky"): one bit of `x` per attacked triple, each attack caught with
//! probability 1/2. Bucketing ([`super::bucket`]) removes the leak.
//!
//! `H` is the tweakable CCR hash `tccr(·, i)` of GKWY19 (the inputs are
//! Δ-correlated); the tweak is `2L` for hashes of A's `x`-bit material and
//! `2L + 1` for B's, L = session index of the leaky triple.
//!
//! Layout: the triples are the aBits as KOS wrote them, triple `i`'s `x`,
//! `y`, `z` at `3i`, `3i + 1`, `3i + 2` of three parallel arrays (bits,
//! MACs, keys), so nothing is copied into a triple structure. A batch runs
//! in [`step`]s (each right after KOS produced its aBits, while they are
//! still in cache) and ends with one [`check`]. Both parties send `G` and
//! `d` at once (the protocol's rounds are simultaneous; a rushing peer
//! already saw our `G` before answering in the A-first order), and the
//! F_EQ digests are two domain-separated derivations of one BLAKE3 hash of
//! the batch's `G'` vector, absorbed step by step.
//!
//! F_EQ is a commit-then-reveal equality test ([`check`]): B sends a
//! *hiding* commitment `BLAKE3(d_B ‖ ρ)` with fresh 256-bit ρ, A answers
//! `d_A` in the clear, and B opens only if `d_A` matched. Neither side can
//! adapt its value to the other's: B is bound before it sees anything, and
//! A sees nothing about `d_B` before it answers. (With a deterministic
//! `d_B` sent first, A could attack t triples, hash the 2^t candidate
//! vectors offline until one matched `d_B`, and answer with it: t bits of
//! B's `x` shares with no abort at all.)

use super::share::Role;
use brickyard_core::hash::tccr_batch;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use zeroize::Zeroize;

/// Name of the check in `Cheating { check }`.
pub const EQUALITY_CHECK: &str = "leaky-and-equality";

const CONTEXT: &str = "brickyard 2025-01 TinyOT leaky AND equality, G' vector v2";
const CONTEXT_A: &str = "brickyard 2025-01 TinyOT leaky AND equality, A's digest v2";
const CONTEXT_B: &str = "brickyard 2025-01 TinyOT leaky AND equality, B's digest v2";
const CONTEXT_COMMIT: &str = "brickyard 2026-11 TinyOT leaky AND equality, B's commitment v3";

/// Bytes of the commitment randomness ρ: 256 bits, so the commitment hides
/// `d_B` (the only unknowns an attacker could enumerate are the few bits of
/// our `x` shares it attacked, and ρ is far beyond enumeration).
const RHO_BYTES: usize = 32;

fn commit(d: &[u8], rho: &[u8]) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key(CONTEXT_COMMIT);
    h.update(d);
    h.update(rho);
    *h.finalize().as_bytes()
}

fn derive(context: &str, h: &[u8; 32]) -> [u8; 32] {
    let mut d = blake3::Hasher::new_derive_key(context);
    d.update(h);
    *d.finalize().as_bytes()
}

/// How (if at all) this party corrupts its `G` message (adversary tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GCorruption {
    None,
    /// Add a constant error to triple 0's `G`.
    Error,
    /// Compute triple 0's `G` with `Δ ⊕ 2^7` instead of Δ.
    OtherDelta,
    /// Add [`ADAPT_ERROR`] to the `G` of the first [`ADAPT_TRIPLES`]
    /// triples (bit 1 clear, so the peer's `d` is untouched and its `G'`
    /// moves by exactly `x_peer·e`), then try to adapt the F_EQ answer.
    #[cfg(feature = "adversary")]
    Adaptive,
}

/// The adaptive cheater's error in `G` (bit 1 clear).
#[cfg(feature = "adversary")]
const ADAPT_ERROR: Block = Block(0x5a5a_0000);
/// How many triples the adaptive cheater attacks (caught w.p. 1 − 2^-t).
#[cfg(feature = "adversary")]
pub const ADAPT_TRIPLES: usize = 1;

/// Buffers of one [`step`], kept by the session (wiped when it drops).
#[cfg_attr(feature = "fuzzing", derive(Clone))]
#[derive(Default)]
pub(crate) struct Scratch {
    /// `G`, then `G'`.
    g: Vec<Block>,
    /// The peer's `G`.
    gp: Vec<Block>,
    /// `G' ⊕ x_P·G_Q`: everything of `G'` known before the peer's `G`.
    base: Vec<Block>,
    d: Vec<bool>,
    h: Vec<Block>,
    tw: Vec<Block>,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        for v in [&mut self.g, &mut self.gp, &mut self.base, &mut self.h] {
            v.zeroize();
        }
    }
}

/// Triples per hash call: the hash buffers stay in L1/L2.
const HASH: usize = 1 << 12;

/// The running F_EQ input: a BLAKE3 hash of every `G'` of the batch, in
/// triple order, fed by [`step`] and compared by [`check`].
pub(crate) struct Equality {
    hasher: blake3::Hasher,
    /// The adaptive cheater's copy of its `G'` vector (to enumerate the
    /// peer's candidates offline).
    #[cfg(feature = "adversary")]
    keep: Option<Vec<Block>>,
}

impl Equality {
    pub(crate) fn new() -> Self {
        Equality {
            hasher: blake3::Hasher::new_derive_key(CONTEXT),
            #[cfg(feature = "adversary")]
            keep: None,
        }
    }
}

#[cfg(feature = "adversary")]
impl Drop for Equality {
    fn drop(&mut self) {
        self.keep.zeroize();
    }
}

/// The adaptive cheater (A) has received B's first F_EQ message `got`:
/// B's `G'` is A's with `ADAPT_ERROR` added at the attacked triples whose
/// B-side `x` share is 1, so A hashes all 2^t candidates and, if one
/// matches `got`, answers with the A-digest of that candidate. Against a
/// deterministic digest this always succeeds; against a hiding commitment
/// it never does, and A falls back to its honest answer (a guess that
/// every attacked `x` share is 0).
#[cfg(feature = "adversary")]
fn adapt(keep: &[Block], got: &[u8; 32]) -> Option<[u8; 32]> {
    let t = ADAPT_TRIPLES.min(keep.len());
    let mut cand = keep.to_vec();
    let mut found = None;
    for mask in 0u32..1 << t {
        for (i, c) in cand.iter_mut().enumerate().take(t) {
            *c = keep[i] ^ ADAPT_ERROR.and_bit(mask >> i & 1 == 1);
        }
        let mut h = blake3::Hasher::new_derive_key(CONTEXT);
        h.update(bytemuck::cast_slice(&cand));
        let h = *h.finalize().as_bytes();
        if derive(CONTEXT_B, &h) == *got {
            found = Some(derive(CONTEXT_A, &h));
            break;
        }
    }
    cand.zeroize();
    found
}

/// Runs F_LaAND up to (not including) the equality check, in place, on the
/// `bits.len() / 3` triples whose aBits are laid out as `x, y, z` at
/// `3i, 3i + 1, 3i + 2` of `bits`/`macs`/`keys`: on return `z = x·y` for
/// every honest triple (A's `z` bits or B's `z` keys are corrected) and
/// `eq` has absorbed the `G'` vector. `index` is the session index of the
/// first triple (hash tweaks). Nothing may be used before [`check`] passed.
#[allow(clippy::too_many_arguments)]
pub(crate) fn step(
    ch: &mut Channel,
    role: Role,
    delta: Block,
    index: u64,
    bits: &mut [bool],
    macs: &[Block],
    keys: &mut [Block],
    corrupt: GCorruption,
    sc: &mut Scratch,
    eq: &mut Equality,
) -> Result<()> {
    let n = bits.len() / 3;
    debug_assert!(macs.len() == 3 * n && keys.len() == 3 * n);
    let (mine, peer) = match role {
        Role::Alice => (0u128, 1u128),
        Role::Bob => (1, 0),
    };
    for v in [&mut sc.g, &mut sc.gp, &mut sc.base] {
        crate::mem::set_len(v, n);
    }
    // As long as the largest chunk, not always HASH triples: a small batch
    // (a few AND triples) then zeroes and wipes kilobytes, not 400 KB.
    let hn = 3 * n.min(HASH);
    if sc.h.len() < hn {
        sc.h.resize(hn, Block::ZERO);
        sc.tw.resize(hn, Block::ZERO);
    }
    // Pass 1, per hash chunk: H(K[x_Q]), H(K[x_Q] ⊕ Δ), H(M[x_P]) in one
    // hash call; then C, G and base = H(M[x_P]) ⊕ H(K[x_Q]) ⊕ M[z_P] ⊕
    // K[z_Q] ⊕ x_P·C_P ⊕ z_P·Δ_P, so that G'_P = base ⊕ x_P·G_Q.
    for start in (0..n).step_by(HASH) {
        let end = (start + HASH).min(n);
        let m = end - start;
        let (h, tw) = (&mut sc.h[..3 * m], &mut sc.tw[..3 * m]);
        for k in 0..m {
            let i = start + k;
            let xk = keys[3 * i];
            h[k] = xk;
            h[m + k] = xk ^ delta;
            h[2 * m + k] = macs[3 * i];
            let l = 2 * (index as u128 + i as u128);
            tw[k] = Block(l + peer);
            tw[m + k] = Block(l + peer);
            tw[2 * m + k] = Block(l + mine);
        }
        if start == 0 && corrupt == GCorruption::OtherDelta && m > 0 {
            h[m] = keys[0] ^ delta ^ Block(1 << 7);
        }
        tccr_batch(h, tw);
        let (h0, rest) = h.split_at(m);
        let (h1, hm) = rest.split_at(m);
        for k in 0..m {
            let i = start + k;
            let c = keys[3 * i + 1] ^ macs[3 * i + 1] ^ delta.and_bit(bits[3 * i + 1]);
            sc.g[i] = h0[k] ^ h1[k] ^ c;
            sc.base[i] = hm[k]
                ^ h0[k]
                ^ macs[3 * i + 2]
                ^ keys[3 * i + 2]
                ^ c.and_bit(bits[3 * i])
                ^ delta.and_bit(bits[3 * i + 2]);
        }
    }
    if corrupt == GCorruption::Error && n > 0 {
        sc.g[0] ^= Block(0x5a5a);
    }
    #[cfg(feature = "adversary")]
    if corrupt == GCorruption::Adaptive {
        for g in sc.g.iter_mut().take(ADAPT_TRIPLES) {
            *g ^= ADAPT_ERROR;
        }
        eq.keep.get_or_insert_with(Vec::new);
    }
    exchange(ch, &sc.g, &mut sc.gp)?;
    // Pass 2: G'_P and its bit 1, exchanged (both send, then read: a
    // simultaneous round of n/8 bytes).
    sc.d.clear();
    for i in 0..n {
        let g = sc.base[i] ^ sc.gp[i].and_bit(bits[3 * i]);
        sc.g[i] = g;
        sc.d.push(g.bit(1));
    }
    ch.send_bits(&sc.d)?;
    ch.flush()?;
    let d_peer = ch.recv_bits(n)?;
    // Pass 3: add the public `d_A ⊕ d_B` to ⟦z⟧ (Alice's bit, Bob's key)
    // and to G', and hash G'.
    for i in 0..n {
        let e = sc.d[i] ^ d_peer[i];
        match role {
            Role::Alice => bits[3 * i + 2] ^= e,
            Role::Bob => keys[3 * i + 2] ^= delta.and_bit(e),
        }
        sc.g[i] ^= delta.and_bit(e);
    }
    eq.hasher.update(bytemuck::cast_slice(&sc.g));
    #[cfg(feature = "adversary")]
    if let Some(k) = eq.keep.as_mut() {
        k.extend_from_slice(&sc.g);
    }
    Ok(())
}

/// F_EQ on the `G'` vectors of every [`step`] of a batch, as a hiding
/// commitment: B commits to its digest with fresh ρ, A answers its digest,
/// B opens only if A's matched. `Cheating { check: "leaky-and-equality" }`
/// on either side if they differ (B's non-opening is 64 zero bytes, which
/// cannot open the commitment, so an honest A reports the same check
/// rather than a hang-up). A learns `d_B` only when it equals `d_A`; B
/// learns `d_A`, which it could test against candidates of A's `x` shares
/// offline, but only after it is bound: if it attacked, it is then caught
/// unless its committed guess was right, and the batch is discarded.
pub(crate) fn check(ch: &mut Channel, role: Role, eq: Equality, prg: &mut Prg) -> Result<()> {
    let h = *eq.hasher.finalize().as_bytes();
    let (da, db) = (derive(CONTEXT_A, &h), derive(CONTEXT_B, &h));
    let ok = match role {
        Role::Bob => {
            let mut rho = [0u8; RHO_BYTES];
            prg.fill_bytes(&mut rho);
            ch.send_bytes(&commit(&db, &rho))?;
            ch.flush()?;
            let mut got = [0u8; 32];
            ch.recv_bytes(&mut got)?;
            let ok = got == da;
            let mut opening = [0u8; 32 + RHO_BYTES];
            if ok {
                opening[..32].copy_from_slice(&db);
                opening[32..].copy_from_slice(&rho);
            }
            rho.zeroize();
            ch.send_bytes(&opening)?;
            ch.flush()?;
            ok
        }
        Role::Alice => {
            let mut c = [0u8; 32];
            ch.recv_bytes(&mut c)?;
            #[allow(unused_mut)]
            let mut answer = da;
            #[cfg(feature = "adversary")]
            if let Some(a) = eq.keep.as_deref().and_then(|k| adapt(k, &c)) {
                answer = a;
            }
            ch.send_bytes(&answer)?;
            ch.flush()?;
            let mut opening = [0u8; 32 + RHO_BYTES];
            ch.recv_bytes(&mut opening)?;
            opening[..32] == db && commit(&opening[..32], &opening[32..]) == c
        }
    };
    if !ok {
        return Err(Error::Cheating {
            check: EQUALITY_CHECK,
        });
    }
    Ok(())
}

/// Blocks per flight of [`exchange`] (32 KiB). A party writes at most two
/// flights ahead of what it has read (64 KiB), well under what a loopback
/// or LAN socket buffers (the default receive buffer alone is 128 KiB), so
/// two parties that both write before reading cannot deadlock.
const FLIGHT: usize = 1 << 11;

/// Both parties send `mine` and receive the peer's vector of the same
/// length into `theirs`, pipelined: flight `k + 1` is sent before flight
/// `k` of the peer is read, so neither side waits a round trip per flight.
pub(crate) fn exchange(ch: &mut Channel, mine: &[Block], theirs: &mut [Block]) -> Result<()> {
    let mut out = mine.chunks(FLIGHT);
    if let Some(f) = out.next() {
        ch.send_blocks(f)?;
        ch.flush()?;
    }
    for t in theirs.chunks_mut(FLIGHT) {
        if let Some(f) = out.next() {
            ch.send_blocks(f)?;
            ch.flush()?;
        }
        ch.recv_blocks(t)?;
    }
    Ok(())
}
