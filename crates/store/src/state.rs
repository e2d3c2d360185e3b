//! The reservation state: per kind, the next index never handed out and how
//! many records completed runs consumed.
//!
//! This is the file that makes material single-use, so it is written twice
//! per update: first to a mirror beside the key (outside the store directory,
//! where the threat model says an attacker cannot write), then into the store.
//! Each copy carries a generation number; loading takes the newest copy that
//! verifies. Rolling the store directory back to an old snapshot therefore
//! cannot lower `next`: the mirror still has the newer generation.

use crate::fsutil::write_atomic;
use crate::key::StoreKey;
use crate::mac::{open_sealed, seal, split_sealed};
use crate::types::SessionId;
use brickyard_core::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// File name of the in-store copy.
pub const STATE_FILE: &str = "state.json";

/// Reservation counters of one kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindState {
    /// Every index below this was reserved at some time and is never handed
    /// out again.
    pub next: u64,
    /// Records of reservations whose run called `finish`.
    pub consumed: u64,
}

/// Why a store refuses all further use of its material.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Closed {
    /// A run with this store's peer ended in `Cheating { check }`: the
    /// peer is known to be malicious, so nothing made with it is used again
    /// (its commitment watch bits, Δ, MAC keys may be what it attacked).
    Poisoned {
        /// The check that failed.
        check: String,
    },
    /// The store was exported (moved) to another machine: the copy there is
    /// the one to use, and two usable copies would hand out indices twice.
    Exported,
}

impl std::fmt::Display for Closed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Closed::Poisoned { check } => write!(
                f,
                "poisoned: a run with this peer was aborted by the check `{check}`; \
                 nothing made with this peer is used again"
            ),
            Closed::Exported => write!(
                f,
                "exported: this store was moved to another machine with `store export`"
            ),
        }
    }
}

/// The state body.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Incremented on every save; the newest verifying copy wins.
    pub generation: u64,
    /// Per-kind counters.
    pub kinds: BTreeMap<String, KindState>,
    /// Set once, never cleared: the store refuses all further use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed: Option<Closed>,
}

/// Where the two copies live.
pub struct StatePaths {
    /// Copy inside the store directory.
    pub store: PathBuf,
    /// Trusted copy beside the key.
    pub mirror: PathBuf,
}

impl StatePaths {
    /// Paths for a store directory and its key file.
    pub fn new(dir: &Path, key_path: &Path) -> Self {
        StatePaths {
            store: dir.join(STATE_FILE),
            mirror: crate::key::mirror_path(key_path),
        }
    }
}

impl State {
    /// Writes the next generation: mirror first, so a crash between the two
    /// writes leaves the trusted copy ahead, never behind.
    ///
    /// First re-reads the mirror: if its generation is newer than the one
    /// this handle loaded, another process (working on a copy of this store
    /// directory, which shares the key and mirror) has reserved meanwhile,
    /// and writing our view would hand out its indices again. The key lock
    /// (`lock.rs`) already keeps a second copy from opening; this check
    /// covers file systems where `flock` does not reach across processes.
    pub fn save(&mut self, paths: &StatePaths, key: &StoreKey, session: &SessionId) -> Result<()> {
        if let Some(m) = read_copy(&paths.mirror, key, session)? {
            if m.generation > self.generation {
                return Err(Error::Storage(format!(
                    "the reservation state {} changed since this store was opened (generation {}, \
                     ours {}): another copy of this store is in use; refusing to hand out indices",
                    paths.mirror.display(),
                    m.generation,
                    self.generation
                )));
            }
        }
        let mut next = self.clone();
        next.generation += 1;
        let body = serde_json::to_vec_pretty(&next)
            .map_err(|e| Error::Storage(format!("cannot encode state: {e}")))?;
        let sealed = seal(key, session, "state", &body);
        write_atomic(&paths.mirror, &sealed)?;
        write_atomic(&paths.store, &sealed)?;
        *self = next;
        Ok(())
    }

    /// Loads the newest verifying copy. A mirror that exists but does not
    /// verify is an error (it is the trusted copy); an in-store copy that does
    /// not verify is ignored when the mirror is present. With neither copy
    /// the store is refused: starting from zero would hand out used material.
    pub fn load(paths: &StatePaths, key: &StoreKey, session: &SessionId) -> Result<State> {
        let mirror = read_copy(&paths.mirror, key, session)?;
        let store = read_copy(&paths.store, key, session);
        let store = match (&mirror, store) {
            (Some(_), Err(_)) => None,
            (_, s) => s?,
        };
        match (mirror, store) {
            (Some(m), Some(s)) => Ok(if s.generation > m.generation { s } else { m }),
            (Some(m), None) => Ok(m),
            (None, Some(s)) => Ok(s),
            (None, None) => Err(Error::Storage(format!(
                "reservation state missing ({} and {}); refusing to open because used material could be handed out again",
                paths.store.display(),
                paths.mirror.display()
            ))),
        }
    }

