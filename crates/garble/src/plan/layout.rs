//! Slot assignment: values, liveness, XOR fusion and folds, stages.

use super::*;

/// Whether the compact layout folds XOR values read only by ANDs into the
/// AND gathers (see `layout`); `BRICKYARD_FOLD=0` switches it off for A/B
/// runs. Tables and labels are the same either way.
pub(super) fn fold_enabled() -> bool {
    std::env::var_os("BRICKYARD_FOLD").is_none_or(|v| v != "0")
}

/// Widest layer piece (ANDs) whose AND inputs are folded. A piece with
/// folds gathers a second label per AND input (the zero slot where none
/// folds); in SHA-256's narrow pieces (≤ 32 ANDs) that is cheaper than the
/// XOR gates it replaces (evaluator −0.6 ns/AND), in AES-128's wide ones
/// (160–256) it was slower (+0.2 garble, +0.4 eval: their XORs run under
/// the AES), see `docs/protocols/garbling.md`.
pub(super) const FOLD_PIECE: u32 = 32;

/// Most ANDs in one walk step of pieces joined behind their tail stages
/// (see the walk steps in `layout`): as many as fill the garbler's
/// streaming chunk, so its buffer and what it hands a sink at once stay
/// as they were (a step's tables are garbled into the buffer whole).
/// Against `MAX_BATCH` (256) it let AES-128's wide layers (up to 4
/// pieces) join: −0.03 to −0.12 garble, −0.01 to −0.08 eval ns/AND in
/// five one-process A/B runs, SHA-256 unchanged; 4 096 measured about
/// the same (−0.14 / −0.06) and would quadruple that buffer.
pub(super) const MAX_STEP: usize = crate::garbler::STREAM_CHUNK / crate::gate::TABLE_BLOCKS;

/// Liveness sentinels for slot assignment.
pub(super) const NEVER_READ: u32 = u32::MAX - 1;
pub(super) const OUTPUT: u32 = u32::MAX;

