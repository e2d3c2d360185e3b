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
    // Every stage kernel size occurs: AND-less stages, one gate, one
    // group, two groups, and past two groups.
    let sizes: Vec<u32> = (0..ends.len())
        .map(|s| ends[s][1] - if s == 0 { 0 } else { ends[s - 1][1] })
        .collect();
    for want in [0..1, 1..2, 2..5, 5..9, 9..10] {
        assert!(
            sizes.iter().any(|n| want.contains(n)),
            "{want:?} in {sizes:?}"
        );
    }
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
    stage_lanes_agree(p, prog, slots, n);
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
fn stage_groups_with_one_output_slot_twice_are_refused() {
    // The VAES stage kernels store a group's lanes last lane first; two
    // gates of one group writing one slot would end differently than
    // gate by gate, so the program refuses such stages.
    let and = |a, b, out| AndSlots { a, b, out, flip: 0 };
    let ands = vec![and(0, 1, 4), and(1, 2, 5), and(2, 3, 4), and(0, 3, 6)];
    let prog = SlotProgram::new(8, SlotXors::new(vec![]), ands).unwrap();
    assert!(prog.clone().with_stages(vec![[0, 4]]).is_err());
    assert!(prog.clone().with_stages(vec![[0, 3]]).is_err());
    // In different stages the same slot is fine (stores run in order).
    assert!(prog.with_stages(vec![[0, 2], [0, 4]]).is_ok());
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

/// [`SlotProgram::eval_stages_lanes`] (VAES-256 where the CPU has it)
/// and its portable twin equal each copy evaluated alone by the portable
/// stage kernel: copies with their own labels, tables and tweak offsets,
/// on several ranges of the `n` stages of `prog` (whose output slots no
/// XOR gate touches; the last slot stays zero for the folds).
fn stage_lanes_agree(p: &mut Prg, prog: &SlotProgram, slots: usize, n: usize) {
    for lanes in [2usize, 4, 6] {
        let ws: Vec<Vec<Block>> = (0..lanes)
            .map(|_| {
                let mut w = p.random_blocks(slots);
                w[slots - 1] = Block::ZERO;
                w
            })
            .collect();
        let offsets: Vec<u64> = (0..lanes as u64).map(|c| 11 + 977 * c).collect();
        for (lo, hi) in [(0, n), (0, n / 2), (n / 3, n), (2, 2), (0, 1)] {
            let t_len = 2 * prog.stages_ands(lo..hi).len();
            let ts: Vec<Vec<Block>> = (0..lanes).map(|_| p.random_blocks(t_len)).collect();
            let expect: Vec<Vec<Block>> = (0..lanes)
                .map(|c| {
                    let mut w = ws[c].clone();
                    prog.eval_stages_portable(&mut w, lo..hi, &ts[c], offsets[c]);
                    w
                })
                .collect();
            let tables: Vec<&[Block]> = ts.iter().map(|t| &t[..]).collect();
            let (mut wk, mut wp) = (interleave(&ws, lanes), interleave(&ws, lanes));
            prog.eval_stages_lanes(&mut wk, lanes, lo..hi, &tables, &offsets);
            prog.eval_stages_lanes_portable(&mut wp, lanes, lo..hi, &tables, &offsets);
            let want = interleave(&expect, lanes);
            assert_eq!(wk, want, "kernel, {lanes} lanes, stages {lo}..{hi}");
            assert_eq!(wp, want, "portable, {lanes} lanes, stages {lo}..{hi}");
        }
    }
}

/// `ws` (one label vector per copy) interleaved wire-major over `lanes`.
fn interleave(ws: &[Vec<Block>], lanes: usize) -> Vec<Block> {
    let slots = ws[0].len();
    let mut out = vec![Block::ZERO; slots * lanes];
    for (c, w) in ws.iter().enumerate() {
        for (s, &x) in w.iter().enumerate() {
            out[s * lanes + c] = x;
        }
    }
    out
}

/// The lane kernels (VAES-256 where the CPU has it) and their portable
/// twin equal the one-copy portable kernels on every lane: random labels
/// and tables, with and without folds, every even lane count up to 8 and
/// ranges that leave partial groups; and on all-zero labels and tables.
#[test]
fn lane_kernels_equal_one_copy_per_lane() {
    let mut p = Prg::from_seed(Block(77));
    for n in [0usize, 1, 2, 3, 4, 5, 7, 8, 9, 17, 40] {
        for lanes in [2usize, 4, 6, 8] {
            for folded in [false, true] {
                for zero in [false, true] {
                    let slots = 2 * n + 2 * 64;
                    let plain = random_program(&mut p, slots, n);
                    // Random XOR gates (outputs anywhere, inputs may repeat).
                    let xors: Vec<[u32; 4]> = (0..50)
                        .map(|_| {
                            let r = p.random_block().0;
                            std::array::from_fn(|k| ((r >> (16 * k)) as u32) % slots as u32)
                        })
                        .collect();
                    let plain =
                        SlotProgram::new(slots, SlotXors::new(xors.clone()), plain.ands().to_vec())
                            .unwrap();
                    let prog = if folded {
                        random_folds(&mut p, &plain, (slots / 2) as u32, (slots - 1) as u32)
                    } else {
                        plain
                    };
                    let copies: Vec<(Vec<Block>, Vec<Block>, u64)> = (0..lanes)
                        .map(|c| {
                            let mut w = p.random_blocks(slots);
                            let mut t = p.random_blocks(2 * n);
                            if zero {
                                w.fill(Block::ZERO);
                                t.fill(Block::ZERO);
                            }
                            w[slots - 1] = Block::ZERO; // the fold's zero slot
                            (w, t, 3 + 1000 * c as u64)
                        })
                        .collect();
                    let first = 500 + n as u64;
                    let expect: Vec<Vec<Block>> = copies
                        .iter()
                        .map(|(w, t, off)| {
                            let mut w = w.clone();
                            prog.run_xors_portable(&mut w, 0..xors.len());
                            prog.eval_ands_portable(&mut w, 0..n, t, *off, first);
                            w
                        })
                        .collect();
                    let ws: Vec<Vec<Block>> = copies.iter().map(|c| c.0.clone()).collect();
                    let tables: Vec<&[Block]> = copies.iter().map(|c| &c.1[..]).collect();
                    let offsets: Vec<u64> = copies.iter().map(|c| c.2).collect();
                    let (mut wk, mut wp) = (interleave(&ws, lanes), interleave(&ws, lanes));
                    prog.run_xors_lanes(&mut wk, lanes, 0..xors.len());
                    prog.run_xors_lanes_portable(&mut wp, lanes, 0..xors.len());
                    prog.eval_ands_lanes(&mut wk, lanes, 0..n, &tables, &offsets, first);
                    prog.eval_ands_lanes_portable(&mut wp, lanes, 0..n, &tables, &offsets, first);
                    let want = interleave(&expect, lanes);
                    let what = format!("n = {n}, lanes = {lanes}, folds {folded}, zero {zero}");
                    assert_eq!(wk, want, "kernel, {what}");
                    assert_eq!(wp, want, "portable, {what}");
                }
            }
        }
    }
}

/// A sub-range of the gates reads the tables of exactly that range and
/// tweaks from `first_and`, in every lane (what a stage walk passes).
#[test]
fn lane_kernels_on_a_sub_range() {
    let mut p = Prg::from_seed(Block(78));
    let (n, lanes, slots) = (20usize, 6usize, 2 * 20 + 128);
    let prog = random_program(&mut p, slots, n);
    let ws: Vec<Vec<Block>> = (0..lanes).map(|_| p.random_blocks(slots)).collect();
    let ts: Vec<Vec<Block>> = (0..lanes).map(|_| p.random_blocks(2 * n)).collect();
    let offsets: Vec<u64> = (0..lanes as u64).map(|c| c * 7 + 1).collect();
    let expect: Vec<Vec<Block>> = (0..lanes)
        .map(|c| {
            let mut w = ws[c].clone();
            prog.eval_ands_portable(&mut w, 5..13, &ts[c][10..26], offsets[c], 5);
            w
        })
        .collect();
    let tables: Vec<&[Block]> = ts.iter().map(|t| &t[10..26]).collect();
    let mut w = interleave(&ws, lanes);
    prog.eval_ands_lanes(&mut w, lanes, 5..13, &tables, &offsets, 5);
    assert_eq!(w, interleave(&expect, lanes));
}

#[test]
#[should_panic(expected = "lanes must be even")]
fn odd_lanes_are_refused() {
    let prog = SlotProgram::new(4, SlotXors::new(vec![]), vec![]).unwrap();
    prog.run_xors_lanes(&mut [Block::ZERO; 12], 3, 0..0);
}
