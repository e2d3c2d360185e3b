//! JIMU's preprocessing kept in a store between processes: Setup, Generate
//! (with Step 1's pools), Check and the random OTs of Bob's input shares
//! are function-independent (NST17's order, `docs/protocols/jimu.md`), so
//! `brickyard preprocess --protocol jimu` runs them once for Q AND buckets
//! and pools of wires and input shares, and every later `brickyard run
//! --store` builds its circuit (Step 1's wire assignment, Step 3(a)'s
//! solderings) from unused records and evaluates it.
//!
//! The store (`brickyard_store`: MACs, 0600 files, durable single-use
//! reservations, the next-index handshake) holds three fixed-size kinds,
//! record `i` at Alice and record `i` at Bob being two halves of one item:
//!
//! | kind | one record | Alice | Bob |
//! |---|---|---|---|
//! | `jimu-bucket` | one AND bucket (B checked-out gates) | per gate: number i, m_{i,l}, m_{i,r}, w^{p_o}_{i,o}, ρ^{i,l}, ρ^{i,r}, ρ^{i,o} | per gate: i, their i-hashes, ⟨ρ⟩s, [T_G, T_E] |
//! | `jimu-wire` | a pool wire (Alice input or AND output) | m, ρ | ⟨m⟩, ⟨ρ⟩, ρ's position in the ρ batch |
//! | `jimu-share` | a share of one of Bob's input bits | m, (r_0, r_1) | ⟨m⟩, c, r_c |
//!
//! and the sealed secret `jimu-setup`: Alice's Δ (and ℓ_p); Bob's i-hash
//! parameters, watch sets W_w and W_p, ⟨Δ⟩, D_i and A' (the state his
//! verifiers and the Δ-recovery need), and both the counts (Q, B, T, the ρ
//! batch). Nothing in it depends on a circuit: one run of `e` executions
//! of f takes `e·N` buckets, `e·(n_A + N)` wires and `e·n_B·s` shares,
//! whatever it took before.
//!
//! Batches: every preprocessing run into a store adds one [`Batch`] — a
//! whole Setup, Generate, Check and share OTs with its own Δ, watch sets
//! and i-hash keys, its own three kinds (`jimu-bucket-n`, … for n ≥ 1)
//! and its own Setup secret, listed in `jimu-batches` once durable. A
//! batch's material is bound to the store's session, to (k, s) and,
//! through its kind names, to the one Setup that made it; B and T are
//! computed from that batch's Q (Sec. 6.3), so any subset of its buckets
//! keeps the 2^-s bound. A later batch does not reuse the earlier Setup:
//! reusing it would need the i-hash sender's PRG seeds and stream
//! positions and the w watched seeds kept in the store (only verifiers
//! are kept), and a fresh Setup makes each batch exactly the one-batch
//! argument (`docs/protocols/jimu.md`, "Several preprocessings"). Batch
//! numbers are agreed before anything is written ([`agree_batch`]: one
//! above the highest either store has used).
//!
//! Single use: before Build both parties exchange their batch lists, agree
//! on each kind's next index of every batch both hold
//! (`Store::sync_next_index`: a claim no honest store can make is
//! `Cheating { check: "store-sync" }`, a different one `Config`; either
//! leaves the store as it was), pick the oldest batch with enough left for
//! the whole run (`Exhausted` before anything is reserved if none has),
//! then reserve the run's records durably and only then read them.
//! Reserved material is burned whatever happens next (its solderings are
//! about to be sent: reusing a gate for another circuit would open two
//! solderings of its labels); unreserved material is untouched by any
//! abort.

use super::check::Assignment;
use super::eval::{AliceRots, BobRots};
use super::generate::{AliceGates, BobGates, Sizes};
use super::{label_bytes_into, label_from_bytes, JimuOptions};
use crate::CutAndChoose;
use brickyard_circuit::Circuit;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::{Role, RunConfig};
use brickyard_garble::wide::{Compress, Label, WideDelta};
use brickyard_ihash::{Params, Receiver, Rows};
use brickyard_store::{KindSpec, Store};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use zeroize::{Zeroize, Zeroizing};

/// AND buckets.
pub const BUCKETS: &str = "jimu-bucket";
/// Pool wires (Alice's inputs and AND outputs).
pub const WIRES: &str = "jimu-wire";
/// Shares of Bob's input bits with their random OTs.
pub const SHARES: &str = "jimu-share";
/// The three kinds, in the order of [`Need`].
pub const KINDS: [&str; 3] = [BUCKETS, WIRES, SHARES];
/// The sealed Setup secret (of batch 0; batch n's is `jimu-setup-n`).
pub const SETUP_SECRET: &str = "jimu-setup";
/// The sealed list of complete batches (postcard `Vec<u32>`), written
/// after a batch's records and Setup secret are durable. A store made
/// before batches existed has none and one batch, 0, if it holds
/// [`SETUP_SECRET`].
pub const BATCHES_SECRET: &str = "jimu-batches";

/// One preprocessing (Setup, Generate, Check, share OTs) in a store. Each
/// batch has its own Setup (Δ, watch sets, ⟨Δ⟩, D_i, A'), its own kinds
/// and its own secret, so its records are bound to the Setup that made
/// them; a run takes all its material from one batch. Batch 0 keeps the
/// names of [`KINDS`] and [`SETUP_SECRET`]; batch n ≥ 1 appends `-n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Batch(pub u32);

