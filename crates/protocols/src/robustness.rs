//! Honest parties against peer bytes they did not expect: the entry points
//! of the robustness tests (`tests/robustness.rs`) and of the fuzz target
//! `fuzz/fuzz_targets/peer_bytes.rs`.
//!
//! [`transcript`] runs both parties of a protocol once and returns what each
//! sent; [`against`] runs one honest party through every phase and one
//! execution against a peer whose messages are arbitrary bytes (random, or
//! a recorded transcript with bytes flipped or cut). The party must end in
//! a typed error, or — for a protocol secure against malicious peers — in
//! the correct output; never a panic, a hang or an unbounded allocation.
//! The phases are called directly (no run agreement or barriers), so the
//! replayed bytes are exactly the peer's protocol messages.

use crate::{registry, Outputs, Party, PartyInputs, Role, RunConfig};
use brickyard_core::channel::{memory_transport_pair, scripted, Recording};
use brickyard_core::{Channel, Error, Result};

fn phases(p: &mut dyn Party, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
    p.setup(ch)?;
    p.independent(ch)?;
    p.dependent(ch)?;
    p.begin_online(ch)?;
    let out = p.online(ch, inputs);
    ch.flush()?;
    out
}

/// Runs `protocol` once, honestly, on `x` and `y`: returns
/// `(bytes Alice sent, bytes Bob sent, Bob's outputs)`.
pub fn transcript(
    protocol: &str,
    cfg: &RunConfig,
    x: &PartyInputs,
    y: &PartyInputs,
) -> Result<(Vec<u8>, Vec<u8>, Option<Outputs>)> {
    let (ta, tb) = memory_transport_pair();
    let (ra, log_a) = Recording::new(ta);
    let (rb, log_b) = Recording::new(tb);
    let mut alice = registry::new_party(protocol, Role::Alice, cfg.clone())?;
    let mut bob = registry::new_party(protocol, Role::Bob, cfg.clone())?;
    let x = x.clone();
    let h = std::thread::spawn(move || {
        let mut ch = Channel::new(ra);
        phases(alice.as_mut(), &mut ch, &x)
    });
    let mut ch = Channel::new(rb);
    let out_b = phases(bob.as_mut(), &mut ch, y);
    drop(ch);
    let out_a = h
        .join()
        .map_err(|_| Error::config("robustness: Alice's thread panicked"))?;
    out_a?;
    let out_b = out_b?;
    let take = |l: std::sync::Arc<std::sync::Mutex<Vec<u8>>>| {
        l.lock().map(|v| v.clone()).unwrap_or_default()
    };
    Ok((take(log_a), take(log_b), out_b))
}

/// Runs an honest `role` party of `protocol` through every phase and one
/// execution on `inputs`, against a peer whose messages are `peer` (then a
/// hang-up).
pub fn against(
    protocol: &str,
    role: Role,
    cfg: &RunConfig,
    inputs: &PartyInputs,
    peer: &[u8],
) -> Result<Option<Outputs>> {
    let mut party = registry::new_party(protocol, role, cfg.clone())?;
    let mut ch = scripted(peer);
    phases(party.as_mut(), &mut ch, inputs)
}
