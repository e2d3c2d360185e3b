//! Bob's online evaluation (Eval steps 4–5), a layer at a time.
//!
//! The circuit is split once into AND-depth layers ([`EvalPlan`], built in
//! the dependent phase). Per layer Bob first runs the free gates, then, in
//! chunks of [`CHUNK_GATES`] garbled gates, translates each bucket head's
//! keys by Build's solderings and hands the chunk's gates to the fused
//! kernel `brickyard_core::aes::soldered` (each gate's bucket soldering,
//! both hashes, the half-gates equation and its output soldering in
//! registers, one pass over the gate records), and applies the bucket rule
//! ([`super::bucket`]) to the outputs: all β agree → that key; otherwise
//! the slow path decides (Δ recovery or the scoring rule). Input
//! authenticators are hashed in one batch for all inputs.

use super::bucket::{decide, input_key_accepted, BucketOut};
use super::build::BuiltBob;
use super::component::auth_tweak;
use super::material::{AuthB, BobMaterial, GateB};
use brickyard_circuit::{Circuit, Gate};
use brickyard_core::aes::soldered::eval_soldered;
use brickyard_core::hash::tccr_batch;
use brickyard_core::{Block, Error, Result};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock, RwLockWriteGuard};

/// Garbled gates per kernel call: their outputs (16 B each) stay in L1
/// for the bucket rule that follows.
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
    /// Key slots (wires are renamed to slots by `assign_slots`; every
    /// wire number below is a slot).
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
        plan.assign_slots();
        plan
    }

    /// Renames wires to slots of a small key vector, reusing a slot once
    /// the last reader of its wire has run (in evaluation order: each free
    /// gate is a step, each layer's ANDs one step that reads all its
    /// inputs before writing any output, as [`Session::evaluate`] does).
    /// The keys Bob touches then stay in L1/L2 instead of spanning one
    /// block per wire of f (AES-128: 36 k wires, 580 KB, which every copy's
    /// megabytes of gate records evict).
    fn assign_slots(&mut self) {
        let mut sa = SlotAlloc::new(self.num_wires, &self.out_wires);
        // Pass 1: the step of each wire's last read.
        let mut step = 0u32;
        let mut lin_at = 0;
        for l in 0..self.layers.len() {
            let (lin_end, _) = self.layers[l];
            for g in &self.lin[lin_at..lin_end] {
                match *g {
                    Lin::Xor(a, b, _) => {
                        sa.read(a, step);
                        sa.read(b, step);
                    }
                    Lin::Inv(a, _) => sa.read(a, step),
                }
                step += 1;
            }
            lin_at = lin_end;
            for pa in &self.ands[self.layer_ands(l)] {
                sa.read(pa.a, step);
                sa.read(pa.b, step);
            }
            step += 1;
        }
        // Pass 2: rename, freeing slots after their last read.
        for w in &mut self.in_wires {
            *w = sa.define(*w);
        }
        let mut step = 0u32;
        let mut lin_at = 0;
        for l in 0..self.layers.len() {
            let (lin_end, _) = self.layers[l];
            for g in &mut self.lin[lin_at..lin_end] {
                let (a, b, out) = match *g {
                    Lin::Xor(a, b, out) => (a, Some(b), out),
                    Lin::Inv(a, out) => (a, None, out),
                };
                let ra = sa.get(a);
                let rb = b.map(|b| sa.get(b));
                sa.done(a, step);
                if let Some(b) = b {
                    sa.done(b, step);
                }
                let ro = sa.define(out);
                sa.drop_dead(out);
                *g = match rb {
                    Some(rb) => Lin::Xor(ra, rb, ro),
                    None => Lin::Inv(ra, ro),
                };
                step += 1;
            }
            lin_at = lin_end;
            let r = self.layer_ands(l);
            let layer = &mut self.ands[r];
            let wires: Vec<(u32, u32, u32)> = layer.iter().map(|p| (p.a, p.b, p.out)).collect();
            for pa in layer.iter_mut() {
                pa.a = sa.get(pa.a);
                pa.b = sa.get(pa.b);
            }
            for &(a, b, _) in &wires {
                sa.done(a, step);
                sa.done(b, step);
            }
            for (pa, &(_, _, out)) in layer.iter_mut().zip(&wires) {
                pa.out = sa.define(out);
            }
            for &(_, _, out) in &wires {
                sa.drop_dead(out);
            }
            step += 1;
        }
        for w in &mut self.out_wires {
            *w = sa.get(*w);
        }
        self.num_wires = sa.next as usize;
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

    /// Size of the key vector (slots, see `assign_slots`).
    pub fn slots(&self) -> usize {
        self.num_wires
    }
}

