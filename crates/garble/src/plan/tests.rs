use super::*;
use brickyard_circuit::Group;

fn wide(n: u32) -> Circuit {
    // n independent ANDs of input pairs, then one INV of the last output.
    let gates = (0..n)
        .map(|i| Gate::And {
            a: 2 * i,
            b: 2 * i + 1,
            out: 2 * n + i,
        })
        .chain([Gate::Inv {
            a: 3 * n - 1,
            out: 3 * n,
        }])
        .collect();
    Circuit {
        num_wires: 3 * n + 1,
        inputs: vec![Group {
            name: "x".into(),
            wires: (0..2 * n).collect(),
        }],
        outputs: vec![Group {
            name: "y".into(),
            wires: vec![3 * n],
        }],
        gates,
    }
}

#[test]
fn wide_layers_are_split_and_inv_is_a_polarity() {
    let n = MAX_BATCH as u32 * 2 + 5;
    let p = GarblePlan::new(&wide(n)).unwrap();
    assert_eq!(p.and_count(), n as usize);
    let m = MAX_BATCH as u32;
    // The pieces (0, m), (m, 2m), (2m, n) share one walk step, each
    // behind the previous one's AND-less tail stage, and the final stage
    // joins too.
    assert_eq!(p.batch_count(), 1);
    assert_eq!(p.max_batch(), n as usize);
    for l in [&p.compact, p.dense().unwrap()] {
        let ands: Vec<_> = l.steps.iter().map(|s| s.ands).collect();
        assert_eq!(ands, vec![(0, n)]);
        let andless: Vec<_> = (0..l.prog.stages().len())
            .filter(|&s| l.prog.stages_ands(s..s + 1).is_empty())
            .map(|s| l.prog.stage_start(s)[1])
            .collect();
        assert_eq!(andless, vec![m, 2 * m, n, n]);
        // The INV is no gate: its output shares the AND output's slot.
        assert!(l.prog.xors().is_empty());
        assert_eq!(l.output_slots, vec![l.prog.ands()[n as usize - 1].out]);
        assert_eq!(l.output_flips, vec![true]);
    }
    // Dense: 2n inputs, the zero slot, n AND outputs; the INV wire
    // aliases the last.
    assert_eq!(p.dense().unwrap().num_slots, 3 * n as usize + 1);
    assert_eq!(p.dense().unwrap().wire_slots[3 * n as usize], 3 * n);
    assert!(p.dense().unwrap().wire_flips[3 * n as usize]);
    assert!(!p.dense().unwrap().wire_flips[3 * n as usize - 1]);
    // Compact: a layer piece's outputs never take its own inputs' slots
    // or its other outputs' (those are freed when the piece ends), but
    // later pieces reuse them.
    assert_eq!(p.compact.num_slots, 2 * n as usize + 1 + MAX_BATCH);
    for (a, e) in [(0, m), (m, 2 * m), (2 * m, n)] {
        let g = &p.compact.prog.ands()[a as usize..e as usize];
        for x in g {
            assert!(g.iter().all(|y| y.a != x.out && y.b != x.out));
        }
    }
    // A step holds at most MAX_STEP ANDs, in whole pieces.
    let n = MAX_STEP as u32 + 300;
    let p = GarblePlan::new(&wide(n)).unwrap();
    let ands: Vec<_> = p.compact.steps.iter().map(|s| s.ands).collect();
    assert_eq!(ands, vec![(0, MAX_STEP as u32), (MAX_STEP as u32, n)]);
    assert_eq!(p.max_batch(), MAX_STEP);
}

