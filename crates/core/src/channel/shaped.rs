//! Network shaping: reproduce a LAN or WAN link inside one process (or over
//! loopback TCP) so that benchmark tables are comparable with the papers'
//! without root access to `tc netem`.
//!
//! Model: each direction is a FIFO link with a bandwidth cap and a fixed
//! one-way latency. The *sender* stamps every chunk it writes with its
//! delivery time `max(now, link_free) + len·8/bandwidth + latency` (and moves
//! `link_free` to the end of the serialisation), then writes it immediately;
//! the *receiver* sleeps until the stamp before exposing the bytes. So the
//! sender's CPU never waits on the simulated link (like an unbounded socket
//! buffer), latency overlaps with computation exactly as on a real link, and
//! back-to-back sends queue behind each other at the capped rate.
//!
//! Stamps are wall-clock (`SystemTime`) microseconds: both ends must share a
//! clock, which holds in one process and on one machine (loopback TCP). Over
//! a real network between machines, don't shape; the real link is the model.
//! The 12-byte chunk header is below [`super::Channel`], so it is not counted
//! in the channel's byte statistics.

use super::{memory_transport_pair, Channel, Transport};
use crate::{Error, Result};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Largest chunk stamped as one unit: bulk writes are split so that the
/// receiver can consume the start of a long transfer while the rest is still
/// "on the wire".
const CHUNK: usize = 1 << 18;

/// Below this remaining wait the receiver spins (yielding) instead of
/// sleeping, because the OS sleep overshoots by tens of microseconds, which
/// would dominate a LAN round trip of 160 µs.
const SPIN_BELOW: Duration = Duration::from_micros(300);

/// A stamp further in the future than this is refused rather than slept on,
/// so a corrupt header cannot hang the reader.
const MAX_WAIT: Duration = Duration::from_secs(600);

/// A simulated link: one-way latency and an optional bandwidth cap, per
/// direction (both directions get the same profile).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetProfile {
    /// One-way delay added to every chunk (half the round-trip time).
    pub latency: Duration,
    /// Link rate in bits per second; `None` means unlimited.
    pub bandwidth_bits_per_sec: Option<u64>,
}

impl NetProfile {
    /// No shaping at all.
    pub fn none() -> Self {
        NetProfile {
            latency: Duration::ZERO,
            bandwidth_bits_per_sec: None,
        }
    }

    /// Builds a profile from a round-trip time and a rate in Mbit/s.
    pub fn from_rtt(rtt: Duration, mbit: Option<f64>) -> Self {
        NetProfile {
            latency: rtt / 2,
            bandwidth_bits_per_sec: mbit.map(|m| (m * 1e6) as u64),
        }
    }

    /// The LAN of the LEGO/JIMU/Wang–Ranellucci–Katz evaluations: 0.16 ms
    /// round trip (0.08 ms one way), 10 Gbit/s.
    pub fn lan() -> Self {
        NetProfile::from_rtt(Duration::from_micros(160), Some(10_000.0))
    }

    /// The WAN of the same evaluations: 81 ms round trip, 214 Mbit/s.
    pub fn wan() -> Self {
        NetProfile::from_rtt(Duration::from_millis(81), Some(214.0))
    }

    /// CompGC's network (Groce et al.): "33 ms latency, 50 Mbit/s". We read
    /// the 33 ms as one-way delay, as `tc netem delay` (their tool's usual
    /// meaning of "latency") applies it per direction, so the RTT is 66 ms.
    pub fn compgc() -> Self {
        NetProfile {
            latency: Duration::from_millis(33),
            bandwidth_bits_per_sec: Some(50_000_000),
        }
    }

    /// Parses `lan`, `wan`, `compgc`, `none`, or `RTT_MS[,MBIT]` (e.g.
    /// `81,214`; a missing or zero rate means unlimited).
    pub fn parse(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "lan" => return Ok(NetProfile::lan()),
            "wan" => return Ok(NetProfile::wan()),
            "compgc" => return Ok(NetProfile::compgc()),
            "none" | "" => return Ok(NetProfile::none()),
            _ => {}
        }
        let bad = || {
            Error::config(format!(
                "network profile `{s}`: expected lan|wan|compgc|none|RTT_MS[,MBIT]"
            ))
        };
        let mut parts = s.split(',').map(str::trim);
        let rtt: f64 = parts.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
        let mbit: Option<f64> = match parts.next() {
            Some(m) => Some(m.parse().map_err(|_| bad())?),
            None => None,
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        let finite_nonneg = |x: f64| (0.0..1e9).contains(&x);
        if !finite_nonneg(rtt) || !mbit.is_none_or(finite_nonneg) {
            return Err(bad());
        }
        let rtt = Duration::from_secs_f64(rtt / 1000.0);
        Ok(NetProfile::from_rtt(rtt, mbit.filter(|&m| m > 0.0)))
    }

