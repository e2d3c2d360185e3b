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

use crate::delta_rot::{DeltaRotParams, DeltaRotReceiver, DeltaRotSender};
use crate::iknp::KAPPA;
use crate::kos::columns::{ColReceiver, ColSender};
use crate::tinyot::{Role, TinyOt};
use crate::{KosReceiver, KosSender};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};

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

fn kos_sender(ch: &mut Channel) -> Result<()> {
    let prg = &mut Prg::from_seed(Block(0x5eed_0011));
    let delta = prg.random_block();
    let mut s = kos_sender_with(1, delta, prg);
    s.correlated(ch, 200)?;
    s.chosen(ch, &[(Block(1), Block(2)); 10])
}

fn kos_receiver(ch: &mut Channel) -> Result<()> {
    let prg = &mut Prg::from_seed(Block(0x5eed_0012));
    let mut r = kos_receiver_with(1, prg);
    r.correlated(ch, &[true; 200])?;
    r.chosen(ch, &[false; 10]).map(drop)
}

fn delta_rot_sender(ch: &mut Channel) -> Result<()> {
    let prg = &mut Prg::from_seed(Block(0x5eed_0013));
    let pending = DeltaRotSender::prepare(prg, DeltaRotParams::default(), true)?;
    let seeds = chosen(2, pending.choices());
    pending.finish(seeds)?.extend(ch, 100).map(drop)
}

fn delta_rot_receiver(ch: &mut Channel) -> Result<()> {
    let prg = &mut Prg::from_seed(Block(0x5eed_0014));
    let params = DeltaRotParams::default();
    DeltaRotReceiver::from_base(prg, params, pairs(2, params.leaky_len()))?
        .extend(ch, 100)
        .map(drop)
}

/// TinyOT at s = 40: Alice is the sender of direction 3, Bob of 4; eight
/// AND triples (leaky triples, F_EQ, coin toss, bucketing with its MAC-checked
/// openings), then their `z` opened.
fn tinyot(ch: &mut Channel, role: Role, seed: u128) -> Result<()> {
    let prg = &mut Prg::from_seed(Block(seed));
    let delta = TinyOt::draw_delta(role, prg);
    let (mine, theirs) = match role {
        Role::Alice => (3, 4),
        Role::Bob => (4, 3),
    };
    let sender = kos_sender_with(mine, delta, prg);
    let receiver = kos_receiver_with(theirs, prg);
    let mut t = TinyOt::from_parts(role, 40, delta, sender, receiver, prg);
    let tr = t.and_triples(ch, 8)?;
    let z: Vec<_> = tr.iter().map(|x| x.z).collect();
    t.open(ch, &z).map(drop)
}

fn tinyot_alice(ch: &mut Channel) -> Result<()> {
    tinyot(ch, Role::Alice, 0x5eed_0015)
}

fn tinyot_bob(ch: &mut Channel) -> Result<()> {
    tinyot(ch, Role::Bob, 0x5eed_0016)
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::channel::{memory_transport_pair, scripted, Recording};
    use brickyard_core::Error;

    /// What `peer` sends to `victim` in an honest run (both must succeed).
    fn record(victim: Session, peer: Session) -> Vec<u8> {
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
        let v = log.lock().unwrap().clone();
        v
    }

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
        }
    }
}