#[test]
fn compact_slots_never_clobber_live_wires() {
    // x = a & b; y = a ^ b (a, b dead after); z = x & y; out = [z, x].
    let c = Circuit {
        num_wires: 5,
        inputs: vec![Group {
            name: "i".into(),
            wires: vec![0, 1],
        }],
        outputs: vec![Group {
            name: "o".into(),
            wires: vec![4, 2],
        }],
        gates: vec![
            Gate::And { a: 0, b: 1, out: 2 },
            Gate::Xor { a: 0, b: 1, out: 3 },
            Gate::And { a: 2, b: 3, out: 4 },
        ],
    };
    let p = GarblePlan::new(&c).unwrap();
    let l = &p.compact;
    // y = a ^ b is read only by an AND, so it is folded: no XOR gate,
    // the last AND gathers a and b for its second input. The first AND
    // takes a fresh slot (3; 2 is the zero slot after the inputs).
    let g = l.prog.ands();
    assert_eq!((g[0].a, g[0].b, g[0].out), (0, 1, 3));
    assert!(l.prog.xors().is_empty());
    // Each piece ends in an AND-less tail stage (empty here), then the
    // final stage. The second piece folds and the first does not (the
    // kernels choose folded gathers per call), so they are two walk
    // steps; the final stage joins the second.
    assert_eq!(l.prog.stages(), &[[0, 1], [0, 1], [0, 2], [0, 2], [0, 2]]);
    let steps: Vec<_> = l.steps.iter().map(|s| (s.stages, s.ands)).collect();
    assert_eq!(steps, vec![((0, 2), (0, 1)), ((2, 5), (1, 2))]);
    assert_eq!(l.prog.folds(0..2), &[[32, 32], [32, 16]]);
    // a and b stay live until the last AND reads them, so its output
    // takes a fresh slot, neither theirs nor x's.
    assert_eq!((g[1].a, g[1].b, g[1].out), (3, 0, 4));
    assert_eq!(l.output_slots, vec![4, 3]);
    assert_eq!(l.num_slots, 5);
    // The dense layout keeps every wire, so it folds nothing.
    assert!(p.dense().unwrap().prog.folds(0..2).is_empty());
    assert_eq!(p.dense().unwrap().prog.xors().len(), 1);
}

/// Layers of ANDs over XORs of the previous layer's outputs, all read
/// only by ANDs: roots read by both inputs of one AND, by several ANDs,
/// through an INV, and by ANDs of the next layer. `width` > FOLD_PIECE
/// gives wide pieces, which fold nothing.
fn folding_circuit(seed: u128, width: u32, rounds: u32) -> Circuit {
    use brickyard_core::{prg::Prg, Block};
    let mut prg = Prg::from_seed(Block(seed));
    let mut r = move |n: u32| (prg.random_block().0 % n as u128) as u32;
    let mut next = width;
    let mut gates = Vec::new();
    let mut state: Vec<u32> = (0..width).collect();
    let mut prev: Vec<u32> = Vec::new();
    for _ in 0..rounds {
        let mut roots = Vec::new();
        for i in 0..width {
            let (a, b) = (
                state[i as usize],
                state[((i + 1 + r(width - 1)) % width) as usize],
            );
            gates.push(Gate::Xor { a, b, out: next });
            next += 1;
            roots.push(next - 1);
            if r(3) == 0 {
                gates.push(Gate::Inv {
                    a: next - 1,
                    out: next,
                });
                next += 1;
                roots.push(next - 1);
            }
        }
        let n = roots.len() as u32;
        let mut outs = Vec::new();
        for i in 0..width {
            let a = roots[r(n) as usize];
            let b = match r(5) {
                0 => a,
                1 => roots[((i + 1) % n) as usize],
                2 => state[r(width) as usize],
                3 if !prev.is_empty() => prev[r(prev.len() as u32) as usize],
                _ => roots[r(n) as usize],
            };
            gates.push(Gate::And { a, b, out: next });
            next += 1;
            outs.push(next - 1);
        }
        prev = roots;
        state = outs;
    }
    Circuit {
        num_wires: next,
        inputs: vec![Group {
            name: "x".into(),
            wires: (0..width).collect(),
        }],
        outputs: vec![Group {
            name: "y".into(),
            wires: state,
        }],
        gates,
    }
}

