//! Bob's online evaluation (Eval steps 4–5), a layer at a time.
//!
//! The circuit is split once into AND-depth layers ([`EvalPlan`], built in
//! the dependent phase). Per layer Bob first runs the free gates, then
//! gathers the inputs of *every* garbled gate of *every* bucket of the layer
//! — the head's keys translated by Build's solderings and each gate's
//! bucket soldering — hashes them in chunks of [`CHUNK_GATES`] gates with
//! one fixed-key AES pass per hash step, finishes each gate with the
//! half-gates equation, and applies the bucket rule ([`super::bucket`]):
//! all β outputs agree → that key; otherwise the slow path decides (Δ
//! recovery or the scoring rule). Input authenticators are likewise hashed
//! in one batch for all inputs.

use super::bucket::{decide, input_key_accepted, BucketOut};
use super::build::BuiltBob;
use super::component::{auths_accept, gate_output, hash_gate_inputs};
use super::material::{AuthB, BobMaterial, GateB};
use brickyard_circuit::{Circuit, Gate};
use brickyard_core::{Block, Error, Result};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock, RwLockWriteGuard};

/// Garbled gates hashed per AES pass (two blocks each): long enough to
/// fill the VAES pipeline, short enough that the buffers stay in L1/L2.
pub const CHUNK_GATES: usize = 512;

#[derive(Clone, Copy, Debug)]
enum Lin {
    Xor(u32, u32, u32),
    Inv(u32, u32),
}

/// An AND gate of f: input and output wires and its index `k` in circuit
/// order. The gate at position `i` of the plan's layer order uses the
/// copy's `i`-th bucket and Build's `solder[i]` ([`and_ranks`]).
#[derive(Clone, Copy, Debug)]
struct PlanAnd {
    a: u32,
    b: u32,
    out: u32,
    #[cfg_attr(not(test), allow(dead_code))]
    k: u32,
}

/// The position of each AND gate of `c` (circuit order) in layer order:
/// by AND-depth, ties in circuit order, as [`EvalPlan`] walks them. Build
/// gives AND gate `k` the bucket `at.and + rank[k]`, so that Eval reads the
/// buckets, and Build's solderings, front to back.
pub fn and_ranks(c: &Circuit) -> Vec<u32> {
    let depth = c.and_depths();
    let layers = depth.iter().copied().max().unwrap_or(0) as usize + 1;
    let mut start = vec![0u32; layers + 1];
    for g in &c.gates {
        if let Gate::And { out, .. } = *g {
            start[depth[out as usize] as usize] += 1;
        }
    }
    let mut acc = 0;
    for s in start.iter_mut() {
        let n = *s;
        *s = acc;
        acc += n;
    }
    let mut rank = Vec::with_capacity(acc as usize);
    for g in &c.gates {
        if let Gate::And { out, .. } = *g {
            let d = depth[out as usize] as usize;
            rank.push(start[d]);
            start[d] += 1;
        }
    }
    rank
}

/// f split into AND-depth layers: layer `d` holds the free gates whose
/// output has AND-depth `d` (circuit order), then the ANDs of depth `d + 1`.
#[derive(Clone, Debug)]
pub struct EvalPlan {
    num_wires: usize,
    in_wires: Vec<u32>,
    out_wires: Vec<u32>,
    lin: Vec<Lin>,
    ands: Vec<PlanAnd>,
    /// Per layer: end of its free gates in `lin`, end of its ANDs in `ands`.
    layers: Vec<(usize, usize)>,
    /// Circuit gate index → position in `lin` (`u32::MAX` for ANDs).
    lin_pos: Vec<u32>,
}

