//! JIMU over a store through the facade (the path of Python's
//! `brickyard.preprocess` / `run_party(store=…)`): preprocessing for two
//! executions of an 8-bit adder, two runs from it, a third refused with
//! nothing reserved, a second preprocessing into the same stores (a new
//! batch), and a run from it. Step 5b runs in each preprocessing (the
//! facade cannot skip it).

use brickyard::{bits, net, Computation, Error, OutputMode, PartyRun, Role, StoreLocation};
use std::path::Path;

/// `f` as Alice in a thread and as Bob here, over an in-memory channel.
fn both<F>(f: F) -> brickyard::Result<(PartyRun, PartyRun)>
where
    F: Fn(Role, &mut brickyard::Channel) -> brickyard::Result<PartyRun> + Send + Clone + 'static,
{
    let (mut ch_a, mut ch_b) = net::memory_pair();
    let fa = f.clone();
    let alice = std::thread::spawn(move || fa(Role::Alice, &mut ch_a));
    let bob = f(Role::Bob, &mut ch_b);
    let alice = alice.join().expect("Alice's thread");
    Ok((alice?, bob?))
}

fn loc(dir: &Path, role: Role) -> StoreLocation {
    let who = if role == Role::Alice { "alice" } else { "bob" };
    StoreLocation::new(dir.join(format!("{who}.store"))).with_key(dir.join(format!("{who}.key")))
}

fn consumed(dir: &Path, role: Role, kind: &str) -> Option<u64> {
    let info = loc(dir, role).info().unwrap();
    info.kinds
        .iter()
        .find(|k| k.name == kind)
        .map(|k| k.consumed)
}

#[test]
fn jimu_preprocess_run_exhaust_and_add_a_batch() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().to_path_buf();
    let c = Computation::builtin("jimu", "add8")
        .unwrap()
        .with_output(OutputMode::Bob);
    let two = c.clone().with_executions(2).unwrap();
    let pre = |c: Computation, dir: std::path::PathBuf| {
        both(move |role, ch| c.preprocess(role, ch, &loc(&dir, role)))
    };
    let run = |x: u128, y: u128| {
        let (c, dir) = (c.clone(), dir.clone());
        both(move |role, ch| {
            let v = if role == Role::Alice { x } else { y };
            c.run_stored(role, ch, &loc(&dir, role), &[bits(v, 8)])
        })
    };
    let sum = |r: &PartyRun| brickyard::to_u128(&r.outputs[0].as_ref().expect("Bob's output")[0]);

    pre(two.clone(), dir.clone()).unwrap();
    assert_eq!(loc(&dir, Role::Bob).info().unwrap().protocol, "jimu");
    for (x, y) in [(1, 2), (200, 100)] {
        let (_, bob) = run(x, y).unwrap();
        assert_eq!(sum(&bob), Some((x + y) % 256));
        assert_eq!(bob.phases[1].wall_ms, 0.0, "nothing preprocessed online");
    }
    // add8: 7 ANDs per execution; both executions' buckets are used.
    assert_eq!(consumed(&dir, Role::Bob, "jimu-bucket"), Some(14));
    let r = run(0, 0);
    assert!(matches!(r, Err(Error::Exhausted(_))), "{r:?}");
    assert_eq!(consumed(&dir, Role::Alice, "jimu-bucket"), Some(14));
    assert_eq!(consumed(&dir, Role::Bob, "jimu-bucket-1"), None);

    // A second preprocessing into the same stores adds batch 1.
    pre(two, dir.clone()).unwrap();
    let (_, bob) = run(255, 3).unwrap();
    assert_eq!(sum(&bob), Some(2));
    for role in [Role::Alice, Role::Bob] {
        assert_eq!(consumed(&dir, role, "jimu-bucket"), Some(14));
        assert_eq!(consumed(&dir, role, "jimu-bucket-1"), Some(7));
    }
}
