//! Two parties on one in-memory channel pair, each in its own thread, for
//! the adversary tests: one of them may follow a cheating strategy, so the
//! harness returns each side's own outcome instead of merging them as
//! `run_local` does.

use brickyard_core::channel::memory_pair;
use brickyard_core::Error;
use brickyard_protocols::driver::{run_party, PhaseSet};
use brickyard_protocols::{Party, PartyInputs, Role, RunConfig};

/// Runs `alice` (in a second thread) against `bob` for one execution of
/// `protocol` with inputs `x` and `y`, all phases. Returns Alice's error
/// (if any) and Bob's outputs of that execution or his error. Each party
/// drops its channel when it stops, so the other never waits on a peer
/// that gave up.
pub fn run_pair(
    protocol: &str,
    cfg: &RunConfig,
    mut alice: Box<dyn Party>,
    mut bob: Box<dyn Party>,
    x: PartyInputs,
    y: PartyInputs,
) -> (Option<Error>, Result<Vec<Vec<bool>>, Error>) {
    let (mut ca, mut cb) = memory_pair();
    let cfg_a = cfg.clone();
    let name = protocol.to_string();
    let h = std::thread::spawn(move || {
        let r = run_party(
            &name,
            alice.as_mut(),
            Role::Alice,
            &mut ca,
            &cfg_a,
            &[x],
            PhaseSet::ALL,
        );
        drop(ca);
        r.err()
    });
    let r = run_party(
        protocol,
        bob.as_mut(),
        Role::Bob,
        &mut cb,
        cfg,
        &[y],
        PhaseSet::ALL,
    );
    drop(cb);
    let ea = h.join().expect("Alice's thread panicked");
    (
        ea,
        r.map(|r| {
            r.outputs[0]
                .clone()
                .expect("Bob learns the output of this execution")
        }),
    )
}
