//! `store verify`: check every record's MAC, the metadata and the secrets
//! without reserving or consuming anything, so a tampered store is found
//! before a run burns material on it.

use crate::manifest::Manifest;
use crate::store::{Expected, Store};
use brickyard_core::Result;
use serde::Serialize;
use std::path::Path;

/// What [`Store::verify`] checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// Per kind: (name, chunks, records) verified.
    pub kinds: Vec<(String, u64, u64)>,
    /// Sealed secrets verified.
    pub secrets: u64,
    /// Why the store refuses use, if it does (verification still ran).
    pub closed: Option<String>,
}

impl Store {
    /// Opens a store for inspection, whatever it was made for: the
    /// expectation is taken from the manifest, which is then authenticated
    /// with the key like on every open.
    pub fn open_any(dir: &Path, key_path: Option<&Path>) -> Result<Store> {
        let m = Manifest::load_unverified(dir)?;
        let expected = Expected {
            protocol: m.protocol.clone(),
            parameters: m.parameters.clone(),
            role: m.role,
            session_id: Some(m.session()?),
            key_path: key_path.map(Path::to_path_buf),
        };
        Store::open(dir, &expected)
    }

    /// Reads every committed chunk of every kind and every sealed secret
    /// and checks its MAC; the first failure is returned as the
    /// `Storage` error that names file, chunk and kind. Reserves nothing.
    pub fn verify(&mut self) -> Result<VerifyReport> {
        let mut kinds = Vec::with_capacity(self.files.len());
        for f in self.files.iter_mut() {
            let (chunks, records) = f.verify_all(&self.key, &self.session)?;
            kinds.push((f.spec().name.clone(), chunks, records));
        }
        let mut secrets = 0;
        for name in self.secret_names()? {
            self.get_secret(&name)?;
            secrets += 1;
        }
        Ok(VerifyReport {
            kinds,
            secrets,
            closed: self.state.closed.as_ref().map(|c| c.to_string()),
        })
    }
}
