//! Reading the next records before reserving them.
//!
//! A protocol whose execution starts by reserving and reading megabytes
//! (Lindell–Riva's buckets: a whole bucket of garbled circuits) pays the
//! read, the MAC check, the copies and its own parsing inside the
//! execution. [`Store::read_ahead_blob`] does all of that beforehand —
//! while the run is idle between executions — without handing anything
//! out: the value is sealed in a [`ReadAhead`] that only
//! [`Store::take_read_ahead`] opens, and that reserves exactly those
//! records durably first (several kinds, such as TinyTable's execution
//! record and its tables, in one update). Single use therefore still rests on the durable
//! reservation alone: a value read ahead and never taken was never used
//! (and its record stays available), and a value taken was reserved
//! before any of it left the store.

use crate::store::Store;
use crate::types::RecordSize;
use brickyard_core::{Error, Result};
use zeroize::Zeroizing;

/// A verified, parsed record that is not reserved yet. Not `Clone`; its
/// value is reachable only through [`Store::take_read_ahead`].
pub struct ReadAhead<T> {
    tag: u64,
    /// Per kind read: (kind, first index, count).
    parts: Vec<(usize, u64, u64)>,
    value: T,
}

impl<T> ReadAhead<T> {
    /// The first record's index in the first kind read.
    pub fn index(&self) -> u64 {
        self.parts.first().map_or(0, |p| p.1)
    }
}

impl<T> std::fmt::Debug for ReadAhead<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadAhead")
            .field("parts", &self.parts)
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
        self.read_ahead(&[(kind, 1)], |index, parts| parse(index, &parts[0]))
    }

    /// Reads and verifies the next unreserved `count` records of each
    /// `(kind, count)` of `wants` (what [`Store::reserve_many`] would
    /// reserve now) and parses them with `parse(first index of the first
    /// kind, bytes per kind)`: a fixed-size kind's records concatenated, a
    /// blob kind's one blob (its count must be 1), each wiped when dropped
    /// (`parse` may move them into what it returns). Nothing is reserved: [`Store::take_read_ahead`] does
    /// that, for all the kinds in one durable update. Fails with
    /// [`Error::Exhausted`], reading nothing, if a kind lacks the records.
    pub fn read_ahead<T>(
        &mut self,
        wants: &[(&str, u64)],
        parse: impl FnOnce(u64, Vec<Zeroizing<Vec<u8>>>) -> Result<T>,
    ) -> Result<ReadAhead<T>> {
        self.state.check_open()?;
        let mut parts = Vec::with_capacity(wants.len());
        for &(kind, count) in wants {
            let i = self.kind_index(kind)?;
            let index = self.state.kind(kind).next;
            let produced = self.entry(i).records;
            if count > produced.saturating_sub(index) {
                return Err(Error::Exhausted(format!(
                    "kind `{kind}` of store {}: asked for {count} records, {} remain (produced {produced}, next index {index})",
                    self.dir.display(),
                    produced.saturating_sub(index)
                )));
            }
            parts.push((i, index, count));
        }
        let mut bytes = Vec::with_capacity(parts.len());
        for &(i, index, count) in &parts {
            let b = match self.files[i].spec().size {
                RecordSize::Fixed(rs) => {
                    let len = usize::try_from(count.saturating_mul(u64::from(rs)))
                        .map_err(|_| Error::config("read-ahead larger than memory"))?;
                    let mut out = Zeroizing::new(vec![0u8; len]);
                    self.files[i].read_fixed(index, count, &mut out, &self.key, &self.session)?;
                    out
                }
                RecordSize::Variable => {
                    if count != 1 {
                        return Err(Error::config(
                            "a blob kind is read ahead one record at a time",
                        ));
                    }
                    let name = self.files[i].spec().name.clone();
                    let blob = self.files[i]
                        .read_blobs(index, 1, &self.key, &self.session)?
                        .pop()
                        .ok_or_else(|| {
                            Error::Storage(format!("kind `{name}`: record {index} missing"))
                        })?;
                    Zeroizing::new(blob)
                }
            };
            bytes.push(b);
        }
        let value = parse(parts.first().map_or(0, |p| p.1), bytes)?;
        Ok(ReadAhead {
            tag: self.tag,
            parts,
            value,
        })
    }

    /// Reads, verifies and parses the next records of `wants` (as
    /// [`Store::read_ahead`]), then reserves them and records them consumed
    /// in one durable update before handing out the value: what a run that
    /// takes its material at once needs, with half the state updates of
    /// `reserve_many`, read, `finish_many`. A failed read or parse reserves
    /// nothing (the material stays for a run that can use it).
    pub fn take_next<T>(
        &mut self,
        wants: &[(&str, u64)],
        parse: impl FnOnce(u64, Vec<Zeroizing<Vec<u8>>>) -> Result<T>,
    ) -> Result<T> {
        let ahead = self.read_ahead(wants, parse)?;
        self.take_read_ahead(ahead)
    }

    /// Reserves the records `ahead` was read from and records them
    /// consumed, all kinds with one durable state update, then hands out
    /// its value. Refused — nothing reserved, the records still available —
    /// if `ahead` comes from another handle, the store was closed since, or
    /// a kind's records are no longer the next ones (something reserved
    /// them first).
    pub fn take_read_ahead<T>(&mut self, ahead: ReadAhead<T>) -> Result<T> {
        if ahead.tag != self.tag {
            return Err(Error::config(
                "a read-ahead record belongs to another open store",
            ));
        }
        self.state.check_open()?;
        let mut st = self.state.clone();
        for &(i, index, count) in &ahead.parts {
            let name = self.files[i].spec().name.clone();
            let ks = st.kinds.entry(name.clone()).or_default();
            if ks.next != index {
                return Err(Error::Storage(format!(
                    "kind `{name}`: record {index} was read ahead but the next unreserved one is {}",
                    ks.next
                )));
            }
            ks.next += count;
            ks.consumed += count;
        }
        st.save(&self.state_paths, &self.key, &self.session)?;
        self.state = st;
        Ok(ahead.value)
    }
}

