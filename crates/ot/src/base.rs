//! Base OT: Masny–Rindal endemic OT (CCS 2019, ePrint 2019/706), the
//! one-round Diffie–Hellman instantiation, over Ristretto, batched.
//!
//! It seeds every OT extension here (IKNP, KOS, Δ-ROT, TinyOT's aBits) and
//! the commitments' watch bits, so it must hold against a malicious peer:
//! MR19 prove this protocol UC-realises *endemic* OT (a corrupt party picks
//! its own outputs, the honest party's are uniform and independent of
//! everything the adversary sees, the receiver's choice stays hidden) for
//! static malicious corruptions in the programmable random-oracle model
//! (the security notes in `docs/security.md` say what that composes to).
//! Ristretto is a prime-order group: a point that decodes is in the group,
//! so there is no cofactor or small-subgroup case to reason about.
//!
//! Flow for `n` OTs, one flight each way, sent at the same time (neither
//! message depends on the other):
//!
//! - sender: `x ← Z_q`, sends `S = x·G` (one point for the batch);
//! - receiver, per OT `i` with choice `b`: `a ← Z_q`, `r_{1−b}` a uniform
//!   point, `r_b = a·G − H_i(r_{1−b})`; sends `(r_0, r_1)`, outputs
//!   `k_b = KDF(i, b, S, r_0, r_1, a·S)`;
//! - sender, per OT: `pk_j = r_j + H_i(r_{1−j})`,
//!   `k_j = KDF(i, j, S, r_0, r_1, x·pk_j)` for j = 0, 1.
//!
//! Why a receiver learns at most one key: it knows the discrete log of
//! `pk_j` only if it chose `r_j` *after* querying `H_i(r_{1−j})`; it cannot
//! do that for both `j` (that would need `r_0` before `H_i(r_0)`'s input
//! `r_1`, which needs `H_i(r_1)` before `r_0`). In the proof the simulator
//! programs `H_i` and extracts `b` as the side whose hash was queried
//! first. Both `r_j` are uniform whatever `b` is, so the sender learns
//! nothing about `b`. `H_i` and the KDF take the OT index (and the KDF the
//! whole transcript and the side `j`), so the batch's OTs are
//! domain-separated and one `S` serves them all.

use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::Identity;
use zeroize::Zeroize;

/// Domain separation of the random oracle onto the group, `H_i`.
const HASH_CONTEXT: &str = "brickyard 2026-11 base OT (Masny-Rindal over Ristretto) H_i v1";
/// Domain separation of the key derivation.
const KDF_CONTEXT: &str = "brickyard 2026-11 base OT (Masny-Rindal over Ristretto) keys v1";

/// Size of a compressed Ristretto point on the wire.
pub const POINT_BYTES: usize = 32;

/// Largest batch one call accepts: the receiver's flight is `64·n` bytes,
/// and no user needs more than a few hundred base OTs.
pub const MAX_BATCH: usize = 1 << 16;

fn random_scalar(prg: &mut Prg) -> Scalar {
    let mut wide = [0u8; 64];
    prg.fill_bytes(&mut wide);
    let s = Scalar::from_bytes_mod_order_wide(&wide);
    wide.zeroize();
    s
}

/// A uniform group element whose discrete log nobody knows.
fn random_point(prg: &mut Prg) -> RistrettoPoint {
    let mut wide = [0u8; 64];
    prg.fill_bytes(&mut wide);
    RistrettoPoint::from_uniform_bytes(&wide)
}

/// `H_i(r)`: the random oracle onto the group (BLAKE3 XOF, then the
/// Ristretto one-way map of two Elligator images).
fn hash_to_group(index: u64, r: &[u8; POINT_BYTES]) -> RistrettoPoint {
    let mut h = blake3::Hasher::new_derive_key(HASH_CONTEXT);
    h.update(&index.to_le_bytes());
    h.update(r);
    let mut wide = [0u8; 64];
    h.finalize_xof().fill(&mut wide);
    RistrettoPoint::from_uniform_bytes(&wide)
}

