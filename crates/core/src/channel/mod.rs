//! The two-party channel every protocol talks through.
//!
//! One concrete [`Channel`] type wraps any [`Transport`] (TCP, in-memory,
//! shaped). It buffers writes, flushes before every read so a party never
//! waits on bytes it has not yet sent, and counts bytes each way and rounds
//! (a round is counted each time the direction of traffic changes from
//! sending to receiving, and once more for a party's last message of a
//! phase, see [`Channel::end_flight`]), so every protocol reports the same
//! statistics.
//!
//! **Frames and aborts.** On the wire every flush is one frame: a `u32`
//! little-endian header, then the payload. A header below 2^31 is the length
//! of a data frame; a header with the top bit set is a control frame whose
//! low bits give its (bounded) length, and the only control frame is an
//! [`Abort`]: a party that fails after connecting tells the peer its error
//! kind and a short reason ([`Channel::send_abort`]). Every read recognises
//! it between data frames, so the peer stops at once with
//! [`Error::PeerAborted`] instead of waiting for a timeout, whatever step of
//! whatever protocol it was in. Headers are not counted in the statistics:
//! byte counts stay protocol bytes.
//!
//! **TLS.** Between two machines the TCP transport runs over TLS 1.3 with
//! mutual certificate authentication ([`tls`]); the frames, aborts, read
//! deadlines and spin work the same above it, and the counters do not
//! include TLS's own bytes either.

mod memory;
mod scripted;
mod shaped;
pub mod spin;
mod tcp;
pub mod tls;

pub use memory::{memory_pair, memory_transport_pair, MemoryTransport};
pub use scripted::{scripted, Recording, Scripted};
pub use shaped::{shaped_memory_pair, NetProfile, ShapedTransport};
pub use spin::ReadSpin;
pub use tcp::{accept, accept_transport, connect, listen, NetOptions, TcpTransport};
pub use tls::{LinkSecurity, TlsOptions};

use crate::{Block, Error, ErrorKind, Result};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::time::Duration;

/// Largest typed message accepted from the peer; anything longer is
/// [`Error::Malformed`], so a hostile length prefix cannot make us allocate.
pub const MAX_MESSAGE_LEN: usize = 64 << 20;

const WRITE_BUFFER: usize = 1 << 16;

/// First step in which a typed message's buffer grows; each further step
/// doubles it, so a long message costs O(log n) reads.
const MSG_READ_STEP: usize = 1 << 16;

/// Bytes of a frame header.
const HEADER: usize = 4;

/// The header bit that marks a control (abort) frame.
const CONTROL: u32 = 1 << 31;

/// Largest data frame; longer sends are split.
const MAX_FRAME: usize = 1 << 30;

/// Largest abort frame accepted from the peer (its reason is cut to
/// [`ABORT_REASON_LEN`] bytes before sending).
const MAX_ABORT_FRAME: usize = 1024;

/// Longest reason an abort carries.
pub const ABORT_REASON_LEN: usize = 200;

/// How long an aborting party keeps reading (and discarding) what the peer
/// still sends, so the peer's unread bytes do not make the OS reset the
/// connection and destroy the abort frame before the peer reads it.
const ABORT_LINGER: Duration = Duration::from_secs(2);

/// The abort message: why the peer stopped. Never carries secrets: the
/// reason is the text of a local error (configuration, store, network),
/// and for a failed cheating check only the kind is sent, not which check
/// (which check fails can depend on the honest party's input).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Abort {
    /// The kind of the error that stopped the peer.
    pub kind: ErrorKind,
    /// A short reason (at most [`ABORT_REASON_LEN`] bytes).
    pub reason: String,
}

impl Abort {
    /// The abort message that tells the peer about `err`.
    pub fn for_error(err: &Error) -> Abort {
        let kind = err.kind();
        let reason = match err {
            Error::Cheating { .. } => "a check on the peer's messages failed".to_string(),
            Error::Io(_) => "local I/O error".to_string(),
            other => other.to_string(),
        };
        Abort {
            kind,
            reason: truncate(&reason, ABORT_REASON_LEN),
        }
    }
}

/// Cuts `s` to at most `max` bytes at a character boundary, replacing
/// control characters (a hostile reason must not drive the terminal).
fn truncate(s: &str, max: usize) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let c = if c.is_control() { ' ' } else { c };
        if out.len() + c.len_utf8() > max {
            break;
        }
        out.push(c);
    }
    out
}

