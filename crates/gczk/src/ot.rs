//! Committed OT of the witness labels (JKO13's requirement): the verifier
//! sends its label pairs by the malicious-secure Masny–Rindal base OT of
//! `brickyard_ot::base`, drawing all its OT randomness from a PRG seeded by
//! a value it reveals later. Then the prover recomputes the verifier's
//! point and both keys of every OT from that seed and its own flight, and
//! checks both ciphertexts of every OT. Every one of the verifier's OT
//! messages is thereby checked as a function of the seed and the prover's
//! (choice-hiding) flight, so whether the prover aborts never depends on
//! which label it chose.
//!
//! Batches follow `base::MAX_BATCH`; each batch draws one scalar from the
//! same PRG, in order, on both sides.

use crate::{CHECK_OT_LABELS, CHECK_OT_SENDER};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_ot::base;
use zeroize::{Zeroize, Zeroizing};

/// The verifier's side: the label pairs `(L⁰, L¹)` of the witness wires, by
/// base OT whose sender randomness is `ot_prg`.
pub fn send_labels(ch: &mut Channel, ot_prg: &mut Prg, pairs: &[(Block, Block)]) -> Result<()> {
    for batch in pairs.chunks(base::MAX_BATCH) {
        base::send(ch, ot_prg, batch)?;
    }
    Ok(())
}

/// What the prover keeps of the OTs to check them once the seed is open.
pub struct Received {
    /// The labels of the witness bits.
    pub labels: Zeroizing<Vec<Block>>,
    choices: Vec<bool>,
    batches: Vec<Batch>,
}

struct Batch {
    flight: Vec<u8>,
    point: [u8; base::POINT_BYTES],
    /// Both ciphertexts of every OT of the batch.
    pads: Vec<Block>,
}

/// The prover's side: one label per witness bit.
pub fn receive_labels(ch: &mut Channel, prg: &mut Prg, witness: &[bool]) -> Result<Received> {
    let mut labels = Zeroizing::new(Vec::with_capacity(witness.len()));
    let mut batches = Vec::new();
    for choices in witness.chunks(base::MAX_BATCH) {
        let (mut keys, flight, point) = base::receive_random_recorded(ch, prg, choices)?;
        let pads = ch.recv_block_vec(2 * choices.len())?;
        labels.extend(
            choices
                .iter()
                .zip(keys.iter())
                .zip(pads.chunks_exact(2))
                .map(|((&c, &k), p)| p[c as usize] ^ k),
        );
        keys.zeroize();
        batches.push(Batch {
            flight,
            point,
            pads,
        });
    }
    Ok(Received {
        labels,
        choices: witness.to_vec(),
        batches,
    })
}

/// The prover's check of every OT message once the verifier's OT seed and
/// label pairs are known (from the opened garbling seed).
pub fn check(received: &Received, ot_prg: &mut Prg, pairs: &[(Block, Block)]) -> Result<()> {
    if pairs.len() != received.choices.len() {
        return Err(Error::config(
            "gczk: OT check of a different witness length",
        ));
    }
    for (batch, pairs) in received.batches.iter().zip(pairs.chunks(base::MAX_BATCH)) {
        let (point, mut keys) = base::replay_sender(ot_prg, &batch.flight, pairs.len())?;
        if point != batch.point {
            keys.zeroize();
            return Err(Error::Cheating {
                check: CHECK_OT_SENDER,
            });
        }
        let ok = keys
            .iter()
            .zip(pairs)
            .zip(batch.pads.chunks_exact(2))
            .all(|((&(k0, k1), &(m0, m1)), p)| p[0] ^ k0 == m0 && p[1] ^ k1 == m1);
        keys.zeroize();
        if !ok {
            return Err(Error::Cheating {
                check: CHECK_OT_LABELS,
            });
        }
    }
    Ok(())
}