impl Batch {
    fn name(self, base: &str) -> String {
        match self.0 {
            0 => base.to_string(),
            n => format!("{base}-{n}"),
        }
    }
    /// The batch's three kinds, in [`KINDS`] order.
    pub fn kinds(self) -> [String; 3] {
        KINDS.map(|k| self.name(k))
    }
    fn secret(self) -> String {
        self.name(SETUP_SECRET)
    }
    /// The batch a kind name belongs to, if it is one of ours.
    fn of_kind(name: &str) -> Option<Batch> {
        KINDS.iter().find_map(|k| {
            let rest = name.strip_prefix(k)?;
            if rest.is_empty() {
                return Some(Batch(0));
            }
            let n = rest.strip_prefix('-')?;
            if n.starts_with('0') || !n.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            n.parse().ok().filter(|&n| n > 0).map(Batch)
        })
    }
}

/// The complete batches of this store, oldest first.
pub fn batches(store: &Store) -> Result<Vec<Batch>> {
    match store.get_secret(BATCHES_SECRET)? {
        Some(b) => {
            let v: Vec<u32> = postcard::from_bytes(&b).map_err(|e| {
                Error::Storage(format!("jimu: the batch list does not decode: {e}"))
            })?;
            Ok(v.into_iter().map(Batch).collect())
        }
        None if store.get_secret(SETUP_SECRET)?.is_some() => Ok(vec![Batch(0)]),
        None => Ok(Vec::new()),
    }
}

/// The highest batch number this store has used, listed or not (a
/// preprocessing that stopped before listing its batch leaves its kinds).
fn highest_used(store: &Store) -> Result<Option<u32>> {
    let listed = batches(store)?.into_iter().map(|b| b.0).max();
    let kinds = store
        .info()
        .kinds
        .iter()
        .filter_map(|k| Batch::of_kind(&k.name))
        .map(|b| b.0)
        .max();
    Ok(listed.max(kinds))
}

/// Both parties, before a preprocessing writes anything: the new batch's
/// number, one above the highest either store has used (so neither store
/// holds anything under it, and a number never names material of two
/// different preprocessings). Whatever the peer claims, the number is
/// above everything this store used; writing over used kinds is refused
/// (`Config`) all the same, as a re-check.
pub fn agree_batch(store: &Store, ch: &mut Channel) -> Result<Batch> {
    let mine = highest_used(store)?;
    ch.send_msg(&mine)?;
    let theirs: Option<u32> = ch.recv_msg()?;
    let batch = match mine.max(theirs) {
        None => Batch(0),
        Some(n) => Batch(
            n.checked_add(1)
                .ok_or_else(|| Error::config("jimu: no batch number is left in this store"))?,
        ),
    };
    let used = store
        .info()
        .kinds
        .iter()
        .any(|k| Batch::of_kind(&k.name) == Some(batch));
    if used || store.get_secret(&batch.secret())?.is_some() {
        return Err(Error::config(format!(
            "jimu: batch {} is already used in this store; refusing to write over it",
            batch.0
        )));
    }
    Ok(batch)
}

/// Function-independent size of a preprocessing: AND gates (buckets) and
/// input wires of each party.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolSize {
    /// Q: AND buckets (and as many AND-output pool wires).
    pub and_gates: u64,
    /// Alice's input wires (pool wires).
    pub alice_inputs: u64,
    /// Bob's input bits (s shares each).
    pub bob_inputs: u64,
}

impl PoolSize {
    /// Enough for `cfg.executions` executions of `cfg.circuit`.
    pub fn for_run(cfg: &RunConfig) -> Result<PoolSize> {
        let e = cfg.executions as u64;
        let mul = |x: usize| {
            (x as u64)
                .checked_mul(e)
                .ok_or_else(|| Error::config("jimu: preprocessing size overflows"))
        };
        Ok(PoolSize {
            and_gates: mul(cfg.circuit.and_count())?,
            alice_inputs: mul(brickyard_driver::layout::input_positions(cfg, Role::Alice).len())?,
            bob_inputs: mul(brickyard_driver::layout::input_positions(cfg, Role::Bob).len())?,
        })
    }
}

fn to_usize(x: u64) -> Result<usize> {
    usize::try_from(x).map_err(|_| Error::config("jimu: preprocessing size does not fit"))
}

/// Generate's sizes for a store: one "execution" of Q AND gates and the
/// input pools; B and T from (Q, s) (Sec. 6.3), so any subset of the Q
/// buckets keeps the 2^-s bound.
pub fn pool_sizes(size: PoolSize, opts: &JimuOptions) -> Result<Sizes> {
    let (n, na, nb) = (
        to_usize(size.and_gates)?,
        to_usize(size.alice_inputs)?,
        to_usize(size.bob_inputs)?,
    );
    if n == 0 && na == 0 && nb == 0 {
        return Err(Error::config(
            "jimu: nothing to preprocess (no AND gates, no inputs)",
        ));
    }
    let (bucket, t) = if n == 0 {
        (0, 0)
    } else {
        let cc = CutAndChoose::optimise(size.and_gates, opts.s)?;
        (cc.bucket as usize, to_usize(cc.total)?)
    };
    let s = opts.s as usize;
    nb.checked_mul(s)
        .and_then(|x| x.checked_add(n)?.checked_add(na))
        .ok_or_else(|| Error::config("jimu: preprocessing size overflows"))?;
    Ok(Sizes {
        n,
        e: 1,
        na,
        nb,
        s,
        bucket,
        t,
    })
}