/// Decodes a peer's point: exactly the canonical encodings of group
/// elements are accepted, anything else is `Malformed`.
pub fn decode_point(bytes: &[u8]) -> Result<RistrettoPoint> {
    let c = CompressedRistretto::from_slice(bytes)
        .map_err(|_| Error::malformed("base OT: point of wrong length"))?;
    c.decompress()
        .ok_or_else(|| Error::malformed("base OT: not a canonical Ristretto point"))
}

/// Decodes the sender's `S`. The identity is refused: it would make every
/// key a public function of the transcript. In the endemic model a corrupt
/// sender may choose its outputs, so this is not needed for security, but
/// an honest sender never sends it and refusing costs nothing.
pub fn decode_sender_point(bytes: &[u8]) -> Result<RistrettoPoint> {
    let p = decode_point(bytes)?;
    if p == RistrettoPoint::identity() {
        return Err(Error::malformed("base OT: identity sender point"));
    }
    Ok(p)
}

/// Decodes the receiver's flight of `n` pairs `(r_0, r_1)`; every point
/// must be canonical (a corrupt receiver may pick any group elements: the
/// protocol tolerates that, see the module comment).
pub fn decode_receiver_flight(bytes: &[u8], n: usize) -> Result<Vec<[RistrettoPoint; 2]>> {
    if bytes.len() != 2 * POINT_BYTES * n {
        return Err(Error::malformed("base OT: receiver flight of wrong length"));
    }
    bytes
        .chunks_exact(2 * POINT_BYTES)
        .map(|pair| Ok([decode_point(&pair[..32])?, decode_point(&pair[32..])?]))
        .collect()
}

#[cfg(feature = "adversary")]
fn kdf(index: u64, side: bool, s: &[u8; 32], pair: &[u8], shared: &RistrettoPoint) -> Block {
    let mut enc = shared.compress().to_bytes();
    let k = kdf_bytes(index, side, s, pair, &enc);
    enc.zeroize();
    k
}

/// The KDF on the shared point's canonical encoding.
fn kdf_bytes(index: u64, side: bool, s: &[u8; 32], pair: &[u8], shared: &[u8; 32]) -> Block {
    let mut h = blake3::Hasher::new_derive_key(KDF_CONTEXT);
    h.update(&index.to_le_bytes());
    h.update(&[side as u8]);
    h.update(s);
    h.update(pair);
    h.update(shared);
    let mut out = [0u8; 16];
    h.finalize_xof().fill(&mut out);
    let k = Block::from_bytes(out);
    out.zeroize();
    k
}

/// `scalar / 2 mod ℓ`: a point multiplied by it and then doubled is the
/// point multiplied by `scalar`, and doubling is what lets
/// [`RistrettoPoint::double_and_compress_batch`] encode a whole batch with
/// one field inversion instead of one inverse square root per point.
fn halve(scalar: &Scalar) -> Scalar {
    scalar * half_of_one()
}

/// 2⁻¹ mod ℓ, computed once (an inversion is hundreds of squarings).
fn half_of_one() -> &'static Scalar {
    static HALF: std::sync::OnceLock<Scalar> = std::sync::OnceLock::new();
    HALF.get_or_init(|| Scalar::from(2u64).invert())
}

/// The canonical encodings of `2·P` for every `P` (one batched inversion),
/// then the points are wiped.
fn double_and_encode(mut points: Vec<RistrettoPoint>) -> Vec<[u8; POINT_BYTES]> {
    let enc = RistrettoPoint::double_and_compress_batch(&points)
        .into_iter()
        .map(|c| c.to_bytes())
        .collect();
    points.zeroize();
    enc
}

/// Swaps `a` and `b` when `swap`, with no branch on it.
fn cswap(a: &mut [u8; 32], b: &mut [u8; 32], swap: bool) {
    let mask = 0u8.wrapping_sub(swap as u8);
    for (x, y) in a.iter_mut().zip(b.iter_mut()) {
        let t = (*x ^ *y) & mask;
        *x ^= t;
        *y ^= t;
    }
}

fn check_batch(n: usize) -> Result<()> {
    if n > MAX_BATCH {
        return Err(Error::config(format!(
            "base OT: batch of {n} refused (at most {MAX_BATCH})"
        )));
    }
    Ok(())
}

