//! `lindell-riva` through the registry and the phase driver: random
//! circuits and inputs, outputs checked against the plaintext evaluator,
//! every phase carrying traffic, and the refusals.

use brickyard_protocols::registry::new_party;
use brickyard_protocols::{OutputMode, Role};
use brickyard_testkit::{assemble, cfg_for, random_circuit, random_inputs, run_memory, Rng};

#[test]
fn random_circuits_through_the_driver() {
    for seed in [3u64, 17] {
        let mut rng = Rng(seed);
        let c = random_circuit(&mut rng, 2, 40, 2);
        let mut cfg = cfg_for(c);
        cfg.executions = 2;
        let a = random_inputs(&mut rng, &cfg, Role::Alice, 2);
        let b = random_inputs(&mut rng, &cfg, Role::Bob, 2);
        let run = run_memory("lindell-riva", &cfg, a.clone(), b.clone()).unwrap();
        for e in 0..2 {
            let want = cfg.circuit.eval(&assemble(&cfg, &a[e], &b[e])).unwrap();
            assert_eq!(run.bob_outputs[e], want, "seed {seed} execution {e}");
        }
        // Setup (E, E', base OTs), independent (random OTs), dependent
        // (bundles, cut-and-choose) and online all exchange bytes.
        for p in &run.report.phases {
            assert!(p.bytes_alice_to_bob + p.bytes_bob_to_alice > 0, "{p:?}");
        }
    }
}

#[test]
fn output_to_alice_or_both_is_refused() {
    let mut rng = Rng(5);
    let mut cfg = cfg_for(random_circuit(&mut rng, 2, 10, 1));
    for mode in [OutputMode::Both, OutputMode::Alice] {
        cfg.output = mode;
        assert!(new_party("lindell-riva", Role::Alice, cfg.clone()).is_err());
        assert!(new_party("lindell-riva", Role::Bob, cfg.clone()).is_err());
    }
}
