//! IKNP OT extension (Ishai–Kilian–Nissim–Petrank 2003), semi-honest.
//!
//! One session runs 128 base OTs with the roles reversed (the extension
//! *sender* is the base-OT *receiver*, its choice bits are Δ), then extends
//! any number of times: every column PRG keeps its stream position and both
//! parties keep the running OT index, so successive calls never reuse pad
//! bits, and stored batches carry it for Beaver's agreement check.
//!
//! Per extension of `m` OTs (padded to a multiple of 128), for each column
//! `j < 128` the receiver sends `u_j = G(k_j^0) ⊕ G(k_j^1) ⊕ r` and keeps
//! `t_j = G(k_j^0)`; the sender computes `q_j = G(k_j^{Δ_j}) ⊕ Δ_j·u_j`.
//! Transposing gives rows with `t_i = q_i ⊕ r_i·Δ` — a correlated OT in the
//! free-XOR form. Work proceeds in chunks of [`CHUNK_OTS`] so the column
//! matrix and its transpose stay in L2.

mod receiver;
mod sender;

pub use receiver::IknpReceiver;
pub use sender::IknpSender;

use brickyard_core::transpose_cols::transpose_columns;
use brickyard_core::{Block, Error, Result};

/// Security parameter κ: number of base OTs and of matrix columns.
pub const KAPPA: usize = 128;

/// OTs processed per chunk: the 128 × `CHUNK_OTS`-bit matrix is 256 KiB, so
/// matrix, transpose and hash buffers fit the 2 MiB per-core L2 together.
pub const CHUNK_OTS: usize = 1 << 14;

/// OTs per flight of chosen-message OT: the sender answers after each
/// super-batch, so its reply buffer (32 bytes per OT) stays bounded and the
/// two parties never both write unboundedly at once (no TCP deadlock).
pub const CHOSEN_BATCH_OTS: usize = 1 << 20;

/// Whether an extension of this session failed part-way: the two parties'
/// column PRGs and OT indices may then be out of step, so the session
/// refuses to extend again (both sender and receiver keep one).
#[derive(Debug, Default)]
pub(crate) struct Interrupted(bool);

impl Interrupted {
    /// Refuses to extend after an interrupted extension.
    pub(crate) fn check(&self) -> Result<()> {
        if self.0 {
            return Err(Error::config(
                "IKNP session was interrupted by an error; run setup again",
            ));
        }
        Ok(())
    }

    /// Passes `r` through, marking the session unusable if it failed.
    pub(crate) fn track<T>(&mut self, r: Result<T>) -> Result<T> {
        self.0 |= r.is_err();
        r
    }
}

/// Transposes a chunk's 128 columns (each `col_blocks(out.len())` blocks)
/// into `out`: straight into place when the chunk is a whole number of
/// 128-row tiles, else through `scratch` (only a session's last chunk).
pub(crate) fn transpose_to(cols: &[Block], scratch: &mut Vec<Block>, out: &mut [Block]) {
    let nb = cols.len() / KAPPA;
    if out.len() == nb * KAPPA {
        transpose_columns(cols, nb, out);
    } else {
        scratch.resize(nb * KAPPA, Block::ZERO);
        transpose_columns(cols, nb, scratch);
        out.copy_from_slice(&scratch[..out.len()]);
    }
}

/// Blocks per column for `m` OTs (rows padded to a multiple of 128).
#[inline]
pub(crate) fn col_blocks(m: usize) -> usize {
    m.div_ceil(KAPPA)
}

/// The hash tweaks of OTs `start..start + n` for KOS (malicious, TCCR): the
/// global OT index, so no tweak repeats within a session. Semi-honest IKNP
/// hashes with CR and needs none.
#[inline]
pub(crate) fn fill_tweaks(start: u64, tweaks: &mut [Block]) {
    for (i, t) in tweaks.iter_mut().enumerate() {
        *t = Block(start as u128 + i as u128);
    }
}

/// Packs choice bits into the row layout: OT `i` is bit `i % 128` of block
/// `i / 128`. Bits beyond `bits.len()` are zero.
pub(crate) fn pack_bits(bits: &[bool], out: &mut [Block]) {
    out.fill(Block::ZERO);
    // A `bool` is one byte holding 0 or 1; the multiply gathers the low bits
    // of eight such bytes into one byte (byte k → bit k), without carries
    // because every partial product lands on a distinct bit.
    let bytes: &[u8] = bytemuck::cast_slice(bits);
    for (blk, chunk) in out.iter_mut().zip(bytes.chunks(128)) {
        let mut v = 0u128;
        for (k, c8) in chunk.chunks(8).enumerate() {
            let mut w = [0u8; 8];
            w[..c8.len()].copy_from_slice(c8);
            let x = u64::from_le_bytes(w);
            v |= ((x.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u128) << (8 * k);
        }
        *blk = Block(v);
    }
}

/// Unpacks the first `n` bits of `packed` (inverse of [`pack_bits`]).
pub(crate) fn unpack_bits(packed: &[Block], n: usize, out: &mut Vec<bool>) {
    out.extend((0..n).map(|i| packed[i / 128].bit(i % 128)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_unpack_round_trip() {
        let bits: Vec<bool> = (0..300).map(|i| (i * 7) % 5 < 2).collect();
        let mut p = vec![Block::ONES; col_blocks(300)];
        pack_bits(&bits, &mut p);
        assert_eq!(p.len(), 3);
        assert_eq!(p[2].0 >> 44, 0);
        let mut back = Vec::new();
        unpack_bits(&p, 300, &mut back);
        assert_eq!(back, bits);
        // Every byte pattern of the multiply trick.
        for x in 0..=255u8 {
            let bits: Vec<bool> = (0..8).map(|k| (x >> k) & 1 == 1).collect();
            let mut p = [Block::ZERO];
            pack_bits(&bits, &mut p);
            assert_eq!(p[0], Block(x as u128));
        }
    }
}