/// Sender of `n` random base OTs: returns the key pairs `(k_i^0, k_i^1)`.
pub fn send_random(ch: &mut Channel, prg: &mut Prg, n: usize) -> Result<Vec<(Block, Block)>> {
    send_random_recorded(ch, prg, n).map(|(keys, _)| keys)
}

/// A sender's key pairs and the receiver's flight as received.
pub type RecordedSender = (Vec<(Block, Block)>, Vec<u8>);

/// [`send_random`] that also returns the receiver's flight as received, so
/// that a sender who later learns the receiver's PRG seed and choices (a
/// committed OT) can check with [`replay_receiver_flight`] that the flight
/// was their honest function.
pub fn send_random_recorded(ch: &mut Channel, prg: &mut Prg, n: usize) -> Result<RecordedSender> {
    check_batch(n)?;
    let mut x = random_scalar(prg);
    let s_bytes = RistrettoPoint::mul_base(&x).compress().to_bytes();
    ch.send_bytes(&s_bytes)?;
    ch.flush()?;
    let mut flight = vec![0u8; 2 * POINT_BYTES * n];
    ch.recv_bytes(&mut flight)?;
    let r = decode_receiver_flight(&flight, n);
    let out = r.map(|r| sender_keys(&x, &s_bytes, &flight, &r));
    x.zeroize();
    out.map(|keys| (keys, flight))
}

/// The sender's keys from its scalar and the decoded receiver flight.
fn sender_keys(
    x: &Scalar,
    s_bytes: &[u8; 32],
    flight: &[u8],
    r: &[[RistrettoPoint; 2]],
) -> Vec<(Block, Block)> {
    // x·pk_j = 2·((x/2)·pk_j): the shared points of the whole batch are
    // encoded together (see `halve`).
    let mut half = halve(x);
    let shared: Vec<RistrettoPoint> = r
        .iter()
        .zip(flight.chunks_exact(2 * POINT_BYTES))
        .enumerate()
        .flat_map(|(i, (r, pair))| {
            let enc: [&[u8; 32]; 2] = [
                pair[..32].try_into().expect("32 bytes"),
                pair[32..].try_into().expect("32 bytes"),
            ];
            let half = &half;
            (0..2).map(move |j| half * (r[j] + hash_to_group(i as u64, enc[1 - j])))
        })
        .collect();
    half.zeroize();
    let mut enc = double_and_encode(shared);
    let keys = flight
        .chunks_exact(2 * POINT_BYTES)
        .zip(enc.chunks_exact(2))
        .enumerate()
        .map(|(i, (pair, e))| {
            let i = i as u64;
            (
                kdf_bytes(i, false, s_bytes, pair, &e[0]),
                kdf_bytes(i, true, s_bytes, pair, &e[1]),
            )
        })
        .collect();
    enc.zeroize();
    keys
}

/// Receiver of random base OTs with the given choices: returns `k_i^{c_i}`.
pub fn receive_random(ch: &mut Channel, prg: &mut Prg, choices: &[bool]) -> Result<Vec<Block>> {
    receive_random_recorded(ch, prg, choices).map(|(keys, _, _)| keys)
}

/// A sender's point `S` (encoded) and its key pairs, as [`replay_sender`]
/// recomputes them.
pub type ReplayedSender = ([u8; POINT_BYTES], Vec<(Block, Block)>);

/// The sender's side recomputed from its revealed randomness: the point
/// `S` and both keys of every OT that a sender whose scalar is the next
/// draw of `prg` derives from the receiver's `flight`. A receiver who later
/// learns the sender's seed (a committed OT, as garbled-circuit ZK needs)
/// checks with it that the sender's messages were a function of that seed
/// alone, whatever its own choices were.
pub fn replay_sender(prg: &mut Prg, flight: &[u8], n: usize) -> Result<ReplayedSender> {
    check_batch(n)?;
    if flight.len() != 2 * POINT_BYTES * n {
        return Err(Error::config("base OT replay: flight length"));
    }
    let mut x = random_scalar(prg);
    let s_bytes = RistrettoPoint::mul_base(&x).compress().to_bytes();
    let r = decode_receiver_flight(flight, n);
    let out = r.map(|r| (s_bytes, sender_keys(&x, &s_bytes, flight, &r)));
    x.zeroize();
    out
}

