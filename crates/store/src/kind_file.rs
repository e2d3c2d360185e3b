//! One append-only data file of one material kind.
//!
//! Records are buffered into a chunk in memory and written with one
//! positional write when the chunk is full, so preprocessing larger than RAM
//! streams to disk in large sequential writes; reads fetch and verify only
//! the chunks that overlap the requested range.

use crate::chunk::{split_blobs, Header, HEADER_LEN};
use crate::fsutil::storage;
use crate::key::StoreKey;
use crate::mac::{chunk_mac, ChunkContext};
use crate::manifest::KindEntry;
use crate::types::{KindSpec, RecordSize, SessionId};
use brickyard_core::{Error, Result};
use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// Where one chunk sits in the file.
#[derive(Clone, Copy, Debug)]
struct ChunkLoc {
    offset: u64,
    first: u64,
    count: u32,
    len: u32,
}

/// What opening a data file found beyond the last manifest update.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Recovery {
    /// Complete, verifying chunks adopted from after the last commit.
    pub adopted_chunks: u64,
    /// Records in those chunks.
    pub adopted_records: u64,
    /// Bytes of torn or non-verifying tail that were truncated away.
    pub truncated_bytes: u64,
}

/// An open data file.
pub struct KindFile {
    spec: KindSpec,
    path: PathBuf,
    file: File,
    chunks: Vec<ChunkLoc>,
    records: u64,
    end: u64,
    unsynced: bool,
    /// Header space followed by the payload being accumulated.
    pending: Vec<u8>,
    pending_count: u32,
    chunk_size: usize,
    poisoned: Option<String>,
    read_buf: Vec<u8>,
}

/// File name of a kind's data file.
pub fn data_file_name(kind: &str) -> String {
    format!("{kind}.dat")
}

