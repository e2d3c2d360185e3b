//! The items of a batch opening, produced on demand, and the gathers that
//! XOR their commitments' rows.
//!
//! A caller with millions of opened items (LEGO's solderings: two ids per
//! item, from a bucket assignment) would otherwise build one `Vec` per item
//! only to have it read once per pass; profiling showed the allocations,
//! their frees and the page faults of that list costing more than the
//! opening itself. [`ItemSets`] lets it describe the items by arithmetic
//! instead, one chunk at a time.
//!
//! The ids of opened items are scattered over the session's state (tens to
//! hundreds of megabytes), so every row read is a cache miss; the gathers
//! prefetch a few items ahead so the misses overlap instead of queueing.

use crate::code::Row;
use crate::params::ROW_WORDS;
use brickyard_core::prefetch::prefetch;
use brickyard_core::Block;
use std::ops::Range;

/// Items of one batch opening, each the XOR of a set of commitment ids.
pub trait ItemSets {
    /// Number of items.
    fn count(&self) -> usize;
    /// Writes the ids of items `range` (in order) to `ids`, and after each
    /// item its end offset in `ids` to `ends`; both start empty.
    fn write(&self, range: Range<usize>, ids: &mut Vec<usize>, ends: &mut Vec<usize>);
    /// A bound no id of any item exceeds, when the caller knows one without
    /// walking the items (it computed them from a few ranges of ids): an
    /// opening then checks the bound against the session instead of
    /// producing every item once more only to check its ids. `None` (the
    /// default) walks them.
    fn max_id(&self) -> Option<usize> {
        None
    }
}

impl<S: AsRef<[usize]>> ItemSets for [S] {
    fn count(&self) -> usize {
        self.len()
    }
    fn write(&self, range: Range<usize>, ids: &mut Vec<usize>, ends: &mut Vec<usize>) {
        for s in &self[range] {
            ids.extend_from_slice(s.as_ref());
            ends.push(ids.len());
        }
    }
}

impl<S: AsRef<[usize]>> ItemSets for Vec<S> {
    fn count(&self) -> usize {
        self.len()
    }
    fn write(&self, range: Range<usize>, ids: &mut Vec<usize>, ends: &mut Vec<usize>) {
        self.as_slice().write(range, ids, ends)
    }
}

/// Items per chunk of the passes below (the combination's chunk, so one
/// id buffer serves both).
pub(crate) const PIECE: usize = 128 * crate::params::CHUNK_BLOCKS;

/// Items ahead whose rows are prefetched: enough misses in flight to cover
/// the memory latency, few enough that the lines are still in L1/L2.
/// Measured on one AES-128's soldering opening (Xeon host, step CPU of
/// three alternated benches each): 4 and 8 items ahead cost Alice
/// 9.4 / 8.9 ms, 16, 32 and 64 7.9–8.5 ms; Bob 13.0 against 12.4.
const AHEAD: usize = 32;

/// `0..n` in pieces of [`PIECE`] items.
pub(crate) fn pieces(n: usize) -> impl Iterator<Item = Range<usize>> {
    (0..n.div_ceil(PIECE)).map(move |c| c * PIECE..((c + 1) * PIECE).min(n))
}

/// The first id of `sets` that is not below `known` (not a commitment of
/// the session), if any: from [`ItemSets::max_id`] when that bound is below
/// `known`, else by walking every item through `chunk`.
pub(crate) fn first_unknown<T: ItemSets + ?Sized>(
    sets: &T,
    known: usize,
    chunk: &mut Chunk,
) -> Option<usize> {
    if sets.max_id().is_some_and(|m| m < known) {
        return None;
    }
    pieces(sets.count()).find_map(|r| {
        chunk.load(sets, r);
        chunk.unknown(known)
    })
}

/// One chunk's ids in compressed form (reused between chunks; ids are
/// public, so nothing here needs zeroizing).
#[derive(Default)]
pub(crate) struct Chunk {
    pub ids: Vec<usize>,
    pub ends: Vec<usize>,
}

impl Chunk {
    /// Loads the ids of items `range`.
    pub(crate) fn load<T: ItemSets + ?Sized>(&mut self, sets: &T, range: Range<usize>) {
        self.ids.clear();
        self.ends.clear();
        sets.write(range, &mut self.ids, &mut self.ends);
    }

    /// The first id of the chunk that is not below `n`, if any.
    pub(crate) fn unknown(&self, n: usize) -> Option<usize> {
        self.ids.iter().copied().find(|&id| id >= n)
    }

    /// Calls `f(i, ids of item i)` for each item of the chunk, after
    /// prefetching `lines(id)` for the ids `AHEAD` items further on.
    #[inline]
    fn each(&self, mut ahead: impl FnMut(usize), mut f: impl FnMut(usize, &[usize])) {
        let n = self.ends.len();
        let start = |i: usize| if i == 0 { 0 } else { self.ends[i - 1] };
        for &id in &self.ids[..start(AHEAD.min(n))] {
            ahead(id);
        }
        for i in 0..n {
            if i + AHEAD < n {
                for &id in &self.ids[start(i + AHEAD)..self.ends[i + AHEAD]] {
                    ahead(id);
                }
            }
            f(i, &self.ids[start(i)..self.ends[i]]);
        }
    }

