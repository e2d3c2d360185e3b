//! Moving XOR roots back to the earliest stage whose feed may run them.

use super::{Lists, Roots};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// XOR gates a stage is filled up to with roots moved into it by
/// [`hoist`]: the garbler's densest feed runs 20 gates under one group
/// (the evaluator's 10, so one plan serves both); a stage that cannot
/// reach 20 is filled to 10 or 4, the other feed sizes
/// (`halfgates::x86::spacing`), and the roots left over stay available
/// for the next stage, since gates beyond a feed run unfed either way.
pub(super) const HOIST_ROOM: usize = 20;

/// Groups of a wide layer piece, and the gates a stage of one is filled
/// up to when that many are at hand. AES-128's wide pieces (up to 32
/// groups) have ~26 gates per group, more than the garbler's feeds
/// take; filled only to 20, the rest piled up before the groups that
/// first read them (up to ~250 gates) and ran after one group with
/// nothing to overlap. A/B against 20, 26, 30, 32, 50, 60 and 100:
/// 40 was best (aes_128 garble −0.3 to −0.4, eval −0.1 ns/AND against
/// main, where 20 measured eval +0.17). SHA-256's pieces (≤ 11 groups,
/// ~17 gates per group) keep 20: a 30-gate target there fed fewer.
pub(super) const WIDE_PIECE: usize = 16;
pub(super) const SPREAD_ROOM: usize = 40;

/// XOR gates a root compiles to: one 3-input gate for up to 3 leaves,
/// then one per 2 more (see `layout`).
pub(super) fn root_gates(leaves: usize) -> usize {
    1 + leaves.saturating_sub(3).div_ceil(2)
}

