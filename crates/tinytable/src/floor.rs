//! The memory floor of the online phase (`floor` in `brickyard bench
//! tinytable-tables`): only the reads of preprocessed material that the
//! online phase cannot avoid, on the same fresh records, in the best order
//! that record layout allows. The online phase has to read, per table and
//! execution, its share of the selected entry `c`, its tag on it and the
//! key for the peer's share of the same entry (`material.rs`'s record
//! order puts them together), and once per execution the execution record.
//! Which `c` is selected is uniformly random (a masked value), so the floor
//! draws it at random; it never waits for the peer, computes no MAC and
//! sends nothing, and it reads every execution's records front to back
//! with the entries a block ahead prefetched (the online phase cannot: its
//! entries for layer `L + 1` depend on layer `L`'s flight). So no real
//! online phase on these records can be faster on this machine: if the
//! floor is above a goal, the goal needs another layout or other hardware.

use super::material::{Layout, Material};
use brickyard_core::prefetch::prefetch;

/// Tables whose entries are located and prefetched one block before they
/// are read: with two lines per S-box table, 64 lines in flight, more than
/// a core's fill buffers, so the misses overlap as far as the core allows.
const BLOCK: usize = 32;

/// The runs of bytes the online phase reads of a whole-byte-share record
/// (the S-box's) for table `g`, entry `c`, with `th` the peer's share (it
/// selects the lookup MAC's string): `[(offset, length); 2]`, length 0 if
/// unused. The first is `share ‖ tag` (‖ key `β` under the linear MAC,
/// adjacent in the record order).
#[inline(always)]
fn runs(l: &Layout, g: usize, c: usize, th: usize) -> [(usize, usize); 2] {
    let e = g * l.gate_bytes + l.entries_at + c * l.entry_bytes;
    let (first, string) = match l.scheme {
        super::MacScheme::Passive => (1, 0),
        super::MacScheme::Linear { .. } => (1 + l.tag + l.verify, 0),
        super::MacScheme::Lookup { .. } => (1 + l.tag, l.scheme.key_bytes()),
    };
    let s = l.scheme.key_bytes();
    [(e, first), (e + l.ver_off + th * s, string)]
}

/// Next xorshift64 state: the random entry choices, a few ALU operations
/// that overlap the misses.
#[inline(always)]
fn next(r: &mut u64) -> u64 {
    *r ^= *r << 13;
    *r ^= *r >> 7;
    *r ^= *r << 17;
    *r
}

