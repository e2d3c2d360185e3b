//! Corruption, tampering, splicing and torn writes are detected.

mod common;

use brickyard_core::Error;
use brickyard_store::{Role, SessionId, Store};
use common::*;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

const SID: SessionId = SessionId([7; 16]);
const CHUNK: usize = 1024; // 64 OT records per chunk
const HDR: u64 = 64;
const CHUNK_FILE_LEN: u64 = HDR + CHUNK as u64;

fn storage_msg<T: std::fmt::Debug>(r: Result<T, Error>) -> String {
    match r {
        Err(Error::Storage(m)) => m,
        other => panic!("expected a storage error, got {other:?}"),
    }
}

/// Alice's store `a` of the fixture with `n` committed OT records, still
/// open (a test may append more before closing it), and its key file.
fn alice_store(fx: &Fixture, n: u64) -> (Store, PathBuf, PathBuf) {
    let (dir, key) = (fx.dir("a"), fx.key("a"));
    let mut s = Store::create(&dir, config(&key, Role::Alice, SID, CHUNK)).unwrap();
    produce(&mut s, Role::Alice, n);
    (s, dir, key)
}

/// The store's OT data file, opened to tamper with it in place.
fn data_file(dir: &Path) -> File {
    OpenOptions::new()
        .read(true)
        .write(true)
        .open(dir.join("ot.dat"))
        .unwrap()
}

#[test]
fn flipped_payload_byte_is_detected_naming_file_and_chunk() {
    let fx = Fixture::new();
    let (s, dir, key) = alice_store(&fx, 256);
    drop(s);
    let f = data_file(&dir);
    let off = 2 * CHUNK_FILE_LEN + HDR + 100; // inside chunk 2's payload
    let mut b = [0u8; 1];
    f.read_exact_at(&mut b, off).unwrap();
    f.write_all_at(&[b[0] ^ 0x10], off).unwrap();
    let mut s = Store::open(&dir, &expected(&key, Role::Alice)).unwrap();
    let r = s.reserve("ot", 128).unwrap();
    // Chunks 0 and 1 are intact; chunk 2 is not.
    assert_eq!(
        s.read_range(&r, 0, 128).unwrap(),
        ot_records(Role::Alice, 0..128)
    );
    let r2 = s.reserve("ot", 10).unwrap();
    let m = storage_msg(s.read(&r2));
    assert!(
        m.contains("ot.dat") && m.contains("chunk 2") && m.contains("MAC"),
        "{m}"
    );
}

#[test]
fn reordered_chunks_are_detected() {
    let fx = Fixture::new();
    let (s, dir, key) = alice_store(&fx, 128);
    drop(s);
    // Swap the payloads of chunks 0 and 1, keeping each header in place.
    let f = data_file(&dir);
    let mut c0 = vec![0u8; CHUNK];
    let mut c1 = vec![0u8; CHUNK];
    f.read_exact_at(&mut c0, HDR).unwrap();
    f.read_exact_at(&mut c1, CHUNK_FILE_LEN + HDR).unwrap();
    f.write_all_at(&c1, HDR).unwrap();
    f.write_all_at(&c0, CHUNK_FILE_LEN + HDR).unwrap();
    let mut s = Store::open(&dir, &expected(&key, Role::Alice)).unwrap();
    let r = s.reserve("ot", 1).unwrap();
    assert!(storage_msg(s.read(&r)).contains("chunk 0"));
}

