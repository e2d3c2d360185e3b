//! Reactive LEGO: one Generate, two Builds, the second circuit's first
//! input soldered to the first circuit's output; Bob evaluates both and
//! the second sees the first's result without it ever being re-input.

use brickyard_core::channel::memory_pair;
use brickyard_core::prg::Prg;
use brickyard_protocols::lego::cheat::Cheats;
use brickyard_protocols::lego::eval::{self, Owners};
use brickyard_protocols::lego::generate::{self, Plan};
use brickyard_protocols::lego::hcom::{HcomReceiver, HcomSender};
use brickyard_protocols::lego::{build, delta_rot, LegoParams, Objective};

fn bits(v: u64) -> Vec<bool> {
    (0..8).map(|i| v >> i & 1 == 1).collect()
}

fn value(b: &[bool]) -> u64 {
    b.iter().enumerate().map(|(i, &x)| (x as u64) << i).sum()
}

#[test]
fn output_of_one_circuit_feeds_the_next() {
    let c = brickyard_circuit::builtin("add8").unwrap();
    let ands = c.and_count() as u64;
    let params = LegoParams::optimise(2 * ands, 32, 40, Objective::Communication).unwrap();
    let plan = Plan::new(params, 16).unwrap();
    let sec = plan.sec;
    let (a, b, cc) = (200u64, 99u64, 77u64);
    let (mut ca, mut cb) = memory_pair();
    let c_a = c.clone();
    let alice = std::thread::spawn(move || -> brickyard_core::Result<()> {
        let mut prg = Prg::new();
        let mut hcom = HcomSender::setup(&mut ca, &mut prg, sec.commit)?;
        let rot = delta_rot::sender_setup(&mut ca, &mut prg, sec.delta_rot)?;
        let (mut layout, delta) =
            generate::alice(&mut hcom, rot, &mut ca, &plan, &Cheats::default())?;
        let b1 = build::alice(&hcom, &mut ca, &c_a, &mut layout, 8)?;
        let links: Vec<Option<Vec<usize>>> = (0..16)
            .map(|i| (i < 8).then(|| b1.out_sets[i].clone()))
            .collect();
        let b2 = build::alice_linked(&hcom, &mut ca, &c_a, &mut layout, 8, &links)?;
        let bob_pos: Vec<usize> = (8..16).collect();
        let own1: Vec<usize> = (0..8).collect();
        eval::alice(
            &hcom,
            &mut ca,
            &b1,
            &layout,
            *delta,
            &Owners {
                alice: &own1,
                bob: &bob_pos,
            },
            &bits(a),
            &Cheats::default(),
        )?;
        eval::alice(
            &hcom,
            &mut ca,
            &b2,
            &layout,
            *delta,
            &Owners {
                alice: &[],
                bob: &bob_pos,
            },
            &[],
            &Cheats::default(),
        )?;
        Ok(())
    });
    let mut prg = Prg::new();
    let mut hcom = HcomReceiver::setup(&mut cb, &mut prg, sec.commit).unwrap();
    let rot = delta_rot::receiver_setup(&mut cb, &mut prg, sec.delta_rot).unwrap();
    let (mut layout, mat) =
        generate::bob(&mut hcom, rot, &mut cb, &plan, &mut prg, &Cheats::default()).unwrap();
    let b1 = build::bob(&mut hcom, &mut cb, &c, &mut layout, 8).unwrap();
    let links: Vec<Option<Vec<usize>>> = (0..16)
        .map(|i| (i < 8).then(|| b1.built.out_sets[i].clone()))
        .collect();
    let b2 = build::bob_linked(&mut hcom, &mut cb, &c, &mut layout, 8, &links).unwrap();
    let bob_pos: Vec<usize> = (8..16).collect();
    let own1: Vec<usize> = (0..8).collect();
    let (s1, keys1) = eval::bob_linked(
        &hcom,
        &mut cb,
        &c,
        &b1,
        &layout,
        &mat,
        &Owners {
            alice: &own1,
            bob: &bob_pos,
        },
        &bits(b),
        &[],
    )
    .unwrap();
    assert_eq!(value(&s1), (a + b) % 256);
    let linked: Vec<(usize, brickyard_core::Block, bool)> =
        (0..8).map(|j| (j, keys1[j], s1[j])).collect();
    let (s2, _) = eval::bob_linked(
        &hcom,
        &mut cb,
        &c,
        &b2,
        &layout,
        &mat,
        &Owners {
            alice: &[],
            bob: &bob_pos,
        },
        &bits(cc),
        &linked,
    )
    .unwrap();
    assert_eq!(value(&s2), (a + b + cc) % 256);
    alice.join().unwrap().unwrap();
    // The linked copy attached no input bucket or authenticator to its
    // linked wires: Bob has no soldering for them.
    assert!(b2.built.linked[..8].iter().all(|&l| l) && !b2.built.linked[8]);
}
