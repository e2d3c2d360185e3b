//! Where one party keeps its preprocessing.

use std::path::{Path, PathBuf};

/// One party's store directory and the file holding the store's MAC key.
/// The key lives outside the store (default: under `$BRICKYARD_HOME/keys`),
/// so a copied store directory alone cannot be forged or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreLocation {
    /// The store directory (created by [`crate::Computation::preprocess`]).
    pub dir: PathBuf,
    /// The key file; `None` for the default place.
    pub key: Option<PathBuf>,
}

impl StoreLocation {
    /// A store in `dir` with its key in the default place.
    ///
    /// ```
    /// let s = brickyard::StoreLocation::new("alice.store").with_key("alice.key");
    /// assert_eq!(s.key.as_deref(), Some(std::path::Path::new("alice.key")));
    /// ```
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        StoreLocation {
            dir: dir.into(),
            key: None,
        }
    }

    /// The same store with its key at `key`.
    pub fn with_key(mut self, key: impl Into<PathBuf>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// What the store holds and how much of it is left, read without
    /// opening it for use.
    ///
    /// See [`crate::Computation::preprocess`] for an example.
    pub fn info(&self) -> brickyard_core::Result<brickyard_store::StoreInfo> {
        brickyard_store::info_with_key(&self.dir, self.key.as_deref())
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }
}