    /// Time to put `bytes` on the link at the capped rate.
    pub fn serialisation(&self, bytes: usize) -> Duration {
        match self.bandwidth_bits_per_sec {
            Some(bw) if bw > 0 => {
                Duration::from_nanos(((bytes as u128 * 8 * 1_000_000_000) / bw as u128) as u64)
            }
            _ => Duration::ZERO,
        }
    }
}

impl std::fmt::Display for NetProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rtt_ms = self.latency.as_secs_f64() * 2000.0;
        match self.bandwidth_bits_per_sec {
            Some(bw) => write!(f, "{rtt_ms}ms RTT, {} Mbit/s", bw as f64 / 1e6),
            None => write!(f, "{rtt_ms}ms RTT, unlimited"),
        }
    }
}

fn now_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_micros() as u64)
        .unwrap_or(0)
}

/// Sleeps until the wall clock reaches `t_us`: coarse sleep, then a short
/// yielding spin for precision.
fn wait_until_us(t_us: u64) {
    loop {
        let now = now_us();
        if now >= t_us {
            return;
        }
        let left = Duration::from_micros(t_us - now);
        if left > SPIN_BELOW {
            std::thread::sleep(left - SPIN_BELOW / 2);
        } else {
            std::thread::yield_now();
        }
    }
}

/// Wraps a transport with latency and a bandwidth cap (see the module docs).
pub struct ShapedTransport<T: Transport> {
    inner: T,
    profile: NetProfile,
    /// Wall-clock µs at which the outgoing link finishes its queued bytes.
    link_free_us: u64,
    pending: Vec<u8>,
    pos: usize,
}

impl<T: Transport> ShapedTransport<T> {
    /// Shapes `inner`; the peer must wrap its end too (the chunk headers are
    /// part of the wire format).
    pub fn new(inner: T, profile: NetProfile) -> Self {
        ShapedTransport {
            inner,
            profile,
            link_free_us: 0,
            pending: Vec::new(),
            pos: 0,
        }
    }

    fn next_chunk(&mut self) -> Result<()> {
        let mut hdr = [0u8; 12];
        self.inner.read_exact(&mut hdr)?;
        let deliver = u64::from_le_bytes(hdr[..8].try_into().expect("8 bytes"));
        let len = u32::from_le_bytes(hdr[8..].try_into().expect("4 bytes")) as usize;
        if len == 0 || len > CHUNK {
            return Err(Error::malformed(format!("shaped chunk of {len} bytes")));
        }
        self.pending.resize(len, 0);
        self.inner.read_exact(&mut self.pending)?;
        self.pos = 0;
        if deliver > now_us() + MAX_WAIT.as_micros() as u64 {
            return Err(Error::malformed(
                "shaped chunk stamped too far in the future",
            ));
        }
        wait_until_us(deliver);
        Ok(())
    }
}

