//! Base OT: Chou–Orlandi "simplest OT" (CO15) over Ristretto, batched.
//!
//! Used only to seed OT extension (128 OTs per session), so it favours
//! simplicity and a clean group over speed: Ristretto is a prime-order group,
//! so a point that decompresses is in the group and there is no cofactor or
//! small-subgroup case to reason about.
//!
//! Flow for `n` OTs (two messages, whatever `n` is):
//!
//! 1. sender: `a ← Z_q`, sends `A = a·G`;
//! 2. receiver, for each `i` with choice `c_i`: `b_i ← Z_q`, sends
//!    `B_i = b_i·G + c_i·A`, and outputs `k_i = KDF(i, A, B_i, b_i·A)`;
//! 3. sender outputs `k_i^0 = KDF(i, A, B_i, a·B_i)` and
//!    `k_i^1 = KDF(i, A, B_i, a·(B_i − A))`.
//!
//! The KDF hashes the whole transcript of that OT (`A`, `B_i`) and its index,
//! which is the fix for the CO15 proof gap (see `docs/security.md`).

use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::Identity;
use zeroize::Zeroize;

/// Domain-separation context of the key derivation (BLAKE3 `derive_key`).
const KDF_CONTEXT: &str = "brickyard 2025-01 base OT (Chou-Orlandi over Ristretto) v1";

/// Size of a compressed Ristretto point on the wire.
const POINT_BYTES: usize = 32;

fn random_scalar(prg: &mut Prg) -> Scalar {
    let mut wide = [0u8; 64];
    prg.fill_bytes(&mut wide);
    let s = Scalar::from_bytes_mod_order_wide(&wide);
    wide.zeroize();
    s
}

/// Decodes a peer's point, refusing encodings that are not canonical
/// Ristretto points and the identity (which would make a key public).
fn decode_point(bytes: &[u8]) -> Result<RistrettoPoint> {
    let c = CompressedRistretto::from_slice(bytes)
        .map_err(|_| Error::malformed("base OT: point of wrong length"))?;
    let p = c
        .decompress()
        .ok_or_else(|| Error::malformed("base OT: invalid Ristretto point"))?;
    if p == RistrettoPoint::identity() {
        return Err(Error::malformed("base OT: identity point"));
    }
    Ok(p)
}

fn kdf(index: u64, a: &[u8; 32], b: &[u8; 32], shared: &RistrettoPoint) -> Block {
    let mut h = blake3::Hasher::new_derive_key(KDF_CONTEXT);
    h.update(&index.to_le_bytes());
    h.update(a);
    h.update(b);
    let mut s = shared.compress().to_bytes();
    h.update(&s);
    s.zeroize();
    let mut out = [0u8; 16];
    h.finalize_xof().fill(&mut out);
    let k = Block::from_bytes(out);
    out.zeroize();
    k
}

/// Sender of `n` random base OTs: returns the key pairs `(k_i^0, k_i^1)`.
pub fn send_random(ch: &mut Channel, prg: &mut Prg, n: usize) -> Result<Vec<(Block, Block)>> {
    let mut a = random_scalar(prg);
    let big_a = RistrettoPoint::mul_base(&a);
    let a_bytes = big_a.compress().to_bytes();
    ch.send_bytes(&a_bytes)?;
    let mut bs = vec![0u8; n * POINT_BYTES];
    ch.recv_bytes(&mut bs)?;
    let aa = a * big_a;
    let mut out = Vec::with_capacity(n);
    for (i, chunk) in bs.chunks_exact(POINT_BYTES).enumerate() {
        let b = decode_point(chunk)?;
        let b_bytes: [u8; 32] = chunk.try_into().expect("chunks_exact gives 32 bytes");
        let ab = a * b;
        let k0 = kdf(i as u64, &a_bytes, &b_bytes, &ab);
        let k1 = kdf(i as u64, &a_bytes, &b_bytes, &(ab - aa));
        out.push((k0, k1));
    }
    a.zeroize();
    Ok(out)
}

