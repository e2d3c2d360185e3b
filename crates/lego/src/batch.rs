//! Generate batches in the store: NST17's function-independent
//! preprocessing (Generate(q, n, m)) kept between processes, and Build(f)
//! from it in a later run that knows f.
//!
//! A preprocessing run with a store is Setup plus one Generate, and leaves
//! one *batch* with its own commitment session (base OTs) and its own Δ-ROT
//! session, hence its own Δ: a Δ-ROT session extends once, and a soldering
//! is the XOR of two keys under one Δ opened in one commitment session. So a
//! built copy takes all its material from one batch: the first batch, in
//! the order both parties hold them, that still has enough unused material
//! of every kind. Running preprocessing again adds a batch.
//!
//! Per batch `<id>` the store holds five fixed-size kinds (byte layouts in
//! `records.rs`), one record per item, each with the commitments Build and
//! Eval may open (Alice: value and share; Bob: check row) and Bob's part
//! of the item:
//!
//! | kind | one record | Alice | Bob |
//! |---|---|---|---|
//! | `lego-<id>-and` | AND bucket | head's L⁰, R⁰, O⁰ | their rows, β gates, α authenticators |
//! | `lego-<id>-in` | input bucket and authenticator | head's L⁰, head authenticator's key | rows, β̃ gates, α̃ authenticators |
//! | `lego-<id>-rot` | Δ-ROT | r⁰ | row, b, r^b, lsb(r⁰) |
//! | `lego-<id>-out` | output blinder | v | row, lsb(v) |
//! | `lego-<id>-ref` | refresh key (Build's re-basing) | u | row |
//!
//! The gates and authenticators carry the solderings to their head that
//! Bob verified in Generate, so the other members' commitments are never
//! needed again. The sealed secret `lego-b-<id>` holds the commitment
//! seeds, Δ's commitment, the counts, and (Alice) Δ or (Bob) the bucket
//! widths and the checked authenticators that confirm a recovered Δ. The
//! secret `lego-batches` lists the batches and is written last, after the
//! material is durable: a run that dies earlier leaves kinds no list names,
//! never read. Build reserves a copy's records of all five kinds with one
//! durable update before reading them, so no bucket, Δ-ROT, blinder or
//! refresh key is ever used twice, across crashes and runs.

use super::build;
use super::hcom::{HcomReceiver, HcomSender};
use super::material::{BobMaterial, Flat, Layout};
use super::records::{bob_and, bob_in, records, Reader, Writer, ACOM, BOB_OUT, BOB_ROT, ROW};
use super::store::{self as lstore, AliceReady, BobReady};
use brickyard_commit::code::Row;
use brickyard_commit::params::CommitParams;
use brickyard_commit::{CommitterState, ReceiverState};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_store::{KindSpec, Reservation, Store};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use zeroize::{Zeroize, Zeroizing};

/// The store secret listing the batches, in the order they were made.
pub const BATCHES_SECRET: &str = "lego-batches";

/// The five kinds of a batch, in record order of [`Counts`].
pub const PARTS: [&str; 5] = ["and", "in", "rot", "out", "ref"];

/// A batch's name: a committed coin toss of Alice's and Bob's 8 random
/// bytes (see [`agree_id`]), so it is fresh if either party is honest (a
/// reused name could alias old records).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchId(pub [u8; 8]);

impl BatchId {
    fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
    /// The store kind of one part (see [`PARTS`]).
    pub fn kind(&self, part: &str) -> String {
        format!("lego-{}-{part}", self.hex())
    }
    /// All five kinds.
    pub fn kinds(&self) -> Vec<String> {
        PARTS.iter().map(|p| self.kind(p)).collect()
    }
    fn secret(&self) -> String {
        format!("lego-b-{}", self.hex())
    }
}

/// The check a party fails by opening its batch-id commitment to another
/// value.
pub const BATCH_ID_CHECK: &str = "batch-id-commit";

pub(crate) fn id_commitment(share: &[u8; 8], nonce: &[u8; 32]) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key("brickyard lego batch id commitment v1");
    h.update(share);
    h.update(nonce);
    *h.finalize().as_bytes()
}