/// A byte pipe to the peer. Implementations do no buffering of their own
/// beyond what the OS does; [`Channel`] buffers.
pub trait Transport: Send {
    /// Writes all of `data`.
    fn write_all(&mut self, data: &[u8]) -> Result<()>;
    /// Fills `buf` completely or fails (`Timeout`, `Disconnected`, `Io`).
    fn read_exact(&mut self, buf: &mut [u8]) -> Result<()>;
    /// Reads at least `min` and at most `buf.len()` bytes and returns how
    /// many, so a consumer of a long stream can start on what has arrived
    /// without waiting for a full buffer. The default reads exactly `min`.
    fn read_at_least(&mut self, buf: &mut [u8], min: usize) -> Result<usize> {
        self.read_exact(&mut buf[..min])?;
        Ok(min)
    }
    /// Writes all of `first`, then all of `second`: one system call where
    /// the transport can (TCP: `writev`), so queued small messages and the
    /// bulk data after them leave as one segment and wake the peer once.
    fn write_all_pair(&mut self, first: &[u8], second: &[u8]) -> Result<()> {
        self.write_all(first)?;
        self.write_all(second)
    }
    /// Pushes buffered bytes to the peer.
    fn flush(&mut self) -> Result<()>;
    /// Whether a read would find bytes (or the end of the stream) without
    /// blocking. Never blocks. A transport that cannot tell answers `true`,
    /// so a caller that polls before reading behaves as if it had not
    /// polled.
    fn ready(&mut self) -> Result<bool> {
        Ok(true)
    }
    /// Closes our direction and reads (discarding) until the peer closes or
    /// `max` passed, so bytes the peer still sends do not reset the
    /// connection (which can destroy what we sent last). The default does
    /// nothing.
    fn linger(&mut self, max: Duration) {
        let _ = max;
    }
    /// What protects the bytes (for reports): in-process unless the
    /// transport says otherwise.
    fn security(&self) -> LinkSecurity {
        LinkSecurity::InProcess
    }
    /// The protocol enters a stage whose waits the earlier ones do not
    /// predict (the online phase after preprocessing): a transport that
    /// adapts how it waits starts afresh. The default does nothing.
    fn new_stage(&mut self) {}
}

/// Traffic counters of one channel endpoint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChannelStats {
    /// Bytes this endpoint sent.
    pub bytes_sent: u64,
    /// Bytes this endpoint received.
    pub bytes_received: u64,
    /// Flights this endpoint sent: maximal runs of sends that the peer had to
    /// wait for (counted when this endpoint turns to receive, or at
    /// [`Channel::end_flight`]). Summed over both parties this is the number
    /// of messages of a protocol, which is what the papers call rounds.
    pub rounds: u64,
}

impl ChannelStats {
    /// Counters accumulated since `earlier` was taken.
    pub fn since(&self, earlier: &ChannelStats) -> ChannelStats {
        ChannelStats {
            bytes_sent: self.bytes_sent - earlier.bytes_sent,
            bytes_received: self.bytes_received - earlier.bytes_received,
            rounds: self.rounds - earlier.rounds,
        }
    }
}

/// A buffered, counting endpoint of a two-party connection.
pub struct Channel {
    transport: Box<dyn Transport>,
    /// Queued output, after [`HEADER`] bytes reserved for the frame header.
    out: Vec<u8>,
    stats: ChannelStats,
    sent_since_read: bool,
    /// Payload bytes left in the data frame being read.
    in_left: usize,
}

impl Channel {
    /// See [`Transport::new_stage`] (the driver calls it when the online
    /// phase begins).
    pub fn new_stage(&mut self) {
        self.transport.new_stage()
    }

    /// Wraps a transport.
    pub fn new(transport: impl Transport + 'static) -> Self {
        let mut out = Vec::with_capacity(HEADER + WRITE_BUFFER);
        out.resize(HEADER, 0);
        Channel {
            transport: Box::new(transport),
            out,
            stats: ChannelStats::default(),
            sent_since_read: false,
            in_left: 0,
        }
    }

    /// Tells the peer why this party stops (best effort: the connection may
    /// already be gone), then lingers briefly so the message survives. Any
    /// queued output is dropped, not sent: the run is over.
    pub fn send_abort(&mut self, abort: &Abort) {
        self.out.truncate(HEADER);
        let abort = Abort {
            kind: abort.kind,
            reason: truncate(&abort.reason, ABORT_REASON_LEN),
        };
        let Ok(body) = postcard::to_stdvec(&abort) else {
            return;
        };
        let header = (CONTROL | body.len() as u32).to_le_bytes();
        if self.transport.write_all_pair(&header, &body).is_ok() && self.transport.flush().is_ok() {
            self.transport.linger(ABORT_LINGER);
        }
    }

