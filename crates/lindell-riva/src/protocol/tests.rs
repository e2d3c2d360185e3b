//! Two-party runs of the whole protocol over the in-memory transport.

use super::*;
use brickyard_circuit::builder::CircuitBuilder;
use brickyard_core::channel::memory_pair;
use brickyard_core::prg::Prg;
use brickyard_core::Block;

/// Runs Alice on a scoped thread and Bob here.
pub(crate) fn run<A: Send, B>(
    fa: impl FnOnce(&mut Channel) -> A + Send,
    fb: impl FnOnce(&mut Channel) -> B,
) -> (A, B) {
    let (mut ca, mut cb) = memory_pair();
    std::thread::scope(|s| {
        let h = s.spawn(move || {
            let r = fa(&mut ca);
            drop(ca);
            r
        });
        let b = fb(&mut cb);
        drop(cb);
        (h.join().unwrap(), b)
    })
}

/// 4-bit x + y and x AND y (small, with ANDs and XORs).
pub(crate) fn small_f() -> Arc<Circuit> {
    let mut b = CircuitBuilder::new();
    let x = b.input("x", 4);
    let y = b.input("y", 4);
    let s = b.add(&x, &y);
    let a = b.and(&x, &y);
    b.output("sum", &s);
    b.output("and", &a);
    Arc::new(b.finish())
}

pub(crate) fn agreed(n: usize, s: u32) -> Agreed {
    let f = small_f();
    if s >= 40 {
        Agreed::new(f, (0..4).collect(), (4..8).collect(), n, s).unwrap()
    } else {
        Agreed::insecure_for_tests(f, (0..4).collect(), (4..8).collect(), n, s).unwrap()
    }
}

pub(crate) fn bits(v: u64, n: usize) -> Vec<bool> {
    (0..n).map(|i| v >> i & 1 == 1).collect()
}

/// Per execution: Bob's output, how it was decided, C''s majority output.
pub(crate) type BobView = Vec<(Vec<bool>, OutputSource, Vec<bool>)>;

pub(crate) struct Outcome {
    pub alice: Result<()>,
    pub bob: Result<BobView>,
}

/// A whole run: setup, offline, then one online execution per `(x, y)`.
pub(crate) fn run_protocol(
    a: &Agreed,
    inputs: &[(u64, u64)],
    seed: u64,
    alice_cheat: Cheat,
    bob_cheat: Cheat,
) -> Outcome {
    let (aa, ab) = (a.clone(), a.clone());
    let (alice, bob) = run(
        move |ch| -> Result<()> {
            let mut p = Alice::with_prg(aa, Prg::from_seed(Block(seed as u128)));
            #[cfg(feature = "adversary")]
            p.set_cheat(alice_cheat);
            let _ = alice_cheat;
            p.setup(ch)?;
            p.independent(ch)?;
            p.dependent(ch)?;
            for &(x, _) in inputs {
                p.online(ch, &bits(x, 4))?;
            }
            Ok(())
        },
        move |ch| -> Result<BobView> {
            let mut p = Bob::with_prg(ab, Prg::from_seed(Block(seed as u128 + (1 << 64))));
            #[cfg(feature = "adversary")]
            p.set_cheat(bob_cheat);
            let _ = bob_cheat;
            p.setup(ch)?;
            p.independent(ch)?;
            p.dependent(ch)?;
            let mut out = Vec::new();
            for &(_, y) in inputs {
                let z = p.online(ch, &bits(y, 4))?;
                out.push((
                    z,
                    p.last_source().unwrap(),
                    p.last_recovered().unwrap().to_vec(),
                ));
            }
            Ok(out)
        },
    );
    Outcome { alice, bob }
}

pub(crate) fn expected(x: u64, y: u64) -> Vec<bool> {
    let mut v = bits((x + y) & 15, 4);
    v.extend(bits(x & y, 4));
    v
}

#[test]
fn honest_runs_are_correct() {
    let a = agreed(3, 40);
    let inputs = [(3, 5), (15, 15), (0, 9)];
    let o = run_protocol(&a, &inputs, 7, Cheat::None, Cheat::None);
    o.alice.unwrap();
    let outs = o.bob.unwrap();
    for ((x, y), (z, src, rec)) in inputs.iter().zip(outs) {
        assert_eq!(z, expected(*x, *y), "x={x} y={y}");
        assert_eq!(src, OutputSource::Agreed);
        // Bob did not learn D, so C' gave 0, never x.
        assert_eq!(rec, vec![false; 4]);
    }
}

#[test]
fn a_fourth_execution_is_refused() {
    let a = agreed(1, 40);
    let o = run_protocol(&a, &[(1, 2), (3, 4)], 3, Cheat::None, Cheat::None);
    assert!(
        matches!(o.bob, Err(Error::Exhausted(_))),
        "{:?}",
        o.bob.err()
    );
}

#[test]
fn parameters_come_from_the_lemmas() {
    let a = agreed(3, 40);
    let p = crate::params::LrParams::new(
        3,
        40,
        Choice::Search(Objective::Circuits, None),
        Choice::Search(Objective::Circuits, None),
    )
    .unwrap();
    assert_eq!(a.params, p);
    assert!(Agreed::new(small_f(), vec![0], (1..8).collect(), 3, 39).is_err());
}
