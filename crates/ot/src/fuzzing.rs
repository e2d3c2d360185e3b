//! Replay harness for fuzzing the decoders of the OT layer's peer messages
//! (feature `fuzzing`; `fuzz/fuzz_targets/ot_*.rs` and the `#[ignore]`d
//! loop in `tests/fuzz_peer.rs` drive it).
//!
//! A random byte string almost never gets past the first base-OT point, so
//! each target replays a *recorded honest transcript* that the fuzz input
//! mutates. The victim party runs with a fixed seed, so it sends exactly
//! what it sent when the transcript was recorded and an unmutated
//! transcript takes it to the end of the protocol; each mutation then
//! lands on one decoder deep in the run (base-OT points, KOS columns and
//! check answers, the Δ-ROT seed and lsb flag, TinyOT's leaky-AND `G` and
//! `d` flights, F_EQ, coin toss, openings and MAC digests). Whatever the
//! bytes, the victim must return (`Ok` or a typed error), never panic,
//! hang or allocate beyond what its own parameters size.
//!
//! Input format: byte 0 selects the mode. Even: the rest are 3-byte
//! patches `(offset: u16 LE, xor: u8)` applied to the transcript (offsets
//! taken modulo its length), and, if the mode byte is ≥ 0x80, the
//! transcript is also truncated at `offset` of the last patch. Odd: the
//! rest of the input *is* the peer's byte stream (raw bytes).

pub mod dealt;

use crate::delta_rot::{DeltaRotReceiver, DeltaRotSender};
use crate::tinyot::{Role, TinyOt};
use crate::{base, KosReceiver, KosSender};
use brickyard_core::channel::{memory_transport_pair, Transport};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use std::sync::{Arc, Mutex, OnceLock};

/// One victim role and workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Base-OT sender (decodes the receiver's `(r_0, r_1)` flight).
    BaseSender,
    /// Base-OT receiver (decodes `S`).
    BaseReceiver,
    /// KOS sender: base OTs as receiver, columns, check answer.
    KosSender,
    /// KOS receiver: base OTs as sender, χ seed, chosen-message pads.
    KosReceiver,
    /// Δ-ROT sender (columns and check of 168 columns).
    DeltaRotSender,
    /// Δ-ROT receiver (extraction seed and lsb flag).
    DeltaRotReceiver,
    /// TinyOT Alice: aBits, leaky ANDs, F_EQ, coin toss, bucketing, open.
    TinyOtAlice,
    /// TinyOT Bob.
    TinyOtBob,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 8] = [
        Target::BaseSender,
        Target::BaseReceiver,
        Target::KosSender,
        Target::KosReceiver,
        Target::DeltaRotSender,
        Target::DeltaRotReceiver,
        Target::TinyOtAlice,
        Target::TinyOtBob,
    ];

    fn index(self) -> usize {
        Target::ALL.iter().position(|&t| t == self).expect("listed")
    }
}

const VICTIM_SEED: Block = Block(0x5eed_0001);
const PEER_SEED: Block = Block(0x5eed_0002);

/// The victim's side of a target's workload.
fn victim(t: Target, ch: &mut Channel) -> Result<()> {
    let prg = &mut Prg::from_seed(VICTIM_SEED);
    match t {
        Target::BaseSender => base::send_random(ch, prg, 4).map(drop),
        Target::BaseReceiver => base::receive_random(ch, prg, &[true, false, true]).map(drop),
        Target::KosSender => {
            let mut s = KosSender::setup(ch, prg)?;
            s.correlated(ch, 200)?;
            s.chosen(ch, &[(Block(1), Block(2)); 10])
        }
        Target::KosReceiver => {
            let mut r = KosReceiver::setup(ch, prg)?;
            r.correlated(ch, &[true; 200])?;
            r.chosen(ch, &[false; 10]).map(drop)
        }
        Target::DeltaRotSender => DeltaRotSender::setup(ch, prg, true)?
            .extend(ch, 100)
            .map(drop),
        Target::DeltaRotReceiver => DeltaRotReceiver::setup(ch, prg)?.extend(ch, 100).map(drop),
        Target::TinyOtAlice | Target::TinyOtBob => {
            let role = if t == Target::TinyOtAlice {
                Role::Alice
            } else {
                Role::Bob
            };
            tinyot(ch, role, prg)
        }
    }
}

