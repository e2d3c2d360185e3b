//! One slot program over several garbled copies at once, their labels
//! interleaved *wire-major*: slot `s` of copy `c` is block `s·L + c` of
//! one vector, `L` the (even) number of lanes.
//!
//! Why: cut-and-choose evaluates `B` garblings of one circuit (Lindell–Riva's
//! buckets). One copy at a time, an AND stage hashes at most 8 gates and its
//! two dependent AES passes wait on each other; a 128-bit XOR gate is a few
//! instructions of index work for one block of data. With the copies side
//! by side, a gate's inputs in copies `c, c+1` are adjacent, so one YMM
//! register holds both: an XOR gate of all copies is `L/2` 256-bit XORs, and
//! an AND stage gives the VAES kernel `L/2 ×` the stage's gates in flight.
//!
//! Per copy the gate order, tweaks and equations are those of
//! [`SlotProgram::eval_ands`] (copy `c` uses its own `tweak_offset` and
//! tables), so the labels equal evaluating each copy alone; tests check the
//! kernel, its portable twin and the one-copy kernels agree.

use super::*;

/// Checks of the lane layout shared by every entry point (internal
/// buffers: a mismatch is a bug, hence panics).
fn check_lanes(prog: &SlotProgram, w: &[Block], lanes: usize) {
    assert!(
        lanes >= 2 && lanes.is_multiple_of(2),
        "lanes must be even and ≥ 2, got {lanes}"
    );
    assert!(
        w.len() >= prog.bound * lanes,
        "label vector of {} blocks for {lanes} lanes of {} slots",
        w.len(),
        prog.bound
    );
}

impl SlotProgram {
    /// Runs XOR gates `range` on every lane of `w` (slot `s` of lane `c`
    /// at `w[s·lanes + c]`).
    ///
    /// # Panics
    /// If `lanes` is odd or 0, `w` shorter than `bound · lanes`, or `range`
    /// out of bounds.
    pub fn run_xors_lanes(&self, w: &mut [Block], lanes: usize, range: Range<usize>) {
        check_lanes(self, w, lanes);
        let gates = self.xors.offsets(range);
        #[cfg(target_arch = "x86_64")]
        if fixed_key().vaes256_keys().is_some() {
            // SAFETY: `vaes256_keys` is `Some` only when AVX2 (and VAES,
            // AES-NI) were detected; `check_lanes` checked `lanes` even
            // and `w.len() ≥ bound · lanes`, and `validate` every offset
            // `16 · s` with `s < bound`, so every lane of every slot is
            // within `w`.
            unsafe { x86_256::xors_lanes(w, lanes, gates) };
            return;
        }
        xors_lanes_portable(w, lanes, gates)
    }

    /// [`SlotProgram::run_xors_lanes`] on the portable backend.
    pub fn run_xors_lanes_portable(&self, w: &mut [Block], lanes: usize, range: Range<usize>) {
        check_lanes(self, w, lanes);
        xors_lanes_portable(w, lanes, self.xors.offsets(range))
    }

    /// Evaluates AND gates `range` (global AND indices `first_and..`) on
    /// every lane of `w`: lane `c` reads `tables[c]` (`2 · range.len()`
    /// blocks, its garbler's tables of these gates) under tweak offset
    /// `offsets[c]`. As [`SlotProgram::eval_ands`], outputs are written
    /// after the inputs they would overwrite were read only if no output
    /// slot of the range is one of its input slots (the plan's guarantee).
    ///
    /// # Panics
    /// As [`SlotProgram::run_xors_lanes`], or if `tables` / `offsets` are
    /// not one per lane or a table slice has the wrong length.
    pub fn eval_ands_lanes(
        &self,
        w: &mut [Block],
        lanes: usize,
        range: Range<usize>,
        tables: &[&[Block]],
        offsets: &[u64],
        first_and: u64,
    ) {
        let (gates, folds) = self.check_and_lanes(w, lanes, range, tables, offsets);
        #[cfg(target_arch = "x86_64")]
        if let Some(rk) = fixed_key().vaes256_keys() {
            // SAFETY: `vaes256_keys` is `Some` only when VAES, AVX2 and
            // AES-NI were detected; the kernel indexes through checked
            // slices (lengths checked above).
            unsafe { x86_256::eval_lanes(rk, w, lanes, gates, folds, tables, offsets, first_and) };
            return;
        }
        eval_lanes_portable(w, lanes, gates, folds, tables, offsets, first_and)
    }