    /// Makes sure a data frame with unread payload is current: reads frame
    /// headers (skipping empty frames) and turns an abort frame into
    /// [`Error::PeerAborted`].
    fn next_frame(&mut self) -> Result<()> {
        while self.in_left == 0 {
            let mut h = [0u8; HEADER];
            self.transport.read_exact(&mut h)?;
            let h = u32::from_le_bytes(h);
            if h & CONTROL == 0 {
                self.in_left = h as usize;
                continue;
            }
            let len = (h & !CONTROL) as usize;
            if len > MAX_ABORT_FRAME {
                return Err(Error::malformed(format!(
                    "control frame of {len} bytes exceeds the limit"
                )));
            }
            let mut body = vec![0u8; len];
            self.transport.read_exact(&mut body)?;
            let abort: Abort = match postcard::from_bytes(&body) {
                Ok(a) => a,
                Err(e) => return Err(Error::malformed(format!("undecodable abort frame: {e}"))),
            };
            return Err(Error::PeerAborted {
                kind: abort.kind,
                reason: truncate(&abort.reason, ABORT_REASON_LEN),
            });
        }
        Ok(())
    }

    /// Reads exactly `buf.len()` payload bytes across frame boundaries.
    fn read_payload(&mut self, buf: &mut [u8]) -> Result<()> {
        let mut pos = 0;
        while pos < buf.len() {
            self.next_frame()?;
            let n = self.in_left.min(buf.len() - pos);
            self.transport.read_exact(&mut buf[pos..pos + n])?;
            self.in_left -= n;
            pos += n;
        }
        Ok(())
    }

    /// Writes one data frame (split if longer than [`MAX_FRAME`]).
    fn write_frame(&mut self, data: &[u8]) -> Result<()> {
        for part in data.chunks(MAX_FRAME) {
            let header = (part.len() as u32).to_le_bytes();
            self.transport.write_all_pair(&header, part)?;
        }
        Ok(())
    }

    /// What protects this channel: plain TCP, TLS (with the peer's
    /// certificate fingerprint) or in-process; reports name it.
    pub fn security(&self) -> LinkSecurity {
        self.transport.security()
    }

    /// Counters so far.
    pub fn stats(&self) -> ChannelStats {
        self.stats
    }

    /// Queues raw bytes for the peer.
    pub fn send_bytes(&mut self, data: &[u8]) -> Result<()> {
        self.stats.bytes_sent += data.len() as u64;
        self.sent_since_read = true;
        if self.out.len() - HEADER + data.len() > WRITE_BUFFER {
            self.flush_buffer()?;
            if data.len() >= WRITE_BUFFER {
                return self.write_frame(data);
            }
        }
        self.out.extend_from_slice(data);
        Ok(())
    }

    /// Reads exactly `buf.len()` bytes, flushing pending output first.
    pub fn recv_bytes(&mut self, buf: &mut [u8]) -> Result<()> {
        if self.sent_since_read {
            self.flush()?;
            self.stats.rounds += 1;
            self.sent_since_read = false;
        }
        self.read_payload(buf)?;
        self.stats.bytes_received += buf.len() as u64;
        Ok(())
    }

    /// Reads at least `min` and at most `buf.len()` bytes (flushing pending
    /// output first) and returns how many: bulk streams (garbled tables) are
    /// consumed as they arrive instead of a buffer at a time.
    ///
    /// # Panics
    /// If `min > buf.len()` (a caller bug, never peer input).
    pub fn recv_bytes_at_least(&mut self, buf: &mut [u8], min: usize) -> Result<usize> {
        assert!(min <= buf.len(), "recv_bytes_at_least: min exceeds buffer");
        if self.sent_since_read {
            self.flush()?;
            self.stats.rounds += 1;
            self.sent_since_read = false;
        }
        let mut got = 0;
        while got < min {
            self.next_frame()?;
            let cap = self.in_left.min(buf.len() - got);
            let want = (min - got).min(cap);
            let n = self
                .transport
                .read_at_least(&mut buf[got..got + cap], want)?;
            self.in_left -= n;
            got += n;
        }
        self.stats.bytes_received += got as u64;
        Ok(got)
    }

