//! TCP transport: the channel used between two processes or machines.
//!
//! Nagle's algorithm is switched off because protocols alternate small
//! messages and [`Channel`] already coalesces writes; leaving Nagle on adds
//! up to 40 ms per round trip on Linux (delayed ACK interaction). Every
//! blocking operation has a deadline so a stalled peer yields
//! [`Error::Timeout`] instead of a hung process.

use super::spin::{ReadSpin, SpinState, Wait};
use super::tls::{LinkSecurity, TlsOptions, TlsStream};
use super::{Channel, NetProfile, ShapedTransport, Transport};
use crate::{Error, Result};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

/// Size of the read buffer: large enough that a run of small typed messages
/// costs one system call, small enough to stay in L1/L2.
const READ_BUFFER: usize = 1 << 16;

/// How long to wait between connection attempts while the peer's listener is
/// not up yet.
const CONNECT_RETRY: Duration = Duration::from_millis(20);

/// How often a pending `accept` checks its deadline.
const ACCEPT_POLL: Duration = Duration::from_millis(5);

/// Timeouts and optional shaping for TCP channels.
#[derive(Clone, Debug)]
pub struct NetOptions {
    /// A read (or a write blocked on a full socket buffer) that makes no
    /// progress for this long fails with [`Error::Timeout`].
    pub read_timeout: Duration,
    /// [`connect`] retries refused connections until this much time passed,
    /// so the two parties can be started in either order.
    pub connect_timeout: Duration,
    /// [`accept`] gives up after this long without a peer.
    pub accept_timeout: Duration,
    /// If set, the channel adds this latency and bandwidth cap on top of the
    /// real link (see [`ShapedTransport`]).
    pub profile: Option<NetProfile>,
    /// What a read that finds no bytes does: poll the socket for a while
    /// before sleeping, which saves a sleep and a wake-up per message (tens
    /// of µs on a virtual machine) when the peer answers soon and a core is
    /// free, or sleep at once. The default, [`ReadSpin::Auto`], polls
    /// (yielding) only while polls pay; see [`super::spin`].
    pub spin: ReadSpin,
}

impl Default for NetOptions {
    fn default() -> Self {
        NetOptions {
            read_timeout: Duration::from_secs(60),
            connect_timeout: Duration::from_secs(30),
            accept_timeout: Duration::from_secs(60),
            profile: None,
            spin: ReadSpin::Auto,
        }
    }
}

impl NetOptions {
    /// Default options with the given read timeout (handy in tests).
    pub fn with_read_timeout(read_timeout: Duration) -> Self {
        NetOptions {
            read_timeout,
            ..Default::default()
        }
    }
}

/// One end of a TCP connection, with a read buffer, plain or under TLS.
pub struct TcpTransport {
    link: Link,
    /// The socket: its mode and deadlines, and plain writes.
    writer: TcpStream,
    /// The socket is in non-blocking mode (left so by [`Transport::ready`]
    /// or a spin): reads and writes try it first and switch back to
    /// blocking only when they would block, so a run of polls, reads and
    /// writes costs no mode switches at all.
    nonblocking: bool,
    /// See [`NetOptions::spin`].
    spin: SpinState,
}

/// What the bytes go through: the socket itself, or a TLS session over it
/// (`super::tls`), which reads and writes like the socket so the spin,
/// deadlines and aborts below work the same for both.
enum Link {
    Plain(BufReader<TcpStream>),
    Tls(Box<TlsStream>),
}

impl Link {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Link::Plain(r) => r.read(buf),
            Link::Tls(t) => t.read(buf),
        }
    }

    /// Raw bytes, for discarding while lingering.
    fn discard(&mut self, sink: &mut [u8]) -> io::Result<usize> {
        match self {
            Link::Plain(r) => r.read(sink),
            Link::Tls(t) => t.discard(sink),
        }
    }

    fn write_vectored(
        &mut self,
        socket: &mut TcpStream,
        bufs: &[io::IoSlice<'_>],
    ) -> io::Result<usize> {
        match self {
            Link::Plain(_) => socket.write_vectored(bufs),
            Link::Tls(t) => t.write_vectored(bufs),
        }
    }

    /// Pushes out records the TLS session still holds (none for plain).
    fn push(&mut self) -> io::Result<()> {
        match self {
            Link::Plain(_) => Ok(()),
            Link::Tls(t) => t.push(),
        }
    }

    /// See [`Transport::ready`]; `WouldBlock` when nothing is there.
    fn ready(&mut self) -> io::Result<bool> {
        match self {
            Link::Plain(r) => {
                if !r.buffer().is_empty() {
                    return Ok(true);
                }
                // Bytes, or the end of the stream, which the next read reports.
                r.fill_buf().map(|_| true)
            }
            Link::Tls(t) => t.ready(),
        }
    }
}