    /// [`SlotProgram::eval_ands_lanes`] on the portable backend.
    pub fn eval_ands_lanes_portable(
        &self,
        w: &mut [Block],
        lanes: usize,
        range: Range<usize>,
        tables: &[&[Block]],
        offsets: &[u64],
        first_and: u64,
    ) {
        let (gates, folds) = self.check_and_lanes(w, lanes, range, tables, offsets);
        eval_lanes_portable(w, lanes, gates, folds, tables, offsets, first_and)
    }

    /// Runs stages `range` (each: its XOR gates, then its AND gates) on
    /// every lane of `w`, as [`SlotProgram::run_xors_lanes`] and
    /// [`SlotProgram::eval_ands_lanes`] stage by stage would: lane `c`
    /// reads `tables[c]` (the tables of all the range's AND gates, global
    /// indices [`SlotProgram::stages_ands`]) under `offsets[c]`.
    ///
    /// Why one call for many stages: a stage has at most 8 AND gates, so
    /// a call per stage paid its checks, the round keys' broadcast and the
    /// callers' per-stage table slicing every 8 gates; here they are paid
    /// once per walk step.
    ///
    /// # Panics
    /// As [`SlotProgram::eval_ands_lanes`], or if `range` is not a range
    /// of stages.
    pub fn eval_stages_lanes(
        &self,
        w: &mut [Block],
        lanes: usize,
        range: Range<usize>,
        tables: &[&[Block]],
        offsets: &[u64],
    ) {
        self.check_stage_lanes(w, lanes, range.clone(), tables, offsets);
        #[cfg(target_arch = "x86_64")]
        if lanes == 2 {
            if let Some(rk) = fixed_key().vaes512_keys() {
                // SAFETY: `vaes512_keys` is `Some` only when VAES,
                // AVX-512F and AES-NI were detected; `check_stage_lanes`
                // checked `w` at least `2 · bound` blocks and two table
                // slices of the range's length.
                unsafe {
                    x86::pair::eval_stages_pair(
                        self,
                        rk,
                        w,
                        range,
                        [tables[0], tables[1]],
                        [offsets[0], offsets[1]],
                    )
                };
                return;
            }
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(rk) = fixed_key().vaes256_keys() {
            // SAFETY: `vaes256_keys` is `Some` only when VAES, AVX2 and
            // AES-NI were detected; `check_stage_lanes` checked `lanes`
            // even, `w` at least `bound · lanes` blocks (every validated
            // XOR offset `16 · s`, `s < bound`, then addresses a whole
            // lane group inside `w`), and one table slice per lane of
            // the range's length; the AND kernel indexes checked slices.
            unsafe { x86_256::eval_stages_lanes(self, rk, w, lanes, range, tables, offsets) };
            return;
        }
        self.stages_lanes_portable(w, lanes, range, tables, offsets)
    }

    /// [`SlotProgram::eval_stages_lanes`] on the portable backend.
    pub fn eval_stages_lanes_portable(
        &self,
        w: &mut [Block],
        lanes: usize,
        range: Range<usize>,
        tables: &[&[Block]],
        offsets: &[u64],
    ) {
        self.check_stage_lanes(w, lanes, range.clone(), tables, offsets);
        self.stages_lanes_portable(w, lanes, range, tables, offsets)
    }

    fn stages_lanes_portable(
        &self,
        w: &mut [Block],
        lanes: usize,
        range: Range<usize>,
        tables: &[&[Block]],
        offsets: &[u64],
    ) {
        let first = self.stages_ands(range.clone()).start;
        let mut sub: Vec<&[Block]> = Vec::with_capacity(lanes);
        for s in range {
            xors_lanes_portable(w, lanes, self.xors.offsets(self.stage_xors(s)));
            let r = self.stages_ands(s..s + 1);
            let t = TABLE_BLOCKS * (r.start - first)..TABLE_BLOCKS * (r.end - first);
            sub.clear();
            sub.extend(tables.iter().map(|x| &x[t.clone()]));
            let (gates, folds) = (&self.and_bytes[r.clone()], self.folds(r.clone()));
            eval_lanes_portable(w, lanes, gates, folds, &sub, offsets, r.start as u64);
        }
    }

    fn check_stage_lanes(
        &self,
        w: &[Block],
        lanes: usize,
        range: Range<usize>,
        tables: &[&[Block]],
        offsets: &[u64],
    ) {
        check_lanes(self, w, lanes);
        assert!(
            range.start <= range.end && range.end <= self.stages.len(),
            "stages {range:?} of {}",
            self.stages.len()
        );
        let n = self.stages_ands(range).len();
        assert!(
            tables.len() == lanes && offsets.len() == lanes,
            "{} table slices and {} offsets for {lanes} lanes",
            tables.len(),
            offsets.len()
        );
        assert!(
            tables.iter().all(|t| t.len() == TABLE_BLOCKS * n),
            "table length"
        );
    }

    fn check_and_lanes(
        &self,
        w: &[Block],
        lanes: usize,
        range: Range<usize>,
        tables: &[&[Block]],
        offsets: &[u64],
    ) -> (&[AndBytes], &[[u32; 2]]) {
        check_lanes(self, w, lanes);
        let n = range.len();
        assert!(
            tables.len() == lanes && offsets.len() == lanes,
            "{} table slices and {} offsets for {lanes} lanes",
            tables.len(),
            offsets.len()
        );
        assert!(
            tables.iter().all(|t| t.len() == TABLE_BLOCKS * n),
            "table length"
        );
        let folds = self.folds(range.clone());
        (&self.and_bytes[range], folds)
    }
}

fn xors_lanes_portable(w: &mut [Block], lanes: usize, gates: &[[u32; 4]]) {
    for &[a, b, c, o] in gates {
        let at = |off: u32| off as usize / 16 * lanes;
        let (a, b, c, o) = (at(a), at(b), at(c), at(o));
        for k in 0..lanes {
            w[o + k] = w[a + k] ^ w[b + k] ^ w[c + k];
        }
    }
}

/// Lane `k` of input `half` of gate `i` (folded if the program folds).
#[inline]
fn lane_input(
    w: &[Block],
    lanes: usize,
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    i: usize,
    half: usize,
    k: usize,
) -> Block {
    let x = w[gates[i].slot(half) * lanes + k];
    match folds.get(i) {
        Some(f) => x ^ w[f[half] as usize / 16 * lanes + k],
        None => x,
    }
}

/// The portable twin: every lane's gates of the range through two
/// [`fixed_key`] batch calls per [`PORTABLE_CHUNK`] gates, outputs
/// written after the chunk's inputs were read (as `eval_portable`).
fn eval_lanes_portable(
    w: &mut [Block],
    lanes: usize,
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    tables: &[&[Block]],
    offsets: &[u64],
    first_and: u64,
) {
    let pi = fixed_key();
    let mut held = zeroize::Zeroizing::new(vec![Block::ZERO; 2 * PORTABLE_CHUNK * lanes]);
    let mut u = zeroize::Zeroizing::new(vec![Block::ZERO; 2 * PORTABLE_CHUNK * lanes]);
    let mut v = zeroize::Zeroizing::new(vec![Block::ZERO; 2 * PORTABLE_CHUNK * lanes]);
    let mut outs = zeroize::Zeroizing::new(vec![Block::ZERO; PORTABLE_CHUNK * lanes]);
    for c in 0..gates.len().div_ceil(PORTABLE_CHUNK) {
        let at = c * PORTABLE_CHUNK;
        let n = PORTABLE_CHUNK.min(gates.len() - at);
        // Block `2(i·lanes + k) + half` is input `half` of gate `at + i`, lane `k`.
        for i in 0..n {
            for k in 0..lanes {
                for half in 0..2 {
                    held[2 * (i * lanes + k) + half] =
                        lane_input(w, lanes, gates, folds, at + i, half, k);
                }
            }
        }
        let m = 2 * n * lanes;
        u[..m].copy_from_slice(&held[..m]);
        pi.encrypt_blocks(&mut u[..m]);
        for i in 0..n {
            for (k, &off) in offsets.iter().enumerate() {
                let t = and_tweak(off, first_and + (at + i) as u64);
                let j = 2 * (i * lanes + k);
                v[j] = u[j] ^ t;
                v[j + 1] = u[j + 1] ^ t ^ Block(1);
            }
        }
        pi.encrypt_blocks(&mut v[..m]);
        for i in 0..n {
            for (k, ts) in tables.iter().enumerate() {
                let j = 2 * (i * lanes + k);
                let (a, b) = (held[j], held[j + 1]);
                let (tg, te) = (ts[2 * (at + i)], ts[2 * (at + i) + 1]);
                let wg = u[j] ^ v[j] ^ tg.and_bit(a.lsb());
                let we = u[j + 1] ^ v[j + 1] ^ (te ^ a).and_bit(b.lsb());
                outs[i * lanes + k] = wg ^ we;
            }
        }
        for (i, g) in gates[at..at + n].iter().enumerate() {
            let o = g.out_slot() * lanes;
            w[o..o + lanes].copy_from_slice(&outs[i * lanes..(i + 1) * lanes]);
        }
    }
}