    /// Reads the in-store copy without a key, for reports only.
    pub fn load_unverified(path: &Path) -> Result<State> {
        let what = format!("state {}", path.display());
        let bytes =
            std::fs::read(path).map_err(|e| Error::Storage(format!("cannot read {what}: {e}")))?;
        let (body, _) = split_sealed(&bytes, &what)?;
        serde_json::from_slice(body)
            .map_err(|e| Error::Storage(format!("{what} does not parse: {e}")))
    }

    /// Refuses use of a closed (poisoned or exported) store.
    pub fn check_open(&self) -> Result<()> {
        match &self.closed {
            None => Ok(()),
            Some(c) => Err(Error::config(format!("store refuses use: {c}"))),
        }
    }

    /// Counters of `kind` (zero when it has none yet).
    pub fn kind(&self, kind: &str) -> KindState {
        self.kinds.get(kind).copied().unwrap_or_default()
    }
}

fn read_copy(path: &Path, key: &StoreKey, session: &SessionId) -> Result<Option<State>> {
    let what = format!("reservation state {}", path.display());
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::Storage(format!("cannot read {what}: {e}"))),
    };
    let body = open_sealed(key, session, "state", &bytes, &what)?;
    parse_state(body, &what).map(Some)
}

/// Parses a state body and checks its counters.
pub(crate) fn parse_state(body: &[u8], what: &str) -> Result<State> {
    let s: State = serde_json::from_slice(body)
        .map_err(|e| Error::Storage(format!("{what} does not parse: {e}")))?;
    for (k, v) in &s.kinds {
        if v.consumed > v.next {
            return Err(Error::Storage(format!(
                "{what}: kind `{k}` consumed {} > reserved {}",
                v.consumed, v.next
            )));
        }
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::create_key;

    #[test]
    fn rollback_of_store_copy_is_ignored_and_missing_state_refused() {
        let d = tempfile::tempdir().unwrap();
        let kp = d.path().join("keys/k.key");
        let key = create_key(&kp).unwrap();
        std::fs::create_dir(d.path().join("s")).unwrap();
        let paths = StatePaths::new(&d.path().join("s"), &kp);
        let sid = SessionId([3; 16]);
        assert!(State::load(&paths, &key, &sid).is_err());
        let mut st = State::default();
        st.save(&paths, &key, &sid).unwrap();
        let old = std::fs::read(&paths.store).unwrap();
        st.kinds.insert(
            "ot".into(),
            KindState {
                next: 10,
                consumed: 0,
            },
        );
        st.save(&paths, &key, &sid).unwrap();
        std::fs::write(&paths.store, &old).unwrap();
        assert_eq!(State::load(&paths, &key, &sid).unwrap().kind("ot").next, 10);
        std::fs::write(&paths.store, b"junk").unwrap();
        assert_eq!(State::load(&paths, &key, &sid).unwrap().kind("ot").next, 10);
        std::fs::remove_file(&paths.mirror).unwrap();
        assert!(State::load(&paths, &key, &sid).is_err());
    }

    #[test]
    fn save_refuses_when_another_copy_advanced_the_mirror() {
        let d = tempfile::tempdir().unwrap();
        let kp = d.path().join("keys/k.key");
        let key = create_key(&kp).unwrap();
        for s in ["s", "copy"] {
            std::fs::create_dir(d.path().join(s)).unwrap();
        }
        let sid = SessionId([4; 16]);
        let (p1, p2) = (
            StatePaths::new(&d.path().join("s"), &kp),
            StatePaths::new(&d.path().join("copy"), &kp),
        );
        let mut st = State::default();
        st.save(&p1, &key, &sid).unwrap();
        // Two handles load the same generation (two copies of one store).
        let mut one = State::load(&p1, &key, &sid).unwrap();
        std::fs::copy(&p1.store, &p2.store).unwrap();
        let mut two = State::load(&p2, &key, &sid).unwrap();
        one.kinds.insert(
            "ot".into(),
            KindState {
                next: 5,
                consumed: 0,
            },
        );
        one.save(&p1, &key, &sid).unwrap();
        two.kinds.insert(
            "ot".into(),
            KindState {
                next: 5,
                consumed: 0,
            },
        );
        let e = two.save(&p2, &key, &sid).unwrap_err();
        assert!(
            matches!(&e, Error::Storage(m) if m.contains("another copy")),
            "{e}"
        );
        // The mirror still has the first handle's reservation only once.
        assert_eq!(State::load(&p1, &key, &sid).unwrap().generation, 2);
    }
}
