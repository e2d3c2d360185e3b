//! `yao` against the plaintext evaluator.

use brickyard_testkit as common;

use brickyard_core::channel::memory_pair;
use brickyard_core::Error;
use brickyard_protocols::driver::{run_party, PhaseSet};
use brickyard_protocols::yao::{YaoAlice, YaoBob};
use brickyard_protocols::{OutputMode, Party, Role};
use common::*;

#[test]
fn random_circuits_match_the_evaluator() {
    let mut rng = Rng(0x5eed);
    for round in 0..25 {
        let groups = 2 + rng.below(2);
        let (gates, outs) = (1 + rng.below(300), 1 + rng.below(3));
        let c = random_circuit(&mut rng, groups, gates, outs);
        let mut cfg = cfg_for(c);
        cfg.executions = 1 + rng.below(3);
        if round % 3 == 0 {
            cfg.output = OutputMode::Both;
        }
        if round % 4 == 1 && groups == 3 {
            // Alice owns groups 0 and 2.
            cfg.alice_groups = vec![0, 2];
            cfg.bob_groups = vec![1];
        }
        let e = cfg.executions;
        let ai = random_inputs(&mut rng, &cfg, Role::Alice, e);
        let bi = random_inputs(&mut rng, &cfg, Role::Bob, e);
        let run = run_memory("yao", &cfg, ai.clone(), bi.clone()).unwrap();
        for x in 0..e {
            let want = cfg.circuit.eval(&assemble(&cfg, &ai[x], &bi[x])).unwrap();
            assert_eq!(run.bob_outputs[x], want, "round {round} execution {x}");
            if cfg.output == OutputMode::Both {
                assert_eq!(run.alice_outputs.as_ref().unwrap()[x], want);
            } else {
                assert!(run.alice_outputs.is_none());
            }
        }
        // Online traffic: Bob's corrections go one way, labels and tables the other.
        let online = &run.report.phases[3];
        let and = cfg.circuit.and_count() as u64;
        assert!(online.bytes_alice_to_bob >= e as u64 * 32 * and);
    }
}