/// Folded AND inputs change no table or label: the compact (folded)
/// and dense (unfolded) layouts garble identically, evaluate to the
/// plaintext, and the VAES and portable stage kernels agree on them.
#[test]
fn folded_roots_garble_like_the_dense_layout() {
    use crate::{decode, evaluate, garble, Garbler, Keep};
    use brickyard_core::{prg::Prg, Block};
    let mut folded_pieces = 0;
    for (seed, width) in [(1, 2), (2, 5), (3, 12), (4, 12), (5, 31), (6, 40)] {
        let c = folding_circuit(seed, width, 6);
        let p = GarblePlan::new(&c).unwrap();
        let l = &p.compact;
        let n = l.prog.ands().len();
        let zero = 16 * p.input_wires.len() as u32;
        let folded = l
            .prog
            .folds(0..n)
            .iter()
            .filter(|f| **f != [zero; 2])
            .count();
        assert_eq!(folded > 0, width <= FOLD_PIECE, "width {width}");
        folded_pieces += folded;
        assert!(p.dense().unwrap().prog.folds(0..n).is_empty());
        let mut g = Garbler::from_prg(Prg::from_seed(Block(seed)));
        let zl = g.input_zero_labels(&p);
        let d = g.delta().clone();
        let (gc, out) = garble(&p, &d, &zl, 3, Keep::Outputs).unwrap();
        let (gcd, outd) = garble(&p, &d, &zl, 3, Keep::AllWires).unwrap();
        assert_eq!(gc, gcd, "tables, width {width}");
        assert_eq!(*out.output_zero_labels, *outd.output_zero_labels);
        let bits: Vec<bool> = (0..width).map(|i| (seed >> (i % 7)) & 1 == 1).collect();
        let labels = g.encode(&zl, &bits).unwrap();
        let e = evaluate(&p, &gc, &labels, Keep::Outputs).unwrap();
        let ed = evaluate(&p, &gc, &labels, Keep::AllWires).unwrap();
        assert_eq!(e.output_labels, ed.output_labels);
        let mut v = vec![false; c.num_wires as usize];
        v[..width as usize].copy_from_slice(&bits);
        for gate in &c.gates {
            v[gate.output() as usize] = match *gate {
                Gate::Xor { a, b, .. } => v[a as usize] ^ v[b as usize],
                Gate::And { a, b, .. } => v[a as usize] & v[b as usize],
                Gate::Inv { a, .. } => !v[a as usize],
            };
        }
        let want: Vec<bool> = c.outputs[0].wires.iter().map(|&w| v[w as usize]).collect();
        assert_eq!(decode(&e.output_labels, &out.decoding()).unwrap(), want);
        stages_match_portable(&p, &format!("width {width}"));
    }
    assert!(folded_pieces > 50, "{folded_pieces} folded AND inputs");
}

/// Both layouts of `p`, walked with the default stage kernels (VAES
/// here when the CPU has it) and the portable ones: same tables, same
/// labels, both sides.
fn stages_match_portable(p: &GarblePlan, name: &str) {
    use brickyard_core::{prg::Prg, Block};
    for l in [&p.compact, p.dense().unwrap()] {
        let prog = &l.prog;
        let mut prg = Prg::from_seed(Block(7));
        let delta = prg.random_block().with_lsb(true);
        let mut w = vec![Block::ZERO; l.num_slots];
        for x in &mut w[..p.input_wires.len()] {
            *x = prg.random_block();
        }
        let (mut w2, mut e, mut e2) = (w.clone(), w.clone(), w.clone());
        let n = 2 * prog.ands().len();
        let (mut t, mut t2) = (vec![Block::ZERO; n], vec![Block::ZERO; n]);
        for st in &l.steps {
            let r = st.stages.0 as usize..st.stages.1 as usize;
            let a = 2 * st.ands.0 as usize..2 * st.ands.1 as usize;
            prog.garble_stages(&mut w, r.clone(), delta, 3, &mut t[a.clone()]);
            prog.garble_stages_portable(&mut w2, r.clone(), delta, 3, &mut t2[a.clone()]);
            prog.eval_stages(&mut e, r.clone(), &t[a.clone()], 3);
            prog.eval_stages_portable(&mut e2, r, &t[a], 3);
        }
        assert!(t == t2 && w == w2, "{name}: garbler differs");
        assert!(e == e2, "{name}: evaluator differs");
        for &o in &l.output_slots {
            let o = o as usize;
            assert!(e[o] == w[o] || e[o] == w[o] ^ delta, "{name}: bad label");
        }
    }
}

