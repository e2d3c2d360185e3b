//! Replay harness for fuzzing LEGO's batch messages (feature `fuzzing`;
//! `fuzz/fuzz_targets/lego_batch.rs`): Bob's side of the batch-name coin
//! toss ([`batch::agree_id`]: Alice's commitment, share and opening) and
//! of the batch listing before Build ([`batch::open_batches`]: a postcard
//! `Vec<BatchId>`, then the store handshake), against a recorded honest
//! Alice transcript mutated by the input, or raw bytes. Bob's coin comes
//! from a fixed seed, so the unmutated transcript completes. The stores
//! are empty stores in a per-process temporary directory.
//!
//! The rest of LEGO's peer messages (Generate, cut-and-choose, bucketing,
//! Build, Eval) are read inside whole protocol steps; `peer_bytes` fuzzes
//! them through whole runs.
//!
//! Input format: as `brickyard_ot::fuzzing` (byte 0: odd = the rest is the
//! raw peer stream; even = 3-byte patches `(offset u16 LE, xor u8)` to the
//! recorded transcript, cut at the last patch if byte 0 ≥ 0x80).

use crate::batch::{self, BatchId};
use crate::generate::{Ids, Plan};
use crate::params::{LegoParams, Objective};
use crate::{bucketing, cut_and_choose};
use brickyard_core::channel::{memory_transport_pair, scripted, Recording};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use brickyard_store::{Role, SessionId, Store, StoreConfig};
use std::sync::{Mutex, OnceLock};

struct Fixture {
    bob: Mutex<Store>,
    alice_sent: Vec<u8>,
}

fn store(role: Role) -> Store {
    let dir = std::env::temp_dir().join(format!("brickyard-fuzz-lego-{}", std::process::id()));
    let mut c = StoreConfig::new("lego", role, SessionId([3; 16]));
    c.key_path = Some(dir.join(format!("{role}.key")));
    Store::create(&dir.join(role.to_string()), c).expect("temporary store")
}

fn side(store: &mut Store, ch: &mut Channel, alice: bool) -> Result<(BatchId, Vec<BatchId>)> {
    let seed = if alice { 0xa1 } else { 0xb0 };
    let id = batch::agree_id(store, ch, &mut Prg::from_seed(Block(seed)), alice)?;
    let listed = batch::open_batches(store, ch, alice)?;
    ch.flush()?;
    Ok((id, listed))
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let mut alice = store(Role::Alice);
        let mut bob = store(Role::Bob);
        let (ta, tb) = memory_transport_pair();
        let (ra, log) = Recording::new(ta);
        let h = std::thread::spawn(move || side(&mut alice, &mut Channel::new(ra), true));
        side(&mut bob, &mut Channel::new(tb), false).expect("honest bob");
        h.join().expect("alice thread").expect("honest alice");
        let alice_sent = log.lock().map(|v| v.clone()).unwrap_or_default();
        Fixture {
            bob: Mutex::new(bob),
            alice_sent,
        }
    })
}

/// The peer's byte stream for a fuzz input (see the module comment).
fn script(transcript: &[u8], data: &[u8]) -> Vec<u8> {
    let Some((&mode, rest)) = data.split_first() else {
        return transcript.to_vec();
    };
    if mode & 1 == 1 {
        return rest.to_vec();
    }
    let mut bytes = transcript.to_vec();
    let mut cut = None;
    for p in rest.chunks_exact(3) {
        if bytes.is_empty() {
            break;
        }
        let off = u16::from_le_bytes([p[0], p[1]]) as usize % bytes.len();
        bytes[off] ^= p[2];
        cut = Some(off);
    }
    if let (true, Some(c)) = (mode >= 0x80, cut) {
        bytes.truncate(c);
    }
    bytes
}

/// Bob's batch messages against the peer stream made from `data`; it must
/// never panic. Returns the agreed name and the batches both list.
pub fn run(data: &[u8]) -> Result<(BatchId, Vec<BatchId>)> {
    let f = fixture();
    let mut bob = f.bob.lock().unwrap_or_else(|e| e.into_inner());
    side(&mut bob, &mut scripted(&script(&f.alice_sent, data)), false)
}