#[test]
fn every_shared_vector_through_yao() {
    let Some(dir) = shared_circuits() else { return };
    let text = std::fs::read_to_string(dir.join("vectors.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut checked = 0;
    for (file, entry) in v["circuits"].as_object().unwrap() {
        let c = brickyard_circuit::load(dir.join(file)).unwrap();
        let mut cfg = cfg_for(c);
        let vectors = entry["vectors"].as_array().unwrap();
        let groups: Vec<Vec<Vec<bool>>> = vectors
            .iter()
            .map(|vec| {
                vec["input_wire_bits"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().bytes().map(|b| b == b'1').collect())
                    .collect()
            })
            .collect();
        let split = |role: Role| -> Vec<Vec<Vec<bool>>> {
            groups
                .iter()
                .map(|g| cfg.groups_of(role).iter().map(|&i| g[i].clone()).collect())
                .collect()
        };
        let (alice_in, bob_in) = (split(Role::Alice), split(Role::Bob));
        cfg.executions = vectors.len();
        let run = run_memory("yao", &cfg, alice_in, bob_in).unwrap();
        for (out, vec) in run.bob_outputs.iter().zip(vectors) {
            let want: Vec<Vec<bool>> = vec["output_wire_bits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().bytes().map(|b| b == b'1').collect())
                .collect();
            assert_eq!(out, &want, "{file}: {}", vec["note"]);
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} vectors");
}

/// A garbler that stops talking in the middle of the online phase.
struct VanishingAlice(YaoAlice);

impl Party for VanishingAlice {
    fn setup(&mut self, ch: &mut brickyard_core::Channel) -> brickyard_core::Result<()> {
        self.0.setup(ch)
    }
    fn independent(&mut self, ch: &mut brickyard_core::Channel) -> brickyard_core::Result<()> {
        self.0.independent(ch)
    }
    fn dependent(&mut self, ch: &mut brickyard_core::Channel) -> brickyard_core::Result<()> {
        self.0.dependent(ch)
    }
    fn online(
        &mut self,
        ch: &mut brickyard_core::Channel,
        _: &brickyard_protocols::PartyInputs,
    ) -> brickyard_core::Result<Option<brickyard_protocols::Outputs>> {
        let mut d = [0u8; 8];
        ch.recv_bytes(&mut d)?;
        ch.send_bytes(&[0u8; 100])?;
        ch.flush()?;
        Err(Error::Disconnected("test garbler left".into()))
    }
}

#[test]
fn a_peer_that_disconnects_gives_an_error_and_no_output() {
    let mut rng = Rng(77);
    let cfg = cfg_for(random_circuit(&mut rng, 2, 200, 2));
    let ai = random_inputs(&mut rng, &cfg, Role::Alice, 1);
    let bi = random_inputs(&mut rng, &cfg, Role::Bob, 1);
    let (mut ca, mut cb) = memory_pair();
    let cfg_a = cfg.clone();
    let t = std::thread::spawn(move || {
        let mut a = VanishingAlice(YaoAlice::new(cfg_a.clone()).unwrap());
        let r = run_party(
            "yao",
            &mut a,
            Role::Alice,
            &mut ca,
            &cfg_a,
            &ai,
            PhaseSet::ALL,
        );
        drop(ca);
        r
    });
    let mut bob = YaoBob::new(cfg.clone()).unwrap();
    let r = run_party(
        "yao",
        &mut bob,
        Role::Bob,
        &mut cb,
        &cfg,
        &bi,
        PhaseSet::ALL,
    );
    assert!(t.join().unwrap().is_err());
    match r {
        Err(Error::Disconnected(_)) | Err(Error::Malformed(_)) => {}
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("Bob produced output after the garbler vanished"),
    }
}

#[test]
fn mismatched_configs_are_refused() {
    let mut rng = Rng(78);
    let cfg = cfg_for(random_circuit(&mut rng, 2, 50, 1));
    let mut other = cfg.clone();
    other.output = OutputMode::Both;
    let (mut ca, mut cb) = memory_pair();
    let ai = random_inputs(&mut rng, &cfg, Role::Alice, 1);
    let bi = random_inputs(&mut rng, &cfg, Role::Bob, 1);
    let cfg_a = cfg.clone();
    let t = std::thread::spawn(move || {
        let mut a = YaoAlice::new(cfg_a.clone()).unwrap();
        run_party(
            "yao",
            &mut a,
            Role::Alice,
            &mut ca,
            &cfg_a,
            &ai,
            PhaseSet::ALL,
        )
        .map(|_| ())
    });
    let mut bob = YaoBob::new(other.clone()).unwrap();
    let r = run_party(
        "yao",
        &mut bob,
        Role::Bob,
        &mut cb,
        &other,
        &bi,
        PhaseSet::ALL,
    );
    assert!(matches!(r, Err(Error::Config(_))));
    assert!(matches!(t.join().unwrap(), Err(Error::Config(_))));
}

/// An evaluator that starts each execution late, so the garbler has
/// garbled some or all of the tables before the corrections arrive.
struct LateBob(YaoBob, std::time::Duration);

impl Party for LateBob {
    fn pipelines(&self) -> bool {
        self.0.pipelines()
    }
    fn setup(&mut self, ch: &mut brickyard_core::Channel) -> brickyard_core::Result<()> {
        self.0.setup(ch)
    }
    fn independent(&mut self, ch: &mut brickyard_core::Channel) -> brickyard_core::Result<()> {
        self.0.independent(ch)
    }
    fn dependent(&mut self, ch: &mut brickyard_core::Channel) -> brickyard_core::Result<()> {
        self.0.dependent(ch)
    }
    fn online(
        &mut self,
        ch: &mut brickyard_core::Channel,
        inputs: &brickyard_protocols::PartyInputs,
    ) -> brickyard_core::Result<Option<brickyard_protocols::Outputs>> {
        std::thread::sleep(self.1);
        self.0.online(ch, inputs)
    }
}

fn tcp_pair() -> (brickyard_core::Channel, brickyard_core::Channel) {
    use brickyard_core::channel::{accept, connect, listen, NetOptions};
    let l = listen("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    let t = std::thread::spawn(move || connect(&addr, &NetOptions::default()).unwrap());
    let a = accept(&l, &NetOptions::default()).unwrap();
    (a, t.join().unwrap())
}

/// Alice garbles while Bob's corrections are on their way and holds the
/// tables back until they arrive: whether they come during the first piece,
/// in the middle, after the whole circuit, or never before her hold-back
/// limit (a circuit of more than 2^17 ANDs), over TCP (which tells her when
/// they arrived) and in memory, barrier-separated and pipelined, Bob's
/// outputs stay right.
#[test]
fn corrections_arriving_late_still_give_right_outputs() {
    use brickyard_protocols::driver::{run_local, LocalNet};
    use std::time::Duration;
    let mut rng = Rng(0x1a7e);
    let cases = [
        (9_000, Duration::ZERO, true),
        (9_000, Duration::from_micros(300), true),
        (9_000, Duration::from_millis(30), false),
        (340_000, Duration::from_millis(5), true),
    ];
    for (round, &(gates, delay, tcp)) in cases.iter().enumerate() {
        let c = random_circuit(&mut rng, 2, gates, 2);
        let mut cfg = cfg_for(c);
        cfg.executions = 4;
        let ai = random_inputs(&mut rng, &cfg, Role::Alice, 4);
        let bi = random_inputs(&mut rng, &cfg, Role::Bob, 4);
        let (alice, bob) = if tcp { tcp_pair() } else { memory_pair() };
        let run = run_local(
            "yao",
            "test",
            Box::new(YaoAlice::new(cfg.clone()).unwrap()),
            Box::new(LateBob(YaoBob::new(cfg.clone()).unwrap(), delay)),
            &cfg,
            ai.clone(),
            bi.clone(),
            LocalNet {
                alice,
                bob,
                name: "test".into(),
            },
        )
        .unwrap();
        for x in 0..4 {
            let want = cfg.circuit.eval(&assemble(&cfg, &ai[x], &bi[x])).unwrap();
            assert_eq!(run.bob_outputs[x], want, "case {round} execution {x}");
        }
    }
}
