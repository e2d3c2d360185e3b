//! One process at a time per store.
//!
//! Reservation is a read-modify-write of the state file; two processes doing
//! it at once could both hand out the same indices. An advisory `flock` on a
//! lock file serialises them, and unlike a pid file it is released by the
//! kernel when the holder dies, so a SIGKILLed run never wedges the store.

use crate::fsutil::storage;
use brickyard_core::{Error, Result};
use rustix::fs::{flock, FlockOperation};
use std::fs::{File, OpenOptions};
use std::path::Path;

/// File name of the lock file inside a store directory.
pub const LOCK_FILE: &str = "lock";

/// Holds the lock until dropped.
pub struct StoreLock {
    _file: File,
}

impl StoreLock {
    /// Takes the exclusive lock or fails at once if another process holds it.
    pub fn acquire(dir: &Path) -> Result<StoreLock> {
        let path = dir.join(LOCK_FILE);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| storage(format!("opening lock file {}", path.display()), e))?;
        match flock(&file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => Ok(StoreLock { _file: file }),
            Err(e) if e == rustix::io::Errno::WOULDBLOCK => Err(Error::Storage(format!(
                "store {} is in use by another process",
                dir.display()
            ))),
            Err(e) => Err(storage(format!("locking {}", path.display()), e.into())),
        }
    }
}
