//! Beaver derandomisation: turn stored random OTs into chosen-message OTs
//! online with one correction bit per choice.
//!
//! Receiver with stored `(c_i, m_{c_i})` and real choice `b_i` sends
//! `d_i = b_i ⊕ c_i`; sender with stored `(m0_i, m1_i)` and real messages
//! `(x0_i, x1_i)` answers `y_i^0 = x0_i ⊕ m_{d_i}`, `y_i^1 = x1_i ⊕ m_{1⊕d_i}`;
//! the receiver outputs `y_i^{b_i} ⊕ m_{c_i} = x_{b_i}`. `d_i` is a one-time
//! pad of `b_i` (c_i is uniform and hidden by the OT), and `m_{1⊕c_i}` pads
//! the other message. Online cost: one round trip, n bits + 32n bytes.
//!
//! The correlated variant starts from stored correlated OTs
//! (`t_i = q_i ⊕ c_i·Δ`) and transfers free-XOR labels `(X_i, X_i ⊕ Δ)` —
//! the labels of a garbler whose offset is the OT's Δ — with a single block:
//! `y_i = X_i ⊕ q_i ⊕ d_i·Δ`, so `y_i ⊕ t_i = X_i ⊕ b_i·Δ`.
//!
//! Each call first takes its items out of the batch (so material is spent
//! even if the call then fails, and can never be used twice), then checks
//! that both parties are at the same session OT index.

use crate::rot::{CotReceiverBatch, CotSenderBatch, RotReceiverBatch, RotSenderBatch};
use brickyard_core::{Block, Channel, Error, Result};
use zeroize::Zeroize;

fn send_header(ch: &mut Channel, index: u64, d: &[bool]) -> Result<()> {
    ch.send_bytes(&index.to_le_bytes())?;
    ch.send_bits(d)?;
    ch.flush()
}

/// Sends `d_i = b_i ⊕ c_i` for the real choices `b` and the stored `c`,
/// then wipes them: together with the stored bits they reveal `b`.
fn send_corrections(ch: &mut Channel, index: u64, b: &[bool], c: &[bool]) -> Result<()> {
    let mut d: Vec<bool> = b.iter().zip(c).map(|(&b, &c)| b ^ c).collect();
    let r = send_header(ch, index, &d);
    d.zeroize();
    r
}

pub(crate) fn recv_header(ch: &mut Channel, index: u64, n: usize) -> Result<Vec<bool>> {
    let mut b = [0u8; 8];
    ch.recv_bytes(&mut b)?;
    let peer = u64::from_le_bytes(b);
    if peer != index {
        return Err(Error::malformed(format!(
            "Beaver: peer consumes preprocessed OT #{peer}, we are at #{index}"
        )));
    }
    ch.recv_bits(n)
}

/// Sender: transfers `pairs[i].b_i` using `pairs.len()` stored random OTs.
pub fn send(ch: &mut Channel, batch: &mut RotSenderBatch, pairs: &[(Block, Block)]) -> Result<()> {
    let mat = batch.take(pairs.len())?;
    let d = recv_header(ch, mat.next_index(), pairs.len())?;
    let mut ys = Vec::with_capacity(2 * pairs.len());
    for ((&(x0, x1), (m0, m1)), &d) in pairs.iter().zip(mat.pairs()).zip(&d) {
        let (a, b) = if d { (m1, m0) } else { (m0, m1) };
        ys.push(x0 ^ a);
        ys.push(x1 ^ b);
    }
    // `ys` goes to the peer: public, no wipe needed.
    ch.send_blocks(&ys)?;
    ch.flush()
}

/// Receiver: obtains `x_{b_i}` for `choices[i] = b_i`.
pub fn receive(
    ch: &mut Channel,
    batch: &mut RotReceiverBatch,
    choices: &[bool],
) -> Result<Vec<Block>> {
    let mat = batch.take(choices.len())?;
    send_corrections(ch, mat.next_index(), choices, mat.choices())?;
    let ys = ch.recv_block_vec(2 * choices.len())?;
    let out = choices
        .iter()
        .zip(mat.msgs())
        .zip(ys.chunks_exact(2))
        .map(|((&b, &m), y)| y[b as usize] ^ m)
        .collect();
    Ok(out)
}

/// Correlated sender: transfers `X_i ⊕ b_i·Δ` (Δ = the batch's Δ) for the
/// zero-labels `X_i`, one block per OT.
pub fn send_correlated(
    ch: &mut Channel,
    batch: &mut CotSenderBatch,
    zero_labels: &[Block],
) -> Result<()> {
    let mat = batch.take(zero_labels.len())?;
    let d = recv_header(ch, mat.next_index(), zero_labels.len())?;
    let delta = mat.delta();
    let ys: Vec<Block> = zero_labels
        .iter()
        .zip(mat.q())
        .zip(&d)
        .map(|((&x, &q), &d)| x ^ q ^ delta.and_bit(d))
        .collect();
    // `ys` goes to the peer: public, no wipe needed.
    ch.send_blocks(&ys)?;
    ch.flush()
}

/// Correlated receiver: obtains `X_i ⊕ b_i·Δ` for `choices[i] = b_i`.
pub fn receive_correlated(
    ch: &mut Channel,
    batch: &mut CotReceiverBatch,
    choices: &[bool],
) -> Result<Vec<Block>> {
    let mat = batch.take(choices.len())?;
    send_corrections(ch, mat.next_index(), choices, mat.choices())?;
    let mut ys = ch.recv_block_vec(choices.len())?;
    for (y, &t) in ys.iter_mut().zip(mat.t()) {
        *y ^= t;
    }
    Ok(ys)
}