/// Both parties: a fresh batch name by a committed coin toss. Alice commits
/// to her share with 256 bits of fresh randomness (hiding), Bob answers
/// with his share in the clear, Alice opens; the name is the XOR. Bob
/// chooses without seeing Alice's share, and Alice is bound before seeing
/// Bob's, so neither steers the name (an XOR sent in the clear by both, as
/// before, let the second sender choose it outright). A name that
/// collides with a batch or kind this store already holds is refused
/// before anything is written.
pub fn agree_id(store: &Store, ch: &mut Channel, prg: &mut Prg, alice: bool) -> Result<BatchId> {
    let mut mine = [0u8; 8];
    prg.fill_bytes(&mut mine);
    let theirs = if alice {
        let mut nonce = Zeroizing::new([0u8; 32]);
        prg.fill_bytes(&mut nonce[..]);
        ch.send_bytes(&id_commitment(&mine, &nonce))?;
        let mut theirs = [0u8; 8];
        ch.recv_bytes(&mut theirs)?;
        ch.send_bytes(&mine)?;
        ch.send_bytes(&nonce[..])?;
        ch.flush()?;
        theirs
    } else {
        bob_coin_toss(ch, &mine)?
    };
    let id = BatchId(std::array::from_fn(|i| mine[i] ^ theirs[i]));
    let taken = list(store)?.contains(&id)
        || store.get_secret(&id.secret())?.is_some()
        || id.kinds().iter().any(|k| store.produced(k).is_ok());
    if taken {
        return Err(Error::config(format!(
            "lego: the agreed batch name {} is already used in this store; refusing to write over it",
            id.hex()
        )));
    }
    Ok(id)
}

/// Bob's side of the batch-name coin toss: Alice's commitment, our share
/// `mine`, her share and its opening, checked against the commitment
/// (`batch-id-commit`). Returns her share.
pub(crate) fn bob_coin_toss(ch: &mut Channel, mine: &[u8; 8]) -> Result<[u8; 8]> {
    let mut com = [0u8; 32];
    ch.recv_bytes(&mut com)?;
    ch.send_bytes(mine)?;
    let mut theirs = [0u8; 8];
    ch.recv_bytes(&mut theirs)?;
    let mut nonce = [0u8; 32];
    ch.recv_bytes(&mut nonce)?;
    if id_commitment(&theirs, &nonce) != com {
        return Err(Error::Cheating {
            check: BATCH_ID_CHECK,
        });
    }
    Ok(theirs)
}

/// The peer's list of batches before Build (a postcard `Vec<BatchId>`,
/// bounded by the channel's 64 MiB message limit).
pub(crate) fn recv_listing(ch: &mut Channel) -> Result<Vec<BatchId>> {
    ch.recv_msg()
}

/// Items of each part a batch holds (or a copy needs), in [`PARTS`] order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts(pub [u64; 5]);

/// A commitment as Alice holds it: value and share.
#[derive(Clone, Serialize, Deserialize)]
pub struct ACom {
    /// Committed value.
    pub m: Block,
    /// Share `t`.
    pub t: Row,
}

impl Drop for ACom {
    fn drop(&mut self) {
        self.m.zeroize();
        self.t.zeroize();
    }
}

#[derive(Serialize, Deserialize)]
struct AliceBatch {
    /// Commitment seeds (no commitments).
    hcom: CommitterState,
    delta: Block,
    delta_com: ACom,
    counts: Counts,
}

impl Drop for AliceBatch {
    fn drop(&mut self) {
        self.delta.zeroize();
    }
}

#[derive(Serialize, Deserialize)]
struct BobBatch {
    /// Watch bits and seeds (no commitments).
    hcom: ReceiverState,
    delta_w: Row,
    /// β, α, β̃, α̃.
    widths: [u32; 4],
    checked_auths: Vec<(Block, [Block; 2], u64)>,
    counts: Counts,
}

fn enc<T: Serialize>(v: &T) -> Result<Zeroizing<Vec<u8>>> {
    postcard::to_stdvec(v)
        .map(Zeroizing::new)
        .map_err(|e| Error::config(format!("lego: cannot encode a batch secret: {e}")))
}

fn dec<T: DeserializeOwned>(bytes: &[u8], what: &str) -> Result<T> {
    postcard::from_bytes(bytes)
        .map_err(|e| Error::Storage(format!("lego: {what} does not decode: {e}")))
}

