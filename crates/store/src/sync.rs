//! Agreement with the peer: the session id at preprocessing time, and the
//! next index before every online execution.
//!
//! Record `i` of a kind in Alice's store and record `i` in Bob's are two
//! halves of one piece of material, so both parties must use the same
//! indices, and neither may use an index either of them has reserved before.
//! The handshake exchanges per-kind (produced, next) and both sides then take
//!
//! * `next  := max(next_A, next_B)` — skipping (burning) what only the other
//!   side reserved, e.g. because it crashed after reserving;
//! * `produced := min(produced_A, produced_B)` — a side that durably wrote
//!   chunks the other lost in a crash cuts them off and counts them as
//!   `dropped`, so nothing disappears silently and later appends stay aligned.

use crate::store::Store;
use crate::types::{Role, SessionId};
use crate::FORMAT_VERSION;
use brickyard_core::{Channel, Error, Result};
use serde::{Deserialize, Serialize};

const SYNC_MAGIC: [u8; 8] = *b"BYSYNC01";
const SESSION_MAGIC: [u8; 8] = *b"BYSESS01";

/// Agrees on a session id from both parties' 16-byte random contributions:
/// `BLAKE3("brickyard-store session id" ‖ alice ‖ bob)[..16]`. Each party
/// gets an id it knows is fresh as long as its own contribution is random.
pub fn agree_session_id(ch: &mut Channel, role: Role, contribution: [u8; 16]) -> Result<SessionId> {
    ch.send_msg(&(SESSION_MAGIC, role, contribution))?;
    let (magic, peer_role, peer): ([u8; 8], Role, [u8; 16]) = ch.recv_msg()?;
    if magic != SESSION_MAGIC {
        return Err(Error::malformed(
            "peer did not send a session-id contribution",
        ));
    }
    if peer_role != role.peer() {
        return Err(Error::config(format!(
            "both parties claim to be {role}; one must be alice and the other bob"
        )));
    }
    let (a, b) = match role {
        Role::Alice => (contribution, peer),
        Role::Bob => (peer, contribution),
    };
    let mut h = blake3::Hasher::new_derive_key("brickyard-store session id");
    h.update(&a);
    h.update(&b);
    let mut id = [0u8; 16];
    id.copy_from_slice(&h.finalize().as_bytes()[..16]);
    Ok(SessionId(id))
}

#[derive(Serialize, Deserialize)]
struct KindCounts {
    name: String,
    produced: u64,
    next: u64,
}

#[derive(Serialize, Deserialize)]
struct Hello {
    magic: [u8; 8],
    format_version: u32,
    session: [u8; 16],
    role: Role,
    protocol: String,
    parameters: Vec<(String, String)>,
    kinds: Vec<KindCounts>,
}

/// Outcome of the handshake for one kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KindSync {
    /// Material kind.
    pub kind: String,
    /// Both parties' next index from now on.
    pub next_index: u64,
    /// Records both parties hold that may still be reserved.
    pub available: u64,
    /// Indices this party skipped because the peer had reserved them.
    pub skipped: u64,
    /// Records this party cut off because the peer does not have them.
    pub dropped: u64,
}

/// Outcome of [`Store::sync_next_index`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SyncReport {
    /// One entry per kind, in the order asked for.
    pub kinds: Vec<KindSync>,
}

impl Store {
    /// The next-index handshake; call it at the start of every online
    /// execution (and before resuming preprocessing) with the kinds it will
    /// use, in the same order on both sides. Refuses a peer store of another
    /// session, protocol, parameters or format, or of the same role.
    pub fn sync_next_index(&mut self, ch: &mut Channel, kinds: &[&str]) -> Result<SyncReport> {
        self.commit()?;
        let mut idx = Vec::with_capacity(kinds.len());
        for k in kinds {
            idx.push(self.kind_index(k)?);
        }
        let mine = Hello {
            magic: SYNC_MAGIC,
            format_version: FORMAT_VERSION,
            session: self.session.0,
            role: self.manifest.role,
            protocol: self.manifest.protocol.clone(),
            parameters: self.manifest.parameters.clone().into_iter().collect(),
            kinds: idx
                .iter()
                .map(|&i| KindCounts {
                    name: self.entry(i).spec.name.clone(),
                    produced: self.entry(i).records,
                    next: self.state.kind(&self.entry(i).spec.name).next,
                })
                .collect(),
        };
        ch.send_msg(&mine)?;
        let peer: Hello = ch.recv_msg()?;
        check_peer(&mine, &peer)?;
        let mut st = self.state.clone();
        let mut report = SyncReport { kinds: Vec::new() };
        for ((&i, m), p) in idx.iter().zip(&mine.kinds).zip(&peer.kinds) {
            let t = m.produced.min(p.produced);
            let dropped = self.truncate_kind(i, t)?;
            let next = m.next.max(p.next);
            st.kinds.entry(m.name.clone()).or_default().next = next;
            report.kinds.push(KindSync {
                kind: m.name.clone(),
                next_index: next,
                available: t.saturating_sub(next),
                skipped: next - m.next,
                dropped,
            });
        }
        if st != self.state {
            st.save(&self.state_paths, &self.key, &self.session)?;
            self.state = st;
        }
        Ok(report)
    }
}

fn check_peer(mine: &Hello, peer: &Hello) -> Result<()> {
    if peer.magic != SYNC_MAGIC {
        return Err(Error::malformed("peer did not send a store handshake"));
    }
    if peer.format_version != mine.format_version {
        return Err(Error::config(format!(
            "peer store has format version {}, ours {}",
            peer.format_version, mine.format_version
        )));
    }
    if peer.session != mine.session {
        return Err(Error::config(format!(
            "peer store belongs to session {}, ours to {}: refusing to pair stores of different sessions",
            SessionId(peer.session),
            SessionId(mine.session)
        )));
    }
    if peer.role != mine.role.peer() {
        return Err(Error::config(format!(
            "peer store is also {}'s; one store must be alice's and the other bob's",
            mine.role
        )));
    }
    if peer.protocol != mine.protocol || peer.parameters != mine.parameters {
        return Err(Error::config(format!(
            "peer store is for {} {:?}, ours for {} {:?}",
            peer.protocol, peer.parameters, mine.protocol, mine.parameters
        )));
    }
    let names = |h: &Hello| h.kinds.iter().map(|k| k.name.clone()).collect::<Vec<_>>();
    if names(peer) != names(mine) {
        return Err(Error::config(format!(
            "peer synchronises kinds {:?}, we {:?}",
            names(peer),
            names(mine)
        )));
    }
    Ok(())
}
