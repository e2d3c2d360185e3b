//! Slot-indexed half-gates kernels: the hot loops of garbling and evaluation.
//!
//! A compiled circuit (`brickyard_garble::GarblePlan`) is, per label layout,
//! a [`SlotProgram`]: XOR gates `w[out] = w[a] ⊕ w[b]` and AND gates over
//! slots of one label vector `w`. Every index is checked against the
//! program's bound once, when the program is built, so the loops here index
//! without bounds checks and without copying labels into staging buffers:
//! the AND kernels gather their inputs straight from `w` into vector
//! registers, run both AES passes of the hash there, and scatter the output
//! labels back.
//!
//! The equations are those of `docs/protocols/garbling.md` (ZRE15
//! half-gates, hash `H(x, i) = π(π(x) ⊕ i) ⊕ π(x)` of Guo–Katz–Wang–Yu):
//!
//! ```text
//! garbler:   A₀ = w[a] ⊕ f_a·Δ, B₀ = w[b] ⊕ f_b·Δ   (f: the INV polarity of the slot, see below)
//!            T_G = H(A₀,t) ⊕ H(A₀⊕Δ,t) ⊕ p_b·Δ      W_G = H(A₀,t) ⊕ p_a·T_G
//!            T_E = H(B₀,t') ⊕ H(B₀⊕Δ,t') ⊕ A₀        W_E = H(B₀,t') ⊕ p_b·(T_E ⊕ A₀)
//!            w[out] = W_G ⊕ W_E,  tables ← [T_G, T_E]
//! evaluator: w[out] = H(A,t) ⊕ s_a·T_G ⊕ H(B,t') ⊕ s_b·(T_E ⊕ A)
//! ```
//!
//! with `t = offset·2⁶⁴ + 2j`, `t' = t ⊕ 1` for global AND index `j`.
//!
//! **Folds.** A program may name a second slot per AND input
//! ([`SlotProgram::with_folds`]); the input is then `w[a] ⊕ w[fold]`,
//! XORed in the register while gathering, so an XOR value read only by
//! AND gates needs no XOR gate, store or reload.
//!
//! **Polarity.** INV gates cost nothing: the plan lets `¬a` share `a`'s
//! slot and records, per slot read by an AND, whether the garbler's slot
//! holds the wire's 0-label or its 1-label (`f = 1`). The evaluator's labels
//! are the same either way, so only the garbler's AND kernel looks at `f`.
//!
//! Backends: VAES-512 (8 garbler / 16 evaluator gates per step, all AES
//! states in ZMM registers) when the CPU has it, else a portable twin built
//! on [`fixed_key`]'s batch encryption; tests check they agree.

use super::fixed_key;
pub use super::slot_xors::SlotXors;
use crate::{Block, Error, Result};
use std::ops::Range;

/// One AND gate over slots: `out ← a ∧ b`. `flip` bit 0 (bit 1) says the
/// garbler's slot `a` (`b`) holds the wire's 1-label instead of its 0-label.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct AndSlots {
    /// First input slot.
    pub a: u32,
    /// Second input slot.
    pub b: u32,
    /// Output slot.
    pub out: u32,
    /// Polarity of the inputs (bit 0: `a`, bit 1: `b`).
    pub flip: u32,
}

/// [`AndSlots`] with the slots as byte offsets (`16 · slot`) into the
/// label vector: the kernels' own copy of the AND gates, made once in
/// [`SlotProgram::new`] after the bounds check, so that addressing a label
/// costs no shift per lane (x86 addressing scales by at most 8; the shifts
/// were ~35 of the garbler's scalar instructions per 8 ANDs, on the ports
/// VAES shares). Same 16-byte layout, so the polarity masks still come
/// from one vector load per 4 gates. `AndSlots` keeps slot indices: LEGO
/// and the plan's users read them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct AndBytes {
    a: u32,
    b: u32,
    out: u32,
    flip: u32,
}

impl AndBytes {
    fn of(g: &AndSlots) -> AndBytes {
        AndBytes {
            a: 16 * g.a,
            b: 16 * g.b,
            out: 16 * g.out,
            flip: g.flip,
        }
    }

    /// Slot of input `half` (0: `a`, 1: `b`).
    fn slot(&self, half: usize) -> usize {
        (if half == 0 { self.a } else { self.b }) as usize / 16
    }

    fn out_slot(&self) -> usize {
        self.out as usize / 16
    }
}

/// XOR gates and AND gates over the slots of one label vector, every slot
/// index checked `< bound` at construction.
///
/// A program may also carry a **π cache** ([`SlotProgram::with_pi_cache`]):
/// the inner AES call of `H(x, i) = π(π(x) ⊕ i) ⊕ π(x)` does not depend on
/// the tweak, so for a label read by several AND gates `π(label)` (the
/// garbler: `π(X)` and `π(X ⊕ Δ)` of the slot's value `X`) is computed once
/// by a *π job* into a slot of a second vector `p` and read back by every
/// gate that needs it. The hash, tweaks and tables are unchanged.
#[derive(Clone, Debug, Default)]
pub struct SlotProgram {
    bound: usize,
    xors: SlotXors,
    ands: Vec<AndSlots>,
    /// `ands` as byte offsets, what every kernel reads.
    and_bytes: Vec<AndBytes>,
    /// Cumulative ends `[XOR gates, AND gates]` of each stage (see
    /// [`SlotProgram::with_stages`]).
    stages: Vec<[u32; 2]>,
    /// Number of π slots (values, not blocks: the garbler keeps 2 blocks each).
    pi_bound: usize,
    /// `[label slot, π slot]`: fill π slot from the label slot.
    pi_jobs: Vec<[u32; 2]>,
    /// Per AND gate, the π slots of inputs `a` and `b` (used only by the
    /// `*_cached` kernels; empty without a π cache).
    and_pis: Vec<[u32; 2]>,
    /// The garbler's view of `and_pis`: block indices of `π(A₀)`,
    /// `π(A₀ ⊕ Δ)`, `π(B₀)`, `π(B₀ ⊕ Δ)` with the polarity folded in, so
    /// the kernel spends no scalar work on them.
    garbler_pis: Vec<[u32; 4]>,
    /// Per AND gate, a second slot XORed into each input while gathering
    /// (see [`SlotProgram::with_folds`]), as a byte offset (`16 · slot`:
    /// x86 addressing scales by at most 8, so this saves a shift per
    /// lane, as for the XOR gates); empty without folds.
    folds: Vec<[u32; 2]>,
    /// Per stage, whether any of its AND gates folds a slot (the other
    /// stages run the kernels without the second gather).
    fold_stages: Vec<bool>,
    /// The byte offset of the slot that folds name when they fold nothing.
    fold_zero: u32,
}

/// The evaluator's densest feed: a gate after every second AES round.
/// Its groups have half the garbler's AES work (4 ZMM states per pass, not
/// 8), so a gate after every round crowds the AES; every second round
/// measured best of the spacings tried (`garble_min` A/B under load,
/// ~5 % on AES-128; every round within noise of it, none ~5 % slower).
const EVAL_MIN_SPACING: usize = 2;

/// Blocks per AND gate table.
pub const TABLE_BLOCKS: usize = 2;

impl SlotProgram {
    /// Checks every index against `bound` (the label vector length the
    /// program will run on).
    pub fn new(bound: usize, mut xors: SlotXors, ands: Vec<AndSlots>) -> Result<Self> {
        let ok = |s: u32| (s as usize) < bound;
        xors.validate(bound)?;
        if let Some(g) = ands.iter().find(|g| !(ok(g.a) && ok(g.b) && ok(g.out))) {
            return Err(Error::config(format!(
                "AND gate {g:?} names a slot outside 0..{bound}"
            )));
        }
        // `validate` checked `bound ≤ u32::MAX / 16`, so the offsets fit.
        let and_bytes = ands.iter().map(AndBytes::of).collect();
        Ok(SlotProgram {
            bound,
            xors,
            ands,
            and_bytes,
            ..Default::default()
        })
    }

    /// Adds a π cache of `pi_bound` slots: `jobs[i] = [label slot, π slot]`
    /// and, per AND gate, `and_pis[j] = [π slot of a, π slot of b]`. Every
    /// index is checked here, as in [`SlotProgram::new`].
    pub fn with_pi_cache(
        mut self,
        pi_bound: usize,
        jobs: Vec<[u32; 2]>,
        and_pis: Vec<[u32; 2]>,
    ) -> Result<Self> {
        if and_pis.len() != self.ands.len() {
            return Err(Error::config(format!(
                "{} π slot pairs for {} AND gates",
                and_pis.len(),
                self.ands.len()
            )));
        }
        if !self.folds.is_empty() && !jobs.is_empty() {
            return Err(Error::config("a π cache with folded AND inputs"));
        }
        let p = |s: u32| (s as usize) < pi_bound;
        if let Some(j) = jobs
            .iter()
            .find(|j| !((j[0] as usize) < self.bound && p(j[1])))
        {
            return Err(Error::config(format!(
                "π job {j:?} names a slot outside 0..{} / 0..{pi_bound}",
                self.bound
            )));
        }
        if let Some(g) = and_pis.iter().find(|g| !(p(g[0]) && p(g[1]))) {
            return Err(Error::config(format!(
                "AND π slots {g:?} outside 0..{pi_bound}"
            )));
        }
        self.garbler_pis = self
            .ands
            .iter()
            .zip(&and_pis)
            .map(|(g, &[pa, pb])| {
                let (fa, fb) = (g.flip & 1, (g.flip >> 1) & 1);
                [
                    2 * pa + fa,
                    2 * pa + (1 ^ fa),
                    2 * pb + fb,
                    2 * pb + (1 ^ fb),
                ]
            })
            .collect();
        self.pi_bound = pi_bound;
        self.pi_jobs = jobs;
        self.and_pis = and_pis;
        Ok(self)
    }

    /// Cuts the program into *stages*: stage `s` runs XOR gates
    /// `ends[s-1][0]..ends[s][0]`, then AND gates `ends[s-1][1]..ends[s][1]`
    /// (from 0 for `s = 0`). [`SlotProgram::garble_stages`] runs a range of
    /// stages in one call, so the XORs feeding the next few AND gates are
    /// next to the AES work of the previous ones in the instruction stream
    /// and execute under it (VAES keeps one port busy; the XOR loop needs
    /// the load ports). Ends must not decrease and must not pass the gate
    /// counts; anything else is [`Error::Config`].
    pub fn with_stages(mut self, ends: Vec<[u32; 2]>) -> Result<Self> {
        let mut prev = [0u32; 2];
        for &e in &ends {
            if e[0] < prev[0] || e[1] < prev[1] {
                return Err(Error::config(format!("stage ends {e:?} before {prev:?}")));
            }
            prev = e;
        }
        if prev[0] as usize > self.xors.len() || prev[1] as usize > self.ands.len() {
            return Err(Error::config(format!(
                "stage ends {prev:?} past {} XOR / {} AND gates",
                self.xors.len(),
                self.ands.len()
            )));
        }
        self.stages = ends;
        self.mark_fold_stages();
        Ok(self)
    }

    /// Folds slots into the AND gates' inputs: gate `j` hashes `w[a] ⊕
    /// w[folds[j][0]]` and `w[b] ⊕ w[folds[j][1]]` instead of `w[a]` and
    /// `w[b]`. A plan uses this for an XOR value `x ⊕ y` read only by AND
    /// gates: the AND gathers `x` and `y` and XORs them in registers, so
    /// the XOR gate, its store and the reload disappear. `zero` is a slot
    /// the caller keeps zero (the XOR kernel's padding slot); a gate whose
    /// input folds nothing names it, and stages whose gates all fold
    /// nothing run the kernels without the second gather. The garbler's
    /// polarity applies to the folded value, as to `w[a]`. Every slot is
    /// checked here; folds and a π cache exclude each other (the π kernels
    /// read no folds), so either order of the two is [`Error::Config`].
    pub fn with_folds(mut self, folds: Vec<[u32; 2]>, zero: u32) -> Result<Self> {
        if !self.pi_jobs.is_empty() {
            return Err(Error::config("folded AND inputs with a π cache"));
        }
        if folds.len() != self.ands.len() {
            return Err(Error::config(format!(
                "{} fold pairs for {} AND gates",
                folds.len(),
                self.ands.len()
            )));
        }
        let ok = |s: u32| (s as usize) < self.bound;
        if !ok(zero) {
            return Err(Error::config(format!(
                "zero slot {zero} outside 0..{}",
                self.bound
            )));
        }
        if let Some(f) = folds.iter().find(|f| !(ok(f[0]) && ok(f[1]))) {
            return Err(Error::config(format!(
                "AND fold slots {f:?} outside 0..{}",
                self.bound
            )));
        }
        // `new` checked `bound ≤ u32::MAX / 16`, so the offsets fit.
        self.folds = folds.iter().map(|f| f.map(|s| 16 * s)).collect();
        self.fold_zero = 16 * zero;
        self.mark_fold_stages();
        Ok(self)
    }

    fn mark_fold_stages(&mut self) {
        let z = self.fold_zero;
        self.fold_stages = if self.folds.is_empty() {
            Vec::new()
        } else {
            (0..self.stages.len())
                .map(|s| {
                    self.folds[self.stages_ands(s..s + 1)]
                        .iter()
                        .any(|f| f[0] != z || f[1] != z)
                })
                .collect()
        };
    }

    /// The folded slots of AND gates `range` as byte offsets (`16 · slot`,
    /// see [`SlotProgram::with_folds`]); empty if the program folds nothing.
    pub fn folds(&self, range: Range<usize>) -> &[[u32; 2]] {
        if self.folds.is_empty() {
            &[]
        } else {
            &self.folds[range]
        }
    }

    /// Whether any AND gate of stages `range` folds a slot.
    fn stages_fold(&self, range: Range<usize>) -> bool {
        self.fold_stages
            .get(range)
            .is_some_and(|f| f.iter().any(|&f| f))
    }