impl EvalPlan {
    /// The plan of `c`.
    pub fn new(c: &Circuit) -> Self {
        let depth = c.and_depths();
        let layers_n = depth.iter().copied().max().unwrap_or(0) as usize + 1;
        let mut lin_by: Vec<Vec<(usize, Lin)>> = vec![Vec::new(); layers_n];
        let mut and_by: Vec<Vec<PlanAnd>> = vec![Vec::new(); layers_n];
        let mut k = 0u32;
        for (gi, g) in c.gates.iter().enumerate() {
            let d = depth[g.output() as usize] as usize;
            match *g {
                Gate::Xor { a, b, out } => lin_by[d].push((gi, Lin::Xor(a, b, out))),
                Gate::Inv { a, out } => lin_by[d].push((gi, Lin::Inv(a, out))),
                Gate::And { a, b, out } => {
                    and_by[d - 1].push(PlanAnd { a, b, out, k });
                    k += 1;
                }
            }
        }
        let mut plan = EvalPlan {
            num_wires: c.num_wires as usize,
            in_wires: c.inputs.iter().flat_map(|g| g.wires.clone()).collect(),
            out_wires: c.outputs.iter().flat_map(|g| g.wires.clone()).collect(),
            lin: Vec::new(),
            ands: Vec::with_capacity(k as usize),
            layers: Vec::with_capacity(layers_n),
            lin_pos: vec![u32::MAX; c.gates.len()],
        };
        for (l, a) in lin_by.into_iter().zip(and_by) {
            for (gi, g) in l {
                plan.lin_pos[gi] = plan.lin.len() as u32;
                plan.lin.push(g);
            }
            plan.ands.extend(a);
            plan.layers.push((plan.lin.len(), plan.ands.len()));
        }
        plan
    }

    /// The plan positions of layer `l`'s ANDs.
    fn layer_ands(&self, l: usize) -> Range<usize> {
        let start = l.checked_sub(1).map_or(0, |p| self.layers[p].1);
        start..self.layers[l].1
    }

    /// AND gates of f.
    pub fn and_count(&self) -> usize {
        self.ands.len()
    }

    /// The output wires, all groups in order.
    pub fn out_wires(&self) -> &[u32] {
        &self.out_wires
    }
}

fn grow<T: Default + Clone>(v: &mut Vec<T>, n: usize) {
    if v.len() < n {
        v.resize(n, T::default());
    }
}

/// What evaluating the garbled copy gave.
pub enum Evaluated {
    /// The keys of the output wires.
    Keys(Vec<Block>),
    /// A bucket yielded two valid keys: Δ.
    Delta(Block),
}

/// Buffers of one evaluating thread.
#[derive(Default)]
struct Scratch {
    x: Vec<Block>,
    h: Vec<Block>,
    u: Vec<Block>,
    ids: Vec<u64>,
    /// Output keys of the ANDs this thread evaluated in the current layer.
    outs: Vec<Block>,
}

/// What every evaluating thread reads.
struct Ctx<'a> {
    ands: &'a [PlanAnd],
    /// Per layer: end of its ANDs in `ands`.
    layer_ends: &'a [(usize, usize)],
    solder: &'a [[Block; 2]],
    /// This copy's AND buckets' gates (bucket `i` at `i·β..`).
    gates: &'a [GateB],
    /// This copy's AND buckets' authenticators (bucket `i` at `i·α..`).
    auths: &'a [AuthB],
    beta: usize,
    alpha: usize,
    checked: &'a [(Block, [Block; 2], u64)],
}

