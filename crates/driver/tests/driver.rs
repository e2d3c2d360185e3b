//! The driver's bookkeeping, checked with a test-only party pair that sends
//! Alice's input in the clear (it is not a protocol and is not registered).

use brickyard_circuit::{Circuit, Gate, Group};
use brickyard_core::channel::memory_pair;
use brickyard_core::{Channel, Error, Result};
use brickyard_driver::driver::{run_local, LocalNet};
use brickyard_driver::{Outputs, Party, PartyInputs, RunConfig};
use std::sync::Arc;

fn and_circuit() -> Arc<Circuit> {
    Arc::new(Circuit {
        num_wires: 3,
        inputs: vec![
            Group {
                name: "a".into(),
                wires: vec![0],
            },
            Group {
                name: "b".into(),
                wires: vec![1],
            },
        ],
        outputs: vec![Group {
            name: "o".into(),
            wires: vec![2],
        }],
        gates: vec![Gate::And { a: 0, b: 1, out: 2 }],
    })
}

struct ClearAlice {
    fail_at: Option<usize>,
    count: usize,
}
struct ClearBob;

impl Party for ClearAlice {
    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        ch.send_bytes(&[1, 2, 3])?;
        let mut b = [0u8; 1];
        ch.recv_bytes(&mut b)
    }
    fn independent(&mut self, _: &mut Channel) -> Result<()> {
        Ok(())
    }
    fn dependent(&mut self, _: &mut Channel) -> Result<()> {
        Ok(())
    }
    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        self.count += 1;
        if self.fail_at == Some(self.count) {
            return Err(Error::Cheating {
                check: "test-abort",
            });
        }
        ch.send_bits(&inputs[0])?;
        Ok(None)
    }
}

impl Party for ClearBob {
    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        let mut b = [0u8; 3];
        ch.recv_bytes(&mut b)?;
        ch.send_bytes(&[9])
    }
    fn independent(&mut self, _: &mut Channel) -> Result<()> {
        Ok(())
    }
    fn dependent(&mut self, _: &mut Channel) -> Result<()> {
        Ok(())
    }
    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let a = ch.recv_bits(1)?;
        Ok(Some(vec![vec![a[0] & inputs[0][0]]]))
    }
}

fn net() -> LocalNet {
    let (alice, bob) = memory_pair();
    LocalNet {
        alice,
        bob,
        name: "memory".into(),
    }
}

#[test]
fn phases_traffic_and_outputs_are_recorded() {
    let mut cfg = RunConfig::new(and_circuit()).unwrap();
    cfg.executions = 4;
    let a_in: Vec<PartyInputs> = [true, true, false, true]
        .iter()
        .map(|&b| vec![vec![b]])
        .collect();
    let b_in: Vec<PartyInputs> = [true, false, true, true]
        .iter()
        .map(|&b| vec![vec![b]])
        .collect();
    let run = run_local(
        "clear-test",
        "and",
        Box::new(ClearAlice {
            fail_at: None,
            count: 0,
        }),
        Box::new(ClearBob),
        &cfg,
        a_in,
        b_in,
        net(),
    )
    .unwrap();
    let outs: Vec<bool> = run.bob_outputs.iter().map(|o| o[0][0]).collect();
    assert_eq!(outs, vec![true, false, false, true]);
    let r = &run.report;
    assert_eq!(r.phases.len(), 4);
    // setup: Alice sent 3 bytes, Bob 1; two flights.
    assert_eq!(
        (
            r.phases[0].bytes_alice_to_bob,
            r.phases[0].bytes_bob_to_alice,
            r.phases[0].rounds
        ),
        (3, 1, 2)
    );
    assert_eq!((r.phases[1].bytes_alice_to_bob, r.phases[1].rounds), (0, 0));
    // online: one byte of packed bits per execution, one flight each.
    assert_eq!(
        (
            r.phases[3].bytes_alice_to_bob,
            r.phases[3].bytes_bob_to_alice,
            r.phases[3].rounds
        ),
        (4, 0, 4)
    );
    assert!(r.online.latency_ms >= 0.0 && r.online.throughput_ms >= 0.0);
    assert!(r.table().contains("online"));
    let json = serde_json::to_value(r).unwrap();
    for key in [
        "protocol",
        "circuit",
        "executions",
        "net",
        "phases",
        "online",
    ] {
        assert!(json.get(key).is_some(), "missing {key}");
    }
}

