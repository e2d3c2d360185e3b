//! An in-process transport for tests and single-process demos.

use super::{Channel, Transport};
use crate::{Error, Result};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::Duration;

/// How long a memory endpoint waits for the peer before reporting `Timeout`;
/// long enough for slow debug builds, short enough that a hung test fails.
const MEMORY_READ_TIMEOUT: Duration = Duration::from_secs(120);

/// One end of an in-memory pipe; bytes move in chunks through an mpsc queue.
pub struct MemoryTransport {
    tx: Sender<Vec<u8>>,
    rx: Receiver<Vec<u8>>,
    pending: Vec<u8>,
    pos: usize,
    timeout: Duration,
}

impl MemoryTransport {
    /// Sets the read timeout.
    pub fn set_read_timeout(&mut self, t: Duration) {
        self.timeout = t;
    }
}

/// Two connected in-memory transports.
pub fn memory_transport_pair() -> (MemoryTransport, MemoryTransport) {
    let (tx_a, rx_b) = channel();
    let (tx_b, rx_a) = channel();
    let mk = |tx, rx| MemoryTransport {
        tx,
        rx,
        pending: Vec::new(),
        pos: 0,
        timeout: MEMORY_READ_TIMEOUT,
    };
    (mk(tx_a, rx_a), mk(tx_b, rx_b))
}

/// Two connected in-memory channels.
pub fn memory_pair() -> (Channel, Channel) {
    let (a, b) = memory_transport_pair();
    (Channel::new(a), Channel::new(b))
}

impl Transport for MemoryTransport {
    fn write_all(&mut self, data: &[u8]) -> Result<()> {
        self.tx
            .send(data.to_vec())
            .map_err(|_| Error::Disconnected("memory peer dropped".into()))
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> Result<()> {
        let mut filled = 0;
        while filled < buf.len() {
            if self.pos == self.pending.len() {
                self.pending = match self.rx.recv_timeout(self.timeout) {
                    Ok(v) => v,
                    Err(RecvTimeoutError::Timeout) => {
                        return Err(Error::Timeout("memory channel read".into()))
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err(Error::Disconnected("memory peer dropped".into()))
                    }
                };
                self.pos = 0;
            }
            let n = (buf.len() - filled).min(self.pending.len() - self.pos);
            buf[filled..filled + n].copy_from_slice(&self.pending[self.pos..self.pos + n]);
            filled += n;
            self.pos += n;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        Ok(())
    }

    fn ready(&mut self) -> Result<bool> {
        while self.pos == self.pending.len() {
            match self.rx.try_recv() {
                Ok(v) => {
                    self.pending = v;
                    self.pos = 0;
                }
                Err(TryRecvError::Empty) => return Ok(false),
                Err(TryRecvError::Disconnected) => return Ok(true),
            }
        }
        Ok(true)
    }
}