impl TcpTransport {
    /// Configures an established stream: no Nagle, read/write deadlines.
    pub fn from_stream(stream: TcpStream, opts: &NetOptions) -> Result<Self> {
        Self::from_stream_with(stream, opts, None)
    }

    /// Like [`TcpTransport::from_stream`], then runs the TLS handshake
    /// (client side when `client`), under the read deadline.
    pub fn from_stream_tls(
        stream: TcpStream,
        opts: &NetOptions,
        tls: &TlsOptions,
        client: bool,
    ) -> Result<Self> {
        Self::from_stream_with(stream, opts, Some((tls, client)))
    }

    fn from_stream_with(
        stream: TcpStream,
        opts: &NetOptions,
        tls: Option<(&TlsOptions, bool)>,
    ) -> Result<Self> {
        stream.set_nodelay(true)?;
        stream.set_nonblocking(false)?;
        // A zero duration means "no timeout" to the OS API; refuse it rather
        // than silently waiting forever.
        let t = nonzero(opts.read_timeout)?;
        stream.set_read_timeout(Some(t))?;
        stream.set_write_timeout(Some(t))?;
        let writer = stream.try_clone()?;
        let link = match tls {
            None => Link::Plain(BufReader::with_capacity(READ_BUFFER, stream)),
            Some((tls, client)) => {
                let t = if client {
                    TlsStream::client(&stream, tls)
                } else {
                    TlsStream::server(&stream, tls)
                };
                Link::Tls(Box::new(t.map_err(|e| map_io(e, "TLS handshake"))?))
            }
        };
        Ok(TcpTransport {
            link,
            writer,
            nonblocking: false,
            spin: SpinState::new(opts.spin),
        })
    }

    /// Connects to `addr`, retrying until `opts.connect_timeout` so the
    /// listener may start later than the connector.
    pub fn connect(addr: &str, opts: &NetOptions) -> Result<Self> {
        connect_transport_with(addr, opts, None)
    }

    /// The peer's address.
    pub fn peer_addr(&self) -> Result<SocketAddr> {
        Ok(self.writer.peer_addr()?)
    }

    /// Plain TCP, or TLS with the peer's certificate fingerprint.
    pub fn security(&self) -> LinkSecurity {
        match &self.link {
            Link::Plain(_) => LinkSecurity::PlainTcp,
            Link::Tls(t) => t.security(),
        }
    }
}

/// Connects (retrying as [`TcpTransport::connect`] says), then runs the TLS
/// handshake as the client if `tls` is given. A refused certificate is not
/// retried.
pub(crate) fn connect_transport_with(
    addr: &str,
    opts: &NetOptions,
    tls: Option<&TlsOptions>,
) -> Result<TcpTransport> {
    let deadline = Instant::now() + opts.connect_timeout;
    loop {
        let err = match try_connect(addr, deadline) {
            Ok(stream) => {
                return TcpTransport::from_stream_with(stream, opts, tls.map(|t| (t, true)))
            }
            Err(e) => e,
        };
        if Instant::now() + CONNECT_RETRY >= deadline {
            return Err(Error::Timeout(format!("connect to {addr}: {err}")));
        }
        std::thread::sleep(CONNECT_RETRY);
    }
}

fn nonzero(t: Duration) -> Result<Duration> {
    if t.is_zero() {
        Err(Error::config(
            "a zero network timeout would disable the timeout",
        ))
    } else {
        Ok(t)
    }
}