/// A receiver's keys, its own flight and the sender's point bytes.
pub type RecordedReceiver = (Vec<Block>, Vec<u8>, [u8; POINT_BYTES]);

/// [`receive_random`] that also returns the receiver's own flight and the
/// sender's point bytes, so that [`replay_sender`] can later be checked
/// against them.
pub fn receive_random_recorded(
    ch: &mut Channel,
    prg: &mut Prg,
    choices: &[bool],
) -> Result<RecordedReceiver> {
    check_batch(choices.len())?;
    let (mut scalars, flight) = receiver_flight(prg, choices);
    ch.send_bytes(&flight)?;
    ch.flush()?;
    let mut s_bytes = [0u8; POINT_BYTES];
    let out = ch
        .recv_bytes(&mut s_bytes)
        .and_then(|()| receiver_keys(choices, &scalars, &flight, &s_bytes));
    scalars.zeroize();
    out.map(|keys| (keys, flight, s_bytes))
}

/// The receiver's flight `(r_0, r_1)` per OT and its scalars `a`.
fn receiver_flight(prg: &mut Prg, choices: &[bool]) -> (Vec<Scalar>, Vec<u8>) {
    let n = choices.len();
    // r_{1−b}: uniform, unknown discrete log. It is drawn as 2·U for a
    // uniform U (doubling is a bijection of the prime-order group, so 2·U
    // is uniform too), so that the batch is encoded with one inversion.
    let others = double_and_encode((0..n).map(|_| random_point(prg)).collect());
    let mut scalars = Vec::with_capacity(n);
    let mut flight = Vec::with_capacity(n * 2 * POINT_BYTES);
    for (i, (&b, &other)) in choices.iter().zip(&others).enumerate() {
        let a = random_scalar(prg);
        // r_b = a·G − H_i(r_{1−b}).
        let mut other = other;
        let mut mine = (RistrettoPoint::mul_base(&a) - hash_to_group(i as u64, &other))
            .compress()
            .to_bytes();
        // (r_0, r_1) = (mine, other) for b = 0, (other, mine) for b = 1.
        cswap(&mut mine, &mut other, b);
        flight.extend_from_slice(&mine);
        flight.extend_from_slice(&other);
        scalars.push(a);
    }
    (scalars, flight)
}

/// The receiver's keys `k_b = KDF(i, b, S, r_0, r_1, a·S)` once `S` is in.
fn receiver_keys(
    choices: &[bool],
    scalars: &[Scalar],
    flight: &[u8],
    s_bytes: &[u8; POINT_BYTES],
) -> Result<Vec<Block>> {
    let s = decode_sender_point(s_bytes)?;
    // a·S = 2·((a/2)·S), encoded as one batch (see `halve`).
    let mut enc = double_and_encode(scalars.iter().map(|a| halve(a) * s).collect());
    let keys = choices
        .iter()
        .zip(flight.chunks_exact(2 * POINT_BYTES))
        .zip(&enc)
        .enumerate()
        .map(|(i, ((&b, pair), e))| kdf_bytes(i as u64, b, s_bytes, pair, e))
        .collect();
    enc.zeroize();
    Ok(keys)
}

/// What [`exchange_random`] returns: the key pairs of the batch this
/// party sent, and the keys of the batch it received.
pub type Exchanged = (Vec<(Block, Block)>, Vec<Block>);

