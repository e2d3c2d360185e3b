//! Garbled evaluation of random circuits equals plaintext evaluation, in
//! every mode, and every wire's label encodes its plaintext value.

mod common;

use brickyard_circuit::Circuit;
use brickyard_core::channel::memory_pair;
use brickyard_core::Block;
use brickyard_garble::*;
use common::*;

/// Garbles with a seeded garbler, evaluates on `bits`, returns decoded outputs.
fn run_buffered(c: &Circuit, bits: &[bool], seed: u128, offset: u64) -> Vec<bool> {
    let plan = GarblePlan::new(c).unwrap();
    let mut g = Garbler::from_prg(prg(seed));
    let (gc, out, zero) = g.garble(&plan, offset, Keep::Outputs).unwrap();
    assert_eq!(gc.tables.len(), 2 * c.and_count());
    let labels = g.encode(&zero, bits).unwrap();
    let res = evaluate(&plan, &gc, &labels, Keep::Outputs).unwrap();
    let via_lsb = decode(&res.output_labels, &out.decoding()).unwrap();
    let checked = decode_checked(&res.output_labels, &out.output_zero_labels, g.delta()).unwrap();
    assert_eq!(via_lsb, checked);
    via_lsb
}

#[test]
fn random_circuits_match_plaintext() {
    let mut p = prg(1);
    for round in 0..60 {
        let gates = [0, 1, 5, 40, 300][round % 5];
        let c = random_circuit(&mut p, 1 + round % 4, gates);
        for _ in 0..3 {
            let bits = p.random_bits(c.input_width());
            assert_eq!(
                run_buffered(&c, &bits, round as u128, round as u64),
                eval_plain(&c, &bits),
                "round {round}"
            );
        }
    }
}

#[test]
fn every_wire_label_encodes_its_value() {
    let mut p = prg(2);
    let c = random_circuit(&mut p, 3, 500);
    let plan = GarblePlan::new(&c).unwrap();
    let mut g = Garbler::from_prg(prg(3));
    let (gc, out, zero) = g.garble(&plan, 9, Keep::AllWires).unwrap();
    let bits = p.random_bits(c.input_width());
    let res = evaluate(&plan, &gc, &g.encode(&zero, &bits).unwrap(), Keep::AllWires).unwrap();
    let zeros = out.wire_zero_labels.as_ref().unwrap();
    let held = res.wire_labels.as_ref().unwrap();
    assert_eq!(zeros.len(), c.num_wires as usize);
    // Recompute every wire's plaintext value by making each wire an output.
    let mut all = c.clone();
    all.outputs = vec![brickyard_circuit::Group {
        name: "all".into(),
        wires: (0..c.num_wires).collect(),
    }];
    let values = eval_plain(&all, &bits);
    let d = g.delta().block();
    for w in 0..c.num_wires as usize {
        assert_eq!(held[w], zeros[w] ^ d.and_bit(values[w]), "wire {w}");
    }
    // The compact layout (slot reuse) computes the same labels as the dense one.
    let labels = g.encode(&zero, &bits).unwrap();
    let compact = evaluate(&plan, &gc, &labels, Keep::Outputs).unwrap();
    assert!(compact.wire_labels.is_none());
    assert_eq!(compact.output_labels, res.output_labels);
    let (gc2, out2) = garble(&plan, g.delta(), &zero, 9, Keep::Outputs).unwrap();
    assert_eq!(gc2.tables, gc.tables);
    assert_eq!(*out2.output_zero_labels, *out.output_zero_labels);
    assert!(plan.live_slots() < c.num_wires as usize);
}

#[test]
fn sink_errors_stop_garbling() {
    let mut p = prg(7);
    let c = random_circuit(&mut p, 2, 400);
    let plan = GarblePlan::new(&c).unwrap();
    let delta = Delta::random(&mut p);
    let zero = vec![Block(5); plan.input_wires().len()];
    let mut calls = 0;
    let r = garble_streaming(&plan, &delta, &zero, 0, Keep::Outputs, &mut |_| {
        calls += 1;
        Err(brickyard_core::Error::Disconnected("test".into()))
    });
    assert!(matches!(r, Err(brickyard_core::Error::Disconnected(_))));
    assert_eq!(calls, 1);
    assert!(garble(&plan, &delta, &zero[1..], 0, Keep::Outputs).is_err());
}