/// Slot allocation of [`EvalPlan::assign_slots`].
struct SlotAlloc {
    /// Wire → slot (`u32::MAX`: none yet).
    of: Vec<u32>,
    /// Wire → step of its last read, or one of the markers below.
    last: Vec<u32>,
    free: Vec<u32>,
    next: u32,
}

impl SlotAlloc {
    /// Never read (so far); read by nobody after it is defined: dead.
    const NEVER: u32 = u32::MAX - 2;
    /// Its slot was given back.
    const RELEASED: u32 = u32::MAX - 1;
    /// An output wire: kept to the end.
    const FOREVER: u32 = u32::MAX;

    fn new(wires: usize, outputs: &[u32]) -> Self {
        let mut last = vec![Self::NEVER; wires];
        for &w in outputs {
            last[w as usize] = Self::FOREVER;
        }
        SlotAlloc {
            of: vec![u32::MAX; wires],
            last,
            free: Vec::new(),
            next: 0,
        }
    }

    fn read(&mut self, w: u32, step: u32) {
        let l = &mut self.last[w as usize];
        if *l != Self::FOREVER {
            *l = step;
        }
    }

    fn define(&mut self, w: u32) -> u32 {
        let s = self.free.pop().unwrap_or_else(|| {
            self.next += 1;
            self.next - 1
        });
        self.of[w as usize] = s;
        s
    }

    /// The slot of `w` (a wire read before any gate wrote it — impossible
    /// in a topologically ordered circuit — gets a slot of its own).
    fn get(&mut self, w: u32) -> u32 {
        match self.of[w as usize] {
            u32::MAX => self.define(w),
            s => s,
        }
    }

    /// `w` was read at `step`: free its slot if that was its last read.
    fn done(&mut self, w: u32, step: u32) {
        if self.last[w as usize] == step {
            self.last[w as usize] = Self::RELEASED;
            self.free.push(self.of[w as usize]);
        }
    }

