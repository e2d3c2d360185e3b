//! Bucketing, Fig. 1 steps 11–12: Bob's random permutation of the
//! unchecked components into q AND buckets (β gates + α authenticators),
//! n input buckets (β̃ gates) and n input authenticators (α̃), and Alice's
//! solderings that give every component of a bucket the head's keys.
//!
//! Solderings (each the XOR of two committed 0-keys, batch-opened):
//! AND bucket with head h — `L_g⊕L_h, R_g⊕R_h, O_g⊕O_h` per other gate g,
//! `K_a⊕O_h` per authenticator; input bucket — `R_h⊕L_h`, then
//! `L_g⊕L_h, R_g⊕L_h` (both inputs of every gate carry the input wire, the
//! trapdoor Eval uses to extract Alice's input); input authenticators —
//! `K_a⊕K_h`.

use super::cut_and_choose::Survivors;
use super::generate::{Ids, Plan};
use super::hcom::{HcomReceiver, HcomSender, ItemSets};
use super::material::{AuthB, BobMaterial, Flat, GateB, Layout};
use brickyard_core::prefetch::prefetch;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use std::ops::Range;

/// Bob's permutation applied: the shuffled survivors, cut into buckets in
/// order (AND buckets first, then input buckets / input authenticators),
/// with no per-bucket allocation.
struct Assignment {
    gates: Vec<usize>,
    auths: Vec<usize>,
    q: usize,
    n: usize,
    b: usize,
    a: usize,
    bi: usize,
    ai: usize,
}

impl Assignment {
    fn and_gates(&self, i: usize) -> &[usize] {
        &self.gates[i * self.b..(i + 1) * self.b]
    }
    fn and_auths(&self, i: usize) -> &[usize] {
        &self.auths[i * self.a..(i + 1) * self.a]
    }
    fn input(&self, i: usize) -> &[usize] {
        let at = self.q * self.b + i * self.bi;
        &self.gates[at..at + self.bi]
    }
    fn input_auth(&self, i: usize) -> &[usize] {
        let at = self.q * self.a + i * self.ai;
        &self.auths[at..at + self.ai]
    }
}

fn assign(seed: Block, plan: &Plan, mut s: Survivors) -> Assignment {
    let mut prg = Prg::from_seed(seed);
    prg.shuffle(&mut s.gates);
    prg.shuffle(&mut s.auths);
    let p = &plan.params;
    Assignment {
        gates: s.gates,
        auths: s.auths,
        q: p.q as usize,
        n: p.n as usize,
        b: p.beta as usize,
        a: p.alpha as usize,
        bi: p.beta_in as usize,
        ai: p.alpha_in as usize,
    }
}

/// The head gate of each AND bucket and every gate of the input buckets
/// under Bob's permutation from `seed`: what a cheating Alice who knows
/// Bob's challenges in advance corrupts (`Cheat::BadInputBuckets`).
#[cfg(feature = "adversary")]
pub(crate) fn predicted(seed: Block, plan: &Plan, s: Survivors) -> (Vec<usize>, Vec<usize>) {
    let asg = assign(seed, plan, s);
    let and_gates = (0..asg.q).map(|i| asg.and_gates(i)[0]).collect();
    let input = (0..asg.n).flat_map(|i| asg.input(i).to_vec()).collect();
    (and_gates, input)
}

/// The solderings of step 12 as the items of one batch opening, computed
/// from the assignment on demand (millions of pairs for large q, which as
/// a list of sets cost more to allocate and free than to open).
struct Solderings<'a> {
    asg: &'a Assignment,
    ids: &'a Ids,
    /// A cheating Alice's extra id in one item (adversary builds only).
    extra: Option<(usize, usize)>,
}

impl Solderings<'_> {
    /// Items per AND bucket, input bucket and input authenticator group.
    fn widths(&self) -> (usize, usize, usize) {
        let g = self.asg;
        (
            3 * (g.b - 1) + g.a,
            1 + 2 * (g.bi - 1),
            g.ai.saturating_sub(1),
        )
    }

    /// Item `i`: `[component's key, key it is soldered to]`.
    fn item(&self, i: usize) -> [usize; 2] {
        let (g, ids) = (self.asg, self.ids);
        let (wa, wi, _) = self.widths();
        if i < g.q * wa {
            let (gates, o) = (g.and_gates(i / wa), i % wa);
            let h = gates[0];
            if o < 3 * (g.b - 1) {
                let x = gates[1 + o / 3];
                return match o % 3 {
                    0 => [ids.l + x, ids.l + h],
                    1 => [ids.r + x, ids.r + h],
                    _ => [ids.o + x, ids.o + h],
                };
            }
            return [ids.k + g.and_auths(i / wa)[o - 3 * (g.b - 1)], ids.o + h];
        }
        let i = i - g.q * wa;
        if i < g.n * wi {
            let (gates, o) = (g.input(i / wi), i % wi);
            let h = gates[0];
            if o == 0 {
                return [ids.r + h, ids.l + h];
            }
            let x = gates[1 + (o - 1) / 2];
            return match (o - 1) % 2 {
                0 => [ids.l + x, ids.l + h],
                _ => [ids.r + x, ids.l + h],
            };
        }
        let i = i - g.n * wi;
        let wx = self.widths().2;
        let auths = g.input_auth(i / wx);
        [ids.k + auths[1 + i % wx], ids.k + auths[0]]
    }
}