/// LEGO's own stateless decoders run directly on `data` (the fast target
/// `lego_decode`); byte 0 picks one, the rest is the peer's stream:
/// 0 = Bob's side of the batch-name coin toss (commitment, share,
/// opening, checked: `batch-id-commit`), 1 = the batch listing before
/// Build (postcard `Vec<BatchId>`), 2 = the bit flights of Eval (Bob's
/// masked input bits) and step 10 (spare Δ-ROT choices) with their
/// padding, then a flight of raw blocks (Generate's garbled tables:
/// every value is a table, so only the length is checked). Everything
/// else LEGO reads is a commitment opening (`commit_decode`) or an OT
/// message (`ot_decode`). `Ok` or a typed error.
pub fn decode(data: &[u8]) -> Result<()> {
    let [sel, size, rest @ ..] = data else {
        return Ok(());
    };
    let ch = &mut scripted(rest);
    match sel % 3 {
        0 => batch::bob_coin_toss(ch, &[0x5a; 8]).map(drop),
        1 => batch::recv_listing(ch).map(drop),
        _ => {
            ch.recv_bits(*size as usize)?;
            ch.recv_bits(43)?;
            let mut tables = vec![Block::ZERO; 2 * (*size as usize % 16)];
            ch.recv_blocks(&mut tables)
        }
    }
}

/// The plan the challenge decoder expands seeds for (q = 8 AND gates,
/// n = 4 inputs, s = 40, two outputs, as the crate's unit tests), its
/// commitment ids, and the survivors of an honest cut-and-choose draw.
struct Challenged {
    plan: Plan,
    ids: Ids,
    survivors: cut_and_choose::Survivors,
}

fn challenged() -> &'static Challenged {
    static P: OnceLock<Challenged> = OnceLock::new();
    P.get_or_init(|| {
        let params = LegoParams::optimise(8, 4, 40, Objective::Communication).expect("params");
        let plan = Plan::new(params, 2).expect("plan");
        let chosen = 2 * plan.gates + plan.auths + plan.m + plan.sec.verleak + plan.refresh();
        let ids = Ids::new(&plan, 0, chosen);
        let (_, _, survivors) = cut_and_choose::draw(&mut Prg::from_seed(Block(7)), &plan);
        Challenged {
            plan,
            ids,
            survivors,
        }
    })
}

