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
    #[cfg(test)]
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

/// The order in which step 12 opens the solderings: component by
/// component in id order (the used gates, then the used authenticators),
/// each with its items. The members' commitments are then read in
/// increasing id order, three sequential streams (L⁰, R⁰, O⁰) the
/// hardware prefetcher follows, and only the bucket heads' (a few per
/// bucket, a set that stays in L2 for one AES-128) are read at random;
/// in bucket order every read of the state was a cache miss.
struct Order {
    gates: Entries,
    auths: Entries,
}

/// One kind of component in id order, with what each item needs (no
/// division per item).
#[derive(Default)]
struct Entries {
    /// Component id (index into the garbled gates or authenticators).
    x: Vec<u32>,
    /// The id of the component it is soldered to (its bucket's head gate,
    /// or its input authenticator group's head).
    head: Vec<u32>,
    /// Its position in `Assignment::gates` / `auths`.
    pos: Vec<u32>,
    /// Index of its first item; one more entry at the end (the count), so
    /// entry e has `first[e + 1] - first[e]` items.
    first: Vec<u32>,
}

impl Entries {
    /// The entries of `used` (distinct component ids at their positions),
    /// sorted by id; `place` holds each position's head and item count.
    /// Items are numbered from `first`.
    fn by_id(used: &[usize], place: &[(u32, u8)], first: u32) -> Result<Entries> {
        let too_many = || Error::config("lego: more components than one Generate can number");
        let top = used.iter().copied().max().map_or(0, |m| m + 1);
        u32::try_from(top).map_err(|_| too_many())?;
        let mut pos_of = vec![u32::MAX; top];
        for (p, &j) in used.iter().enumerate() {
            pos_of[j] = p as u32;
        }
        let mut e = Entries::default();
        let mut at = u64::from(first);
        for (x, &p) in pos_of.iter().enumerate().filter(|(_, &p)| p != u32::MAX) {
            let (head, items) = place[p as usize];
            e.x.push(x as u32);
            e.head.push(head);
            e.pos.push(p);
            e.first.push(u32::try_from(at).map_err(|_| too_many())?);
            at += u64::from(items);
        }
        e.first.push(u32::try_from(at).map_err(|_| too_many())?);
        Ok(e)
    }

    fn items(&self, e: usize) -> usize {
        (self.first[e + 1] - self.first[e]) as usize
    }

    fn end(&self) -> usize {
        *self.first.last().unwrap_or(&0) as usize
    }

    /// The entry holding item `i` (which must be below [`Entries::end`]).
    fn locate(&self, i: usize) -> usize {
        self.first.partition_point(|&f| f as usize <= i) - 1
    }
}

impl Order {
    /// Solderings per gate: none for an AND bucket's head, `L, R, O` for
    /// the others; `R_h⊕L_h` for an input bucket's head, `L, R` for the
    /// others. Per authenticator: one, except for the head of an input
    /// authenticator group.
    fn new(g: &Assignment) -> Result<Order> {
        let (b, bi, a, ai) = (g.b.max(1), g.bi.max(1), g.a.max(1), g.ai.max(1));
        let (qb, qa) = (g.q * g.b, g.q * g.a);
        // Each position's head and item count, bucket by bucket (no
        // division per component).
        let mut place = Vec::with_capacity(qb + g.n * g.bi);
        for bucket in g.gates[..qb].chunks(b) {
            let h = bucket[0] as u32;
            place.extend((0..bucket.len()).map(|k| (h, if k == 0 { 0 } else { 3 })));
        }
        for bucket in g.gates[qb..qb + g.n * g.bi].chunks(bi) {
            let h = bucket[0] as u32;
            place.extend((0..bucket.len()).map(|k| (h, if k == 0 { 1 } else { 2 })));
        }
        let gates = Entries::by_id(&g.gates[..place.len()], &place, 0)?;
        place.clear();
        for (i, group) in g.auths[..qa].chunks(a).enumerate() {
            let h = g.gates[i * g.b] as u32;
            place.extend(group.iter().map(|_| (h, 1)));
        }
        for group in g.auths[qa..qa + g.n * g.ai].chunks(ai) {
            let h = group[0] as u32;
            place.extend((0..group.len()).map(|k| (h, u8::from(k != 0))));
        }
        let first = u32::try_from(gates.end()).unwrap_or(u32::MAX);
        let auths = Entries::by_id(&g.auths[..place.len()], &place, first)?;
        Ok(Order { gates, auths })
    }