/// The batches this store lists, oldest first.
pub fn list(store: &Store) -> Result<Vec<BatchId>> {
    match store.get_secret(BATCHES_SECRET)? {
        None => Ok(Vec::new()),
        Some(b) => dec(&b, "the batch list"),
    }
}

fn load<T: DeserializeOwned>(store: &Store, id: BatchId) -> Result<T> {
    let b = store.get_secret(&id.secret())?.ok_or_else(|| {
        Error::Storage(format!(
            "lego: batch {} is listed but its secret is missing",
            id.hex()
        ))
    })?;
    dec(&b, "a batch secret")
}

fn add_kinds(store: &mut Store, id: BatchId, sizes: [usize; 5]) -> Result<()> {
    for (k, size) in id.kinds().iter().zip(sizes) {
        let size = u32::try_from(size)
            .map_err(|_| Error::config("lego: bucket record too large for the store"))?;
        store.add_kind(KindSpec::fixed(k, size))?;
    }
    Ok(())
}

/// A part's buffer is appended to the store once it holds this many
/// bytes, so a party never holds a whole batch's records beside Generate's
/// state (Bob's AND records alone are about 5 MB per AES-128 at 128
/// copies: 660 MB more peak memory per 128-copy batch without it).
const FLUSH_BYTES: usize = 4 << 20;

/// Appends `w` to `kind` and empties it (keeping its capacity) once it
/// holds [`FLUSH_BYTES`]; callers write whole records only, so a flush
/// always ends on a record boundary.
fn flush_full(store: &mut Store, kind: &str, w: &mut Writer) -> Result<()> {
    if w.0.len() >= FLUSH_BYTES {
        store.append(kind, &w.0)?;
        w.0.zeroize();
        w.0.clear();
    }
    Ok(())
}

/// Appends each part's records (one buffer per part) and clears the buffers.
fn append_all(store: &mut Store, id: BatchId, bufs: &mut [Writer; 5]) -> Result<()> {
    for (k, w) in id.kinds().iter().zip(bufs.iter_mut()) {
        store.append(k, &w.0)?;
        w.0.zeroize();
        w.0.clear();
    }
    Ok(())
}

/// Makes the batch visible: its secret, then the list (after the records
/// are durable, so a listed batch is always complete).
fn publish(store: &mut Store, id: BatchId, secret: &[u8]) -> Result<()> {
    store.commit()?;
    store.put_secret(&id.secret(), secret)?;
    let mut l = list(store)?;
    l.push(id);
    store.put_secret(BATCHES_SECRET, &enc(&l)?)?;
    // What `store info` reports, in a user's words.
    let n = l.len();
    for (part, what) in [
        ("and", "AND gates"),
        ("in", "input wires"),
        ("out", "output wires"),
    ] {
        store.declare_unit(
            &format!("{what} of Generate batch {n}"),
            &[(&id.kind(part), 1)],
        )?;
    }
    Ok(())
}

fn counts(l: &Layout) -> Counts {
    Counts(
        [
            l.and_heads.len(),
            l.in_heads.len(),
            l.r_ids.len(),
            l.v_ids.len(),
            l.refresh_ids.len(),
        ]
        .map(|n| n as u64),
    )
}

fn missing() -> Error {
    Error::config("lego: commitment id outside the Generate session")
}

/// Alice: writes one Generate call's output as batch `id`.
pub fn alice_store(
    store: &mut Store,
    id: BatchId,
    layout: &Layout,
    st: &CommitterState,
    delta: Block,
) -> Result<()> {
    let com = |i: usize| -> Result<ACom> {
        Ok(ACom {
            m: *st.msgs.get(i).ok_or_else(missing)?,
            t: *st.t.get(i).ok_or_else(missing)?,
        })
    };
    add_kinds(store, id, ALICE_SIZES)?;
    let mut bufs: [Writer; 5] = Default::default();
    let put = |w: &mut Writer, i: usize| -> Result<()> {
        let c = com(i)?;
        w.acom(c.m, &c.t);
        Ok(())
    };
    let kinds = id.kinds();
    for h in &layout.and_heads {
        for &i in h {
            put(&mut bufs[0], i)?;
        }
        flush_full(store, &kinds[0], &mut bufs[0])?;
    }
    for (&l, &a) in layout.in_heads.iter().zip(&layout.in_auth_heads) {
        put(&mut bufs[1], l)?;
        put(&mut bufs[1], a)?;
        flush_full(store, &kinds[1], &mut bufs[1])?;
    }
    for (part, ids) in [
        (2, &layout.r_ids),
        (3, &layout.v_ids),
        (4, &layout.refresh_ids),
    ] {
        for &i in ids {
            put(&mut bufs[part], i)?;
            flush_full(store, &kinds[part], &mut bufs[part])?;
        }
    }
    append_all(store, id, &mut bufs)?;
    let secret = AliceBatch {
        hcom: lstore::alice_session(st).hcom,
        delta,
        delta_com: com(layout.delta_id)?,
        counts: counts(layout),
    };
    publish(store, id, &enc(&secret)?)
}

