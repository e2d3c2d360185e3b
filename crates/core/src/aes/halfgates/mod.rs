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
    /// Per stage, its AND records as the VAES stage kernels' lanes (see
    /// [`StageLanes`]); as many as `stages`.
    stage_lanes: Vec<StageLanes>,
    /// Per stage, its fold records likewise; empty without folds.
    stage_fold_lanes: Vec<StageFolds>,
}

/// A stage's AND records (stages of 1..=8 gates) in the VAES kernels'
/// two groups of four lanes, padded by repeating the stage's last gate
/// (the kernels drop the padding lanes' results); all zero, and never
/// read, for stages of 0 or more than 8 gates. Made once, after the
/// bound checks, so that the stage loops spend no per-lane index
/// arithmetic, masks or branches on a stage's size: with them (clamped
/// lane indices, a store loop and table masks per group), an 8-AND
/// evaluator stage without XORs cost ~4.1–4.5 ns/AND in `garble_floor`
/// against ~3.1–3.4 with the sizes constant.
type StageLanes = [[AndBytes; 4]; 2];

/// [`StageLanes`] for the fold records (byte offsets).
type StageFolds = [[[u32; 2]; 4]; 2];

/// `gs` (1..=8 records) in two groups of four lanes, padded with the
/// last; all default otherwise.
fn stage_lanes<T: Copy + Default>(gs: &[T]) -> [[T; 4]; 2] {
    match gs.len() {
        0 | 9.. => Default::default(),
        n => std::array::from_fn(|g| std::array::from_fn(|i| gs[(4 * g + i).min(n - 1)])),
    }
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
    /// counts, and the AND gates of a stage's 4-gate group (stages of up
    /// to 8) must write distinct slots; anything else is [`Error::Config`].
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
        // The VAES stage kernels store a group's four lanes last lane
        // first (padding lanes repeat the last gate); that equals the
        // portable twin's gate-by-gate stores only if the real gates of a
        // 4-gate group write distinct slots.
        let mut start = 0usize;
        for e in &ends {
            let stage = &self.ands[start..e[1] as usize];
            if stage.len() <= 8 {
                for group in stage.chunks(4) {
                    for (i, g) in group.iter().enumerate() {
                        if group[..i].iter().any(|h| h.out == g.out) {
                            return Err(Error::config(format!(
                                "two AND gates of one stage group write slot {}",
                                g.out
                            )));
                        }
                    }
                }
            }
            start = e[1] as usize;
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

    /// Also makes the stage lanes ([`StageLanes`]) from the checked records.
    fn mark_fold_stages(&mut self) {
        self.stage_lanes = (0..self.stages.len())
            .map(|s| stage_lanes(&self.and_bytes[self.stages_ands(s..s + 1)]))
            .collect();
        self.stage_fold_lanes = if self.folds.is_empty() {
            Vec::new()
        } else {
            (0..self.stages.len())
                .map(|s| stage_lanes(&self.folds[self.stages_ands(s..s + 1)]))
                .collect()
        };
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
    /// of the previous stage's group. `brickyard_garble`'s plan keeps
    /// that within a layer piece (a piece's XORs never read its AND
    /// outputs, and its slots are freed at the end of the piece) and
    /// across the pieces a walk step joins (each piece ends in an AND-less
    /// tail stage, so the next piece's first XORs follow no group); its
    /// tests check it on every stage (`assert_feed_invariants`).
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

mod lanes;
mod portable;
use portable::*;

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;
#[cfg(target_arch = "x86_64")]
mod x86_256;

#[cfg(test)]
mod tests;