    /// The stage ends.
    pub fn stages(&self) -> &[[u32; 2]] {
        &self.stages
    }

    /// Where stage `s` starts: `[first XOR gate, first AND gate]`.
    ///
    /// # Panics
    /// If `s` is past the number of stages.
    pub fn stage_start(&self, s: usize) -> [u32; 2] {
        assert!(s <= self.stages.len(), "stage {s} out of range");
        if s == 0 {
            [0, 0]
        } else {
            self.stages[s - 1]
        }
    }

    /// The XOR gates of stage `s`.
    pub fn stage_xors(&self, s: usize) -> Range<usize> {
        self.stage_start(s)[0] as usize..self.stages[s][0] as usize
    }

    /// The AND gates of stages `range` (also their global AND indices).
    pub fn stages_ands(&self, range: Range<usize>) -> Range<usize> {
        if range.is_empty() {
            let a = self.stage_start(range.start)[1] as usize;
            return a..a;
        }
        self.stage_start(range.start)[1] as usize..self.stages[range.end - 1][1] as usize
    }

    /// Garbles stages `range` (XORs, then ANDs, stage by stage): tables of
    /// its AND gates (global indices [`SlotProgram::stages_ands`]) to
    /// `tables`, which must be exactly as long.
    ///
    /// With VAES the XOR gates of stage s+1 run *during* stage s's AND
    /// group, one between consecutive AES rounds (the group's labels are
    /// gathered before and its outputs scattered after): the AES unit and
    /// the load ports then work at the same time, where a block of XORs
    /// and a block of AES run largely one after the other (the scheduler
    /// fills with AES waiting on its rounds). The result equals stage by
    /// stage only if no XOR gate of a stage reads or writes an output slot
    /// of the previous stage's group, as for the stages of one layer piece
    /// of `brickyard_garble`'s plan (a piece's XORs never read its AND
    /// outputs, and its slots are freed at the end of the piece).
    ///
    /// # Panics
    /// On a short `w`, an out-of-bounds `range` or a wrong `tables` length.
    pub fn garble_stages(
        &self,
        w: &mut [Block],
        range: Range<usize>,
        delta: Block,
        tweak_offset: u64,
        tables: &mut [Block],
    ) {
        self.check_w(w);
        let ands = self.stages_ands(range.clone());
        assert_eq!(tables.len(), TABLE_BLOCKS * ands.len(), "table length");
        #[cfg(target_arch = "x86_64")]
        if let Some(rk) = fixed_key().vaes512_keys() {
            // SAFETY: VAES/AVX-512F detected (`vaes512_keys` is `Some`);
            // every slot index checked in `new`, `w` long enough (above);
            // stage ends checked in `with_stages` and `tables` sized here.
            unsafe { x86::garble_stages(self, rk, w, range, delta, tweak_offset, tables) };
            return;
        }
        self.garble_stages_fallback(w, range, delta, tweak_offset, tables, false)
    }

    /// [`SlotProgram::garble_stages`] on the portable backend.
    pub fn garble_stages_portable(
        &self,
        w: &mut [Block],
        range: Range<usize>,
        delta: Block,
        tweak_offset: u64,
        tables: &mut [Block],
    ) {
        self.garble_stages_fallback(w, range, delta, tweak_offset, tables, true)
    }

    /// Without VAES: the portable AND kernel, and the XOR kernel (SSE2 is
    /// part of x86-64) unless `portable_xors`.
    fn garble_stages_fallback(
        &self,
        w: &mut [Block],
        range: Range<usize>,
        delta: Block,
        tweak_offset: u64,
        tables: &mut [Block],
        portable_xors: bool,
    ) {
        self.check_w(w);
        let ands = self.stages_ands(range.clone());
        assert_eq!(tables.len(), TABLE_BLOCKS * ands.len(), "table length");
        for s in range {
            if portable_xors {
                self.xors.run_portable(w, self.stage_xors(s));
            } else {
                self.xors.run(w, self.stage_xors(s));
            }
            let r = self.stages_ands(s..s + 1);
            let t = &mut tables[2 * (r.start - ands.start)..2 * (r.end - ands.start)];
            garble_portable(
                w,
                &self.and_bytes[r.clone()],
                self.folds(r.clone()),
                delta,
                tweak_offset,
                r.start as u64,
                t,
            );
        }
    }

    /// Evaluates stages `range` from `tables` (as long as their AND gates'
    /// tables), with the garbler's `tweak_offset`. XOR gates run during
    /// the previous group's AES as in [`SlotProgram::garble_stages`], with
    /// the same condition.
    ///
    /// # Panics
    /// As [`SlotProgram::garble_stages`].
    pub fn eval_stages(
        &self,
        w: &mut [Block],
        range: Range<usize>,
        tables: &[Block],
        tweak_offset: u64,
    ) {
        self.check_w(w);
        let ands = self.stages_ands(range.clone());
        assert_eq!(tables.len(), TABLE_BLOCKS * ands.len(), "table length");
        #[cfg(target_arch = "x86_64")]
        if let Some(rk) = fixed_key().vaes512_keys() {
            // SAFETY: as in `garble_stages`.
            unsafe { x86::eval_stages(self, rk, w, range, tables, tweak_offset) };
            return;
        }
        self.eval_stages_fallback(w, range, tables, tweak_offset, false)
    }

    /// [`SlotProgram::eval_stages`] on the portable backend.
    pub fn eval_stages_portable(
        &self,
        w: &mut [Block],
        range: Range<usize>,
        tables: &[Block],
        tweak_offset: u64,
    ) {
        self.eval_stages_fallback(w, range, tables, tweak_offset, true)
    }

    /// As [`SlotProgram::garble_stages_fallback`].
    fn eval_stages_fallback(
        &self,
        w: &mut [Block],
        range: Range<usize>,
        tables: &[Block],
        tweak_offset: u64,
        portable_xors: bool,
    ) {
        self.check_w(w);
        let ands = self.stages_ands(range.clone());
        assert_eq!(tables.len(), TABLE_BLOCKS * ands.len(), "table length");
        for s in range {
            if portable_xors {
                self.xors.run_portable(w, self.stage_xors(s));
            } else {
                self.xors.run(w, self.stage_xors(s));
            }
            let r = self.stages_ands(s..s + 1);
            let t = &tables[2 * (r.start - ands.start)..2 * (r.end - ands.start)];
            let f = self.folds(r.clone());
            eval_portable(
                w,
                &self.and_bytes[r.clone()],
                f,
                t,
                tweak_offset,
                r.start as u64,
            );
        }
    }

    /// Number of π slots (the garbler's π vector holds twice as many blocks).
    pub fn pi_bound(&self) -> usize {
        self.pi_bound
    }

    /// The π jobs, `[label slot, π slot]`.
    pub fn pi_jobs(&self) -> &[[u32; 2]] {
        &self.pi_jobs
    }

    /// The π slots of each AND gate's inputs (empty without a π cache).
    pub fn and_pis(&self) -> &[[u32; 2]] {
        &self.and_pis
    }

    fn check_p(&self, p: &[Block], per: usize) {
        assert!(self.folds.is_empty(), "the π-cached kernels read no folds");
        assert!(
            p.len() >= per * self.pi_bound,
            "π vector of {} blocks for {} π slots",
            p.len(),
            self.pi_bound
        );
    }

    /// Garbler's π jobs `range`: `p[2s] = π(w[l])`, `p[2s+1] = π(w[l] ⊕ Δ)`
    /// for each job `[l, s]`.
    ///
    /// # Panics
    /// On a short `w` or `p` or an out-of-bounds `range`.
    pub fn garble_pis(&self, w: &[Block], p: &mut [Block], range: Range<usize>, delta: Block) {
        self.check_w(w);
        self.check_p(p, 2);
        let jobs = &self.pi_jobs[range];
        #[cfg(target_arch = "x86_64")]
        if let Some(rk) = fixed_key().vaes512_keys() {
            // SAFETY: VAES/AVX-512F detected; indices checked in
            // `with_pi_cache` against bounds `w` and `p` were just checked to meet.
            unsafe { x86::pis::<true>(rk, w, p, jobs, delta) };
            return;
        }
        pis_portable(w, p, jobs, Some(delta))
    }

    /// Evaluator's π jobs `range`: `p[s] = π(w[l])`.
    ///
    /// # Panics
    /// As [`SlotProgram::garble_pis`].
    pub fn eval_pis(&self, w: &[Block], p: &mut [Block], range: Range<usize>) {
        self.check_w(w);
        self.check_p(p, 1);
        let jobs = &self.pi_jobs[range];
        #[cfg(target_arch = "x86_64")]
        if let Some(rk) = fixed_key().vaes512_keys() {
            // SAFETY: as in `garble_pis`.
            unsafe { x86::pis::<false>(rk, w, p, jobs, Block::ZERO) };
            return;
        }
        pis_portable(w, p, jobs, None)
    }

    /// [`SlotProgram::garble_pis`] / [`SlotProgram::eval_pis`] on the
    /// portable backend (`delta: None` for the evaluator).
    pub fn pis_portable(
        &self,
        w: &[Block],
        p: &mut [Block],
        range: Range<usize>,
        delta: Option<Block>,
    ) {
        self.check_w(w);
        self.check_p(p, if delta.is_some() { 2 } else { 1 });
        pis_portable(w, p, &self.pi_jobs[range], delta)
    }

    /// As [`SlotProgram::garble_ands`], but the inner π of every input is
    /// read from the π vector `p` (filled by [`SlotProgram::garble_pis`])
    /// instead of computed. Same tables and labels.
    ///
    /// # Panics
    /// As [`SlotProgram::garble_ands`], or on a short `p`.
    #[allow(clippy::too_many_arguments)]
    pub fn garble_ands_cached(
        &self,
        w: &mut [Block],
        p: &[Block],
        range: Range<usize>,
        delta: Block,
        tweak_offset: u64,
        first_and: u64,
        tables: &mut [Block],
    ) {
        self.check_w(w);
        self.check_p(p, 2);
        let pis = &self.garbler_pis[range.clone()];
        let gates = &self.and_bytes[range];
        assert_eq!(tables.len(), TABLE_BLOCKS * gates.len(), "table length");
        #[cfg(target_arch = "x86_64")]
        if let Some(rk) = fixed_key().vaes512_keys() {
            // SAFETY: as in `garble_ands`; π indices checked in `with_pi_cache`.
            unsafe {
                x86::garble_cached(rk, w, p, gates, pis, delta, tweak_offset, first_and, tables)
            };
            return;
        }
        garble_cached_portable(w, p, gates, pis, delta, tweak_offset, first_and, tables)
    }

    /// As [`SlotProgram::eval_ands`] with the inner π read from `p` (filled
    /// by [`SlotProgram::eval_pis`]).
    ///
    /// # Panics
    /// As [`SlotProgram::garble_ands_cached`].
    pub fn eval_ands_cached(
        &self,
        w: &mut [Block],
        p: &[Block],
        range: Range<usize>,
        tables: &[Block],
        tweak_offset: u64,
        first_and: u64,
    ) {
        self.check_w(w);
        self.check_p(p, 1);
        let pis = &self.and_pis[range.clone()];
        let gates = &self.and_bytes[range];
        assert_eq!(tables.len(), TABLE_BLOCKS * gates.len(), "table length");
        #[cfg(target_arch = "x86_64")]
        if let Some(rk) = fixed_key().vaes512_keys() {
            // SAFETY: as in `garble_ands_cached`.
            unsafe { x86::eval_cached(rk, w, p, gates, pis, tables, tweak_offset, first_and) };
            return;
        }
        eval_cached_portable(w, p, gates, pis, tables, tweak_offset, first_and)
    }

    /// [`SlotProgram::garble_ands_cached`] on the portable backend.
    #[allow(clippy::too_many_arguments)]
    pub fn garble_ands_cached_portable(
        &self,
        w: &mut [Block],
        p: &[Block],
        range: Range<usize>,
        delta: Block,
        tweak_offset: u64,
        first_and: u64,
        tables: &mut [Block],
    ) {
        self.check_w(w);
        self.check_p(p, 2);
        let pis = &self.garbler_pis[range.clone()];
        let gates = &self.and_bytes[range];
        assert_eq!(tables.len(), TABLE_BLOCKS * gates.len(), "table length");
        garble_cached_portable(w, p, gates, pis, delta, tweak_offset, first_and, tables)
    }

    /// [`SlotProgram::eval_ands_cached`] on the portable backend.
    pub fn eval_ands_cached_portable(
        &self,
        w: &mut [Block],
        p: &[Block],
        range: Range<usize>,
        tables: &[Block],
        tweak_offset: u64,
        first_and: u64,
    ) {
        self.check_w(w);
        self.check_p(p, 1);
        let pis = &self.and_pis[range.clone()];
        let gates = &self.and_bytes[range];
        assert_eq!(tables.len(), TABLE_BLOCKS * gates.len(), "table length");
        eval_cached_portable(w, p, gates, pis, tables, tweak_offset, first_and)
    }

    /// The label vector length this program needs.
    pub fn bound(&self) -> usize {
        self.bound
    }

    /// The XOR gates.
    pub fn xors(&self) -> &SlotXors {
        &self.xors
    }

    /// The AND gates.
    pub fn ands(&self) -> &[AndSlots] {
        &self.ands
    }

    fn check_w(&self, w: &[Block]) {
        assert!(
            w.len() >= self.bound,
            "label vector of {} slots for a program over {}",
            w.len(),
            self.bound
        );
    }

    /// Runs XOR gates `range` in order.
    ///
    /// # Panics
    /// If `w` is shorter than [`SlotProgram::bound`] or `range` is out of bounds.
    pub fn run_xors(&self, w: &mut [Block], range: Range<usize>) {
        self.check_w(w);
        self.xors.run(w, range)
    }

    /// [`SlotProgram::run_xors`] on the portable backend (tests).
    pub fn run_xors_portable(&self, w: &mut [Block], range: Range<usize>) {
        self.check_w(w);
        self.xors.run_portable(w, range)
    }

