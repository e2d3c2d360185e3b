//! Shared by the replay targets: record what an honest peer sends to a
//! deterministic victim (fixed seeds on both sides), and turn a fuzz input
//! into the peer's byte stream.
//!
//! Input format (as `brickyard_ot::fuzzing`): byte 0 odd = the rest is the
//! raw peer stream; even = 3-byte patches `(offset u16 LE, xor u8)` to the
//! recorded transcript, cut at the last patch if byte 0 ≥ 0x80.

// A binary uses `target` or `select`, not both.
#![allow(dead_code)]

use std::sync::OnceLock;

/// The honest transcript `peer` sends to `victim` (both must succeed):
/// one recorder for the fuzz targets and the dealt sessions' unit test.
pub use brickyard_ot::fuzzing::dealt::{record, Session};

/// The peer's byte stream for a fuzz input.
pub fn script(transcript: &[u8], data: &[u8]) -> Vec<u8> {
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

/// A whole replay target: `victim` against the transcript `peer` sends it
/// (recorded once per process), mutated by `data` ([`script`]). The
/// victim's result is `Ok` or a typed error; a panic or an allocation over
/// the limit is what the fuzzer reports. One victim per target binary.
pub fn target(victim: Session, peer: Session, data: &[u8]) {
    static T: OnceLock<(usize, Vec<u8>)> = OnceLock::new();
    let (v, t) = T.get_or_init(|| (victim as usize, record(victim, peer)));
    assert_eq!(*v, victim as usize, "one replay victim per target binary");
    let mut ch = brickyard_core::channel::scripted(&script(t, data));
    let _ = victim(&mut ch);
}

/// As [`target`] over several victims, one per `(name, victim, peer)`
/// entry of `sessions`: byte 0 of the input picks one (modulo their
/// number), the rest is its [`script`] input. Each transcript is recorded
/// on first use. One `sessions` list per target binary.
pub fn select(sessions: &[(&str, Session, Session)], data: &[u8]) {
    static T: OnceLock<Vec<OnceLock<Vec<u8>>>> = OnceLock::new();
    let Some((&k, rest)) = data.split_first() else {
        return;
    };
    let cache = T.get_or_init(|| sessions.iter().map(|_| OnceLock::new()).collect());
    assert_eq!(cache.len(), sessions.len(), "one session list per binary");
    let i = k as usize % sessions.len();
    let (_, victim, peer) = sessions[i];
    let t = cache[i].get_or_init(|| record(victim, peer));
    let mut ch = brickyard_core::channel::scripted(&script(t, rest));
    let _ = victim(&mut ch);
}