/// Two batches of random base OTs at once, one in each direction: this
/// party is the sender of `send_n` OTs and the receiver of
/// `choices.len()` OTs, the peer the other way round (it calls this with
/// the two counts swapped). Each batch is exactly the protocol of
/// [`send_random`] / [`receive_random`], with its own sender point and
/// its own flight; they are only sent together — one flight each way
/// carrying the party's sender point and its receiver flight — so a
/// protocol that needs base OTs both ways (LEGO's commitments one way,
/// its Δ-ROT the other) pays one round trip and both parties compute at
/// the same time instead of in turn.
pub fn exchange_random(
    ch: &mut Channel,
    prg: &mut Prg,
    send_n: usize,
    choices: &[bool],
) -> Result<Exchanged> {
    check_batch(send_n)?;
    check_batch(choices.len())?;
    let mut x = random_scalar(prg);
    let s_bytes = RistrettoPoint::mul_base(&x).compress().to_bytes();
    // One flight: the sender point, then the receiver flight (neither
    // depends on anything the peer sends).
    ch.send_bytes(&s_bytes)?;
    let (mut scalars, flight) = receiver_flight(prg, choices);
    ch.send_bytes(&flight)?;
    ch.flush()?;
    let out = (|| {
        let mut peer_s = [0u8; POINT_BYTES];
        ch.recv_bytes(&mut peer_s)?;
        let mut peer_flight = vec![0u8; 2 * POINT_BYTES * send_n];
        ch.recv_bytes(&mut peer_flight)?;
        let r = decode_receiver_flight(&peer_flight, send_n)?;
        let sent = sender_keys(&x, &s_bytes, &peer_flight, &r);
        let got = receiver_keys(choices, &scalars, &flight, &peer_s)?;
        Ok((sent, got))
    })();
    x.zeroize();
    scalars.zeroize();
    out
}