#[test]
fn an_abort_gives_no_output() {
    let mut cfg = RunConfig::new(and_circuit()).unwrap();
    cfg.executions = 3;
    let ins: Vec<PartyInputs> = (0..3).map(|_| vec![vec![true]]).collect();
    let res = run_local(
        "clear-test",
        "and",
        Box::new(ClearAlice {
            fail_at: Some(2),
            count: 0,
        }),
        Box::new(ClearBob),
        &cfg,
        ins.clone(),
        ins,
        net(),
    );
    match res {
        Err(Error::Cheating { check }) => assert_eq!(check, "test-abort"),
        Err(e) => panic!("wrong error {e}"),
        Ok(_) => panic!("an aborted run returned outputs"),
    }
}

#[test]
fn group_ownership_is_validated() {
    let mut cfg = RunConfig::new(and_circuit()).unwrap();
    cfg.bob_groups = vec![0];
    assert!(matches!(cfg.validate(), Err(Error::Config(_))));
    cfg.alice_groups = vec![1];
    cfg.validate().unwrap();
    cfg.bob_groups = vec![];
    assert!(cfg.validate().is_err());
    let cfg = RunConfig::new(and_circuit()).unwrap();
    assert!(cfg
        .check_inputs(brickyard_driver::Role::Alice, &vec![vec![true, false]])
        .is_err());
}

/// A party whose executions may run back to back (the driver's pipelined
/// throughput measurement).
struct Piped<P>(P);

impl<P: Party> Party for Piped<P> {
    fn pipelines(&self) -> bool {
        true
    }
    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        self.0.setup(ch)
    }
    fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        self.0.independent(ch)
    }
    fn dependent(&mut self, ch: &mut Channel) -> Result<()> {
        self.0.dependent(ch)
    }
    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        self.0.online(ch, inputs)
    }
}

#[test]
fn pipelined_executions_keep_outputs_traffic_and_order() {
    let mut cfg = RunConfig::new(and_circuit()).unwrap();
    cfg.executions = 5;
    let a: Vec<bool> = vec![true, true, false, true, true];
    let b: Vec<bool> = vec![true, false, true, true, true];
    let run = run_local(
        "clear-test",
        "and",
        Box::new(Piped(ClearAlice {
            fail_at: None,
            count: 0,
        })),
        Box::new(Piped(ClearBob)),
        &cfg,
        a.iter().map(|&x| vec![vec![x]]).collect(),
        b.iter().map(|&x| vec![vec![x]]).collect(),
        net(),
    )
    .unwrap();
    let outs: Vec<bool> = run.bob_outputs.iter().map(|o| o[0][0]).collect();
    assert_eq!(outs, vec![true, false, false, true, true]);
    let r = &run.report;
    // Same traffic and flights as five barrier-separated executions.
    assert_eq!((r.phases[3].bytes_alice_to_bob, r.phases[3].rounds), (5, 5));
    // Three barrier-separated executions for latency, two pipelined.
    assert!(
        r.notes[0].contains("2 executions pipelined") && r.notes[0].contains("other 3"),
        "{:?}",
        r.notes
    );
    assert!(r.online.throughput_ms > 0.0);
    // A failure inside the pipelined executions still fails the run.
    let err = run_local(
        "clear-test",
        "and",
        Box::new(Piped(ClearAlice {
            fail_at: Some(5),
            count: 0,
        })),
        Box::new(Piped(ClearBob)),
        &cfg,
        a.iter().map(|&x| vec![vec![x]]).collect(),
        b.iter().map(|&x| vec![vec![x]]).collect(),
        net(),
    );
    assert!(err.is_err());
}

#[test]
fn unpipelined_protocols_say_so() {
    let mut cfg = RunConfig::new(and_circuit()).unwrap();
    cfg.executions = 2;
    let inputs = || vec![vec![vec![true]]; 2];
    let run = run_local(
        "clear-test",
        "and",
        Box::new(ClearAlice {
            fail_at: None,
            count: 0,
        }),
        Box::new(ClearBob),
        &cfg,
        inputs(),
        inputs(),
        net(),
    )
    .unwrap();
    assert!(run.report.notes[0].contains("barrier-separated"));
}
