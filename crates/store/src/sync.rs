//! Agreement with the peer: the session id at preprocessing time, and the
//! next index before every online execution.
//!
//! Record `i` of a kind in Alice's store and record `i` in Bob's are two
//! halves of one piece of material, so both parties must use the same
//! indices, and neither may use an index either of them has reserved before.
//! Kinds that are used together (TinyTable's execution record `j` with its
//! tables `j·T..(j+1)·T`) form a *group* that advances as one unit: the
//! group's next index is one number `u`, and each kind's next index must be
//! `u · per_unit`.
//!
//! The handshake exchanges, per group and kind, (per-unit count, produced,
//! next) and the number of units this run will take. The peer's claims are
//! checked against our own durable state, never adopted silently:
//!
//! * a claim no honest store can make — a kind's next not on a unit
//!   boundary, kinds of a group at different units — is
//!   `Cheating { check: "store-sync" }`;
//! * a different `produced` (preprocessing that did not finish on both
//!   sides) or a different next unit (a run that stopped on one side after
//!   reserving) is a `Config` error naming both numbers. The second may be
//!   resolved by an operator who knows a run stopped: both sides allow a
//!   resync ([`Store::allow_resync`]) and both move forward to the larger
//!   index, burning what only the other side reserved — never backwards —
//!   and cut records only one side holds (reported as `dropped`);
//! * a run that wants more units than both hold is `Exhausted` ("have N,
//!   asked M") before anything is reserved.
//!
//! Nothing is written unless every check passes, so a refused handshake
//! leaves the store exactly as it was. Without the operator's resync
//! nothing is ever skipped or cut on the peer's word.

use crate::state::KindState;
use crate::store::Store;
use crate::types::{Role, SessionId};
use crate::FORMAT_VERSION;
use brickyard_core::{Channel, Error, Result};
use serde::{Deserialize, Serialize};

pub(crate) const SYNC_MAGIC: [u8; 8] = *b"BYSYNC01";
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

#[derive(Serialize, Deserialize, Clone, PartialEq, Eq)]
pub(crate) struct KindCounts {
    pub(crate) name: String,
    pub(crate) per_unit: u64,
    pub(crate) produced: u64,
    pub(crate) next: u64,
}

#[derive(Serialize, Deserialize, Clone, PartialEq, Eq)]
pub(crate) struct GroupCounts {
    pub(crate) kinds: Vec<KindCounts>,
    pub(crate) want: u64,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct Hello {
    pub(crate) magic: [u8; 8],
    pub(crate) format_version: u32,
    pub(crate) session: [u8; 16],
    pub(crate) role: Role,
    pub(crate) protocol: String,
    pub(crate) parameters: Vec<(String, String)>,
    pub(crate) resync: bool,
    pub(crate) groups: Vec<GroupCounts>,
}

/// Kinds that are used together, as one unit: one unit takes `per_unit`
/// records of each kind, and the run about to start takes `want` units.
#[derive(Clone, Debug)]
pub struct SyncGroup<'a> {
    /// `(kind, records per unit)`.
    pub kinds: Vec<(&'a str, u64)>,
    /// Units the coming run takes (0: only agree, check nothing more).
    pub want: u64,
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
    /// Indices this party skipped in an allowed resync.
    pub skipped: u64,
    /// Records this party cut off in an allowed resync because the peer's
    /// preprocessing stopped before making them.
    pub dropped: u64,
}

/// Outcome of the handshake for one group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GroupSync {
    /// Both parties' next unit.
    pub next_unit: u64,
    /// Whole units both parties hold that may still be reserved.
    pub available_units: u64,
    /// Units this party skipped in an allowed resync.
    pub skipped_units: u64,
    /// Per kind, in the order given.
    pub kinds: Vec<KindSync>,
}

/// Outcome of [`Store::sync_next_index`] and [`Store::sync_groups`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SyncReport {
    /// One entry per kind, in the order asked for (all groups).
    pub kinds: Vec<KindSync>,
    /// One entry per group.
    pub groups: Vec<GroupSync>,
}

/// A lie told at the handshake (adversary builds only): the store sends
/// these counts instead of its own, for tests of the honest side's checks.
#[cfg(feature = "adversary")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncLie {
    /// Adds `by` to the next index of the `kind`-th kind sent (in order,
    /// over all groups): shifts one kind against the others.
    ShiftNext {
        /// Position of the kind in the handshake.
        kind: usize,
        /// Amount added (wrapping).
        by: i64,
    },
    /// Adds `by` units' worth to the next index of every kind of every
    /// group: a clean skip, as a run that stopped on one side leaves.
    ShiftAll {
        /// Units added (wrapping).
        by: i64,
    },
    /// Adds `by` to the produced count of the `kind`-th kind sent
    /// (negative: truncates, positive: inflates).
    ShiftProduced {
        /// Position of the kind in the handshake.
        kind: usize,
        /// Amount added (wrapping).
        by: i64,
    },
    /// Claims a next index beyond what the kind holds.
    NextPastEnd {
        /// Position of the kind in the handshake.
        kind: usize,
    },
}

