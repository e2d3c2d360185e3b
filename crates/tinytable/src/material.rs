//! One party's preprocessed material, as bytes: the same format in memory,
//! in the store and on the dealer's wire, so reported sizes are real sizes.
//!
//! Per table gate (one fixed-size record, the "tables" of Table 1), what
//! it holds:
//!
//! | part | bytes | holds |
//! |---|---|---|
//! | share | ⌈2^n·m/8⌉ | my share `A_i[c]` of every entry, `m` bits each, packed |
//! | tags | 2^n · tag | my MAC on each of my entries (lookup `a^{A_i[c]}`, linear `α_peer·A_i[c] + β`) |
//! | verify | 2^n · 2^m · k/8 (lookup) or 2^n · tag (linear) | keys for the peer's entries (`a^0 … a^{2^m−1}`, or `β`) |
//!
//! and in which order (the **record order**, the one stored, sent by the
//! dealer and read online): entry by entry, so that the online phase,
//! which needs exactly one entry `c` per table, reads one contiguous run
//! of bytes (one or two cache lines) instead of three scattered ones:
//!
//! * `m = 8` (whole-byte shares, the S-box): entry `c` is
//!   `share ‖ tag ‖ verify`, entries back to back;
//! * `m < 8` (bit-packed shares, the AND gate): the packed shares of all
//!   entries first, then entry `c`'s `tag ‖ verify`, back to back.
//!
//! Writers that produce the **planar order** (packed shares, then all
//! tags, then all verifier data: [`Layout::tags_at`], [`Layout::verify_at`])
//! convert with [`Layout::record_from_planar`]. The sizes are the same.
//!
//! Per execution (one fixed-size record, not counted in Table 1, as in the
//! paper): the masks of my own input wires, my share of every output-wire
//! mask with its tag and the keys for the peer's share, and (linear) my key
//! `α`.

use super::mac::{read_le, MacScheme};
use super::program::Program;
use brickyard_core::hugepage::PageBuf;
use zeroize::Zeroizing;

/// Byte offsets of the records for one program, scheme and role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The MAC scheme.
    pub scheme: MacScheme,
    /// Table input bits.
    pub n: u32,
    /// Table output bits.
    pub m: u32,
    /// Bytes of the packed shares of one table.
    pub share_bytes: usize,
    /// Bytes of one tag.
    pub tag: usize,
    /// Bytes of the verifier data of one entry.
    pub verify: usize,
    /// Bytes of one table record.
    pub gate_bytes: usize,
    /// My input wires.
    pub my_inputs: usize,
    /// Output wires.
    pub outputs: usize,
    /// Bytes of one execution record.
    pub exec_bytes: usize,
    /// Record order: bytes from one entry to the next.
    pub entry_bytes: usize,
    /// Record order: offset of entry 0.
    pub entries_at: usize,
    /// Record order: offset of the tag inside an entry.
    pub tag_off: usize,
    /// Record order: offset of the verifier data inside an entry.
    pub ver_off: usize,
    /// Record order: whether the share is inside the entry (`m = 8`) or
    /// packed at the front.
    pub share_in_entry: bool,
}

impl Layout {
    /// The layout for `program` under `scheme`, for a party owning
    /// `my_inputs` input wires.
    pub fn new(program: &Program, scheme: MacScheme, my_inputs: usize) -> Layout {
        let (n, m) = (program.table.n_in, program.table.n_out);
        let entries = 1usize << n;
        let share_bytes = (entries * m as usize).div_ceil(8);
        let tag = scheme.tag_bytes(m);
        let verify = scheme.verify_bytes(m);
        let outputs = program.output_width();
        let kb = scheme.key_bytes();
        let exec_bytes = my_inputs.div_ceil(8)
            + outputs.div_ceil(8)
            + outputs * scheme.tag_bytes(1)
            + outputs * scheme.verify_bytes(1)
            + if matches!(scheme, MacScheme::Linear { .. }) {
                kb
            } else {
                0
            };
        let share_in_entry = m == 8;
        let (entry_bytes, entries_at, tag_off) = if share_in_entry {
            (1 + tag + verify, 0, 1)
        } else {
            (tag + verify, share_bytes, 0)
        };
        Layout {
            scheme,
            n,
            m,
            share_bytes,
            tag,
            verify,
            gate_bytes: share_bytes + entries * (tag + verify),
            my_inputs,
            outputs,
            exec_bytes,
            entry_bytes,
            entries_at,
            tag_off,
            ver_off: tag_off + tag,
            share_in_entry,
        }
    }