    /// Whether the peer's next bytes have arrived, without blocking: lets a
    /// party do work that does not need them (garble ahead) instead of
    /// waiting. Pending output is pushed first, as before any read, so a
    /// peer waiting on it can answer; `true` when the transport cannot tell.
    pub fn peer_ready(&mut self) -> Result<bool> {
        self.flush()?;
        self.transport.ready()
    }

    /// Sends `data` and pushes it to the peer at once, without copying it
    /// through the write buffer (anything already queued goes first). For
    /// bulk data the peer can start on before the flight ends.
    pub fn send_bytes_now(&mut self, data: &[u8]) -> Result<()> {
        self.stats.bytes_sent += data.len() as u64;
        self.sent_since_read = true;
        let queued = self.out.len() - HEADER;
        if queued == 0 || queued + data.len() > MAX_FRAME {
            self.flush_buffer()?;
            self.write_frame(data)?;
        } else {
            // One frame: header, queued bytes, then `data`, in one call.
            let len = (queued + data.len()) as u32;
            self.out[..HEADER].copy_from_slice(&len.to_le_bytes());
            self.transport.write_all_pair(&self.out, data)?;
            self.out.truncate(HEADER);
        }
        self.transport.flush()
    }

    /// [`Channel::send_bytes_now`] for blocks.
    pub fn send_blocks_now(&mut self, blocks: &[Block]) -> Result<()> {
        self.send_bytes_now(bytemuck::cast_slice(blocks))
    }

    /// Flushes and closes the current flight: called by the phase driver at
    /// the end of a phase so that a party's last message is counted even
    /// though it never turns to receive.
    pub fn end_flight(&mut self) -> Result<()> {
        self.flush()?;
        if self.sent_since_read {
            self.stats.rounds += 1;
            self.sent_since_read = false;
        }
        Ok(())
    }

    /// Pushes all queued bytes to the peer.
    pub fn flush(&mut self) -> Result<()> {
        self.flush_buffer()?;
        self.transport.flush()
    }

    fn flush_buffer(&mut self) -> Result<()> {
        let queued = self.out.len() - HEADER;
        if queued > 0 {
            self.out[..HEADER].copy_from_slice(&(queued as u32).to_le_bytes());
            self.transport.write_all(&self.out)?;
            self.out.truncate(HEADER);
        }
        Ok(())
    }

    /// Sends a slice of blocks as raw bytes (bulk data: tables, OT columns).
    pub fn send_blocks(&mut self, blocks: &[Block]) -> Result<()> {
        self.send_bytes(bytemuck::cast_slice(blocks))
    }

    /// Receives exactly `blocks.len()` blocks.
    pub fn recv_blocks(&mut self, blocks: &mut [Block]) -> Result<()> {
        self.recv_bytes(bytemuck::cast_slice_mut(blocks))
    }

    /// Receives `n` blocks into a new vector.
    pub fn recv_block_vec(&mut self, n: usize) -> Result<Vec<Block>> {
        let mut v = vec![Block::ZERO; n];
        self.recv_blocks(&mut v)?;
        Ok(v)
    }

    /// Sends one block.
    pub fn send_block(&mut self, b: Block) -> Result<()> {
        self.send_blocks(std::slice::from_ref(&b))
    }

    /// Receives one block.
    pub fn recv_block(&mut self) -> Result<Block> {
        let mut b = Block::ZERO;
        self.recv_blocks(std::slice::from_mut(&mut b))?;
        Ok(b)
    }

    /// Sends bits packed 8 per byte, LSB first (the receiver must know the count).
    pub fn send_bits(&mut self, bits: &[bool]) -> Result<()> {
        let mut bytes = vec![0u8; bits.len().div_ceil(8)];
        for (i, &b) in bits.iter().enumerate() {
            bytes[i / 8] |= (b as u8) << (i % 8);
        }
        self.send_bytes(&bytes)
    }

    /// Receives `n` bits packed by [`Channel::send_bits`]; padding bits must be zero.
    pub fn recv_bits(&mut self, n: usize) -> Result<Vec<bool>> {
        let mut bytes = vec![0u8; n.div_ceil(8)];
        self.recv_bytes(&mut bytes)?;
        if !n.is_multiple_of(8) {
            if let Some(last) = bytes.last() {
                if last >> (n % 8) != 0 {
                    return Err(Error::malformed("non-zero padding in bit vector"));
                }
            }
        }
        Ok((0..n).map(|i| (bytes[i / 8] >> (i % 8)) & 1 == 1).collect())
    }