impl ItemSets for Solderings<'_> {
    fn count(&self) -> usize {
        let (wa, wi, wx) = self.widths();
        self.asg.q * wa + self.asg.n * (wi + wx)
    }
    fn write(&self, range: Range<usize>, ids: &mut Vec<usize>, ends: &mut Vec<usize>) {
        for i in range {
            ids.extend_from_slice(&self.item(i));
            if let Some((at, id)) = self.extra {
                if at == i {
                    ids.push(id);
                }
            }
            ends.push(ids.len());
        }
    }
    fn max_id(&self) -> Option<usize> {
        // Every id is a kind's first id plus a survivor's index (or the
        // cheating Alice's extra id): one pass over the survivors instead
        // of one over every item.
        let ids = self.ids;
        let g = self.asg.gates.iter().copied().max().unwrap_or(0);
        let a = self.asg.auths.iter().copied().max().unwrap_or(0);
        Some(
            (ids.l.max(ids.r).max(ids.o) + g)
                .max(ids.k + a)
                .max(self.extra.map_or(0, |e| e.1)),
        )
    }
}

/// The solderings Alice opens for the assignment Bob's seed makes (every
/// item walked, as the fuzz target needs) and the layout she keeps.
#[cfg(feature = "fuzzing")]
pub(crate) fn alice_solderings(
    seed: Block,
    plan: &Plan,
    ids: &Ids,
    s: Survivors,
) -> (usize, Layout) {
    let asg = assign(seed, plan, s);
    let sets = Solderings {
        asg: &asg,
        ids,
        extra: None,
    };
    let (mut out, mut ends) = (Vec::new(), Vec::new());
    sets.write(0..sets.count(), &mut out, &mut ends);
    (ends.len(), layout(&asg, ids, plan))
}

fn layout(asg: &Assignment, ids: &Ids, plan: &Plan) -> Layout {
    Layout {
        delta_id: ids.delta,
        r_ids: (0..plan.params.n as usize).map(|i| ids.r0 + i).collect(),
        v_ids: (0..plan.m).map(|j| ids.v + j).collect(),
        and_heads: (0..asg.q)
            .map(|i| {
                let h = asg.and_gates(i)[0];
                [ids.l + h, ids.r + h, ids.o + h]
            })
            .collect(),
        in_heads: (0..asg.n).map(|i| ids.l + asg.input(i)[0]).collect(),
        in_auth_heads: (0..asg.n).map(|i| ids.k + asg.input_auth(i)[0]).collect(),
        refresh_ids: (0..plan.refresh()).map(|j| ids.refresh + j).collect(),
        next: Default::default(),
    }
}

/// Alice: receives the permutation, sends the solderings.
pub(crate) fn alice(
    hcom: &HcomSender,
    ch: &mut Channel,
    plan: &Plan,
    ids: &Ids,
    s: Survivors,
    #[allow(unused)] cheat: &super::cheat::Cheats,
) -> Result<Layout> {
    let asg = assign(ch.recv_block()?, plan, s);
    #[allow(unused_mut)]
    let mut sets = Solderings {
        asg: &asg,
        ids,
        extra: None,
    };
    #[cfg(feature = "adversary")]
    {
        let n = sets.count();
        sets.extra = cheat
            .set_target(super::cheat::Cheat::BadSoldering, n)
            .map(|i| (i, ids.delta));
    }
    hcom.batch_open(ch, &sets)?;
    Ok(layout(&asg, ids, plan))
}

/// Bob: samples the permutation, verifies the solderings, and assembles
/// his buckets.
#[allow(clippy::too_many_arguments)]
pub(crate) fn bob(
    hcom: &mut HcomReceiver,
    ch: &mut Channel,
    plan: &Plan,
    ids: &Ids,
    s: Survivors,
    tables: &[Block],
    auth_tables: &[Block],
    prg: &mut Prg,
) -> Result<(Layout, BobMaterial)> {
    let seed = prg.random_block();
    ch.send_block(seed)?;
    let asg = assign(seed, plan, s);
    let sets = Solderings {
        asg: &asg,
        ids,
        extra: None,
    };
    // Bob's buckets are laid out (tables gathered by the permutation) while
    // Alice computes her answer; the solderings go in once verified.
    let mut mat = BobMaterial::default();
    let sold =
        hcom.verify_batch_open_then(ch, &sets, || mat = lay_out(&asg, tables, auth_tables))?;
    solder(&mut mat, &asg, &sold)?;
    Ok((layout(&asg, ids, plan), mat))
}