    /// Record order: offset of entry `c`'s tag.
    #[inline(always)]
    pub fn tag_of(&self, c: usize) -> usize {
        self.entries_at + c * self.entry_bytes + self.tag_off
    }

    /// Record order: offset of entry `c`'s verifier data (the linear key
    /// `β`, or the lookup strings `a^0 …`).
    #[inline(always)]
    pub fn verify_of(&self, c: usize) -> usize {
        self.entries_at + c * self.entry_bytes + self.ver_off
    }

    /// Record order: my share of entry `c`.
    #[inline(always)]
    pub fn share_of(&self, rec: &[u8], c: usize) -> u8 {
        if self.share_in_entry {
            rec[self.entries_at + c * self.entry_bytes]
        } else {
            get_share(rec, c, self.m)
        }
    }

    /// Rewrites table records (`out.len()` a multiple of `gate_bytes`)
    /// from the planar order of `planar` into the record order.
    pub fn record_from_planar(&self, planar: &[u8], out: &mut [u8]) {
        assert_eq!(planar.len(), out.len(), "record_from_planar: length");
        let (gb, e) = (self.gate_bytes, self.entries());
        let (ta, va, t, v) = (self.tags_at(), self.verify_at(), self.tag, self.verify);
        for (p, r) in planar.chunks_exact(gb).zip(out.chunks_exact_mut(gb)) {
            if !self.share_in_entry {
                r[..self.share_bytes].copy_from_slice(&p[..self.share_bytes]);
            }
            for c in 0..e {
                let at = self.entries_at + c * self.entry_bytes;
                if self.share_in_entry {
                    r[at] = p[c];
                }
                r[at + self.tag_off..at + self.tag_off + t]
                    .copy_from_slice(&p[ta + c * t..ta + (c + 1) * t]);
                r[at + self.ver_off..at + self.ver_off + v]
                    .copy_from_slice(&p[va + c * v..va + (c + 1) * v]);
            }
        }
    }

    /// [`Layout::record_from_planar`] in place (through a zeroized copy).
    pub fn record_from_planar_in_place(&self, recs: &mut [u8]) {
        let planar = Zeroizing::new(recs.to_vec());
        self.record_from_planar(&planar, recs);
    }

    /// Entries per table.
    pub fn entries(&self) -> usize {
        1 << self.n
    }

    /// Planar order: offset of the tags inside a table record.
    pub fn tags_at(&self) -> usize {
        self.share_bytes
    }

    /// Planar order: offset of the verifier data inside a table record.
    pub fn verify_at(&self) -> usize {
        self.share_bytes + self.entries() * self.tag
    }

    /// Offsets inside the execution record: (input masks, output shares,
    /// output tags, output verify, alpha).
    pub fn exec_parts(&self) -> [usize; 5] {
        let s = self.scheme;
        let a = 0;
        let b = a + self.my_inputs.div_ceil(8);
        let c = b + self.outputs.div_ceil(8);
        let d = c + self.outputs * s.tag_bytes(1);
        let e = d + self.outputs * s.verify_bytes(1);
        [a, b, c, d, e]
    }
}

/// Reads entry `c` (`m` bits) from packed shares.
#[inline]
pub fn get_share(shares: &[u8], c: usize, m: u32) -> u8 {
    match m {
        8 => shares[c],
        1 => (shares[c >> 3] >> (c & 7)) & 1,
        _ => {
            let o = c * m as usize;
            let lo = shares[o / 8] as u16;
            let hi = shares.get(o / 8 + 1).copied().unwrap_or(0) as u16;
            (((lo | hi << 8) >> (o % 8)) & ((1u16 << m) - 1)) as u8
        }
    }
}