/// Bob: writes one Generate call's output as batch `id`.
pub fn bob_store(
    store: &mut Store,
    id: BatchId,
    layout: &Layout,
    mat: &BobMaterial,
    st: &ReceiverState,
) -> Result<()> {
    let w = |i: usize| -> Result<&Row> { st.w.get(i).ok_or_else(missing) };
    let short = || Error::config("lego: Generate's material is shorter than its layout");
    let widths = [
        mat.and_gates.width,
        mat.and_auths.width,
        mat.input.width,
        mat.input_auth.width,
    ];
    let [bw, aw, biw, aiw] = widths;
    add_kinds(
        store,
        id,
        [bob_and(bw, aw), bob_in(biw, aiw), BOB_ROT, BOB_OUT, ROW],
    )?;
    let mut bufs: [Writer; 5] = Default::default();
    let kinds = id.kinds();
    for (j, h) in layout.and_heads.iter().enumerate() {
        let b = &mut bufs[0];
        for &i in h {
            b.row(w(i)?);
        }
        mat.and_gates
            .get(j)
            .ok_or_else(short)?
            .iter()
            .for_each(|g| b.gate(g));
        mat.and_auths
            .get(j)
            .ok_or_else(short)?
            .iter()
            .for_each(|a| b.auth(a));
        flush_full(store, &kinds[0], b)?;
    }
    for (j, (&l, &a)) in layout
        .in_heads
        .iter()
        .zip(&layout.in_auth_heads)
        .enumerate()
    {
        let b = &mut bufs[1];
        b.row(w(l)?);
        b.row(w(a)?);
        mat.input
            .get(j)
            .ok_or_else(short)?
            .iter()
            .for_each(|g| b.gate(g));
        mat.input_auth
            .get(j)
            .ok_or_else(short)?
            .iter()
            .for_each(|a| b.auth(a));
        flush_full(store, &kinds[1], b)?;
    }
    for (j, &i) in layout.r_ids.iter().enumerate() {
        let b = &mut bufs[2];
        b.row(w(i)?);
        b.block(*mat.rot_r.get(j).ok_or_else(short)?);
        b.flags(&[
            *mat.rot_b.get(j).ok_or_else(short)?,
            *mat.r_lsb.get(j).ok_or_else(short)?,
        ]);
        flush_full(store, &kinds[2], b)?;
    }
    for (j, &i) in layout.v_ids.iter().enumerate() {
        let b = &mut bufs[3];
        b.row(w(i)?);
        b.flags(&[*mat.v_lsb.get(j).ok_or_else(short)?]);
        flush_full(store, &kinds[3], b)?;
    }
    for &i in &layout.refresh_ids {
        bufs[4].row(w(i)?);
        flush_full(store, &kinds[4], &mut bufs[4])?;
    }
    append_all(store, id, &mut bufs)?;
    let secret = BobBatch {
        hcom: lstore::bob_session(st).hcom,
        delta_w: *w(layout.delta_id)?,
        widths: widths.map(|x| x as u32),
        checked_auths: mat.checked_auths.clone(),
        counts: counts(layout),
    };
    publish(store, id, &enc(&secret)?)
}

/// Both parties, before Build: the batches both list (in Alice's order),
/// with every one of their kinds synchronised, so that reservations of the
/// same sizes in the same order give both the same records.
pub fn open_batches(store: &mut Store, ch: &mut Channel, alice: bool) -> Result<Vec<BatchId>> {
    let mine = list(store)?;
    ch.send_msg(&mine)?;
    let theirs = recv_listing(ch)?;
    let (a, b) = if alice {
        (mine, theirs)
    } else {
        (theirs, mine)
    };
    let mut common: Vec<BatchId> = Vec::new();
    for id in a {
        if b.contains(&id) && !common.contains(&id) {
            common.push(id);
        }
    }
    let kinds: Vec<String> = common.iter().flat_map(|b| b.kinds()).collect();
    let refs: Vec<&str> = kinds.iter().map(String::as_str).collect();
    store.sync_next_index(ch, &refs)?;
    Ok(common)
}