/// Moves every XOR root back to an earlier *fed* stage, so that its
/// gate runs under some group's AES instead of in a crowded stage
/// (AES-128's S-box linear layers put up to ~250 gates before one group
/// and ~5 before the next) or unfed at the start of a layer piece,
/// where nothing hides it.
///
/// Stages are those of `groups` plus, per layer piece, an AND-less
/// *tail* stage after its last group (kept even if empty: `layout` joins
/// pieces into one walk step behind it). A stage is fed (its XORs run
/// between the AES rounds of the stage before) unless it is the first
/// of its piece (behind a tail, whose group is empty). A root may run in
/// fed stage `j` once it reads no output of the group it runs under
/// (stage `j − 1`) or of a later one, and every root it reads runs in
/// stage `j` or before (earlier in the stage: roots keep plan order);
/// it must run by its deadline. Stages are filled in order, each from
/// the roots it may run, earliest deadline first: first the roots due
/// there (in any stage, fed or not), then, in a fed stage, more up to
/// [`HOIST_ROOM`] gates (or 10, or 4, or in a wide piece
/// [`SPREAD_ROOM`]: the largest that the roots at hand reach).
///
/// What the kernels and `layout` rely on still holds: a stage's XORs
/// never read the outputs of the group they run under (above); a root
/// belongs to the piece of the stage it runs in for slot release, so it
/// takes its output slot after that stage's group took its own and
/// before the piece's AND inputs and dead outputs are freed (at the
/// piece's end), hence never writes a slot of the group it runs under;
/// and liveness is computed in the new order. Returns the new groups,
/// pieces of groups (with the final sentinel) and root deadlines.
#[allow(clippy::type_complexity)]
pub(super) fn hoist(
    groups: &[(u32, u32)],
    piece_of: &[usize],
    deadline: &[u32],
    roots: &Roots,
    and_group: &[u32],
    root_of: &[u32],
) -> (Vec<(u32, u32)>, Vec<usize>, Vec<u32>) {
    let ng = groups.len();
    // Extended stages: per piece its groups, then its tail; the final
    // stage (roots only outputs read) last. `ext[gi]`: stage of group gi.
    let mut ext = vec![0u32; ng + 1];
    let mut is_tail: Vec<bool> = Vec::with_capacity(2 * ng + 1);
    let mut ext_piece: Vec<usize> = Vec::with_capacity(2 * ng + 1);
    for gi in 0..ng {
        ext[gi] = is_tail.len() as u32;
        is_tail.push(false);
        ext_piece.push(piece_of[gi]);
        if piece_of[gi + 1] != piece_of[gi] {
            is_tail.push(true);
            ext_piece.push(piece_of[gi]);
        }
    }
    ext[ng] = is_tail.len() as u32;
    is_tail.push(false);
    ext_piece.push(piece_of[ng]);
    let ns = is_tail.len();
    let fed = |j: usize| j > 0 && ext_piece[j] == ext_piece[j - 1];
    // Per root: the earliest fed stage its AND-output leaves allow, and
    // how many of its root leaves are not placed yet.
    let mut and_lo = vec![0u32; roots.len()];
    let mut wait = vec![0u32; roots.len()];
    // (root read, reader) once per pair, in plan order of the readers.
    let mut reads: Vec<(usize, u32)> = Vec::new();
    let mut last_reader = vec![u32::MAX; roots.len()];
    for r in 0..roots.len() {
        for &x in roots.leaves(r) {
            let x = x as usize;
            if and_group[x] != u32::MAX {
                and_lo[r] = and_lo[r].max(ext[and_group[x] as usize] + 2);
            } else if root_of[x] != u32::MAX {
                let q = root_of[x] as usize;
                if last_reader[q] != r as u32 {
                    last_reader[q] = r as u32;
                    reads.push((q, r as u32));
                    wait[r] += 1;
                }
            }
        }
    }
    let readers = Lists::from_pairs(roots.len(), || reads.iter().copied());
    let gates = |r: usize| root_gates(roots.leaves(r).len());
    let dl = |r: usize| ext[deadline[r] as usize];
    // Roots whose leaves are all placed, by the stage they may start in.
    let mut release: Vec<Vec<u32>> = vec![Vec::new(); ns];
    for r in 0..roots.len() {
        if wait[r] == 0 {
            release[(and_lo[r] as usize).min(ns - 1)].push(r as u32);
        }
    }
    // Earliest deadline first, plan order within a deadline.
    let mut heap: BinaryHeap<Reverse<(u32, u32)>> = BinaryHeap::new();
    let mut heap_gates = 0usize;
    let mut placed = vec![u32::MAX; roots.len()];
    let mut n_placed = 0;
    let mut piece_groups = vec![0usize; piece_of[ng] + 1];
    for &p in &piece_of[..ng] {
        piece_groups[p] += 1;
    }
    for j in 0..ns {
        for &r in &release[j] {
            heap.push(Reverse((dl(r as usize), r)));
            heap_gates += gates(r as usize);
        }
        let mut load = 0usize;
        while let Some(&Reverse((d, r))) = heap.peek() {
            let r = r as usize;
            debug_assert!(d as usize >= j, "root {r} missed its deadline");
            let avail = load + heap_gates;
            let target = [HOIST_ROOM, 10, 4]
                .into_iter()
                .chain((piece_groups[ext_piece[j]] >= WIDE_PIECE).then_some(SPREAD_ROOM))
                .filter(|&t| t <= avail)
                .max()
                .unwrap_or(0);
            let take = d as usize == j || (fed(j) && load < target);
            if !take {
                break;
            }
            heap.pop();
            heap_gates -= gates(r);
            load += gates(r);
            placed[r] = j as u32;
            n_placed += 1;
            for &c in readers.get(r) {
                let c = c as usize;
                wait[c] -= 1;
                if wait[c] == 0 {
                    let s = (and_lo[c] as usize).max(j);
                    if s == j {
                        heap.push(Reverse((dl(c), c as u32)));
                        heap_gates += gates(c);
                    } else {
                        release[s.min(ns - 1)].push(c as u32);
                    }
                }
            }
        }
    }
    debug_assert_eq!(n_placed, roots.len());
    // Renumber.
    let mut new_idx = vec![0u32; ns];
    let mut new_groups = Vec::with_capacity(ns);
    let mut new_piece = Vec::with_capacity(ns);
    let mut gi = 0;
    for j in 0..ns - 1 {
        new_idx[j] = new_groups.len() as u32;
        if is_tail[j] {
            let e = groups[gi - 1].1;
            new_groups.push((e, e));
            new_piece.push(ext_piece[j]);
        } else {
            new_groups.push(groups[gi]);
            new_piece.push(ext_piece[j]);
            gi += 1;
        }
    }
    new_idx[ns - 1] = new_groups.len() as u32;
    new_piece.push(piece_of[ng]);
    let new_deadline = placed.iter().map(|&j| new_idx[j as usize]).collect();
    (new_groups, new_piece, new_deadline)
}