/// The hoisted, AND-less stages (see `hoist`) and the folded AND
/// inputs (SHA-256) run on the real circuits, with the default stage
/// kernels (VAES here when the CPU has it) and the portable ones: same
/// tables, same labels, both sides.
#[test]
fn hoisted_stages_match_the_portable_backend() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/circuits/bristol_fashion");
    for name in ["aes_128.txt", "sha256.txt"] {
        let c = brickyard_circuit::load(dir.join(name)).unwrap();
        let p = GarblePlan::new(&c).unwrap();
        for l in [&p.compact, p.dense().unwrap()] {
            let prog = &l.prog;
            let andless = (0..prog.stages().len() - 1)
                .filter(|&s| prog.stages_ands(s..s + 1).is_empty())
                .count();
            assert!(andless > 10, "{name}: only {andless} hoisted stages");
        }
        let n = p.compact.prog.ands().len();
        let zero = 16 * p.input_wires.len() as u32;
        let folds = p.compact.prog.folds(0..n);
        let folded = folds.iter().flatten().filter(|&&f| f != zero).count();
        // AES-128: only its 20-AND layers fold (400 inputs), SHA-256:
        // 38 103 of its 45 146 AND inputs.
        let want = if name == "aes_128.txt" {
            1..1_000
        } else {
            30_000..45_146
        };
        assert!(want.contains(&folded), "{name}: {folded} folded inputs");
        // Roots moved back across pieces fill the feeds: AES-128's
        // garbler fed 8 382 of its 20 760 gates and the evaluator 5 292
        // before, SHA-256's 36 938 and 29 638 of 49 027.
        let (g, e, _, _) = fed_gates(&p.compact);
        // (SHA-256 is packed, `pack`: 28 % fewer groups to feed under.)
        let want = if name == "aes_128.txt" {
            (12_500, 7_000)
        } else {
            (40_000, 25_000)
        };
        assert!(g >= want.0 && e >= want.1, "{name}: fed {g} / {e}");
        for l in [&p.compact, p.dense().unwrap()] {
            assert_feed_invariants(l, name);
        }
        // Pieces share walk steps (AES-128: 60 pieces, SHA-256: 1 607).
        let want = if name == "aes_128.txt" {
            15..30
        } else {
            15..60
        };
        let steps = p.compact.steps.len();
        assert!(want.contains(&steps), "{name}: {steps} walk steps");
        stages_match_portable(&p, name);
    }
}

#[test]
fn dead_xors_are_dropped_from_the_compact_layout_only() {
    // y = a ^ b is never read; out = ¬(a & b).
    let c = Circuit {
        num_wires: 5,
        inputs: vec![Group {
            name: "i".into(),
            wires: vec![0, 1],
        }],
        outputs: vec![Group {
            name: "o".into(),
            wires: vec![4],
        }],
        gates: vec![
            Gate::Xor { a: 0, b: 1, out: 2 },
            Gate::And { a: 0, b: 1, out: 3 },
            Gate::Inv { a: 3, out: 4 },
        ],
    };
    let p = GarblePlan::new(&c).unwrap();
    assert!(p.compact.prog.xors().is_empty());
    assert_eq!(p.dense().unwrap().prog.xors().len(), 1);
    assert_eq!(p.compact.output_flips, vec![true]);
}

