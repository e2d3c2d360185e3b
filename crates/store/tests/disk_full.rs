//! A full disk is a clear `Storage` error and leaves the store consistent.
//!
//! Needs a tiny tmpfs, i.e. root (as on the project's machines and CI); where
//! `mount` is not permitted the test says so and passes vacuously.

mod common;

use brickyard_core::Error;
use brickyard_store::{Role, SessionId, Store};
use common::*;
use std::path::PathBuf;
use std::process::Command;

struct Tmpfs(PathBuf);
impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn disk_full_is_a_storage_error_and_the_store_stays_consistent() {
    let fx = Fixture::new();
    let mnt = fx.root.path().join("small");
    std::fs::create_dir_all(&mnt).unwrap();
    let ok = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
        .arg(&mnt)
        .stderr(std::process::Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !ok {
        eprintln!("SKIPPED: cannot mount a tmpfs here (needs root)");
        return;
    }
    let _guard = Tmpfs(mnt.clone());
    let dir = mnt.join("store");
    let key = fx.key("a"); // the key lives on the roomy disk
    let mut s = Store::create(&dir, config(&key, Role::Alice, SessionId([1; 16]), 4096)).unwrap();
    let mut committed = 0u64;
    let err = loop {
        let base = s.produced("ot").unwrap();
        let res = s
            .append("ot", &ot_records(Role::Alice, base..base + 1000))
            .and_then(|_| s.commit());
        match res {
            Ok(()) => committed = s.produced("ot").unwrap(),
            Err(e) => break e,
        }
        assert!(committed < 1 << 20, "tmpfs never filled up");
    };
    match &err {
        Error::Storage(m) => assert!(m.contains("disk full"), "{m}"),
        other => panic!("expected Storage, got {other:?}"),
    }
    // The kind refuses further writes rather than shifting indices.
    assert!(s.append("ot", &ot_records(Role::Alice, 0..1)).is_err());
    drop(s);
    // While the disk is full, opening (which may have to record recovered
    // chunks) fails with the same clear error instead of half-working.
    if let Err(e) = Store::open(&dir, &expected(&key, Role::Alice)) {
        assert!(
            matches!(&e, Error::Storage(m) if m.contains("disk full")),
            "{e}"
        );
    }
    // The operator frees space; everything committed is there and verifies.
    assert!(Command::new("mount")
        .args(["-o", "remount,size=1m"])
        .arg(&mnt)
        .status()
        .unwrap()
        .success());
    let mut s = Store::open(&dir, &expected(&key, Role::Alice)).unwrap();
    let produced = s.produced("ot").unwrap();
    assert!(
        produced >= committed,
        "committed material lost: {produced} < {committed}"
    );
    let r = s.reserve("ot", produced).unwrap();
    assert_eq!(s.read(&r).unwrap(), ot_records(Role::Alice, 0..produced));
}