/// One run's Build plan, shared by its copies: every copy numbers its
/// commitments the same way ([`build::local_layout`]), so Build's sets are
/// the same for all of them and are planned once — which also gives the
/// refresh keys a copy takes before anything is reserved.
pub struct Prepared {
    /// What one copy takes from a batch, in [`PARTS`] order.
    pub want: Counts,
    shared: Arc<build::Shared>,
    /// The commitment code of the run's s (the store's parameters bind s,
    /// so every batch of the store was made with it).
    commit: CommitParams,
}

/// A run's Build plan (made when the party was) with its commitment code.
pub fn prepare(shared: &Arc<build::Shared>, commit: CommitParams) -> Prepared {
    let shared = Arc::clone(shared);
    Prepared {
        want: Counts(shared.want.map(|x| x as u64)),
        shared,
        commit,
    }
}

/// Reserves the records of up to `max` copies (at least one) from the
/// first batch that still holds one copy's worth of every part: copies
/// from one batch are contiguous, so one durable update serves them all.
fn take(
    store: &mut Store,
    batches: &[BatchId],
    want: Counts,
    max: u64,
) -> Result<(BatchId, u64, Vec<Reservation>)> {
    let info = store.info();
    let left = |k: &str| {
        info.kinds
            .iter()
            .find(|x| x.name == k)
            .map_or(0, |x| x.remaining)
    };
    for &b in batches {
        let kinds = b.kinds();
        let fit = kinds
            .iter()
            .zip(want.0)
            .filter(|(_, w)| *w > 0)
            .map(|(k, w)| left(k) / w)
            .fold(max, u64::min);
        if fit == 0 {
            continue;
        }
        let w: Vec<(&str, u64)> = kinds
            .iter()
            .map(String::as_str)
            .zip(want.0.map(|x| x * fit))
            .collect();
        return Ok((b, fit, store.reserve_many(&w)?));
    }
    let [a, i, r, o, f] = want.0;
    Err(Error::Exhausted(format!(
        "lego: none of the {} Generate batches both stores hold has enough unused material \
         for one copy of f ({a} AND buckets, {i} inputs, {r} Δ-ROTs, {o} outputs, {f} refresh \
         keys); run `brickyard preprocess --protocol lego` again to add a batch",
        batches.len()
    )))
}

/// How many copies of `want` the batches hold in all (copies never mix
/// batches).
fn capacity(store: &Store, batches: &[BatchId], want: Counts) -> u64 {
    let info = store.info();
    let left = |k: &str| {
        info.kinds
            .iter()
            .find(|x| x.name == k)
            .map_or(0, |x| x.remaining)
    };
    batches
        .iter()
        .map(|b| {
            b.kinds()
                .iter()
                .zip(want.0)
                .filter(|(_, w)| *w > 0)
                .map(|(k, w)| left(k) / w)
                .min()
                .unwrap_or(u64::MAX)
        })
        .fold(0, u64::saturating_add)
}

/// Copy `i`'s bytes of each part, records of `sizes` bytes.
fn copy_slices(
    bytes: &[Zeroizing<Vec<u8>>],
    sizes: [usize; 5],
    want: Counts,
    i: u64,
) -> Result<[&[u8]; 5]> {
    let mut out: [&[u8]; 5] = [&[]; 5];
    for (p, o) in out.iter_mut().enumerate() {
        let len = sizes[p]
            .checked_mul(want.0[p] as usize)
            .ok_or_else(|| Error::Storage("lego: reservation too large".into()))?;
        let start = len
            .checked_mul(i as usize)
            .ok_or_else(|| Error::Storage("lego: reservation too large".into()))?;
        *o = bytes
            .get(p)
            .and_then(|b| b.get(start..start + len))
            .ok_or_else(|| Error::Storage("lego: stored range shorter than reserved".into()))?;
    }
    Ok(out)
}