    /// Frees the slot of a wire that was just defined and is never read.
    fn drop_dead(&mut self, w: u32) {
        if self.last[w as usize] == Self::NEVER {
            self.last[w as usize] = Self::RELEASED;
            self.free.push(self.of[w as usize]);
        }
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
    /// Head keys of a chunk of buckets (through Build's solderings).
    heads: Vec<[Block; 2]>,
    /// Gate outputs of a chunk (translated to the head's output key).
    g: Vec<Block>,
    /// Input authentication: soldered keys (then their hashes), tweaks.
    x: Vec<Block>,
    h: Vec<Block>,
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
    /// yields two valid keys. Per chunk: the heads' keys through Build's
    /// solderings, then every gate in one fused kernel
    /// ([`eval_soldered`]: bucket soldering, both hashes, half-gates
    /// equation, output soldering), then the bucket rule.
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
            s.heads.clear();
            s.heads.extend(
                self.ands[first..last]
                    .iter()
                    .zip(&self.solder[first..last])
                    .map(|(pa, sd)| [keys[pa.a as usize] ^ sd[0], keys[pa.b as usize] ^ sd[1]]),
            );
            grow(&mut s.g, n);
            let g = &mut s.g[..n];
            eval_soldered(&s.heads, beta, &self.gates[first * beta..last * beta], g);
            for (bi, c) in g.chunks_exact(beta).enumerate() {
                let key = c[0];
                let key = if c[1..].iter().all(|&o| o == key) {
                    key
                } else {
                    let i = first + bi;
                    let auths = &self.auths[i * self.alpha..(i + 1) * self.alpha];
                    match decide(c, auths, self.checked) {
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
    /// Per free gate (plan position): its re-basing in the current copy's
    /// `refresh`, or `u32::MAX` (kept all-MAX between evaluations).
    refresh_slot: Vec<u32>,
}

impl Evaluator {
    /// An evaluator for `c`, its buffers allocated now (not in the online
    /// phase). It evaluates on the caller's thread only: a helper thread
    /// is started per execution (scoped to the copy it reads), and on this
    /// 2-core machine its start and join cost more than its share of the
    /// gates saves — the gates' records stream from memory or L3, which
    /// both cores share (measured A/B on 1 × AES-128 and 1 × SHA-256,
    /// docs/protocols/lego.md). [`Evaluator::with_threads`] turns it on.
    pub fn new(c: &Circuit) -> Self {
        let plan = EvalPlan::new(c);
        let refresh_slot = vec![u32::MAX; plan.lin.len()];
        let keys = RwLock::new(vec![Block::ZERO; plan.num_wires]);
        let threads = 1;
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
            refresh_slot,
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

    /// Sizes every evaluation buffer for copies of `mat`'s bucket widths,
    /// so the online phase allocates nothing (called at the end of Build).
    pub fn prepare(&mut self, mat: &BobMaterial) {
        self.size(mat.and_gates.width.max(1), mat.input_auth.width);
    }

    fn size(&mut self, beta: usize, auth_width: usize) {
        let plan = &self.plan;
        let per_unit = (SHARE_GATES / beta).max(1);
        let per_chunk = (CHUNK_GATES / beta).max(1);
        let widest = (0..plan.layers.len())
            .map(|l| plan.layer_ands(l).len())
            .max()
            .unwrap_or(0);
        let auths = plan.in_wires.len() * auth_width;
        for sc in [&mut self.main, &mut self.helper] {
            sc.heads.reserve(per_chunk);
            grow(&mut sc.g, per_chunk * beta);
            sc.outs.reserve(widest.min(per_chunk.max(per_unit)));
        }
        self.main.outs.reserve(widest);
        self.main.x.reserve(auths);
        self.main.h.reserve(auths);
        grow(&mut self.layer_outs, widest);
        grow(&mut lock(&self.helper_out).outs, widest);
        self.mine.reserve(widest.div_ceil(per_unit));
    }

    /// Runs `f` with a [`Session`] for evaluating `built`. With two threads
    /// ([`Evaluator::with_threads`]) a helper thread starts first, so that it is running (spinning) by the
    /// time `f`, after the online flight, reaches [`Session::evaluate`].
    pub fn session<R>(
        &mut self,
        built: &BuiltBob,
        mat: &BobMaterial,
        f: impl FnOnce(&mut Session<'_, '_>) -> Result<R>,
    ) -> Result<R> {
        // Sized by `prepare` in the dependent phase already; then this
        // allocates nothing.
        self.size(mat.and_gates.width.max(1), mat.input_auth.width);
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
                refresh_slot: &mut self.refresh_slot,
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
    refresh_slot: &'s mut [u32],
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
        let fresh = |p: usize| !built.built.linked.get(p).copied().unwrap_or(false);
        let group = |p: usize| match (mat.input_auth.get(at + p), built.auth_solder.get(p)) {
            (Some(auths), Some(&sd)) => Ok((auths, sd)),
            _ => Err(Error::config("lego: input authenticators missing")),
        };
        // One batch: every authenticator's key and tweak, then the hashes.
        s.x.clear();
        s.h.clear();
        for (p, &k) in in_keys.iter().enumerate().filter(|&(p, _)| fresh(p)) {
            let (auths, sd) = group(p)?;
            for a in auths {
                s.x.push(k ^ sd ^ a.s);
                s.h.push(auth_tweak(a.id));
            }
        }
        tccr_batch(&mut s.x, &s.h);
        let mut hashes = s.x.iter();
        for (p, &k) in in_keys.iter().enumerate().filter(|&(p, _)| fresh(p)) {
            let (auths, sd) = group(p)?;
            let mut ok = 0;
            for (a, h) in auths.iter().zip(hashes.by_ref()) {
                let key = k ^ sd ^ a.s;
                ok += usize::from(*h == a.table[key.lsb() as usize]);
            }
            if width > 0 && !input_key_accepted(ok, width) {
                return Err(Error::Cheating {
                    check: "input-authenticator",
                });
            }
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
        // `slot[pos]` names the re-basing of free gate `pos` (no sorting,
        // no allocation); the guard clears the slots however we leave.
        let refresh = &self.built.refresh;
        let slots = Slots(&mut *self.refresh_slot, plan, refresh);
        for (j, &(gi, _)) in refresh.iter().enumerate() {
            match plan.lin_pos.get(gi) {
                Some(&p) if p != u32::MAX => slots.0[p as usize] = j as u32,
                _ => return Err(Error::config("lego: re-basing of a gate that is not free")),
            }
        }
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
                let r = slots.0[lin_at + pos];
                keys[out as usize] = if r == u32::MAX {
                    v
                } else {
                    v ^ refresh[r as usize].1
                };
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

/// Clears the re-basing slots of [`Session::evaluate`] on every exit.
struct Slots<'a>(&'a mut [u32], &'a EvalPlan, &'a [(usize, Block)]);

impl Drop for Slots<'_> {
    fn drop(&mut self) {
        for &(gi, _) in self.2 {
            if let Some(&p) = self.1.lin_pos.get(gi) {
                if let Some(x) = self.0.get_mut(p as usize) {
                    *x = u32::MAX;
                }
            }
        }
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
        let and_out: Vec<u32> = c
            .gates
            .iter()
            .filter_map(|g| match *g {
                Gate::And { out, .. } => Some(out),
                _ => None,
            })
            .collect();
        let d: Vec<u32> = plan
            .ands
            .iter()
            .map(|pa| depth[and_out[pa.k as usize] as usize])
            .collect();
        assert!(d.windows(2).all(|w| w[0] <= w[1]));
    }

    /// Runs the plan on bits exactly as `Session::evaluate` orders its
    /// reads and writes (a layer's ANDs read everything, then write).
    fn run_plan(plan: &EvalPlan, inputs: &[bool]) -> Vec<bool> {
        let mut v = vec![false; plan.slots()];
        for (&w, &x) in plan.in_wires.iter().zip(inputs) {
            v[w as usize] = x;
        }
        let mut lin_at = 0;
        for (l, &(lin_end, _)) in plan.layers.iter().enumerate() {
            for g in &plan.lin[lin_at..lin_end] {
                match *g {
                    Lin::Xor(a, b, o) => v[o as usize] = v[a as usize] ^ v[b as usize],
                    Lin::Inv(a, o) => v[o as usize] = !v[a as usize],
                }
            }
            lin_at = lin_end;
            let ands = &plan.ands[plan.layer_ands(l)];
            let outs: Vec<bool> = ands
                .iter()
                .map(|pa| v[pa.a as usize] & v[pa.b as usize])
                .collect();
            for (pa, o) in ands.iter().zip(outs) {
                v[pa.out as usize] = o;
            }
        }
        plan.out_wires.iter().map(|&w| v[w as usize]).collect()
    }

    #[test]
    fn slots_compute_f_with_far_fewer_keys() {
        let mut prg = brickyard_core::prg::Prg::from_seed(Block(3));
        for name in ["aes128", "sha256"] {
            let c = brickyard_circuit::builtin(name).unwrap();
            let plan = EvalPlan::new(&c);
            assert!(
                plan.slots() * 8 < c.num_wires as usize,
                "{name}: {} slots",
                plan.slots()
            );
            for _ in 0..3 {
                let groups: Vec<Vec<bool>> = c
                    .inputs
                    .iter()
                    .map(|g| (0..g.width()).map(|_| prg.random_block().lsb()).collect())
                    .collect();
                let want: Vec<bool> = c.eval(&groups).unwrap().into_iter().flatten().collect();
                let flat: Vec<bool> = groups.into_iter().flatten().collect();
                assert_eq!(run_plan(&plan, &flat), want, "{name}");
            }
        }
    }
}
