//! Helpers shared by the store's integration tests.
#![allow(dead_code)]

use brickyard_store::{Expected, KindSpec, Role, SessionId, Store, StoreConfig};
use std::path::{Path, PathBuf};

/// A store directory plus a separate key directory, both temporary.
pub struct Fixture {
    pub root: tempfile::TempDir,
}

impl Fixture {
    pub fn new() -> Self {
        Fixture {
            root: tempfile::tempdir().unwrap(),
        }
    }
    pub fn dir(&self, name: &str) -> PathBuf {
        self.root.path().join("stores").join(name)
    }
    pub fn key(&self, name: &str) -> PathBuf {
        self.root.path().join("keys").join(format!("{name}.key"))
    }
}

pub const PROTO: &str = "test-proto";

pub fn config(key: &Path, role: Role, sid: SessionId, chunk: usize) -> StoreConfig {
    let mut c = StoreConfig::new(PROTO, role, sid);
    c.parameters.insert("k".into(), "128".into());
    c.kinds = vec![KindSpec::fixed("ot", 16), KindSpec::variable("gc")];
    c.key_path = Some(key.to_path_buf());
    c.chunk_size = chunk;
    c
}

pub fn expected(key: &Path, role: Role) -> Expected {
    let mut e = Expected::new(PROTO, role);
    e.parameters.insert("k".into(), "128".into());
    e.key_path = Some(key.to_path_buf());
    e
}

/// The 16-byte "OT" record a party stores at index `i`: deterministic so
/// that any read can be checked against it.
pub fn ot_record(role: Role, i: u64) -> [u8; 16] {
    let mut h = blake3::Hasher::new();
    h.update(role.as_str().as_bytes());
    h.update(&i.to_le_bytes());
    let mut out = [0u8; 16];
    out.copy_from_slice(&h.finalize().as_bytes()[..16]);
    out
}

/// The blob a party stores at index `i` of the variable kind (0..=99 bytes).
pub fn gc_record(role: Role, i: u64) -> Vec<u8> {
    let r = ot_record(role, i);
    r.iter().cycle().take((i % 100) as usize).copied().collect()
}

pub fn ot_records(role: Role, range: std::ops::Range<u64>) -> Vec<u8> {
    range.flat_map(|i| ot_record(role, i)).collect()
}

/// Appends `n` records of each kind starting at the current produced count
/// and commits.
pub fn produce(s: &mut Store, role: Role, n: u64) {
    let base = s.produced("ot").unwrap();
    s.append("ot", &ot_records(role, base..base + n)).unwrap();
    let base = s.produced("gc").unwrap();
    for i in base..base + n {
        s.append_blob("gc", &gc_record(role, i)).unwrap();
    }
    s.commit().unwrap();
}
