//! Splitting chunked work over scoped threads.
//!
//! Every parallel loop of the scheme works on whole chunks of
//! [`CHUNK_BLOCKS`](crate::params::CHUNK_BLOCKS) blocks whose buffers are
//! contiguous, so a thread gets a contiguous range of chunks and disjoint
//! sub-slices of each buffer, and no locking is needed. The PRG streams are
//! AES-CTR indexed by the global block number, so disjoint chunk ranges are
//! disjoint counter ranges: the result does not depend on the thread count.

use std::ops::Range;

/// Splits `0..n` into at most `threads` contiguous, nearly equal ranges
/// (no empty ones).
pub(crate) fn partition(n: usize, threads: usize) -> Vec<Range<usize>> {
    let t = threads.clamp(1, n.max(1));
    (0..t)
        .map(|i| (i * n / t)..((i + 1) * n / t))
        .filter(|r| !r.is_empty())
        .collect()
}

/// Splits `buf` at `offset(r.end)` for each range, so that part i covers
/// `offset(r_i.start)..offset(r_i.end)` (clamped to the buffer length).
pub(crate) fn split_by<'a, T>(
    mut buf: &'a mut [T],
    ranges: &[Range<usize>],
    offset: impl Fn(usize) -> usize,
) -> Vec<&'a mut [T]> {
    let mut parts = Vec::with_capacity(ranges.len());
    let mut pos = ranges.first().map_or(0, |r| offset(r.start).min(buf.len()));
    buf = &mut buf[pos..];
    for r in ranges {
        let end = offset(r.end).min(pos + buf.len());
        let (head, tail) = std::mem::take(&mut buf).split_at_mut(end - pos);
        parts.push(head);
        buf = tail;
        pos = end;
    }
    parts
}

/// Runs `f(i, range_i, item_i)` for every range on its own scoped thread (the
/// first on the calling thread) and returns the results in order.
pub(crate) fn run<I: Send, R: Send>(
    ranges: &[Range<usize>],
    items: Vec<I>,
    f: impl Fn(Range<usize>, I) -> R + Sync,
) -> Vec<R> {
    debug_assert_eq!(ranges.len(), items.len());
    if ranges.len() <= 1 {
        return ranges
            .iter()
            .cloned()
            .zip(items)
            .map(|(r, it)| f(r, it))
            .collect();
    }
    std::thread::scope(|s| {
        let f = &f;
        let mut it = ranges.iter().cloned().zip(items);
        let (r0, i0) = it.next().expect("at least two ranges");
        let handles: Vec<_> = it.map(|(r, i)| s.spawn(move || f(r, i))).collect();
        let mut out = vec![f(r0, i0)];
        for h in handles {
            out.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_covers_and_split_is_disjoint() {
        for (n, t) in [(0, 2), (1, 2), (7, 3), (100, 4), (3, 8)] {
            let parts = partition(n, t);
            let covered: Vec<usize> = parts.iter().flat_map(|r| r.clone()).collect();
            assert_eq!(covered, (0..n).collect::<Vec<_>>());
            let mut buf: Vec<usize> = (0..n * 5 + 2).collect();
            let len = buf.len();
            let slices = split_by(&mut buf, &parts, |c| c * 5);
            for (r, s) in parts.iter().zip(&slices) {
                assert_eq!(s.first().copied(), Some(r.start * 5).filter(|&x| x < len));
                let want = (r.end * 5).min(len) - r.start * 5;
                assert_eq!(s.len(), want);
            }
        }
    }

    #[test]
    fn run_returns_in_order() {
        let parts = partition(10, 3);
        let out = run(&parts, vec![(); parts.len()], |r, ()| r.start);
        assert_eq!(out, parts.iter().map(|r| r.start).collect::<Vec<_>>());
    }
}
