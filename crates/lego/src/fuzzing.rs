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
}
