//! The store handle: creating, opening (with crash recovery), appending and
//! committing material.

use crate::fsutil::{create_private_dir, fsync_dir, storage};
use crate::key::{create_key, default_key_path, load_key, StoreKey};
use crate::kind_file::{KindFile, Recovery};
use crate::lock::StoreLock;
use crate::manifest::{KindEntry, Manifest, UnitSpec};
use crate::state::{Closed, State, StatePaths};
use crate::types::{KindSpec, Role, SessionId};
use crate::{DEFAULT_CHUNK_SIZE, FORMAT_VERSION};
use brickyard_core::{Error, Result};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// Everything needed to create a store.
#[derive(Clone, Debug)]
pub struct StoreConfig {
    /// Protocol the material is for (checked on open and at the handshake).
    pub protocol: String,
    /// Protocol parameters (checked on open and at the handshake).
    pub parameters: BTreeMap<String, String>,
    /// This party's role.
    pub role: Role,
    /// Session id agreed with the peer (see [`crate::agree_session_id`]).
    pub session_id: SessionId,
    /// Material kinds; more can be added later with [`Store::add_kind`].
    pub kinds: Vec<KindSpec>,
    /// Key file; `None` means `$BRICKYARD_HOME/keys/<session>.<role>.key`.
    pub key_path: Option<PathBuf>,
    /// Target chunk payload size in bytes.
    pub chunk_size: usize,
    /// Informational labels for `store info` (see [`Store::set_about`]).
    pub about: BTreeMap<String, String>,
}

impl StoreConfig {
    /// A config with no parameters or kinds, the default key location and
    /// the default chunk size.
    pub fn new(protocol: &str, role: Role, session_id: SessionId) -> Self {
        StoreConfig {
            protocol: protocol.to_string(),
            parameters: BTreeMap::new(),
            role,
            session_id,
            kinds: Vec::new(),
            key_path: None,
            chunk_size: DEFAULT_CHUNK_SIZE,
            about: BTreeMap::new(),
        }
    }
}

/// What a caller expects of a store it opens; any difference is refused, so
/// material made for other parameters is never used by mistake.
#[derive(Clone, Debug)]
pub struct Expected {
    /// Protocol name.
    pub protocol: String,
    /// Protocol parameters.
    pub parameters: BTreeMap<String, String>,
    /// This party's role.
    pub role: Role,
    /// Session id, when the caller knows it.
    pub session_id: Option<SessionId>,
    /// Key file; `None` means the default location.
    pub key_path: Option<PathBuf>,
}

impl Expected {
    /// Expectation of protocol and role, no parameters, default key.
    pub fn new(protocol: &str, role: Role) -> Self {
        Expected {
            protocol: protocol.to_string(),
            parameters: BTreeMap::new(),
            role,
            session_id: None,
            key_path: None,
        }
    }
}

/// What [`Store::open`] repaired, per kind.
#[derive(Clone, Debug, Default, Serialize)]
pub struct OpenReport {
    /// Per-kind recovery of chunks written after the last commit.
    pub recovery: BTreeMap<String, Recovery>,
}

/// An open, locked preprocessing store of one party.
pub struct Store {
    pub(crate) dir: PathBuf,
    pub(crate) key: StoreKey,
    pub(crate) session: SessionId,
    pub(crate) manifest: Manifest,
    pub(crate) state: State,
    pub(crate) state_paths: StatePaths,
    pub(crate) files: Vec<KindFile>,
    pub(crate) report: OpenReport,
    /// Random tag of this handle: a reservation only reads from the handle
    /// that made it.
    pub(crate) tag: u64,
    pub(crate) next_reservation: u64,
    /// Open reservations of this handle: id → (kind index, count).
    pub(crate) open: HashMap<u64, (usize, u64)>,
    /// Whether the next handshake may skip forward to a peer that is ahead
    /// (see [`Store::allow_resync`]).
    pub(crate) resync: bool,
    pub(crate) key_path: PathBuf,
    /// A lie to tell at the next handshakes (adversary builds only).
    #[cfg(feature = "adversary")]
    pub(crate) lie: Option<crate::sync::SyncLie>,
    _lock: StoreLock,
    _key_lock: StoreLock,
}