impl Ctx<'_> {
    /// The plan positions of layer `l`'s ANDs.
    fn layer_range(&self, l: usize) -> Range<usize> {
        let start = l.checked_sub(1).map_or(0, |p| self.layer_ends[p].1);
        start..self.layer_ends[l].1
    }

    /// Evaluates the AND buckets of plan positions `range` on `keys`:
    /// their output keys into `s.outs` (in order), or `Err(Δ)` when one
    /// yields two valid keys.
    fn ands(
        &self,
        keys: &[Block],
        range: Range<usize>,
        s: &mut Scratch,
    ) -> std::result::Result<(), Block> {
        let beta = self.beta;
        let per_chunk = (CHUNK_GATES / beta).max(1);
        s.outs.clear();
        let mut first = range.start;
        while first < range.end {
            let last = (first + per_chunk).min(range.end);
            let n = (last - first) * beta;
            let bucket_gates = &self.gates[first * beta..last * beta];
            grow(&mut s.x, 2 * n);
            grow(&mut s.h, 2 * n);
            grow(&mut s.u, 2 * n);
            grow(&mut s.ids, n);
            let (x, h) = (&mut s.x[..2 * n], &mut s.h[..2 * n]);
            let (u, ids) = (&mut s.u[..2 * n], &mut s.ids[..n]);
            // Gather: the head's keys through Build's and the bucket's solderings.
            for (((pa, sd), bg), (xc, ic)) in self.ands[first..last]
                .iter()
                .zip(&self.solder[first..last])
                .zip(bucket_gates.chunks_exact(beta))
                .zip(x.chunks_exact_mut(2 * beta).zip(ids.chunks_exact_mut(beta)))
            {
                let (l, r) = (keys[pa.a as usize] ^ sd[0], keys[pa.b as usize] ^ sd[1]);
                for ((g, xp), id) in bg.iter().zip(xc.chunks_exact_mut(2)).zip(ic) {
                    xp[0] = l ^ g.s[0];
                    xp[1] = r ^ g.s[1];
                    *id = g.id;
                }
            }
            hash_gate_inputs(x, ids, h, u);
            // Finish every gate, then the bucket rule.
            for (bi, (bg, (xc, hc))) in bucket_gates
                .chunks_exact(beta)
                .zip(x.chunks_exact(2 * beta).zip(h.chunks_exact(2 * beta)))
                .enumerate()
            {
                let out = |(g, (xp, hp)): (&GateB, (&[Block], &[Block]))| {
                    gate_output(xp[0], xp[1], hp[0], hp[1], &g.table) ^ g.s[2]
                };
                let mut outs = bg
                    .iter()
                    .zip(xc.chunks_exact(2).zip(hc.chunks_exact(2)))
                    .map(out);
                let key = outs.next().unwrap_or(Block::ZERO);
                let key = if outs.all(|c| c == key) {
                    key
                } else {
                    let all: Vec<Block> = bg
                        .iter()
                        .zip(xc.chunks_exact(2).zip(hc.chunks_exact(2)))
                        .map(out)
                        .collect();
                    let i = first + bi;
                    let auths = &self.auths[i * self.alpha..(i + 1) * self.alpha];
                    match decide(&all, auths, self.checked) {
                        BucketOut::Key(k) => k,
                        BucketOut::Delta(d) => return Err(d),
                    }
                };
                s.outs.push(key);
            }
            first = last;
        }
        Ok(())
    }
}

/// A layer is shared with the helper thread only if it has this many
/// garbled gates (smaller ones cost more to hand over than they save).
pub const PARALLEL_MIN_GATES: usize = 256;

/// Garbled gates per unit of work that the two threads claim.
const SHARE_GATES: usize = 128;

/// Work sharing between Bob's thread and the helper. Units of a layer are
/// claimed from `next` = `layer << 32 | unit`, so a helper that wakes late
/// cannot claim units of a newer layer; Bob's thread claims too, so a
/// helper that is not scheduled only costs the time of its current unit.
#[derive(Default)]
struct Share {
    /// Latest published layer + 1 (`usize::MAX` = stop).
    job: AtomicUsize,
    next: AtomicUsize,
    /// Units the helper finished in the current layer.
    helper_done: AtomicUsize,
}

impl Share {
    fn wait(flag: &AtomicUsize, until: impl Fn(usize) -> bool) -> usize {
        let mut spins = 0u32;
        loop {
            let v = flag.load(Ordering::Acquire);
            if until(v) {
                return v;
            }
            // Spin: a hand-over takes microseconds, a yield may cost a tick.
            spins = spins.saturating_add(1);
            if spins > 1 << 14 {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
    }

    /// The helper's wait for a new job: spin for a while (the next layer
    /// is usually microseconds away), then sleep in short naps (between
    /// executions, or while the online flight is on a slow network).
    fn wait_job(&self, seen: usize) -> usize {
        let mut spins = 0u32;
        loop {
            let v = self.job.load(Ordering::Acquire);
            if v != seen {
                return v;
            }
            spins = spins.saturating_add(1);
            if spins < 1 << 15 {
                std::hint::spin_loop();
            } else {
                std::thread::park_timeout(std::time::Duration::from_micros(100));
            }
        }
    }

    /// Claims the next unit of `layer` below `units`.
    fn claim(&self, layer: usize, units: usize) -> Option<usize> {
        let mut v = self.next.load(Ordering::Acquire);
        loop {
            let (l, u) = (v >> 32, v & 0xffff_ffff);
            if l != layer || u >= units {
                return None;
            }
            match self
                .next
                .compare_exchange_weak(v, v + 1, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return Some(u),
                Err(now) => v = now,
            }
        }
    }
}

/// Stops the helper however the evaluation ends (also on an early return).
struct StopOnDrop<'a>(&'a Share, Option<std::thread::Thread>);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.job.store(usize::MAX, Ordering::Release);
        if let Some(t) = &self.1 {
            t.unpark();
        }
    }
}

