//! Replay harness for fuzzing the commitment wire formats (feature
//! `fuzzing`; `fuzz/fuzz_targets/commit_{receiver,committer}.rs`).
//!
//! Both parties start from a session as if the N base OTs had run (state
//! drawn from a fixed seed, as the in-crate tests do), so a run costs
//! microseconds, not a base OT. The victim's challenges come from a fixed
//! seed, so a recorded honest transcript of the peer takes it through the
//! whole workload; the fuzz input mutates that transcript (or replaces
//! it), and each mutation lands on one decoder: the batch header
//! (`CommitHeader`), corrections, the check answers, count prefixes, full
//! openings (`get_opening`: padding bits beyond the code length), the
//! batch-opening check answer, bit-opening claims and their proof, the
//! program opening; on the committer's side the receiver's challenge
//! blocks and seeds. Whatever the bytes, the victim must end in `Ok` or a
//! typed error: never a panic, a hang, or an allocation beyond what its own
//! arguments size.
//!
//! Input format: as `brickyard_ot::fuzzing` (byte 0: odd = the rest is the
//! raw peer stream; even = 3-byte patches `(offset u16 LE, xor u8)` to the
//! recorded transcript, cut at the last patch if byte 0 ≥ 0x80).

use crate::code::row_from_bits;
use crate::params::CommitParams;
use crate::{Committer, CommitterState, Receiver, ReceiverState, XorProgram};
use brickyard_core::channel::{memory_transport_pair, scripted, Recording};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use std::sync::OnceLock;

/// Which party is the victim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The receiver: decodes commitments, openings, bit claims.
    Receiver,
    /// The committer: decodes challenges (check coefficients, bit-opening
    /// seeds).
    Committer,
}

/// The default s = 40 code ([299, 128, 41]); the replay only needs one.
fn params() -> CommitParams {
    CommitParams::new(40).expect("s = 40 is supported")
}

fn states() -> (CommitterState, ReceiverState) {
    let n = params().n();
    let mut prg = Prg::from_seed(Block(0xc0));
    let seeds0 = prg.random_blocks(n);
    let seeds1 = prg.random_blocks(n);
    let bits = prg.random_bits(n);
    let seeds = (0..n)
        .map(|j| if bits[j] { seeds1[j] } else { seeds0[j] })
        .collect();
    (
        CommitterState {
            seeds0,
            seeds1,
            next_block: 0,
            msgs: Vec::new(),
            t: Vec::new(),
        },
        ReceiverState {
            watch: row_from_bits(&bits),
            seeds,
            next_block: 0,
            w: Vec::new(),
        },
    )
}

const IDS: [usize; 4] = [0, 129, 299, 305];

fn sets() -> Vec<Vec<usize>> {
    vec![vec![1, 2, 300], vec![], vec![7, 7], vec![3]]
}

fn program() -> XorProgram {
    let mut p = XorProgram::default();
    p.load(0, &[1, 2]);
    p.xor_id(1, 0, 3);
    p.open(1, 4);
    p.open(0, 6);
    p
}

fn committer_side(ch: &mut Channel) -> Result<()> {
    let mut c = Committer::from_state(states().0, params())?;
    c.commit_random(ch, 300)?;
    c.commit(ch, &[Block(5); 10])?;
    c.open(ch, &IDS)?;
    c.open_xor(ch, &sets())?;
    c.batch_open(ch, &IDS)?;
    c.batch_open_xor(ch, &sets())?;
    let blinders: Vec<usize> = (300 - params().blinders()..300).collect();
    c.open_bits(ch, &sets(), 0, &blinders)?;
    c.batch_open_program(ch, &program())?;
    ch.flush()
}

fn receiver_side(ch: &mut Channel) -> Result<()> {
    let mut r = Receiver::from_state(states().1, params())?;
    r.prg = Prg::from_seed(Block(0x7e));
    r.receive_commitments(ch, 300)?;
    r.receive_commitments(ch, 10)?;
    r.verify_open(ch, &IDS)?;
    r.verify_open_xor(ch, &sets())?;
    r.verify_batch_open(ch, &IDS)?;
    r.verify_batch_open_xor(ch, &sets())?;
    let blinders: Vec<usize> = (300 - params().blinders()..300).collect();
    r.verify_open_bits(ch, &sets(), 0, &blinders)?;
    r.verify_batch_open_program(ch, &program())?;
    ch.flush()
}

/// What the honest peer of `t`'s victim sends in a full run.
fn transcript(t: Target) -> &'static [u8] {
    static CACHE: [OnceLock<Vec<u8>>; 2] = [const { OnceLock::new() }; 2];
    CACHE[t as usize].get_or_init(|| {
        let (a, b) = memory_transport_pair();
        let (rec, log) = Recording::new(b);
        let peer = std::thread::spawn(move || {
            let mut ch = Channel::new(rec);
            match t {
                Target::Receiver => committer_side(&mut ch),
                Target::Committer => receiver_side(&mut ch),
            }
        });
        let mut ch = Channel::new(a);
        match t {
            Target::Receiver => receiver_side(&mut ch),
            Target::Committer => committer_side(&mut ch),
        }
        .expect("honest victim");
        peer.join().expect("peer thread").expect("honest peer");
        let v = log.lock().expect("log").clone();
        v
    })
}