/// Both parties: each sends its Generate sizes and compares the peer's
/// (the sizes of `--and-gates`/`--inputs` are not in the run agreement);
/// `Config` naming both if they differ, before any material is made.
pub fn agree_sizes(ch: &mut Channel, sz: &Sizes) -> Result<()> {
    let mine = [sz.n, sz.na, sz.nb, sz.s, sz.bucket, sz.t].map(|x| x as u64);
    ch.send_msg(&mine)?;
    let theirs: [u64; 6] = ch.recv_msg()?;
    if theirs != mine {
        return Err(Error::config(format!(
            "jimu: the peer preprocesses (N, n_A, n_B, s, B, T) = {theirs:?}, we {mine:?}"
        )));
    }
    Ok(())
}

/// What a store's material holds, from its one preprocessing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Records of each kind ([`KINDS`] order).
    pub records: [u64; 3],
    /// Bucket size B.
    pub bucket: u64,
    /// Garbled gates T (gate numbers are below it).
    pub t: u64,
    /// Messages of the one ρ batch (for Bob's replay after extracting Δ).
    pub rho_batch: u64,
    /// Bytes of a label (16·L).
    pub label_bytes: u64,
}

impl Counts {
    fn of(sz: &Sizes, label_bytes: usize) -> Counts {
        Counts {
            records: [sz.n, sz.na + sz.n, sz.nb * sz.s].map(|x| x as u64),
            bucket: sz.bucket as u64,
            t: sz.t as u64,
            rho_batch: sz.rho_batch() as u64,
            label_bytes: label_bytes as u64,
        }
    }
}

#[derive(Serialize, Deserialize)]
struct AliceSecret {
    delta: Vec<u8>,
    perm: Params,
    counts: Counts,
}

impl Drop for AliceSecret {
    fn drop(&mut self) {
        self.delta.zeroize();
    }
}

#[derive(Serialize, Deserialize)]
struct BobSecret {
    wire: Params,
    perm: Params,
    watch_w: Vec<u64>,
    watch_p: Vec<u64>,
    d: Vec<[u8; 32]>,
    h_delta: Vec<u8>,
    compress: Vec<u8>,
    counts: Counts,
}

impl Drop for BobSecret {
    fn drop(&mut self) {
        self.watch_w.zeroize();
        self.watch_p.zeroize();
    }
}

fn enc<T: Serialize>(v: &T) -> Result<Zeroizing<Vec<u8>>> {
    postcard::to_stdvec(v)
        .map(Zeroizing::new)
        .map_err(|e| Error::config(format!("jimu: cannot encode the Setup secret: {e}")))
}

fn load<T: DeserializeOwned>(store: &Store, batch: Batch) -> Result<T> {
    let b = store.get_secret(&batch.secret())?.ok_or_else(|| {
        Error::Storage(format!(
            "jimu: the store holds no Setup secret of batch {} (preprocessing did not finish)",
            batch.0
        ))
    })?;
    postcard::from_bytes(&b)
        .map_err(|e| Error::Storage(format!("jimu: the Setup secret does not decode: {e}")))
}

/// Record sizes ([`KINDS`] order) at Alice.
fn alice_sizes(c: &Counts, lp: usize) -> [usize; 3] {
    let lb = c.label_bytes as usize;
    [c.bucket as usize * (8 + 3 * lb + 3 * lp), lb + lp, lb + 32]
}

/// Record sizes at Bob.
fn bob_sizes(c: &Counts, ww: usize, wp: usize) -> [usize; 3] {
    let lb = c.label_bytes as usize;
    [
        c.bucket as usize * (8 + 3 * ww + 3 * wp + 2 * lb),
        ww + wp + 8,
        ww + 1 + 16,
    ]
}

/// Appends records, a megabyte at a time (bounded memory), zeroizing
/// what it held (Alice's records are secret).
struct Out<'a> {
    store: &'a mut Store,
    kind: String,
    buf: Zeroizing<Vec<u8>>,
}

impl<'a> Out<'a> {
    fn new(store: &'a mut Store, kind: &str) -> Self {
        Out {
            store,
            kind: kind.to_string(),
            buf: Zeroizing::new(Vec::with_capacity(1 << 20)),
        }
    }
    fn put(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }
    fn end_record(&mut self) -> Result<()> {
        if self.buf.len() >= 1 << 20 {
            self.flush()?;
        }
        Ok(())
    }
    fn flush(&mut self) -> Result<()> {
        if !self.buf.is_empty() {
            self.store.append(&self.kind, &self.buf)?;
            self.buf.zeroize();
            self.buf.clear();
        }
        Ok(())
    }
}

fn add_kinds(store: &mut Store, batch: Batch, sizes: [usize; 3]) -> Result<()> {
    for (k, size) in batch.kinds().iter().zip(sizes) {
        // A kind of records of 0 bytes (B = 0: a preprocessing without AND
        // gates) is stored as 1-byte records of nothing; it holds none.
        let size = u32::try_from(size.max(1))
            .map_err(|_| Error::config("jimu: bucket record too large for the store"))?;
        store.add_kind(KindSpec::fixed(k, size))?;
    }
    Ok(())
}