    fn count(&self) -> usize {
        self.auths.end()
    }
}

/// The solderings of step 12 as the items of one batch opening, computed
/// from the assignment on demand (millions of pairs for large q, which as
/// a list of sets cost more to allocate and free than to open), in the
/// [`Order`] of the components.
struct Solderings<'a> {
    /// AND buckets' authenticators are the first `qa` positions.
    qa: usize,
    order: &'a Order,
    ids: &'a Ids,
    /// A cheating Alice's extra id in one item (adversary builds only).
    extra: Option<(usize, usize)>,
}

impl Solderings<'_> {
    /// Item `o` of gate entry `e`: `[component's key, key it is soldered
    /// to]`.
    fn gate_item(&self, e: usize, o: usize) -> [usize; 2] {
        let (g, ids) = (&self.order.gates, self.ids);
        let (x, h) = (g.x[e] as usize, g.head[e] as usize);
        match (g.items(e), o) {
            (3, 0) => [ids.l + x, ids.l + h],
            (3, 1) => [ids.r + x, ids.r + h],
            (3, _) => [ids.o + x, ids.o + h],
            (1, _) => [ids.r + h, ids.l + h],
            (_, 0) => [ids.l + x, ids.l + h],
            _ => [ids.r + x, ids.l + h],
        }
    }

    /// The item of authenticator entry `e`.
    fn auth_item(&self, e: usize) -> [usize; 2] {
        let (a, ids) = (&self.order.auths, self.ids);
        let (x, h) = (a.x[e] as usize, a.head[e] as usize);
        if (a.pos[e] as usize) < self.qa {
            [ids.k + x, ids.o + h]
        } else {
            [ids.k + x, ids.k + h]
        }
    }

    #[inline]
    fn push(&self, i: usize, item: [usize; 2], ids: &mut Vec<usize>, ends: &mut Vec<usize>) {
        ids.extend_from_slice(&item);
        if let Some((at, id)) = self.extra {
            if at == i {
                ids.push(id);
            }
        }
        ends.push(ids.len());
    }
}