/// Writes entry `c` (`m` bits) into packed shares.
#[inline]
pub fn set_share(shares: &mut [u8], c: usize, m: u32, v: u8) {
    for j in 0..m as usize {
        let bit = c * m as usize + j;
        let b = (v >> j) & 1;
        shares[bit / 8] = (shares[bit / 8] & !(1 << (bit % 8))) | (b << (bit % 8));
    }
}

/// Reads bit `i` of a packed bit string.
#[inline]
pub fn get_bit(bits: &[u8], i: usize) -> bool {
    (bits[i / 8] >> (i % 8)) & 1 == 1
}

/// Sets bit `i` of a packed bit string.
#[inline]
pub fn set_bit(bits: &mut [u8], i: usize, v: bool) {
    bits[i / 8] = (bits[i / 8] & !(1 << (i % 8))) | ((v as u8) << (i % 8));
}

/// One execution's material for one party.
pub struct Material {
    /// The execution record (see [`Layout::exec_parts`]).
    pub exec: Zeroizing<Vec<u8>>,
    /// All table records, in the program's table order. A [`PageBuf`]:
    /// the records of a batch can be cut from one huge-page region
    /// ([`PageBuf::cut`]), so the S-box online phase's scattered entry
    /// reads do not each miss the TLB; zeroized on drop either way.
    pub gates: PageBuf,
}

impl Material {
    /// The linear-MAC key `α` (0 for other schemes).
    pub fn alpha(&self, l: &Layout) -> u64 {
        match l.scheme {
            MacScheme::Linear { .. } => {
                let at = l.exec_parts()[4];
                read_le(&self.exec[at..at + l.scheme.key_bytes()]) as u64
            }
            _ => 0,
        }
    }
}

/// Table-1 accounting: bytes of table material per party per execution
/// under this layout (shares + tags + verifier keys of every table).
pub fn table_bytes(program: &Program, l: &Layout) -> u64 {
    program.table_count() as u64 * l.gate_bytes as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_order_reads_what_planar_order_wrote() {
        let aes = brickyard_circuit::builtin("aes128").unwrap();
        for v in [super::super::Variant::Binary, super::super::Variant::Sbox] {
            let p = v.compile(&aes).unwrap();
            for s in [
                "passive",
                "linear-32",
                "linear-64",
                "lookup-32",
                "lookup-64",
            ] {
                let l = Layout::new(&p, MacScheme::parse(s).unwrap(), 128);
                if l.gate_bytes > 1 << 20 {
                    continue;
                }
                let planar: Vec<u8> = (0..2 * l.gate_bytes)
                    .map(|i| (i * 7 + i / 251) as u8)
                    .collect();
                let mut rec = vec![0u8; planar.len()];
                l.record_from_planar(&planar, &mut rec);
                let mut sorted = rec.clone();
                sorted.sort();
                let mut want = planar.clone();
                want.sort();
                assert_eq!(sorted, want, "a permutation");
                for g in 0..2 {
                    let (p, r) = (&planar[g * l.gate_bytes..], &rec[g * l.gate_bytes..]);
                    for c in 0..l.entries() {
                        assert_eq!(l.share_of(r, c), get_share(p, c, l.m));
                        let (t, vb) = (l.tag, l.verify);
                        assert_eq!(
                            &r[l.tag_of(c)..l.tag_of(c) + t],
                            &p[l.tags_at() + c * t..l.tags_at() + (c + 1) * t]
                        );
                        assert_eq!(
                            &r[l.verify_of(c)..l.verify_of(c) + vb],
                            &p[l.verify_at() + c * vb..l.verify_at() + (c + 1) * vb]
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn share_packing_roundtrips() {
        for m in [1u32, 3, 8] {
            let mut s = vec![0u8; (16 * m as usize).div_ceil(8)];
            for c in 0..16 {
                set_share(&mut s, c, m, (c as u8 * 7) & ((1u16 << m) - 1) as u8);
            }
            for c in 0..16 {
                assert_eq!(get_share(&s, c, m), (c as u8 * 7) & ((1u16 << m) - 1) as u8);
            }
        }
    }
}