#[test]
fn streaming_equals_buffered() {
    let mut p = prg(4);
    let c = random_circuit(&mut p, 2, 3000);
    let plan = GarblePlan::new(&c).unwrap();
    let delta = Delta::random(&mut p);
    let zero: Vec<Block> = (0..plan.input_wires().len())
        .map(|_| p.random_block())
        .collect();
    let (gc, out) = garble(&plan, &delta, &zero, 5, Keep::Outputs).unwrap();
    let mut streamed = Vec::new();
    let mut calls = 0;
    let out2 = garble_streaming(&plan, &delta, &zero, 5, Keep::Outputs, &mut |t| {
        calls += 1;
        // Whole batches, in pieces of at most STREAM_CHUNK blocks here.
        assert!(!t.is_empty() && t.len() <= brickyard_garble::garbler::STREAM_CHUNK);
        streamed.extend_from_slice(t);
        Ok(())
    })
    .unwrap();
    assert_eq!(streamed, gc.tables);
    assert!(calls >= gc.tables.len() / brickyard_garble::garbler::STREAM_CHUNK);
    assert!(calls <= plan.batch_count());
    assert_eq!(*out.output_zero_labels, *out2.output_zero_labels);
    // A different tweak offset gives different tables.
    let (gc3, _) = garble(&plan, &delta, &zero, 6, Keep::Outputs).unwrap();
    assert_ne!(gc3.tables, gc.tables);
}

#[test]
fn channel_streaming_matches_plaintext() {
    let mut p = prg(5);
    let c = random_circuit(&mut p, 2, 20_000);
    let plan = GarblePlan::new(&c).unwrap();
    let bits = p.random_bits(c.input_width());
    let mut g = Garbler::from_prg(prg(6));
    let zero = g.input_zero_labels(&plan);
    let labels = g.encode(&zero, &bits).unwrap();
    let (mut a, mut b) = memory_pair();
    let plan2 = plan.clone();
    let bob = std::thread::spawn(move || {
        let res = evaluate_streaming(&plan2, &labels, 77, Keep::Outputs, &mut b).unwrap();
        let dec: Decoding = b.recv_msg().unwrap();
        decode(&res.output_labels, &dec).unwrap()
    });
    let out = garble_to_channel(&plan, g.delta(), &zero, 77, Keep::Outputs, &mut a).unwrap();
    a.send_msg(&out.decoding()).unwrap();
    a.flush().unwrap();
    assert_eq!(bob.join().unwrap(), eval_plain(&c, &bits));
    assert_eq!(
        a.stats().bytes_sent as usize,
        32 * c.and_count() + 4 + 1 + c.output_width()
    );
}

/// One `GarbleScratch` reused across plans of different sizes and both
/// layouts garbles exactly as a fresh garbling does: stale labels of the
/// previous circuit never leak into the next one's tables or labels.
#[test]
fn reused_scratch_garbles_like_fresh_vectors() {
    let mut p = prg(11);
    let mut scratch = GarbleScratch::new();
    let mut tables = Vec::new();
    for round in 0..24 {
        let gates = [300, 5, 40, 0, 120, 1][round % 6];
        let c = random_circuit(&mut p, 1 + round % 4, gates);
        let plan = GarblePlan::new(&c).unwrap();
        let keep = [Keep::Outputs, Keep::AllWires][round % 2];
        let delta = Delta::random(&mut p);
        let zero = p.random_blocks(plan.input_wires().len());
        let (gc, want) = garble(&plan, &delta, &zero, round as u64, keep).unwrap();
        let got = garble_into_with(
            &plan,
            &delta,
            &zero,
            round as u64,
            keep,
            &mut tables,
            &mut scratch,
        )
        .unwrap();
        assert_eq!(tables, gc.tables, "round {round}");
        assert_eq!(
            *got.output_zero_labels, *want.output_zero_labels,
            "round {round}"
        );
        assert_eq!(
            got.wire_zero_labels.as_deref(),
            want.wire_zero_labels.as_deref(),
            "round {round}"
        );
    }
}
