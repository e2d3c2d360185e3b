//! Byte layouts of what a store keeps for one bucket (one online
//! execution), per role, and of the setup both stores keep. All sizes come
//! from the agreed setup (plans and shapes), never from the bytes: a
//! record of the wrong length is `Malformed`.
//!
//! | record | layout |
//! |---|---|
//! | Alice's bucket | `k` (u64) ‖ per member (B of C, then B' of C'): [`BundleSecret`] |
//! | Bob's bucket | [`BOB_BUCKET_VERSION`] (u64) ‖ `k` ‖ members (u64 each) ‖ per member `m_{a_1} ⊕ m_{a_i}` ‖ per member its kept bundle ‖ per member the labels of `E·y¹` (`l`) or `E'·d¹` (`|D|`) made from its OT labels ‖ his `y¹`, `d¹` choice bits |
//! | [`BundleSecret`] | `j` ‖ `m` (packed) ‖ `λ` ‖ opening of `λ` ‖ Δ ‖ input 0-labels ‖ openings of the label commitments of Alice's wires (two per wire) ‖ output 0-labels ‖ output opening |
//! | kept bundle (`kept.rs`; also Bob's spill file) | tables ‖ decoding bits (packed) ‖ two label commitments per `x` wire, then per public wire ‖ per OT-fed wire the commitment at Bob's choice ‖ output commitment ‖ `ExtractCom(λ)` |
//! | [`BundlePublic`] (hashed for a bundle Bob's cut checks) | tables ‖ decoding bits (packed) ‖ two label commitments per input wire ‖ output commitment ‖ `ExtractCom(λ)` |

use super::bundle::{pack_bits, unpack_bits};

use super::Setup;
use brickyard_core::{Block, Error, Result};

/// Reads a record front to back; running out of bytes is `Malformed`.
pub(crate) struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(b: &'a [u8]) -> Self {
        Reader { b, at: 0 }
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.b.len())
            .ok_or_else(|| Error::malformed("lindell-riva: stored record too short"))?;
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }

    pub(crate) fn u64(&mut self) -> Result<u64> {
        let mut a = [0u8; 8];
        a.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(a))
    }

    pub(crate) fn arr16(&mut self) -> Result<[u8; 16]> {
        let mut a = [0u8; 16];
        a.copy_from_slice(self.take(16)?);
        Ok(a)
    }

    pub(crate) fn arr32(&mut self) -> Result<[u8; 32]> {
        let mut a = [0u8; 32];
        a.copy_from_slice(self.take(32)?);
        Ok(a)
    }

    pub(crate) fn block(&mut self) -> Result<Block> {
        Ok(Block::from_bytes(self.arr16()?))
    }

    pub(crate) fn blocks(&mut self, n: usize) -> Result<Vec<Block>> {
        (0..n).map(|_| self.block()).collect()
    }

    pub(crate) fn bits(&mut self, n: usize) -> Result<Vec<bool>> {
        let packed = self.take(n.div_ceil(8))?;
        if pack_bits(&unpack_bits(packed, n)) != packed {
            return Err(Error::malformed(
                "lindell-riva: nonzero padding in a record",
            ));
        }
        Ok(unpack_bits(packed, n))
    }

    /// Refuses trailing bytes.
    pub(crate) fn done(&self) -> Result<()> {
        if self.at != self.b.len() {
            return Err(Error::malformed("lindell-riva: stored record too long"));
        }
        Ok(())
    }
}

pub(crate) fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub(crate) fn put_blocks(out: &mut Vec<u8>, v: &[Block]) {
    for b in v {
        out.extend_from_slice(&b.to_bytes());
    }
}

/// The stored record of the setup (both roles, one per store): the `N`
/// the material was made for and Bob's `E`, `E'` as Alice verified them.
/// Online runs rebuild the [`Setup`] from it (verifying `E`, `E'` again).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SetupRecord {
    /// `N` of the preprocessing (the parameters B, p, M, B', p', M' follow
    /// from it and `s` by the lemmas).
    pub executions: u64,
    /// `s`.
    pub s: u32,
    /// `E`.
    pub e: crate::probe::ProbeSpec,
    /// `E'`.
    pub e2: crate::probe::ProbeSpec,
}

impl SetupRecord {
    /// Name of the store secret holding it.
    pub const NAME: &'static str = "lr-setup";

    /// Encoded (postcard).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        postcard::to_stdvec(self).map_err(|e| Error::config(format!("setup record: {e}")))
    }

    /// Decoded; `Malformed` on bad bytes.
    pub fn from_bytes(b: &[u8]) -> Result<Self> {
        postcard::from_bytes(b).map_err(|_| Error::malformed("lindell-riva: stored setup record"))
    }

    /// What both parties compare before using a bucket: the same `N`, `s`,
    /// `E` and `E'`.
    pub fn digest(&self) -> Result<[u8; 32]> {
        let mut h = blake3::Hasher::new_derive_key("brickyard lindell-riva stored setup v1");
        h.update(&self.to_bytes()?);
        Ok(*h.finalize().as_bytes())
    }
}

/// The first word of Bob's bucket record: its layout's version. Version
/// 3 keeps one commitment per OT-fed wire (at his choice) and the labels
/// of the encoding's rows; version 1 (which began with `k`) kept both
/// commitments and the OT labels themselves. A record of another version
/// is `Malformed`, not misread.
pub const BOB_BUCKET_VERSION: u64 = 0x4c52_2d42_4f42_0003;

/// Labels of the encoding's rows Bob keeps for member `i` of a bucket:
/// `l` (`E·y¹`) for C, `|D|` (`E'·d¹`) for C'.
pub(crate) fn encoded_of(st: &Setup, i: usize) -> usize {
    if i < st.b() {
        st.shape.public
    } else {
        super::D_BITS
    }
}

/// Members of a bucket: `B` then `B'`.
pub(crate) fn members(st: &Setup) -> usize {
    st.b() + st.b2()
}

/// Shapes of member `i` of a bucket.
pub(crate) fn part_of(st: &Setup, i: usize) -> (&brickyard_garble::GarblePlan, super::Shape) {
    if i < st.b() {
        (&st.plan, st.shape)
    } else {
        (&st.plan2, st.shape2)
    }
}
