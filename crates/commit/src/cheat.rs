//! Test-only deviations of a malicious committer in the commit phase (the
//! opening cheats are built directly in the tests from honest payloads).

use crate::code::Row;
use crate::committer::{chunk_len, Committer};
use crate::params::CHUNK_BLOCKS;
use brickyard_core::Block;

/// What the committer does wrong.
#[derive(Clone, Debug)]
pub(crate) enum Cheat {
    /// Honest.
    None,
    /// XOR `flip` (bit j = code position j) into the corrections of the
    /// batch-relative commitment `id`, making its column a non-codeword;
    /// the check answer stays the honest one for the intended codeword.
    Corrections { id: usize, flip: Row },
    /// XOR `delta` into Block `index` of the consistency-check answer.
    Response { index: usize, delta: Block },
}

impl Committer {
    pub(crate) fn cheat_corrections(
        &self,
        w0: usize,
        wire: &mut [Block],
        corr_rows: usize,
        total_blocks: usize,
    ) {
        let Cheat::Corrections { id, flip } = &self.cheat else {
            return;
        };
        let (r, lane) = (id / 128, id % 128);
        let (c, b) = (r / CHUNK_BLOCKS, r % CHUNK_BLOCKS);
        let n = self.params.n();
        let first_corr = n - corr_rows;
        if c < w0 || (c - w0) * CHUNK_BLOCKS * corr_rows >= wire.len() {
            return;
        }
        let nb = chunk_len(c, total_blocks);
        for j in first_corr..n {
            if (flip[j / 64] >> (j % 64)) & 1 == 1 {
                let at = (c - w0) * CHUNK_BLOCKS * corr_rows + (j - first_corr) * nb + b;
                wire[at] ^= Block(1u128 << lane);
            }
        }
    }

    pub(crate) fn cheat_response(&self, resp: &mut [Block]) {
        if let Cheat::Response { index, delta } = self.cheat {
            resp[index] ^= delta;
        }
    }
}