/// The helper's results of the current layer: output keys by position in
/// the layer, and a Δ if one of its buckets yielded two keys.
#[derive(Default)]
struct HelperOut {
    outs: Vec<Block>,
    delta: Option<Block>,
}

/// Bob's evaluator: the plan of f and buffers reused across executions.
pub struct Evaluator {
    plan: EvalPlan,
    keys: RwLock<Vec<Block>>,
    main: Scratch,
    helper: Scratch,
    helper_out: Mutex<HelperOut>,
    /// Per unit of the current layer: done by Bob's thread.
    mine: Vec<bool>,
    layer_outs: Vec<Block>,
    threads: usize,
    parallel_min: usize,
    tables: Vec<[Block; 2]>,
    accepted: Vec<bool>,
}

impl Evaluator {
    /// An evaluator for `c`, its buffers allocated now (not in the online
    /// phase); it uses a second thread if the machine has two cores.
    pub fn new(c: &Circuit) -> Self {
        let plan = EvalPlan::new(c);
        let keys = RwLock::new(vec![Block::ZERO; plan.num_wires]);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(2));
        Evaluator {
            plan,
            keys,
            main: Scratch::default(),
            helper: Scratch::default(),
            helper_out: Mutex::new(HelperOut::default()),
            mine: Vec::new(),
            layer_outs: Vec::new(),
            threads,
            parallel_min: PARALLEL_MIN_GATES,
            tables: Vec::new(),
            accepted: Vec::new(),
        }
    }

    /// Uses one thread, or two for layers of at least `min_gates` garbled
    /// gates (tests force the split on small circuits with this).
    pub fn with_threads(mut self, threads: usize, min_gates: usize) -> Self {
        self.threads = threads.clamp(1, 2);
        self.parallel_min = min_gates.max(1);
        self
    }

    /// The plan.
    pub fn plan(&self) -> &EvalPlan {
        &self.plan
    }

    /// Runs `f` with a [`Session`] for evaluating `built`. With two cores a
    /// helper thread starts first, so that it is running (spinning) by the
    /// time `f`, after the online flight, reaches [`Session::evaluate`].
    pub fn session<R>(
        &mut self,
        built: &BuiltBob,
        mat: &BobMaterial,
        f: impl FnOnce(&mut Session<'_, '_>) -> Result<R>,
    ) -> Result<R> {
        let plan = &self.plan;
        let at = built.built.at.and;
        let (beta, alpha) = (mat.and_gates.width, mat.and_auths.width);
        let n_and = plan.ands.len();
        if beta == 0
            || !mat.well_formed()
            || built.solder.len() != n_and
            || at + n_and > mat.and_gates.len()
        {
            return Err(Error::config(
                "lego: built copy does not match the circuit or the material",
            ));
        }
        let ctx = Ctx {
            ands: &plan.ands,
            layer_ends: &plan.layers,
            solder: &built.solder,
            gates: &mat.and_gates.items[at * beta..(at + n_and) * beta],
            auths: &mat.and_auths.items[at * alpha..(at + n_and) * alpha],
            beta,
            alpha,
            checked: &mat.checked_auths,
        };
        let per_unit = (SHARE_GATES / beta).max(1);
        let parallel = self.threads > 1
            && (0..plan.layers.len()).any(|l| plan.layer_ands(l).len() * beta >= self.parallel_min);
        let share = Share::default();
        let keys = &self.keys;
        let helper_out = &self.helper_out;
        std::thread::scope(|sc| {
            let mut stop = StopOnDrop(&share, None);
            let helper = if parallel {
                let (ctx, share, scratch) = (&ctx, &share, &mut self.helper);
                let h =
                    sc.spawn(move || helper_loop(ctx, share, keys, scratch, helper_out, per_unit));
                stop.1 = Some(h.thread().clone());
                Some(h)
            } else {
                None
            };
            let mut sess = Session {
                ctx: &ctx,
                plan,
                built,
                mat,
                share: &share,
                helper: helper.as_ref().map(|h| h.thread().clone()),
                keys,
                helper_out,
                main: &mut self.main,
                mine: &mut self.mine,
                layer_outs: &mut self.layer_outs,
                tables: &mut self.tables,
                accepted: &mut self.accepted,
                min: self.parallel_min,
                per_unit,
            };
            f(&mut sess)
        })
    }
}

