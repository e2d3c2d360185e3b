//! Fast replay sessions of the OT layer for the fuzz target `ot_session`:
//! KOS, Δ-ROT and TinyOT as the replay targets (`ot_kos_*`,
//! `ot_delta_rot_*`, `ot_tinyot_*`) run them, but with the base OTs
//! *dealt* from a fixed seed instead of run (each column core is built by
//! `with_seeds` from the pairs a base OT would have produced). The base
//! OTs are a hundred Ristretto exponentiations per session and were what
//! made a replay cost milliseconds; their own decoders are fuzzed directly
//! (`ot_decode`) and by `ot_base_*`. What is left is every message the
//! extension, the Δ-ROT and TinyOT read after the base OTs, each with its
//! check against the session's state: KOS columns and the consistency
//! answer (`kos-consistency`), the χ seed and chosen-message pads, the
//! Δ-ROT's columns, extraction seed and lsb flag, TinyOT's aBits, leaky-AND
//! `G` and `d` flights, F_EQ (`leaky-and-equality`), the bucketing coin
//! toss (`coin-toss-commitment`) and the batched MAC openings
//! (`mac-check`).
//!
//! Each entry of [`SESSIONS`] is `(name, victim, honest peer)`; both sides
//! draw from fixed seeds, so the peer's transcript is the same on every
//! run and an unmutated transcript takes the victim to the end.
//!
//! Everything a session does before it reads the peer's first byte is the
//! same on every run, so it is done once per process: each session's
//! party (its column PRGs keyed from the dealt seeds, Δ, its own PRG) is
//! built on first use and a copy of it (`Clone` under this feature) runs
//! each input. A copy is exactly the party a fresh build would give, so
//! every message and check after the base OTs runs as before; what is no
//! longer paid per run is keying 128–384 AES schedules and drawing the
//! dealt seeds.

use crate::delta_rot::{DeltaRotParams, DeltaRotReceiver, DeltaRotSender};
use crate::iknp::KAPPA;
use crate::kos::columns::{ColReceiver, ColSender};
use crate::tinyot::{Role, TinyOt};
use crate::{KosReceiver, KosSender};
use brickyard_core::channel::{memory_transport_pair, Recording};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use std::sync::OnceLock;

/// One party's whole session on a channel.
pub type Session = fn(&mut Channel) -> Result<()>;

/// `(name, victim, honest peer)` of every fast OT-layer session.
pub const SESSIONS: [(&str, Session, Session); 6] = [
    ("kos-sender", kos_sender, kos_receiver),
    ("kos-receiver", kos_receiver, kos_sender),
    ("delta-rot-sender", delta_rot_sender, delta_rot_receiver),
    ("delta-rot-receiver", delta_rot_receiver, delta_rot_sender),
    ("tinyot-alice", tinyot_alice, tinyot_bob),
    ("tinyot-bob", tinyot_bob, tinyot_alice),
];

/// The base-OT pairs `(k_j^0, k_j^1)` of `n` columns for the extension
/// whose sender is party `dir` (fixed: the dealer's seed).
fn pairs(dir: u128, n: usize) -> Vec<(Block, Block)> {
    let mut p = Prg::from_seed(Block(0xdea1_0000 | dir));
    (0..n)
        .map(|_| (p.random_block(), p.random_block()))
        .collect()
}

/// The keys `k_j^{b_j}` a base-OT receiver with choices `bits` holds in
/// direction `dir`.
fn chosen(dir: u128, bits: &[bool]) -> Vec<Block> {
    pairs(dir, bits.len())
        .iter()
        .zip(bits)
        .map(|(&(k0, k1), &b)| if b { k1 } else { k0 })
        .collect()
}

/// The column sender of direction `dir` with choice bits `delta_bits`.
fn col_sender(dir: u128, delta_bits: Vec<bool>) -> ColSender {
    let seeds = chosen(dir, &delta_bits);
    ColSender::with_seeds(delta_bits, &seeds)
}

fn kos_sender_with(dir: u128, delta: Block, prg: &mut Prg) -> KosSender {
    let bits = (0..KAPPA).map(|j| delta.bit(j)).collect();
    KosSender::from_core(col_sender(dir, bits), delta, prg)
}

fn kos_receiver_with(dir: u128, prg: &mut Prg) -> KosReceiver {
    KosReceiver::from_core(ColReceiver::with_seeds(&pairs(dir, KAPPA)), prg)
}

/// The party `make` builds, built once per process; each call returns a
/// copy (the same state a fresh build would give).
fn once<T: Clone + Send + Sync>(cell: &'static OnceLock<T>, make: impl FnOnce() -> T) -> T {
    cell.get_or_init(make).clone()
}

fn kos_sender(ch: &mut Channel) -> Result<()> {
    static S: OnceLock<KosSender> = OnceLock::new();
    let mut s = once(&S, || {
        let prg = &mut Prg::from_seed(Block(0x5eed_0011));
        let delta = prg.random_block();
        kos_sender_with(1, delta, prg)
    });
    s.correlated(ch, 200)?;
    s.chosen(ch, &[(Block(1), Block(2)); 10])
}