    /// Sends a small typed message: a u32 length, then its postcard encoding.
    pub fn send_msg<T: Serialize>(&mut self, msg: &T) -> Result<()> {
        let bytes = postcard::to_stdvec(msg)
            .map_err(|e| Error::Config(format!("cannot encode message: {e}")))?;
        if bytes.len() > MAX_MESSAGE_LEN {
            return Err(Error::Config(format!(
                "message of {} bytes too long",
                bytes.len()
            )));
        }
        self.send_bytes(&(bytes.len() as u32).to_le_bytes())?;
        self.send_bytes(&bytes)
    }

    /// Receives a typed message sent by [`Channel::send_msg`]. An over-long
    /// length or bytes that do not decode as `T` are [`Error::Malformed`].
    pub fn recv_msg<T: DeserializeOwned>(&mut self) -> Result<T> {
        let mut len = [0u8; 4];
        self.recv_bytes(&mut len)?;
        let len = u32::from_le_bytes(len) as usize;
        if len > MAX_MESSAGE_LEN {
            return Err(Error::malformed(format!(
                "message length {len} exceeds limit"
            )));
        }
        // The buffer grows with the bytes that arrive, so a length the peer
        // does not back with bytes costs no allocation.
        let mut buf = Vec::new();
        while buf.len() < len {
            let at = buf.len();
            buf.resize(at + (len - at).min(MSG_READ_STEP.max(at)), 0);
            self.recv_bytes(&mut buf[at..])?;
        }
        let (msg, rest) = postcard::take_from_bytes(&buf)
            .map_err(|e| Error::malformed(format!("cannot decode message: {e}")))?;
        if !rest.is_empty() {
            return Err(Error::malformed("trailing bytes after message"));
        }
        Ok(msg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_blocks_bits_and_counters() {
        let (mut a, mut b) = memory_pair();
        let t = std::thread::spawn(move || {
            let m: Vec<u32> = b.recv_msg().unwrap();
            let blocks = b.recv_block_vec(3).unwrap();
            let bits = b.recv_bits(11).unwrap();
            b.send_msg(&(m.iter().sum::<u32>(), blocks[2], bits))
                .unwrap();
            b.flush().unwrap();
            b.stats()
        });
        a.send_msg(&vec![1u32, 2, 3]).unwrap();
        a.send_blocks(&[Block(1), Block(2), Block(3)]).unwrap();
        let bits: Vec<bool> = (0..11).map(|i| i % 3 == 0).collect();
        a.send_bits(&bits).unwrap();
        let (sum, blk, back): (u32, Block, Vec<bool>) = a.recv_msg().unwrap();
        assert_eq!(sum, 6);
        assert_eq!(blk, Block(3));
        assert_eq!(back, bits);
        let sb = t.join().unwrap();
        let sa = a.stats();
        assert_eq!(sa.bytes_sent, sb.bytes_received);
        assert_eq!(sa.bytes_received, sb.bytes_sent);
        assert_eq!(sa.rounds, 1);
    }

    #[test]
    fn partial_reads_and_immediate_sends_keep_order_and_counts() {
        let (mut a, mut b) = memory_pair();
        a.send_bytes(&[1, 2, 3]).unwrap();
        a.send_bytes_now(&[4, 5, 6, 7]).unwrap();
        let mut buf = [0u8; 16];
        let n = b.recv_bytes_at_least(&mut buf[..7], 2).unwrap();
        assert!((2..=7).contains(&n));
        let mut rest = vec![0u8; 7 - n];
        b.recv_bytes(&mut rest).unwrap();
        let got: Vec<u8> = buf[..n].iter().chain(&rest).copied().collect();
        assert_eq!(got, vec![1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(b.stats().bytes_received, 7);
        assert_eq!(a.stats().bytes_sent, 7);
        assert_eq!(b.recv_bytes_at_least(&mut buf, 0).unwrap(), 0);
    }

    #[test]
    fn peer_ready_sees_arrivals_and_flushes_first() {
        let (mut a, mut b) = memory_pair();
        assert!(!b.peer_ready().unwrap());
        // Queued (unflushed) bytes reach the peer when we poll.
        a.send_bytes(&[9]).unwrap();
        assert!(!a.peer_ready().unwrap());
        assert!(b.peer_ready().unwrap());
        let mut x = [0u8; 1];
        b.recv_bytes(&mut x).unwrap();
        assert_eq!(x, [9]);
        assert!(!b.peer_ready().unwrap());
        // A vanished peer reads as ready: the read that follows reports it.
        drop(a);
        assert!(b.peer_ready().unwrap());
        assert!(matches!(b.recv_bytes(&mut x), Err(Error::Disconnected(_))));
    }

    #[test]
    fn oversized_length_is_malformed() {
        let (mut a, mut b) = memory_pair();
        a.send_bytes(&u32::MAX.to_le_bytes()).unwrap();
        a.flush().unwrap();
        assert!(matches!(b.recv_msg::<u8>(), Err(Error::Malformed(_))));
    }

    #[test]
    fn abort_frames_are_typed_and_bounded() {
        // Between data frames, mid-stream.
        let (mut a, mut b) = memory_pair();
        a.send_bytes(&[1, 2, 3]).unwrap();
        a.flush().unwrap();
        a.send_abort(&Abort {
            kind: ErrorKind::Storage,
            reason: format!("store busy\x1b[2J{}", "x".repeat(500)),
        });
        let mut x = [0u8; 2];
        b.recv_bytes(&mut x).unwrap();
        let mut y = [0u8; 2];
        match b.recv_bytes(&mut y) {
            Err(Error::PeerAborted { kind, reason }) => {
                assert_eq!(kind, ErrorKind::Storage);
                assert!(reason.starts_with("store busy"));
                assert!(!reason.contains('\x1b'));
                assert!(reason.len() <= ABORT_REASON_LEN);
            }
            other => panic!("{other:?}"),
        }
        // An over-long control frame is malformed, never allocated.
        let (mut a, b) = memory_transport_pair();
        a.write_all(&(CONTROL | 0x7fff_ffff).to_le_bytes()).unwrap();
        let mut b = Channel::new(b);
        assert!(matches!(b.recv_block(), Err(Error::Malformed(_))));
        // An undecodable abort body (unknown kind) is malformed.
        let (mut a, b2) = memory_transport_pair();
        a.write_all(&(CONTROL | 2).to_le_bytes()).unwrap();
        a.write_all(&[200, 0]).unwrap();
        let mut b2 = Channel::new(b2);
        assert!(matches!(b2.recv_block(), Err(Error::Malformed(_))));
    }

    #[test]
    fn frames_do_not_count_and_split_reads_work() {
        let (mut a, mut b) = memory_pair();
        a.send_bytes(&[1; 10]).unwrap();
        a.flush().unwrap();
        a.send_bytes_now(&[2; 5]).unwrap();
        a.send_bytes(&[3; 7]).unwrap();
        a.send_bytes_now(&[4; 3]).unwrap();
        let mut buf = [0u8; 25];
        b.recv_bytes(&mut buf).unwrap();
        assert_eq!(&buf[..10], &[1; 10]);
        assert_eq!(&buf[10..15], &[2; 5]);
        assert_eq!(&buf[15..22], &[3; 7]);
        assert_eq!(&buf[22..], &[4; 3]);
        assert_eq!(a.stats().bytes_sent, 25);
        assert_eq!(b.stats().bytes_received, 25);
    }

    #[test]
    fn an_unbacked_length_ends_in_disconnect_and_long_messages_decode() {
        // 64 MiB announced, 3 bytes sent, then the peer hangs up.
        let mut wire = 7u32.to_le_bytes().to_vec();
        wire.extend_from_slice(&(MAX_MESSAGE_LEN as u32).to_le_bytes());
        wire.extend_from_slice(&[1, 2, 3]);
        let mut ch = scripted(&wire);
        assert!(matches!(
            ch.recv_msg::<Vec<u8>>(),
            Err(Error::Disconnected(_))
        ));
        // A long message split over several steps still decodes.
        let long = vec![5u8; 3 * MSG_READ_STEP + 17];
        let (mut a, mut b) = memory_pair();
        let t = std::thread::spawn(move || {
            a.send_msg(&long).unwrap();
            a.flush().unwrap();
            long
        });
        let got: Vec<u8> = b.recv_msg().unwrap();
        assert_eq!(got, t.join().unwrap());
    }

    #[test]
    fn garbage_is_malformed() {
        let (mut a, mut b) = memory_pair();
        a.send_bytes(&3u32.to_le_bytes()).unwrap();
        a.send_bytes(&[0xff, 0xff, 0xff]).unwrap();
        a.flush().unwrap();
        assert!(matches!(b.recv_msg::<u64>(), Err(Error::Malformed(_))));
    }
}