impl KindFile {
    /// Creates an empty data file (failing if one exists).
    pub fn create(dir: &Path, spec: &KindSpec, chunk_size: usize) -> Result<KindFile> {
        let path = dir.join(data_file_name(&spec.name));
        let file = crate::fsutil::private_new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| storage(format!("creating {}", path.display()), e))?;
        Ok(Self::with_file(spec.clone(), path, file, chunk_size))
    }

    fn with_file(spec: KindSpec, path: PathBuf, file: File, chunk_size: usize) -> KindFile {
        let mut pending = Vec::with_capacity(HEADER_LEN + chunk_size.min(64 << 20));
        pending.resize(HEADER_LEN, 0);
        KindFile {
            spec,
            path,
            file,
            chunks: Vec::new(),
            records: 0,
            end: 0,
            unsynced: false,
            pending,
            pending_count: 0,
            chunk_size,
            poisoned: None,
            read_buf: Vec::new(),
        }
    }

    /// Opens a data file: checks the committed prefix's headers against the
    /// manifest, then adopts complete verifying chunks after it and truncates
    /// whatever follows (a chunk torn by a crash, or garbage).
    pub fn open(
        dir: &Path,
        entry: &KindEntry,
        chunk_size: usize,
        key: &StoreKey,
        session: &SessionId,
    ) -> Result<(KindFile, Recovery)> {
        let path = dir.join(data_file_name(&entry.spec.name));
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| storage(format!("opening {}", path.display()), e))?;
        let len = file
            .metadata()
            .map_err(|e| storage(format!("reading size of {}", path.display()), e))?
            .len();
        let mut kf = Self::with_file(entry.spec.clone(), path, file, chunk_size);
        if len < entry.bytes {
            return Err(Error::Storage(format!(
                "{} holds {len} bytes but the manifest commits {}: the file was truncated or replaced",
                kf.path.display(),
                entry.bytes
            )));
        }
        while kf.end < entry.bytes {
            let h = kf.read_header(kf.end, entry.bytes)?;
            kf.push_loc(&h);
        }
        if kf.end != entry.bytes
            || kf.records != entry.records
            || kf.chunks.len() as u64 != entry.chunks
        {
            return Err(Error::Storage(format!(
                "{}: chunk headers disagree with the manifest ({} records in {} chunks, manifest says {} in {})",
                kf.path.display(),
                kf.records,
                kf.chunks.len(),
                entry.records,
                entry.chunks
            )));
        }
        let mut rec = Recovery::default();
        while let Some(h) = kf.try_adopt(len, key, session) {
            kf.push_loc(&h);
            rec.adopted_chunks += 1;
            rec.adopted_records += h.record_count as u64;
        }
        if kf.end < len {
            rec.truncated_bytes = len - kf.end;
            kf.file.set_len(kf.end).map_err(|e| {
                storage(format!("truncating torn tail of {}", kf.path.display()), e)
            })?;
        }
        if rec != Recovery::default() {
            kf.file
                .sync_all()
                .map_err(|e| storage(format!("syncing {}", kf.path.display()), e))?;
        }
        Ok((kf, rec))
    }

    fn push_loc(&mut self, h: &Header) {
        self.chunks.push(ChunkLoc {
            offset: self.end,
            first: self.records,
            count: h.record_count,
            len: h.payload_len,
        });
        self.records += h.record_count as u64;
        self.end += (HEADER_LEN + h.payload_len as usize) as u64;
    }

    fn max_payload(&self) -> usize {
        match self.spec.size {
            RecordSize::Fixed(rs) => self.records_per_chunk(rs) as usize * rs as usize,
            RecordSize::Variable => self.chunk_size.max(4 + crate::MAX_BLOB_LEN),
        }
    }

    fn records_per_chunk(&self, rs: u32) -> u32 {
        (self.chunk_size / rs as usize).clamp(1, u32::MAX as usize) as u32
    }

    /// Reads and structurally checks the header at `offset` of a chunk that
    /// must end by `limit`.
    fn read_header(&self, offset: u64, limit: u64) -> Result<Header> {
        let idx = self.chunks.len() as u64;
        let bad = |why: String| {
            Error::Storage(format!(
                "{} chunk {idx} (kind `{}`): {why}",
                self.path.display(),
                self.spec.name
            ))
        };
        if offset + HEADER_LEN as u64 > limit {
            return Err(bad("header runs past the committed end".into()));
        }
        let mut hb = [0u8; HEADER_LEN];
        self.file
            .read_exact_at(&mut hb, offset)
            .map_err(|e| bad(format!("unreadable: {e}")))?;
        let h = Header::decode(&hb).ok_or_else(|| bad("bad chunk magic".into()))?;
        h.check(idx, self.records, self.spec.size, self.max_payload())
            .map_err(bad)?;
        if offset + (HEADER_LEN + h.payload_len as usize) as u64 > limit {
            return Err(bad("payload runs past the committed end".into()));
        }
        Ok(h)
    }

    /// The header of a complete, verifying chunk at the current end, if any.
    fn try_adopt(&mut self, len: u64, key: &StoreKey, session: &SessionId) -> Option<Header> {
        let h = self.read_header(self.end, len).ok()?;
        let loc = ChunkLoc {
            offset: self.end,
            first: self.records,
            count: h.record_count,
            len: h.payload_len,
        };
        self.load_chunk(self.chunks.len(), &loc, key, session)
            .ok()?;
        Some(h)
    }

    /// Reads chunk `idx` into `read_buf` and verifies header and MAC.
    fn load_chunk(
        &mut self,
        idx: usize,
        loc: &ChunkLoc,
        key: &StoreKey,
        session: &SessionId,
    ) -> Result<()> {
        let total = HEADER_LEN + loc.len as usize;
        self.read_buf.resize(total, 0);
        let path = &self.path;
        let kind = &self.spec.name;
        let bad = |why: String| {
            Error::Storage(format!(
                "{} chunk {idx} (kind `{kind}`): {why}",
                path.display()
            ))
        };
        self.file
            .read_exact_at(&mut self.read_buf, loc.offset)
            .map_err(|e| bad(format!("unreadable: {e}")))?;
        let mut hb = [0u8; HEADER_LEN];
        hb.copy_from_slice(&self.read_buf[..HEADER_LEN]);
        let h = Header::decode(&hb).ok_or_else(|| bad("bad chunk magic".into()))?;
        if h.record_count != loc.count || h.payload_len != loc.len {
            return Err(bad("header changed since the store was opened".into()));
        }
        h.check(idx as u64, loc.first, self.spec.size, self.max_payload())
            .map_err(bad)?;
        let payload = &self.read_buf[HEADER_LEN..];
        let ctx = ChunkContext {
            session,
            kind,
            chunk_index: idx as u64,
            first_record: loc.first,
            record_count: loc.count,
        };
        if chunk_mac(key, &ctx, payload) != blake3::Hash::from_bytes(h.mac) {
            return Err(bad(
                "MAC mismatch: corrupted, tampered, reordered or copied from another store".into(),
            ));
        }
        if self.spec.size == RecordSize::Variable && split_blobs(payload, loc.count).is_none() {
            return Err(bad("blob lengths do not add up".into()));
        }
        Ok(())
    }

    /// Verifies every committed chunk's header and MAC (reading each once,
    /// keeping nothing); returns (chunks, records) checked.
    pub fn verify_all(&mut self, key: &StoreKey, session: &SessionId) -> Result<(u64, u64)> {
        let locs = self.chunks.clone();
        let mut records = 0;
        for (i, loc) in locs.iter().enumerate() {
            self.load_chunk(i, loc, key, session)?;
            records += loc.count as u64;
        }
        self.read_buf = Vec::new();
        Ok((locs.len() as u64, records))
    }

    /// Kind name and record size.
    pub fn spec(&self) -> &KindSpec {
        &self.spec
    }

    /// Records written (complete chunks, durable or not yet synced).
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Counts for the manifest, valid after [`KindFile::sync`].
    pub fn entry(&self, dropped: u64) -> KindEntry {
        KindEntry {
            spec: self.spec.clone(),
            records: self.records,
            chunks: self.chunks.len() as u64,
            bytes: self.end,
            dropped,
        }
    }

    fn check_writable(&self) -> Result<()> {
        match &self.poisoned {
            Some(why) => Err(Error::Storage(format!(
                "kind `{}` refuses writes after an earlier failure ({why}); reopen the store",
                self.spec.name
            ))),
            None => Ok(()),
        }
    }

    /// Appends fixed-size records (`data.len()` a multiple of the record size).
    pub fn append_fixed(
        &mut self,
        mut data: &[u8],
        key: &StoreKey,
        session: &SessionId,
    ) -> Result<()> {
        self.check_writable()?;
        let rs = match self.spec.size {
            RecordSize::Fixed(rs) => rs,
            RecordSize::Variable => {
                return Err(Error::config(format!(
                    "kind `{}` holds variable-size blobs; use append_blob",
                    self.spec.name
                )))
            }
        };
        if !data.len().is_multiple_of(rs as usize) {
            return Err(Error::config(format!(
                "{} bytes is not a whole number of {rs}-byte records of kind `{}`",
                data.len(),
                self.spec.name
            )));
        }
        let per = self.records_per_chunk(rs);
        while !data.is_empty() {
            let room = (per - self.pending_count) as usize * rs as usize;
            let take = room.min(data.len());
            self.pending.extend_from_slice(&data[..take]);
            self.pending_count += (take / rs as usize) as u32;
            data = &data[take..];
            if self.pending_count == per {
                self.write_chunk(key, session)?;
            }
        }
        Ok(())
    }

    /// Appends one blob to a variable-size kind.
    pub fn append_blob(&mut self, blob: &[u8], key: &StoreKey, session: &SessionId) -> Result<()> {
        self.check_writable()?;
        if self.spec.size != RecordSize::Variable {
            return Err(Error::config(format!(
                "kind `{}` holds fixed-size records; use append",
                self.spec.name
            )));
        }
        if blob.len() > crate::MAX_BLOB_LEN {
            return Err(Error::config(format!(
                "blob of {} bytes exceeds the {}-byte limit",
                blob.len(),
                crate::MAX_BLOB_LEN
            )));
        }
        let payload = self.pending.len() - HEADER_LEN;
        if self.pending_count > 0
            && (payload + 4 + blob.len() > self.chunk_size || self.pending_count == u32::MAX)
        {
            self.write_chunk(key, session)?;
        }
        self.pending
            .extend_from_slice(&(blob.len() as u32).to_le_bytes());
        self.pending.extend_from_slice(blob);
        self.pending_count += 1;
        if self.pending.len() - HEADER_LEN >= self.chunk_size {
            self.write_chunk(key, session)?;
        }
        Ok(())
    }

    /// Seals the buffered records into a chunk and writes it at the end of
    /// the file. On failure the file is cut back to its previous end and the
    /// kind refuses further writes, so the failed chunk is never counted and
    /// later records cannot shift into its indices.
    fn write_chunk(&mut self, key: &StoreKey, session: &SessionId) -> Result<()> {
        if self.pending_count == 0 {
            return Ok(());
        }
        let payload_len = self.pending.len() - HEADER_LEN;
        let ctx = ChunkContext {
            session,
            kind: &self.spec.name,
            chunk_index: self.chunks.len() as u64,
            first_record: self.records,
            record_count: self.pending_count,
        };
        let mac = chunk_mac(key, &ctx, &self.pending[HEADER_LEN..]);
        let h = Header {
            chunk_index: ctx.chunk_index,
            first_record: ctx.first_record,
            record_count: ctx.record_count,
            payload_len: payload_len as u32,
            mac: *mac.as_bytes(),
        };
        h.encode(&mut self.pending[..HEADER_LEN]);
        if let Err(e) = self.file.write_all_at(&self.pending, self.end) {
            let lost = self.pending_count;
            let _ = self.file.set_len(self.end);
            let err = storage(
                format!(
                    "writing chunk {} of kind `{}` to {} ({lost} records not stored)",
                    h.chunk_index,
                    self.spec.name,
                    self.path.display()
                ),
                e,
            );
            self.poisoned = Some(err.to_string());
            self.pending.truncate(HEADER_LEN);
            self.pending_count = 0;
            return Err(err);
        }
        self.push_loc(&h);
        self.pending.truncate(HEADER_LEN);
        self.pending_count = 0;
        self.unsynced = true;
        Ok(())
    }

    /// Writes any partial chunk and makes everything written durable.
    pub fn sync(&mut self, key: &StoreKey, session: &SessionId) -> Result<()> {
        self.check_writable()?;
        self.write_chunk(key, session)?;
        if self.unsynced {
            self.file
                .sync_data()
                .map_err(|e| storage(format!("syncing {}", self.path.display()), e))?;
            self.unsynced = false;
        }
        Ok(())
    }

    /// Index of the chunk holding record `i` (`i < records`).
    fn chunk_of(&self, i: u64) -> usize {
        self.chunks
            .partition_point(|c| c.first + c.count as u64 <= i)
    }

    fn check_range(&self, start: u64, count: u64) -> Result<()> {
        match start.checked_add(count) {
            Some(end) if end <= self.records => Ok(()),
            _ => Err(Error::Exhausted(format!(
                "records {start}..+{count} of kind `{}` are beyond the {} produced",
                self.spec.name, self.records
            ))),
        }
    }

    /// Reads fixed-size records `start..start+count` into `out`, verifying
    /// every chunk touched.
    pub fn read_fixed(
        &mut self,
        start: u64,
        count: u64,
        out: &mut [u8],
        key: &StoreKey,
        session: &SessionId,
    ) -> Result<()> {
        let rs = match self.spec.size {
            RecordSize::Fixed(rs) => rs as u64,
            RecordSize::Variable => {
                return Err(Error::config(format!(
                    "kind `{}` holds blobs; use read_blobs",
                    self.spec.name
                )))
            }
        };
        if out.len() as u64 != count * rs {
            return Err(Error::config(
                "output buffer does not match the record count",
            ));
        }
        self.check_range(start, count)?;
        let mut i = start;
        let mut written = 0usize;
        while i < start + count {
            let idx = self.chunk_of(i);
            let loc = self.chunks[idx];
            self.load_chunk(idx, &loc, key, session)?;
            let from = i - loc.first;
            let upto = (start + count).min(loc.first + loc.count as u64) - loc.first;
            let bytes = &self.read_buf
                [HEADER_LEN + (from * rs) as usize..HEADER_LEN + (upto * rs) as usize];
            out[written..written + bytes.len()].copy_from_slice(bytes);
            written += bytes.len();
            i = loc.first + upto;
        }
        Ok(())
    }

    /// Reads blobs `start..start+count`, verifying every chunk touched.
    pub fn read_blobs(
        &mut self,
        start: u64,
        count: u64,
        key: &StoreKey,
        session: &SessionId,
    ) -> Result<Vec<Vec<u8>>> {
        if self.spec.size != RecordSize::Variable {
            return Err(Error::config(format!(
                "kind `{}` holds fixed-size records; use read",
                self.spec.name
            )));
        }
        self.check_range(start, count)?;
        let mut out = Vec::with_capacity(count.min(1 << 20) as usize);
        let mut i = start;
        while i < start + count {
            let idx = self.chunk_of(i);
            let loc = self.chunks[idx];
            self.load_chunk(idx, &loc, key, session)?;
            let from = (i - loc.first) as usize;
            let upto = ((start + count).min(loc.first + loc.count as u64) - loc.first) as usize;
            let blobs = split_blobs(&self.read_buf[HEADER_LEN..], loc.count).ok_or_else(|| {
                Error::Storage(format!(
                    "{} chunk {idx}: blob lengths do not add up",
                    self.path.display()
                ))
            })?;
            out.extend(blobs[from..upto].iter().map(|b| b.to_vec()));
            i = loc.first + upto as u64;
        }
        Ok(out)
    }
    /// Index of the first record of the chunk that holds record `t`, and
    /// the chunk's number (for cutting the file back to `t` records).
    pub fn cut_point(&self, t: u64) -> Option<(usize, u64)> {
        if t >= self.records {
            return None;
        }
        let idx = self.chunk_of(t);
        Some((idx, self.chunks[idx].first))
    }

    /// The committed counts as they will be once chunks from `idx` on are
    /// dropped (for writing the manifest before the file is cut).
    pub fn entry_before_chunk(&self, idx: usize, dropped: u64) -> KindEntry {
        let (records, bytes) = match self.chunks.get(idx) {
            Some(c) => (c.first, c.offset),
            None => (self.records, self.end),
        };
        KindEntry {
            spec: self.spec.clone(),
            records,
            chunks: idx.min(self.chunks.len()) as u64,
            bytes,
            dropped,
        }
    }

    /// Cuts the file back to before chunk `idx` and makes the cut durable.
    pub fn drop_from_chunk(&mut self, idx: usize) -> Result<()> {
        if let Some(c) = self.chunks.get(idx).copied() {
            self.file
                .set_len(c.offset)
                .and_then(|_| self.file.sync_all())
                .map_err(|e| storage(format!("truncating {}", self.path.display()), e))?;
            self.chunks.truncate(idx);
            self.records = c.first;
            self.end = c.offset;
        }
        Ok(())
    }
}
