//! Committed OT of the witness labels (JKO13's requirement), by KOS OT
//! extension whose sender side the prover can replay once the verifier's
//! seed is open.
//!
//! Roles: the verifier (garbler) is the **extension sender** with secret
//! `s` (KOS's Δ, drawn from its seed and used for nothing else), the prover
//! the **extension receiver** with the witness bits `w` as choices. Flow:
//!
//! ```text
//! base OT   κ = 128 Masny–Rindal OTs, the verifier their receiver with
//!           choices s (all its base-OT randomness from the seed's OT PRG);
//!           the prover, their sender, records the verifier's flight
//! extend    KOS: u columns, the verifier's challenge, the prover's answer,
//!           the verifier's consistency check (`kos-consistency`)
//!           → the verifier holds q_i, the prover t_i = q_i ⊕ w_i·s
//! transfer  y_i^0 = H(q_i, i) ⊕ L_i^0,  y_i^1 = H(q_i ⊕ s, i) ⊕ L_i^1
//!           the prover takes L_i^{w_i} = y_i^{w_i} ⊕ H(t_i, i)
//! opening   the seed (hence s, the OT PRG, Δ and every L_i^b) is revealed:
//!           the prover replays the verifier's base-OT flight from
//!           (OT PRG, s) (`gczk-ot-sender`), computes q_i = t_i ⊕ w_i·s and
//!           checks BOTH y_i^0 and y_i^1 of every OT (`gczk-ot-labels`)
//! ```
//!
//! Why the prover's decision never depends on `w`: once the flight is the
//! honest function of (seed, s), the verifier holds exactly `k_j^{s_j}` of
//! every base OT (the other key's point has no discrete log it knows), so
//! what it knows of the extension is exactly `q_i = t_i ⊕ w_i·s` (and the
//! pseudorandom `G(k_j^{1−s_j})` hides `t_i` itself). Both comparisons are
//! then between the verifier's messages and values it can compute from
//! `q_i`, `s` and the seed: their outcome is a function of the verifier's
//! view, not of `w`. Without the flight check, a verifier running the base
//! OTs with `s' ≠ s` and revealing `s` could make exactly the OTs with
//! `w_i = 1` fail (`docs/protocols/gczk.md`, "Committed OT").

use crate::{CHECK_OT_LABELS, CHECK_OT_SENDER};
use brickyard_core::hash::tccr_batch;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_ot::{KosReceiver, KosSender};
use zeroize::{Zeroize, Zeroizing};

/// High half of the OT hash tweaks: apart from the AND tweaks and from
/// every other user of the TCCR hash.
const OT_TWEAK_DOMAIN: u64 = 0x6763_7a6b_0000_0002;

/// The `n` tweaks of the transfer, OT `i` at `i`.
fn tweaks(n: usize) -> Vec<Block> {
    (0..n as u64)
        .map(|i| Block::from_halves(i, OT_TWEAK_DOMAIN))
        .collect()
}

/// `H(x_i, i)` for every `i`, in place.
fn hash(x: &mut [Block]) {
    let t = tweaks(x.len());
    tccr_batch(x, &t);
}

/// The honest ciphertext pairs `(H(q_i) ⊕ L⁰, H(q_i ⊕ s) ⊕ L¹)`, flat.
fn ciphertexts(q: &[Block], s: Block, pairs: &[(Block, Block)]) -> Zeroizing<Vec<Block>> {
    let mut h0 = Zeroizing::new(q.to_vec());
    let mut h1 = Zeroizing::new(q.iter().map(|&x| x ^ s).collect::<Vec<_>>());
    hash(&mut h0);
    hash(&mut h1);
    let mut y = Zeroizing::new(Vec::with_capacity(2 * q.len()));
    for ((&a, &b), &(m0, m1)) in h0.iter().zip(h1.iter()).zip(pairs) {
        y.push(a ^ m0);
        y.push(b ^ m1);
    }
    y
}

/// Deviations of a cheating verifier in the OT (tests of the prover's
/// checks only).
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OtCheat {
    /// Runs the extension with `s ⊕ 1` (bit 0 flipped) while the seed says
    /// `s`, and encrypts side 1 with the opened `s` — the selective-failure
    /// attack that would make exactly the OTs with choice 1 fail.
    OtherS,
}