    /// Garbles AND gates `range` (global AND indices `first_and..`) under
    /// `delta` (lsb 1) and `tweak_offset`; writes `[T_G, T_E]` per gate to
    /// `tables` (length `2 · range.len()`). All inputs of the range are
    /// read before any output is written only if no output slot of the
    /// range is also one of its input slots; the plan guarantees that.
    ///
    /// # Panics
    /// On a short `w`, an out-of-bounds `range` or a wrong `tables` length
    /// (all internal buffers).
    pub fn garble_ands(
        &self,
        w: &mut [Block],
        range: Range<usize>,
        delta: Block,
        tweak_offset: u64,
        first_and: u64,
        tables: &mut [Block],
    ) {
        self.check_w(w);
        let folds = self.folds(range.clone());
        let gates = &self.and_bytes[range];
        assert_eq!(tables.len(), TABLE_BLOCKS * gates.len(), "table length");
        #[cfg(target_arch = "x86_64")]
        if let Some(rk) = fixed_key().vaes512_keys() {
            // SAFETY: `vaes512_keys` is `Some` only when VAES, AVX-512F and
            // AES-NI were detected; indices (folds too) are checked as in
            // `run_xors`, and `folds` is empty or as long as `gates`.
            unsafe { x86::garble(rk, w, gates, folds, delta, tweak_offset, first_and, tables) };
            return;
        }
        garble_portable(w, gates, folds, delta, tweak_offset, first_and, tables)
    }

    /// Evaluates AND gates `range` from `tables` (`2 · range.len()` blocks),
    /// with the same `tweak_offset` and `first_and` as the garbler.
    ///
    /// # Panics
    /// As [`SlotProgram::garble_ands`].
    pub fn eval_ands(
        &self,
        w: &mut [Block],
        range: Range<usize>,
        tables: &[Block],
        tweak_offset: u64,
        first_and: u64,
    ) {
        self.check_w(w);
        let folds = self.folds(range.clone());
        let gates = &self.and_bytes[range];
        assert_eq!(tables.len(), TABLE_BLOCKS * gates.len(), "table length");
        #[cfg(target_arch = "x86_64")]
        if let Some(rk) = fixed_key().vaes512_keys() {
            // SAFETY: as in `garble_ands`.
            unsafe { x86::eval(rk, w, gates, folds, tables, tweak_offset, first_and) };
            return;
        }
        eval_portable(w, gates, folds, tables, tweak_offset, first_and)
    }

    /// [`SlotProgram::garble_ands`] on the portable backend (tests, and
    /// CPUs without VAES).
    pub fn garble_ands_portable(
        &self,
        w: &mut [Block],
        range: Range<usize>,
        delta: Block,
        tweak_offset: u64,
        first_and: u64,
        tables: &mut [Block],
    ) {
        self.check_w(w);
        let folds = self.folds(range.clone());
        let gates = &self.and_bytes[range];
        assert_eq!(tables.len(), TABLE_BLOCKS * gates.len(), "table length");
        garble_portable(w, gates, folds, delta, tweak_offset, first_and, tables)
    }

    /// [`SlotProgram::eval_ands`] on the portable backend.
    pub fn eval_ands_portable(
        &self,
        w: &mut [Block],
        range: Range<usize>,
        tables: &[Block],
        tweak_offset: u64,
        first_and: u64,
    ) {
        self.check_w(w);
        let folds = self.folds(range.clone());
        let gates = &self.and_bytes[range];
        assert_eq!(tables.len(), TABLE_BLOCKS * gates.len(), "table length");
        eval_portable(w, gates, folds, tables, tweak_offset, first_and)
    }
}

/// The tweak of the garbler half of AND gate `j`: `offset·2⁶⁴ + 2j`.
#[inline]
pub fn and_tweak(tweak_offset: u64, and_index: u64) -> Block {
    Block::from_halves(and_index << 1, tweak_offset)
}

/// Gates hashed per portable batch (4 AES blocks each for the garbler):
/// enough blocks per `encrypt_blocks` call for its 8-way pipeline, and
/// small stack buffers, since they are zeroed on every call and the
/// evaluator calls once per 8-gate stage.
const PORTABLE_CHUNK: usize = 16;

/// Input `half` (0: `a`, 1: `b`) of gate `i`: its slot, XORed with its
/// folded slot (a byte offset) if the program folds (`folds` is then as
/// long as the gates).
#[inline]
fn input(w: &[Block], gates: &[AndBytes], folds: &[[u32; 2]], i: usize, half: usize) -> Block {
    let x = w[gates[i].slot(half)];
    match folds.get(i) {
        Some(f) => x ^ w[f[half] as usize / 16],
        None => x,
    }
}

fn garble_portable(
    w: &mut [Block],
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    delta: Block,
    tweak_offset: u64,
    first_and: u64,
    tables: &mut [Block],
) {
    let pi = fixed_key();
    let mut u = [Block::ZERO; 4 * PORTABLE_CHUNK];
    let mut v = [Block::ZERO; 4 * PORTABLE_CHUNK];
    let mut ab = [(Block::ZERO, Block::ZERO); PORTABLE_CHUNK];
    for (c, (gs, ts)) in gates
        .chunks(PORTABLE_CHUNK)
        .zip(tables.chunks_mut(TABLE_BLOCKS * PORTABLE_CHUNK))
        .enumerate()
    {
        let n = gs.len();
        let first = first_and + (c * PORTABLE_CHUNK) as u64;
        let at = c * PORTABLE_CHUNK;
        for (i, g) in gs.iter().enumerate() {
            let a = input(w, gates, folds, at + i, 0) ^ delta.and_bit(g.flip & 1 == 1);
            let b = input(w, gates, folds, at + i, 1) ^ delta.and_bit(g.flip & 2 == 2);
            ab[i] = (a, b);
            u[4 * i..4 * i + 4].copy_from_slice(&[a, a ^ delta, b, b ^ delta]);
        }
        let (u, v) = (&mut u[..4 * n], &mut v[..4 * n]);
        pi.encrypt_blocks(u);
        for (i, (uc, vc)) in u.chunks_exact(4).zip(v.chunks_exact_mut(4)).enumerate() {
            let t = and_tweak(tweak_offset, first + i as u64);
            let t1 = t ^ Block(1);
            vc.copy_from_slice(&[uc[0] ^ t, uc[1] ^ t, uc[2] ^ t1, uc[3] ^ t1]);
        }
        pi.encrypt_blocks(v);
        for (i, g) in gs.iter().enumerate() {
            let h: [Block; 4] = std::array::from_fn(|k| u[4 * i + k] ^ v[4 * i + k]);
            let (a, b) = ab[i];
            let (pa, pb) = (a.lsb(), b.lsb());
            let tg = h[0] ^ h[1] ^ delta.and_bit(pb);
            let wg = h[0] ^ tg.and_bit(pa);
            let hb = h[2] ^ h[3];
            let we = h[2] ^ hb.and_bit(pb);
            ts[2 * i] = tg;
            ts[2 * i + 1] = hb ^ a;
            w[g.out_slot()] = wg ^ we;
        }
    }
}

fn eval_portable(
    w: &mut [Block],
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    tables: &[Block],
    tweak_offset: u64,
    first_and: u64,
) {
    let pi = fixed_key();
    let mut u = [Block::ZERO; 2 * PORTABLE_CHUNK];
    let mut v = [Block::ZERO; 2 * PORTABLE_CHUNK];
    let mut outs = [Block::ZERO; PORTABLE_CHUNK];
    for (c, (gs, ts)) in gates
        .chunks(PORTABLE_CHUNK)
        .zip(tables.chunks(TABLE_BLOCKS * PORTABLE_CHUNK))
        .enumerate()
    {
        let n = gs.len();
        let first = first_and + (c * PORTABLE_CHUNK) as u64;
        let at = c * PORTABLE_CHUNK;
        for i in 0..n {
            u[2 * i] = input(w, gates, folds, at + i, 0);
            u[2 * i + 1] = input(w, gates, folds, at + i, 1);
        }
        let (u, v) = (&mut u[..2 * n], &mut v[..2 * n]);
        let mut held = [Block::ZERO; 2 * PORTABLE_CHUNK];
        held[..2 * n].copy_from_slice(u);
        pi.encrypt_blocks(u);
        for (i, (uc, vc)) in u.chunks_exact(2).zip(v.chunks_exact_mut(2)).enumerate() {
            let t = and_tweak(tweak_offset, first + i as u64);
            vc.copy_from_slice(&[uc[0] ^ t, uc[1] ^ t ^ Block(1)]);
        }
        pi.encrypt_blocks(v);
        for (i, ab) in held[..2 * n].chunks_exact(2).enumerate() {
            let (a, b) = (ab[0], ab[1]);
            let (tg, te) = (ts[2 * i], ts[2 * i + 1]);
            let wg = u[2 * i] ^ v[2 * i] ^ tg.and_bit(a.lsb());
            let we = u[2 * i + 1] ^ v[2 * i + 1] ^ (te ^ a).and_bit(b.lsb());
            outs[i] = wg ^ we;
        }
        // Outputs after all inputs of the chunk were read (see `garble_ands`).
        for (g, &o) in gs.iter().zip(&outs[..n]) {
            w[g.out_slot()] = o;
        }
    }
}

fn pis_portable(w: &[Block], p: &mut [Block], jobs: &[[u32; 2]], delta: Option<Block>) {
    let pi = fixed_key();
    let mut u = [Block::ZERO; 2 * PORTABLE_CHUNK];
    for js in jobs.chunks(PORTABLE_CHUNK) {
        let n = js.len();
        match delta {
            Some(d) => {
                for (i, &[l, _]) in js.iter().enumerate() {
                    u[2 * i] = w[l as usize];
                    u[2 * i + 1] = w[l as usize] ^ d;
                }
                pi.encrypt_blocks(&mut u[..2 * n]);
                for (i, &[_, s]) in js.iter().enumerate() {
                    p[2 * s as usize] = u[2 * i];
                    p[2 * s as usize + 1] = u[2 * i + 1];
                }
            }
            None => {
                for (i, &[l, _]) in js.iter().enumerate() {
                    u[i] = w[l as usize];
                }
                pi.encrypt_blocks(&mut u[..n]);
                for (i, &[_, s]) in js.iter().enumerate() {
                    p[s as usize] = u[i];
                }
            }
        }
    }
    zeroize::Zeroize::zeroize(&mut u[..]);
}

#[allow(clippy::too_many_arguments)]
fn garble_cached_portable(
    w: &mut [Block],
    p: &[Block],
    gates: &[AndBytes],
    pis: &[[u32; 4]],
    delta: Block,
    tweak_offset: u64,
    first_and: u64,
    tables: &mut [Block],
) {
    let pi = fixed_key();
    let mut u = [Block::ZERO; 4 * PORTABLE_CHUNK];
    let mut v = [Block::ZERO; 4 * PORTABLE_CHUNK];
    let mut ab = [(Block::ZERO, Block::ZERO); PORTABLE_CHUNK];
    let mut outs = [Block::ZERO; PORTABLE_CHUNK];
    for (c, ((gs, ps), ts)) in gates
        .chunks(PORTABLE_CHUNK)
        .zip(pis.chunks(PORTABLE_CHUNK))
        .zip(tables.chunks_mut(TABLE_BLOCKS * PORTABLE_CHUNK))
        .enumerate()
    {
        let n = gs.len();
        let first = first_and + (c * PORTABLE_CHUNK) as u64;
        for (i, (g, q)) in gs.iter().zip(ps).enumerate() {
            ab[i] = (
                w[g.slot(0)] ^ delta.and_bit(g.flip & 1 == 1),
                w[g.slot(1)] ^ delta.and_bit(g.flip & 2 == 2),
            );
            for k in 0..4 {
                u[4 * i + k] = p[q[k] as usize];
            }
        }
        let (u, v) = (&u[..4 * n], &mut v[..4 * n]);
        for (i, (uc, vc)) in u.chunks_exact(4).zip(v.chunks_exact_mut(4)).enumerate() {
            let t = and_tweak(tweak_offset, first + i as u64);
            let t1 = t ^ Block(1);
            vc.copy_from_slice(&[uc[0] ^ t, uc[1] ^ t, uc[2] ^ t1, uc[3] ^ t1]);
        }
        pi.encrypt_blocks(v);
        for i in 0..n {
            let h: [Block; 4] = std::array::from_fn(|k| u[4 * i + k] ^ v[4 * i + k]);
            let (a, b) = ab[i];
            let (pa, pb) = (a.lsb(), b.lsb());
            let tg = h[0] ^ h[1] ^ delta.and_bit(pb);
            let wg = h[0] ^ tg.and_bit(pa);
            let hb = h[2] ^ h[3];
            let we = h[2] ^ hb.and_bit(pb);
            ts[2 * i] = tg;
            ts[2 * i + 1] = hb ^ a;
            outs[i] = wg ^ we;
        }
        for (g, &o) in gs.iter().zip(&outs[..n]) {
            w[g.out_slot()] = o;
        }
    }
    zeroize::Zeroize::zeroize(&mut u[..]);
    zeroize::Zeroize::zeroize(&mut outs[..]);
}

