//! Small value types shared by the store's files, API and handshake.

use brickyard_core::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Which side of the two-party session a store belongs to. Recorded in the
/// manifest and checked at the handshake, because two stores of the same role
/// hold material that does not correlate and must never be paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The garbler / constructor / P1.
    Alice,
    /// The evaluator / P2.
    Bob,
}

impl Role {
    /// Lower-case name, as written in the manifest and in key file names.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Alice => "alice",
            Role::Bob => "bob",
        }
    }

    /// The other party's role.
    pub fn peer(self) -> Role {
        match self {
            Role::Alice => Role::Bob,
            Role::Bob => Role::Alice,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The 128-bit identifier both parties agreed on during preprocessing. It is
/// mixed into every MAC so that a chunk spliced in from another session's store
/// fails verification even if it was written by the same party.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SessionId(pub [u8; 16]);

impl SessionId {
    /// Lower-case hex, as used in the manifest and key file names.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Parses 32 hex digits; anything else is [`Error::Malformed`] because
    /// the text comes from a file an attacker may have edited.
    pub fn from_hex(s: &str) -> Result<SessionId> {
        let bytes = s.as_bytes();
        if bytes.len() != 32 {
            return Err(Error::malformed(format!(
                "session id `{s}` is not 32 hex digits"
            )));
        }
        let mut out = [0u8; 16];
        for (i, pair) in bytes.chunks_exact(2).enumerate() {
            let hi = hex_val(pair[0]);
            let lo = hex_val(pair[1]);
            match (hi, lo) {
                (Some(h), Some(l)) => out[i] = (h << 4) | l,
                _ => {
                    return Err(Error::malformed(format!(
                        "session id `{s}` is not 32 hex digits"
                    )))
                }
            }
        }
        Ok(SessionId(out))
    }
}

fn hex_val(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

impl fmt::Debug for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SessionId({})", self.to_hex())
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// How big one record of a kind is. Fixed-size kinds (OTs, garbled gates)
/// are addressed by arithmetic; variable-size kinds (a whole serialised
/// garbled circuit) are length-prefixed inside their chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RecordSize {
    /// Every record is exactly this many bytes (at least 1).
    Fixed(u32),
    /// Each record is an opaque blob of up to [`crate::MAX_BLOB_LEN`] bytes.
    Variable,
}

/// A material kind: a name that doubles as a file name, and its record size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindSpec {
    /// `[a-z0-9_-]{1,64}`, so it is safe as a file name on every platform.
    pub name: String,
    /// Size of one record.
    pub size: RecordSize,
}

impl KindSpec {
    /// A fixed-size kind of `bytes` per record.
    pub fn fixed(name: &str, bytes: u32) -> Self {
        KindSpec {
            name: name.to_string(),
            size: RecordSize::Fixed(bytes),
        }
    }

    /// A variable-size (blob) kind.
    pub fn variable(name: &str) -> Self {
        KindSpec {
            name: name.to_string(),
            size: RecordSize::Variable,
        }
    }

    /// Rejects names that could escape the store directory or collide with
    /// the store's own files, and zero or oversized record sizes.
    pub fn validate(&self) -> Result<()> {
        let ok_name = !self.name.is_empty()
            && self.name.len() <= 64
            && self
                .name
                .bytes()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_' || c == b'-');
        if !ok_name {
            return Err(Error::config(format!(
                "material kind name `{}` must match [a-z0-9_-]{{1,64}}",
                self.name
            )));
        }
        if let RecordSize::Fixed(n) = self.size {
            if n == 0 || n as usize > crate::MAX_BLOB_LEN {
                return Err(Error::config(format!(
                    "record size {n} of kind `{}` out of range 1..={}",
                    self.name,
                    crate::MAX_BLOB_LEN
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_hex_round_trip_and_garbage() {
        let id = SessionId([0xab; 16]);
        assert_eq!(SessionId::from_hex(&id.to_hex()).unwrap(), id);
        assert!(SessionId::from_hex("xyz").is_err());
        assert!(SessionId::from_hex(&"g".repeat(32)).is_err());
    }

    #[test]
    fn kind_names_are_checked() {
        assert!(KindSpec::fixed("and_gate", 32).validate().is_ok());
        assert!(KindSpec::fixed("../x", 32).validate().is_err());
        assert!(KindSpec::fixed("A", 32).validate().is_err());
        assert!(KindSpec::fixed("ot", 0).validate().is_err());
        assert!(KindSpec::variable("").validate().is_err());
    }
}