impl Store {
    /// Creates a new store in `dir` (which must not exist or be empty) and a
    /// fresh key. The manifest is written last, so a crash during creation
    /// leaves a directory that does not open as a store.
    pub fn create(dir: &Path, cfg: StoreConfig) -> Result<Store> {
        for (i, k) in cfg.kinds.iter().enumerate() {
            k.validate()?;
            if cfg.kinds[..i].iter().any(|o| o.name == k.name) {
                return Err(Error::config(format!("kind `{}` declared twice", k.name)));
            }
        }
        if cfg.chunk_size == 0 || cfg.chunk_size > crate::MAX_CHUNK_PAYLOAD {
            return Err(Error::config(format!(
                "chunk size {} out of range 1..={}",
                cfg.chunk_size,
                crate::MAX_CHUNK_PAYLOAD
            )));
        }
        create_private_dir(dir)?;
        let non_empty = std::fs::read_dir(dir)
            .map_err(|e| storage(format!("listing {}", dir.display()), e))?
            .next()
            .is_some();
        if non_empty {
            return Err(Error::config(format!(
                "{} is not empty; refusing to create a store over existing files",
                dir.display()
            )));
        }
        let lock = StoreLock::acquire(dir)?;
        let key_path = match &cfg.key_path {
            Some(p) => p.clone(),
            None => default_key_path(&cfg.session_id, cfg.role)?,
        };
        let key = create_key(&key_path)?;
        let key_lock = StoreLock::acquire_key(&key_path)?;
        let mut files = Vec::new();
        for k in &cfg.kinds {
            files.push(KindFile::create(dir, k, cfg.chunk_size)?);
        }
        let state_paths = StatePaths::new(dir, &key_path);
        let mut state = State::default();
        state.save(&state_paths, &key, &cfg.session_id)?;
        let manifest = Manifest {
            format_version: FORMAT_VERSION,
            protocol: cfg.protocol,
            parameters: cfg.parameters,
            role: cfg.role,
            session_id: cfg.session_id.to_hex(),
            chunk_size: cfg.chunk_size as u64,
            kinds: files.iter().map(|f| f.entry(0)).collect(),
            about: cfg.about,
            units: Vec::new(),
        };
        manifest.save(dir, &key)?;
        fsync_dir(dir)?;
        Ok(Store::assemble(
            dir,
            key,
            cfg.session_id,
            manifest,
            state,
            state_paths,
            files,
            OpenReport::default(),
            [lock, key_lock],
            key_path,
        ))
    }

    #[allow(clippy::too_many_arguments)]
    fn assemble(
        dir: &Path,
        key: StoreKey,
        session: SessionId,
        manifest: Manifest,
        state: State,
        state_paths: StatePaths,
        files: Vec<KindFile>,
        report: OpenReport,
        [lock, key_lock]: [StoreLock; 2],
        key_path: PathBuf,
    ) -> Store {
        let mut tag = [0u8; 8];
        // A fixed tag would only weaken a debugging aid, never safety.
        let _ = getrandom::fill(&mut tag);
        Store {
            dir: dir.to_path_buf(),
            key,
            session,
            manifest,
            state,
            state_paths,
            files,
            report,
            tag: u64::from_le_bytes(tag),
            next_reservation: 0,
            open: HashMap::new(),
            resync: false,
            key_path,
            #[cfg(feature = "adversary")]
            lie: None,
            _lock: lock,
            _key_lock: key_lock,
        }
    }