/// The verifier's side: the label pairs `(L⁰, L¹)` of the witness wires,
/// the extension run with secret `s`, its base OTs drawing from `ot_prg`.
pub fn send_labels(
    ch: &mut Channel,
    ot_prg: &mut Prg,
    s: Block,
    pairs: &[(Block, Block)],
) -> Result<()> {
    send_labels_inner(ch, ot_prg, s, pairs, None)
}

#[cfg_attr(not(test), allow(unused_variables))]
pub(crate) fn send_labels_inner(
    ch: &mut Channel,
    ot_prg: &mut Prg,
    s: Block,
    pairs: &[(Block, Block)],
    cheat: Option<OtCheatOpt>,
) -> Result<()> {
    #[allow(unused_mut)]
    let mut s_run = s;
    #[cfg(test)]
    if cheat == Some(OtCheat::OtherS) {
        s_run = s ^ Block(1);
    }
    let mut kos = KosSender::setup_with_delta(ch, ot_prg, s_run)?;
    let mut q = Zeroizing::new(vec![Block::ZERO; pairs.len()]);
    kos.correlated_into(ch, &mut q)?;
    // Side 1 is encrypted under the opened s; honest s_run = s.
    let y = ciphertexts(&q, s, pairs);
    ch.send_blocks(&y)?;
    ch.flush()
}

#[cfg(test)]
pub(crate) type OtCheatOpt = OtCheat;
#[cfg(not(test))]
pub(crate) type OtCheatOpt = std::convert::Infallible;

/// What the prover keeps of the OTs to check them once the seed is open.
pub struct Received {
    /// The labels of the witness bits.
    pub labels: Zeroizing<Vec<Block>>,
    choices: Zeroizing<Vec<bool>>,
    /// The verifier's base-OT flight (its receiver messages).
    flight: Vec<u8>,
    /// `t_i` of every extended OT.
    t: Zeroizing<Vec<Block>>,
    /// Both ciphertexts of every OT, flat.
    y: Vec<Block>,
}

/// The prover's side: one label per witness bit.
pub fn receive_labels(ch: &mut Channel, prg: &mut Prg, witness: &[bool]) -> Result<Received> {
    let (mut kos, flight) = KosReceiver::setup_recorded(ch, prg)?;
    receive_with(ch, &mut kos, flight, witness)
}

/// [`receive_labels`] on an extension set up by the caller (tests: a
/// receiver playing a KOS cheat).
pub(crate) fn receive_with(
    ch: &mut Channel,
    kos: &mut KosReceiver,
    flight: Vec<u8>,
    witness: &[bool],
) -> Result<Received> {
    let n = witness.len();
    let mut t = Zeroizing::new(vec![Block::ZERO; n]);
    kos.correlated_into(ch, witness, &mut t)?;
    let y = ch.recv_block_vec(2 * n)?;
    let mut labels = Zeroizing::new(t.to_vec());
    hash(&mut labels);
    for ((l, &c), y) in labels.iter_mut().zip(witness).zip(y.chunks_exact(2)) {
        *l ^= y[c as usize];
    }
    Ok(Received {
        labels,
        choices: Zeroizing::new(witness.to_vec()),
        flight,
        t,
        y,
    })
}

/// The prover's check of every OT message once the verifier's seed is
/// open: `ot_prg` its base-OT PRG, `s` its extension secret, `pairs` the
/// label pairs, all derived from the seed.
pub fn check(
    received: &Received,
    ot_prg: &mut Prg,
    s: Block,
    pairs: &[(Block, Block)],
) -> Result<()> {
    if pairs.len() != received.choices.len() {
        return Err(Error::config(
            "gczk: OT check of a different witness length",
        ));
    }
    if KosSender::replay_base_flight(ot_prg, s)? != received.flight {
        return Err(Error::Cheating {
            check: CHECK_OT_SENDER,
        });
    }
    let mut q: Zeroizing<Vec<Block>> = Zeroizing::new(
        received
            .t
            .iter()
            .zip(received.choices.iter())
            .map(|(&t, &c)| t ^ s.and_bit(c))
            .collect(),
    );
    let expected = ciphertexts(&q, s, pairs);
    q.zeroize();
    // Every ciphertext is compared before deciding.
    let bad = expected
        .iter()
        .zip(&received.y)
        .fold(0u128, |acc, (a, b)| acc | (a.0 ^ b.0));
    if bad != 0 {
        return Err(Error::Cheating {
            check: CHECK_OT_LABELS,
        });
    }
    Ok(())
}
