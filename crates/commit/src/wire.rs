//! Message shapes shared by both parties. Fixed-size payloads are read with
//! exact lengths; every variable-size message starts with a count that the
//! receiver compares against what it expects, so a short, long or
//! re-ordered message is `Malformed`, never a panic or a silent misparse.

use crate::code::Row;
use crate::params::ROW_WORDS;
use brickyard_core::{Block, Channel, Error, Result};
use serde::{Deserialize, Serialize};

/// First message of a commit batch (committer → receiver).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct CommitHeader {
    /// Real commitments in the batch.
    pub count: u64,
    /// Chosen messages (corrections on all N rows) or random (parity rows only).
    pub chosen: bool,
    /// Global block index of the batch's first block; must match the
    /// receiver's counter (detects desynchronised sessions).
    pub first_block: u64,
}

/// Receives a batch's [`CommitHeader`] and checks it announces `count`
/// commitments starting at our block counter `next_block`.
pub(crate) fn recv_header(ch: &mut Channel, count: usize, next_block: u64) -> Result<CommitHeader> {
    let h: CommitHeader = ch.recv_msg()?;
    if h.count != count as u64 || h.first_block != next_block {
        return Err(Error::malformed(format!(
            "commit header {h:?} does not match {count} commitments at block {next_block}"
        )));
    }
    Ok(h)
}

/// Bytes of one full opening on the wire for a code of length `n`:
/// message, then share row (`ceil(n / 8)` bytes).
pub(crate) const fn opening_bytes(n: usize) -> usize {
    16 + n.div_ceil(8)
}

/// Openings built and checked per piece of a plain opening (~110 KB: above
/// the channel's 64 KB write buffer, so a piece goes to the transport in
/// one write without an extra copy, and below the allocator's 128 KB mmap
/// threshold, so the transport's copy reuses heap memory).
pub(crate) const OPEN_PIECE: usize = 2048;

/// Ids as one-element sets, without copying them (`[usize; 1]` has the
/// layout of `usize`): plain openings are XOR openings of singletons.
pub(crate) fn singletons(ids: &[usize]) -> &[[usize; 1]] {
    bytemuck::cast_slice(ids)
}

/// Sends a count prefix (u32, little-endian).
pub(crate) fn send_count(ch: &mut Channel, n: usize) -> Result<()> {
    let n = u32::try_from(n).map_err(|_| Error::config("too many items in one message"))?;
    ch.send_bytes(&n.to_le_bytes())
}

/// Receives a count prefix and checks it is `expected`.
pub(crate) fn recv_count(ch: &mut Channel, expected: usize, what: &str) -> Result<()> {
    let mut b = [0u8; 4];
    ch.recv_bytes(&mut b)?;
    let got = u32::from_le_bytes(b) as usize;
    if got != expected {
        return Err(Error::malformed(format!(
            "{what}: expected {expected} items, peer sent {got}"
        )));
    }
    Ok(())
}

/// Appends `(m, t)` to an opening buffer.
pub(crate) fn put_opening(buf: &mut Vec<u8>, n: usize, m: Block, t: &Row) {
    let at = buf.len();
    buf.resize(at + opening_bytes(n), 0);
    write_opening(&mut buf[at..], m, t);
}

/// Writes `(m, t)` into one opening slot of [`opening_bytes`] bytes (the
/// slot's length gives the row's).
#[inline]
pub(crate) fn write_opening(out: &mut [u8], m: Block, t: &Row) {
    let (mb, tb) = out.split_at_mut(16);
    mb.copy_from_slice(&m.to_bytes());
    let bytes: &[u8] = bytemuck::cast_slice(t);
    tb.copy_from_slice(&bytes[..tb.len()]);
}

/// Parses one opening of a code of length `n`; bits of the row at
/// positions ≥ n must be zero.
#[inline]
pub(crate) fn get_opening(bytes: &[u8], n: usize) -> Result<(Block, Row)> {
    debug_assert_eq!(bytes.len(), opening_bytes(n));
    let m = Block::from_bytes(bytes[..16].try_into().expect("16 bytes"));
    let mut t = [0u64; ROW_WORDS];
    bytemuck::cast_slice_mut::<u64, u8>(&mut t)[..n.div_ceil(8)].copy_from_slice(&bytes[16..]);
    if n < 64 * ROW_WORDS && t[n / 64] >> (n % 64) != 0 {
        return Err(Error::malformed(
            "opening has bits set beyond the code length",
        ));
    }
    Ok((m, t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_round_trip_and_padding_refused() {
        for n in [299usize, 308, 317] {
            let mut t: Row = [0; ROW_WORDS];
            t[..5].copy_from_slice(&[1, 2, 3, 4, (1 << (n % 64)) - 1]);
            let mut buf = Vec::new();
            put_opening(&mut buf, n, Block(77), &t);
            assert_eq!(buf.len(), opening_bytes(n));
            assert_eq!(get_opening(&buf, n).unwrap(), (Block(77), t));
            let last = buf.len() - 1;
            buf[last] |= 0x80;
            assert!(matches!(get_opening(&buf, n), Err(Error::Malformed(_))));
        }
    }
}
