//! The party-local MAC key and where it lives.
//!
//! The key is what turns "someone can write the store directory" into
//! "someone can only destroy, not forge or replay, material": it is kept
//! outside the store (by default under `$BRICKYARD_HOME/keys`, mode 0600) and
//! its path is never read from the store directory, because an attacker who
//! controls that directory could otherwise point us at a key of their own.

use crate::fsutil::{fsync_dir, storage};
use crate::types::{Role, SessionId};
use brickyard_core::{Error, Result};
use std::fs::{self, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use zeroize::Zeroizing;

const KEY_MAGIC: &[u8; 8] = b"BYSTKEY1";
const KEY_FILE_LEN: usize = 8 + 32;

/// Sub-keys derived from the 32-byte master key, one per use, so that a chunk
/// MAC can never be replayed as a metadata MAC or vice versa.
pub struct StoreKey {
    pub(crate) chunk: Zeroizing<[u8; 32]>,
    pub(crate) meta: Zeroizing<[u8; 32]>,
}

impl StoreKey {
    fn from_master(master: &[u8; 32]) -> Self {
        StoreKey {
            chunk: Zeroizing::new(blake3::derive_key("brickyard-store v1 chunk mac", master)),
            meta: Zeroizing::new(blake3::derive_key(
                "brickyard-store v1 metadata mac",
                master,
            )),
        }
    }
}

/// `$BRICKYARD_HOME`, defaulting to `~/.brickyard`.
pub fn brickyard_home() -> Result<PathBuf> {
    if let Some(h) = std::env::var_os("BRICKYARD_HOME") {
        return Ok(PathBuf::from(h));
    }
    let home = std::env::var_os("HOME")
        .ok_or_else(|| Error::config("neither BRICKYARD_HOME nor HOME is set; pass a key path"))?;
    Ok(PathBuf::from(home).join(".brickyard"))
}

/// Default key file for a party's store of a session:
/// `$BRICKYARD_HOME/keys/<session>.<role>.key`. The role is part of the name
/// so both parties of a local test can share one home directory.
pub fn default_key_path(session: &SessionId, role: Role) -> Result<PathBuf> {
    Ok(brickyard_home()?
        .join("keys")
        .join(format!("{}.{}.key", session.to_hex(), role)))
}

/// The reservation-state mirror kept next to the key (see `state.rs`).
pub fn mirror_path(key_path: &Path) -> PathBuf {
    let mut s = key_path.as_os_str().to_owned();
    s.push(".state");
    PathBuf::from(s)
}

/// Creates a fresh random key file (mode 0600, parent 0700). Refuses to
/// overwrite an existing one: that key may protect another store.
pub fn create_key(path: &Path) -> Result<StoreKey> {
    let mut master = Zeroizing::new([0u8; 32]);
    getrandom::fill(&mut master[..])
        .map_err(|e| Error::Storage(format!("OS randomness unavailable: {e}")))?;
    let dir = path
        .parent()
        .ok_or_else(|| Error::config(format!("key path {} has no parent", path.display())))?;
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| storage(format!("creating key directory {}", dir.display()), e))?;
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| storage(format!("creating key file {}", path.display()), e))?;
    let mut buf = Zeroizing::new([0u8; KEY_FILE_LEN]);
    buf[..8].copy_from_slice(KEY_MAGIC);
    buf[8..].copy_from_slice(&master[..]);
    f.write_all(&buf[..])
        .and_then(|_| f.sync_all())
        .map_err(|e| storage(format!("writing key file {}", path.display()), e))?;
    fsync_dir(dir)?;
    Ok(StoreKey::from_master(&master))
}

/// Loads a key file, refusing one readable by group or others (like ssh does)
/// because a leaked key lets the leaker forge material.
pub fn load_key(path: &Path) -> Result<StoreKey> {
    let mut f = fs::File::open(path).map_err(|e| {
        Error::Storage(format!(
            "cannot open store key {}: {e} (the key is kept outside the store; pass its path if it was moved)",
            path.display()
        ))
    })?;
    let meta = f
        .metadata()
        .map_err(|e| storage(format!("reading key file {}", path.display()), e))?;
    if meta.permissions().mode() & 0o077 != 0 {
        return Err(Error::config(format!(
            "store key {} is accessible by group or others; chmod 600 it",
            path.display()
        )));
    }
    let mut buf = Zeroizing::new(Vec::with_capacity(KEY_FILE_LEN + 1));
    (&mut f)
        .take(KEY_FILE_LEN as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| storage(format!("reading key file {}", path.display()), e))?;
    if buf.len() != KEY_FILE_LEN || &buf[..8] != KEY_MAGIC {
        return Err(Error::Storage(format!(
            "{} is not a brickyard store key",
            path.display()
        )));
    }
    let mut master = Zeroizing::new([0u8; 32]);
    master.copy_from_slice(&buf[8..]);
    Ok(StoreKey::from_master(&master))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_load_and_refuse_overwrite_and_loose_modes() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("k/x.key");
        let k1 = create_key(&p).unwrap();
        let k2 = load_key(&p).unwrap();
        assert_eq!(*k1.chunk, *k2.chunk);
        assert_ne!(*k1.chunk, *k1.meta);
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o600
        );
        assert!(create_key(&p).is_err());
        fs::set_permissions(&p, fs::Permissions::from_mode(0o644)).unwrap();
        assert!(matches!(load_key(&p), Err(Error::Config(_))));
        fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
        fs::write(&p, b"short").unwrap();
        assert!(matches!(load_key(&p), Err(Error::Storage(_))));
    }
}