    /// Opens an existing store: takes the lock, authenticates the manifest
    /// and reservation state, checks the expectation, then recovers complete
    /// chunks written after the last commit and truncates a torn tail.
    pub fn open(dir: &Path, expected: &Expected) -> Result<Store> {
        let lock = StoreLock::acquire(dir)?;
        let unverified = Manifest::load_unverified(dir)?;
        let session = unverified.session()?;
        let key_path = match &expected.key_path {
            Some(p) => p.clone(),
            None => default_key_path(&session, unverified.role)?,
        };
        let key = load_key(&key_path)?;
        let key_lock = StoreLock::acquire_key(&key_path)?;
        let mut manifest = Manifest::load(dir, &key)?;
        check_expected(&manifest, &session, expected)?;
        let state_paths = StatePaths::new(dir, &key_path);
        let state = State::load(&state_paths, &key, &session)?;
        let chunk_size = manifest.chunk_size as usize;
        let mut files = Vec::new();
        let mut report = OpenReport::default();
        let mut changed = false;
        for entry in manifest.kinds.iter_mut() {
            let (kf, rec) = KindFile::open(dir, entry, chunk_size, &key, &session)?;
            if rec != Recovery::default() {
                changed = true;
                *entry = kf.entry(entry.dropped);
            }
            report.recovery.insert(entry.spec.name.clone(), rec);
            files.push(kf);
        }
        if changed {
            manifest.save(dir, &key)?;
        }
        Ok(Store::assemble(
            dir,
            key,
            session,
            manifest,
            state,
            state_paths,
            files,
            report,
            [lock, key_lock],
            key_path,
        ))
    }

    /// What opening repaired: chunks adopted after a crash, bytes truncated.
    pub fn open_report(&self) -> &OpenReport {
        &self.report
    }

    /// The store directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The session id.
    pub fn session_id(&self) -> SessionId {
        self.session
    }

    /// This party's role.
    pub fn role(&self) -> Role {
        self.manifest.role
    }

    /// The parameters the material was made for.
    pub fn parameters(&self) -> &BTreeMap<String, String> {
        &self.manifest.parameters
    }

    /// Refuses (`Config`, saying why) a store that is poisoned or exported:
    /// a run checks this before connecting.
    pub fn check_usable(&self) -> Result<()> {
        self.state.check_open()
    }

    /// Why the store refuses use, if it does.
    pub fn closed(&self) -> Option<&Closed> {
        self.state.closed.as_ref()
    }

    /// Lets the next handshakes skip forward to a peer whose next index is
    /// ahead of ours (a run that stopped on one side after reserving leaves
    /// this). Off by default: a skip burns our material on the peer's word,
    /// so only an operator who knows a run stopped may allow it.
    pub fn allow_resync(&mut self, yes: bool) {
        self.resync = yes;
    }

    /// Makes this store lie at every later handshake (adversary builds).
    #[cfg(feature = "adversary")]
    pub fn lie_at_sync(&mut self, lie: crate::sync::SyncLie) {
        self.lie = Some(lie);
    }

    /// Durably marks the store poisoned after the peer was caught cheating
    /// (`check` names the failed check): all further reservations and
    /// handshakes are refused, in this and every later process, because
    /// material made with a malicious peer (watch bits, Δ, MAC keys) may be
    /// what it attacked. Written to the mirror beside the key as well, so
    /// restoring the store directory does not lift it.
    pub fn poison(&mut self, check: &str) -> Result<()> {
        self.close(Closed::Poisoned {
            check: check.to_string(),
        })
    }

    pub(crate) fn close(&mut self, why: Closed) -> Result<()> {
        if self.state.closed.is_some() {
            return Ok(());
        }
        let mut st = self.state.clone();
        st.closed = Some(why);
        st.save(&self.state_paths, &self.key, &self.session)?;
        self.state = st;
        Ok(())
    }

    /// Sets an informational label shown by `store info` (e.g. the circuit's
    /// name); durable at once.
    pub fn set_about(&mut self, key: &str, value: &str) -> Result<()> {
        if self.manifest.about.get(key).map(String::as_str) == Some(value) {
            return Ok(());
        }
        let mut m = self.manifest.clone();
        m.about.insert(key.to_string(), value.to_string());
        m.save(&self.dir, &self.key)?;
        self.manifest = m;
        Ok(())
    }