#[test]
fn broken_invariants_are_config_errors() {
    let mut c = wide(3);
    c.outputs[0].wires.push(c.num_wires);
    assert!(matches!(GarblePlan::new(&c), Err(Error::Config(_))));
    let mut c = wide(3);
    c.gates.push(Gate::Xor { a: 0, b: 1, out: 2 });
    assert!(matches!(GarblePlan::new(&c), Err(Error::Config(_))));
    let mut c = wide(3);
    c.num_wires += 1;
    c.gates.push(Gate::Xor {
        a: 0,
        b: 10,
        out: 10,
    });
    assert!(matches!(GarblePlan::new(&c), Err(Error::Config(_))));
}

/// XOR gates of `l`'s stages that run fed under a group's AES, for the
/// garbler and the evaluator (the kernels' spacing: the garbler takes
/// 20 of a stage of ≥ 20 gates, 10 of ≥ 10, 4 of ≥ 4; the evaluator at
/// most 10), and the gates in stages a feed may take (not the first of
/// a walk step).
fn fed_gates(l: &Layout) -> (usize, usize, usize, [usize; 6]) {
    let (mut g, mut e, mut feedable) = (0, 0, 0);
    let mut hist = [0usize; 6];
    for st in &l.steps {
        for s in st.stages.0 as usize + 1..st.stages.1 as usize {
            if l.prog.stages_ands(s - 1..s).is_empty() {
                continue;
            }
            let n = (l.prog.stage_start(s + 1)[0] - l.prog.stage_start(s)[0]) as usize;
            feedable += n;
            hist[match n {
                0 => 0,
                1..4 => 1,
                4..10 => 2,
                10..20 => 3,
                20..30 => 4,
                _ => 5,
            }] += 1;
            g += match n {
                20.. => 20,
                10.. => 10,
                4.. => 4,
                _ => 0,
            };
            e += match n {
                10.. => 10,
                4.. => 4,
                _ => 0,
            };
        }
    }
    (g, e, feedable, hist)
}

/// Prints how many XOR gates the real circuits' plans feed (`cargo test
/// -p brickyard-garble --release feed_stats -- --ignored --nocapture`).
#[test]
#[ignore]
fn feed_stats() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/circuits/bristol_fashion");
    for name in ["aes_128.txt", "sha256.txt"] {
        let c = brickyard_circuit::load(dir.join(name)).unwrap();
        let p = GarblePlan::new(&c).unwrap();
        let l = &p.compact;
        let (g, e, f, h) = fed_gates(l);
        let mut sizes = std::collections::BTreeMap::new();
        for s in 0..l.prog.stages().len() {
            *sizes.entry(l.prog.stages_ands(s..s + 1).len()).or_insert(0) += 1;
        }
        let first: usize = l
            .steps
            .iter()
            .map(|st| l.prog.stage_xors(st.stages.0 as usize).len())
            .sum();
        println!(
            "{name}: {} steps, first-stage gates {first}, groups by size {sizes:?}",
            l.steps.len()
        );
        println!(
            "{name}: {} gates, {} stages, {} slots; feedable {f}, fed garbler {g}, evaluator {e}; fed stages by size 0/1-3/4-9/10-19/20-29/30+ {h:?}",
            l.prog.xors().len(),
            l.prog.stages().len(),
            l.num_slots
        );
    }
}