fn tinyot(ch: &mut Channel, role: Role, prg: &mut Prg) -> Result<()> {
    let mut t = TinyOt::setup(ch, role, prg)?;
    let tr = t.and_triples(ch, 8)?;
    let v: Vec<_> = tr.iter().map(|x| x.z).collect();
    t.open(ch, &v).map(drop)
}

/// The honest peer of a target.
fn peer(t: Target, ch: &mut Channel) -> Result<()> {
    let prg = &mut Prg::from_seed(PEER_SEED);
    match t {
        Target::BaseSender => base::receive_random(ch, prg, &[false, true, true, false]).map(drop),
        Target::BaseReceiver => base::send_random(ch, prg, 3).map(drop),
        Target::KosSender => {
            let mut r = KosReceiver::setup(ch, prg)?;
            r.correlated(ch, &[true; 200])?;
            r.chosen(ch, &[false; 10]).map(drop)
        }
        Target::KosReceiver => {
            let mut s = KosSender::setup(ch, prg)?;
            s.correlated(ch, 200)?;
            s.chosen(ch, &[(Block(1), Block(2)); 10])
        }
        Target::DeltaRotSender => DeltaRotReceiver::setup(ch, prg)?.extend(ch, 100).map(drop),
        Target::DeltaRotReceiver => DeltaRotSender::setup(ch, prg, true)?
            .extend(ch, 100)
            .map(drop),
        Target::TinyOtAlice => tinyot(ch, Role::Bob, prg),
        Target::TinyOtBob => tinyot(ch, Role::Alice, prg),
    }
}

/// Writes go to the inner transport and are logged.
struct Recording<T> {
    inner: T,
    log: Arc<Mutex<Vec<u8>>>,
}

impl<T: Transport> Transport for Recording<T> {
    fn write_all(&mut self, data: &[u8]) -> Result<()> {
        self.log.lock().expect("log").extend_from_slice(data);
        self.inner.write_all(data)
    }
    fn read_exact(&mut self, buf: &mut [u8]) -> Result<()> {
        self.inner.read_exact(buf)
    }
    fn flush(&mut self) -> Result<()> {
        self.inner.flush()
    }
}

/// The bytes an honest peer sends to the victim in a full run.
fn record(t: Target) -> Vec<u8> {
    let (a, b) = memory_transport_pair();
    let log = Arc::new(Mutex::new(Vec::new()));
    let rec = Recording {
        inner: b,
        log: log.clone(),
    };
    let h = std::thread::spawn(move || peer(t, &mut Channel::new(rec)));
    victim(t, &mut Channel::new(a)).expect("honest victim run");
    h.join().expect("peer thread").expect("honest peer run");
    let v = log.lock().expect("log").clone();
    v
}

fn transcript(t: Target) -> &'static [u8] {
    static CACHE: [OnceLock<Vec<u8>>; 8] = [const { OnceLock::new() }; 8];
    CACHE[t.index()].get_or_init(|| record(t))
}

/// The peer's byte stream, fixed in advance; what the victim writes is
/// dropped. Reading past the end is `Disconnected`.
struct Script {
    bytes: Vec<u8>,
    pos: usize,
}

impl Transport for Script {
    fn write_all(&mut self, _: &[u8]) -> Result<()> {
        Ok(())
    }
    fn read_exact(&mut self, buf: &mut [u8]) -> Result<()> {
        let end = self.pos + buf.len();
        if end > self.bytes.len() {
            self.pos = self.bytes.len();
            return Err(Error::Disconnected("fuzz script ended".into()));
        }
        buf.copy_from_slice(&self.bytes[self.pos..end]);
        self.pos = end;
        Ok(())
    }
    fn flush(&mut self) -> Result<()> {
        Ok(())
    }
}