/// Receiver of random base OTs with the given choices: returns `k_i^{c_i}`.
pub fn receive_random(ch: &mut Channel, prg: &mut Prg, choices: &[bool]) -> Result<Vec<Block>> {
    let mut a_bytes = [0u8; POINT_BYTES];
    ch.recv_bytes(&mut a_bytes)?;
    let big_a = decode_point(&a_bytes)?;
    let mut out = Vec::with_capacity(choices.len());
    let mut wire = Vec::with_capacity(choices.len() * POINT_BYTES);
    for (i, &c) in choices.iter().enumerate() {
        let mut b = random_scalar(prg);
        let bg = RistrettoPoint::mul_base(&b);
        // Both branches are computed so the work done does not depend on c.
        let with_a = bg + big_a;
        let point = if c { with_a } else { bg };
        let enc = point.compress().to_bytes();
        wire.extend_from_slice(&enc);
        out.push(kdf(i as u64, &a_bytes, &enc, &(b * big_a)));
        b.zeroize();
    }
    ch.send_bytes(&wire)?;
    ch.flush()?;
    Ok(out)
}

/// Chosen-message base OT, sender side: random OT, then each message
/// one-time-padded with its key.
pub fn send(ch: &mut Channel, prg: &mut Prg, msgs: &[(Block, Block)]) -> Result<()> {
    let mut keys = send_random(ch, prg, msgs.len())?;
    for (&(m0, m1), &(k0, k1)) in msgs.iter().zip(&keys) {
        ch.send_blocks(&[m0 ^ k0, m1 ^ k1])?;
    }
    keys.zeroize();
    ch.flush()
}

/// Chosen-message base OT, receiver side: returns `m_i^{c_i}`.
pub fn receive(ch: &mut Channel, prg: &mut Prg, choices: &[bool]) -> Result<Vec<Block>> {
    let mut keys = receive_random(ch, prg, choices)?;
    let mut pads = ch.recv_block_vec(2 * choices.len())?;
    let out = choices
        .iter()
        .zip(&keys)
        .zip(pads.chunks_exact(2))
        .map(|((&c, &k), p)| p[c as usize] ^ k)
        .collect();
    keys.zeroize();
    pads.zeroize();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::channel::memory_pair;

    #[test]
    fn random_and_chosen_base_ot() {
        let (mut a, mut b) = memory_pair();
        let choices: Vec<bool> = (0..40).map(|i| i % 3 == 1).collect();
        let c2 = choices.clone();
        let t = std::thread::spawn(move || {
            let mut prg = Prg::from_seed(Block(7));
            let r = receive_random(&mut b, &mut prg, &c2).unwrap();
            let m = receive(&mut b, &mut prg, &c2).unwrap();
            (r, m)
        });
        let mut prg = Prg::from_seed(Block(8));
        let keys = send_random(&mut a, &mut prg, 40).unwrap();
        let msgs: Vec<(Block, Block)> = (0..40u128).map(|i| (Block(i), Block(i << 64))).collect();
        send(&mut a, &mut prg, &msgs).unwrap();
        let (r, m) = t.join().unwrap();
        for i in 0..40 {
            let (k0, k1) = keys[i];
            assert_ne!(k0, k1);
            assert_eq!(r[i], if choices[i] { k1 } else { k0 });
            assert_eq!(m[i], if choices[i] { msgs[i].1 } else { msgs[i].0 });
        }
        // Keys of different OTs differ (index and transcript are hashed in).
        assert_ne!(keys[0].0, keys[1].0);
    }

    #[test]
    fn bad_points_are_malformed() {
        for bad in [[0u8; 32], [0xff; 32]] {
            let (mut a, mut b) = memory_pair();
            a.send_bytes(&bad).unwrap();
            a.flush().unwrap();
            let mut prg = Prg::from_seed(Block(1));
            let r = receive_random(&mut b, &mut prg, &[true]);
            assert!(matches!(r, Err(Error::Malformed(_))), "{r:?}");
        }
        // And on the sender's side: an identity B.
        let (mut a, mut b) = memory_pair();
        let t = std::thread::spawn(move || {
            let mut a_bytes = [0u8; 32];
            b.recv_bytes(&mut a_bytes).unwrap();
            b.send_bytes(&[0u8; 64]).unwrap();
            b.flush().unwrap();
            b
        });
        let mut prg = Prg::from_seed(Block(2));
        let r = send_random(&mut a, &mut prg, 2);
        assert!(matches!(r, Err(Error::Malformed(_))), "{r:?}");
        drop(t.join().unwrap());
    }
}
