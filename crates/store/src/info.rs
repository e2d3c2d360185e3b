//! The `store info` report: what a store holds and what became of it.

use crate::key::{default_key_path, load_key};
use crate::manifest::Manifest;
use crate::state::{State, StatePaths, STATE_FILE};
use crate::store::Store;
use crate::types::Role;
use brickyard_core::Result;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// Per-kind accounting. `produced = consumed + burned + in_use + remaining`
/// whenever `produced >= next index` (the normal case).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KindInfo {
    /// Kind name.
    pub name: String,
    /// Record size in bytes, `null` for blob kinds.
    pub record_size: Option<u32>,
    /// Durably committed records.
    pub produced: u64,
    /// Records of runs that finished.
    pub consumed: u64,
    /// Records reserved but never finished (crashed or failed runs, or
    /// skipped at a handshake): lost for good, never handed out again.
    pub burned: u64,
    /// Records reserved by this open handle and not yet finished (always 0
    /// in the report from [`info`], which counts them as burned).
    pub in_use: u64,
    /// Records that may still be reserved.
    pub remaining: u64,
    /// Records cut off at handshakes because the peer did not have them.
    pub dropped: u64,
    /// Bytes of committed data on disk.
    pub bytes: u64,
    /// Next index to be reserved.
    pub next_index: u64,
}

/// What a store holds (serialisable for `--json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StoreInfo {
    /// Store directory.
    pub dir: String,
    /// Store format version.
    pub format_version: u32,
    /// Protocol name.
    pub protocol: String,
    /// Protocol parameters.
    pub parameters: BTreeMap<String, String>,
    /// Session id (hex).
    pub session_id: String,
    /// This party's role.
    pub role: Role,
    /// Whether the manifest and state were verified with the key; `false`
    /// when the key was not found, in which case the numbers are as the
    /// (possibly tampered) files say.
    pub authenticated: bool,
    /// Why the store refuses use (poisoned after a cheating peer, or
    /// exported), if it does.
    pub closed: Option<String>,
    /// What the material is, in a user's words (circuit name, source…).
    pub about: BTreeMap<String, String>,
    /// What is left, in units a user understands (executions of a circuit).
    pub units: Vec<UnitInfo>,
    /// Per-kind accounting.
    pub kinds: Vec<KindInfo>,
}

/// What is left of one unit of use.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnitInfo {
    /// What one unit is ("execution of builtin:add32").
    pub name: String,
    /// Whole units that may still be reserved (0 when the store is closed).
    pub left: u64,
    /// Units made.
    pub made: u64,
}

fn build(
    dir: &Path,
    m: &Manifest,
    st: &State,
    authenticated: bool,
    open: &BTreeMap<String, u64>,
) -> StoreInfo {
    StoreInfo {
        dir: dir.display().to_string(),
        format_version: m.format_version,
        protocol: m.protocol.clone(),
        parameters: m.parameters.clone(),
        session_id: m.session_id.clone(),
        role: m.role,
        authenticated,
        closed: st.closed.as_ref().map(|c| c.to_string()),
        about: m.about.clone(),
        units: m
            .units
            .iter()
            .map(|u| {
                let count = |f: &dyn Fn(&crate::manifest::KindEntry) -> u64| {
                    u.kinds
                        .iter()
                        .map(|(k, per)| {
                            m.kinds
                                .iter()
                                .find(|e| &e.spec.name == k)
                                .map_or(0, |e| f(e) / per)
                        })
                        .min()
                        .unwrap_or(0)
                };
                let left = count(&|e| e.records.saturating_sub(st.kind(&e.spec.name).next));
                UnitInfo {
                    name: u.name.clone(),
                    left: if st.closed.is_some() { 0 } else { left },
                    made: count(&|e| e.records),
                }
            })
            .collect(),
        kinds: m
            .kinds
            .iter()
            .map(|k| {
                let s = st.kind(&k.spec.name);
                let in_use = open.get(&k.spec.name).copied().unwrap_or(0);
                KindInfo {
                    name: k.spec.name.clone(),
                    record_size: match k.spec.size {
                        crate::RecordSize::Fixed(n) => Some(n),
                        crate::RecordSize::Variable => None,
                    },
                    produced: k.records,
                    consumed: s.consumed,
                    burned: s.next.saturating_sub(s.consumed).saturating_sub(in_use),
                    in_use,
                    remaining: k.records.saturating_sub(s.next),
                    dropped: k.dropped,
                    bytes: k.bytes,
                    next_index: s.next,
                }
            })
            .collect(),
    }
}

/// Reports on the store in `dir` without locking or modifying it, using the
/// key at its default location when present to authenticate the files.
pub fn info(dir: &Path) -> Result<StoreInfo> {
    info_with_key(dir, None)
}

/// Like [`info`] with an explicit key path.
pub fn info_with_key(dir: &Path, key_path: Option<&Path>) -> Result<StoreInfo> {
    let m = Manifest::load_unverified(dir)?;
    let session = m.session()?;
    let key_path = match key_path {
        Some(p) => Some(p.to_path_buf()),
        None => default_key_path(&session, m.role).ok(),
    };
    let none = BTreeMap::new();
    if let Some(kp) = key_path {
        if let Ok(key) = load_key(&kp) {
            let m = Manifest::load(dir, &key)?;
            let st = State::load(&StatePaths::new(dir, &kp), &key, &session)?;
            return Ok(build(dir, &m, &st, true, &none));
        }
    }
    let st = State::load_unverified(&dir.join(STATE_FILE))?;
    Ok(build(dir, &m, &st, false, &none))
}

impl Store {
    /// Authenticated report of this open store, counting this handle's open
    /// reservations as `in_use` rather than burned.
    pub fn info(&self) -> StoreInfo {
        let mut open = BTreeMap::new();
        for &(i, n) in self.open.values() {
            *open.entry(self.entry(i).spec.name.clone()).or_insert(0) += n;
        }
        build(&self.dir, &self.manifest, &self.state, true, &open)
    }
}
