//! Single use: reserve durably, then read, then finish.
//!
//! `reserve` advances the kind's next index and fsyncs the state *before* it
//! returns, so whatever happens afterwards — a crash, a failed run, a
//! forgotten `finish` — those indices are never handed out again. A crash
//! between `reserve` and `finish` merely burns the material.

use crate::store::Store;
use crate::types::RecordSize;
use brickyard_core::{Error, Result};
use serde::de::DeserializeOwned;
use std::ops::Range;

/// A durable claim on records `start..start+count` of one kind. Not `Clone`:
/// it is spent by [`Store::finish`].
#[derive(Debug)]
pub struct Reservation {
    tag: u64,
    id: u64,
    kind: usize,
    kind_name: String,
    start: u64,
    count: u64,
}

impl Reservation {
    /// Material kind.
    pub fn kind(&self) -> &str {
        &self.kind_name
    }
    /// First index.
    pub fn start(&self) -> u64 {
        self.start
    }
    /// Number of records.
    pub fn count(&self) -> u64 {
        self.count
    }
    /// Indices covered.
    pub fn range(&self) -> Range<u64> {
        self.start..self.start + self.count
    }
}

impl Store {
    /// Reserves `count` records of `kind`; see [`Store::reserve_many`].
    pub fn reserve(&mut self, kind: &str, count: u64) -> Result<Reservation> {
        let mut v = self.reserve_many(&[(kind, count)])?;
        v.pop()
            .ok_or_else(|| Error::Storage("reservation vanished".into()))
    }

    /// Reserves records of several kinds with one durable state update (one
    /// fsync pair per run instead of one per kind). Fails with
    /// [`Error::Exhausted`] — reserving nothing — if any kind lacks material.
    pub fn reserve_many(&mut self, wants: &[(&str, u64)]) -> Result<Vec<Reservation>> {
        self.state.check_open()?;
        let mut st = self.state.clone();
        let mut out = Vec::with_capacity(wants.len());
        for &(kind, count) in wants {
            let i = self.kind_index(kind)?;
            let produced = self.entry(i).records;
            let ks = st.kinds.entry(kind.to_string()).or_default();
            let remaining = produced.saturating_sub(ks.next);
            if count > remaining {
                return Err(Error::Exhausted(format!(
                    "kind `{kind}` of store {}: asked for {count} records, {remaining} remain (produced {produced}, next index {})",
                    self.dir.display(),
                    ks.next
                )));
            }
            out.push((i, kind.to_string(), ks.next, count));
            ks.next += count;
        }
        st.save(&self.state_paths, &self.key, &self.session)?;
        self.state = st;
        Ok(out
            .into_iter()
            .map(|(kind, kind_name, start, count)| {
                let id = self.next_reservation;
                self.next_reservation += 1;
                self.open.insert(id, (kind, count));
                Reservation {
                    tag: self.tag,
                    id,
                    kind,
                    kind_name,
                    start,
                    count,
                }
            })
            .collect())
    }

    fn check_live(&self, r: &Reservation) -> Result<()> {
        if r.tag != self.tag || !self.open.contains_key(&r.id) {
            return Err(Error::config(
                "reservation does not belong to this open store or was already finished",
            ));
        }
        Ok(())
    }

    fn sub_range(r: &Reservation, offset: u64, count: u64) -> Result<u64> {
        match offset.checked_add(count) {
            Some(end) if end <= r.count => Ok(r.start + offset),
            _ => Err(Error::config(format!(
                "range {offset}..+{count} outside a reservation of {} records",
                r.count
            ))),
        }
    }

    /// All records of a fixed-size reservation, verified.
    pub fn read(&mut self, r: &Reservation) -> Result<Vec<u8>> {
        self.read_range(r, 0, r.count)
    }

    /// Records `offset..offset+count` of a fixed-size reservation: lets a
    /// protocol stream a reservation larger than memory.
    pub fn read_range(&mut self, r: &Reservation, offset: u64, count: u64) -> Result<Vec<u8>> {
        let rs = self.record_size(r)?;
        let mut out = vec![0u8; (count * rs as u64) as usize];
        self.read_range_into(r, offset, count, &mut out)?;
        Ok(out)
    }

    /// Like [`Store::read_range`] into a caller buffer of exactly the size.
    pub fn read_range_into(
        &mut self,
        r: &Reservation,
        offset: u64,
        count: u64,
        out: &mut [u8],
    ) -> Result<()> {
        self.check_live(r)?;
        let start = Self::sub_range(r, offset, count)?;
        self.files[r.kind].read_fixed(start, count, out, &self.key, &self.session)
    }

    /// All records of a fixed-size reservation as plain-old-data values; the
    /// record size must be a multiple of `size_of::<T>()`.
    pub fn read_pod<T: bytemuck::Pod>(&mut self, r: &Reservation) -> Result<Vec<T>> {
        let rs = self.record_size(r)? as usize;
        let sz = std::mem::size_of::<T>();
        if sz == 0 || !rs.is_multiple_of(sz) {
            return Err(Error::config(format!(
                "record size {rs} of kind `{}` is not a multiple of {sz}",
                r.kind_name
            )));
        }
        let mut v = vec![T::zeroed(); r.count as usize * (rs / sz)];
        self.read_range_into(r, 0, r.count, bytemuck::cast_slice_mut(&mut v))?;
        Ok(v)
    }

    /// All blobs of a variable-size reservation, verified.
    pub fn read_blobs(&mut self, r: &Reservation) -> Result<Vec<Vec<u8>>> {
        self.read_blobs_range(r, 0, r.count)
    }

    /// Blobs `offset..offset+count` of a variable-size reservation.
    pub fn read_blobs_range(
        &mut self,
        r: &Reservation,
        offset: u64,
        count: u64,
    ) -> Result<Vec<Vec<u8>>> {
        self.check_live(r)?;
        let start = Self::sub_range(r, offset, count)?;
        self.files[r.kind].read_blobs(start, count, &self.key, &self.session)
    }

    /// All records of a variable-size reservation decoded from postcard.
    pub fn read_typed<T: DeserializeOwned>(&mut self, r: &Reservation) -> Result<Vec<T>> {
        self.read_blobs(r)?
            .iter()
            .enumerate()
            .map(|(j, b)| {
                postcard::from_bytes(b).map_err(|e| {
                    Error::Storage(format!(
                        "record {} of kind `{}` does not decode as the requested type: {e}",
                        r.start + j as u64,
                        r.kind_name
                    ))
                })
            })
            .collect()
    }

    /// Records that the run using `r` completed (for the consumed/burned
    /// report). Durable; not needed for safety, which `reserve` provides.
    pub fn finish(&mut self, r: Reservation) -> Result<()> {
        self.finish_many(vec![r])
    }

    /// Finishes several reservations with one durable state update.
    pub fn finish_many(&mut self, rs: Vec<Reservation>) -> Result<()> {
        for r in &rs {
            self.check_live(r)?;
        }
        let mut st = self.state.clone();
        for r in &rs {
            st.kinds.entry(r.kind_name.clone()).or_default().consumed += r.count;
        }
        st.save(&self.state_paths, &self.key, &self.session)?;
        self.state = st;
        for r in &rs {
            self.open.remove(&r.id);
        }
        Ok(())
    }

    fn record_size(&self, r: &Reservation) -> Result<u32> {
        match self.files[r.kind].spec().size {
            RecordSize::Fixed(rs) => Ok(rs),
            RecordSize::Variable => Err(Error::config(format!(
                "kind `{}` holds blobs; use read_blobs",
                r.kind_name
            ))),
        }
    }
}
