//! BLAKE3 keyed MACs over chunks and metadata files.
//!
//! A chunk's MAC binds everything that gives its bytes a meaning — session,
//! kind, chunk index and record range — so a chunk that is moved, reordered,
//! re-labelled or copied from another store fails verification, not just one
//! whose payload bits flipped.

use crate::key::StoreKey;
use crate::types::SessionId;
use brickyard_core::{Error, Result};

/// What a chunk MAC covers besides the payload.
pub struct ChunkContext<'a> {
    /// The store's session.
    pub session: &'a SessionId,
    /// The material kind's name.
    pub kind: &'a str,
    /// Position of the chunk in its file (0, 1, 2, …).
    pub chunk_index: u64,
    /// Index of the chunk's first record.
    pub first_record: u64,
    /// Number of records in the chunk.
    pub record_count: u32,
}

/// MAC of one chunk.
pub fn chunk_mac(key: &StoreKey, ctx: &ChunkContext<'_>, payload: &[u8]) -> blake3::Hash {
    let mut h = blake3::Hasher::new_keyed(&key.chunk);
    h.update(ctx.session.0.as_slice());
    h.update(&(ctx.kind.len() as u32).to_le_bytes());
    h.update(ctx.kind.as_bytes());
    h.update(&ctx.chunk_index.to_le_bytes());
    h.update(&ctx.first_record.to_le_bytes());
    h.update(&ctx.record_count.to_le_bytes());
    h.update(&(payload.len() as u64).to_le_bytes());
    h.update(payload);
    h.finalize()
}

const TRAILER: &[u8] = b"\nmac:";

fn meta_mac(key: &StoreKey, session: &SessionId, file_kind: &str, body: &[u8]) -> blake3::Hash {
    let mut h = blake3::Hasher::new_keyed(&key.meta);
    h.update(session.0.as_slice());
    h.update(&(file_kind.len() as u32).to_le_bytes());
    h.update(file_kind.as_bytes());
    h.update(body);
    h.finalize()
}

/// Appends `\nmac:<64 hex>\n` to a metadata body. `file_kind` ("manifest",
/// "state") keeps one file from being swapped in for the other.
pub fn seal(key: &StoreKey, session: &SessionId, file_kind: &str, body: &[u8]) -> Vec<u8> {
    let mac = meta_mac(key, session, file_kind, body);
    let mut out = Vec::with_capacity(body.len() + TRAILER.len() + 65);
    out.extend_from_slice(body);
    out.extend_from_slice(TRAILER);
    out.extend_from_slice(mac.to_hex().as_bytes());
    out.push(b'\n');
    out
}

/// Splits a sealed file into body and hex MAC without checking the MAC
/// (for the unauthenticated `info` report).
pub fn split_sealed<'a>(bytes: &'a [u8], what: &str) -> Result<(&'a [u8], &'a [u8])> {
    let pos = bytes
        .windows(TRAILER.len())
        .rposition(|w| w == TRAILER)
        .ok_or_else(|| Error::Storage(format!("{what} has no MAC trailer")))?;
    let body = &bytes[..pos];
    let mut mac = &bytes[pos + TRAILER.len()..];
    if mac.last() == Some(&b'\n') {
        mac = &mac[..mac.len() - 1];
    }
    Ok((body, mac))
}

/// Checks a sealed file and returns its body.
pub fn open_sealed<'a>(
    key: &StoreKey,
    session: &SessionId,
    file_kind: &str,
    bytes: &'a [u8],
    what: &str,
) -> Result<&'a [u8]> {
    let (body, mac_hex) = split_sealed(bytes, what)?;
    let expected = meta_mac(key, session, file_kind, body);
    let given = std::str::from_utf8(mac_hex)
        .ok()
        .and_then(|s| blake3::Hash::from_hex(s).ok());
    match given {
        // blake3::Hash equality is constant-time.
        Some(g) if g == expected => Ok(body),
        _ => Err(Error::Storage(format!(
            "{what} failed MAC verification: tampered, corrupted, or made with another key/session"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::create_key;

    #[test]
    fn sealed_files_detect_edits_and_swaps() {
        let d = tempfile::tempdir().unwrap();
        let key = create_key(&d.path().join("k")).unwrap();
        let s = SessionId([1; 16]);
        let sealed = seal(&key, &s, "manifest", b"{\"a\":1}");
        assert_eq!(
            open_sealed(&key, &s, "manifest", &sealed, "m").unwrap(),
            b"{\"a\":1}"
        );
        assert!(open_sealed(&key, &s, "state", &sealed, "m").is_err());
        assert!(open_sealed(&key, &SessionId([2; 16]), "manifest", &sealed, "m").is_err());
        let mut bad = sealed.clone();
        bad[3] ^= 1;
        assert!(open_sealed(&key, &s, "manifest", &bad, "m").is_err());
        assert!(open_sealed(&key, &s, "manifest", b"garbage", "m").is_err());
    }

    #[test]
    fn chunk_mac_binds_context() {
        let d = tempfile::tempdir().unwrap();
        let key = create_key(&d.path().join("k")).unwrap();
        let s = SessionId([1; 16]);
        let ctx = |i, f| ChunkContext {
            session: &s,
            kind: "ot",
            chunk_index: i,
            first_record: f,
            record_count: 4,
        };
        let m = chunk_mac(&key, &ctx(0, 0), b"payload");
        assert_ne!(m, chunk_mac(&key, &ctx(1, 0), b"payload"));
        assert_ne!(m, chunk_mac(&key, &ctx(0, 4), b"payload"));
        assert_ne!(m, chunk_mac(&key, &ctx(0, 0), b"paylaod"));
    }
}