/// Makes the material visible: the batch's secret after its records are
/// durable, then the batch list (so a listed batch is always complete).
fn publish(store: &mut Store, batch: Batch, secret: &[u8], counts: &Counts) -> Result<()> {
    store.commit()?;
    let kinds = batch.kinds();
    for (k, n) in kinds.iter().zip(counts.records) {
        if store.produced(k)? != n {
            return Err(Error::Storage(format!(
                "jimu: kind `{k}` holds {} records after preprocessing, {n} were made",
                store.produced(k)?
            )));
        }
    }
    store.put_secret(&batch.secret(), secret)?;
    let mut list: Vec<u32> = batches(store)?.into_iter().map(|b| b.0).collect();
    list.push(batch.0);
    let list = postcard::to_stdvec(&list)
        .map_err(|e| Error::config(format!("jimu: cannot encode the batch list: {e}")))?;
    store.put_secret(BATCHES_SECRET, &list)?;
    let suffix = match batch.0 {
        0 => String::new(),
        n => format!(" (batch {n})"),
    };
    for (k, what) in kinds.iter().zip([
        "AND gates",
        "pool wires (Alice's inputs and AND outputs)",
        "shares of Bob's input bits",
    ]) {
        store.declare_unit(&format!("{what}{suffix}"), &[(k, 1)])?;
    }
    Ok(())
}

/// Alice: writes one preprocessing (Generate, Check, the share OTs) to
/// `store`. `asg.bucketed` is J's selection: bucket q is its gates
/// `qB..(q+1)B`.
#[allow(clippy::too_many_arguments)]
pub fn alice_store<const L: usize>(
    store: &mut Store,
    ch: &mut Channel,
    sz: &Sizes,
    g: &AliceGates<L>,
    asg: &Assignment,
    rots: &AliceRots,
    delta: &WideDelta<L>,
    perm: Params,
) -> Result<()> {
    let batch = agree_batch(store, ch)?;
    let [bk, wk, sk] = batch.kinds();
    let counts = Counts::of(sz, 16 * L);
    let lp = perm.ell;
    add_kinds(store, batch, alice_sizes(&counts, lp))?;
    let short = || Error::config("jimu: Generate's output is shorter than its sizes");
    let mut lab = Zeroizing::new(vec![0u8; 16 * L]);
    let mut out = Out::new(store, &bk);
    for q in 0..sz.n {
        let gates = asg
            .bucketed
            .get(q * sz.bucket..(q + 1) * sz.bucket)
            .ok_or_else(short)?;
        for &gi in gates {
            out.put(&(gi as u64).to_le_bytes());
            for l in [&g.ml, &g.mr, &g.mo] {
                label_bytes_into(l.get(gi).ok_or_else(short)?, &mut lab);
                out.put(&lab);
            }
            for side in 0..3 {
                out.put(g.rho.get(3 * gi + side));
            }
        }
        out.end_record()?;
    }
    out.flush()?;
    let mut out = Out::new(store, &wk);
    for i in 0..sz.na + sz.n {
        label_bytes_into(g.pool.get(i).ok_or_else(short)?, &mut lab);
        out.put(&lab);
        out.put(g.rho.get(3 * sz.t + i));
        out.end_record()?;
    }
    out.flush()?;
    let mut out = Out::new(store, &sk);
    let first = sz.na + sz.n;
    for i in 0..sz.nb * sz.s {
        label_bytes_into(g.pool.get(first + i).ok_or_else(short)?, &mut lab);
        out.put(&lab);
        let (r0, r1) = *rots.get(i).ok_or_else(short)?;
        out.put(&r0.to_bytes());
        out.put(&r1.to_bytes());
        out.end_record()?;
    }
    out.flush()?;
    let mut d = Zeroizing::new(vec![0u8; 16 * L]);
    label_bytes_into(delta.label(), &mut d);
    let secret = AliceSecret {
        delta: d.to_vec(),
        perm,
        counts,
    };
    publish(store, batch, &enc(&secret)?, &counts)
}

/// What Bob's Setup leaves that the online phase needs.
pub struct BobSetupView<'a> {
    /// IHash_w.
    pub wire: &'a Receiver,
    /// IHash_p.
    pub perm: &'a Receiver,
    /// ⟨Δ⟩.
    pub h_delta: &'a [u8],
    /// D_1..D_{n_p}.
    pub d: &'a [[u8; 32]],
    /// A'.
    pub compress: &'a Compress,
}