/// What the stage kernels rely on when they run a stage's XORs between
/// the AES rounds of the group before (every stage but the first of a
/// walk step): no XOR of the stage reads that group's outputs (not
/// stored yet) or writes its inputs or outputs. Returns how many XOR
/// gates read an output of an earlier group of their own step, which
/// only roots moved back by `hoist` do.
fn assert_feed_invariants(l: &Layout, name: &str) -> usize {
    use std::collections::HashSet;
    let prog = &l.prog;
    let mut own = 0;
    for st in &l.steps {
        let mut step_outs = HashSet::new();
        for s in st.stages.0 as usize..st.stages.1 as usize {
            let r = prog.stages_ands(s..s + 1);
            let ands = &prog.ands()[r.clone()];
            let outs: HashSet<u32> = ands.iter().map(|g| g.out).collect();
            let mut ins: HashSet<u32> = ands.iter().flat_map(|g| [g.a, g.b]).collect();
            ins.extend(prog.folds(r).iter().flatten().map(|&f| f / 16));
            if s + 1 < st.stages.1 as usize {
                for x in prog.stage_xors(s + 1) {
                    let [a, b, c, o] = prog.xors().gate(x);
                    for i in [a, b, c] {
                        assert!(
                            !outs.contains(&i),
                            "{name}: stage {} reads a fed-under output",
                            s + 1
                        );
                        own += step_outs.contains(&i) as usize;
                    }
                    assert!(
                        !outs.contains(&o) && !ins.contains(&o),
                        "{name}: stage {} writes a slot of the group it runs under",
                        s + 1
                    );
                }
            }
            step_outs.extend(outs);
        }
    }
    own
}

/// Layers of ANDs over XOR chains and INVs of random earlier wires
/// (mostly recent ones, so roots read the last layers' AND outputs,
/// sometimes far older ones or inputs), of random widths from 1 to
/// 600 ANDs, so pieces are narrow (folded), wide, or split, and roots
/// may move back across several pieces.
fn xor_heavy_circuit(seed: u128, layers: u32) -> Circuit {
    use brickyard_core::{prg::Prg, Block};
    let mut prg = Prg::from_seed(Block(seed));
    let mut r = move |n: u32| (prg.random_block().0 % n as u128) as u32;
    let inputs = 64;
    let mut pool: Vec<u32> = (0..inputs).collect();
    let mut next = inputs;
    let mut gates = Vec::new();
    for _ in 0..layers {
        let width = [1, 3, 8, 13, 40, 300, 600][r(7) as usize];
        let pick = |r: &mut dyn FnMut(u32) -> u32, pool: &[u32]| {
            let n = pool.len() as u32;
            if r(5) == 0 {
                pool[r(n) as usize]
            } else {
                pool[(n - 1 - r(n.min(3 * width + 8))) as usize]
            }
        };
        for _ in 0..r(4 * width + 1) {
            let a = pick(&mut r, &pool);
            if r(6) == 0 {
                gates.push(Gate::Inv { a, out: next });
            } else {
                let b = pick(&mut r, &pool);
                gates.push(Gate::Xor { a, b, out: next });
            }
            pool.push(next);
            next += 1;
        }
        let mut outs = Vec::new();
        for _ in 0..width {
            let (a, b) = (pick(&mut r, &pool), pick(&mut r, &pool));
            gates.push(Gate::And { a, b, out: next });
            outs.push(next);
            next += 1;
        }
        pool.extend(outs);
    }
    let mut outputs: Vec<u32> = pool[pool.len() - 20..].to_vec();
    outputs.extend((0..20).map(|_| pool[r(pool.len() as u32) as usize]));
    Circuit {
        num_wires: next,
        inputs: vec![Group {
            name: "x".into(),
            wires: (0..inputs).collect(),
        }],
        outputs: vec![Group {
            name: "y".into(),
            wires: outputs,
        }],
        gates,
    }
}

