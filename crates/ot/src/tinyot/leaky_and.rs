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

use super::share::{AndTriple, Role};
use brickyard_core::hash::tccr_batch;
use brickyard_core::{Block, Channel, Error, Result};

/// Name of the check in `Cheating { check }`.
pub const EQUALITY_CHECK: &str = "leaky-and-equality";

const CONTEXT_A: &str = "brickyard 2025-01 TinyOT leaky AND equality, A's digest v1";
const CONTEXT_B: &str = "brickyard 2025-01 TinyOT leaky AND equality, B's digest v1";

fn digest(context: &str, g: &[Block]) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key(context);
    h.update(bytemuck::cast_slice(g));
    *h.finalize().as_bytes()
}

/// How (if at all) this party corrupts its `G` message (adversary tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GCorruption {
    None,
    /// Add a constant error to triple 0's `G`.
    Error,
    /// Compute triple 0's `G` with `Δ ⊕ 2^7` instead of Δ.
    OtherDelta,
}

/// Buffers of [`leaky_and`], kept by the session so that large batches do
/// not fault in fresh pages every time (wiped after each use).
#[derive(Default)]
pub(crate) struct Scratch {
    base: Vec<Block>,
    c: Vec<Block>,
    g: Vec<Block>,
    gp: Vec<Block>,
    h: [Vec<Block>; 3],
    tw: [Vec<Block>; 2],
}

/// Triples hashed per step: the step's hash buffers stay in L1/L2.
const STEP: usize = 1 << 12;

/// Runs F_LaAND on `t.len()` triples in place: on return `z = x·y` for
/// every triple. `index` is the session index of the first triple (hash
/// tweaks).
pub(crate) fn leaky_and(
    ch: &mut Channel,
    role: Role,
    delta: Block,
    index: u64,
    t: &mut [AndTriple],
    corrupt: GCorruption,
    sc: &mut Scratch,
) -> Result<()> {
    let n = t.len();
    let (mine, peer) = match role {
        Role::Alice => (0u128, 1u128),
        Role::Bob => (1, 0),
    };
    for v in [&mut sc.base, &mut sc.c, &mut sc.g, &mut sc.gp] {
        v.resize(n, Block::ZERO);
    }
    // Per step: H(K[x_Q]), H(K[x_Q] ⊕ Δ), H(M[x_P]); then
    // base = H(M[x_P]) ⊕ H(K[x_Q]) ⊕ M[z_P] ⊕ K[z_Q], C and G.
    for start in (0..n).step_by(STEP) {
        let end = (start + STEP).min(n);
        let m = end - start;
        let [h0, h1, hm] = &mut sc.h;
        let [tp, tm] = &mut sc.tw;
        for (v, src) in [(&mut *h0, 0), (&mut *h1, 1), (&mut *hm, 2)] {
            v.clear();
            v.extend(t[start..end].iter().map(|tr| match src {
                0 => tr.x.key,
                1 => tr.x.key ^ delta,
                _ => tr.x.mac,
            }));
        }
        if start == 0 && corrupt == GCorruption::OtherDelta && m > 0 {
            h1[0] = t[0].x.key ^ delta ^ Block(1 << 7);
        }
        for (t, off) in [(&mut *tp, peer), (&mut *tm, mine)] {
            t.clear();
            t.extend((start..end).map(|i| Block(2 * (index as u128 + i as u128) + off)));
        }
        tccr_batch(h0, tp);
        tccr_batch(h1, tp);
        tccr_batch(hm, tm);
        for k in 0..m {
            let i = start + k;
            let (y, z) = (&t[i].y, &t[i].z);
            let c = y.key ^ y.mac ^ delta.and_bit(y.bit);
            sc.c[i] = c;
            sc.g[i] = h0[k] ^ h1[k] ^ c;
            sc.base[i] = hm[k] ^ h0[k] ^ z.mac ^ z.key;
        }
    }
    if corrupt == GCorruption::Error && n > 0 {
        sc.g[0] ^= Block(0x5a5a);
    }
    match role {
        Role::Alice => {
            ch.send_blocks(&sc.g)?;
            ch.flush()?;
            ch.recv_blocks(&mut sc.gp)?;
        }
        Role::Bob => {
            ch.recv_blocks(&mut sc.gp)?;
            ch.send_blocks(&sc.g)?;
            ch.flush()?;
        }
    }
    // G'_P into `g`.
    let parts = sc.base.iter().zip(&sc.gp).zip(&sc.c).zip(t.iter());
    for (g, (((&base, &gp), &c), tr)) in sc.g.iter_mut().zip(parts) {
        *g = base ^ (gp ^ c).and_bit(tr.x.bit) ^ delta.and_bit(tr.z.bit);
    }
    let g = &mut sc.g;
    let d: Vec<bool> = g.iter().map(|v| v.bit(1)).collect();
    let d_peer = match role {
        Role::Alice => {
            ch.send_bits(&d)?;
            ch.flush()?;
            ch.recv_bits(n)?
        }
        Role::Bob => {
            let p = ch.recv_bits(n)?;
            ch.send_bits(&d)?;
            ch.flush()?;
            p
        }
    };
    for i in 0..n {
        let e = d[i] ^ d_peer[i];
        match role {
            Role::Alice => t[i].z.bit ^= e,
            Role::Bob => t[i].z.key ^= delta.and_bit(e),
        }
        g[i] ^= delta.and_bit(e);
    }
    // F_EQ on the G' vectors: B commits to its digest first.
    let (da, db) = (digest(CONTEXT_A, g), digest(CONTEXT_B, g));
    let ok = match role {
        Role::Alice => {
            let mut got = [0u8; 32];
            ch.recv_bytes(&mut got)?;
            let ok = got == db;
            // On a mismatch A still answers, with a digest that cannot
            // match, so an honest B learns `Cheating` rather than a hang-up
            // — and learns nothing else about A's G' vector.
            ch.send_bytes(if ok { &da } else { &[0u8; 32] })?;
            ch.flush()?;
            ok
        }
        Role::Bob => {
            ch.send_bytes(&db)?;
            ch.flush()?;
            let mut got = [0u8; 32];
            ch.recv_bytes(&mut got)?;
            got == da
        }
    };
    use zeroize::Zeroize;
    for v in [&mut sc.base, &mut sc.c, &mut sc.g] {
        v.zeroize();
    }
    for v in sc.h.iter_mut() {
        v.zeroize();
    }
    if !ok {
        return Err(Error::Cheating {
            check: EQUALITY_CHECK,
        });
    }
    Ok(())
}
