//! Reading the next record before reserving it.
//!
//! A protocol whose execution starts by reserving and reading megabytes
//! (Lindell–Riva's buckets: a whole bucket of garbled circuits) pays the
//! read, the MAC check, the copies and its own parsing inside the
//! execution. [`Store::read_ahead_blob`] does all of that beforehand —
//! while the run is idle between executions — without handing anything
//! out: the value is sealed in a [`ReadAhead`] that only
//! [`Store::take_read_ahead`] opens, and that reserves exactly that
//! index durably first. Single use therefore still rests on the durable
//! reservation alone: a value read ahead and never taken was never used
//! (and its record stays available), and a value taken was reserved
//! before any of it left the store.

use crate::store::Store;
use brickyard_core::{Error, Result};
use zeroize::Zeroizing;

/// A verified, parsed record that is not reserved yet. Not `Clone`; its
/// value is reachable only through [`Store::take_read_ahead`].
pub struct ReadAhead<T> {
    tag: u64,
    kind: usize,
    index: u64,
    value: T,
}

impl<T> ReadAhead<T> {
    /// The record's index in its kind.
    pub fn index(&self) -> u64 {
        self.index
    }
}

impl<T> std::fmt::Debug for ReadAhead<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadAhead")
            .field("kind", &self.kind)
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl Store {
    /// Reads and verifies the next unreserved blob of `kind` and parses it
    /// with `parse(index, bytes)` (the bytes are wiped afterwards). Nothing
    /// is reserved: [`Store::take_read_ahead`] does that. Fails with
    /// [`Error::Exhausted`] if the kind has no record left.
    pub fn read_ahead_blob<T>(
        &mut self,
        kind: &str,
        parse: impl FnOnce(u64, &[u8]) -> Result<T>,
    ) -> Result<ReadAhead<T>> {
        self.state.check_open()?;
        let i = self.kind_index(kind)?;
        let index = self.state.kind(kind).next;
        let produced = self.entry(i).records;
        if index >= produced {
            return Err(Error::Exhausted(format!(
                "kind `{kind}` of store {}: no record left (produced {produced}, next index {index})",
                self.dir.display()
            )));
        }
        let blob = self.files[i]
            .read_blobs(index, 1, &self.key, &self.session)?
            .pop()
            .map(Zeroizing::new)
            .ok_or_else(|| Error::Storage(format!("kind `{kind}`: record {index} missing")))?;
        let value = parse(index, &blob)?;
        Ok(ReadAhead {
            tag: self.tag,
            kind: i,
            index,
            value,
        })
    }

    /// Reserves the record `ahead` was read from and records it consumed,
    /// with one durable state update, then hands out its value. Refused —
    /// nothing reserved, the record still available — if `ahead` comes
    /// from another handle, the store was closed since, or the record is no
    /// longer the next one of its kind (something reserved it first).
    pub fn take_read_ahead<T>(&mut self, ahead: ReadAhead<T>) -> Result<T> {
        if ahead.tag != self.tag {
            return Err(Error::config(
                "a read-ahead record belongs to another open store",
            ));
        }
        self.state.check_open()?;
        let name = self.files[ahead.kind].spec().name.clone();
        let mut st = self.state.clone();
        let ks = st.kinds.entry(name.clone()).or_default();
        if ks.next != ahead.index {
            return Err(Error::Storage(format!(
                "kind `{name}`: record {} was read ahead but the next unreserved one is {}",
                ahead.index, ks.next
            )));
        }
        ks.next += 1;
        ks.consumed += 1;
        st.save(&self.state_paths, &self.key, &self.session)?;
        self.state = st;
        Ok(ahead.value)
    }
}