/// Roots moved back across pieces (`hoist`) keep the kernels' and the
/// slots' invariants: the feed never touches the group it runs under,
/// the compact layout (liveness, slot reuse) garbles exactly like the
/// dense one (one slot per wire), evaluation decodes to the plaintext,
/// and the VAES and portable stage kernels agree.
#[test]
fn moved_roots_garble_like_the_dense_layout() {
    use crate::{decode, evaluate, garble, Garbler, Keep};
    use brickyard_core::{prg::Prg, Block};
    let mut own = 0;
    for seed in 0..12 {
        let c = xor_heavy_circuit(seed, 14);
        let p = GarblePlan::new(&c).unwrap();
        let name = format!("seed {seed}");
        for l in [&p.compact, p.dense().unwrap()] {
            own += assert_feed_invariants(l, &name);
        }
        let mut g = Garbler::from_prg(Prg::from_seed(Block(seed)));
        let zl = g.input_zero_labels(&p);
        let d = g.delta().clone();
        let (gc, out) = garble(&p, &d, &zl, 5, Keep::Outputs).unwrap();
        let (gcd, outd) = garble(&p, &d, &zl, 5, Keep::AllWires).unwrap();
        assert_eq!(gc, gcd, "{name}: tables");
        assert_eq!(*out.output_zero_labels, *outd.output_zero_labels, "{name}");
        let bits: Vec<bool> = (0..64).map(|i| (seed * 7 + i) % 3 == 0).collect();
        let labels = g.encode(&zl, &bits).unwrap();
        let e = evaluate(&p, &gc, &labels, Keep::Outputs).unwrap();
        let mut v = vec![false; c.num_wires as usize];
        v[..64].copy_from_slice(&bits);
        for gate in &c.gates {
            v[gate.output() as usize] = match *gate {
                Gate::Xor { a, b, .. } => v[a as usize] ^ v[b as usize],
                Gate::And { a, b, .. } => v[a as usize] & v[b as usize],
                Gate::Inv { a, .. } => !v[a as usize],
            };
        }
        let want: Vec<bool> = c.outputs[0].wires.iter().map(|&w| v[w as usize]).collect();
        assert_eq!(
            decode(&e.output_labels, &out.decoding()).unwrap(),
            want,
            "{name}"
        );
        stages_match_portable(&p, &name);
    }
    // Roots that read an earlier group of the piece they run in exist
    // only if `hoist` moved them back.
    assert!(own > 100, "only {own} gates read their own piece's outputs");
}

/// Independent chains of AND layers of random widths (1–9) and lengths
/// (1–24), over XORs and INVs of the chain's last outputs and of other
/// chains' wires: the short chains have slack, so `pack` moves their
/// ANDs into later layers to fill groups.
fn slack_circuit(seed: u128) -> Circuit {
    use brickyard_core::{prg::Prg, Block};
    let mut prg = Prg::from_seed(Block(seed));
    let mut r = move |n: u32| (prg.random_block().0 % n as u128) as u32;
    let inputs = 32;
    let mut next = inputs;
    let mut gates = Vec::new();
    let mut outputs = Vec::new();
    let mut all: Vec<u32> = (0..inputs).collect();
    for _ in 0..(3 + r(6)) {
        let width = 1 + r(9);
        let mut state: Vec<u32> = (0..width).map(|_| r(inputs)).collect();
        for _ in 0..(1 + r(24)) {
            let mut ins = state.clone();
            for _ in 0..r(2 * width + 1) {
                let a = state[r(width) as usize];
                let b = if r(4) == 0 {
                    all[r(all.len() as u32) as usize]
                } else {
                    ins[r(ins.len() as u32) as usize]
                };
                gates.push(if r(5) == 0 {
                    Gate::Inv { a, out: next }
                } else {
                    Gate::Xor { a, b, out: next }
                });
                ins.push(next);
                next += 1;
            }
            let n = ins.len() as u32;
            state = (0..width)
                .map(|_| {
                    let (a, b) = (ins[r(n) as usize], ins[r(n) as usize]);
                    gates.push(Gate::And { a, b, out: next });
                    next += 1;
                    next - 1
                })
                .collect();
        }
        all.extend(&state);
        outputs.extend(state);
    }
    Circuit {
        num_wires: next,
        inputs: vec![Group {
            name: "x".into(),
            wires: (0..inputs).collect(),
        }],
        outputs: vec![Group {
            name: "y".into(),
            wires: outputs,
        }],
        gates,
    }
}