    /// Declares how kinds are used together, so `store info` can say how
    /// many executions are left (no-op if a unit of that name exists).
    pub fn declare_unit(&mut self, name: &str, kinds: &[(&str, u64)]) -> Result<()> {
        if self.manifest.units.iter().any(|u| u.name == name) {
            return Ok(());
        }
        for (k, per) in kinds {
            self.kind_index(k)?;
            if *per == 0 {
                return Err(Error::config(format!(
                    "unit `{name}` takes 0 records of `{k}`"
                )));
            }
        }
        let mut m = self.manifest.clone();
        m.units.push(UnitSpec {
            name: name.to_string(),
            kinds: kinds.iter().map(|(k, n)| (k.to_string(), *n)).collect(),
        });
        m.save(&self.dir, &self.key)?;
        self.manifest = m;
        Ok(())
    }

    /// Declares a new kind (no-op if it exists with the same record size).
    pub fn add_kind(&mut self, spec: KindSpec) -> Result<()> {
        spec.validate()?;
        if let Some(i) = self.kind_index_opt(&spec.name) {
            if self.files[i].spec() == &spec {
                return Ok(());
            }
            return Err(Error::config(format!(
                "kind `{}` exists with another record size",
                spec.name
            )));
        }
        let kf = KindFile::create(&self.dir, &spec, self.manifest.chunk_size as usize)?;
        let mut m = self.manifest.clone();
        m.kinds.push(kf.entry(0));
        m.save(&self.dir, &self.key)?;
        self.manifest = m;
        self.files.push(kf);
        Ok(())
    }

    fn kind_index_opt(&self, kind: &str) -> Option<usize> {
        self.files.iter().position(|f| f.spec().name == kind)
    }

    pub(crate) fn kind_index(&self, kind: &str) -> Result<usize> {
        self.kind_index_opt(kind).ok_or_else(|| {
            Error::config(format!(
                "store {} has no material kind `{kind}`",
                self.dir.display()
            ))
        })
    }

    /// Durably committed records of `kind` (what may be reserved).
    pub fn produced(&self, kind: &str) -> Result<u64> {
        Ok(self.manifest.kinds[self.kind_index(kind)?].records)
    }

    /// Appends fixed-size records given as raw bytes. They become durable and
    /// reservable at the next [`Store::commit`].
    pub fn append(&mut self, kind: &str, records: &[u8]) -> Result<()> {
        let i = self.kind_index(kind)?;
        self.files[i].append_fixed(records, &self.key, &self.session)
    }

    /// Appends fixed-size records given as plain-old-data values (e.g.
    /// `Block`s); the record size must be a multiple of `size_of::<T>()`.
    pub fn append_pod<T: bytemuck::Pod>(&mut self, kind: &str, records: &[T]) -> Result<()> {
        self.append(kind, bytemuck::cast_slice(records))
    }

    /// Appends one variable-size blob.
    pub fn append_blob(&mut self, kind: &str, blob: &[u8]) -> Result<()> {
        let i = self.kind_index(kind)?;
        self.files[i].append_blob(blob, &self.key, &self.session)
    }

    /// Appends one serde value as a postcard blob.
    pub fn append_typed<T: Serialize>(&mut self, kind: &str, value: &T) -> Result<()> {
        let bytes = postcard::to_stdvec(value)
            .map_err(|e| Error::config(format!("cannot encode record of kind `{kind}`: {e}")))?;
        self.append_blob(kind, &bytes)
    }

    /// Makes everything appended so far durable and reservable: writes the
    /// partial chunks, fsyncs the data files, then atomically replaces the
    /// manifest. Call it at the end of a preprocessing batch.
    pub fn commit(&mut self) -> Result<()> {
        for f in self.files.iter_mut() {
            f.sync(&self.key, &self.session)?;
        }
        let mut m = self.manifest.clone();
        for (e, f) in m.kinds.iter_mut().zip(&self.files) {
            *e = f.entry(e.dropped);
        }
        if m != self.manifest {
            m.save(&self.dir, &self.key)?;
            self.manifest = m;
        }
        Ok(())
    }