#[cfg(feature = "adversary")]
fn apply_lie(h: &mut Hello, lie: SyncLie) {
    let add = |x: u64, by: i64| x.wrapping_add(by as u64);
    let mut i = 0;
    for g in h.groups.iter_mut() {
        for k in g.kinds.iter_mut() {
            match lie {
                SyncLie::ShiftNext { kind, by } if kind == i => k.next = add(k.next, by),
                SyncLie::ShiftAll { by } => k.next = add(k.next, by * k.per_unit as i64),
                SyncLie::ShiftProduced { kind, by } if kind == i => {
                    k.produced = add(k.produced, by)
                }
                SyncLie::NextPastEnd { kind } if kind == i => k.next = k.produced + k.per_unit,
                _ => {}
            }
            i += 1;
        }
    }
}

/// The name of the check a peer fails by claiming a store state no honest
/// store can be in.
pub const SYNC_CHECK: &str = "store-sync";

impl Store {
    /// The next-index handshake with every kind its own group of one record
    /// per unit (items that are never used together, like LEGO's buckets or
    /// yao's OTs); see [`Store::sync_groups`].
    pub fn sync_next_index(&mut self, ch: &mut Channel, kinds: &[&str]) -> Result<SyncReport> {
        let groups: Vec<SyncGroup> = kinds
            .iter()
            .map(|k| SyncGroup {
                kinds: vec![(*k, 1)],
                want: 0,
            })
            .collect();
        self.sync_groups(ch, &groups)
    }

    /// The handshake for one group of kinds used together; `want` units
    /// must be available on both sides.
    pub fn sync_units(
        &mut self,
        ch: &mut Channel,
        kinds: &[(&str, u64)],
        want: u64,
    ) -> Result<GroupSync> {
        let mut r = self.sync_groups(
            ch,
            &[SyncGroup {
                kinds: kinds.to_vec(),
                want,
            }],
        )?;
        r.groups
            .pop()
            .ok_or_else(|| Error::Storage("handshake lost its group".into()))
    }

    /// The next-index handshake; call it before the first online execution
    /// of a run (and before adding material) with the groups it will use,
    /// in the same order on both sides. See the module documentation for
    /// what is refused and how; on any error the store is unchanged.
    pub fn sync_groups(&mut self, ch: &mut Channel, groups: &[SyncGroup]) -> Result<SyncReport> {
        self.state.check_open()?;
        self.commit()?;
        let mut mine_groups = Vec::with_capacity(groups.len());
        for g in groups {
            let mut kinds = Vec::with_capacity(g.kinds.len());
            for &(k, per_unit) in &g.kinds {
                let i = self.kind_index(k)?;
                if per_unit == 0 {
                    return Err(Error::config(format!(
                        "kind `{k}` is synchronised with 0 records per unit"
                    )));
                }
                kinds.push(KindCounts {
                    name: k.to_string(),
                    per_unit,
                    produced: self.entry(i).records,
                    next: self.state.kind(k).next,
                });
            }
            mine_groups.push(GroupCounts {
                kinds,
                want: g.want,
            });
        }
        let mine = Hello {
            magic: SYNC_MAGIC,
            format_version: FORMAT_VERSION,
            session: self.session.0,
            role: self.manifest.role,
            protocol: self.manifest.protocol.clone(),
            parameters: self.manifest.parameters.clone().into_iter().collect(),
            resync: self.resync,
            groups: mine_groups,
        };
        #[cfg(feature = "adversary")]
        let mine = {
            let mut lie = Hello {
                groups: mine.groups.clone(),
                ..mine
            };
            if let Some(l) = self.lie {
                apply_lie(&mut lie, l);
            }
            ch.send_msg(&lie)?;
            // The liar goes on with its true counts.
            Hello {
                groups: mine.groups,
                ..lie
            }
        };
        #[cfg(not(feature = "adversary"))]
        ch.send_msg(&mine)?;
        let peer: Hello = ch.recv_msg()?;
        let units = &self.manifest.units;
        let agreed = agree_all(&mine, &peer, |m| {
            units
                .iter()
                .find(|u| {
                    u.kinds.len() == m.kinds.len()
                        && u.kinds
                            .iter()
                            .zip(&m.kinds)
                            .all(|((n, per), k)| *n == k.name && *per == k.per_unit)
                })
                .map(|u| u.name.clone())
        })?;
        let mut st = self.state.clone();
        let mut report = SyncReport {
            kinds: Vec::new(),
            groups: Vec::new(),
        };
        for (m, g) in mine.groups.iter().zip(agreed) {
            for (k, ks) in m.kinds.iter().zip(&g.kinds) {
                let e: &mut KindState = st.kinds.entry(k.name.clone()).or_default();
                e.next = ks.next_index;
            }
            report.kinds.extend(g.kinds.iter().cloned());
            report.groups.push(g);
        }
        // An allowed resync cuts what only we hold (reported as dropped).
        for k in &report.kinds {
            if k.dropped > 0 {
                let i = self.kind_index(&k.kind)?;
                let t = self.entry(i).records - k.dropped;
                self.truncate_kind(i, t)?;
            }
        }
        if st != self.state {
            st.save(&self.state_paths, &self.key, &self.session)?;
            self.state = st;
        }
        Ok(report)
    }
}