    /// `out[i] = ⊕ msgs[id]` over item i's ids (ids already checked).
    pub(crate) fn gather_msgs(&self, msgs: &[Block], out: &mut [Block]) {
        let bytes: &[u8] = bytemuck::cast_slice(msgs);
        self.each(
            |id| prefetch(bytes, id * 16),
            |i, ids| {
                out[i] = ids.iter().fold(Block::ZERO, |m, &id| m ^ msgs[id]);
            },
        );
    }

    /// Item i's XOR of `rows[id]` into words `out[i·ROW_WORDS..]`, the
    /// first `used` words of each row only (the code's N bits: the padding
    /// words are zero in every row, and leaving them out spares the second
    /// cache line of most rows).
    pub(crate) fn gather_rows(&self, rows: &[Row], used: usize, out: &mut [u64]) {
        // A constant width per call keeps the XOR and the store unrolled.
        match used {
            ..=4 => self.gather_rows_n::<4>(rows, out),
            5 => self.gather_rows_n::<5>(rows, out),
            6 => self.gather_rows_n::<6>(rows, out),
            _ => self.gather_rows_n::<ROW_WORDS>(rows, out),
        }
    }

    #[inline]
    fn gather_rows_n<const USED: usize>(&self, rows: &[Row], out: &mut [u64]) {
        let bytes: &[u8] = bytemuck::cast_slice(rows);
        let last = 8 * USED - 1;
        self.each(
            |id| {
                prefetch(bytes, id * 8 * ROW_WORDS);
                prefetch(bytes, id * 8 * ROW_WORDS + last);
            },
            |i, ids| {
                let mut t = [0u64; USED];
                for &id in ids {
                    let r = &rows[id];
                    for w in 0..USED {
                        t[w] ^= r[w];
                    }
                }
                let o: &mut [u64; USED] = (&mut out[i * ROW_WORDS..i * ROW_WORDS + USED])
                    .try_into()
                    .expect("USED words");
                *o = t;
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gathers_match_the_plain_xor() {
        let msgs: Vec<Block> = (0..50u128).map(|i| Block(i * 0x1_0000_0001 + 7)).collect();
        let rows: Vec<Row> = (0..50u64)
            .map(|i| {
                let mut r = [0u64; ROW_WORDS];
                r[..5].copy_from_slice(&[i, i * 3, i ^ 5, 0, i << 7]);
                r
            })
            .collect();
        let sets: Vec<Vec<usize>> = (0..30)
            .map(|i| (0..(i % 4)).map(|k| (i * 7 + k * 13) % 50).collect())
            .collect();
        let mut c = Chunk::default();
        c.load(&sets, 3..30);
        assert_eq!(c.ends.len(), 27);
        assert_eq!(c.unknown(50), None);
        let mut m = vec![Block::ZERO; 27];
        let mut t = vec![0u64; 27 * ROW_WORDS];
        c.gather_msgs(&msgs, &mut m);
        c.gather_rows(&rows, ROW_WORDS, &mut t);
        for (i, s) in sets[3..30].iter().enumerate() {
            let want_m = s.iter().fold(Block::ZERO, |a, &id| a ^ msgs[id]);
            let want_t = s.iter().fold([0u64; ROW_WORDS], |a, &id| {
                crate::code::xor_rows(&a, &rows[id])
            });
            assert_eq!(m[i], want_m, "item {i}");
            assert_eq!(&t[i * ROW_WORDS..(i + 1) * ROW_WORDS], &want_t[..]);
        }
        assert_eq!(
            c.unknown(40),
            sets[3..30].iter().flatten().copied().find(|&id| id >= 40)
        );
    }

    /// Sets that claim a bound: trusted when it is below the session's
    /// count, walked when it is not (or absent).
    struct Bounded(Vec<Vec<usize>>, Option<usize>);
    impl ItemSets for Bounded {
        fn count(&self) -> usize {
            self.0.len()
        }
        fn write(&self, range: Range<usize>, ids: &mut Vec<usize>, ends: &mut Vec<usize>) {
            self.0.write(range, ids, ends)
        }
        fn max_id(&self) -> Option<usize> {
            self.1
        }
    }

    #[test]
    fn unknown_ids_are_found_unless_the_bound_rules_them_out() {
        let sets: Vec<Vec<usize>> = (0..9000).map(|i| vec![i % 700, 3]).collect();
        let mut c = Chunk::default();
        assert_eq!(
            first_unknown(&Bounded(sets.clone(), None), 700, &mut c),
            None
        );
        assert_eq!(
            first_unknown(&Bounded(sets.clone(), None), 600, &mut c),
            Some(600)
        );
        assert_eq!(
            first_unknown(&Bounded(sets.clone(), Some(699)), 700, &mut c),
            None
        );
        // A bound at or above the count is no proof: the ids are walked.
        assert_eq!(
            first_unknown(&Bounded(sets.clone(), Some(699)), 600, &mut c),
            Some(600)
        );
        assert_eq!(
            first_unknown(&Bounded(sets, Some(5000)), 650, &mut c),
            Some(650)
        );
    }
}
