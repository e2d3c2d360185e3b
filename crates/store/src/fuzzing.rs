//! Entry points for fuzzing the store's decoders of peer messages and of
//! file contents (feature `fuzzing`; `fuzz/fuzz_targets/store_*.rs`).
//!
//! Each function takes arbitrary bytes and must return (`Ok` or a typed
//! error), never panic or allocate without bound. They call the same
//! functions the store uses, on bytes that did not pass a MAC: the peer's
//! handshake messages are never authenticated, and `store info` and the
//! MAC check itself parse manifest and state bodies before (or without)
//! verifying them.

use crate::chunk::{split_blobs, Header, HEADER_LEN};
use crate::mac::split_sealed;
use crate::manifest;
use crate::state::parse_state;
use crate::sync::{self, GroupCounts, GroupSync, Hello, KindCounts};
use crate::types::{RecordSize, Role};
use crate::FORMAT_VERSION;
use brickyard_core::channel::scripted;
use brickyard_core::{Error, Result};

/// The session-id exchange against a peer whose bytes are `data`.
pub fn session_id(data: &[u8]) -> Result<()> {
    sync::agree_session_id(&mut scripted(data), Role::Alice, [7; 16]).map(drop)
}

/// Our side of a handshake: TinyTable-like groups (an execution record
/// with four tables per unit, two runs used) and a one-record kind.
fn our_hello(resync: bool) -> Hello {
    let kind = |name: &str, per_unit, produced, next| KindCounts {
        name: name.into(),
        per_unit,
        produced,
        next,
    };
    Hello {
        magic: sync::SYNC_MAGIC,
        format_version: FORMAT_VERSION,
        session: [9; 16],
        role: Role::Alice,
        protocol: "p".into(),
        parameters: vec![("k".into(), "1".into())],
        resync,
        groups: vec![
            GroupCounts {
                kinds: vec![kind("e", 1, 10, 2), kind("t", 4, 40, 8)],
                want: 1,
            },
            GroupCounts {
                kinds: vec![kind("o", 1, 100, 5)],
                want: 0,
            },
        ],
    }
}

/// The next-index handshake's decoding and checks of the peer's `Hello`
/// (bit 0 of the first byte: whether we allow a resync; the rest is the
/// peer's byte stream). Returns what the handshake would agree on.
pub fn handshake(data: &[u8]) -> Result<Vec<GroupSync>> {
    let Some((&sel, rest)) = data.split_first() else {
        return Err(Error::malformed("empty"));
    };
    let mine = our_hello(sel & 1 == 1);
    let peer: Hello = scripted(rest).recv_msg()?;
    let out = sync::agree_all(&mine, &peer, |_| Some("execution".into()))?;
    for (g, m) in out.iter().zip(&mine.groups) {
        // What the store would write: never behind our own state, never
        // more than we hold.
        for (k, ours) in g.kinds.iter().zip(&m.kinds) {
            assert!(k.next_index >= ours.next, "handshake moved backwards");
            assert!(k.dropped <= ours.produced, "dropped more than held");
            assert_eq!(k.next_index % ours.per_unit, 0, "off a unit boundary");
        }
    }
    Ok(out)
}

/// A manifest file as `store info` reads it: split off the MAC trailer,
/// parse the JSON body, check its fields.
pub fn manifest(data: &[u8]) -> Result<()> {
    manifest::parse_checked(data, "fuzzed manifest").map(drop)
}

/// A reservation-state body (after its MAC).
pub fn state(data: &[u8]) -> Result<()> {
    let (body, _) = split_sealed(data, "fuzzed state")?;
    parse_state(body, "fuzzed state").map(drop)
}

/// A chunk of a data file: the 64-byte header, its structural checks
/// against a kind (first byte: fixed record size, 0 = variable-size blobs),
/// and the blob lengths of a variable-size payload.
pub fn chunk(data: &[u8]) -> Result<()> {
    let Some((&sel, rest)) = data.split_first() else {
        return Err(Error::malformed("empty"));
    };
    if rest.len() < HEADER_LEN {
        return Err(Error::malformed("short"));
    }
    let (hb, payload) = rest.split_at(HEADER_LEN);
    let hb: &[u8; HEADER_LEN] = hb.try_into().map_err(|_| Error::malformed("short"))?;
    let h = Header::decode(hb).ok_or_else(|| Error::malformed("magic"))?;
    let size = match sel {
        0 => RecordSize::Variable,
        n => RecordSize::Fixed(n as u32),
    };
    h.check(0, 0, size, 1 << 16).map_err(Error::Storage)?;
    if h.payload_len as usize != payload.len() {
        return Err(Error::malformed("length"));
    }
    if size == RecordSize::Variable {
        let blobs =
            split_blobs(payload, h.record_count).ok_or_else(|| Error::malformed("blobs"))?;
        assert_eq!(blobs.len(), h.record_count as usize);
    }
    Ok(())
}

/// The header of a store archive (`brickyard store import`); what follows
/// it is authenticated encryption.
pub fn archive_header(data: &[u8]) -> Result<()> {
    crate::transfer::read_archive_header(&mut &data[..]).map(drop)
}