/// The receiver's flight recomputed from its revealed randomness: what a
/// receiver whose next draws of `prg` are its OT randomness sends for
/// `choices`. A sender who later learns that seed and the choices checks
/// with it (against [`send_random_recorded`]'s flight) that the receiver
/// ran the honest OT with exactly those choices, so that it holds
/// `k_i^{c_i}` and, the other point's discrete log being unknown to it,
/// not `k_i^{1−c_i}`.
pub fn replay_receiver_flight(prg: &mut Prg, choices: &[bool]) -> Result<Vec<u8>> {
    check_batch(choices.len())?;
    let (mut scalars, flight) = receiver_flight(prg, choices);
    scalars.zeroize();
    Ok(flight)
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

/// Deviating receivers and senders, for the tests of what the protocol
/// tolerates (`tests/base_ot.rs`); feature `adversary` only.
#[cfg(feature = "adversary")]
pub mod deviant {
    use super::*;

    /// A receiver who knows the discrete logs of both `r_0 = a_0·G` and
    /// `r_1 = a_1·G` (instead of programming one of them through `H_i`):
    /// sends them and returns its two best guesses `KDF(j, a_j·S)`, which
    /// the sender's keys must not match.
    pub fn receive_both_dlogs(
        ch: &mut Channel,
        prg: &mut Prg,
        n: usize,
    ) -> Result<Vec<[Block; 2]>> {
        let mut scalars = Vec::with_capacity(n);
        let mut flight = Vec::with_capacity(n * 2 * POINT_BYTES);
        for _ in 0..n {
            let a = [random_scalar(prg), random_scalar(prg)];
            for aj in &a {
                flight.extend_from_slice(&RistrettoPoint::mul_base(aj).compress().to_bytes());
            }
            scalars.push(a);
        }
        ch.send_bytes(&flight)?;
        ch.flush()?;
        let mut s_bytes = [0u8; POINT_BYTES];
        ch.recv_bytes(&mut s_bytes)?;
        let s = decode_sender_point(&s_bytes)?;
        Ok(scalars
            .iter()
            .zip(flight.chunks_exact(2 * POINT_BYTES))
            .enumerate()
            .map(|(i, (a, pair))| {
                [0, 1].map(|j| kdf(i as u64, j == 1, &s_bytes, pair, &(a[j] * s)))
            })
            .collect())
    }

    /// A receiver who sends `r_0 = r_1` with `r_b` programmed for side 0:
    /// `r = a·G − H_i(r)` cannot be solved, so it sends `r = a·G − H_i(r')`
    /// for a fresh `r'` on both sides and returns its guesses for both keys.
    pub fn receive_equal_pair(
        ch: &mut Channel,
        prg: &mut Prg,
        n: usize,
    ) -> Result<Vec<[Block; 2]>> {
        let mut scalars = Vec::with_capacity(n);
        let mut flight = Vec::with_capacity(n * 2 * POINT_BYTES);
        for i in 0..n {
            let a = random_scalar(prg);
            let other = random_point(prg).compress().to_bytes();
            let r = (RistrettoPoint::mul_base(&a) - hash_to_group(i as u64, &other))
                .compress()
                .to_bytes();
            flight.extend_from_slice(&r);
            flight.extend_from_slice(&r);
            scalars.push(a);
        }
        ch.send_bytes(&flight)?;
        ch.flush()?;
        let mut s_bytes = [0u8; POINT_BYTES];
        ch.recv_bytes(&mut s_bytes)?;
        let s = decode_sender_point(&s_bytes)?;
        Ok(scalars
            .iter()
            .zip(flight.chunks_exact(2 * POINT_BYTES))
            .enumerate()
            .map(|(i, (a, pair))| [0, 1].map(|j| kdf(i as u64, j == 1, &s_bytes, pair, &(a * s))))
            .collect())
    }

    /// A sender who sends an arbitrary canonical point `s` (whose discrete
    /// log it may not know) and returns the receiver's flight, so a test
    /// can check the flight was sent before `s` was read and does not
    /// depend on the choices.
    pub fn send_point(ch: &mut Channel, s: RistrettoPoint, n: usize) -> Result<Vec<u8>> {
        ch.send_bytes(&s.compress().to_bytes())?;
        ch.flush()?;
        let mut flight = vec![0u8; 2 * POINT_BYTES * n];
        ch.recv_bytes(&mut flight)?;
        Ok(flight)
    }

    /// A uniformly random group element (tests).
    pub fn random_group_element(prg: &mut Prg) -> RistrettoPoint {
        random_point(prg)
    }
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
    fn exchange_gives_both_directions_consistent_keys() {
        let (mut a, mut b) = memory_pair();
        let ca: Vec<bool> = (0..23).map(|i| i % 2 == 1).collect();
        let cb: Vec<bool> = (0..40).map(|i| i % 3 == 0).collect();
        let cb2 = cb.clone();
        let t = std::thread::spawn(move || {
            let mut prg = Prg::from_seed(Block(9));
            exchange_random(&mut b, &mut prg, 23, &cb2).unwrap()
        });
        let mut prg = Prg::from_seed(Block(10));
        let (a_sent, a_got) = exchange_random(&mut a, &mut prg, 40, &ca).unwrap();
        let (b_sent, b_got) = t.join().unwrap();
        assert_eq!(
            (a_sent.len(), a_got.len(), b_sent.len(), b_got.len()),
            (40, 23, 23, 40)
        );
        for (i, &c) in cb.iter().enumerate() {
            let (k0, k1) = a_sent[i];
            assert_ne!(k0, k1);
            assert_eq!(b_got[i], if c { k1 } else { k0 }, "Alice -> Bob OT {i}");
            assert_ne!(b_got[i], if c { k0 } else { k1 });
        }
        for (i, &c) in ca.iter().enumerate() {
            let (k0, k1) = b_sent[i];
            assert_eq!(a_got[i], if c { k1 } else { k0 }, "Bob -> Alice OT {i}");
            assert_ne!(a_got[i], if c { k0 } else { k1 });
        }
    }

    #[test]
    fn halved_batch_encoding_is_the_plain_encoding() {
        let mut prg = Prg::from_seed(Block(11));
        let x = random_scalar(&mut prg);
        // The identity in the middle (a corrupt receiver can make pk_j the
        // identity): its zero in the batch inversion must not spoil the
        // other encodings.
        let mut pts: Vec<RistrettoPoint> = (0..5).map(|_| random_point(&mut prg)).collect();
        pts.insert(2, RistrettoPoint::identity());
        let want: Vec<[u8; 32]> = pts.iter().map(|p| (x * p).compress().to_bytes()).collect();
        let half = halve(&x);
        assert_eq!(
            double_and_encode(pts.iter().map(|p| half * p).collect()),
            want
        );
    }

    #[test]
    fn cswap_swaps_exactly_when_asked() {
        let (mut a, mut b) = ([1u8; 32], [2u8; 32]);
        cswap(&mut a, &mut b, false);
        assert_eq!((a, b), ([1; 32], [2; 32]));
        cswap(&mut a, &mut b, true);
        assert_eq!((a, b), ([2; 32], [1; 32]));
    }
}