    /// Cuts `kind` back to `t` records (the peer does not have the rest),
    /// counting the cut records as dropped. The manifest is updated before
    /// the file is cut, so a crash in between never leaves a manifest that
    /// claims more than the file holds.
    pub(crate) fn truncate_kind(&mut self, i: usize, t: u64) -> Result<u64> {
        self.commit()?;
        let old = self.files[i].records();
        let Some((chunk, first)) = self.files[i].cut_point(t) else {
            return Ok(0);
        };
        let keep = t - first;
        let (fixed_prefix, blob_prefix) = if keep == 0 {
            (Vec::new(), Vec::new())
        } else {
            match self.files[i].spec().size {
                crate::RecordSize::Fixed(rs) => {
                    let mut buf = vec![0u8; (keep * rs as u64) as usize];
                    self.files[i].read_fixed(first, keep, &mut buf, &self.key, &self.session)?;
                    (buf, Vec::new())
                }
                crate::RecordSize::Variable => (
                    Vec::new(),
                    self.files[i].read_blobs(first, keep, &self.key, &self.session)?,
                ),
            }
        };
        let mut m = self.manifest.clone();
        let dropped_before = m.kinds[i].dropped;
        m.kinds[i] = self.files[i].entry_before_chunk(chunk, dropped_before + (old - first));
        m.save(&self.dir, &self.key)?;
        self.manifest = m;
        self.files[i].drop_from_chunk(chunk)?;
        if keep > 0 {
            if fixed_prefix.is_empty() {
                for b in &blob_prefix {
                    self.files[i].append_blob(b, &self.key, &self.session)?;
                }
            } else {
                self.files[i].append_fixed(&fixed_prefix, &self.key, &self.session)?;
            }
            self.files[i].sync(&self.key, &self.session)?;
            let mut m = self.manifest.clone();
            m.kinds[i] = self.files[i].entry(dropped_before + (old - t));
            m.save(&self.dir, &self.key)?;
            self.manifest = m;
        }
        Ok(old - t)
    }

    pub(crate) fn entry(&self, i: usize) -> &KindEntry {
        &self.manifest.kinds[i]
    }
}

/// Names every parameter that differs, in a user's words: "store made for
/// circuit … (digest …), this run asks for …".
pub(crate) fn parameter_differences(
    store: &BTreeMap<String, String>,
    run: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut keys: Vec<&String> = store.keys().chain(run.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| store.get(*k) != run.get(*k))
        .map(|k| {
            let show = |v: Option<&String>| match v {
                Some(v) => format!("`{v}`"),
                None => "nothing".to_string(),
            };
            format!(
                "{k}: the store was made with {}, this run asks for {}",
                show(store.get(k)),
                show(run.get(k))
            )
        })
        .collect()
}

fn check_expected(m: &Manifest, session: &SessionId, e: &Expected) -> Result<()> {
    if m.protocol != e.protocol {
        return Err(Error::config(format!(
            "store holds material for protocol `{}`, not `{}`",
            m.protocol, e.protocol
        )));
    }
    let diff = parameter_differences(&m.parameters, &e.parameters);
    if !diff.is_empty() {
        let made_for = match m.about.get("circuit") {
            Some(c) => format!(" The store was made for circuit `{c}`."),
            None => String::new(),
        };
        return Err(Error::config(format!(
            "the store was made for other settings; refusing to use it, nothing was touched ({}).{made_for}",
            diff.join("; ")
        )));
    }
    if m.role != e.role {
        return Err(Error::config(format!(
            "store belongs to {}, not {}",
            m.role, e.role
        )));
    }
    if let Some(s) = e.session_id {
        if s != *session {
            return Err(Error::config(format!(
                "store belongs to session {session}, not {s}"
            )));
        }
    }
    Ok(())
}

impl std::fmt::Debug for Store {
    /// Never prints the key.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("dir", &self.dir)
            .field("session", &self.session)
            .field("role", &self.manifest.role)
            .finish_non_exhaustive()
    }
}
