//! A TLS session over a TCP socket, read and written like the socket:
//! `read` returns plaintext (or the socket's `WouldBlock`/timeout, so the
//! TCP transport's spin and deadlines work unchanged), `write_vectored`
//! takes plaintext and pushes records out. A record that fails
//! authentication, or an alert from the peer, comes back as an
//! `io::Error` that carries the `rustls::Error`, which the transport turns
//! into [`crate::Error::Authentication`].

use super::{Fingerprint, LinkSecurity, TlsOptions};
use rustls::Connection;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;

/// Size of the ciphertext read buffer (several full records per system call).
const READ_BUFFER: usize = 1 << 16;

/// The byte a listener sends once it accepted the client's certificate:
/// in TLS 1.3 the client finishes its handshake before the server has
/// checked the client's certificate, so without it a refused client would
/// learn of the refusal only at its first read, mixed up with whatever it
/// had sent meanwhile.
const ACCEPTED: u8 = 0xa5;

/// One TLS session (client or server side) over its socket.
pub(crate) struct TlsStream {
    conn: Connection,
    input: BufReader<TcpStream>,
    output: TcpStream,
}

fn tls_error(e: rustls::Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

impl TlsStream {
    /// Runs the handshake as the client on a blocking socket with deadlines.
    pub(crate) fn client(sock: &TcpStream, tls: &TlsOptions) -> io::Result<TlsStream> {
        let conn = rustls::ClientConnection::new(tls.client.clone(), tls.server_name.clone())
            .map_err(tls_error)?;
        let mut s = TlsStream::new(sock, conn.into())?;
        s.handshake()?;
        let mut b = [0u8; 1];
        s.read_full(&mut b)?;
        if b[0] != ACCEPTED {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "TLS: the listener's first byte is not the acceptance byte",
            ));
        }
        Ok(s)
    }

    /// Runs the handshake as the server (a client certificate is required).
    pub(crate) fn server(sock: &TcpStream, tls: &TlsOptions) -> io::Result<TlsStream> {
        let conn = rustls::ServerConnection::new(tls.server.clone()).map_err(tls_error)?;
        let mut s = TlsStream::new(sock, conn.into())?;
        s.handshake()?;
        s.conn.writer().write_all(&[ACCEPTED])?;
        s.push()?;
        Ok(s)
    }

    fn new(sock: &TcpStream, conn: Connection) -> io::Result<TlsStream> {
        Ok(TlsStream {
            conn,
            input: BufReader::with_capacity(READ_BUFFER, sock.try_clone()?),
            output: sock.try_clone()?,
        })
    }

    fn handshake(&mut self) -> io::Result<()> {
        while self.conn.is_handshaking() {
            self.push()?;
            if !self.conn.is_handshaking() {
                break;
            }
            if self.conn.wants_read() {
                self.read_records()?;
            }
        }
        self.push()
    }

    /// Reads what the socket has and processes it; a failure (an altered
    /// record, an alert, a refused certificate) is sent to the peer as an
    /// alert, best effort, and returned.
    fn read_records(&mut self) -> io::Result<usize> {
        let n = self.conn.read_tls(&mut self.input)?;
        if let Err(e) = self.conn.process_new_packets() {
            let _ = self.push();
            return Err(tls_error(e));
        }
        Ok(n)
    }

    fn read_full(&mut self, buf: &mut [u8]) -> io::Result<()> {
        let mut got = 0;
        while got < buf.len() {
            match self.read(&mut buf[got..])? {
                0 => return Err(io::ErrorKind::UnexpectedEof.into()),
                n => got += n,
            }
        }
        Ok(())
    }

    /// Writes all pending records to the socket; on a non-blocking socket
    /// may stop with `WouldBlock`, leaving the rest pending.
    pub(crate) fn push(&mut self) -> io::Result<()> {
        while self.conn.wants_write() {
            if self.conn.write_tls(&mut self.output)? == 0 {
                return Err(io::ErrorKind::WriteZero.into());
            }
        }
        Ok(())
    }

    /// Encrypts plaintext from `bufs` (up to rustls's buffer limit, so
    /// bulk data is not copied whole) after pushing out what was pending;
    /// returns how much plaintext was taken.
    pub(crate) fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.push()?;
        let n = self.conn.writer().write_vectored(bufs)?;
        match self.push() {
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(n),
            Err(e) => Err(e),
            Ok(()) => Ok(n),
        }
    }

    /// Whether a read would find plaintext, buffered ciphertext or the end
    /// of the stream; `WouldBlock` when the socket is empty.
    pub(crate) fn ready(&mut self) -> io::Result<bool> {
        let state = self.conn.process_new_packets().map_err(tls_error)?;
        if state.plaintext_bytes_to_read() > 0 || state.peer_has_closed() {
            return Ok(true);
        }
        if !self.input.buffer().is_empty() {
            return Ok(true);
        }
        self.input.fill_buf().map(|_| true)
    }

    /// Discards raw bytes from the socket (used while lingering).
    pub(crate) fn discard(&mut self, sink: &mut [u8]) -> io::Result<usize> {
        self.input.read(sink)
    }

    /// The negotiated session, for reports.
    pub(crate) fn security(&self) -> LinkSecurity {
        let version = match self.conn.protocol_version() {
            Some(rustls::ProtocolVersion::TLSv1_3) => "TLS 1.3".to_string(),
            Some(v) => format!("{v:?}"),
            None => "TLS".to_string(),
        };
        let cipher_suite = self
            .conn
            .negotiated_cipher_suite()
            .map(|s| format!("{:?}", s.suite()))
            .unwrap_or_default();
        let peer_fingerprint = self
            .conn
            .peer_certificates()
            .and_then(|c| c.first())
            .map(|c| Fingerprint::of(c))
            .unwrap_or(Fingerprint([0; 32]));
        LinkSecurity::Tls {
            version,
            cipher_suite,
            peer_fingerprint,
        }
    }
}

impl Read for TlsStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match self.conn.reader().read(buf) {
                // 0: the peer closed with close_notify.
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                // The socket ended without close_notify (UnexpectedEof).
                Err(e) => return Err(e),
            }
            // No plaintext buffered: read records (the socket's WouldBlock
            // or timeout goes to the caller); at the end of the socket
            // rustls's reader reports the end on the next turn.
            self.read_records()?;
        }
    }
}