/// Reads the five reservations (verified bytes) and marks them finished.
fn read(store: &mut Store, rs: Vec<Reservation>) -> Result<Vec<Zeroizing<Vec<u8>>>> {
    let out = rs
        .iter()
        .map(|r| store.read(r).map(Zeroizing::new))
        .collect::<Result<Vec<_>>>()?;
    store.finish_many(rs)?;
    Ok(out)
}

fn check_counts(b: BatchId, stored: Counts, store: &Store) -> Result<()> {
    for (k, n) in b.kinds().iter().zip(stored.0) {
        if store.produced(k)? != n {
            return Err(Error::Storage(format!(
                "lego: kind `{k}` holds {} records, its batch says {n}",
                store.produced(k)?
            )));
        }
    }
    Ok(())
}

/// Alice: Build(f) for `copies` copies from the store; `bob_pos` are
/// Bob's input positions. The copies taken from one batch open their
/// solderings in one batch opening (one flight, one check).
pub fn alice_builds(
    store: &mut Store,
    ch: &mut Channel,
    batches: &[BatchId],
    shared: &Arc<build::Shared>,
    bob_pos: &[usize],
    copies: usize,
    commit: CommitParams,
) -> Result<Vec<AliceReady>> {
    let prep = prepare(shared, commit);
    take_copies(
        store,
        batches,
        &prep,
        copies,
        |s: &AliceBatch| (s.counts, ALICE_SIZES),
        |s, parts| alice_copies(s, &parts, ch, &prep, bob_pos),
    )
}

/// Both parties: reserves and reads `copies` copies' records batch by
/// batch (never mixing batches) and builds the copies of each batch with
/// `build`. `sizes` gives the batch's recorded counts and its per-part
/// record sizes.
fn take_copies<S: DeserializeOwned, R>(
    store: &mut Store,
    batches: &[BatchId],
    prep: &Prepared,
    copies: usize,
    sizes: impl Fn(&S) -> (Counts, [usize; 5]),
    mut build: impl FnMut(&S, Vec<[&[u8]; 5]>) -> Result<Vec<R>>,
) -> Result<Vec<R>> {
    let want = prep.want;
    // Both stores agree on every count (the handshake checked them), so
    // both parties refuse alike, before anything is reserved.
    let have = capacity(store, batches, want);
    if have < copies as u64 {
        let [a, i, r, o, f] = want.0;
        return Err(Error::Exhausted(format!(
            "lego: the stores' {} Generate batches have material for {have} built copies of f \
             ({a} AND buckets, {i} inputs, {r} Δ-ROTs, {o} outputs, {f} refresh keys each), \
             this run asks for {copies}; nothing was reserved",
            batches.len()
        )));
    }
    let mut out = Vec::with_capacity(copies);
    while out.len() < copies {
        let (b, k, rs) = take(store, batches, want, (copies - out.len()) as u64)?;
        let secret: S = load(store, b)?;
        let (counts, sizes) = sizes(&secret);
        check_counts(b, counts, store)?;
        let bytes = read(store, rs)?;
        let parts = (0..k)
            .map(|i| copy_slices(&bytes, sizes, want, i))
            .collect::<Result<Vec<_>>>()?;
        out.extend(build(&secret, parts)?);
    }
    Ok(out)
}

/// Alice's record sizes per part.
const ALICE_SIZES: [usize; 5] = [3 * ACOM, 2 * ACOM, ACOM, ACOM, ACOM];

/// Alice: one copy's commitments from its records, in `local_layout` order:
/// Δ, then each part's records.
fn alice_session_of(
    secret: &AliceBatch,
    bytes: &[&[u8]; 5],
    prep: &Prepared,
) -> Result<HcomSender> {
    let mut st = CommitterState {
        seeds0: secret.hcom.seeds0.clone(),
        seeds1: secret.hcom.seeds1.clone(),
        next_block: secret.hcom.next_block,
        msgs: vec![secret.delta_com.m],
        t: vec![secret.delta_com.t],
    };
    for (part, (raw, k)) in bytes.iter().zip([3, 2, 1, 1, 1]).enumerate() {
        for rec in records(raw, k * ACOM, prep.want.0[part])? {
            let mut r = Reader::new(rec);
            for _ in 0..k {
                st.msgs.push(r.block()?);
                st.t.push(r.row()?);
            }
        }
    }
    HcomSender::from_state(st, prep.commit)
}