impl ItemSets for Solderings<'_> {
    fn count(&self) -> usize {
        self.order.count()
    }
    fn write(&self, range: Range<usize>, ids: &mut Vec<usize>, ends: &mut Vec<usize>) {
        let (g, a) = (&self.order.gates, &self.order.auths);
        let mut i = range.start;
        if i < g.end() {
            let mut e = g.locate(i);
            while i < range.end.min(g.end()) {
                let first = g.first[e] as usize;
                let stop = (g.first[e + 1] as usize).min(range.end);
                for at in i..stop {
                    self.push(at, self.gate_item(e, at - first), ids, ends);
                }
                i = i.max(stop);
                e += 1;
            }
        }
        if i < range.end {
            let mut e = a.locate(i);
            while i < range.end {
                if a.items(e) == 1 {
                    self.push(i, self.auth_item(e), ids, ends);
                    i += 1;
                }
                e += 1;
            }
        }
    }
    fn max_id(&self) -> Option<usize> {
        let ids = self.ids;
        let (g, a) = (&self.order.gates, &self.order.auths);
        // Both lists are sorted by id; heads are members of the same kind
        // (an authenticator's AND head is a gate, below the last gate).
        let gate =
            g.x.last()
                .map(|&j| ids.l.max(ids.r).max(ids.o) + j as usize);
        let auth = a.x.last().map(|&j| ids.k + j as usize);
        let extra = self.extra.map(|(_, id)| id);
        Some(gate.max(auth).max(extra).unwrap_or(0))
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
    let order = Order::new(&asg).expect("fuzzing sizes fit u32");
    let sets = Solderings {
        qa: asg.q * asg.a,
        order: &order,
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
    let order = Order::new(&asg)?;
    #[allow(unused_mut)]
    let mut sets = Solderings {
        qa: asg.q * asg.a,
        order: &order,
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
    let order = Order::new(&asg)?;
    let sets = Solderings {
        qa: asg.q * asg.a,
        order: &order,
        ids,
        extra: None,
    };
    // Bob's buckets are laid out (tables gathered by the permutation) while
    // Alice computes her answer; the solderings go in once verified.
    let mut mat = BobMaterial::default();
    let sold =
        hcom.verify_batch_open_then(ch, &sets, || mat = lay_out(&asg, tables, auth_tables))?;
    solder(&mut mat, &asg, &order, &sold)?;
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
    mat.and_gates.items = collect_huge(asg.gates[..asg.q * asg.b].iter().map(|&j| gate(j)));
    mat.and_auths.items = collect_huge(asg.auths[..asg.q * asg.a].iter().map(|&j| auth(j)));
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

/// Collects megabytes of fresh records into memory advised for huge pages
/// before it is first touched (fewer page faults here, fewer TLB misses
/// when Eval streams them).
fn collect_huge<T>(items: impl ExactSizeIterator<Item = T>) -> Vec<T> {
    let mut v = Vec::with_capacity(items.len());
    brickyard_core::hugepage::advise_huge(&v);
    v.extend(items);
    v
}

/// Writes the verified solderings, opened in the order of [`Solderings`]
/// (component ids), into the buckets laid out by [`lay_out`], bucket by
/// bucket: the records are written in order and the opened values read at
/// random (reads overlap; scattered writes into megabytes of records
/// would each wait for their line).
fn solder(mat: &mut BobMaterial, asg: &Assignment, order: &Order, sold: &[Block]) -> Result<()> {
    if sold.len() != order.count() {
        return Err(Error::malformed("lego: short soldering opening"));
    }
    let (g, a) = (&order.gates, &order.auths);
    let (qb, qa) = (asg.q * asg.b, asg.q * asg.a);
    // First item of the component at each position (positions without
    // items are never read).
    let at = |e: &Entries, len: usize| {
        let mut v = vec![0u32; len];
        for (&p, &f) in e.pos.iter().zip(&e.first) {
            v[p as usize] = f;
        }
        v
    };
    let gi = at(g, qb + asg.n * asg.bi);
    let s = |i: u32| sold[i as usize];
    let (b, bi) = (asg.b.max(1), asg.bi.max(1));
    for (bucket, is) in mat.and_gates.items.chunks_mut(b).zip(gi[..qb].chunks(b)) {
        // The head has no items and keeps zeros.
        for (rec, &i) in bucket.iter_mut().zip(is).skip(1) {
            rec.s = [s(i), s(i + 1), s(i + 2)];
        }
    }
    for (bucket, is) in mat.input.items.chunks_mut(bi).zip(gi[qb..].chunks(bi)) {
        for (k, (rec, &i)) in bucket.iter_mut().zip(is).enumerate() {
            if k == 0 {
                rec.s[1] = s(i);
            } else {
                rec.s = [s(i), s(i + 1), Block::ZERO];
            }
        }
    }
    let ai = at(a, qa + asg.n * asg.ai);
    for (rec, &i) in mat.and_auths.items.iter_mut().zip(&ai[..qa]) {
        rec.s = s(i);
    }
    for (group, is) in mat
        .input_auth
        .items
        .chunks_mut(asg.ai.max(1))
        .zip(ai[qa..].chunks(asg.ai.max(1)))
    {
        for (rec, &i) in group.iter_mut().zip(is).skip(1) {
            rec.s = s(i);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::cut_and_choose::draw;
    use super::super::params::{LegoParams, Objective};
    use super::*;

    /// The solderings in bucket order, as the paper lists them: per AND
    /// bucket `L, R, O` of each other gate then `K_a⊕O_h`; per input bucket
    /// `R_h⊕L_h`, then `L, R` of each other gate; per input authenticator
    /// group `K_a⊕K_h`.
    fn by_bucket(g: &Assignment, ids: &Ids) -> Vec<[usize; 2]> {
        let mut v = Vec::new();
        for i in 0..g.q {
            let (gates, h) = (g.and_gates(i), g.and_gates(i)[0]);
            for &x in &gates[1..] {
                v.extend([
                    [ids.l + x, ids.l + h],
                    [ids.r + x, ids.r + h],
                    [ids.o + x, ids.o + h],
                ]);
            }
            v.extend(g.and_auths(i).iter().map(|&a| [ids.k + a, ids.o + h]));
        }
        for i in 0..g.n {
            let h = g.input(i)[0];
            v.push([ids.r + h, ids.l + h]);
            for &x in &g.input(i)[1..] {
                v.extend([[ids.l + x, ids.l + h], [ids.r + x, ids.l + h]]);
            }
        }
        for i in 0..g.n {
            let a = g.input_auth(i);
            v.extend(a[1..].iter().map(|&x| [ids.k + x, ids.k + a[0]]));
        }
        v
    }

    /// The component order opens the same solderings as the bucket order
    /// (one per pair, in any piece of the range), within `max_id`, with
    /// component ids increasing; and Bob's `solder` puts each opened value
    /// where the bucket order puts it.
    #[test]
    fn component_order_opens_the_bucket_solderings() {
        let params = LegoParams::optimise(40, 6, 40, Objective::Communication).unwrap();
        let plan = Plan::new(params, 3).unwrap();
        let ids = Ids::new(&plan, 5, 3 * plan.gates + plan.auths + 1000);
        let (seed, _, surv) = draw(&mut Prg::from_seed(Block(3)), &plan);
        let asg = assign(seed, &plan, surv);
        let order = Order::new(&asg).unwrap();
        let sets = Solderings {
            qa: asg.q * asg.a,
            order: &order,
            ids: &ids,
            extra: None,
        };
        let want = by_bucket(&asg, &ids);
        assert_eq!(sets.count(), want.len());
        let (mut all, mut ends) = (Vec::new(), Vec::new());
        sets.write(0..sets.count(), &mut all, &mut ends);
        assert_eq!(all.len(), 2 * want.len(), "two ids per item");
        let got: Vec<[usize; 2]> = all.chunks(2).map(|c| [c[0], c[1]]).collect();
        for cut in [1, 7, 64, 129] {
            let (mut part, mut e) = (Vec::new(), Vec::new());
            for r in (0..sets.count()).step_by(cut) {
                sets.write(r..(r + cut).min(sets.count()), &mut part, &mut e);
            }
            assert_eq!(part, all, "pieces of {cut}");
        }
        let max = all.iter().copied().max().unwrap();
        assert!(sets.max_id().unwrap() >= max);
        let (mut a, mut b) = (got.clone(), want.clone());
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "same solderings");
        let members: Vec<usize> = got
            .iter()
            .map(|p| p[0])
            .filter(|&id| (ids.l..ids.l + plan.gates).contains(&id))
            .collect();
        assert!(members.windows(2).all(|w| w[0] < w[1]), "L⁰ read in order");
        // Each opened value names its item; solder must place it as the
        // bucket order does.
        let name = |p: &[usize; 2]| Block(((p[0] as u128) << 64) | p[1] as u128);
        let sold: Vec<Block> = got.iter().map(name).collect();
        let tables = vec![Block::ZERO; 2 * plan.gates];
        let auth_tables = vec![Block::ZERO; 2 * plan.auths];
        let mut mat = lay_out(&asg, &tables, &auth_tables);
        solder(&mut mat, &asg, &order, &sold).unwrap();
        let mut placed = Vec::new();
        for i in 0..asg.q {
            let b = &mat.and_gates.items[i * asg.b..(i + 1) * asg.b];
            assert!(b[0].s.iter().all(|s| *s == Block::ZERO), "head unsoldered");
            placed.extend(b[1..].iter().flat_map(|g| g.s));
            placed.extend(
                mat.and_auths.items[i * asg.a..(i + 1) * asg.a]
                    .iter()
                    .map(|x| x.s),
            );
        }
        for i in 0..asg.n {
            let b = &mat.input.items[i * asg.bi..(i + 1) * asg.bi];
            placed.push(b[0].s[1]);
            placed.extend(b[1..].iter().flat_map(|g| [g.s[0], g.s[1]]));
        }
        for i in 0..asg.n {
            let a = &mat.input_auth.items[i * asg.ai..(i + 1) * asg.ai];
            placed.extend(a[1..].iter().map(|x| x.s));
        }
        assert_eq!(placed, want.iter().map(name).collect::<Vec<_>>());
        assert!(solder(&mut mat, &asg, &order, &sold[1..]).is_err(), "short");
    }
}
