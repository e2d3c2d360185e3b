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

use super::share::{AuthShare, Role};
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

/// Runs F_LaAND on `n` triples in place: on return `z = x·y` for every
/// triple. `index` is the session index of the first triple (hash tweaks).
#[allow(clippy::too_many_arguments)]
pub(crate) fn leaky_and(
    ch: &mut Channel,
    role: Role,
    delta: Block,
    index: u64,
    x: &[AuthShare],
    y: &[AuthShare],
    z: &mut [AuthShare],
    corrupt: GCorruption,
) -> Result<()> {
    let n = x.len();
    let (mine, peer) = match role {
        Role::Alice => (0u128, 1u128),
        Role::Bob => (1, 0),
    };
    let tw = |off: u128| -> Vec<Block> {
        (0..n as u128)
            .map(|i| Block(2 * (index as u128 + i) + off))
            .collect()
    };
    let tw_peer = tw(peer);
    // H(K[x_Q]) and H(K[x_Q] ⊕ Δ), then H(M[x_P]).
    let mut hk0: Vec<Block> = x.iter().map(|s| s.key).collect();
    let mut hk1: Vec<Block> = x.iter().map(|s| s.key ^ delta).collect();
    if corrupt == GCorruption::OtherDelta && n > 0 {
        hk1[0] = x[0].key ^ delta ^ Block(1 << 7);
    }
    tccr_batch(&mut hk0, &tw_peer);
    tccr_batch(&mut hk1, &tw_peer);
    drop(tw_peer);
    let mut hm: Vec<Block> = x.iter().map(|s| s.mac).collect();
    tccr_batch(&mut hm, &tw(mine));
    let c: Vec<Block> = y
        .iter()
        .map(|s| s.key ^ s.mac ^ delta.and_bit(s.bit))
        .collect();
    let mut g: Vec<Block> = (0..n).map(|i| hk0[i] ^ hk1[i] ^ c[i]).collect();
    if corrupt == GCorruption::Error && n > 0 {
        g[0] ^= Block(0x5a5a);
    }
    let mut g_peer = vec![Block::ZERO; n];
    match role {
        Role::Alice => {
            ch.send_blocks(&g)?;
            ch.flush()?;
            ch.recv_blocks(&mut g_peer)?;
        }
        Role::Bob => {
            ch.recv_blocks(&mut g_peer)?;
            ch.send_blocks(&g)?;
            ch.flush()?;
        }
    }
    // G'_P, reusing g.
    for i in 0..n {
        let s = hm[i] ^ hk0[i] ^ z[i].mac ^ z[i].key ^ (g_peer[i] ^ c[i]).and_bit(x[i].bit);
        g[i] = s ^ delta.and_bit(z[i].bit);
    }
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
            Role::Alice => z[i].bit ^= e,
            Role::Bob => z[i].key ^= delta.and_bit(e),
        }
        g[i] ^= delta.and_bit(e);
    }
    // F_EQ on the G' vectors: B commits to its digest first.
    let (da, db) = (digest(CONTEXT_A, &g), digest(CONTEXT_B, &g));
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
    for v in [&mut hk0, &mut hk1, &mut hm, &mut g] {
        v.zeroize();
    }
    if !ok {
        return Err(Error::Cheating {
            check: EQUALITY_CHECK,
        });
    }
    Ok(())
}