impl<T: Transport> Transport for ShapedTransport<T> {
    fn write_all(&mut self, data: &[u8]) -> Result<()> {
        for chunk in data.chunks(CHUNK) {
            let start = self.link_free_us.max(now_us());
            let done = start + self.profile.serialisation(chunk.len()).as_micros() as u64;
            self.link_free_us = done;
            let deliver = done + self.profile.latency.as_micros() as u64;
            let mut hdr = [0u8; 12];
            hdr[..8].copy_from_slice(&deliver.to_le_bytes());
            hdr[8..].copy_from_slice(&(chunk.len() as u32).to_le_bytes());
            self.inner.write_all(&hdr)?;
            self.inner.write_all(chunk)?;
        }
        Ok(())
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> Result<()> {
        let mut filled = 0;
        while filled < buf.len() {
            if self.pos == self.pending.len() {
                self.next_chunk()?;
            }
            let n = (buf.len() - filled).min(self.pending.len() - self.pos);
            buf[filled..filled + n].copy_from_slice(&self.pending[self.pos..self.pos + n]);
            filled += n;
            self.pos += n;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        self.inner.flush()
    }

    fn security(&self) -> super::LinkSecurity {
        self.inner.security()
    }
}

/// Two in-memory channels connected by a simulated link.
pub fn shaped_memory_pair(profile: NetProfile) -> (Channel, Channel) {
    let (a, b) = memory_transport_pair();
    (
        Channel::new(ShapedTransport::new(a, profile.clone())),
        Channel::new(ShapedTransport::new(b, profile)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn presets_and_parsing() {
        assert_eq!(NetProfile::lan().latency, Duration::from_micros(80));
        assert_eq!(NetProfile::wan().bandwidth_bits_per_sec, Some(214_000_000));
        assert_eq!(NetProfile::parse("wan").unwrap(), NetProfile::wan());
        let p = NetProfile::parse("40, 100").unwrap();
        assert_eq!(p.latency, Duration::from_millis(20));
        assert_eq!(p.bandwidth_bits_per_sec, Some(100_000_000));
        assert_eq!(
            NetProfile::parse("10").unwrap().bandwidth_bits_per_sec,
            None
        );
        for bad in ["x", "1,2,3", "-5,10", "nan", "5,inf", "1e12"] {
            assert!(
                matches!(NetProfile::parse(bad), Err(Error::Config(_))),
                "{bad}"
            );
        }
        assert_eq!(
            NetProfile::wan().serialisation(214_000_000 / 8),
            Duration::from_secs(1)
        );
    }

    fn ping_pong(a: &mut Channel, b: Channel, rounds: usize) -> Duration {
        let t = std::thread::spawn(move || {
            let mut b = b;
            for _ in 0..rounds {
                let x: u32 = b.recv_msg().unwrap();
                b.send_msg(&(x + 1)).unwrap();
                b.flush().unwrap();
            }
        });
        let start = Instant::now();
        for i in 0..rounds as u32 {
            a.send_msg(&i).unwrap();
            assert_eq!(a.recv_msg::<u32>().unwrap(), i + 1);
        }
        let el = start.elapsed();
        t.join().unwrap();
        el
    }

    #[test]
    fn ping_pong_pays_the_round_trip() {
        let p = NetProfile::parse("40").unwrap(); // 20 ms one way
        let (mut a, b) = shaped_memory_pair(p);
        let el = ping_pong(&mut a, b, 4);
        // 4 round trips of 40 ms each. The upper bound (< 2×) catches latency
        // charged twice, with slack for a loaded machine.
        assert!(el >= Duration::from_millis(160), "{el:?}");
        assert!(el < Duration::from_millis(300), "{el:?}");
    }

    #[test]
    fn bulk_transfer_pays_the_bandwidth() {
        // 10 ms one way, 80 Mbit/s: 1 MB takes 100 ms + 10 ms.
        let p = NetProfile::parse("20,80").unwrap();
        let (mut a, b) = shaped_memory_pair(p);
        let t = std::thread::spawn(move || {
            let mut b = b;
            let mut buf = vec![0u8; 1_000_000];
            b.recv_bytes(&mut buf).unwrap();
            b.send_msg(&buf.iter().map(|&x| x as u64).sum::<u64>())
                .unwrap();
            b.flush().unwrap();
        });
        let start = Instant::now();
        let data: Vec<u8> = (0..1_000_000u32).map(|i| i as u8).collect();
        a.send_bytes(&data).unwrap();
        let s: u64 = a.recv_msg().unwrap();
        let el = start.elapsed();
        t.join().unwrap();
        assert_eq!(s, data.iter().map(|&x| x as u64).sum::<u64>());
        // 100 ms serialisation + 2 × 10 ms latency (+ 8 bytes back).
        assert!(el >= Duration::from_millis(118), "{el:?}");
        assert!(el < Duration::from_millis(215), "{el:?}");
    }

    #[test]
    fn shaped_over_tcp() {
        use super::super::{accept, connect, listen, NetOptions};
        let l = listen("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap().to_string();
        let opts = NetOptions {
            profile: Some(NetProfile::parse("30").unwrap()),
            ..Default::default()
        };
        let o2 = opts.clone();
        let t = std::thread::spawn(move || connect(&addr, &o2).unwrap());
        let mut a = accept(&l, &opts).unwrap();
        let b = t.join().unwrap();
        let el = ping_pong(&mut a, b, 3);
        assert!(el >= Duration::from_millis(90), "{el:?}");
        assert!(el < Duration::from_millis(170), "{el:?}");
    }

    #[test]
    fn bad_chunk_header_is_malformed() {
        let (a, b) = memory_transport_pair();
        let mut raw = Channel::new(a);
        let mut shaped = Channel::new(ShapedTransport::new(b, NetProfile::none()));
        let mut hdr = [0u8; 12];
        hdr[8..].copy_from_slice(&u32::MAX.to_le_bytes());
        raw.send_bytes(&hdr).unwrap();
        raw.flush().unwrap();
        assert!(matches!(shaped.recv_block(), Err(Error::Malformed(_))));
    }
}