/// What Alice reads of Bob's challenges in Generate (fast target
/// `phase_decode`); byte 0 picks the message, the rest is the peer's
/// stream: 0 = the cut-and-choose seed (step 8: expanded to a selection,
/// refused with `cut-and-choose-selection` if too few components survive
/// or too few authenticators are checked, every item she would open
/// walked), 1 = step 10's shown values and choice bits (a flight of
/// `s + 3` blocks, packed bits with padding, the commitment sets they
/// name), 2 = the bucketing seed (step 11, after an honest step 8: the
/// permutation, every soldering item, the layout). Any 16 bytes are a
/// seed, so the checks are the survivor rule and the lengths; the
/// commitment openings these messages trigger are `commit_decode`'s.
/// Returns the number of items opened, named or soldered.
pub fn challenges(data: &[u8]) -> Result<usize> {
    let Some((&sel, rest)) = data.split_first() else {
        return Ok(0);
    };
    let Challenged {
        plan,
        ids,
        survivors,
    } = challenged();
    let ch = &mut scripted(rest);
    match sel % 3 {
        0 => {
            let (sel, _) = cut_and_choose::challenge(ch.recv_block()?, plan)?;
            Ok(cut_and_choose::opened_items(&sel, ids))
        }
        1 => {
            let spare = plan.sec.spare_rots;
            let shown = ch.recv_block_vec(spare)?;
            let b = ch.recv_bits(spare)?;
            let sets = cut_and_choose::rot_sets(ids, plan.params.n as usize, &b);
            if sets.len() != shown.len() {
                return Err(brickyard_core::Error::malformed("step 10: counts differ"));
            }
            Ok(sets.len())
        }
        _ => {
            let s = cut_and_choose::Survivors {
                gates: survivors.gates.clone(),
                auths: survivors.auths.clone(),
            };
            let (soldered, layout) = bucketing::alice_solderings(ch.recv_block()?, plan, ids, s);
            if layout.and_heads.len() != plan.params.q as usize {
                return Err(brickyard_core::Error::malformed("bucketing: wrong layout"));
            }
            Ok(soldered)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::Error;

    #[test]
    fn honest_replay_agrees_and_a_changed_share_is_caught() {
        let (_, listed) = run(&[]).unwrap();
        assert!(listed.is_empty());
        assert!(run(&[1, 0xee, 0xee]).is_err());
        // A flipped bit of Alice's opened share (after the 32-byte
        // commitment and a 4-byte frame header on each flight) fails the
        // commitment check.
        let at = (4 + 32 + 4) as u16;
        let r = run(&[0, at as u8, (at >> 8) as u8, 1]);
        assert!(
            matches!(r, Err(Error::Cheating { check }) if check == batch::BATCH_ID_CHECK),
            "{r:?}"
        );
    }

    fn stream(sel: u8, size: u8, f: impl FnOnce(&mut Channel) -> Result<()>) -> Vec<u8> {
        let (a, b) = memory_transport_pair();
        let (rec, log) = Recording::new(b);
        let mut ch = Channel::new(rec);
        f(&mut ch).unwrap();
        ch.flush().unwrap();
        drop((ch, a));
        let v = log.lock().unwrap().clone();
        [vec![sel, size], v].concat()
    }

    #[test]
    fn direct_decoders_accept_honest_messages_and_catch_a_bad_opening() {
        let coin = |bad: bool| {
            stream(0, 0, |ch| {
                let (share, nonce) = ([7u8; 8], [9u8; 32]);
                ch.send_bytes(&batch::id_commitment(&share, &nonce))?;
                ch.flush()?;
                ch.send_bytes(&[share[0] ^ u8::from(bad), 7, 7, 7, 7, 7, 7, 7])?;
                ch.send_bytes(&nonce)
            })
        };
        decode(&coin(false)).unwrap();
        let r = decode(&coin(true));
        assert!(
            matches!(r, Err(Error::Cheating { check }) if check == batch::BATCH_ID_CHECK),
            "{r:?}"
        );
        let ids = vec![BatchId([1; 8]), BatchId([2; 8])];
        decode(&stream(1, 0, |ch| ch.send_msg(&ids))).unwrap();
        assert!(decode(&[1, 0, 3, 0, 0, 0, 0xff, 0xff, 0xff]).is_err());
        let bits = stream(2, 21, |ch| {
            ch.send_bits(&[true; 21])?;
            ch.send_bits(&[false; 43])?;
            ch.send_blocks(&[Block(1); 10])
        });
        decode(&bits).unwrap();
        assert!(decode(&bits[..bits.len() - 1]).is_err());
    }

    #[test]
    fn challenges_decode_honest_messages_and_refuse_padding_or_a_short_flight() {
        let plan = &challenged().plan;
        let (seed, _, _) = cut_and_choose::draw(&mut Prg::from_seed(Block(9)), plan);
        let spare = plan.sec.spare_rots;
        // The selector byte, then the peer's frames.
        let msg = |sel: u8, f: &dyn Fn(&mut Channel) -> Result<()>| {
            [vec![sel], stream(0, 0, f)[2..].to_vec()].concat()
        };
        let seed_msg = |sel: u8, seed: Block| msg(sel, &|ch| ch.send_block(seed));
        assert!(
            challenges(&seed_msg(0, seed)).unwrap() > 0,
            "nothing opened"
        );
        assert!(
            challenges(&seed_msg(2, Block(11))).unwrap() > 0,
            "nothing soldered"
        );
        let step10 = msg(1, &|ch| {
            ch.send_blocks(&vec![Block(5); spare])?;
            ch.send_bits(&vec![true; spare])
        });
        assert_eq!(challenges(&step10).unwrap(), spare);
        // (A seed that leaves too few survivors is 2^-s rare; the rule
        // itself is `cut_and_choose::tests`'.) A set padding bit after
        // step 10's s + 3 choice bits, and cut messages, are refused.
        assert!(!spare.is_multiple_of(8));
        let mut bad = step10.clone();
        *bad.last_mut().unwrap() ^= 0x80;
        assert!(matches!(challenges(&bad), Err(Error::Malformed(_))));
        assert!(challenges(&step10[..step10.len() - 1]).is_err());
        for sel in [0, 2] {
            let m = seed_msg(sel, seed);
            assert!(challenges(&m[..m.len() - 1]).is_err());
        }
    }
}
