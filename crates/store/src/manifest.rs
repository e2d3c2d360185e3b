//! The manifest: what a store is for and how much durable material it holds.
//!
//! It is a sealed JSON file (see `mac.rs`) replaced atomically. Its counts are
//! a durable lower bound: chunks appended after the last manifest update are
//! re-verified and adopted when the store is next opened.

use crate::key::StoreKey;
use crate::mac::{open_sealed, seal, split_sealed};
use crate::types::{KindSpec, Role, SessionId};
use crate::FORMAT_VERSION;
use brickyard_core::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// File name of the manifest inside a store directory.
pub const MANIFEST_FILE: &str = "manifest.json";

/// Durable per-kind counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindEntry {
    /// Name and record size.
    pub spec: KindSpec,
    /// Records in committed chunks.
    pub records: u64,
    /// Committed chunks.
    pub chunks: u64,
    /// Bytes of committed chunks (the valid prefix of the data file).
    pub bytes: u64,
    /// Records cut off at a handshake because the peer did not have them.
    pub dropped: u64,
}

/// The manifest body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Store format version; a store of another version is refused.
    pub format_version: u32,
    /// Protocol the material is for.
    pub protocol: String,
    /// Protocol parameters (security parameters, circuit, sizes), as text so
    /// that the store stays ignorant of protocol semantics.
    pub parameters: BTreeMap<String, String>,
    /// This party's role.
    pub role: Role,
    /// Session id, 32 hex digits.
    pub session_id: String,
    /// Target payload size of a chunk in bytes.
    pub chunk_size: u64,
    /// Material kinds, in declaration order.
    pub kinds: Vec<KindEntry>,
    /// What a user calls the material (circuit name, who made it, how many
    /// executions were asked for): shown by `store info`, never compared —
    /// `parameters` are what a run must match.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub about: BTreeMap<String, String>,
    /// How the kinds are used together: `store info` reports what is left
    /// in these units ("executions of builtin:add32") instead of records.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<UnitSpec>,
}

/// A unit of use: one execution takes `per` records of each listed kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitSpec {
    /// What one unit is, in a user's words (e.g. "execution of builtin:add32").
    pub name: String,
    /// Records of each kind one unit takes.
    pub kinds: Vec<(String, u64)>,
}

impl Manifest {
    /// Parsed session id.
    pub fn session(&self) -> Result<SessionId> {
        SessionId::from_hex(&self.session_id)
    }

    /// Atomically replaces the manifest file.
    pub fn save(&self, dir: &Path, key: &StoreKey) -> Result<()> {
        let body = serde_json::to_vec_pretty(self)
            .map_err(|e| Error::Storage(format!("cannot encode manifest: {e}")))?;
        let sealed = seal(key, &self.session()?, "manifest", &body);
        crate::fsutil::write_atomic(&dir.join(MANIFEST_FILE), &sealed)
    }

    /// Reads and authenticates the manifest. The session id is read from the
    /// body first only to pick the MAC input; the MAC then covers it.
    pub fn load(dir: &Path, key: &StoreKey) -> Result<Manifest> {
        let (bytes, what) = read_manifest_bytes(dir)?;
        let unverified = parse(&bytes, &what)?;
        let session = unverified.session()?;
        let body = open_sealed(key, &session, "manifest", &bytes, &what)?;
        let m: Manifest = serde_json::from_slice(body)
            .map_err(|e| Error::Storage(format!("{what} does not parse: {e}")))?;
        m.check(&what)?;
        Ok(m)
    }

    /// Reads the manifest without a key: for finding the key and for reports.
    pub fn load_unverified(dir: &Path) -> Result<Manifest> {
        let (bytes, what) = read_manifest_bytes(dir)?;
        parse_checked(&bytes, &what)
    }

    fn check(&self, what: &str) -> Result<()> {
        if self.format_version != FORMAT_VERSION {
            return Err(Error::Storage(format!(
                "{what} has format version {}, this build reads version {FORMAT_VERSION}",
                self.format_version
            )));
        }
        self.session()?;
        for (i, k) in self.kinds.iter().enumerate() {
            k.spec.validate()?;
            if self.kinds[..i].iter().any(|o| o.spec.name == k.spec.name) {
                return Err(Error::Storage(format!(
                    "{what} lists kind `{}` twice",
                    k.spec.name
                )));
            }
        }
        if self.chunk_size == 0 || self.chunk_size > crate::MAX_CHUNK_PAYLOAD as u64 {
            return Err(Error::Storage(format!(
                "{what} has chunk size {} out of range",
                self.chunk_size
            )));
        }
        Ok(())
    }
}

fn read_manifest_bytes(dir: &Path) -> Result<(Vec<u8>, String)> {
    let path = dir.join(MANIFEST_FILE);
    let what = format!("manifest {}", path.display());
    let bytes = std::fs::read(&path).map_err(|e| {
        Error::Storage(format!(
            "cannot read {what}: {e} (is {} a store?)",
            dir.display()
        ))
    })?;
    Ok((bytes, what))
}

/// Parses and checks a manifest file without its MAC (reports, and the
/// fuzz target of the store's file decoders).
pub(crate) fn parse_checked(bytes: &[u8], what: &str) -> Result<Manifest> {
    let m = parse(bytes, what)?;
    m.check(what)?;
    Ok(m)
}

fn parse(bytes: &[u8], what: &str) -> Result<Manifest> {
    let (body, _) = split_sealed(bytes, what)?;
    serde_json::from_slice(body).map_err(|e| Error::Storage(format!("{what} does not parse: {e}")))
}