fn kos_receiver(ch: &mut Channel) -> Result<()> {
    static R: OnceLock<KosReceiver> = OnceLock::new();
    let mut r = once(&R, || {
        kos_receiver_with(1, &mut Prg::from_seed(Block(0x5eed_0012)))
    });
    r.correlated(ch, &[true; 200])?;
    r.chosen(ch, &[false; 10]).map(drop)
}

fn delta_rot_sender(ch: &mut Channel) -> Result<()> {
    static S: OnceLock<DeltaRotSender> = OnceLock::new();
    let mut s = once(&S, || {
        let prg = &mut Prg::from_seed(Block(0x5eed_0013));
        let pending = DeltaRotSender::prepare(prg, DeltaRotParams::default(), true)
            .expect("default parameters");
        let seeds = chosen(2, pending.choices());
        pending.finish(seeds).expect("one seed per column")
    });
    s.extend(ch, 100).map(drop)
}

fn delta_rot_receiver(ch: &mut Channel) -> Result<()> {
    static R: OnceLock<DeltaRotReceiver> = OnceLock::new();
    let mut r = once(&R, || {
        let prg = &mut Prg::from_seed(Block(0x5eed_0014));
        let params = DeltaRotParams::default();
        DeltaRotReceiver::from_base(prg, params, pairs(2, params.leaky_len()))
            .expect("one pair per column")
    });
    r.extend(ch, 100).map(drop)
}

/// TinyOT at s = 40: Alice is the sender of direction 3, Bob of 4; eight
/// AND triples (leaky triples, F_EQ, coin toss, bucketing with its MAC-checked
/// openings), then their `z` opened.
fn tinyot(ch: &mut Channel, cell: &'static OnceLock<TinyOt>, role: Role, seed: u128) -> Result<()> {
    let mut t = once(cell, || {
        let prg = &mut Prg::from_seed(Block(seed));
        let delta = TinyOt::draw_delta(role, prg);
        let (mine, theirs) = match role {
            Role::Alice => (3, 4),
            Role::Bob => (4, 3),
        };
        let sender = kos_sender_with(mine, delta, prg);
        let receiver = kos_receiver_with(theirs, prg);
        TinyOt::from_parts(role, 40, delta, sender, receiver, prg)
    });
    let tr = t.and_triples(ch, 8)?;
    let z: Vec<_> = tr.iter().map(|x| x.z).collect();
    t.open(ch, &z).map(drop)
}

fn tinyot_alice(ch: &mut Channel) -> Result<()> {
    static T: OnceLock<TinyOt> = OnceLock::new();
    tinyot(ch, &T, Role::Alice, 0x5eed_0015)
}

fn tinyot_bob(ch: &mut Channel) -> Result<()> {
    static T: OnceLock<TinyOt> = OnceLock::new();
    tinyot(ch, &T, Role::Bob, 0x5eed_0016)
}

/// Runs `victim` here and `peer` on a thread over an in-memory pair and
/// returns the bytes `peer` sent: the honest transcript a replay mutates.
/// Both must succeed. The one recorder of the dealt sessions' tests and of
/// the cargo-fuzz replay targets (`fuzz/common/replay.rs`).
pub fn record(victim: Session, peer: Session) -> Vec<u8> {
    let (a, b) = memory_transport_pair();
    let (rec, log) = Recording::new(b);
    let h = std::thread::spawn(move || {
        let mut ch = Channel::new(rec);
        let r = peer(&mut ch);
        let _ = ch.flush();
        r
    });
    let mut ch = Channel::new(a);
    victim(&mut ch).expect("honest victim");
    let _ = ch.flush();
    drop(ch);
    h.join().expect("peer thread").expect("honest peer");
    let v = log.lock().map(|v| v.clone()).unwrap_or_default();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::channel::scripted;
    use brickyard_core::Error;

    #[test]
    fn dealt_sessions_replay_to_the_end_and_a_flipped_answer_trips_its_check() {
        for (name, victim, peer) in SESSIONS {
            let t = record(victim, peer);
            victim(&mut scripted(&t)).unwrap_or_else(|e| panic!("{name}: replay failed: {e}"));
            let mut cut = t.clone();
            cut.truncate(t.len() - 1);
            assert!(
                victim(&mut scripted(&cut)).is_err(),
                "{name}: short accepted"
            );
            // The last byte the victim reads: the KOS / Δ-ROT consistency
            // answer, the lsb flag, or the MAC digest of TinyOT's opening.
            let mut bad = t.clone();
            *bad.last_mut().unwrap() ^= 1;
            let r = victim(&mut scripted(&bad));
            let want = match name {
                "kos-sender" | "delta-rot-sender" => Some(crate::kos::CHECK_NAME),
                "tinyot-alice" | "tinyot-bob" => Some(crate::tinyot::MAC_CHECK),
                "delta-rot-receiver" => None,
                _ => {
                    // The last pads of chosen OT: any value is a pad.
                    assert!(r.is_ok(), "{name}: {r:?}");
                    continue;
                }
            };
            match (want, &r) {
                (Some(c), Err(Error::Cheating { check })) => assert_eq!(*check, c, "{name}"),
                (None, Err(Error::Malformed(_))) => {}
                _ => panic!("{name}: {r:?}"),
            }
            // Each run is a fresh copy of the party built once: a failed
            // run leaves nothing behind for the next.
            victim(&mut scripted(&t)).unwrap_or_else(|e| panic!("{name}: second replay: {e}"));
        }
    }
}