/// The helper thread: claims units of every published layer until stopped.
/// It spins while a job may come soon and parks after a while (Bob's
/// thread unparks it when it publishes a layer).
fn helper_loop(
    ctx: &Ctx<'_>,
    share: &Share,
    keys_lock: &RwLock<Vec<Block>>,
    scratch: &mut Scratch,
    helper_out: &Mutex<HelperOut>,
    per_unit: usize,
) {
    let mut seen = 0;
    loop {
        let job = share.wait_job(seen);
        if job == usize::MAX {
            return;
        }
        seen = job;
        let layer = job - 1;
        let r = ctx.layer_range(layer);
        let units = r.len().div_ceil(per_unit);
        let keys = read(keys_lock);
        while let Some(u) = share.claim(layer, units) {
            let lo = r.start + u * per_unit;
            let hi = (lo + per_unit).min(r.end);
            let res = ctx.ands(&keys, lo..hi, scratch);
            let mut out = lock(helper_out);
            match res {
                Ok(()) => {
                    let o = lo - r.start;
                    out.outs[o..o + (hi - lo)].copy_from_slice(&scratch.outs);
                }
                Err(d) => out.delta = Some(d),
            }
            drop(out);
            share.helper_done.fetch_add(1, Ordering::AcqRel);
        }
    }
}

/// One evaluation of a built copy (see [`Evaluator::session`]).
pub struct Session<'s, 'c> {
    ctx: &'s Ctx<'c>,
    plan: &'c EvalPlan,
    built: &'c BuiltBob,
    mat: &'c BobMaterial,
    share: &'s Share,
    helper: Option<std::thread::Thread>,
    keys: &'c RwLock<Vec<Block>>,
    helper_out: &'c Mutex<HelperOut>,
    main: &'s mut Scratch,
    mine: &'s mut Vec<bool>,
    layer_outs: &'s mut Vec<Block>,
    tables: &'s mut Vec<[Block; 2]>,
    accepted: &'s mut Vec<bool>,
    min: usize,
    per_unit: usize,
}

impl Session<'_, '_> {
    /// Eval step 4, second half: every non-linked input key (already in
    /// `in_keys`) must be accepted by a strict majority of its input
    /// authenticators; all of them are hashed in one batch.
    pub fn check_input_keys(&mut self, in_keys: &[Block]) -> Result<()> {
        let (built, mat) = (self.built, self.mat);
        let at = built.built.at.input;
        let width = mat.input_auth.width;
        let s = &mut *self.main;
        s.x.clear();
        s.ids.clear();
        self.tables.clear();
        for (p, &k) in in_keys.iter().enumerate() {
            if built.built.linked.get(p).copied().unwrap_or(false) {
                continue;
            }
            let (Some(auths), Some(&sd)) = (mat.input_auth.get(at + p), built.auth_solder.get(p))
            else {
                return Err(Error::config("lego: input authenticators missing"));
            };
            for a in auths {
                s.x.push(k ^ sd ^ a.s);
                self.tables.push(a.table);
                s.ids.push(a.id);
            }
        }
        auths_accept(&s.x, self.tables, &s.ids, &mut s.h, self.accepted);
        if width > 0 && !self.accepted.chunks(width).all(input_key_accepted) {
            return Err(Error::Cheating {
                check: "input-authenticator",
            });
        }
        Ok(())
    }

