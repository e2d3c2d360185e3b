//! Write and read throughput of the store on this machine's disk.

use crate::store::{Expected, Store, StoreConfig};
use crate::types::{KindSpec, Role, SessionId};
use brickyard_core::{Error, Result};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// Record size of the benchmark kind: one half-gates garbled AND gate.
const BENCH_RECORD: u32 = 32;
/// Bytes handed to `append` / read per call, as a protocol layer would.
const BENCH_SLICE: usize = 8 << 20;

/// Throughput measured by [`bench_throughput_report`].
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    /// Payload bytes written and read.
    pub bytes: u64,
    /// GB/s (10^9 bytes/s) from first append to a durable commit (fsync).
    pub write_gb_s: f64,
    /// GB/s reserving and reading (MAC-verifying) everything back after the
    /// file's pages were dropped from the page cache.
    pub read_cold_gb_s: f64,
    /// Same read again, from the page cache (MAC verification bound).
    pub read_warm_gb_s: f64,
    /// GB/s of the appends alone (MAC + write into the page cache), i.e. the
    /// store's own cost before the disk's fsync bandwidth dominates.
    pub write_unsynced_gb_s: f64,
    /// Whether the page cache could be dropped for the cold read.
    pub cache_dropped: bool,
}

/// Writes `bytes` of material into a fresh store under `dir` (removed
/// afterwards), then reads it back; returns (write GB/s, cold read GB/s).
pub fn bench_throughput(dir: &Path, bytes: u64) -> Result<(f64, f64)> {
    let r = bench_throughput_report(dir, bytes)?;
    Ok((r.write_gb_s, r.read_cold_gb_s))
}

/// The full measurement behind [`bench_throughput`].
pub fn bench_throughput_report(dir: &Path, bytes: u64) -> Result<BenchReport> {
    let mut sid = [0u8; 16];
    getrandom::fill(&mut sid).map_err(|e| Error::Storage(format!("OS randomness: {e}")))?;
    let work = dir.join(format!("brickyard-store-bench-{}", SessionId(sid)));
    let res = run(&work, SessionId(sid), bytes);
    let _ = std::fs::remove_dir_all(&work);
    res
}

fn run(work: &Path, sid: SessionId, bytes: u64) -> Result<BenchReport> {
    let records = (bytes / BENCH_RECORD as u64).max(1);
    let bytes = records * BENCH_RECORD as u64;
    let key_path = work.join("key");
    let store_dir = work.join("store");
    let mut cfg = StoreConfig::new("bench", Role::Alice, sid);
    cfg.kinds = vec![KindSpec::fixed("and_gate", BENCH_RECORD)];
    cfg.key_path = Some(key_path.clone());
    // Material is random-looking; a cheap xorshift fill avoids timing the RNG.
    let mut buf = vec![0u8; BENCH_SLICE];
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for c in buf.chunks_exact_mut(8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        c.copy_from_slice(&x.to_le_bytes());
    }
    let t = Instant::now();
    let unsynced;
    {
        let mut s = Store::create(&store_dir, cfg)?;
        let mut left = bytes as usize;
        while left > 0 {
            let n = left.min(BENCH_SLICE);
            s.append("and_gate", &buf[..n])?;
            left -= n;
        }
        unsynced = t.elapsed().as_secs_f64();
        s.commit()?;
    }
    let write = t.elapsed().as_secs_f64();
    let cache_dropped = drop_cache(&store_dir.join("and_gate.dat"));
    let mut expected = Expected::new("bench", Role::Alice);
    expected.key_path = Some(key_path);
    let mut s = Store::open(&store_dir, &expected)?;
    let r = s.reserve("and_gate", records)?;
    let per_read = (BENCH_SLICE / BENCH_RECORD as usize) as u64;
    let mut read_all = |s: &mut Store| -> Result<f64> {
        let t = Instant::now();
        let mut off = 0;
        while off < records {
            let n = per_read.min(records - off);
            let len = (n * BENCH_RECORD as u64) as usize;
            s.read_range_into(&r, off, n, &mut buf[..len])?;
            off += n;
        }
        Ok(t.elapsed().as_secs_f64())
    };
    let cold = read_all(&mut s)?;
    let warm = read_all(&mut s)?;
    s.finish(r)?;
    let gb = bytes as f64 / 1e9;
    Ok(BenchReport {
        bytes,
        write_gb_s: gb / write,
        write_unsynced_gb_s: gb / unsynced,
        read_cold_gb_s: gb / cold,
        read_warm_gb_s: gb / warm,
        cache_dropped,
    })
}

/// Asks the kernel to forget the (already fsynced, hence clean) pages of a
/// file so the next read comes from the disk.
fn drop_cache(path: &Path) -> bool {
    std::fs::File::open(path)
        .ok()
        .and_then(|f| rustix::fs::fadvise(&f, 0, None, rustix::fs::Advice::DontNeed).ok())
        .is_some()
}