/// Checks the peer's handshake against ours and agrees on each group,
/// writing nothing: every group is checked before the caller writes, and
/// the most serious problem wins (a lie, then a mismatch, then too little).
/// `unit` names a group's unit for the `Exhausted` message.
pub(crate) fn agree_all(
    mine: &Hello,
    peer: &Hello,
    unit: impl Fn(&GroupCounts) -> Option<String>,
) -> Result<Vec<GroupSync>> {
    check_peer(mine, peer)?;
    let mut agreed = Vec::with_capacity(mine.groups.len());
    let mut problems: Vec<Error> = Vec::new();
    for (m, p) in mine.groups.iter().zip(&peer.groups) {
        match agree_group(m, p, mine.resync && peer.resync, unit(m).as_deref()) {
            Ok(g) => agreed.push(g),
            Err(e) => problems.push(e),
        }
    }
    let rank = |e: &Error| match e {
        Error::Cheating { .. } => 0,
        Error::Storage(_) => 1,
        Error::Config(_) => 2,
        _ => 3,
    };
    match problems.into_iter().min_by_key(rank) {
        Some(e) => Err(e),
        None => Ok(agreed),
    }
}

/// The unit a store's counts of a group stand at, if they are consistent:
/// every kind's next on a unit boundary and all at the same unit.
fn unit_of(g: &GroupCounts) -> Option<u64> {
    let mut unit = None;
    for k in &g.kinds {
        // (`next` may exceed `produced` after a resync cut records.)
        if k.next % k.per_unit != 0 {
            return None;
        }
        let u = k.next / k.per_unit;
        if *unit.get_or_insert(u) != u {
            return None;
        }
    }
    Some(unit.unwrap_or(0))
}

fn agree_group(
    m: &GroupCounts,
    p: &GroupCounts,
    resync: bool,
    unit: Option<&str>,
) -> Result<GroupSync> {
    let names = |g: &GroupCounts| {
        g.kinds
            .iter()
            .map(|k| format!("{}×{}", k.name, k.per_unit))
            .collect::<Vec<_>>()
    };
    if names(m) != names(p) || m.want != p.want {
        return Err(Error::config(format!(
            "the peer synchronises {:?} for {} unit(s), we {:?} for {}",
            names(p),
            p.want,
            names(m),
            m.want
        )));
    }
    let Some(ours) = unit_of(m) else {
        return Err(Error::Storage(format!(
            "our reservation state of {:?} is not on one unit boundary; the store is damaged",
            names(m)
        )));
    };
    let Some(theirs) = unit_of(p) else {
        return Err(Error::Cheating { check: SYNC_CHECK });
    };
    for (a, b) in m.kinds.iter().zip(&p.kinds) {
        if a.produced != b.produced && !resync {
            return Err(Error::config(format!(
                "kind `{}`: our store holds {} records, the peer's {}: the preprocessing run did \
                 not finish on both sides, so the stores do not hold the same material; make new stores",
                a.name, a.produced, b.produced
            )));
        }
    }
    let next = if ours == theirs {
        ours
    } else if resync {
        ours.max(theirs)
    } else {
        return Err(Error::config(format!(
            "the stores disagree on the next unit of {:?}: ours is {ours}, the peer's {theirs}. \
             Either a run stopped on one side after reserving, or the peer is cheating. If a run \
             stopped, run both parties again with --resync (both move forward to {}, burning the \
             material in between; nothing is ever used twice)",
            names(m),
            ours.max(theirs)
        )));
    };
    let held = |i: usize| m.kinds[i].produced.min(p.kinds[i].produced);
    let units = (0..m.kinds.len())
        .map(|i| held(i) / m.kinds[i].per_unit)
        .min()
        .unwrap_or(0);
    let available = units.saturating_sub(next);
    if m.want > available {
        let what = match unit {
            Some(u) => format!("{u}(s)"),
            None => format!("records of {:?}", names(m)),
        };
        return Err(Error::Exhausted(format!(
            "not enough material: the stores have {available} {what} left, this run asks for {}; \
             nothing was reserved",
            m.want
        )));
    }
    Ok(GroupSync {
        next_unit: next,
        available_units: available,
        skipped_units: next - ours,
        kinds: m
            .kinds
            .iter()
            .enumerate()
            .map(|(i, k)| KindSync {
                kind: k.name.clone(),
                next_index: next * k.per_unit,
                available: held(i).saturating_sub(next * k.per_unit),
                skipped: (next - ours) * k.per_unit,
                dropped: k.produced - held(i),
            })
            .collect(),
    })
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
    if peer.groups.len() != mine.groups.len() {
        return Err(Error::config(format!(
            "the peer synchronises {} group(s) of kinds, we {}",
            peer.groups.len(),
            mine.groups.len()
        )));
    }
    Ok(())
}