/// Bob: writes one preprocessing to `store`.
pub fn bob_store<const L: usize>(
    store: &mut Store,
    ch: &mut Channel,
    sz: &Sizes,
    g: &BobGates<L>,
    asg: &Assignment,
    rots: &BobRots,
    st: &BobSetupView<'_>,
) -> Result<()> {
    let batch = agree_batch(store, ch)?;
    let [bk, wk, sk] = batch.kinds();
    let counts = Counts::of(sz, 16 * L);
    let (ww, wp) = (st.wire.params().w, st.perm.params().w);
    add_kinds(store, batch, bob_sizes(&counts, ww, wp))?;
    let short = || Error::config("jimu: Generate's output is shorter than its sizes");
    let mut out = Out::new(store, &bk);
    for q in 0..sz.n {
        let gates = asg
            .bucketed
            .get(q * sz.bucket..(q + 1) * sz.bucket)
            .ok_or_else(short)?;
        for &gi in gates {
            out.put(&(gi as u64).to_le_bytes());
            for h in [&g.hl, &g.hr, &g.ho] {
                out.put(h.get(gi));
            }
            for side in 0..3 {
                out.put(g.hrho.get(3 * gi + side));
            }
            for tab in g.tables.get(2 * gi..2 * gi + 2).ok_or_else(short)? {
                for b in tab {
                    out.put(&b.to_bytes());
                }
            }
        }
        out.end_record()?;
    }
    out.flush()?;
    let mut out = Out::new(store, &wk);
    for i in 0..sz.na + sz.n {
        out.put(g.pool.get(i));
        out.put(g.hrho.get(3 * sz.t + i));
        out.put(&((3 * sz.t + i) as u64).to_le_bytes());
        out.end_record()?;
    }
    out.flush()?;
    let mut out = Out::new(store, &sk);
    let first = sz.na + sz.n;
    for i in 0..sz.nb * sz.s {
        out.put(g.pool.get(first + i));
        out.put(&[u8::from(*rots.0.get(i).ok_or_else(short)?)]);
        out.put(&rots.1.get(i).ok_or_else(short)?.to_bytes());
        out.end_record()?;
    }
    out.flush()?;
    let secret = BobSecret {
        wire: *st.wire.params(),
        perm: *st.perm.params(),
        watch_w: st
            .wire
            .verifier()
            .watch()
            .iter()
            .map(|&j| j as u64)
            .collect(),
        watch_p: st
            .perm
            .verifier()
            .watch()
            .iter()
            .map(|&j| j as u64)
            .collect(),
        d: st.d.to_vec(),
        h_delta: st.h_delta.to_vec(),
        compress: st.compress.rows().to_vec(),
        counts,
    };
    publish(store, batch, &enc(&secret)?, &counts)
}

/// What one run of `e` executions of `c` takes of each kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Need {
    /// Sizes of the run's view (one execution's N, n_A, n_B; B from the store).
    pub sz: Sizes,
    /// Records of each kind ([`KINDS`] order).
    pub records: [u64; 3],
}

/// The run's needs for `cfg` with bucket size `bucket`.
pub fn need(cfg: &RunConfig, opts: &JimuOptions, bucket: usize) -> Result<Need> {
    let c: &Circuit = &cfg.circuit;
    let (n, e) = (c.and_count(), cfg.executions);
    let na = brickyard_driver::layout::input_positions(cfg, Role::Alice).len();
    let nb = brickyard_driver::layout::input_positions(cfg, Role::Bob).len();
    let s = opts.s as usize;
    let of = || Error::config("jimu: run size overflows");
    let mul = |a: usize, b: usize| a.checked_mul(b).ok_or_else(of);
    let t = mul(mul(bucket, n)?, e)?;
    let records = [
        mul(n, e)?,
        mul(na.checked_add(n).ok_or_else(of)?, e)?,
        mul(mul(nb, s)?, e)?,
    ]
    .map(|x| x as u64);
    Ok(Need {
        sz: Sizes {
            n,
            e,
            na,
            nb,
            s,
            bucket,
            t,
        },
        records,
    })
}

/// The most batches a peer's list may name (a bound on what we read).
const MAX_BATCHES: usize = 1 << 16;

/// The run's material: its batch, that batch's counts, the run's needs and
/// the reserved records of each kind.
struct Taken {
    batch: Batch,
    counts: Counts,
    need: Need,
    bytes: [Zeroizing<Vec<u8>>; 3],
}