/// Reads what the online phase must read of `mats` (`tables` tables each):
///
/// * every execution record, whole;
/// * whole-byte shares (S-box): of each table a random entry, the first
///   and last byte of each run of bytes the online phase reads of it
///   ([`runs`], at most 64 bytes each, so exactly the cache lines it
///   reads), with the next block of tables prefetched meanwhile: the
///   entries lie in different pages, where the hardware prefetcher does
///   not go;
/// * bit-packed shares (AND): the share byte of every record (a subset of
///   what the online phase reads; for records of at most 65 bytes, as
///   under linear-64 and lookup-32, these bytes lie in 98.5% of the
///   region's cache lines, so the traffic is the online phase's; for
///   lookup-64's 97-byte records two lines in three), records front to
///   back, which the hardware prefetcher streams.
///
/// Returns the XOR of everything read, so no read can be left out. `seed`
/// drives the entry choice; any choice costs the same on fresh records.
pub fn read_floor(mats: &[&Material], l: &Layout, tables: usize, seed: u64) -> u64 {
    let mut acc = 0u64;
    for m in mats {
        acc ^= m.exec.chunks(8).fold(0u64, |a, w| {
            a ^ w.iter().fold(0u64, |v, &b| v << 8 | b as u64)
        });
    }
    if !l.share_in_entry {
        for m in mats {
            acc ^= m.gates[..tables * l.gate_bytes]
                .iter()
                .step_by(l.gate_bytes)
                .fold(0u64, |a, &b| a.rotate_left(1) ^ b as u64);
        }
        return acc;
    }
    let (entries, strings) = (l.entries() - 1, (1usize << l.m) - 1);
    let mut r = seed | 1;
    // (execution, runs) of the block being read and of the next one.
    let mut cur = [(0usize, [(0usize, 0usize); 2]); BLOCK];
    let mut nxt = cur;
    let mut cur_n = 0;
    let blocks = mats.len() * tables.div_ceil(BLOCK);
    for b in 0..=blocks {
        let mut nxt_n = 0;
        if b < blocks {
            let (x, g0) = (
                b / tables.div_ceil(BLOCK),
                b % tables.div_ceil(BLOCK) * BLOCK,
            );
            let gates = &mats[x].gates;
            for (slot, g) in nxt.iter_mut().zip(g0..(g0 + BLOCK).min(tables)) {
                let v = next(&mut r);
                let rs = runs(l, g, v as usize & entries, (v >> 8) as usize & strings);
                for &(at, len) in &rs {
                    if len > 0 {
                        prefetch(gates, at);
                        prefetch(gates, at + len - 1);
                    }
                }
                *slot = (x, rs);
                nxt_n += 1;
            }
        }
        for &(x, rs) in &cur[..cur_n] {
            let gates = &mats[x].gates;
            for (at, len) in rs {
                if len > 0 {
                    acc = acc.rotate_left(1) ^ gates[at] as u64 ^ (gates[at + len - 1] as u64) << 8;
                }
            }
        }
        std::mem::swap(&mut cur, &mut nxt);
        cur_n = nxt_n;
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dealer::{deal_memory, DealPlan};
    use crate::{MacScheme, Variant};
    use brickyard_core::prg::Prg;

    /// The floor reads what it claims: the same seed gives the same XOR;
    /// flipping the first byte of the entry the first draw selects (S-box)
    /// or a record's share byte (AND) changes it; flipping a byte of an
    /// unselected entry or of a tag (AND: never read) does not.
    #[test]
    fn floor_reads_the_selected_entries() {
        let aes = brickyard_circuit::builtin("aes128").unwrap();
        for (v, mac) in [
            (Variant::Sbox, "linear-64"),
            (Variant::Sbox, "lookup-32"),
            (Variant::Sbox, "passive"),
            (Variant::Binary, "linear-64"),
            (Variant::Binary, "passive"),
        ] {
            let program = v.compile(&aes).unwrap();
            let scheme = MacScheme::parse(mac).unwrap();
            let layouts = [
                Layout::new(&program, scheme, program.inputs[0].len()),
                Layout::new(&program, scheme, program.inputs[1].len()),
            ];
            let plan = DealPlan {
                program: &program,
                alice_inputs: program.inputs[0].clone(),
                bob_inputs: program.inputs[1].clone(),
                layouts,
            };
            let mut prg = Prg::from_seed(brickyard_core::Block(7));
            let [mut a, _] = deal_memory(&mut prg, &plan, 2).unwrap();
            let l = &layouts[0];
            let t = program.table_count();
            let floor = |a: &[Material]| read_floor(&a.iter().collect::<Vec<_>>(), l, t, 99);
            let base = floor(&a);
            assert_eq!(base, floor(&a));
            let (read, unread) = if l.share_in_entry {
                let v = next(&mut (99u64 | 1));
                let c = v as usize & (l.entries() - 1);
                let sel = runs(l, 0, c, (v >> 8) as usize & ((1 << l.m) - 1));
                let other = runs(l, 0, (c + 1) % l.entries(), 0);
                (sel[0].0, Some(other[0].0))
            } else {
                let tag = l.scheme.is_malicious().then(|| l.gate_bytes + l.tag_of(1));
                (l.gate_bytes, tag)
            };
            a[0].gates[read] ^= 0x5a;
            assert_ne!(floor(&a), base, "{v:?} {mac}: read byte");
            a[0].gates[read] ^= 0x5a;
            if let Some(p) = unread {
                a[0].gates[p] ^= 0x5a;
                assert_eq!(floor(&a), base, "{v:?} {mac}: unread byte");
            }
        }
    }
}
