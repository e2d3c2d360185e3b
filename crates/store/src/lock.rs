//! One process at a time per store.
//!
//! Reservation is a read-modify-write of the state file; two processes doing
//! it at once could both hand out the same indices. An advisory `flock` on a
//! lock file serialises them, and unlike a pid file it is released by the
//! kernel when the holder dies, so a SIGKILLed run never wedges the store.
//!
//! The lock belongs to the open file description, so a process that forks
//! (any subprocess spawn in a multi-threaded program) keeps the lock alive
//! in the child until the child execs and its close-on-exec descriptors go:
//! a store just closed by one thread can look "in use" to the next open for
//! that moment. Taking the lock therefore retries for a short while before
//! reporting the store in use (the likely cause of a rare failure of the
//! crash test, whose threads spawn children while others reopen stores).

use crate::fsutil::storage;
use brickyard_core::{Error, Result};
use rustix::fs::{flock, FlockOperation};
use std::fs::File;
use std::path::Path;
use std::time::{Duration, Instant};

/// How long [`StoreLock::acquire`] waits for a lock held elsewhere: far
/// longer than a fork-to-exec window, short enough that a store really
/// in use is reported at once to a person.
const RETRY_FOR: Duration = Duration::from_millis(250);

/// File name of the lock file inside a store directory.
pub const LOCK_FILE: &str = "lock";

/// The lock file of a key: `<key>.lock`, next to the key and its mirror.
pub fn key_lock_path(key_path: &Path) -> std::path::PathBuf {
    let mut s = key_path.as_os_str().to_owned();
    s.push(".lock");
    std::path::PathBuf::from(s)
}

/// Holds the lock until dropped.
pub struct StoreLock {
    _file: File,
}

impl StoreLock {
    /// Takes the exclusive lock, or fails if another process still holds it
    /// after [`RETRY_FOR`].
    pub fn acquire(dir: &Path) -> Result<StoreLock> {
        Self::acquire_file(&dir.join(LOCK_FILE), &format!("store {}", dir.display()))
    }

    /// Takes the exclusive lock on the key of a store (a file beside the
    /// key, see [`key_lock_path`]): two copies of one store directory share
    /// the key and its state mirror, so locking only the directory would let
    /// two processes hand out the same indices from the two copies.
    pub fn acquire_key(key_path: &Path) -> Result<StoreLock> {
        Self::acquire_file(
            &key_lock_path(key_path),
            &format!(
                "the key {} (another copy of this store)",
                key_path.display()
            ),
        )
    }

    fn acquire_file(path: &Path, what: &str) -> Result<StoreLock> {
        let path = path.to_path_buf();
        let file = crate::fsutil::private_new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| storage(format!("opening lock file {}", path.display()), e))?;
        let until = Instant::now() + RETRY_FOR;
        loop {
            match flock(&file, FlockOperation::NonBlockingLockExclusive) {
                Ok(()) => return Ok(StoreLock { _file: file }),
                Err(e) if e == rustix::io::Errno::WOULDBLOCK => {
                    if Instant::now() >= until {
                        return Err(Error::Storage(format!(
                            "{what} is in use by another process"
                        )));
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err(e) => return Err(storage(format!("locking {}", path.display()), e.into())),
            }
        }
    }
}