/// The peer's byte stream for a fuzz input (see the module comment).
fn script(t: Target, data: &[u8]) -> Vec<u8> {
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

/// Runs `t`'s victim against the peer stream made from `data`; it must
/// never panic.
pub fn run(t: Target, data: &[u8]) -> Result<()> {
    let mut ch = scripted(&script(t, data));
    match t {
        Target::Receiver => receiver_side(&mut ch),
        Target::Committer => committer_side(&mut ch),
    }
}

/// The receiver's stateless decoders run directly on `data` (the fast
/// target `commit_decode`): byte 0 picks the code (s = 40, 43, 60 or 83:
/// rows of 299 to 506 bits) and byte 1 the counts the decoders expect;
/// the rest is the peer's stream, read in the order a session reads it:
/// the batch header ([`crate::wire::recv_header`] against the expected
/// count and block), a count prefix, full openings ([`crate::wire::get_opening`]:
/// padding bits beyond N), bit claims with their padding. `Ok` or a
/// typed error.
pub fn decode(data: &[u8]) -> Result<()> {
    use crate::wire::{get_opening, opening_bytes, recv_count, recv_header};
    let [sel, counts, rest @ ..] = data else {
        return Ok(());
    };
    let s = [40, 43, 60, 83][(*sel & 3) as usize];
    let n = CommitParams::new(s)?.n();
    let count = 1 + (*counts & 15) as usize;
    let mut ch = scripted(rest);
    recv_header(&mut ch, 128 * count, u64::from(*sel >> 2))?;
    recv_count(&mut ch, count, "opening")?;
    let ob = opening_bytes(n);
    let mut bytes = vec![0u8; count * ob];
    ch.recv_bytes(&mut bytes)?;
    for slot in bytes.chunks_exact(ob) {
        get_opening(slot, n)?;
    }
    ch.recv_bits(count + (*counts >> 4) as usize)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn honest_replays_complete_and_junk_is_an_error() {
        for t in [Target::Receiver, Target::Committer] {
            run(t, &[]).unwrap_or_else(|e| panic!("{t:?}: honest replay failed: {e}"));
            assert!(run(t, &[1, 0xee, 0xee]).is_err(), "{t:?}: junk accepted");
        }
        // A flipped byte in the receiver's transcript is noticed.
        assert!(run(Target::Receiver, &[0, 10, 0, 1]).is_err());
    }

    /// What an honest committer sends for [`decode`]'s selectors.
    fn honest_stream(sel: u8, counts: u8, pad: bool) -> Vec<u8> {
        use crate::wire::{put_opening, send_count, CommitHeader};
        let n = CommitParams::new([40, 43, 60, 83][(sel & 3) as usize])
            .unwrap()
            .n();
        let count = 1 + (counts & 15) as usize;
        let (a, b) = memory_transport_pair();
        let (rec, log) = Recording::new(b);
        let mut ch = Channel::new(rec);
        ch.send_msg(&CommitHeader {
            count: 128 * count as u64,
            chosen: true,
            first_block: u64::from(sel >> 2),
        })
        .unwrap();
        send_count(&mut ch, count).unwrap();
        let mut buf = Vec::new();
        for i in 0..count {
            let mut t = row_from_bits(&vec![true; n]);
            if pad && i == count - 1 {
                t[n / 64] |= 1 << (n % 64);
            }
            put_opening(&mut buf, n, Block(i as u128), &t);
        }
        ch.send_bytes(&buf).unwrap();
        ch.send_bits(&vec![true; count + (counts >> 4) as usize])
            .unwrap();
        ch.flush().unwrap();
        drop((ch, a));
        let v = log.lock().unwrap().clone();
        [vec![sel, counts], v].concat()
    }

    #[test]
    fn direct_decoders_accept_honest_messages_and_refuse_padding() {
        for sel in [0u8, 1, 2, 3, 4 * 7 + 3] {
            for counts in [0u8, 0x3f, 0xff] {
                decode(&honest_stream(sel, counts, false))
                    .unwrap_or_else(|e| panic!("sel {sel} counts {counts}: {e}"));
                let e = decode(&honest_stream(sel, counts, true)).unwrap_err();
                assert!(matches!(e, brickyard_core::Error::Malformed(_)), "{e}");
            }
        }
        // A header for another block or count.
        let mut s = honest_stream(4, 0, false);
        s[0] = 8;
        assert!(decode(&s).is_err());
    }
}