/// Alice: Build(f) for the copies of one batch from their records.
fn alice_copies(
    secret: &AliceBatch,
    parts: &[[&[u8]; 5]],
    ch: &mut Channel,
    prep: &Prepared,
    bob_pos: &[usize],
) -> Result<Vec<AliceReady>> {
    let hcoms = parts
        .iter()
        .map(|p| alice_session_of(secret, p, prep))
        .collect::<Result<Vec<_>>>()?;
    let refs: Vec<&HcomSender> = hcoms.iter().collect();
    build::alice_planned_many(&refs, ch, &prep.shared.planned)?;
    let built = prep.shared.planned.built();
    hcoms
        .iter()
        .map(|hcom| {
            let session = lstore::alice_session(hcom.state());
            let rec = lstore::alice_exec(
                built,
                &prep.shared.layout,
                hcom.state(),
                secret.delta,
                bob_pos,
            )?;
            AliceReady::new(&session.hcom, rec, prep.commit)
        })
        .collect()
}

/// Bob: Build(f) for `copies` copies from the store.
pub fn bob_builds(
    store: &mut Store,
    ch: &mut Channel,
    batches: &[BatchId],
    shared: &Arc<build::Shared>,
    bob_pos: &[usize],
    copies: usize,
    commit: CommitParams,
) -> Result<Vec<BobReady>> {
    let prep = prepare(shared, commit);
    take_copies(
        store,
        batches,
        &prep,
        copies,
        |s: &BobBatch| {
            let [bw, aw, biw, aiw] = s.widths.map(|x| x as usize);
            let sizes = [bob_and(bw, aw), bob_in(biw, aiw), BOB_ROT, BOB_OUT, ROW];
            (s.counts, sizes)
        },
        |s, parts| bob_copies(s, &parts, ch, &prep, bob_pos),
    )
}

/// Bob: one copy's check rows and material from its records.
fn bob_session_of(
    secret: &BobBatch,
    bytes: &[&[u8]; 5],
    prep: &Prepared,
) -> Result<(HcomReceiver, BobMaterial)> {
    let [bw, aw, biw, aiw] = secret.widths.map(|x| x as usize);
    let [n_and, n_in, n_rot, n_out, n_ref] = prep.want.0;
    let mut st = ReceiverState {
        watch: secret.hcom.watch,
        seeds: secret.hcom.seeds.clone(),
        next_block: secret.hcom.next_block,
        w: vec![secret.delta_w],
    };
    let mut mat = BobMaterial {
        and_gates: Flat::new(bw),
        and_auths: Flat::new(aw),
        input: Flat::new(biw),
        input_auth: Flat::new(aiw),
        rot_b: Vec::with_capacity(n_rot as usize),
        rot_r: Vec::with_capacity(n_rot as usize),
        r_lsb: Vec::with_capacity(n_rot as usize),
        v_lsb: Vec::with_capacity(n_out as usize),
        checked_auths: secret.checked_auths.clone(),
    };
    // Check rows in `local_layout` order: Δ, then each part's records.
    let mut push = |w: Row| st.w.push(w);
    for rec in records(bytes[0], bob_and(bw, aw), n_and)? {
        let mut r = Reader::new(rec);
        for _ in 0..3 {
            push(r.row()?);
        }
        for _ in 0..bw {
            mat.and_gates.items.push(r.gate()?);
        }
        for _ in 0..aw {
            mat.and_auths.items.push(r.auth()?);
        }
    }
    for rec in records(bytes[1], bob_in(biw, aiw), n_in)? {
        let mut r = Reader::new(rec);
        push(r.row()?);
        push(r.row()?);
        for _ in 0..biw {
            mat.input.items.push(r.gate()?);
        }
        for _ in 0..aiw {
            mat.input_auth.items.push(r.auth()?);
        }
    }
    for rec in records(bytes[2], BOB_ROT, n_rot)? {
        let mut r = Reader::new(rec);
        push(r.row()?);
        mat.rot_r.push(r.block()?);
        let [b, lsb] = r.flags::<2>()?;
        mat.rot_b.push(b);
        mat.r_lsb.push(lsb);
    }
    for rec in records(bytes[3], BOB_OUT, n_out)? {
        let mut r = Reader::new(rec);
        push(r.row()?);
        let [lsb] = r.flags::<1>()?;
        mat.v_lsb.push(lsb);
    }
    for rec in records(bytes[4], ROW, n_ref)? {
        push(Reader::new(rec).row()?);
    }
    if !mat.well_formed() {
        return Err(Error::Storage(
            "lego: stored buckets do not match their batch's widths".into(),
        ));
    }
    Ok((HcomReceiver::from_state(st, prep.commit)?, mat))
}