fn eval_cached_portable(
    w: &mut [Block],
    p: &[Block],
    gates: &[AndBytes],
    pis: &[[u32; 2]],
    tables: &[Block],
    tweak_offset: u64,
    first_and: u64,
) {
    let pi = fixed_key();
    let mut u = [Block::ZERO; 2 * PORTABLE_CHUNK];
    let mut v = [Block::ZERO; 2 * PORTABLE_CHUNK];
    let mut outs = [Block::ZERO; PORTABLE_CHUNK];
    for (c, ((gs, ps), ts)) in gates
        .chunks(PORTABLE_CHUNK)
        .zip(pis.chunks(PORTABLE_CHUNK))
        .zip(tables.chunks(TABLE_BLOCKS * PORTABLE_CHUNK))
        .enumerate()
    {
        let n = gs.len();
        let first = first_and + (c * PORTABLE_CHUNK) as u64;
        for (i, &[pa, pb]) in ps.iter().enumerate() {
            let t = and_tweak(tweak_offset, first + i as u64);
            u[2 * i] = p[pa as usize];
            u[2 * i + 1] = p[pb as usize];
            v[2 * i] = u[2 * i] ^ t;
            v[2 * i + 1] = u[2 * i + 1] ^ t ^ Block(1);
        }
        pi.encrypt_blocks(&mut v[..2 * n]);
        for (i, g) in gs.iter().enumerate() {
            let (a, b) = (w[g.slot(0)], w[g.slot(1)]);
            let (tg, te) = (ts[2 * i], ts[2 * i + 1]);
            let wg = u[2 * i] ^ v[2 * i] ^ tg.and_bit(a.lsb());
            let we = u[2 * i + 1] ^ v[2 * i + 1] ^ (te ^ a).and_bit(b.lsb());
            outs[i] = wg ^ we;
        }
        for (g, &o) in gs.iter().zip(&outs[..n]) {
            w[g.out_slot()] = o;
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! VAES-512 kernels. Four gates share a ZMM register (one 128-bit lane
    //! each); the garbler keeps 2 groups × 4 hash inputs = 8 ZMM states in
    //! flight, the evaluator 4 groups × 2.

    use super::{and_tweak, AndBytes, SlotProgram, EVAL_MIN_SPACING};
    use crate::aes::ni::RoundKeys;
    use crate::Block;
    use std::arch::asm;
    use std::arch::x86_64::*;

    #[inline]
    #[target_feature(enable = "sse2")]
    fn ld(b: Block) -> __m128i {
        bytemuck::cast(b)
    }

    /// Four labels `w[idx[k]]` into the lanes of one register.
    ///
    /// # Safety
    /// Every `idx[k] < w.len()`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn gather(w: &[Block], idx: [u32; 4]) -> __m512i {
        let base = w.as_ptr().cast::<__m128i>();
        // SAFETY: the caller guarantees the indices are in bounds. One
        // 16-byte vector load per label (a `u128` read may be split into
        // two 8-byte loads, which defeats store forwarding from `scatter`).
        let l = |i: u32| unsafe { _mm_loadu_si128(base.add(i as usize)) };
        let v = _mm512_castsi128_si512(l(idx[0]));
        let v = _mm512_inserti32x4::<1>(v, l(idx[1]));
        let v = _mm512_inserti32x4::<2>(v, l(idx[2]));
        _mm512_inserti32x4::<3>(v, l(idx[3]))
    }

    /// Four labels at byte offsets `off[k]` of `w` into the lanes of one
    /// register (the AND records' form, [`AndBytes`]: no shift per lane).
    ///
    /// # Safety
    /// Every `off[k]` is a multiple of 16 with `off[k] / 16 < w.len()`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn gather_at(w: &[Block], off: [u32; 4]) -> __m512i {
        let bytes = w.as_ptr().cast::<u8>();
        // SAFETY: the caller guarantees the offsets address blocks of `w`;
        // one 16-byte vector load per label, as in `gather`.
        let l = |o: u32| unsafe { _mm_loadu_si128(bytes.add(o as usize).cast::<__m128i>()) };
        let v = _mm512_castsi128_si512(l(off[0]));
        let v = _mm512_inserti32x4::<1>(v, l(off[1]));
        let v = _mm512_inserti32x4::<2>(v, l(off[2]));
        _mm512_inserti32x4::<3>(v, l(off[3]))
    }

    /// Input `half` (0: `a`, 1: `b`) of a group's four gates: their slots'
    /// labels, XORed with their folded slots' (`F`, see
    /// [`super::SlotProgram::with_folds`]) in the register.
    ///
    /// # Safety
    /// Every byte offset of `l` and, if `F`, of `f` addresses a block of `w`.
    #[inline(always)]
    unsafe fn gather_in<const F: bool>(
        w: &[Block],
        l: &[AndBytes; 4],
        f: &[[u32; 2]; 4],
        half: usize,
    ) -> __m512i {
        let idx = l.map(|s| if half == 0 { s.a } else { s.b });
        // SAFETY: forwarded from the caller.
        unsafe {
            if F {
                gather_folded(w, idx, f.map(|p| p[half]))
            } else {
                gather_at(w, idx)
            }
        }
    }

    /// The fold records of a group in four lanes (padding as [`lanes`]),
    /// or zeros (unread) without folds.
    #[inline(always)]
    fn fold_lanes<const F: bool>(fs: &[[u32; 2]]) -> [[u32; 2]; 4] {
        if F {
            lanes(fs)
        } else {
            [[0; 2]; 4]
        }
    }

    /// Splits a stage's fold records like its gates (`[..4]`, `[4..]`), or
    /// hands out empty slices without folds.
    #[inline(always)]
    fn fold_halves<const F: bool>(fs: &[[u32; 2]]) -> [&[[u32; 2]]; 2] {
        if F {
            [&fs[..4], &fs[4..]]
        } else {
            [&[], &[]]
        }
    }

    /// Four labels `w[idx[k] / 16] ⊕ w[off[k] / 16]` (both byte offsets)
    /// into the lanes of one
    /// register: each lane's XOR is one 16-byte `vpxor` with a memory
    /// operand before its insert, so a fold costs a load and an XOR per
    /// lane and no second round of lane inserts (on the shuffle port).
    ///
    /// # Safety
    /// `idx[k]` and `off[k]` are multiples of 16 with `idx[k] / 16 <
    /// w.len()` and `off[k] / 16 < w.len()`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn gather_folded(w: &[Block], idx: [u32; 4], off: [u32; 4]) -> __m512i {
        let bytes = w.as_ptr().cast::<u8>();
        // SAFETY: the caller guarantees both addresses are blocks of `w`.
        let l = |k: usize| unsafe {
            _mm_xor_si128(
                _mm_loadu_si128(bytes.add(idx[k] as usize).cast::<__m128i>()),
                _mm_loadu_si128(bytes.add(off[k] as usize).cast::<__m128i>()),
            )
        };
        let v = _mm512_castsi128_si512(l(0));
        let v = _mm512_inserti32x4::<1>(v, l(1));
        let v = _mm512_inserti32x4::<2>(v, l(2));
        _mm512_inserti32x4::<3>(v, l(3))
    }

    /// Writes the first `n` lanes of `v` to `w[idx[k]]`.
    ///
    /// # Safety
    /// Every `idx[k] < w.len()` for `k < n`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn scatter(w: &mut [Block], idx: [u32; 4], n: usize, v: __m512i) {
        let lanes = [
            _mm512_castsi512_si128(v),
            _mm512_extracti32x4_epi32::<1>(v),
            _mm512_extracti32x4_epi32::<2>(v),
            _mm512_extracti32x4_epi32::<3>(v),
        ];
        let base = w.as_mut_ptr().cast::<__m128i>();
        for k in 0..n {
            // SAFETY: the caller guarantees the indices are in bounds. A
            // single 16-byte store, so a later 16-byte load of the same
            // label (the π cache reads what the π jobs just wrote) is
            // forwarded from the store buffer instead of stalling.
            unsafe { _mm_storeu_si128(base.add(idx[k] as usize), lanes[k]) };
        }
    }

    /// Writes the first `n` lanes of `v` to the blocks at byte offsets
    /// `off[k]` of `w` (the AND records' form, [`AndBytes`]).
    ///
    /// # Safety
    /// Every `off[k]` for `k < n` is a multiple of 16 with `off[k] / 16 <
    /// w.len()`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn scatter_at(w: &mut [Block], off: [u32; 4], n: usize, v: __m512i) {
        let lanes = [
            _mm512_castsi512_si128(v),
            _mm512_extracti32x4_epi32::<1>(v),
            _mm512_extracti32x4_epi32::<2>(v),
            _mm512_extracti32x4_epi32::<3>(v),
        ];
        let bytes = w.as_mut_ptr().cast::<u8>();
        for k in 0..n {
            // SAFETY: the caller guarantees the offsets address blocks of
            // `w`; one 16-byte store, as in `scatter`.
            unsafe { _mm_storeu_si128(bytes.add(off[k] as usize).cast::<__m128i>(), lanes[k]) };
        }
    }

    /// Mask of the 64-bit elements of the lanes whose label has lsb 1.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn colour(x: __m512i) -> __mmask8 {
        let k = _mm512_test_epi64_mask(x, _mm512_set_epi64(0, 1, 0, 1, 0, 1, 0, 1));
        k | (k << 1)
    }

    /// The gates of a group (1..=4) in four lanes: padding lanes repeat
    /// the last gate, so they read valid slots (their results are dropped).
    #[inline(always)]
    fn lanes<T: Copy>(gs: &[T]) -> [T; 4] {
        let n = gs.len();
        debug_assert!((1..=4).contains(&n));
        // SAFETY: `i.min(n - 1) < n` for the non-empty groups callers pass.
        std::array::from_fn(|i| unsafe { *gs.get_unchecked(i.min(n - 1)) })
    }

    /// Lane masks from the polarity bits of a group's gates (bit 0 for
    /// input `a`, bit 1 for `b`), computed in one vector register: the
    /// group's 16-byte `AndBytes` records are one masked ZMM load (lanes
    /// past the group read nothing and give zero masks, which padding
    /// lanes may have: their results are dropped), `flip` being the top
    /// dword of each lane; one `vpshufd` copies it into every dword, so
    /// each `vptestmq` sets both qwords of a flipped lane and the masks
    /// need no shift and `or` through general registers. (A scalar loop
    /// over the gates compiled to a few dozen shuffles per group, on the
    /// ports VAES needs.)
    ///
    /// # Safety
    /// `gs` holds 1..=4 records.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn flip_masks(gs: &[AndBytes]) -> (__mmask8, __mmask8) {
        let n = gs.len();
        debug_assert!((1..=4).contains(&n));
        // SAFETY: only the first `4n ≤ 16` dwords, the `n` records of
        // `gs`, are read (masked-off elements are not accessed).
        let v = unsafe {
            _mm512_maskz_loadu_epi32(((1u32 << (4 * n)) - 1) as u16, gs.as_ptr().cast::<i32>())
        };
        let f = _mm512_shuffle_epi32::<0xFF>(v);
        let ka = _mm512_test_epi64_mask(f, _mm512_set1_epi64(1));
        let kb = _mm512_test_epi64_mask(f, _mm512_set1_epi64(2));
        (ka, kb)
    }

    /// Mask of the first `n` gates' table blocks among the 8 qwords of
    /// each of the two table registers (`lo` holds gates 0-1, `hi` 2-3).
    #[inline]
    fn table_masks(n: usize) -> (__mmask8, __mmask8) {
        let q = 4 * n as u32;
        let m = |k: u32| ((1u32 << k.min(8)) - 1) as u8;
        (m(q), m(q.saturating_sub(8)))
    }

    #[inline]
    #[target_feature(enable = "avx512f,vaes")]
    fn aes_rounds<const N: usize>(k: &[__m512i; 11], v: &mut [__m512i; N]) {
        for x in v.iter_mut() {
            *x = _mm512_xor_si512(*x, k[0]);
        }
        for rk in &k[1..10] {
            for x in v.iter_mut() {
                *x = _mm512_aesenc_epi128(*x, *rk);
            }
        }
        for x in v.iter_mut() {
            *x = _mm512_aesenclast_epi128(*x, k[10]);
        }
    }

    /// Gates a group's kernel takes from its feed at spacing `e`
    /// ([`aes_rounds_fed`] runs `10 / e` per AES pass; the garbler's and
    /// the evaluator's groups both make two passes).
    pub(super) const fn fed_gates(e: usize) -> usize {
        match e {
            0 => 0,
            e => 2 * (10 / e),
        }
    }

    /// XOR gates handed to an AES loop a few per round (see
    /// [`aes_rounds_fed`]): the gates of the next stage, which the plan
    /// guarantees neither read nor write the slots of the group being
    /// hashed.
    pub(super) struct Feed {
        next: *const [u32; 4],
        end: *const [u32; 4],
    }

    impl Feed {
        /// A feed of `gates` (validated byte offsets).
        #[inline]
        pub(super) fn new(gates: &[[u32; 4]]) -> Feed {
            let r = gates.as_ptr_range();
            Feed {
                next: r.start,
                end: r.end,
            }
        }

        /// A feed without gates, for kernels that run none.
        #[inline]
        pub(super) fn empty() -> Feed {
            Feed::new(&[])
        }

        /// Gates not yet run.
        #[inline]
        pub(super) fn left(&self) -> usize {
            (self.end as usize).saturating_sub(self.next as usize) / 16
        }

        /// Runs the next gate on the label vector at `w`. Inline assembly
        /// so that the compiler keeps it where it is put between the AES
        /// rounds (it otherwise reorders the loads, stores and rounds into
        /// blocks, which fills the scheduler with waiting AES and stalls
        /// the XORs behind it). No check for the end: the stage loops feed
        /// a group only a feed holding the [`fed_gates`] it takes.
        ///
        /// # Safety
        /// A gate is left (`next < end`); `w` points to a label vector of
        /// which every byte offset of the feed's gates addresses a whole
        /// block, and the gates' slice is alive. Inlined only into
        /// functions with AVX enabled (the VEX forms, which do not mix
        /// legacy SSE into AVX-512 code).
        #[inline(always)]
        unsafe fn one(&mut self, w: *mut Block) {
            debug_assert!(self.next < self.end, "feed ran past its gates");
            // SAFETY: `next` is a gate of the slice (by the caller); its
            // offsets address blocks of `w` (by the caller); labels are
            // 16-byte aligned (`Block` is, and offsets are multiples of 16),
            // as `vmovdqa` and the folded loads need.
            unsafe {
                asm!(
                    "mov {a:e}, dword ptr [{next}]",
                    "mov {b:e}, dword ptr [{next} + 4]",
                    "mov {c:e}, dword ptr [{next} + 8]",
                    "vmovdqa {x}, xmmword ptr [{w} + {a}]",
                    "vpxor {x}, {x}, xmmword ptr [{w} + {b}]",
                    "mov {a:e}, dword ptr [{next} + 12]",
                    "vpxor {x}, {x}, xmmword ptr [{w} + {c}]",
                    "vmovdqa xmmword ptr [{w} + {a}], {x}",
                    "add {next}, 16",
                    next = inout(reg) self.next,
                    w = in(reg) w,
                    a = out(reg) _,
                    b = out(reg) _,
                    c = out(reg) _,
                    x = out(xmm_reg) _,
                    options(nostack),
                );
            }
        }
    }

    /// Rounds `$r…` of [`aes_rounds_fed`], written out one by one: as a
    /// `for` loop over the round keys, the compiler kept a loop for
    /// feeds after every second or fifth round (a counter, a compare, a
    /// parity test and two branches per round, ~100 scalar instructions
    /// per group on the ports VAES shares, and the key reloaded by index).
    macro_rules! aes_rounds_fed_at {
        ($k:ident, $v:ident, $f:ident, $w:ident, $E:expr, $($r:literal)*) => {{
            $(
                for x in $v.iter_mut() {
                    asm!("vaesenc {0}, {0}, {1}", inout(zmm_reg) *x, in(zmm_reg) $k[$r],
                        options(nomem, nostack, preserves_flags));
                }
                if $r % $E == 0 {
                    $f.one($w);
                }
            )*
        }};
    }

    /// [`aes_rounds`] over the states `$v`, running one gate of the feed
    /// `$f` (on the label vector at `$w`) after every `$E`-th round (rounds
    /// 1..=10; none if `$E == 0`): `10 / $E` gates per pass. The rounds
    /// are inline assembly too, so the compiler keeps the interleave (it
    /// otherwise moves the rounds of one state together, away from the
    /// gates). A macro, not a function: a function holding that many
    /// assembly blocks is not inlined, and its states then live in memory.
    /// Expands to unsafe code: the caller states the safety of
    /// [`Feed::one`] and has VAES-512 enabled.
    macro_rules! aes_rounds_fed {
        ($k:expr, $v:expr, $f:expr, $w:expr, $E:expr) => {{
            let (k, v, f, w): (&[__m512i; 11], &mut [__m512i; _], &mut Feed, *mut Block) =
                ($k, $v, $f, $w);
            if $E == 0 {
                aes_rounds(k, v);
            } else {
                for x in v.iter_mut() {
                    *x = _mm512_xor_si512(*x, k[0]);
                }
                aes_rounds_fed_at!(k, v, f, w, $E, 1 2 3 4 5 6 7 8 9);
                for x in v.iter_mut() {
                    asm!("vaesenclast {0}, {0}, {1}", inout(zmm_reg) *x, in(zmm_reg) k[10],
                        options(nomem, nostack, preserves_flags));
                }
                if 10 % $E == 0 {
                    f.one(w);
                }
            }
        }};
    }

    /// Tweaks `[offset, 2(j+i)]` of gates `j..j+4` in the four lanes.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn tweaks4(tweak_offset: u64, j: u64) -> __m512i {
        let base = and_tweak(tweak_offset, j);
        let b = _mm512_broadcast_i32x4(ld(base));
        _mm512_add_epi64(b, _mm512_set_epi64(0, 6, 0, 4, 0, 2, 0, 0))
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(super) fn keys(rk: &RoundKeys) -> [__m512i; 11] {
        std::array::from_fn(|i| _mm512_broadcast_i32x4(ld(rk[i])))
    }

    /// `b` in all four lanes.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(super) fn broadcast(b: Block) -> __m512i {
        _mm512_broadcast_i32x4(ld(b))
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn one_lo() -> __m512i {
        _mm512_set_epi64(0, 1, 0, 1, 0, 1, 0, 1)
    }

    /// Garbles `G` groups of 4 gates (`counts[g]` real gates in group `g`,
    /// the rest padding that is computed but never stored).
    ///
    /// # Safety
    /// Slot indices of `groups` are `< w.len()`; `tables` holds
    /// `2 · Σ counts` blocks.
    #[inline]
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn garble_groups<
        const G: usize,
        const S: usize,
        const C: bool,
        const F: bool,
        const E: usize,
    >(
        k: &[__m512i; 11],
        w: &mut [Block],
        p: &[Block],
        groups: [&[AndBytes]; G],
        pgroups: [&[[u32; 4]]; G],
        fgroups: [&[[u32; 2]]; G],
        delta: __m512i,
        tweak_offset: u64,
        first: u64,
        tables: &mut [Block],
        f: &mut Feed,
    ) {
        debug_assert_eq!(S, 4 * G);
        let l: [[AndBytes; 4]; G] = std::array::from_fn(|g| lanes(groups[g]));
        let fl: [[[u32; 2]; 4]; G] = std::array::from_fn(|g| fold_lanes::<F>(fgroups[g]));
        let mut a0 = [_mm512_setzero_si512(); G];
        let mut b0 = [_mm512_setzero_si512(); G];
        let mut x = [_mm512_setzero_si512(); S];
        for (g, gl) in l.iter().enumerate() {
            // SAFETY: indices (folds too) checked by the caller.
            let a = unsafe { gather_in::<F>(w, gl, &fl[g], 0) };
            let b = unsafe { gather_in::<F>(w, gl, &fl[g], 1) };
            // SAFETY: a group has 1..=4 gates.
            let (fa, fb) = unsafe { flip_masks(groups[g]) };
            a0[g] = _mm512_mask_xor_epi64(a, fa, a, delta);
            b0[g] = _mm512_mask_xor_epi64(b, fb, b, delta);
            if C {
                // π(A₀), π(A₀ ⊕ Δ), π(B₀), π(B₀ ⊕ Δ): indices precomputed.
                let ps = pgroups[g];
                let n = ps.len();
                // SAFETY: `ps` is not empty (a group has 1..=4 gates).
                let q: [[u32; 4]; 4] =
                    std::array::from_fn(|i| unsafe { *ps.get_unchecked(i.min(n - 1)) });
                let pidx = |k: usize| -> [u32; 4] { [q[0][k], q[1][k], q[2][k], q[3][k]] };
                // SAFETY: π indices checked by the caller.
                unsafe {
                    x[4 * g] = gather(p, pidx(0));
                    x[4 * g + 1] = gather(p, pidx(1));
                    x[4 * g + 2] = gather(p, pidx(2));
                    x[4 * g + 3] = gather(p, pidx(3));
                }
            } else {
                x[4 * g] = a0[g];
                x[4 * g + 1] = _mm512_xor_si512(a0[g], delta);
                x[4 * g + 2] = b0[g];
                x[4 * g + 3] = _mm512_xor_si512(b0[g], delta);
            }
        }
        if !C {
            // SAFETY: the caller's feed contract (its gates address `w`).
            unsafe { aes_rounds_fed!(k, &mut x, f, w.as_mut_ptr(), E) };
        }
        let u = x;
        let mut at = 0u64;
        for g in 0..G {
            let ta = tweaks4(tweak_offset, first + at);
            let tb = _mm512_xor_si512(ta, one_lo());
            x[4 * g] = _mm512_xor_si512(u[4 * g], ta);
            x[4 * g + 1] = _mm512_xor_si512(u[4 * g + 1], ta);
            x[4 * g + 2] = _mm512_xor_si512(u[4 * g + 2], tb);
            x[4 * g + 3] = _mm512_xor_si512(u[4 * g + 3], tb);
            at += groups[g].len() as u64;
        }
        // SAFETY: the caller's feed contract (its gates address `w`).
        unsafe { aes_rounds_fed!(k, &mut x, f, w.as_mut_ptr(), E) };
        let mut t_at = 0;
        for (g, gs) in groups.iter().enumerate() {
            let h: [__m512i; 4] =
                std::array::from_fn(|q| _mm512_xor_si512(u[4 * g + q], x[4 * g + q]));
            let (pa, pb) = (colour(a0[g]), colour(b0[g]));
            let tg = _mm512_xor_si512(h[0], h[1]);
            let tg = _mm512_mask_xor_epi64(tg, pb, tg, delta);
            let wg = _mm512_mask_xor_epi64(h[0], pa, h[0], tg);
            let hb = _mm512_xor_si512(h[2], h[3]);
            let te = _mm512_xor_si512(hb, a0[g]);
            let we = _mm512_mask_xor_epi64(h[2], pb, h[2], hb);
            let c = _mm512_xor_si512(wg, we);
            // [T_G, T_E] per gate: interleave the lanes of tg and te.
            let lo = _mm512_permutex2var_epi64(tg, _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0), te);
            let hi =
                _mm512_permutex2var_epi64(tg, _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4), te);
            let n = gs.len();
            // Straight from registers to the table (public: it is sent to
            // the evaluator, so no copy on the stack to wipe), masked for a
            // short group so nothing past its blocks is touched.
            let t = &mut tables[t_at..t_at + 2 * n];
            let (mlo, mhi) = table_masks(n);
            // SAFETY: masked-off qwords are neither read nor written, so
            // only the `2n` blocks of `t` are stored to; `hi` starts 4
            // blocks in and is only stored when `n > 2`.
            unsafe {
                let p = t.as_mut_ptr().cast::<i64>();
                _mm512_mask_storeu_epi64(p, mlo, lo);
                if mhi != 0 {
                    _mm512_mask_storeu_epi64(p.add(8), mhi, hi);
                }
            }
            t_at += 2 * n;
            // SAFETY: indices checked by the caller.
            unsafe { scatter_at(w, l[g].map(|s| s.out), n, c) };
        }
    }

    /// The feed spacing for a stage of `n` XOR gates: a gate after every
    /// round (20 per group: the garbler's two passes), every second round
    /// (10) or every fifth (4), the most that `n` fills (an idle gate would
    /// cost as much as a real one); 0: no feed.
    #[inline]
    pub(super) fn spacing(n: usize) -> usize {
        match n {
            20.. => 1,
            10.. => 2,
            4.. => 5,
            _ => 0,
        }
    }

    /// `e` if a feed of `n` gates holds the [`fed_gates`]`(e)` a group
    /// takes at that spacing (what [`Feed::one`]'s safety rests on), else 0.
    #[inline]
    fn checked(e: usize, n: usize) -> usize {
        if fed_gates(e) <= n {
            e
        } else {
            0
        }
    }

    /// Garbles one stage's AND group with a gate of `f` run after every
    /// `E`-th AES round ([`aes_rounds_fed`]); a group of more than 8 gates
    /// runs without feed.
    ///
    /// # Safety
    /// As [`garble`]; `f` holds at least [`fed_gates`]`(E)` gates whose
    /// offsets address `w` (see [`Feed::one`]).
    #[inline]
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn garble_fed<const F: bool, const E: usize>(
        k: &[__m512i; 11],
        w: &mut [Block],
        gates: &[AndBytes],
        folds: &[[u32; 2]],
        d: __m512i,
        tweak_offset: u64,
        first_and: u64,
        tables: &mut [Block],
        f: &mut Feed,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe {
            match gates.len() {
                0 => {}
                1..=4 => garble_groups::<1, 4, false, F, E>(
                    k,
                    w,
                    &[],
                    [gates],
                    [&[]],
                    [folds],
                    d,
                    tweak_offset,
                    first_and,
                    tables,
                    f,
                ),
                5..=8 => garble_groups::<2, 8, false, F, E>(
                    k,
                    w,
                    &[],
                    [&gates[..4], &gates[4..]],
                    [&[], &[]],
                    fold_halves::<F>(folds),
                    d,
                    tweak_offset,
                    first_and,
                    tables,
                    f,
                ),
                _ => garble_with(k, w, gates, folds, d, tweak_offset, first_and, tables),
            }
        }
    }

    /// The evaluator's [`garble_fed`].
    ///
    /// # Safety
    /// As [`garble`]; `f` holds at least [`fed_gates`]`(E)` gates whose
    /// offsets address `w` (see [`Feed::one`]).
    #[inline]
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn eval_fed<const F: bool, const E: usize>(
        k: &[__m512i; 11],
        w: &mut [Block],
        gates: &[AndBytes],
        folds: &[[u32; 2]],
        tables: &[Block],
        tweak_offset: u64,
        first_and: u64,
        f: &mut Feed,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe {
            match gates.len() {
                0 => {}
                1..=4 => eval_groups::<1, 2, false, F, E>(
                    k,
                    w,
                    &[],
                    [gates],
                    [&[]],
                    [folds],
                    tables,
                    tweak_offset,
                    first_and,
                    f,
                ),
                5..=8 => eval_groups::<2, 4, false, F, E>(
                    k,
                    w,
                    &[],
                    [&gates[..4], &gates[4..]],
                    [&[], &[]],
                    fold_halves::<F>(folds),
                    tables,
                    tweak_offset,
                    first_and,
                    f,
                ),
                _ => eval_with(k, w, gates, folds, tables, tweak_offset, first_and),
            }
        }
    }

    /// The VAES path of [`super::SlotProgram::garble_stages`]: the whole
    /// stage loop in one function with VAES enabled, so that the kernels
    /// inline into it and the round keys stay in registers across stages
    /// (called per stage from code without AVX-512, as at first, the
    /// garbler lost ~1.5 ns per AND: `garble_floor`, one call over all
    /// ANDs 6.8 against 8.5 with a call per 8-gate stage).
    ///
    /// # Safety
    /// VAES, AVX-512F and AES-NI are available; `w.len() >= prog.bound`;
    /// `range` is a range of stages and `tables` as long as their ANDs'
    /// tables.
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    pub(super) unsafe fn garble_stages(
        prog: &SlotProgram,
        rk: &RoundKeys,
        w: &mut [Block],
        range: std::ops::Range<usize>,
        delta: Block,
        tweak_offset: u64,
        tables: &mut [Block],
    ) {
        // SAFETY: forwarded from the caller.
        unsafe {
            if prog.stages_fold(range.clone()) {
                garble_stages_with::<true>(prog, rk, w, range, delta, tweak_offset, tables)
            } else {
                garble_stages_with::<false>(prog, rk, w, range, delta, tweak_offset, tables)
            }
        }
    }

    /// [`garble_stages`] with (`F`) or without the folded gathers
    /// ([`super::SlotProgram::with_folds`]), chosen per call (a layer
    /// piece) rather than per stage: one stage loop per call keeps the hot
    /// code as small as without folds (a choice per stage doubled the
    /// inlined kernels and measured ~0.5 ns/AND slower on SHA-256).
    ///
    /// # Safety
    /// As [`garble_stages`].
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    unsafe fn garble_stages_with<const F: bool>(
        prog: &SlotProgram,
        rk: &RoundKeys,
        w: &mut [Block],
        range: std::ops::Range<usize>,
        delta: Block,
        tweak_offset: u64,
        tables: &mut [Block],
    ) {
        let ands = prog.stages_ands(range.clone());
        let mut start = prog.stage_start(range.start);
        let stages = &prog.stages[range];
        // SAFETY: forwarded from the caller: slot indices (and the XOR
        // gates' byte offsets) checked in `new` against `prog.bound`, stage
        // ends in `with_stages`, table slices cut from a `tables` that fits.
        unsafe {
            let k = keys(rk);
            let d = broadcast(delta);
            if let Some(st) = stages.first() {
                prog.xors.run(w, start[0] as usize..st[0] as usize);
            }
            for (i, st) in stages.iter().enumerate() {
                let next = st[0] as usize..stages.get(i + 1).map_or(st[0], |n| n[0]) as usize;
                let (a, e) = (start[1] as usize, st[1] as usize);
                let t = &mut tables[2 * (a - ands.start)..2 * (e - ands.start)];
                let mut f = Feed::new(prog.xors.offsets(next.clone()));
                let g = &prog.and_bytes[a..e];
                let fs = if F { prog.folds(a..e) } else { &[] };
                let j = a as u64;
                let (o, t) = (tweak_offset, t);
                match checked(spacing(next.len()), next.len()) {
                    1 => garble_fed::<F, 1>(&k, w, g, fs, d, o, j, t, &mut f),
                    2 => garble_fed::<F, 2>(&k, w, g, fs, d, o, j, t, &mut f),
                    5 => garble_fed::<F, 5>(&k, w, g, fs, d, o, j, t, &mut f),
                    _ => garble_with(&k, w, g, fs, d, o, j, t),
                }
                prog.xors.run(w, next.end - f.left()..next.end);
                start = *st;
            }
        }
    }

    /// The VAES path of [`super::SlotProgram::eval_stages`] (see
    /// [`garble_stages`]).
    ///
    /// # Safety
    /// As [`garble_stages`].
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    pub(super) unsafe fn eval_stages(
        prog: &SlotProgram,
        rk: &RoundKeys,
        w: &mut [Block],
        range: std::ops::Range<usize>,
        tables: &[Block],
        tweak_offset: u64,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe {
            if prog.stages_fold(range.clone()) {
                eval_stages_with::<true>(prog, rk, w, range, tables, tweak_offset)
            } else {
                eval_stages_with::<false>(prog, rk, w, range, tables, tweak_offset)
            }
        }
    }

    /// [`eval_stages`] with or without folds (see [`garble_stages_with`]).
    ///
    /// # Safety
    /// As [`garble_stages`].
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    unsafe fn eval_stages_with<const F: bool>(
        prog: &SlotProgram,
        rk: &RoundKeys,
        w: &mut [Block],
        range: std::ops::Range<usize>,
        tables: &[Block],
        tweak_offset: u64,
    ) {
        let ands = prog.stages_ands(range.clone());
        let mut start = prog.stage_start(range.start);
        let stages = &prog.stages[range];
        // SAFETY: forwarded from the caller.
        unsafe {
            let k = keys(rk);
            if let Some(st) = stages.first() {
                prog.xors.run(w, start[0] as usize..st[0] as usize);
            }
            for (i, st) in stages.iter().enumerate() {
                let next = st[0] as usize..stages.get(i + 1).map_or(st[0], |n| n[0]) as usize;
                let (a, e) = (start[1] as usize, st[1] as usize);
                let t = &tables[2 * (a - ands.start)..2 * (e - ands.start)];
                let mut f = Feed::new(prog.xors.offsets(next.clone()));
                let g = &prog.and_bytes[a..e];
                let fs = if F { prog.folds(a..e) } else { &[] };
                let j = a as u64;
                let o = tweak_offset;
                let spacing = match spacing(next.len()) {
                    0 => 0,
                    e => checked(e.max(EVAL_MIN_SPACING), next.len()),
                };
                match spacing {
                    1 => eval_fed::<F, 1>(&k, w, g, fs, t, o, j, &mut f),
                    2 => eval_fed::<F, 2>(&k, w, g, fs, t, o, j, &mut f),
                    5 => eval_fed::<F, 5>(&k, w, g, fs, t, o, j, &mut f),
                    _ => eval_with(&k, w, g, fs, t, o, j),
                }
                prog.xors.run(w, next.end - f.left()..next.end);
                start = *st;
            }
        }
    }

    /// See [`super::SlotProgram::garble_ands`].
    ///
    /// # Safety
    /// VAES, AVX-512F and AES-NI are available; every slot index of `gates`
    /// is `< w.len()`; `tables.len() == 2 · gates.len()`.
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn garble(
        rk: &RoundKeys,
        w: &mut [Block],
        gates: &[AndBytes],
        folds: &[[u32; 2]],
        delta: Block,
        tweak_offset: u64,
        first_and: u64,
        tables: &mut [Block],
    ) {
        // SAFETY: forwarded; without the cache `p` and the π slots are unused.
        unsafe {
            garble_with(
                &keys(rk),
                w,
                gates,
                folds,
                broadcast(delta),
                tweak_offset,
                first_and,
                tables,
            )
        }
    }

    /// See [`super::SlotProgram::garble_ands_cached`].
    ///
    /// # Safety
    /// As [`garble`], and every π slot `s` of `pis` has `2s + 1 < p.len()`;
    /// `pis.len() == gates.len()`.
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn garble_cached(
        rk: &RoundKeys,
        w: &mut [Block],
        p: &[Block],
        gates: &[AndBytes],
        pis: &[[u32; 4]],
        delta: Block,
        tweak_offset: u64,
        first_and: u64,
        tables: &mut [Block],
    ) {
        let (k, d) = (keys(rk), broadcast(delta));
        // SAFETY: forwarded from the caller.
        unsafe {
            garble_any::<true, false>(
                &k,
                w,
                p,
                gates,
                pis,
                &[],
                d,
                tweak_offset,
                first_and,
                tables,
            )
        }
    }

    /// [`garble`] with the round keys and Δ already in registers (the
    /// stage loop calls this once per stage).
    ///
    /// # Safety
    /// As [`garble`].
    #[inline]
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn garble_with(
        k: &[__m512i; 11],
        w: &mut [Block],
        gates: &[AndBytes],
        folds: &[[u32; 2]],
        d: __m512i,
        tweak_offset: u64,
        first_and: u64,
        tables: &mut [Block],
    ) {
        let (o, j, t) = (tweak_offset, first_and, tables);
        // SAFETY: forwarded; without the cache `p` and the π slots are unused.
        unsafe {
            if folds.is_empty() {
                garble_any::<false, false>(k, w, &[], gates, &[], folds, d, o, j, t)
            } else {
                garble_any::<false, true>(k, w, &[], gates, &[], folds, d, o, j, t)
            }
        }
    }

    /// # Safety
    /// As [`garble_cached`] (π arguments unused unless `C`); if `F`,
    /// `folds` is as long as `gates` and its byte offsets address blocks of `w`.
    #[inline]
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn garble_any<const C: bool, const F: bool>(
        k: &[__m512i; 11],
        w: &mut [Block],
        p: &[Block],
        gates: &[AndBytes],
        pis: &[[u32; 4]],
        folds: &[[u32; 2]],
        d: __m512i,
        tweak_offset: u64,
        first_and: u64,
        tables: &mut [Block],
    ) {
        let pis_at = |r: std::ops::Range<usize>| if C { &pis[r] } else { &[][..] };
        let folds_at = |r: std::ops::Range<usize>| if F { &folds[r] } else { &[][..] };
        let mut j = first_and;
        let mut t = 0;
        let n8 = gates.len() / 8 * 8;
        for i in (0..n8).step_by(8) {
            let c = &gates[i..i + 8];
            // SAFETY: forwarded from the caller.
            unsafe {
                garble_groups::<2, 8, C, F, 0>(
                    k,
                    w,
                    p,
                    [&c[..4], &c[4..]],
                    [pis_at(i..i + 4), pis_at(i + 4..i + 8)],
                    [folds_at(i..i + 4), folds_at(i + 4..i + 8)],
                    d,
                    tweak_offset,
                    j,
                    &mut tables[t..t + 16],
                    &mut Feed::empty(),
                )
            };
            j += 8;
            t += 16;
        }
        // The remainder in one call, so its AES states are in flight together.
        let r = &gates[n8..];
        let t = &mut tables[t..];
        let m = r.len();
        // SAFETY: forwarded from the caller.
        unsafe {
            match m {
                0 => {}
                1..=4 => garble_groups::<1, 4, C, F, 0>(
                    k,
                    w,
                    p,
                    [r],
                    [pis_at(n8..n8 + m)],
                    [folds_at(n8..n8 + m)],
                    d,
                    tweak_offset,
                    j,
                    t,
                    &mut Feed::empty(),
                ),
                _ => garble_groups::<2, 8, C, F, 0>(
                    k,
                    w,
                    p,
                    [&r[..4], &r[4..]],
                    [pis_at(n8..n8 + 4), pis_at(n8 + 4..n8 + m)],
                    [folds_at(n8..n8 + 4), folds_at(n8 + 4..n8 + m)],
                    d,
                    tweak_offset,
                    j,
                    t,
                    &mut Feed::empty(),
                ),
            }
        }
    }

    /// Evaluates `G` groups of 4 gates (see [`garble_groups`]).
    ///
    /// # Safety
    /// As [`garble_groups`].
    #[inline]
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn eval_groups<
        const G: usize,
        const S: usize,
        const C: bool,
        const F: bool,
        const E: usize,
    >(
        k: &[__m512i; 11],
        w: &mut [Block],
        p: &[Block],
        groups: [&[AndBytes]; G],
        pgroups: [&[[u32; 2]]; G],
        fgroups: [&[[u32; 2]]; G],
        tables: &[Block],
        tweak_offset: u64,
        first: u64,
        f: &mut Feed,
    ) {
        debug_assert_eq!(S, 2 * G);
        let l: [[AndBytes; 4]; G] = std::array::from_fn(|g| lanes(groups[g]));
        let fl: [[[u32; 2]; 4]; G] = std::array::from_fn(|g| fold_lanes::<F>(fgroups[g]));
        let mut x = [_mm512_setzero_si512(); S];
        let mut tg = [_mm512_setzero_si512(); G];
        let mut te = [_mm512_setzero_si512(); G];
        let mut t_at = 0;
        for (g, gs) in groups.iter().enumerate() {
            // SAFETY: indices (folds too) checked by the caller.
            x[2 * g] = unsafe { gather_in::<F>(w, &l[g], &fl[g], 0) };
            x[2 * g + 1] = unsafe { gather_in::<F>(w, &l[g], &fl[g], 1) };
            let n = gs.len();
            let t = &tables[t_at..t_at + 2 * n];
            t_at += 2 * n;
            let (mlo, mhi) = table_masks(n);
            // SAFETY: masked loads read only the `2n` blocks of `t`
            // (masked-off qwords are not accessed and read as zero).
            let (lo, hi) = unsafe {
                let p = t.as_ptr().cast::<i64>();
                let hi = if mhi != 0 {
                    _mm512_maskz_loadu_epi64(mhi, p.add(8))
                } else {
                    _mm512_setzero_si512()
                };
                (_mm512_maskz_loadu_epi64(mlo, p), hi)
            };
            tg[g] = _mm512_permutex2var_epi64(lo, _mm512_set_epi64(13, 12, 9, 8, 5, 4, 1, 0), hi);
            te[g] = _mm512_permutex2var_epi64(lo, _mm512_set_epi64(15, 14, 11, 10, 7, 6, 3, 2), hi);
        }
        let held = x;
        if C {
            for (g, ps) in pgroups.iter().enumerate() {
                let n = ps.len();
                // SAFETY: `ps` is not empty (a group has 1..=4 gates).
                let q: [[u32; 2]; 4] =
                    std::array::from_fn(|i| unsafe { *ps.get_unchecked(i.min(n - 1)) });
                let pidx = |h: usize| -> [u32; 4] { [q[0][h], q[1][h], q[2][h], q[3][h]] };
                // SAFETY: π indices checked by the caller.
                unsafe {
                    x[2 * g] = gather(p, pidx(0));
                    x[2 * g + 1] = gather(p, pidx(1));
                }
            }
        } else {
            // SAFETY: the caller's feed contract (its gates address `w`).
            unsafe { aes_rounds_fed!(k, &mut x, f, w.as_mut_ptr(), E) };
        }
        let u = x;
        let mut at = 0u64;
        for g in 0..G {
            let ta = tweaks4(tweak_offset, first + at);
            x[2 * g] = _mm512_xor_si512(u[2 * g], ta);
            x[2 * g + 1] = _mm512_xor_si512(u[2 * g + 1], _mm512_xor_si512(ta, one_lo()));
            at += groups[g].len() as u64;
        }
        // SAFETY: the caller's feed contract (its gates address `w`).
        unsafe { aes_rounds_fed!(k, &mut x, f, w.as_mut_ptr(), E) };
        for (g, gs) in groups.iter().enumerate() {
            let (a, b) = (held[2 * g], held[2 * g + 1]);
            let ha = _mm512_xor_si512(u[2 * g], x[2 * g]);
            let hb = _mm512_xor_si512(u[2 * g + 1], x[2 * g + 1]);
            let wg = _mm512_mask_xor_epi64(ha, colour(a), ha, tg[g]);
            let we = _mm512_mask_xor_epi64(hb, colour(b), hb, _mm512_xor_si512(te[g], a));
            // SAFETY: indices checked by the caller.
            unsafe { scatter_at(w, l[g].map(|s| s.out), gs.len(), _mm512_xor_si512(wg, we)) };
        }
    }

    /// See [`super::SlotProgram::eval_ands`].
    ///
    /// # Safety
    /// As [`garble`].
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    pub(super) unsafe fn eval(
        rk: &RoundKeys,
        w: &mut [Block],
        gates: &[AndBytes],
        folds: &[[u32; 2]],
        tables: &[Block],
        tweak_offset: u64,
        first_and: u64,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { eval_with(&keys(rk), w, gates, folds, tables, tweak_offset, first_and) }
    }

    /// [`eval`] with the round keys already in registers.
    ///
    /// # Safety
    /// As [`garble`].
    #[inline]
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    pub(super) unsafe fn eval_with(
        k: &[__m512i; 11],
        w: &mut [Block],
        gates: &[AndBytes],
        folds: &[[u32; 2]],
        tables: &[Block],
        tweak_offset: u64,
        first_and: u64,
    ) {
        let (o, j) = (tweak_offset, first_and);
        // SAFETY: forwarded; without the cache `p` and the π slots are unused.
        unsafe {
            if folds.is_empty() {
                eval_any::<false, false>(k, w, &[], gates, &[], folds, tables, o, j)
            } else {
                eval_any::<false, true>(k, w, &[], gates, &[], folds, tables, o, j)
            }
        }
    }

    /// See [`super::SlotProgram::eval_ands_cached`].
    ///
    /// # Safety
    /// As [`garble`], and every π slot of `pis` is `< p.len()`;
    /// `pis.len() == gates.len()`.
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn eval_cached(
        rk: &RoundKeys,
        w: &mut [Block],
        p: &[Block],
        gates: &[AndBytes],
        pis: &[[u32; 2]],
        tables: &[Block],
        tweak_offset: u64,
        first_and: u64,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe {
            let k = keys(rk);
            eval_any::<true, false>(&k, w, p, gates, pis, &[], tables, tweak_offset, first_and)
        }
    }

    /// # Safety
    /// As [`eval_cached`] (π arguments unused unless `C`) and
    /// [`garble_any`] (folds).
    #[inline]
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn eval_any<const C: bool, const F: bool>(
        k: &[__m512i; 11],
        w: &mut [Block],
        p: &[Block],
        gates: &[AndBytes],
        pis: &[[u32; 2]],
        folds: &[[u32; 2]],
        tables: &[Block],
        tweak_offset: u64,
        first_and: u64,
    ) {
        let pis_at = |a: usize, b: usize| if C { &pis[a..b] } else { &[][..] };
        let folds_at = |a: usize, b: usize| if F { &folds[a..b] } else { &[][..] };
        let mut j = first_and;
        let mut t = 0;
        let n16 = gates.len() / 16 * 16;
        for i in (0..n16).step_by(16) {
            let c = &gates[i..i + 16];
            // SAFETY: forwarded from the caller.
            unsafe {
                eval_groups::<4, 8, C, F, 0>(
                    k,
                    w,
                    p,
                    [&c[..4], &c[4..8], &c[8..12], &c[12..]],
                    [
                        pis_at(i, i + 4),
                        pis_at(i + 4, i + 8),
                        pis_at(i + 8, i + 12),
                        pis_at(i + 12, i + 16),
                    ],
                    [
                        folds_at(i, i + 4),
                        folds_at(i + 4, i + 8),
                        folds_at(i + 8, i + 12),
                        folds_at(i + 12, i + 16),
                    ],
                    &tables[t..t + 32],
                    tweak_offset,
                    j,
                    &mut Feed::empty(),
                )
            };
            j += 16;
            t += 32;
        }
        let r = &gates[n16..];
        let t = &tables[t..];
        let m = r.len();
        let q = |i: usize| &r[(4 * i).min(m)..(4 * i + 4).min(m)];
        let qp = |i: usize| pis_at(n16 + (4 * i).min(m), n16 + (4 * i + 4).min(m));
        let qf = |i: usize| folds_at(n16 + (4 * i).min(m), n16 + (4 * i + 4).min(m));
        // SAFETY: forwarded from the caller.
        unsafe {
            match m.div_ceil(4) {
                0 => {}
                1 => eval_groups::<1, 2, C, F, 0>(
                    k,
                    w,
                    p,
                    [r],
                    [qp(0)],
                    [qf(0)],
                    t,
                    tweak_offset,
                    j,
                    &mut Feed::empty(),
                ),
                2 => eval_groups::<2, 4, C, F, 0>(
                    k,
                    w,
                    p,
                    [q(0), q(1)],
                    [qp(0), qp(1)],
                    [qf(0), qf(1)],
                    t,
                    tweak_offset,
                    j,
                    &mut Feed::empty(),
                ),
                3 => eval_groups::<3, 6, C, F, 0>(
                    k,
                    w,
                    p,
                    [q(0), q(1), q(2)],
                    [qp(0), qp(1), qp(2)],
                    [qf(0), qf(1), qf(2)],
                    t,
                    tweak_offset,
                    j,
                    &mut Feed::empty(),
                ),
                _ => eval_groups::<4, 8, C, F, 0>(
                    k,
                    w,
                    p,
                    [q(0), q(1), q(2), q(3)],
                    [qp(0), qp(1), qp(2), qp(3)],
                    [qf(0), qf(1), qf(2), qf(3)],
                    t,
                    tweak_offset,
                    j,
                    &mut Feed::empty(),
                ),
            }
        }
    }

    /// π jobs: `p[2s] = π(w[l])`, `p[2s+1] = π(w[l] ⊕ Δ)` (`D`, the
    /// garbler) or `p[s] = π(w[l])`, 16 jobs (garbler) or 32 (evaluator)
    /// = 8 ZMM states in flight per step.
    ///
    /// # Safety
    /// VAES, AVX-512F and AES-NI are available; for every job `[l, s]`,
    /// `l < w.len()` and `2s + 1 < p.len()` (`D`) or `s < p.len()`.
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    pub(super) unsafe fn pis<const D: bool>(
        rk: &RoundKeys,
        w: &[Block],
        p: &mut [Block],
        jobs: &[[u32; 2]],
        delta: Block,
    ) {
        let k = keys(rk);
        let d = _mm512_broadcast_i32x4(ld(delta));
        const P: usize = 8;
        let per = if D { 4 * P / 2 } else { 4 * P };
        for js in jobs.chunks(per) {
            // Short chunks repeat their last job in the spare lanes: writing
            // the same π to the same slot twice is harmless, and every loop
            // below then has a constant trip count (states stay in registers).
            let n = js.len();
            let job = |i: usize| js[i.min(n - 1)];
            let mut x = [_mm512_setzero_si512(); P];
            for g in 0..(if D { P / 2 } else { P }) {
                let idx: [u32; 4] = std::array::from_fn(|i| job(4 * g + i)[0]);
                // SAFETY: indices in bounds by the caller.
                let v = unsafe { gather(w, idx) };
                if D {
                    x[2 * g] = v;
                    x[2 * g + 1] = _mm512_xor_si512(v, d);
                } else {
                    x[g] = v;
                }
            }
            aes_rounds(&k, &mut x);
            for g in 0..(if D { P / 2 } else { P }) {
                let s: [u32; 4] = std::array::from_fn(|i| job(4 * g + i)[1]);
                // SAFETY: indices in bounds by the caller.
                unsafe {
                    if D {
                        scatter(p, s.map(|s| 2 * s), 4, x[2 * g]);
                        scatter(p, s.map(|s| 2 * s + 1), 4, x[2 * g + 1]);
                    } else {
                        scatter(p, s, 4, x[g]);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::tccr;
    use crate::prg::Prg;

    /// The ZRE15 equations for one gate, written out with the scalar hash.
    fn reference(a0: Block, b0: Block, d: Block, t: Block) -> (Block, [Block; 2]) {
        let t1 = t ^ Block(1);
        let (ha0, ha1) = (tccr(a0, t), tccr(a0 ^ d, t));
        let (hb0, hb1) = (tccr(b0, t1), tccr(b0 ^ d, t1));
        let tg = ha0 ^ ha1 ^ d.and_bit(b0.lsb());
        let te = hb0 ^ hb1 ^ a0;
        let wg = ha0 ^ tg.and_bit(a0.lsb());
        let we = hb0 ^ (te ^ a0).and_bit(b0.lsb());
        (wg ^ we, [tg, te])
    }

    fn random_program(p: &mut Prg, slots: usize, n: usize) -> SlotProgram {
        // Inputs from the first half, outputs distinct in the second half.
        let half = (slots / 2) as u32;
        let ands = (0..n as u32)
            .map(|i| {
                let r = p.random_block().0;
                let a = (r as u32) % half;
                // Distinct inputs, so the test can give them independent values.
                let b = (a + 1 + ((r >> 32) as u32) % (half - 1)) % half;
                AndSlots {
                    a,
                    b,
                    out: half + i,
                    flip: ((r >> 64) & 3) as u32,
                }
            })
            .collect();
        SlotProgram::new(slots, SlotXors::new(vec![[0, 1, 3, 2]]), ands).unwrap()
    }

    #[test]
    fn kernels_match_the_equations_and_each_other() {
        let mut p = Prg::from_seed(Block(21));
        for n in [0usize, 1, 3, 4, 5, 8, 9, 13, 16, 17, 31, 40, 100] {
            let slots = 2 * n + 2 * 64;
            let prog = random_program(&mut p, slots, n);
            let d = p.random_block().with_lsb(true);
            let w0 = p.random_blocks(slots);
            let (off, first) = (7u64, 1000 + n as u64);
            let (mut wf, mut wp) = (w0.clone(), w0.clone());
            let (mut tf, mut tp) = (vec![Block::ZERO; 2 * n], vec![Block::ZERO; 2 * n]);
            prog.garble_ands(&mut wf, 0..n, d, off, first, &mut tf);
            prog.garble_ands_portable(&mut wp, 0..n, d, off, first, &mut tp);
            assert_eq!(tf, tp, "tables, n = {n}");
            assert_eq!(wf, wp, "labels, n = {n}");
            for (i, g) in prog.ands().iter().enumerate() {
                let a0 = w0[g.a as usize] ^ d.and_bit(g.flip & 1 == 1);
                let b0 = w0[g.b as usize] ^ d.and_bit(g.flip & 2 == 2);
                let (c0, t) = reference(a0, b0, d, and_tweak(off, first + i as u64));
                assert_eq!(t, [tf[2 * i], tf[2 * i + 1]], "gate {i}");
                assert_eq!(wf[g.out as usize], c0, "gate {i}");
                // Evaluate on random input values, both backends.
                let (x, y) = (p.random_block().lsb(), p.random_block().lsb());
                let mut we = w0.clone();
                we[g.a as usize] = a0 ^ d.and_bit(x);
                we[g.b as usize] = b0 ^ d.and_bit(y);
                let mut we2 = we.clone();
                prog.eval_ands(
                    &mut we,
                    i..i + 1,
                    &tf[2 * i..2 * i + 2],
                    off,
                    first + i as u64,
                );
                prog.eval_ands_portable(
                    &mut we2,
                    i..i + 1,
                    &tf[2 * i..2 * i + 2],
                    off,
                    first + i as u64,
                );
                assert_eq!(we[g.out as usize], c0 ^ d.and_bit(x && y));
                assert_eq!(we2[g.out as usize], c0 ^ d.and_bit(x && y));
            }
            // Whole-range evaluation: both backends agree on arbitrary labels.
            let (mut ef, mut ep) = (w0.clone(), w0.clone());
            prog.eval_ands(&mut ef, 0..n, &tf, off, first);
            prog.eval_ands_portable(&mut ep, 0..n, &tf, off, first);
            assert_eq!(ef, ep, "eval, n = {n}");
        }
    }

    /// Folds for `prog`'s gates over slots `0..half` (about two thirds of
    /// the inputs fold, the rest name `zero`); every fifth gate reads one
    /// folded value on both inputs (`a = b`, same fold), as an AND of a
    /// root with itself.
    fn random_folds(p: &mut Prg, prog: &SlotProgram, half: u32, zero: u32) -> SlotProgram {
        let mut ands = prog.ands().to_vec();
        let folds = ands
            .iter_mut()
            .enumerate()
            .map(|(i, g)| {
                let r = p.random_block().0;
                let pick = |k: u32| match (r >> (8 * k)) % 3 {
                    0 => zero,
                    _ => ((r >> (32 + 16 * k)) as u32) % half,
                };
                let f = [pick(0), pick(1)];
                if i % 5 == 0 {
                    g.b = g.a;
                    [f[0], f[0]]
                } else {
                    f
                }
            })
            .collect();
        SlotProgram::new(prog.bound(), prog.xors().clone(), ands)
            .unwrap()
            .with_folds(folds, zero)
            .unwrap()
    }

    /// The unfolded program equivalent to folded `prog` on `w`: every AND
    /// input gets a slot of its own after `w`'s, holding `w[a] ⊕ w[fold]`.
    fn materialized(prog: &SlotProgram, w: &[Block]) -> (SlotProgram, Vec<Block>) {
        let n = prog.ands().len();
        let mut wm = w.to_vec();
        let folds = prog.folds(0..n);
        let ands = prog
            .ands()
            .iter()
            .zip(folds)
            .enumerate()
            .map(|(i, (g, f))| {
                wm.push(w[g.a as usize] ^ w[f[0] as usize / 16]);
                wm.push(w[g.b as usize] ^ w[f[1] as usize / 16]);
                let m = (w.len() + 2 * i) as u32;
                AndSlots {
                    a: m,
                    b: m + 1,
                    ..*g
                }
            })
            .collect();
        let prog = SlotProgram::new(wm.len(), SlotXors::default(), ands).unwrap();
        (prog, wm)
    }

    #[test]
    fn folded_inputs_match_the_equations_and_the_unfolded_kernels() {
        let mut p = Prg::from_seed(Block(24));
        for n in [1usize, 3, 4, 5, 8, 9, 13, 16, 17, 31, 40, 100] {
            let slots = 2 * n + 2 * 64;
            let half = (slots / 2) as u32;
            // Outputs are `half..half + n`; the last slot stays zero.
            let zero = slots as u32 - 1;
            let plain = random_program(&mut p, slots, n);
            let prog = random_folds(&mut p, &plain, half, zero);
            let d = p.random_block().with_lsb(true);
            let mut w0 = p.random_blocks(slots);
            w0[zero as usize] = Block::ZERO;
            let (off, first) = (5u64, 300 + n as u64);
            let (plain, wm0) = materialized(&prog, &w0);
            let mut wm = wm0.clone();
            let mut tm = vec![Block::ZERO; 2 * n];
            plain.garble_ands(&mut wm, 0..n, d, off, first, &mut tm);
            for portable in [false, true] {
                let mut w = w0.clone();
                let mut t = vec![Block::ZERO; 2 * n];
                if portable {
                    prog.garble_ands_portable(&mut w, 0..n, d, off, first, &mut t);
                } else {
                    prog.garble_ands(&mut w, 0..n, d, off, first, &mut t);
                }
                assert_eq!(t, tm, "tables, n = {n}, portable {portable}");
                assert_eq!(w[..], wm[..slots], "labels, n = {n}, portable {portable}");
                let mut e = w0.clone();
                let mut em = wm0.clone();
                plain.eval_ands(&mut em, 0..n, &tm, off, first);
                if portable {
                    prog.eval_ands_portable(&mut e, 0..n, &tm, off, first);
                } else {
                    prog.eval_ands(&mut e, 0..n, &tm, off, first);
                }
                assert_eq!(e[..], em[..slots], "eval, n = {n}, portable {portable}");
            }
            // And the equations, with the folded value as the input.
            for (i, (g, f)) in prog.ands().iter().zip(prog.folds(0..n)).enumerate() {
                let x = |s: u32, f: u32, bit: u32| {
                    w0[s as usize] ^ w0[f as usize / 16] ^ d.and_bit(g.flip & bit != 0)
                };
                let (a0, b0) = (x(g.a, f[0], 1), x(g.b, f[1], 2));
                let (c0, tt) = reference(a0, b0, d, and_tweak(off, first + i as u64));
                assert_eq!(tt, [tm[2 * i], tm[2 * i + 1]], "gate {i}");
                assert_eq!(wm[g.out as usize], c0, "gate {i}");
            }
        }
        // Folds are checked like the gates, and exclude a π cache.
        let prog = SlotProgram::new(4, SlotXors::default(), vec![AndSlots::default()]).unwrap();
        assert!(prog.clone().with_folds(vec![], 3).is_err());
        assert!(prog.clone().with_folds(vec![[0, 4]], 3).is_err());
        assert!(prog.clone().with_folds(vec![[0, 1]], 4).is_err());
        assert!(prog.clone().with_folds(vec![[0, 1]], 3).is_ok());
        let cached = prog.clone().with_pi_cache(1, vec![[0, 0]], vec![[0, 0]]);
        assert!(cached.unwrap().with_folds(vec![[0, 1]], 3).is_err());
        let folded = prog.with_folds(vec![[0, 1]], 3).unwrap();
        assert!(folded.with_pi_cache(1, vec![[0, 0]], vec![[0, 0]]).is_err());
    }

    #[test]
    fn pi_cache_gives_the_same_tables_and_labels() {
        let mut p = Prg::from_seed(Block(22));
        for n in [1usize, 3, 4, 5, 8, 9, 13, 16, 17, 31, 33, 100] {
            let slots = 2 * n + 2 * 64;
            let half = slots / 2;
            let plain = random_program(&mut p, slots, n);
            // π slot k caches label slot k (all input slots, fed by jobs in
            // a scrambled order so job i and slot i differ).
            let jobs: Vec<[u32; 2]> = (0..half as u32)
                .rev()
                .map(|l| [l, (l + 5) % half as u32])
                .collect();
            let pis: Vec<[u32; 2]> = plain
                .ands()
                .iter()
                .map(|g| [(g.a + 5) % half as u32, (g.b + 5) % half as u32])
                .collect();
            let prog = plain
                .clone()
                .with_pi_cache(half, jobs.clone(), pis)
                .unwrap();
            let d = p.random_block().with_lsb(true);
            let w0 = p.random_blocks(slots);
            let (off, first) = (3u64, 77 + n as u64);
            let mut w_ref = w0.clone();
            let mut t_ref = vec![Block::ZERO; 2 * n];
            plain.garble_ands(&mut w_ref, 0..n, d, off, first, &mut t_ref);
            for portable in [false, true] {
                let mut pv = vec![Block::ZERO; 2 * half];
                let mut w = w0.clone();
                let mut t = vec![Block::ZERO; 2 * n];
                if portable {
                    prog.pis_portable(&w, &mut pv, 0..jobs.len(), Some(d));
                    prog.garble_ands_cached_portable(&mut w, &pv, 0..n, d, off, first, &mut t);
                } else {
                    prog.garble_pis(&w, &mut pv, 0..jobs.len(), d);
                    prog.garble_ands_cached(&mut w, &pv, 0..n, d, off, first, &mut t);
                }
                assert_eq!(t, t_ref, "tables, n = {n}, portable {portable}");
                assert_eq!(w, w_ref, "labels, n = {n}, portable {portable}");
                // Evaluation on arbitrary labels agrees with the plain kernel.
                let mut e_ref = w0.clone();
                plain.eval_ands(&mut e_ref, 0..n, &t_ref, off, first);
                let mut pe = vec![Block::ZERO; half];
                let mut e = w0.clone();
                if portable {
                    prog.pis_portable(&e, &mut pe, 0..jobs.len(), None);
                    prog.eval_ands_cached_portable(&mut e, &pe, 0..n, &t_ref, off, first);
                } else {
                    prog.eval_pis(&e, &mut pe, 0..jobs.len());
                    prog.eval_ands_cached(&mut e, &pe, 0..n, &t_ref, off, first);
                }
                assert_eq!(e, e_ref, "eval, n = {n}, portable {portable}");
            }
        }
        let prog = SlotProgram::new(4, SlotXors::default(), vec![AndSlots::default()]).unwrap();
        assert!(prog
            .clone()
            .with_pi_cache(2, vec![[4, 0]], vec![[0, 0]])
            .is_err());
        assert!(prog
            .clone()
            .with_pi_cache(2, vec![[3, 2]], vec![[0, 0]])
            .is_err());
        assert!(prog.clone().with_pi_cache(2, vec![], vec![[0, 2]]).is_err());
        assert!(prog.clone().with_pi_cache(2, vec![], vec![]).is_err());
        assert!(prog.with_pi_cache(2, vec![[3, 1]], vec![[0, 1]]).is_ok());
    }

    #[test]
    fn stages_match_the_portable_backend() {
        let mut p = Prg::from_seed(Block(23));
        let slots = 2 * 100 + 2 * 64;
        let half = (slots / 2) as u32;
        let plain = random_program(&mut p, slots, 100);
        // XORs over the input half only (AND outputs must not be inputs of
        // their own stage), in stages of 0..=9 ANDs with 0..=30 XORs
        // before: every feed spacing of the VAES kernels (a gate after
        // every round, every second, every fifth, none) and leftovers.
        let nx = 700;
        let xors: Vec<[u32; 4]> = (0..nx)
            .map(|_| {
                let r = p.random_block().0;
                std::array::from_fn(|k| ((r >> (20 * k)) as u32) % half)
            })
            .collect();
        let mut ends = Vec::new();
        let (mut x, mut a) = (0u32, 0u32);
        while a < 100 {
            let r = p.random_block().0;
            x = (x + (r % 31) as u32).min(nx);
            a = (a + ((r >> 8) % 10) as u32).min(100);
            ends.push([x, a]);
        }
        ends.push([nx, 100]);
        let prog = SlotProgram::new(slots, SlotXors::new(xors), plain.ands().to_vec())
            .unwrap()
            .with_stages(ends.clone())
            .unwrap();
        // The same with folded AND inputs (over the input half; the last
        // slot, above the outputs, stays zero), except in every third
        // stage, so that calls with and without folds both occur.
        let zero = slots as u32 - 1;
        let folded = random_folds(&mut p, &prog, half, zero);
        let mut folds = folded.folds(0..100).to_vec();
        for (s, e) in ends.iter().enumerate().filter(|(s, _)| s % 3 == 0) {
            let a = if s == 0 { 0 } else { ends[s - 1][1] as usize };
            for f in &mut folds[a..e[1] as usize] {
                *f = [16 * zero; 2];
            }
        }
        let folded = SlotProgram::new(slots, prog.xors().clone(), folded.ands().to_vec())
            .unwrap()
            .with_stages(ends.clone())
            .unwrap()
            .with_folds(folds.iter().map(|f| f.map(|o| o / 16)).collect(), zero)
            .unwrap();
        assert!(
            folded.stages_fold(0..ends.len()),
            "{:?}",
            folded.fold_stages
        );
        assert!(!folded.stages_fold(0..1), "{:?}", folded.fold_stages);
        for prog in [prog, folded] {
            stages_agree(&mut p, &prog, slots, &ends, nx);
        }
    }

    /// [`SlotProgram::garble_stages`] and `eval_stages` on VAES (if the
    /// CPU has it) and portable kernels, and stage by stage, agree on
    /// `prog`, whose output slots no XOR gate touches.
    fn stages_agree(p: &mut Prg, prog: &SlotProgram, slots: usize, ends: &[[u32; 2]], nx: u32) {
        let d = p.random_block().with_lsb(true);
        let mut w0 = p.random_blocks(slots);
        w0[slots - 1] = Block::ZERO;
        let n = ends.len();
        for (lo, hi) in [(0, n), (0, n / 2), (n / 3, n), (2, 2), (0, 1)] {
            let ands = prog.stages_ands(lo..hi);
            let t_len = 2 * ands.len();
            let (mut wf, mut wp) = (w0.clone(), w0.clone());
            let (mut tf, mut tp) = (vec![Block::ZERO; t_len], vec![Block::ZERO; t_len]);
            prog.garble_stages(&mut wf, lo..hi, d, 9, &mut tf);
            prog.garble_stages_portable(&mut wp, lo..hi, d, 9, &mut tp);
            assert_eq!(tf, tp, "tables, stages {lo}..{hi}");
            assert_eq!(wf, wp, "labels, stages {lo}..{hi}");
            let (mut ef, mut ep) = (w0.clone(), w0.clone());
            prog.eval_stages(&mut ef, lo..hi, &tf, 9);
            prog.eval_stages_portable(&mut ep, lo..hi, &tf, 9);
            assert_eq!(ef, ep, "eval, stages {lo}..{hi}");
        }
        // Garbling all stages is the XORs and AND batches run in turn.
        let mut w = w0.clone();
        let mut t = vec![Block::ZERO; 200];
        for s in 0..n {
            prog.run_xors(&mut w, prog.stage_xors(s));
            let r = prog.stages_ands(s..s + 1);
            let first = r.start as u64;
            let tt = &mut t[2 * r.start..2 * r.end];
            prog.garble_ands(&mut w, r, d, 9, first, tt);
        }
        let mut wf = w0.clone();
        let mut tf = vec![Block::ZERO; 200];
        prog.garble_stages(&mut wf, 0..n, d, 9, &mut tf);
        assert_eq!((w, t), (wf, tf));
        // Stage ends must not decrease or pass the gate counts.
        let bad = |e: Vec<[u32; 2]>| prog.clone().with_stages(e).is_err();
        assert!(bad(vec![[3, 4], [2, 5]]));
        assert!(bad(vec![[3, 4], [3, 3]]));
        assert!(bad(vec![[nx + 1, 100]]));
        assert!(bad(vec![[nx, 101]]));
        assert!(!bad(vec![[0, 0], [nx, 100]]));
    }

    #[test]
    fn xors_and_bounds() {
        // Slot 3 stays zero: the plan's padding for 2-input gates.
        let x = SlotXors::new(vec![[0, 1, 3, 2], [2, 3, 1, 0]]);
        let prog = SlotProgram::new(4, x, vec![]).unwrap();
        let mut w = vec![Block(1), Block(2), Block(0), Block(0)];
        prog.run_xors(&mut w, 0..2);
        assert_eq!(w, vec![Block(1), Block(2), Block(3), Block(0)]);
        let mut w2 = vec![Block(1), Block(2), Block(0), Block(0)];
        prog.run_xors_portable(&mut w2, 0..2);
        assert_eq!(w, w2);
        let x = SlotXors::new(vec![[0, 4, 1, 1]]);
        assert!(SlotProgram::new(4, x, vec![]).is_err());
        let bad = AndSlots {
            a: 0,
            b: 1,
            out: 9,
            flip: 0,
        };
        assert!(SlotProgram::new(4, SlotXors::default(), vec![bad]).is_err());
        // Another program's gates are checked against the new bound.
        let big = SlotProgram::new(64, SlotXors::new(vec![[0, 1, 2, 63]]), vec![]).unwrap();
        assert!(SlotProgram::new(4, big.xors().clone(), vec![]).is_err());
        assert!(SlotProgram::new(64, big.xors().clone(), vec![]).is_ok());
    }

    #[test]
    #[should_panic(expected = "label vector")]
    fn short_label_vector_panics() {
        let prog = SlotProgram::new(4, SlotXors::new(vec![[0, 1, 2, 3]]), vec![]).unwrap();
        prog.run_xors(&mut [Block::ZERO; 3], 0..1);
    }
}
