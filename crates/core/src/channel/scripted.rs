//! Transports for robustness tests and fuzz targets: a peer that is a fixed
//! byte string, and a wrapper that records what a real peer sent.
//!
//! An honest party run against [`Scripted`] bytes (arbitrary, or a recorded
//! honest transcript with bytes flipped or cut) must end in a typed error
//! or a correct result, never a panic, a hang or an unbounded allocation.

use super::{Channel, Transport};
use crate::{Error, Result};
use std::sync::{Arc, Mutex};

/// A peer whose messages are `bytes`, then a hang-up; what the party
/// writes is dropped.
pub struct Scripted {
    bytes: Vec<u8>,
    at: usize,
}

/// A channel whose peer is `bytes`.
pub fn scripted(bytes: &[u8]) -> Channel {
    Channel::new(Scripted {
        bytes: bytes.to_vec(),
        at: 0,
    })
}

impl Transport for Scripted {
    fn write_all(&mut self, _data: &[u8]) -> Result<()> {
        Ok(())
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> Result<()> {
        let end = self.at + buf.len();
        let Some(src) = self.bytes.get(self.at..end) else {
            self.at = self.bytes.len();
            return Err(Error::Disconnected("scripted peer ended".into()));
        };
        buf.copy_from_slice(src);
        self.at = end;
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        Ok(())
    }
}

/// Wraps a transport and keeps a copy of every byte written through it:
/// the transcript one party sent, to replay (altered) against the other.
pub struct Recording<T> {
    inner: T,
    log: Arc<Mutex<Vec<u8>>>,
}

impl<T: Transport> Recording<T> {
    /// Records writes through `inner` into the returned log.
    pub fn new(inner: T) -> (Self, Arc<Mutex<Vec<u8>>>) {
        let log = Arc::new(Mutex::new(Vec::new()));
        (
            Recording {
                inner,
                log: log.clone(),
            },
            log,
        )
    }

    fn record(&self, data: &[u8]) {
        if let Ok(mut l) = self.log.lock() {
            l.extend_from_slice(data);
        }
    }
}

impl<T: Transport> Transport for Recording<T> {
    fn write_all(&mut self, data: &[u8]) -> Result<()> {
        self.record(data);
        self.inner.write_all(data)
    }

    fn write_all_pair(&mut self, first: &[u8], second: &[u8]) -> Result<()> {
        self.record(first);
        self.record(second);
        self.inner.write_all_pair(first, second)
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> Result<()> {
        self.inner.read_exact(buf)
    }

    fn read_at_least(&mut self, buf: &mut [u8], min: usize) -> Result<usize> {
        self.inner.read_at_least(buf, min)
    }

    fn flush(&mut self) -> Result<()> {
        self.inner.flush()
    }

    fn ready(&mut self) -> Result<bool> {
        self.inner.ready()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::memory_transport_pair;

    /// What a channel writes for `data` (framing included), recorded.
    fn sent(data: &[u8]) -> Vec<u8> {
        let (a, _b) = memory_transport_pair();
        let (rec, log) = Recording::new(a);
        let mut ch = Channel::new(rec);
        ch.send_bytes(data).unwrap();
        ch.flush().unwrap();
        let mut recorded = Vec::new();
        recorded.extend_from_slice(&log.lock().unwrap());
        recorded
    }

    #[test]
    fn scripted_replays_a_recording_then_hangs_up() {
        let mut ch = scripted(&sent(&[1, 2, 3]));
        ch.send_bytes(&[9; 100]).unwrap();
        let mut two = [0u8; 2];
        ch.recv_bytes(&mut two).unwrap();
        assert_eq!(two, [1, 2]);
        assert!(matches!(
            ch.recv_bytes(&mut two),
            Err(Error::Disconnected(_))
        ));
    }

    #[test]
    fn recording_keeps_what_was_sent() {
        let (a, b) = memory_transport_pair();
        let (rec, log) = Recording::new(a);
        let (mut ca, mut cb) = (Channel::new(rec), Channel::new(b));
        ca.send_bytes(&[4, 5, 6]).unwrap();
        ca.flush().unwrap();
        let mut got = [0u8; 3];
        cb.recv_bytes(&mut got).unwrap();
        assert_eq!(got, [4, 5, 6]);
        let log = log.lock().unwrap().clone();
        let mut again = [0u8; 3];
        scripted(&log).recv_bytes(&mut again).unwrap();
        assert_eq!(again, [4, 5, 6]);
    }
}
