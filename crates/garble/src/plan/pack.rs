//! Re-layering narrow circuits so that AND groups come out full.

use super::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// No producer (an input wire).
const NONE: u32 = u32::MAX;
/// Marks a linear-gate index among AND indices.
const LIN: u32 = 1 << 31;

/// A wire just got its layer (`avail`): counts it off for each of its
/// `readers`; a linear gate with all inputs placed goes on `stack` to
/// be settled, an AND with all inputs placed is ready from the first
/// layer after its inputs.
fn release(
    readers: &[u32],
    ands: &[[WireId; 3]],
    avail: &[u32],
    pending_l: &mut [u8],
    pending_a: &mut [u8],
    ready: &mut [Vec<u32>],
    stack: &mut Vec<u32>,
) {
    for &r in readers {
        if r & LIN != 0 {
            let i = (r & !LIN) as usize;
            pending_l[i] -= 1;
            if pending_l[i] == 0 {
                stack.push(r);
            }
        } else {
            let i = r as usize;
            pending_a[i] -= 1;
            if pending_a[i] == 0 {
                let g = ands[i];
                let at = avail[g[0] as usize].max(avail[g[1] as usize]);
                ready[at as usize].push(r);
            }
        }
    }
}

/// Moves AND gates with slack (whose readers are later layers) into
/// later layers, so that layers hold whole groups of [`GROUP`] more
/// often: a stage costs the AES passes of a whole 4- or 8-lane group
/// whatever it holds (SHA-256's layers of ~14 ANDs made 879 one-AND
/// groups). The depth stays the circuit's AND depth `D`: each AND runs
/// between its earliest layer (its inputs' ANDs one layer before) and
/// its latest (one before the earliest of its readers' latest, `D` if
/// only outputs read it). Layer by layer, the ANDs due there run, then
/// ready ones with the least slack first, up to the next multiple of 8
/// (or of 4) if that many are ready. Linear gates go to the first layer
/// after their inputs. The AND numbering (hash tweaks) is the new layer
/// order; both sides use the plan, so they agree. `None` if an AND was
/// left out (cannot happen for an order `order` accepted; checked so
/// that a bug here costs the packing, not the circuit).
pub(super) fn pack(o: &Order, num_wires: usize) -> Option<Order> {
    let n = o.ands.len();
    // Producer of each wire: AND index, or linear index | LIN.
    let mut prod = vec![NONE; num_wires];
    for (i, g) in o.ands.iter().enumerate() {
        prod[g[2] as usize] = i as u32;
    }
    for (i, g) in o.linear.iter().enumerate() {
        prod[g[2] as usize] = i as u32 | LIN;
    }
    // Plan order as a gate sequence (linear gates of a layer, then its
    // ANDs), for the reverse pass.
    let mut seq: Vec<u32> = Vec::with_capacity(n + o.linear.len());
    let mut depth = 0u32;
    for st in &o.steps {
        seq.extend((st.lin.0..st.lin.1).map(|i| i | LIN));
        seq.extend(st.ands.0..st.ands.1);
    }
    // Earliest layer (1-based) of each AND; `d` per wire: the latest AND
    // layer it depends on.
    let mut d = vec![0u32; num_wires];
    for &x in &seq {
        if x & LIN != 0 {
            let g = o.linear[(x & !LIN) as usize];
            let db = if g[1] == CONST_WIRE {
                0
            } else {
                d[g[1] as usize]
            };
            d[g[2] as usize] = d[g[0] as usize].max(db);
        } else {
            let g = o.ands[x as usize];
            let l = d[g[0] as usize].max(d[g[1] as usize]) + 1;
            d[g[2] as usize] = l;
            depth = depth.max(l);
        }
    }
    // Latest layer: `need` per wire is the earliest latest-layer of the
    // ANDs reading it (through linear gates).
    let mut need = vec![u32::MAX; num_wires];
    let mut alap = vec![0u32; n];
    for &x in seq.iter().rev() {
        if x & LIN != 0 {
            let g = o.linear[(x & !LIN) as usize];
            let v = need[g[2] as usize];
            for &i in &g[..2] {
                if i != CONST_WIRE {
                    need[i as usize] = need[i as usize].min(v);
                }
            }
        } else {
            let g = o.ands[x as usize];
            let l = depth.min(need[g[2] as usize].saturating_sub(1));
            alap[x as usize] = l;
            for &i in &g[..2] {
                need[i as usize] = need[i as usize].min(l);
            }
        }
    }
    // Forward: readiness by events. `avail` per wire: the first layer an
    // AND may read it in.
    let mut readers: Vec<Vec<u32>> = vec![Vec::new(); num_wires];
    let mut pending_l = vec![0u8; o.linear.len()];
    let mut pending_a = vec![0u8; n];
    for (i, g) in o.linear.iter().enumerate() {
        for &w in &g[..2] {
            if w != CONST_WIRE && prod[w as usize] != NONE {
                readers[w as usize].push(i as u32 | LIN);
                pending_l[i] += 1;
            }
        }
    }
    for (i, g) in o.ands.iter().enumerate() {
        for &w in &g[..2] {
            if prod[w as usize] != NONE {
                readers[w as usize].push(i as u32);
                pending_a[i] += 1;
            }
        }
    }
    let mut avail = vec![1u32; num_wires];
    let mut ready: Vec<Vec<u32>> = vec![Vec::new(); depth as usize + 2];
    let mut stack: Vec<u32> = Vec::new();
    for (i, &p) in pending_l.iter().enumerate() {
        if p == 0 {
            stack.push(i as u32 | LIN);
        }
    }
    for (i, &p) in pending_a.iter().enumerate() {
        if p == 0 {
            ready[1].push(i as u32);
        }
    }
    // Settles linear gates whose inputs are all placed, and queues ANDs
    // that become ready.
    let settle = |stack: &mut Vec<u32>,
                  avail: &mut Vec<u32>,
                  pending_l: &mut Vec<u8>,
                  pending_a: &mut Vec<u8>,
                  ready: &mut Vec<Vec<u32>>| {
        while let Some(x) = stack.pop() {
            let g = o.linear[(x & !LIN) as usize];
            let ab = if g[1] == CONST_WIRE {
                1
            } else {
                avail[g[1] as usize]
            };
            let out = g[2] as usize;
            avail[out] = avail[g[0] as usize].max(ab);
            release(
                &readers[out],
                &o.ands,
                avail,
                pending_l,
                pending_a,
                ready,
                stack,
            );
        }
    };
    settle(
        &mut stack,
        &mut avail,
        &mut pending_l,
        &mut pending_a,
        &mut ready,
    );
    let mut heap: BinaryHeap<Reverse<(u32, u32)>> = BinaryHeap::new();
    let mut layers: Vec<Vec<u32>> = vec![Vec::new(); depth as usize + 1];
    for l in 1..=depth as usize {
        for &a in &ready[l] {
            heap.push(Reverse((alap[a as usize], a)));
        }
        let mut take: Vec<u32> = Vec::new();
        while let Some(&Reverse((al, a))) = heap.peek() {
            if al as usize != l {
                break;
            }
            heap.pop();
            take.push(a);
        }
        let due = take.len();
        if due > 0 {
            let up = |m: usize| due.div_ceil(m) * m;
            let target = if heap.len() >= up(GROUP) - due {
                up(GROUP)
            } else if heap.len() >= up(4) - due {
                up(4)
            } else {
                due
            };
            while take.len() < target {
                let Some(Reverse((_, a))) = heap.pop() else {
                    break;
                };
                take.push(a);
            }
        }
        take.sort_unstable();
        for &a in &take {
            let out = o.ands[a as usize][2] as usize;
            avail[out] = l as u32 + 1;
            release(
                &readers[out],
                &o.ands,
                &avail,
                &mut pending_l,
                &mut pending_a,
                &mut ready,
                &mut stack,
            );
        }
        settle(
            &mut stack,
            &mut avail,
            &mut pending_l,
            &mut pending_a,
            &mut ready,
        );
        layers[l] = take;
    }
    if !heap.is_empty() {
        return None;
    }
    // Linear gates: layer k holds those whose inputs are ready for the
    // ANDs of layer k (avail ≤ k), in plan order; the rest after the
    // last layer.
    let mut lin_layers: Vec<Vec<u32>> = vec![Vec::new(); depth as usize + 2];
    for &x in &seq {
        if x & LIN != 0 {
            let i = (x & !LIN) as usize;
            let out = o.linear[i][2] as usize;
            lin_layers[(avail[out] as usize).min(depth as usize + 1)].push(i as u32);
        }
    }
    let mut p = Order {
        linear: Vec::with_capacity(o.linear.len()),
        ands: Vec::with_capacity(n),
        steps: Vec::new(),
    };
    for l in 1..=depth as usize + 1 {
        let lin0 = p.linear.len() as u32;
        p.linear
            .extend(lin_layers[l].iter().map(|&i| o.linear[i as usize]));
        let lin = (lin0, p.linear.len() as u32);
        let first = p.ands.len() as u32;
        if l <= depth as usize {
            p.ands.extend(layers[l].iter().map(|&a| o.ands[a as usize]));
        }
        if lin.0 == lin.1 && first == p.ands.len() as u32 {
            continue;
        }
        p.push_layer(lin, first);
    }
    (p.ands.len() == n && p.linear.len() == o.linear.len()).then_some(p)
}