/// A run's next unit of material, read ahead between its executions: what
/// a protocol keeps to take each execution's material with
/// [`Store::take_read_ahead`] instead of reading it inside the execution.
pub struct NextUnit<T> {
    next: Option<ReadAhead<T>>,
    /// Executions of the run not started yet.
    left: u64,
}

impl<T> Default for NextUnit<T> {
    fn default() -> Self {
        NextUnit {
            next: None,
            left: 0,
        }
    }
}

impl<T> NextUnit<T> {
    /// A run of `want` executions begins (after the store handshake):
    /// anything read ahead before is dropped, unreserved.
    pub fn begin(&mut self, want: u64) {
        self.next = None;
        self.left = want;
    }

    /// Reads the next unit `wants` ahead if the run has an execution left
    /// for it and none is read yet. A failure leaves nothing read ahead:
    /// the execution then takes its unit itself ([`NextUnit::take`]) and
    /// meets the same error where it belongs.
    pub fn fill(
        &mut self,
        store: &mut Store,
        wants: &[(&str, u64)],
        parse: impl FnOnce(u64, Vec<Zeroizing<Vec<u8>>>) -> Result<T>,
    ) {
        if self.left > 0 && self.next.is_none() {
            self.next = store.read_ahead(wants, parse).ok();
        }
    }

    /// One execution's unit: the one read ahead, reserved now, or else read
    /// and reserved now ([`Store::take_next`] with `wants` and `parse`).
    pub fn take(
        &mut self,
        store: &mut Store,
        wants: &[(&str, u64)],
        parse: impl FnOnce(u64, Vec<Zeroizing<Vec<u8>>>) -> Result<T>,
    ) -> Result<T> {
        self.left = self.left.saturating_sub(1);
        match self.next.take() {
            Some(a) => store.take_read_ahead(a),
            None => store.take_next(wants, parse),
        }
    }
}