/// Both parties: the batches both stores list (exchanged, intersected in
/// ascending order), the next-index handshake over all their kinds, the
/// choice of the oldest batch with enough unused material of every kind
/// for the whole run (both sides choose alike from the agreed state), and
/// the durable reservation and verified read of the run's records. On
/// any error before the reservation the store is unchanged.
fn take(
    store: &mut Store,
    ch: &mut Channel,
    cfg: &RunConfig,
    opts: &JimuOptions,
    label_bytes: usize,
    counts_of: impl Fn(&Store, Batch) -> Result<Counts>,
) -> Result<Taken> {
    let mine = batches(store)?;
    ch.send_msg(&mine.iter().map(|b| b.0).collect::<Vec<u32>>())?;
    let theirs: Vec<u32> = ch.recv_msg()?;
    if theirs.len() > MAX_BATCHES {
        return Err(Error::Malformed(format!(
            "jimu: the peer lists {} batches (at most {MAX_BATCHES})",
            theirs.len()
        )));
    }
    let mut common: Vec<Batch> = mine
        .iter()
        .copied()
        .filter(|b| theirs.contains(&b.0))
        .collect();
    // Both sides walk the same order (lists are ascending already: each
    // new number is above all used ones).
    common.sort_unstable();
    common.dedup();
    if common.is_empty() {
        return Err(Error::Storage(format!(
            "jimu: no complete preprocessing batch is in both stores (ours lists {:?}, the \
             peer's {theirs:?}); preprocessing did not finish",
            mine.iter().map(|b| b.0).collect::<Vec<_>>()
        )));
    }
    let kinds: Vec<String> = common.iter().flat_map(|b| b.kinds()).collect();
    let refs: Vec<&str> = kinds.iter().map(String::as_str).collect();
    store.sync_next_index(ch, &refs)?;
    let info = store.info();
    let left = |k: &str| {
        info.kinds
            .iter()
            .find(|x| x.name == k)
            .map_or(0, |x| x.remaining)
    };
    let mut chosen = None;
    let mut most = [0u64; 3];
    let mut wanted = None;
    for &b in &common {
        let counts = counts_of(store, b)?;
        check_counts(store, b, &counts, label_bytes, opts)?;
        let need = need(cfg, opts, to_usize(counts.bucket)?)?;
        let have = b.kinds().map(|k| left(&k));
        wanted.get_or_insert(need.records);
        if have.iter().zip(need.records).all(|(h, n)| *h >= n) {
            chosen = Some((b, counts, need));
            break;
        }
        if have.iter().sum::<u64>() > most.iter().sum::<u64>() {
            most = have;
        }
    }
    let Some((batch, counts, need)) = chosen else {
        let [b, w, s] = wanted.unwrap_or_default();
        return Err(Error::Exhausted(format!(
            "jimu: this run needs {b} AND buckets, {w} pool wires and {s} input shares from one \
             preprocessing batch; none of the {} batches both stores hold has that many unused \
             (the fullest has {}, {} and {}); nothing was reserved (run `brickyard preprocess \
             --protocol jimu` on the same stores to add a batch)",
            common.len(),
            most[0],
            most[1],
            most[2]
        )));
    };
    let kinds = batch.kinds();
    let wants: Vec<(&str, u64)> = kinds
        .iter()
        .map(String::as_str)
        .zip(need.records)
        .filter(|(_, n)| *n > 0)
        .collect();
    let rs = store.reserve_many(&wants)?;
    let mut out: [Zeroizing<Vec<u8>>; 3] = Default::default();
    for r in &rs {
        let i = kinds
            .iter()
            .position(|k| k == r.kind())
            .ok_or_else(|| Error::Storage("jimu: reservation of an unknown kind".into()))?;
        out[i] = Zeroizing::new(store.read(r)?);
    }
    store.finish_many(rs)?;
    Ok(Taken {
        batch,
        counts,
        need,
        bytes: out,
    })
}

/// Cuts `bytes` into `count` records of `size`; `Storage` if they disagree.
fn records(bytes: &[u8], size: usize, count: u64) -> Result<std::slice::ChunksExact<'_, u8>> {
    if (bytes.len() as u64) != (size as u64).saturating_mul(count) || (size == 0 && count > 0) {
        return Err(Error::Storage(format!(
            "jimu: {} stored bytes are not {count} records of {size} bytes",
            bytes.len()
        )));
    }
    Ok(bytes.chunks_exact(size.max(1)))
}

/// Reads a record's fields in order.
struct Fields<'a>(&'a [u8]);

impl<'a> Fields<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let (h, t) = self
            .0
            .split_at_checked(n)
            .ok_or_else(|| Error::Storage("jimu: a stored record is short".into()))?;
        self.0 = t;
        Ok(h)
    }
    fn u64(&mut self) -> Result<u64> {
        let b = self.take(8)?;
        Ok(u64::from_le_bytes(b.try_into().map_err(|_| {
            Error::Storage("jimu: a stored record is short".into())
        })?))
    }
    fn block(&mut self) -> Result<Block> {
        let b = self.take(16)?;
        let mut x = [0u8; 16];
        x.copy_from_slice(b);
        Ok(Block::from_bytes(x))
    }
}

/// A gate number below T, or `Storage`.
fn gate_number(f: &mut Fields<'_>, t: u64) -> Result<u64> {
    let i = f.u64()?;
    if i >= t {
        return Err(Error::Storage(format!(
            "jimu: stored gate number {i} is not below T = {t}"
        )));
    }
    Ok(i)
}

fn check_counts(
    store: &Store,
    batch: Batch,
    c: &Counts,
    label_bytes: usize,
    opts: &JimuOptions,
) -> Result<()> {
    if c.label_bytes != label_bytes as u64 {
        return Err(Error::Storage(format!(
            "jimu: the store's labels have {} bytes, k = {} needs {label_bytes}",
            c.label_bytes, opts.k
        )));
    }
    for (k, n) in batch.kinds().iter().zip(c.records) {
        if store.produced(k)? != n {
            return Err(Error::Storage(format!(
                "jimu: kind `{k}` holds {} records, its Setup secret says {n}",
                store.produced(k)?
            )));
        }
    }
    Ok(())
}

/// Alice's material for one run, as the in-memory Build and Eval take it:
/// the run's gates numbered `0..t` in bucket order (so the assignment
/// puts gate `qB + j` in bucket q), its pool wires and shares in the
/// order `Sizes` indexes them (all executions' Alice inputs, then their
/// AND outputs, then Bob's shares), and the shares' OTs.
pub struct AliceRun<const L: usize> {
    /// The run's view of Generate.
    pub gates: AliceGates<L>,
    /// Identity bucketing, no checked gates (Check ran in preprocessing).
    pub asg: Assignment,
    /// The run's sizes.
    pub sz: Sizes,
    /// The shares' random OTs.
    pub rots: AliceRots,
    /// Δ of the Setup that made the material.
    pub delta: WideDelta<L>,
    /// ℓ_p.
    pub lp: usize,
}