/// AND groups (stages with ANDs) an order makes without the π cache.
pub(super) fn group_count(o: &Order) -> usize {
    o.steps
        .iter()
        .map(|st| ((st.ands.1 - st.ands.0) as usize).div_ceil(GROUP))
        .sum()
}

/// Layer pieces with AND gates: each starts by waiting for the one
/// before (its first stage's XORs read its outputs, unfed).
fn and_pieces(o: &Order) -> usize {
    o.steps.iter().filter(|st| st.ands.0 != st.ands.1).count()
}

/// Whether to use the packed order `p` of `o`: if it makes fewer groups
/// and no more layer pieces. One-process A/B (packed against not, ns/AND
/// garble / eval): SHA-256 (3 925 → 2 833 groups) −1.4 to −1.6 / −1.0 to
/// −1.2, udivide64 (−9 %) −1.2 / −1.2, mult64 (−5 %) −0.6 / −0.4,
/// mult2_64 (−5 %) −0.5 / −0.5, divide64 (−0.4 %) −0.5 / +0.05,
/// AES-non-expanded (−1 %) −0.03 / +0.01; but AES-128, whose 20 saved
/// groups cost 10 more pieces (60 → 70), +0.08 to +0.29 / +0.01 to
/// +0.10, so it keeps the AND-depth layering.
pub(super) fn packing_pays(o: &Order, p: &Order) -> bool {
    group_count(p) < group_count(o) && and_pieces(p) <= and_pieces(o)
}
