//! The 64-byte chunk header and its structural checks.
//!
//! Structural checks run on every header the store looks at (on open and on
//! read) so that a hostile header can neither make us allocate without bound
//! nor index out of range; the MAC then decides whether the content is ours.

use crate::types::RecordSize;

/// Bytes of a chunk header.
pub const HEADER_LEN: usize = 64;
const MAGIC: &[u8; 8] = b"BYSTCHK1";

/// A decoded chunk header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Position of the chunk in its file.
    pub chunk_index: u64,
    /// Index of the chunk's first record.
    pub first_record: u64,
    /// Records in the chunk (at least 1).
    pub record_count: u32,
    /// Bytes of payload following the header.
    pub payload_len: u32,
    /// BLAKE3 keyed MAC (see `mac.rs`).
    pub mac: [u8; 32],
}

impl Header {
    /// Encodes into the first [`HEADER_LEN`] bytes of `out`.
    pub fn encode(&self, out: &mut [u8]) {
        out[0..8].copy_from_slice(MAGIC);
        out[8..16].copy_from_slice(&self.chunk_index.to_le_bytes());
        out[16..24].copy_from_slice(&self.first_record.to_le_bytes());
        out[24..28].copy_from_slice(&self.record_count.to_le_bytes());
        out[28..32].copy_from_slice(&self.payload_len.to_le_bytes());
        out[32..64].copy_from_slice(&self.mac);
    }

    /// Decodes a header; `None` when the magic is wrong (not a chunk boundary).
    pub fn decode(b: &[u8; HEADER_LEN]) -> Option<Header> {
        if &b[0..8] != MAGIC {
            return None;
        }
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap_or([0; 4]));
        let mut mac = [0u8; 32];
        mac.copy_from_slice(&b[32..64]);
        Some(Header {
            chunk_index: u64_at(8),
            first_record: u64_at(16),
            record_count: u32_at(24),
            payload_len: u32_at(28),
            mac,
        })
    }

    /// Checks that the header is where it should be and that its lengths are
    /// consistent with the kind; returns a reason when not.
    pub fn check(
        &self,
        expect_index: u64,
        expect_first: u64,
        size: RecordSize,
        max_payload: usize,
    ) -> Result<(), String> {
        if self.chunk_index != expect_index {
            return Err(format!(
                "chunk index {} where {expect_index} was expected",
                self.chunk_index
            ));
        }
        if self.first_record != expect_first {
            return Err(format!(
                "first record {} where {expect_first} was expected",
                self.first_record
            ));
        }
        if self.record_count == 0 {
            return Err("empty chunk".into());
        }
        if self.payload_len as usize > max_payload {
            return Err(format!("payload length {} too large", self.payload_len));
        }
        match size {
            RecordSize::Fixed(rs) => {
                if self.record_count as u64 * rs as u64 != self.payload_len as u64 {
                    return Err(format!(
                        "{} records of {rs} bytes in a payload of {}",
                        self.record_count, self.payload_len
                    ));
                }
            }
            RecordSize::Variable => {
                if (self.payload_len as u64) < 4 * self.record_count as u64 {
                    return Err(format!(
                        "{} blobs cannot fit in {} bytes",
                        self.record_count, self.payload_len
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Splits a variable-kind payload into `count` length-prefixed blobs; `None`
/// when the lengths do not add up exactly.
pub fn split_blobs(payload: &[u8], count: u32) -> Option<Vec<&[u8]>> {
    let mut out = Vec::with_capacity(count as usize);
    let mut rest = payload;
    for _ in 0..count {
        if rest.len() < 4 {
            return None;
        }
        let (len, tail) = rest.split_at(4);
        let len = u32::from_le_bytes(len.try_into().ok()?) as usize;
        if tail.len() < len {
            return None;
        }
        let (blob, tail) = tail.split_at(len);
        out.push(blob);
        rest = tail;
    }
    rest.is_empty().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trip_and_checks() {
        let h = Header {
            chunk_index: 3,
            first_record: 30,
            record_count: 10,
            payload_len: 320,
            mac: [7; 32],
        };
        let mut b = [0u8; HEADER_LEN];
        h.encode(&mut b);
        assert_eq!(Header::decode(&b), Some(h));
        assert!(h.check(3, 30, RecordSize::Fixed(32), 1 << 20).is_ok());
        assert!(h.check(4, 30, RecordSize::Fixed(32), 1 << 20).is_err());
        assert!(h.check(3, 31, RecordSize::Fixed(32), 1 << 20).is_err());
        assert!(h.check(3, 30, RecordSize::Fixed(16), 1 << 20).is_err());
        assert!(h.check(3, 30, RecordSize::Fixed(32), 100).is_err());
        b[0] ^= 1;
        assert_eq!(Header::decode(&b), None);
    }

    #[test]
    fn blobs_split_exactly() {
        let p = [2u8, 0, 0, 0, b'h', b'i', 0, 0, 0, 0];
        assert_eq!(split_blobs(&p, 2).unwrap(), vec![&b"hi"[..], &b""[..]]);
        assert!(split_blobs(&p, 1).is_none());
        assert!(split_blobs(&p, 3).is_none());
        assert!(split_blobs(&[9, 0, 0, 0, 1], 1).is_none());
    }
}