    /// Eval step 5: evaluates the built copy on the input keys (input wires
    /// in order), a layer at a time.
    pub fn evaluate(&mut self, in_keys: &[Block]) -> Result<Evaluated> {
        let (plan, ctx, share) = (self.plan, self.ctx, self.share);
        if in_keys.len() != plan.in_wires.len() {
            return Err(Error::config("lego: wrong number of input keys"));
        }
        // Re-based wires (Build): XOR S into the output of free gate gi.
        let mut refresh = self
            .built
            .refresh
            .iter()
            .map(|&(gi, s)| match plan.lin_pos.get(gi) {
                Some(&p) if p != u32::MAX => Ok((p as usize, s)),
                _ => Err(Error::config("lego: re-basing of a gate that is not free")),
            })
            .collect::<Result<Vec<_>>>()?;
        refresh.sort_unstable_by_key(|r| r.0);
        let mut refresh = refresh.into_iter().peekable();
        {
            let mut keys = write(self.keys);
            for (&w, &k) in plan.in_wires.iter().zip(in_keys) {
                keys[w as usize] = k;
            }
        }
        let (beta, per_unit) = (ctx.beta, self.per_unit);
        let mut lin_at = 0;
        for (layer, &(lin_end, _)) in plan.layers.iter().enumerate() {
            let mut keys = write(self.keys);
            for (pos, g) in plan.lin[lin_at..lin_end].iter().enumerate() {
                let (v, out) = match *g {
                    Lin::Xor(a, b, out) => (keys[a as usize] ^ keys[b as usize], out),
                    Lin::Inv(a, out) => (keys[a as usize], out),
                };
                let v = match refresh.peek() {
                    Some(&(p, s)) if p == lin_at + pos => {
                        refresh.next();
                        v ^ s
                    }
                    _ => v,
                };
                keys[out as usize] = v;
            }
            drop(keys);
            lin_at = lin_end;
            let r = ctx.layer_range(layer);
            let n = r.len();
            let Some(helper) = self.helper.as_ref().filter(|_| n * beta >= self.min) else {
                let res = ctx.ands(&read(self.keys), r.clone(), self.main);
                let mut keys = write(self.keys);
                if let Err(d) = res {
                    return Ok(Evaluated::Delta(d));
                }
                for (pa, &k) in plan.ands[r].iter().zip(&self.main.outs) {
                    keys[pa.out as usize] = k;
                }
                continue;
            };
            // Shared layer: publish it, then claim units alongside the helper.
            let units = n.div_ceil(per_unit);
            grow(&mut lock(self.helper_out).outs, n);
            grow(self.layer_outs, n);
            self.mine.clear();
            self.mine.resize(units, false);
            share.helper_done.store(0, Ordering::Release);
            share.next.store(layer << 32, Ordering::Release);
            share.job.store(layer + 1, Ordering::Release);
            helper.unpark();
            let mut delta = None;
            let mut own = 0;
            {
                let keys = read(self.keys);
                while let Some(u) = share.claim(layer, units) {
                    let lo = r.start + u * per_unit;
                    let hi = (lo + per_unit).min(r.end);
                    match ctx.ands(&keys, lo..hi, self.main) {
                        Ok(()) => self.layer_outs[lo - r.start..hi - r.start]
                            .copy_from_slice(&self.main.outs),
                        Err(d) => delta = Some(d),
                    }
                    self.mine[u] = true;
                    own += 1;
                }
            }
            Share::wait(&share.helper_done, |d| d == units - own);
            let out = lock(self.helper_out);
            if let Some(d) = delta.or(out.delta) {
                return Ok(Evaluated::Delta(d));
            }
            let mut keys = write(self.keys);
            for (i, pa) in plan.ands[r].iter().enumerate() {
                keys[pa.out as usize] = if self.mine[i / per_unit] {
                    self.layer_outs[i]
                } else {
                    out.outs[i]
                };
            }
        }
        let keys = read(self.keys);
        Ok(Evaluated::Keys(
            plan.out_wires.iter().map(|&w| keys[w as usize]).collect(),
        ))
    }
}

// A poisoned lock means the other thread panicked: its data is plain
// blocks, so carry on with it (the panic itself propagates from the scope).
fn read<T>(l: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    l.read().unwrap_or_else(|e| e.into_inner())
}

fn write<T>(l: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    l.write().unwrap_or_else(|e| e.into_inner())
}

fn lock<T>(l: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    l.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_the_plans_layer_order() {
        let c = brickyard_circuit::builtin("aes128").unwrap();
        let plan = EvalPlan::new(&c);
        let rank = and_ranks(&c);
        assert_eq!(rank.len(), plan.and_count());
        for (i, pa) in plan.ands.iter().enumerate() {
            assert_eq!(rank[pa.k as usize] as usize, i);
        }
        // Layers are non-decreasing in depth along the order.
        let depth = c.and_depths();
        let d: Vec<u32> = plan.ands.iter().map(|pa| depth[pa.out as usize]).collect();
        assert!(d.windows(2).all(|w| w[0] <= w[1]));
    }
}
