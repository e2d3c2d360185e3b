//! File-system helpers: error mapping with context, atomic replace, dir fsync.
//!
//! Every metadata update in the store goes through [`write_atomic`], so that a
//! crash at any instant leaves either the old or the new file, never a torn one.

use brickyard_core::Error;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// Mode of every file the store writes: the material is half of a secret
/// computation, and the metadata says how much of it is left.
pub const FILE_MODE: u32 = 0o600;
/// Mode of a store directory and of the key directory.
pub const DIR_MODE: u32 = 0o700;

/// Creates `dir` (and missing parents, those with the default mode) and
/// makes `dir` itself private (0700), also when it existed already.
pub fn create_private_dir(dir: &Path) -> Result<(), Error> {
    fs::DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(dir)
        .and_then(|_| fs::set_permissions(dir, fs::Permissions::from_mode(DIR_MODE)))
        .map_err(|e| storage(format!("creating directory {}", dir.display()), e))
}

/// Open options for a new private file (mode 0600 from the start, so the
/// bytes are never readable by others, not even for a moment).
pub fn private_new() -> OpenOptions {
    let mut o = OpenOptions::new();
    o.mode(FILE_MODE);
    o
}

/// Linux's ENOSPC; matched explicitly as well as by `ErrorKind` so that the
/// message stays clear on toolchains that classify it differently.
const ENOSPC: i32 = 28;

/// True when `e` means the disk (or quota) is full.
pub fn is_disk_full(e: &io::Error) -> bool {
    e.raw_os_error() == Some(ENOSPC) || e.kind() == io::ErrorKind::StorageFull
}

/// Wraps an I/O failure as [`Error::Storage`] naming what we were doing, so
/// the operator can tell which file failed; disk-full gets its own wording
/// because it is the one failure an operator can fix without a bug report.
pub fn storage(ctx: impl std::fmt::Display, e: io::Error) -> Error {
    if is_disk_full(&e) {
        Error::Storage(format!(
            "disk full while {ctx}; nothing from the failed write was counted, free space and retry"
        ))
    } else {
        Error::Storage(format!("{ctx}: {e}"))
    }
}

/// Makes a directory entry change (create, rename, truncate-by-rename) durable.
pub fn fsync_dir(dir: &Path) -> Result<(), Error> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| storage(format!("syncing directory {}", dir.display()), e))
}

/// Replaces `path` with `bytes` so that after a crash the file holds either
/// the old or the new content: write a temporary sibling, fsync it, rename it
/// over the target, fsync the directory.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let dir = path
        .parent()
        .ok_or_else(|| Error::Storage(format!("{} has no parent directory", path.display())))?;
    let name = path
        .file_name()
        .ok_or_else(|| Error::Storage(format!("{} has no file name", path.display())))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(".tmp");
    let tmp = dir.join(tmp_name);
    let res = (|| -> io::Result<()> {
        let mut f = private_new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if let Err(e) = res {
        let _ = fs::remove_file(&tmp);
        return Err(storage(format!("writing {}", path.display()), e));
    }
    fsync_dir(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enospc_is_named_disk_full() {
        let e = storage("writing x", io::Error::from_raw_os_error(ENOSPC));
        assert!(matches!(&e, Error::Storage(m) if m.contains("disk full")));
        let e = storage("writing x", io::Error::other("boom"));
        assert!(
            matches!(&e, Error::Storage(m) if m.contains("writing x") && !m.contains("disk full"))
        );
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("f");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        assert_eq!(fs::read_dir(d.path()).unwrap().count(), 1);
    }
}