fn identity(sz: &Sizes) -> Assignment {
    Assignment {
        bucketed: (0..sz.t).collect(),
        checked: Vec::new(),
    }
}

/// Alice's Δ from a batch's secret (its colour bit must be 1).
fn alice_delta<const L: usize>(secret: &AliceSecret) -> Result<Label<L>> {
    if secret.delta.len() != 16 * L {
        return Err(Error::Storage(
            "jimu: the stored Δ has the wrong length".into(),
        ));
    }
    let d: Label<L> = label_from_bytes(&secret.delta);
    if !d[0].lsb() {
        return Err(Error::Storage("jimu: the stored Δ has colour bit 0".into()));
    }
    Ok(d)
}

/// Alice: reserves and reads the material of `cfg`'s executions.
pub fn alice_take<const L: usize>(
    store: &mut Store,
    ch: &mut Channel,
    cfg: &RunConfig,
    opts: &JimuOptions,
) -> Result<AliceRun<L>> {
    let taken = take(store, ch, cfg, opts, 16 * L, |st, b| {
        let secret = load::<AliceSecret>(st, b)?;
        alice_delta::<L>(&secret)?;
        Ok(secret.counts)
    })?;
    let secret: AliceSecret = load(store, taken.batch)?;
    let c = taken.counts;
    let (need, bytes) = (taken.need, taken.bytes);
    let lp = secret.perm.ell;
    let sizes = alice_sizes(&c, lp);
    let sz = need.sz;
    let lb = 16 * L;
    let (mut ml, mut mr, mut mo) = (
        Vec::with_capacity(sz.t),
        Vec::with_capacity(sz.t),
        Vec::with_capacity(sz.t),
    );
    let mut gate_rho = Zeroizing::new(Vec::with_capacity(3 * sz.t * lp));
    for rec in records(&bytes[0], sizes[0], need.records[0])? {
        let mut f = Fields(rec);
        for _ in 0..sz.bucket {
            gate_number(&mut f, c.t)?;
            ml.push(label_from_bytes(f.take(lb)?));
            mr.push(label_from_bytes(f.take(lb)?));
            mo.push(label_from_bytes(f.take(lb)?));
            gate_rho.extend_from_slice(f.take(3 * lp)?);
        }
    }
    let mut pool: Vec<Label<L>> = Vec::with_capacity((need.records[1] + need.records[2]) as usize);
    for rec in records(&bytes[1], sizes[1], need.records[1])? {
        let mut f = Fields(rec);
        pool.push(label_from_bytes(f.take(lb)?));
        gate_rho.extend_from_slice(f.take(lp)?);
    }
    let mut rots = Zeroizing::new(Vec::with_capacity(need.records[2] as usize));
    for rec in records(&bytes[2], sizes[2], need.records[2])? {
        let mut f = Fields(rec);
        pool.push(label_from_bytes(f.take(lb)?));
        rots.push((f.block()?, f.block()?));
    }
    let d = alice_delta::<L>(&secret)?;
    Ok(AliceRun {
        gates: AliceGates {
            ml,
            mr,
            mo,
            rho: Rows::from_flat(&gate_rho, lp),
            pool,
        },
        asg: identity(&sz),
        sz,
        rots,
        delta: WideDelta::new(d),
        lp,
    })
}

/// Bob's Setup as the store keeps it: verifiers only (no i-hash can be
/// made with it).
pub struct BobKeysStored {
    /// IHash_w, verify-only.
    pub wire: Receiver,
    /// IHash_p, verify-only.
    pub perm: Receiver,
    /// ⟨Δ⟩.
    pub h_delta: Vec<u8>,
    /// D_1..D_{n_p}.
    pub d: Vec<[u8; 32]>,
    /// A'.
    pub compress: Compress,
    /// Messages of the ρ batch (the Δ-recovery replays it).
    pub rho_batch: usize,
}

/// Bob's material for one run (see [`AliceRun`]).
pub struct BobRun<const L: usize> {
    /// The run's view of Generate.
    pub gates: BobGates<L>,
    /// Identity bucketing.
    pub asg: Assignment,
    /// The run's sizes.
    pub sz: Sizes,
    /// The shares' random OTs.
    pub rots: BobRots,
    /// The garbled gate number (hash tweak) of each view gate.
    pub numbers: Vec<u64>,
    /// Where each pool wire's ρ sits in the ρ batch.
    pub rho_at: Vec<usize>,
    /// Setup's keys.
    pub keys: BobKeysStored,
}

fn watch(w: &[u64]) -> Result<Vec<usize>> {
    w.iter().map(|&j| to_usize(j)).collect()
}

