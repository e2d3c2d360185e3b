//! Buckets in a store (offline and online in separate processes).
//!
//! One record of kind [`KIND`] per bucket, in bucket order, in each
//! party's store (layouts in `record.rs`); one unit `execution` = one
//! record. The store's single-use rules do the rest:
//!
//! * the preprocessing run appends bucket `k` as record `k` and commits
//!   once at the end (a crash before that leaves no usable bucket);
//! * before the first execution of a run both parties agree on one next
//!   index with [`Store::sync_units`] (checked against both stores: a
//!   peer claiming another state is `Cheating { check: "store-sync" }`,
//!   a store left behind by a crash is refused until both pass
//!   `--resync`) and compare the digests of their stored setups;
//! * each execution reserves its record durably (fsync) before using
//!   it, so a process killed at any point never uses that bucket again,
//!   and the record's own `k` must equal the reserved index;
//! * the next bucket is read, MAC-checked and parsed *ahead* of its
//!   execution (`NextUnit`: before a run's first execution and after each
//!   one while the run has executions left), off the execution's
//!   critical path; it is handed out only by the durable reservation of
//!   exactly that record (`Store::take_read_ahead`), so a bucket read
//!   ahead and never taken was never used and stays in the store.

use super::record::SetupRecord;
use brickyard_core::{Channel, Error, Result};
use brickyard_store::{KindSpec, Store, SYNC_CHECK};

/// The material kind: one variable-size record per bucket (the same name
/// for both roles; the contents differ).
pub const KIND: &str = "lr-bucket";

/// Declares the kind and unit; returns the stored setup if the store
/// already holds preprocessing.
pub(crate) fn attach(store: &mut Store) -> Result<Option<SetupRecord>> {
    if store.produced(KIND).is_err() {
        store.add_kind(KindSpec::variable(KIND))?;
    }
    store.declare_unit("execution", &[(KIND, 1)])?;
    match store.get_secret(SetupRecord::NAME)? {
        Some(b) => Ok(Some(SetupRecord::from_bytes(&b)?)),
        None => Ok(None),
    }
}

/// Before the first execution of a run: one agreed next bucket, `want`
/// buckets available on both sides, and equal stored setups.
pub(crate) fn begin(
    ch: &mut Channel,
    store: &mut Store,
    rec: &SetupRecord,
    want: u64,
) -> Result<()> {
    store.sync_units(ch, &[(KIND, 1)], want)?;
    let mine = rec.digest()?;
    ch.send_bytes(&mine)?;
    ch.flush()?;
    let mut theirs = [0u8; 32];
    ch.recv_bytes(&mut theirs)?;
    if mine != theirs {
        // Same session (the run agreement checked it), other setup: the
        // peer's claim disagrees with what both stores recorded.
        return Err(Error::Cheating { check: SYNC_CHECK });
    }
    Ok(())
}

/// One execution's unit: one bucket record.
pub(crate) const UNIT: &[(&str, u64)] = &[(KIND, 1)];

/// A bucket record's bytes as `NextUnit` hands them (one blob).
pub(crate) fn one(parts: &[zeroize::Zeroizing<Vec<u8>>]) -> Result<&[u8]> {
    parts
        .first()
        .map(|b| &b[..])
        .ok_or_else(|| brickyard_core::Error::Storage("lindell-riva: bucket record missing".into()))
}

/// At the end of preprocessing: the setup, then every bucket, durable.
pub(crate) fn save_setup(store: &mut Store, rec: &SetupRecord) -> Result<()> {
    if store.get_secret(SetupRecord::NAME)?.is_some() || store.produced(KIND)? > 0 {
        return Err(Error::config(
            "lindell-riva: this store already holds preprocessing (make a new one)",
        ));
    }
    store.put_secret(SetupRecord::NAME, &rec.to_bytes()?)
}

/// Checks a bucket record's own index against the reserved one.
pub(crate) fn check_index(k: u64, reserved: u64) -> Result<()> {
    if k != reserved {
        return Err(Error::Storage(format!(
            "lindell-riva: record {reserved} holds bucket {k}"
        )));
    }
    Ok(())
}