#[test]
fn chunks_copied_from_another_session_or_store_are_refused() {
    let fx = Fixture::new();
    // Same party, same key file name pattern, same layout — only the session
    // (and key) differ.
    let mut a = Store::create(&fx.dir("a"), config(&fx.key("a"), Role::Alice, SID, CHUNK)).unwrap();
    let mut b = Store::create(
        &fx.dir("b"),
        config(&fx.key("b"), Role::Alice, SessionId([9; 16]), CHUNK),
    )
    .unwrap();
    produce(&mut a, Role::Alice, 128);
    produce(&mut b, Role::Alice, 128);
    drop((a, b));
    let other = std::fs::read(fx.dir("b").join("ot.dat")).unwrap();
    let f = OpenOptions::new()
        .write(true)
        .open(fx.dir("a").join("ot.dat"))
        .unwrap();
    f.write_all_at(&other[CHUNK_FILE_LEN as usize..], CHUNK_FILE_LEN)
        .unwrap();
    let mut s = Store::open(&fx.dir("a"), &expected(&fx.key("a"), Role::Alice)).unwrap();
    let r = s.reserve("ot", 128).unwrap();
    assert_eq!(
        s.read_range(&r, 0, 64).unwrap(),
        ot_records(Role::Alice, 0..64)
    );
    assert!(storage_msg(s.read_range(&r, 64, 1)).contains("chunk 1"));
}

#[test]
fn data_file_truncated_below_the_manifest_is_refused() {
    let fx = Fixture::new();
    let (s, dir, key) = alice_store(&fx, 128);
    drop(s);
    let f = data_file(&dir);
    f.set_len(CHUNK_FILE_LEN + 10).unwrap();
    let m = storage_msg(Store::open(&dir, &expected(&key, Role::Alice)));
    assert!(m.contains("ot.dat") && m.contains("manifest"), "{m}");
}

#[test]
fn edited_manifest_is_refused() {
    let fx = Fixture::new();
    let (s, dir, key) = alice_store(&fx, 10);
    drop(s);
    let p = dir.join("manifest.json");
    let t = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, t.replacen("\"records\": 10", "\"records\": 11", 1)).unwrap();
    assert!(storage_msg(Store::open(&dir, &expected(&key, Role::Alice))).contains("MAC"));
}

#[test]
fn torn_tail_is_truncated_and_complete_uncommitted_chunks_are_adopted() {
    let fx = Fixture::new();
    let (mut s, dir, key) = alice_store(&fx, 64);
    // Three more full chunks are written to the file but never committed,
    // as if the process died before its end-of-batch commit.
    s.append("ot", &ot_records(Role::Alice, 64..64 + 3 * 64 + 5))
        .unwrap();
    drop(s);
    // ...and a torn chunk follows them.
    let mut f = OpenOptions::new()
        .append(true)
        .open(dir.join("ot.dat"))
        .unwrap();
    f.write_all(b"BYSTCHK1 torn").unwrap();
    drop(f);
    let mut s = Store::open(&dir, &expected(&key, Role::Alice)).unwrap();
    let rec = s.open_report().recovery["ot"];
    assert_eq!(
        (rec.adopted_chunks, rec.adopted_records, rec.truncated_bytes),
        (3, 192, 13)
    );
    assert_eq!(s.produced("ot").unwrap(), 256);
    let r = s.reserve("ot", 256).unwrap();
    assert_eq!(s.read(&r).unwrap(), ot_records(Role::Alice, 0..256));
    // Appending after recovery continues the index space seamlessly.
    produce(&mut s, Role::Alice, 70);
    let r = s.reserve("ot", 70).unwrap();
    assert_eq!(s.read(&r).unwrap(), ot_records(Role::Alice, 256..326));
}

#[test]
fn garbage_tail_that_does_not_verify_is_dropped_not_adopted() {
    let fx = Fixture::new();
    let (mut s, dir, key) = alice_store(&fx, 64);
    s.append("ot", &ot_records(Role::Alice, 64..128)).unwrap(); // one full chunk, uncommitted
    drop(s);
    // Corrupt the uncommitted chunk: it must be cut, not adopted.
    let f = data_file(&dir);
    f.write_all_at(&[0xff], CHUNK_FILE_LEN + HDR + 3).unwrap();
    let s = Store::open(&dir, &expected(&key, Role::Alice)).unwrap();
    assert_eq!(s.produced("ot").unwrap(), 64);
    assert_eq!(
        s.open_report().recovery["ot"].truncated_bytes,
        CHUNK_FILE_LEN
    );
    assert_eq!(
        std::fs::metadata(dir.join("ot.dat")).unwrap().len(),
        CHUNK_FILE_LEN
    );
}