/// Bob's Setup keys from a batch's secret, checked against (k, s).
fn bob_keys<const L: usize>(secret: &BobSecret, opts: &JimuOptions) -> Result<BobKeysStored> {
    let (pw, pp) = opts.ihash_params(16 * L)?;
    if secret.wire != pw || secret.perm != pp {
        return Err(Error::Storage(
            "jimu: the stored i-hash parameters are not those of (k, s)".into(),
        ));
    }
    let keys = BobKeysStored {
        wire: Receiver::restore_verifier(pw, &watch(&secret.watch_w)?, Vec::new())?,
        perm: Receiver::restore_verifier(pp, &watch(&secret.watch_p)?, secret.d.clone())?,
        h_delta: secret.h_delta.clone(),
        d: secret.d.clone(),
        compress: Compress::from_rows(&secret.compress, 16 * L)
            .map_err(|e| Error::Storage(format!("jimu: the stored A' is unusable: {e}")))?,
        rho_batch: to_usize(secret.counts.rho_batch)?,
    };
    if keys.h_delta.len() != pw.w || keys.d.len() != pp.n {
        return Err(Error::Storage(
            "jimu: the stored ⟨Δ⟩ or D_i have the wrong length".into(),
        ));
    }
    Ok(keys)
}

/// Bob: reserves and reads the material of `cfg`'s executions.
pub fn bob_take<const L: usize>(
    store: &mut Store,
    ch: &mut Channel,
    cfg: &RunConfig,
    opts: &JimuOptions,
) -> Result<BobRun<L>> {
    // Each candidate batch's keys are checked before anything is reserved.
    let taken = take(store, ch, cfg, opts, 16 * L, |st, b| {
        let secret = load::<BobSecret>(st, b)?;
        bob_keys::<L>(&secret, opts)?;
        Ok(secret.counts)
    })?;
    let secret: BobSecret = load(store, taken.batch)?;
    let keys = bob_keys::<L>(&secret, opts)?;
    let c = taken.counts;
    let (need, bytes) = (taken.need, taken.bytes);
    let (pw, pp) = (*keys.wire.params(), *keys.perm.params());
    let (ww, wp) = (pw.w, pp.w);
    let sizes = bob_sizes(&c, ww, wp);
    let sz = need.sz;
    let lb = 16 * L;
    let mut numbers = Vec::with_capacity(sz.t);
    let (mut hl, mut hr, mut ho) = (Vec::new(), Vec::new(), Vec::new());
    let mut hrho = Vec::with_capacity((3 * sz.t + need.records[1] as usize) * wp);
    let mut tables: Vec<Label<L>> = Vec::with_capacity(2 * sz.t);
    for rec in records(&bytes[0], sizes[0], need.records[0])? {
        let mut f = Fields(rec);
        for _ in 0..sz.bucket {
            numbers.push(gate_number(&mut f, c.t)?);
            hl.extend_from_slice(f.take(ww)?);
            hr.extend_from_slice(f.take(ww)?);
            ho.extend_from_slice(f.take(ww)?);
            hrho.extend_from_slice(f.take(3 * wp)?);
            for _ in 0..2 {
                tables.push(label_from_bytes(f.take(lb)?));
            }
        }
    }
    let mut pool = Vec::new();
    let mut rho_at = Vec::with_capacity(need.records[1] as usize);
    for rec in records(&bytes[1], sizes[1], need.records[1])? {
        let mut f = Fields(rec);
        pool.extend_from_slice(f.take(ww)?);
        hrho.extend_from_slice(f.take(wp)?);
        let at = f.u64()?;
        if at >= c.rho_batch {
            return Err(Error::Storage(format!(
                "jimu: a stored ρ position {at} is outside the batch of {}",
                c.rho_batch
            )));
        }
        rho_at.push(to_usize(at)?);
    }
    let (mut choice, mut r) = (Vec::new(), Zeroizing::new(Vec::new()));
    for rec in records(&bytes[2], sizes[2], need.records[2])? {
        let mut f = Fields(rec);
        pool.extend_from_slice(f.take(ww)?);
        choice.push(match f.take(1)?[0] {
            0 => false,
            1 => true,
            _ => {
                return Err(Error::Storage(
                    "jimu: a stored OT choice is not a bit".into(),
                ))
            }
        });
        r.push(f.block()?);
    }
    let rows = |v: &[u8], w: usize| Rows::from_flat(v, w);
    Ok(BobRun {
        gates: BobGates {
            hl: rows(&hl, ww),
            hr: rows(&hr, ww),
            ho: rows(&ho, ww),
            hrho: rows(&hrho, wp),
            tables,
            pool: rows(&pool, ww),
        },
        asg: identity(&sz),
        sz,
        rots: (choice, r),
        numbers,
        rho_at,
        keys,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_names_round_trip_and_foreign_names_are_not_batches() {
        for n in [0u32, 1, 7, 12, u32::MAX] {
            for k in Batch(n).kinds() {
                assert_eq!(Batch::of_kind(&k), Some(Batch(n)), "{k}");
            }
        }
        assert_eq!(Batch(0).kinds(), KINDS.map(String::from));
        assert_eq!(Batch(3).secret(), "jimu-setup-3");
        for other in [
            "jimu-bucket-0",
            "jimu-bucket-01",
            "jimu-bucket-",
            "jimu-bucket-x",
            "jimu-bucketx",
            "jimu-bucket-4294967296",
            "lego-0011-and",
            "jimu-setup",
        ] {
            assert_eq!(Batch::of_kind(other), None, "{other}");
        }
    }
}