/// Assigns slots to the wires of `o` and compiles the gates over them.
///
/// Wires are first mapped to *values*: an INV output is its input's value
/// with the polarity bit flipped (no gate at all), every XOR and AND output
/// is a new value. With `reuse` (the compact layout), XORs whose value is
/// never needed are dropped, XORs read once by another XOR are fused into
/// it, 2-input XORs read only by the ANDs of narrow pieces are folded into
/// those ANDs' gathers (the AND reads both leaves), and a slot returns to
/// the free list after the last event (XOR gate or AND group) reading its
/// value, except that values an AND of the current layer piece reads
/// (a folded input's leaves included), and AND outputs nothing reads, wait
/// for the end of the piece: then the piece may run stage by stage or all
/// XORs first, and no output of a piece lands on an input of the same
/// piece.
pub(super) fn layout(
    o: &Order,
    num_wires: usize,
    inputs: &[WireId],
    outputs: &[WireId],
    reuse: bool,
    pi_cache: bool,
) -> Result<Layout> {
    // Values and polarities of every wire, in plan order.
    let mut value = vec![u32::MAX; num_wires];
    let mut flip = vec![false; num_wires];
    let mut nvalues = 0u32;
    let mut fresh = || {
        nvalues += 1;
        nvalues - 1
    };
    for &w in inputs {
        value[w as usize] = fresh();
    }
    for st in &o.steps {
        for &[a, b, out] in &o.linear[st.lin.0 as usize..st.lin.1 as usize] {
            if b == CONST_WIRE {
                value[out as usize] = value[a as usize];
                flip[out as usize] = !flip[a as usize];
            } else {
                value[out as usize] = fresh();
                flip[out as usize] = flip[a as usize] ^ flip[b as usize];
            }
        }
        for &[_, _, out] in &o.ands[st.ands.0 as usize..st.ands.1 as usize] {
            value[out as usize] = fresh();
        }
    }
    let nv = nvalues as usize;
    let val = |w: WireId| value[w as usize] as usize;
    let is_xor = |g: &[WireId; 3]| g[1] != CONST_WIRE;
    // Which values are needed (compact only): outputs, AND inputs, and the
    // inputs of needed XORs, found walking backwards.
    let mut needed = vec![!reuse; nv];
    let mut is_output = vec![false; nv];
    for &w in outputs {
        needed[val(w)] = true;
        is_output[val(w)] = true;
    }
    for g in &o.ands {
        needed[val(g[0])] = true;
        needed[val(g[1])] = true;
    }
    for g in o.linear.iter().rev() {
        if is_xor(g) && needed[val(g[2])] {
            needed[val(g[0])] = true;
            needed[val(g[1])] = true;
        }
    }
    // Fusion (compact only): a needed XOR value read exactly once, by
    // another XOR, and not an output is *inlined* into its reader, which
    // becomes an n-ary XOR over the leaves; it never gets a slot.
    let mut xor_in = vec![[u32::MAX; 2]; nv];
    let mut reads = vec![0u32; nv];
    let mut xor_reads = vec![0u32; nv];
    for g in o.linear.iter().filter(|g| is_xor(g)) {
        let v = val(g[2]);
        xor_in[v] = [val(g[0]) as u32, val(g[1]) as u32];
        if needed[v] {
            for &i in &g[..2] {
                reads[val(i)] += 1;
                xor_reads[val(i)] += 1;
            }
        }
    }
    for g in &o.ands {
        reads[val(g[0])] += 1;
        reads[val(g[1])] += 1;
    }
    let inlined = |v: usize| {
        reuse && xor_in[v][0] != u32::MAX && reads[v] == 1 && xor_reads[v] == 1 && !is_output[v]
    };
    // The root XORs (`[leaf values…]`, out value) in plan order.
    let mut roots = Roots::new();
    let mut stack = Vec::new();
    for g in &o.linear {
        let v = val(g[2]);
        if !is_xor(g) || !needed[v] || inlined(v) {
            continue;
        }
        roots.push_root(v as u32);
        stack.extend([xor_in[v][1], xor_in[v][0]]);
        while let Some(x) = stack.pop() {
            if inlined(x as usize) {
                stack.extend([xor_in[x as usize][1], xor_in[x as usize][0]]);
            } else {
                roots.push_leaf(x);
            }
        }
    }
    // Folding (compact, without the π cache): a 2-leaf root `x ⊕ y` read
    // only by AND gates of narrow layer pieces (at most FOLD_PIECE ANDs),
    // and not an output, runs no XOR gate; the ANDs that read it gather
    // `x` and `y` and XOR them in registers (`SlotProgram::with_folds`).
    // From here on an AND reading it reads its leaves (`and_ins`) for
    // deadlines and slot liveness.
    let mut fold = vec![[u32::MAX; 2]; nv];
    let mut widest = vec![0u32; nv];
    for st in &o.steps {
        for g in &o.ands[st.ands.0 as usize..st.ands.1 as usize] {
            for &i in &g[..2] {
                widest[val(i)] = widest[val(i)].max(st.ands.1 - st.ands.0);
            }
        }
    }
    if reuse && !pi_cache && fold_enabled() {
        roots.retain(|leaves, v| {
            let v = v as usize;
            let foldable =
                leaves.len() == 2 && xor_reads[v] == 0 && !is_output[v] && widest[v] <= FOLD_PIECE;
            if foldable {
                fold[v] = [leaves[0], leaves[1]];
            }
            !foldable
        });
    }
    // The values an AND input `v` reads: its leaves if folded, else itself.
    let and_ins = |v: usize| -> [usize; 2] {
        match fold[v] {
            [u32::MAX, _] => [v, v],
            [x, y] => [x as usize, y as usize],
        }
    };
    // AND groups: each layer piece cut into groups of `group` gates.
    let group = if pi_cache { MAX_BATCH } else { GROUP };
    let mut groups: Vec<(u32, u32)> = Vec::new();
    // The layer piece of each group (the final, AND-less stage: its own).
    let mut piece_of: Vec<usize> = Vec::new();
    for (pi, st) in o.steps.iter().enumerate() {
        let mut a = st.ands.0;
        while a < st.ands.1 {
            let e = st.ands.1.min(a + group as u32);
            groups.push((a, e));
            piece_of.push(pi);
            a = e;
        }
    }
    piece_of.push(o.steps.len());
    let ng = groups.len() as u32;
    // Deadline of each root: the first group that reads it, directly or
    // through later roots (`ng`: only outputs read it). Roots run just
    // before their deadline group, as late as possible, so the XORs that
    // feed group g+1 sit right after group g's AES work in the instruction
    // stream and execute under it, instead of in a phase of their own.
    let mut first_group = vec![ng; nv];
    for (gi, &(a, e)) in groups.iter().enumerate().rev() {
        for g in &o.ands[a as usize..e as usize] {
            for x in and_ins(val(g[0])).into_iter().chain(and_ins(val(g[1]))) {
                first_group[x] = gi as u32;
            }
        }
    }
    let mut root_of = vec![u32::MAX; nv];
    for r in 0..roots.len() {
        root_of[roots.out(r) as usize] = r as u32;
    }
    let mut deadline = vec![ng; roots.len()];
    for r in (0..roots.len()).rev() {
        let d = deadline[r].min(first_group[roots.out(r) as usize]);
        deadline[r] = d;
        for &x in roots.leaves(r) {
            if let Some(dl) = deadline.get_mut(root_of[x as usize] as usize) {
                *dl = (*dl).min(d);
            }
        }
    }
    // Stages: the roots due before group g, then group g; a last stage of
    // roots only outputs read. Within a stage, roots go by level (gates of
    // one level are independent), so a gate rarely reads the label the gate
    // just before it stored; stable sorts keep every root after the roots
    // it reads (their deadline is no later and they come first in plan order).
    let mut order: Vec<u32> = (0..roots.len() as u32).collect();
    order.sort_by_key(|&r| deadline[r as usize]);
    if !pi_cache {
        let mut and_group = vec![u32::MAX; nv];
        for (gi, &(a, e)) in groups.iter().enumerate() {
            for g in &o.ands[a as usize..e as usize] {
                and_group[val(g[2])] = gi as u32;
            }
        }
        let h = hoist(&groups, &piece_of, &deadline, &roots, &and_group, &root_of);
        (groups, piece_of, deadline) = h;
    }
    let ng = groups.len() as u32;
    let mut level = vec![u32::MAX; nv];
    let mut stage_roots = Lists::from_pairs(ng as usize + 1, || {
        order.iter().map(|&r| (deadline[r as usize] as usize, r))
    });
    for si in 0..stage_roots.len() {
        let bucket = stage_roots.get_mut(si);
        for &r in bucket.iter() {
            let (leaves, out) = (roots.leaves(r as usize), roots.out(r as usize));
            level[out as usize] = leaves
                .iter()
                .map(|&x| level[x as usize].wrapping_add(1))
                .filter(|&l| l != 0)
                .max()
                .unwrap_or(0);
        }
        bucket.sort_by_key(|&r| level[roots.out(r as usize) as usize]);
        for &r in bucket.iter() {
            level[roots.out(r as usize) as usize] = u32::MAX;
        }
    }
    let group_of = |g: usize| {
        groups
            .get(g)
            .copied()
            .unwrap_or((o.ands.len() as u32, o.ands.len() as u32))
    };
    // last[v]: index of the last event (XOR gate or AND group) reading v.
    let mut last = vec![NEVER_READ; nv];
    let mut ev = 0u32;
    for (g, bucket) in stage_roots.iter().enumerate() {
        for &r in bucket {
            for &x in roots.leaves(r as usize) {
                last[x as usize] = ev;
            }
            ev += 1;
        }
        let (a, e) = group_of(g);
        for gate in &o.ands[a as usize..e as usize] {
            for x in and_ins(val(gate[0]))
                .into_iter()
                .chain(and_ins(val(gate[1])))
            {
                last[x] = ev;
            }
        }
        ev += 1;
    }
    for &w in outputs {
        last[val(w)] = OUTPUT;
    }
    let mut slot = vec![u32::MAX; nv];
    let mut next = 0u32;
    for &w in inputs {
        slot[val(w)] = next;
        next += 1;
    }
    // A slot nothing writes, so it stays zero: the third input of 2-input
    // XORs (the kernel runs 3-input gates only).
    let zero = next;
    next += 1;
    let mut free: Vec<u32> = Vec::new();
    let mut alloc = |free: &mut Vec<u32>| {
        free.pop().unwrap_or_else(|| {
            next += 1;
            next - 1
        })
    };
    // Frees v's slot if `ev` is its last reader (once, even if read twice).
    let release = |v: usize, ev: u32, last: &mut [u32], slot: &[u32], free: &mut Vec<u32>| {
        if reuse && last[v] == ev {
            last[v] = NEVER_READ - 1;
            free.push(slot[v]);
        }
    };
    let mut xors: Vec<[u32; 4]> = Vec::new();
    let mut ands = Vec::new();
    // Per AND gate, the second leaf of each folded input (the zero slot
    // for an input that folds nothing).
    let mut folds: Vec<[u32; 2]> = Vec::new();
    let mut stages: Vec<[u32; 2]> = Vec::with_capacity(stage_roots.len());
    let mut ev = 0u32;
    // Values read by an AND of the current piece (`and_piece`) are
    // released when the piece ends, whichever event reads them last.
    let mut pending: Vec<(usize, u32)> = Vec::new();
    let mut and_piece = vec![usize::MAX; nv];
    for (g, bucket) in stage_roots.iter().enumerate() {
        let piece = piece_of[g];
        for &r in bucket {
            let (leaves, out) = (roots.leaves(r as usize), roots.out(r as usize));
            let s = |x: u32| slot[x as usize];
            let so = if let [a, b, ref c @ ..] = leaves[..] {
                if c.len() <= 1 {
                    // Inputs are read before the store, so the output may
                    // take a slot freed by this very gate.
                    for &x in leaves {
                        if and_piece[x as usize] == piece {
                            pending.push((x as usize, ev));
                        } else {
                            release(x as usize, ev, &mut last, &slot, &mut free);
                        }
                    }
                    let so = alloc(&mut free);
                    xors.push([s(a), s(b), c.first().map_or(zero, |&c| s(c)), so]);
                    so
                } else {
                    // Wider: 3-input pieces accumulating in the output
                    // slot, taken while every leaf still holds its slot.
                    let so = alloc(&mut free);
                    xors.push([s(a), s(b), s(c[0]), so]);
                    for pair in c[1..].chunks(2) {
                        let second = pair.get(1).map_or(zero, |&x| s(x));
                        xors.push([so, s(pair[0]), second, so]);
                    }
                    for &x in leaves {
                        if and_piece[x as usize] == piece {
                            pending.push((x as usize, ev));
                        } else {
                            release(x as usize, ev, &mut last, &slot, &mut free);
                        }
                    }
                    so
                }
            } else {
                unreachable!("an XOR has two inputs");
            };
            slot[out as usize] = so;
            release(out as usize, NEVER_READ, &mut last, &slot, &mut free);
            ev += 1;
        }
        let (a, e) = group_of(g);
        let batch = &o.ands[a as usize..e as usize];
        let first = ands.len();
        for &[a, b, _] in batch {
            let (ia, ib) = (and_ins(val(a)), and_ins(val(b)));
            let second = |w: WireId| match fold[val(w)] {
                [u32::MAX, _] => zero,
                [_, y] => slot[y as usize],
            };
            ands.push(AndSlots {
                a: slot[ia[0]],
                b: slot[ib[0]],
                out: 0,
                // A folded input's polarity is its wire's, as for a slot:
                // the leaves' slots XOR to the value the root's slot held.
                flip: flip[a as usize] as u32 | (flip[b as usize] as u32) << 1,
            });
            folds.push([second(a), second(b)]);
        }
        // A group takes its output slots before releasing its inputs, so no
        // output lands on an input of the same group.
        for (gate, &[_, _, out]) in ands[first..].iter_mut().zip(batch) {
            let so = alloc(&mut free);
            slot[val(out)] = so;
            gate.out = so;
        }
        for &[a, b, out] in batch {
            for x in and_ins(val(a)).into_iter().chain(and_ins(val(b))) {
                pending.push((x, ev));
                and_piece[x] = piece;
            }
            pending.push((val(out), NEVER_READ));
        }
        ev += 1;
        stages.push([xors.len() as u32, ands.len() as u32]);
        // AND inputs (and outputs nothing reads) are freed only at the end
        // of the layer piece, so no XOR of the piece takes the slot of an
        // input or a dead output of one of its groups, and no group output
        // lands on an input of the piece: the kernels may run a stage's
        // XORs during the previous group's AES (`garble_stages`), or a
        // π-cached piece as "all its XORs, then all its ANDs".
        if piece_of.get(g + 1) != Some(&piece) {
            for (v, e) in pending.drain(..) {
                release(v, e, &mut last, &slot, &mut free);
            }
        }
    }
    // Walk steps: with the π cache, one layer piece (one stage, whose
    // jobs are per batch) and the final stage. Without it, runs of whole
    // pieces of up to MAX_STEP ANDs in all, each piece after the first
    // joined behind the previous piece's AND-less tail stage (`hoist`
    // keeps one per piece): the kernels feed a stage's XORs under the
    // group before, which for a piece's first stage is the tail's empty
    // group, so they run unfed after the previous piece's outputs are
    // stored, as at the start of a step. A step calls the stage kernels
    // once (SHA-256's 1 608 pieces of ~14 ANDs cost ~1 ns/AND more as
    // one call each). The kernels choose folded gathers per call, so a
    // step joins only pieces that all fold or all do not (joining them
    // regardless measured no better).
    let piece_ands = |p: usize| o.steps.get(p).map_or(0, |st| st.ands.1 - st.ands.0);
    let piece_folds = |p: usize| {
        o.steps.get(p).is_some_and(|st| {
            folds[st.ands.0 as usize..st.ands.1 as usize]
                .iter()
                .any(|f| *f != [zero; 2])
        })
    };
    let mut steps: Vec<Step> = Vec::new();
    // The stage ends of the last two stages.
    let (mut before, mut prev) = ([0u32; 2], [0u32; 2]);
    let mut step_folds = false;
    for (si, st) in stages.iter().enumerate() {
        let p = piece_of[si];
        let joins = match steps.last() {
            None => false,
            Some(_) if piece_of[si - 1] == p => true,
            Some(last) => {
                !pi_cache
                    && prev[1] == before[1]
                    && last.ands.1 - last.ands.0 + piece_ands(p) <= MAX_STEP as u32
                    && (piece_ands(p) == 0 || piece_folds(p) == step_folds)
            }
        };
        match steps.last_mut() {
            Some(last) if joins => {
                last.stages.1 = si as u32 + 1;
                last.ands.1 = st[1];
            }
            _ => {
                steps.push(Step {
                    stages: (si as u32, si as u32 + 1),
                    ands: (prev[1], st[1]),
                    pis: (0, 0),
                    cached: false,
                });
                step_folds = piece_folds(p);
            }
        }
        (before, prev) = (prev, *st);
    }
    let num_slots = next as usize;
    let (pi_bound, mut jobs, and_pis) = if pi_cache {
        pi_slots(o, &mut steps, &|w| val(w))
    } else {
        (0, Vec::new(), vec![[0, 0]; ands.len()])
    };
    // Plain batches name π slot 0, which must exist for the program to
    // validate (their kernels never read it).
    let pi_bound = pi_bound.max(1);
    for j in &mut jobs {
        j[0] = slot[j[0] as usize];
    }
    let wire_slot = |w: WireId| match value[w as usize] {
        u32::MAX => u32::MAX,
        v => slot[v as usize],
    };
    Ok(Layout {
        num_slots,
        prog: {
            let prog = SlotProgram::new(num_slots, SlotXors::new(xors), ands)?
                .with_stages(stages)?
                .with_pi_cache(pi_bound, jobs, and_pis)?;
            if folds.iter().any(|f| *f != [zero; 2]) {
                prog.with_folds(folds, zero)?
            } else {
                prog
            }
        },
        steps,
        output_slots: outputs.iter().map(|&w| wire_slot(w)).collect(),
        output_flips: outputs.iter().map(|&w| flip[w as usize]).collect(),
        wire_slots: if reuse {
            Vec::new()
        } else {
            (0..num_wires as u32).map(wire_slot).collect()
        },
        wire_flips: if reuse { Vec::new() } else { flip },
    })
}