/// The peer's byte stream for a fuzz input (see the module comment).
pub fn script(t: Target, data: &[u8]) -> Vec<u8> {
    let Some((&mode, rest)) = data.split_first() else {
        return transcript(t).to_vec();
    };
    if mode & 1 == 1 {
        return rest.to_vec();
    }
    let mut bytes = transcript(t).to_vec();
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

/// Runs the victim of `t` against the peer stream made from `data`.
/// Returns the victim's result; it must never panic.
pub fn run(t: Target, data: &[u8]) -> Result<()> {
    let bytes = script(t, data);
    let mut ch = Channel::new(Script { bytes, pos: 0 });
    victim(t, &mut ch)
}

/// The OT layer's stateless decoders run directly on `data` (the fast
/// target `ot_decode`); byte 0 picks one, byte 1 sizes it, the rest is
/// the peer's bytes: 0 = a base-OT point (`base::decode_point`: canonical
/// Ristretto encodings only), 1 = the base-OT sender's `S` (not the
/// identity), 2 = the base-OT receiver's flight of up to 15 pairs,
/// 3 = the Δ-ROT lsb flag, 4 = a Beaver derandomisation header (index,
/// then packed bits with padding). KOS, IKNP and TinyOT messages are
/// blocks, digests and packed bits read with exact lengths (the
/// channel's checks, `channel_frames`); whatever they hold is checked
/// against protocol state (`ot_*` replay targets). `Ok` or a typed error.
pub fn decode(data: &[u8]) -> Result<()> {
    let [sel, size, rest @ ..] = data else {
        return Ok(());
    };
    let point = rest.get(..32).unwrap_or(rest);
    match sel % 5 {
        0 => base::decode_point(point).map(drop),
        1 => base::decode_sender_point(point).map(drop),
        2 => base::decode_receiver_flight(rest, (*size % 16) as usize).map(drop),
        3 => {
            let mut b = [0u8; 16];
            let n = rest.len().min(16);
            b[..n].copy_from_slice(&rest[..n]);
            crate::delta_rot::decode_lsb_flag(Block::from_bytes(b)).map(drop)
        }
        _ => crate::beaver::recv_header(
            &mut brickyard_core::channel::scripted(rest),
            u64::from(*size),
            (*sel >> 3) as usize,
        )
        .map(drop),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmutated_transcripts_complete_and_raw_junk_is_an_error() {
        for t in Target::ALL {
            assert!(run(t, &[]).is_ok(), "{t:?}: honest replay failed");
            assert!(run(t, &[1, 0xee, 0xee]).is_err(), "{t:?}: junk accepted");
        }
    }

    #[test]
    fn direct_decoders_accept_honest_messages_and_refuse_others() {
        use curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT as G;
        use curve25519_dalek::traits::Identity;
        let p = G.compress().to_bytes();
        let id = curve25519_dalek::ristretto::RistrettoPoint::identity()
            .compress()
            .to_bytes();
        let with = |sel: u8, size: u8, rest: &[u8]| [&[sel, size][..], rest].concat();
        decode(&with(0, 0, &p)).unwrap();
        decode(&with(1, 0, &p)).unwrap();
        decode(&with(0, 0, &id)).unwrap();
        assert!(decode(&with(1, 0, &id)).is_err(), "identity S accepted");
        assert!(decode(&with(0, 0, &[0xff; 32])).is_err());
        let flight: Vec<u8> = (0..6).flat_map(|_| p).collect();
        decode(&with(2, 3, &flight)).unwrap();
        assert!(decode(&with(2, 4, &flight)).is_err());
        decode(&with(3, 0, &[1])).unwrap();
        assert!(decode(&with(3, 0, &[2])).is_err());
        // Beaver: index 7 then 16 bits (sel = 129: 129 % 5 = 4, 129 >> 3 = 16), each in its frame.
        let frames = [
            &8u32.to_le_bytes()[..],
            &7u64.to_le_bytes(),
            &2u32.to_le_bytes(),
            &[0xff, 0xff],
        ]
        .concat();
        decode(&with(129, 7, &frames)).unwrap();
        assert!(decode(&with(129, 6, &frames)).is_err(), "wrong index");
    }
}