/// Bob: Build(f) for the copies of one batch from their records.
fn bob_copies(
    secret: &BobBatch,
    parts: &[[&[u8]; 5]],
    ch: &mut Channel,
    prep: &Prepared,
    bob_pos: &[usize],
) -> Result<Vec<BobReady>> {
    let (mut hcoms, mats): (Vec<_>, Vec<_>) = parts
        .iter()
        .map(|p| bob_session_of(secret, p, prep))
        .collect::<Result<Vec<_>>>()?
        .into_iter()
        .unzip();
    let built = build::bob_planned_many(&mut hcoms, ch, &prep.shared.planned)?;
    hcoms
        .iter()
        .zip(built)
        .zip(mats)
        .map(|((hcom, built), mut mat)| {
            let session = lstore::bob_session(hcom.state());
            let rec =
                lstore::bob_exec(built, &prep.shared.layout, &mut mat, hcom.state(), bob_pos)?;
            BobReady::new(&session.hcom, rec, prep.commit)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::channel::memory_pair;
    use brickyard_store::{Role, SessionId, StoreConfig};

    fn store(dir: &std::path::Path, role: Role) -> Store {
        let mut c = StoreConfig::new("lego", role, SessionId([3; 16]));
        c.key_path = Some(dir.join(format!("{role}.key")));
        Store::create(&dir.join(role.to_string()), c).unwrap()
    }

    /// Honest Alice and Bob with the given seeds (tests only).
    fn toss(a: &Store, b: &Store, seeds: (u128, u128)) -> (Result<BatchId>, Result<BatchId>) {
        let (mut ca, mut cb) = memory_pair();
        std::thread::scope(|s| {
            let h =
                s.spawn(move || agree_id(a, &mut ca, &mut Prg::from_seed(Block(seeds.0)), true));
            let y = agree_id(b, &mut cb, &mut Prg::from_seed(Block(seeds.1)), false);
            (h.join().unwrap(), y)
        })
    }

    #[test]
    fn batch_id_is_a_committed_coin_toss_and_collisions_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let (a, mut b) = (store(d.path(), Role::Alice), store(d.path(), Role::Bob));
        let (x, y) = toss(&a, &b, (1, 2));
        let id = x.unwrap();
        assert_eq!(id, y.unwrap());
        // Each side's share changes the name.
        assert_ne!(toss(&a, &b, (1, 3)).0.unwrap(), id);
        assert_ne!(toss(&a, &b, (4, 2)).0.unwrap(), id);
        // A name this store already uses is refused before anything is
        // written (here the same seeds give the same name again).
        b.add_kind(KindSpec::fixed(&id.kind("and"), 8)).unwrap();
        let (_, y) = toss(&a, &b, (1, 2));
        assert!(matches!(y, Err(Error::Config(m)) if m.contains("already used")));

        // An Alice who opens her commitment to another share, to steer the
        // name after seeing Bob's, is caught.
        let (mut ca, mut cb) = memory_pair();
        let bob = std::thread::spawn(move || {
            let r = agree_id(&b, &mut cb, &mut Prg::from_seed(Block(9)), false);
            drop(b);
            r
        });
        let mine = [7u8; 8];
        let nonce = [5u8; 32];
        ca.send_bytes(&id_commitment(&mine, &nonce)).unwrap();
        let mut theirs = [0u8; 8];
        ca.recv_bytes(&mut theirs).unwrap();
        let steered: [u8; 8] = std::array::from_fn(|i| id.0[i] ^ theirs[i]);
        ca.send_bytes(&steered).unwrap();
        ca.send_bytes(&nonce).unwrap();
        ca.flush().unwrap();
        let r = bob.join().unwrap();
        assert!(
            matches!(r, Err(Error::Cheating { check }) if check == BATCH_ID_CHECK),
            "{r:?}"
        );
    }
}