fn try_connect(addr: &str, deadline: Instant) -> io::Result<TcpStream> {
    let mut last = io::Error::new(io::ErrorKind::NotFound, "address resolved to nothing");
    for a in addr.to_socket_addrs()? {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        match TcpStream::connect_timeout(&a, left) {
            Ok(s) => return Ok(s),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// Maps an OS error to the typed error a protocol can act on; a TLS
/// failure (carried inside the `io::Error`) is [`Error::Authentication`].
fn map_io(e: io::Error, what: &str) -> Error {
    if let Some(t) = e.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>()) {
        return Error::Authentication(super::tls::describe(t));
    }
    match e.kind() {
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => {
            Error::Timeout(format!("tcp {what}"))
        }
        io::ErrorKind::UnexpectedEof
        | io::ErrorKind::ConnectionReset
        | io::ErrorKind::ConnectionAborted
        | io::ErrorKind::BrokenPipe
        | io::ErrorKind::NotConnected => Error::Disconnected(format!("tcp {what}: {e}")),
        _ => Error::Io(e),
    }
}

impl TcpTransport {
    /// A non-blocking call found nothing to do: if the socket is still
    /// non-blocking (left so by a poll or a spin) switch it back, so the
    /// caller's retry waits, up to the deadline; if it was already blocking,
    /// the deadline has passed.
    fn would_block(&mut self, e: io::Error, what: &str) -> Result<()> {
        if self.nonblocking {
            self.writer.set_nonblocking(false)?;
            self.nonblocking = false;
            Ok(())
        } else {
            Err(map_io(e, what))
        }
    }

    /// Pushes out TLS records still held after a write (a socket that was
    /// non-blocking may have taken only part of them), waiting up to the
    /// deadline.
    fn push_records(&mut self) -> Result<()> {
        loop {
            match self.link.push() {
                Ok(()) => return Ok(()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => self.would_block(e, "write")?,
                Err(e) => return Err(map_io(e, "write")),
            }
        }
    }

    /// Reads into `buf` until at least `min` bytes arrived. Unless the
    /// policy is to block, each read tries the socket without blocking
    /// first; when it is empty a wait begins, and the spin policy says how
    /// long to poll before sleeping (see [`super::spin`]): a peer that
    /// answers within that costs no sleep and wake-up (expensive on a
    /// virtual machine) on either side. Each wait is reported to the policy
    /// when its bytes come.
    fn fill(&mut self, buf: &mut [u8], min: usize) -> Result<usize> {
        let mut got = 0;
        let mut wait: Option<Wait> = None;
        while got < min {
            // A wait that went to sleep stays blocking until its bytes come.
            if self.spin.polls() && !self.nonblocking && wait.is_none() {
                self.writer.set_nonblocking(true)?;
                self.nonblocking = true;
            }
            match self.link.read(&mut buf[got..]) {
                Ok(0) => {
                    return Err(map_io(
                        io::Error::from(io::ErrorKind::UnexpectedEof),
                        "read",
                    ))
                }
                Ok(n) => {
                    got += n;
                    if let Some(w) = wait.take() {
                        self.spin.record(w.finish(Instant::now()));
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    let now = Instant::now();
                    let w = wait.get_or_insert_with(|| self.spin.begin(now));
                    if self.nonblocking && w.poll_again(now) {
                        w.pause();
                    } else {
                        self.would_block(e, "read")?;
                    }
                }
                Err(e) => return Err(map_io(e, "read")),
            }
        }
        Ok(got)
    }
}

impl Transport for TcpTransport {
    fn write_all(&mut self, data: &[u8]) -> Result<()> {
        self.write_all_pair(data, &[])
    }

    fn write_all_pair(&mut self, first: &[u8], second: &[u8]) -> Result<()> {
        let mut bufs = [io::IoSlice::new(first), io::IoSlice::new(second)];
        let mut left: &mut [io::IoSlice] = &mut bufs;
        // Drops empty slices, so nothing-to-write is not taken for a
        // zero-length write (which means the peer is gone).
        io::IoSlice::advance_slices(&mut left, 0);
        while !left.is_empty() {
            match self.link.write_vectored(&mut self.writer, left) {
                Ok(0) => {
                    return Err(map_io(io::Error::from(io::ErrorKind::WriteZero), "write"));
                }
                Ok(n) => io::IoSlice::advance_slices(&mut left, n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => self.would_block(e, "write")?,
                Err(e) => return Err(map_io(e, "write")),
            }
        }
        self.push_records()
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> Result<()> {
        let n = buf.len();
        self.fill(buf, n).map(|_| ())
    }

    fn read_at_least(&mut self, buf: &mut [u8], min: usize) -> Result<usize> {
        self.fill(buf, min)
    }

    fn flush(&mut self) -> Result<()> {
        self.push_records()?;
        self.writer.flush().map_err(|e| map_io(e, "flush"))
    }

    fn linger(&mut self, max: Duration) {
        let deadline = Instant::now() + max;
        let _ = self.writer.shutdown(std::net::Shutdown::Write);
        let _ = self.writer.set_nonblocking(false);
        self.nonblocking = false;
        let mut sink = [0u8; 1 << 14];
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || self.writer.set_read_timeout(Some(left)).is_err() {
                return;
            }
            match self.link.discard(&mut sink) {
                Ok(0) => return,
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return,
            }
        }
    }

    fn security(&self) -> LinkSecurity {
        TcpTransport::security(self)
    }

    fn new_stage(&mut self) {
        self.spin.restart();
    }

    fn ready(&mut self) -> Result<bool> {
        if let Link::Plain(r) = &self.link {
            if !r.buffer().is_empty() {
                return Ok(true);
            }
        }
        if !self.nonblocking {
            self.writer.set_nonblocking(true)?;
            self.nonblocking = true;
        }
        loop {
            return match self.link.ready() {
                Ok(r) => Ok(r),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(false),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => Err(map_io(e, "poll")),
            };
        }
    }
}

pub(crate) fn into_channel(t: TcpTransport, opts: &NetOptions) -> Channel {
    match &opts.profile {
        Some(p) => Channel::new(ShapedTransport::new(t, p.clone())),
        None => Channel::new(t),
    }
}

/// Connects to a listening peer (see [`TcpTransport::connect`]).
pub fn connect(addr: &str, opts: &NetOptions) -> Result<Channel> {
    Ok(into_channel(TcpTransport::connect(addr, opts)?, opts))
}

/// Binds a listener; use port 0 and `local_addr()` to get a free port.
pub fn listen(addr: &str) -> Result<TcpListener> {
    Ok(TcpListener::bind(addr)?)
}

/// Waits for one peer on `listener`, failing with [`Error::Timeout`] after
/// `opts.accept_timeout`.
pub fn accept(listener: &TcpListener, opts: &NetOptions) -> Result<Channel> {
    Ok(into_channel(accept_transport(listener, opts)?, opts))
}

/// Like [`accept`] but returns the bare transport.
pub fn accept_transport(listener: &TcpListener, opts: &NetOptions) -> Result<TcpTransport> {
    accept_transport_with(listener, opts, None)
}

/// Accepts one peer, then runs the TLS handshake as the server if `tls`
/// is given.
pub(crate) fn accept_transport_with(
    listener: &TcpListener,
    opts: &NetOptions,
    tls: Option<&TlsOptions>,
) -> Result<TcpTransport> {
    // The standard library has no accept timeout; poll a non-blocking
    // listener instead. The poll interval only delays the first message.
    listener.set_nonblocking(true)?;
    let deadline = Instant::now() + opts.accept_timeout;
    let result = loop {
        match listener.accept() {
            Ok((stream, _)) => {
                break TcpTransport::from_stream_with(stream, opts, tls.map(|t| (t, false)))
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    break Err(Error::Timeout("tcp accept".into()));
                }
                std::thread::sleep(ACCEPT_POLL);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => break Err(Error::Io(e)),
        }
    };
    listener.set_nonblocking(false)?;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Block;

    fn pair(read_timeout: Duration) -> (Channel, Channel) {
        pair_with(NetOptions::with_read_timeout(read_timeout))
    }

    fn pair_with(opts: NetOptions) -> (Channel, Channel) {
        let l = listen("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap().to_string();
        let o2 = opts.clone();
        let t = std::thread::spawn(move || connect(&addr, &o2).unwrap());
        let a = accept(&l, &opts).unwrap();
        (a, t.join().unwrap())
    }

    #[test]
    fn messages_and_bulk_round_trip() {
        let (mut a, mut b) = pair(Duration::from_secs(10));
        let t = std::thread::spawn(move || {
            let v: Vec<u64> = b.recv_msg().unwrap();
            let blocks = b.recv_block_vec(100_000).unwrap();
            let x = blocks.iter().fold(Block::ZERO, |acc, &x| acc ^ x);
            b.send_msg(&(v.iter().sum::<u64>(), x)).unwrap();
            b.flush().unwrap();
        });
        a.send_msg(&vec![5u64, 6, 7]).unwrap();
        let blocks: Vec<Block> = (0..100_000u128).map(|i| Block(i * 0x1234567)).collect();
        a.send_blocks(&blocks).unwrap();
        let (s, x): (u64, Block) = a.recv_msg().unwrap();
        assert_eq!(s, 18);
        assert_eq!(x, blocks.iter().fold(Block::ZERO, |acc, &x| acc ^ x));
        t.join().unwrap();
    }

    #[test]
    fn garbage_is_malformed() {
        let (mut a, mut b) = pair(Duration::from_secs(10));
        a.send_bytes(&5u32.to_le_bytes()).unwrap();
        a.send_bytes(&[0xff; 5]).unwrap();
        a.flush().unwrap();
        assert!(matches!(b.recv_msg::<u32>(), Err(Error::Malformed(_))));
        a.send_bytes(&u32::MAX.to_le_bytes()).unwrap();
        a.flush().unwrap();
        assert!(matches!(b.recv_msg::<u32>(), Err(Error::Malformed(_))));
    }

    #[test]
    fn stalled_peer_times_out() {
        let (_a, mut b) = pair(Duration::from_millis(200));
        let start = Instant::now();
        let r = b.recv_block();
        assert!(matches!(r, Err(Error::Timeout(_))), "{r:?}");
        let el = start.elapsed();
        assert!(
            el >= Duration::from_millis(150) && el < Duration::from_secs(5),
            "{el:?}"
        );
    }

    #[test]
    fn disconnect_is_typed() {
        let (a, mut b) = pair(Duration::from_secs(10));
        drop(a);
        let r = b.recv_block();
        assert!(matches!(r, Err(Error::Disconnected(_))), "{r:?}");
        // Writing into a closed connection eventually fails with a typed error.
        let mut failed = false;
        for _ in 0..100 {
            if let Err(e) = b.send_blocks(&[Block::ZERO; 4096]).and_then(|_| b.flush()) {
                assert!(matches!(e, Error::Disconnected(_) | Error::Io(_)), "{e:?}");
                failed = true;
                break;
            }
        }
        assert!(failed);
    }

    #[test]
    fn queued_bytes_and_bulk_leave_in_order() {
        let (mut a, mut b) = pair(Duration::from_secs(10));
        // Larger than the socket buffers, so `writev` returns short and the
        // rest must follow in order.
        let bulk: Vec<Block> = (0..(1u128 << 19)).map(|i| Block(i * 0x9e37)).collect();
        let n = bulk.len();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            let head: Vec<u32> = b.recv_msg().unwrap();
            (head, b.recv_block_vec(n).unwrap(), b.recv_block().unwrap())
        });
        a.send_msg(&vec![1u32, 2]).unwrap();
        a.send_blocks_now(&bulk).unwrap();
        a.send_block(Block(5)).unwrap();
        a.flush().unwrap();
        let (head, got, tail) = t.join().unwrap();
        assert_eq!(head, vec![1, 2]);
        assert!(got == bulk);
        assert_eq!(tail, Block(5));
    }

    #[test]
    fn polling_leaves_reads_and_writes_blocking() {
        let (mut a, mut b) = pair(Duration::from_millis(300));
        assert!(!b.peer_ready().unwrap());
        a.send_block(Block(7)).unwrap();
        a.flush().unwrap();
        let start = Instant::now();
        while !b.peer_ready().unwrap() {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "bytes never arrived"
            );
        }
        assert_eq!(b.recv_block().unwrap(), Block(7));
        assert!(!b.peer_ready().unwrap());
        // After a poll that found nothing, a read still waits (and times
        // out) instead of failing at once with "would block".
        let start = Instant::now();
        assert!(matches!(b.recv_block(), Err(Error::Timeout(_))));
        assert!(start.elapsed() >= Duration::from_millis(200));
        // Bulk writes after a poll complete although the peer reads slowly.
        assert!(!a.peer_ready().unwrap());
        let blocks = vec![Block(3); 1 << 17];
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            b.recv_block_vec(1 << 17).unwrap()
        });
        a.send_blocks_now(&blocks).unwrap();
        assert_eq!(t.join().unwrap(), blocks);
        // A closed peer polls as ready and the read reports it.
        let (a, mut b) = pair(Duration::from_secs(10));
        drop(a);
        let start = Instant::now();
        while !b.peer_ready().unwrap() {
            assert!(start.elapsed() < Duration::from_secs(5), "close never seen");
        }
        assert!(matches!(b.recv_block(), Err(Error::Disconnected(_))));
    }

    #[test]
    fn spinning_reads_deliver_time_out_and_see_disconnects() {
        for spin in [
            ReadSpin::Fixed(Duration::from_micros(200)),
            ReadSpin::Auto,
            ReadSpin::Block,
        ] {
            spinning_reads(spin);
        }
    }

    fn spinning_reads(spin: ReadSpin) {
        let opts = NetOptions {
            spin,
            ..NetOptions::with_read_timeout(Duration::from_millis(300))
        };
        let (mut a, mut b) = pair_with(opts);
        let t = std::thread::spawn(move || {
            // Replies both at once (within the spin) and late (after it).
            for i in 0..50u128 {
                let x = b.recv_block().unwrap();
                if i % 10 == 0 {
                    std::thread::sleep(Duration::from_millis(2));
                }
                b.send_block(Block(x.0 + i)).unwrap();
                b.flush().unwrap();
            }
            let bulk = b.recv_block_vec(1 << 17).unwrap();
            b.send_block(bulk.iter().fold(Block::ZERO, |s, &x| s ^ x))
                .unwrap();
            b.flush().unwrap();
            b
        });
        for i in 0..50u128 {
            a.send_block(Block(7 * i)).unwrap();
            assert_eq!(a.recv_block().unwrap(), Block(8 * i));
        }
        let bulk: Vec<Block> = (0..(1u128 << 17)).map(Block).collect();
        a.send_blocks_now(&bulk).unwrap();
        let want = bulk.iter().fold(Block::ZERO, |s, &x| s ^ x);
        assert_eq!(a.recv_block().unwrap(), want);
        let b = t.join().unwrap();
        let start = Instant::now();
        assert!(matches!(a.recv_block(), Err(Error::Timeout(_))));
        assert!(start.elapsed() >= Duration::from_millis(250));
        drop(b);
        assert!(matches!(a.recv_block(), Err(Error::Disconnected(_))));
    }

    #[test]
    fn abort_reaches_a_reader_and_a_blocked_writer() {
        use crate::channel::Abort;
        use crate::ErrorKind;
        // The peer is reading: it sees the abort at once.
        let (mut a, mut b) = pair(Duration::from_secs(30));
        let t = std::thread::spawn(move || {
            let start = Instant::now();
            let r = b.recv_block();
            (r, start.elapsed())
        });
        std::thread::sleep(Duration::from_millis(20));
        a.send_abort(&Abort::for_error(&Error::config("wrong circuit")));
        drop(a);
        let (r, el) = t.join().unwrap();
        match r {
            Err(Error::PeerAborted { kind, reason }) => {
                assert_eq!(kind, ErrorKind::Config);
                assert!(reason.contains("wrong circuit"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        assert!(el < Duration::from_secs(5), "{el:?}");
        // The peer is writing more than the socket buffers hold and reads
        // only afterwards: the aborting side drains, so the abort survives.
        let (mut a, mut b) = pair(Duration::from_secs(30));
        let t = std::thread::spawn(move || {
            let bulk = vec![Block(1); 1 << 18];
            b.send_blocks_now(&bulk)?;
            b.recv_block()
        });
        std::thread::sleep(Duration::from_millis(50));
        a.send_abort(&Abort::for_error(&Error::Cheating {
            check: "secret-check",
        }));
        drop(a);
        match t.join().unwrap() {
            Err(Error::PeerAborted { kind, reason }) => {
                assert_eq!(kind, ErrorKind::Cheating);
                assert!(!reason.contains("secret-check"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn partial_message_then_disconnect() {
        let (mut a, mut b) = pair(Duration::from_secs(10));
        a.send_bytes(&100u32.to_le_bytes()).unwrap();
        a.send_bytes(&[1, 2, 3]).unwrap();
        a.flush().unwrap();
        drop(a);
        let r = b.recv_msg::<Vec<u8>>();
        assert!(matches!(r, Err(Error::Disconnected(_))), "{r:?}");
    }

    #[test]
    fn connect_retries_until_listener_appears_and_accept_times_out() {
        // Reserve a port, free it, and start listening on it a bit later.
        let port = listen("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let addr = format!("127.0.0.1:{port}");
        let opts = NetOptions {
            connect_timeout: Duration::from_secs(5),
            ..Default::default()
        };
        let a2 = addr.clone();
        let t = std::thread::spawn(move || connect(&a2, &opts).map(|_| ()));
        std::thread::sleep(Duration::from_millis(100));
        let l = listen(&addr).unwrap();
        let _c = accept(&l, &NetOptions::default()).unwrap();
        t.join().unwrap().unwrap();

        let quick = NetOptions {
            accept_timeout: Duration::from_millis(50),
            ..Default::default()
        };
        assert!(matches!(accept(&l, &quick), Err(Error::Timeout(_))));
        let nobody = NetOptions {
            connect_timeout: Duration::from_millis(100),
            ..Default::default()
        };
        drop(l);
        assert!(matches!(connect(&addr, &nobody), Err(Error::Timeout(_))));
    }
}