/// `pack` keeps a valid order of the same gates in no more layers, and
/// packed plans garble like their dense layout, decode to the
/// plaintext, keep the feed invariants and match the portable kernels.
#[test]
fn packed_layers_garble_like_the_dense_layout() {
    use crate::{decode, evaluate, garble, Garbler, Keep};
    use brickyard_core::{prg::Prg, Block};
    let mut packed_plans = 0;
    for seed in 0..24 {
        let c = slack_circuit(seed);
        let name = format!("seed {seed}");
        let inputs: Vec<WireId> = c.inputs[0].wires.clone();
        let o = order(&c, &inputs).unwrap();
        let q = pack(&o, c.num_wires as usize).expect("packs");
        // Same gates, each read after it is written, no more layers.
        let mut w = Written(vec![false; c.num_wires as usize]);
        for &i in &inputs {
            w.write(i).unwrap();
        }
        for st in &q.steps {
            for g in &q.linear[st.lin.0 as usize..st.lin.1 as usize] {
                w.read(g[0]).unwrap();
                if g[1] != CONST_WIRE {
                    w.read(g[1]).unwrap();
                }
                w.write(g[2]).unwrap();
            }
            let ands = &q.ands[st.ands.0 as usize..st.ands.1 as usize];
            for g in ands {
                w.read(g[0]).unwrap();
                w.read(g[1]).unwrap();
            }
            for g in ands {
                w.write(g[2]).unwrap();
            }
        }
        let sorted = |v: &[[WireId; 3]]| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&q.ands), sorted(&o.ands), "{name}");
        assert_eq!(sorted(&q.linear), sorted(&o.linear), "{name}");
        let layers = |o: &Order| {
            o.steps
                .iter()
                .filter(|s| s.lin.0 != s.lin.1 || s.ands.0 != s.ands.1)
                .count()
        };
        assert!(layers(&q) <= layers(&o) + 1, "{name}");
        assert!(group_count(&q) <= group_count(&o), "{name}");
        let p = GarblePlan::new(&c).unwrap();
        let groups = (0..p.compact.prog.stages().len())
            .filter(|&s| !p.compact.prog.stages_ands(s..s + 1).is_empty())
            .count();
        if groups == group_count(&q) && groups < group_count(&o) {
            packed_plans += 1;
        }
        for l in [&p.compact, p.dense().unwrap()] {
            assert_feed_invariants(l, &name);
        }
        let mut g = Garbler::from_prg(Prg::from_seed(Block(seed)));
        let zl = g.input_zero_labels(&p);
        let d = g.delta().clone();
        let (gc, out) = garble(&p, &d, &zl, 9, Keep::Outputs).unwrap();
        let (gcd, _) = garble(&p, &d, &zl, 9, Keep::AllWires).unwrap();
        assert_eq!(gc, gcd, "{name}: tables");
        let bits: Vec<bool> = (0..32).map(|i| (seed + i) % 3 == 1).collect();
        let labels = g.encode(&zl, &bits).unwrap();
        let e = evaluate(&p, &gc, &labels, Keep::Outputs).unwrap();
        let mut v = vec![false; c.num_wires as usize];
        v[..32].copy_from_slice(&bits);
        for gate in &c.gates {
            v[gate.output() as usize] = match *gate {
                Gate::Xor { a, b, .. } => v[a as usize] ^ v[b as usize],
                Gate::And { a, b, .. } => v[a as usize] & v[b as usize],
                Gate::Inv { a, .. } => !v[a as usize],
            };
        }
        let want: Vec<bool> = c.outputs[0].wires.iter().map(|&w| v[w as usize]).collect();
        assert_eq!(
            decode(&e.output_labels, &out.decoding()).unwrap(),
            want,
            "{name}"
        );
        stages_match_portable(&p, &name);
    }
    assert!(packed_plans >= 6, "only {packed_plans} of 24 plans packed");
}