/// Bob's buckets in assignment order with their tables and ids; the
/// solderings (zero for now) are written by [`solder`].
fn lay_out(asg: &Assignment, tables: &[Block], auth_tables: &[Block]) -> BobMaterial {
    let gate = |j: usize| GateB {
        table: [tables[2 * j], tables[2 * j + 1]],
        id: j as u64,
        s: [Block::ZERO; 3],
    };
    let auth = |j: usize| AuthB {
        table: [auth_tables[2 * j], auth_tables[2 * j + 1]],
        id: j as u64,
        s: Block::ZERO,
    };
    let mut mat = BobMaterial::default();
    mat.and_gates = Flat::new(asg.b);
    mat.and_auths = Flat::new(asg.a);
    mat.input = Flat::new(asg.bi);
    mat.input_auth = Flat::new(asg.ai);
    // The tables are read in the permutation's (random) order: prefetch
    // a few components ahead so the misses overlap.
    let (tb, ab): (&[u8], &[u8]) = (
        bytemuck::cast_slice(tables),
        bytemuck::cast_slice(auth_tables),
    );
    let gs = &asg.gates[..asg.q * asg.b];
    mat.and_gates.items = collect_huge(gs.iter().enumerate().map(|(p, &j)| {
        if let Some(&f) = gs.get(p + LAY_OUT_AHEAD) {
            prefetch(tb, 32 * f);
        }
        gate(j)
    }));
    let xs = &asg.auths[..asg.q * asg.a];
    mat.and_auths.items = collect_huge(xs.iter().enumerate().map(|(p, &j)| {
        if let Some(&f) = xs.get(p + LAY_OUT_AHEAD) {
            prefetch(ab, 32 * f);
        }
        auth(j)
    }));
    mat.input.items = (0..asg.n)
        .flat_map(|i| asg.input(i))
        .map(|&j| gate(j))
        .collect();
    mat.input_auth.items = (0..asg.n)
        .flat_map(|i| asg.input_auth(i))
        .map(|&j| auth(j))
        .collect();
    mat
}

/// Components ahead whose tables [`lay_out`] prefetches.
const LAY_OUT_AHEAD: usize = 16;

/// Collects megabytes of fresh records into memory advised for huge pages
/// before it is first touched (fewer page faults here, fewer TLB misses
/// when Eval streams them).
fn collect_huge<T>(items: impl ExactSizeIterator<Item = T>) -> Vec<T> {
    let mut v = Vec::with_capacity(items.len());
    brickyard_core::hugepage::advise_huge(&v);
    v.extend(items);
    v
}

/// Writes the verified solderings, in the order of [`Solderings`], into
/// the buckets laid out by [`lay_out`].
fn solder(mat: &mut BobMaterial, asg: &Assignment, sold: &[Block]) -> Result<()> {
    let mut at = sold.iter().copied();
    let mut next = || {
        at.next()
            .ok_or_else(|| Error::malformed("lego: short soldering opening"))
    };
    for i in 0..asg.q {
        let (b, a) = (asg.b, asg.a);
        for g in &mut mat.and_gates.items[i * b + 1..(i + 1) * b] {
            g.s = [next()?, next()?, next()?];
        }
        for x in &mut mat.and_auths.items[i * a..(i + 1) * a] {
            x.s = next()?;
        }
    }
    let bi = asg.bi;
    for i in 0..asg.n {
        let bucket = &mut mat.input.items[i * bi..(i + 1) * bi];
        bucket[0].s[1] = next()?;
        for g in &mut bucket[1..] {
            g.s = [next()?, next()?, Block::ZERO];
        }
    }
    let ai = asg.ai;
    for i in 0..asg.n {
        for x in &mut mat.input_auth.items[i * ai + 1..(i + 1) * ai] {
            x.s = next()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::cut_and_choose::draw;
    use super::super::params::{LegoParams, Objective};
    use super::*;

    /// `max_id` bounds every id the solderings hold (the opening trusts it
    /// instead of walking the items to check them), with or without a
    /// cheating Alice's extra id.
    #[test]
    fn the_id_bound_covers_every_soldering() {
        let params = LegoParams::optimise(40, 6, 40, Objective::Communication).unwrap();
        let plan = Plan::new(params, 3).unwrap();
        let ids = Ids::new(&plan, 5, 3 * plan.gates + plan.auths + 1000);
        let (seed, _, surv) = draw(&mut Prg::from_seed(Block(3)), &plan);
        let asg = assign(seed, &plan, surv);
        for extra in [None, Some((7, ids.delta))] {
            let sets = Solderings {
                asg: &asg,
                ids: &ids,
                extra,
            };
            let (mut all, mut ends) = (Vec::new(), Vec::new());
            sets.write(0..sets.count(), &mut all, &mut ends);
            assert_eq!(ends.len(), sets.count());
            let max = all.iter().copied().max().unwrap();
            let bound = sets.max_id().unwrap();
            assert!(bound >= max, "bound {bound} below id {max}");
            assert!(bound < ids.delta + plan.gates, "a bound, not a guess");
        }
    }
}
