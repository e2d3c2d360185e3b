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

/// The state body.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Incremented on every save; the newest verifying copy wins.
    pub generation: u64,
    /// Per-kind counters.
    pub kinds: BTreeMap<String, KindState>,
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
    pub fn save(&mut self, paths: &StatePaths, key: &StoreKey, session: &SessionId) -> Result<()> {
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
    Ok(Some(s))
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
}
