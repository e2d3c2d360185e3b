//! Bob (P2): checks, evaluates, and is the only one to learn the output.

use super::bundle::{self, label_commit_input, label_hash_input, lambda_commit, BundlePublic};
use super::circuits::{eval_plain, D_BITS};
use super::kept::KeptBundle;
use super::record::{self, Reader};
use super::{hash_d, pads, stored, Agreed, Cheat, Setup};
use super::{
    CHECK_CIRCUIT, CHECK_INPUT, CHECK_LAMBDA, CHECK_MASK, CHECK_NO_VALID, CHECK_OT_LABEL,
    CHECK_OUTPUT, CHECK_PUBLIC_INPUT, CHECK_RECOVERY_ENC, CHECK_RECOVERY_HASH, CHECK_SEED,
};
use crate::excom::{commit, commit_blocks, Commitment, Role, VerifierAwaiting};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::steps::{step, Timer};
use brickyard_garble::{decode, evaluate_many, EvalOutput, GarblePlan, GarbledCircuit, Keep};
use brickyard_ot::KosReceiver;
use brickyard_store::{NextUnit, Store};
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use zeroize::Zeroizing;

/// How Bob's output of an execution was decided (Fig. A.3 "P2's output").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputSource {
    /// All circuits of C agreed.
    Agreed,
    /// They disagreed and Bob learnt `D`: `f(x̂, y)` with `x̂` from C'.
    Recovered,
    /// They disagreed without `D`: a circuit whose output labels all match
    /// the decommitted ones.
    ValidCircuit,
}

fn cheating(check: &'static str) -> Error {
    Error::Cheating { check }
}

/// What Bob keeps of one bucket.
struct BobBucket {
    /// Global indices: C members, then C' members.
    members: Vec<usize>,
    /// `m_{a_1} ⊕ m_{a_k}` for every member `k` (packed).
    diffs: Vec<Vec<u8>>,
    bundles: Vec<KeptBundle>,
    /// Per member, the labels of the wires of `E·y¹` (C) or `E'·d¹` (C')
    /// made offline from the `λ`-masked labels of its OT wires by the
    /// encoding's XOR gates (`XorNet`): a row is masked by `λ` iff it has
    /// an odd number of ones ([`unmask`]).
    encoded: Vec<Vec<Block>>,
    /// `y¹_j` then `d¹_j`.
    choices: Vec<bool>,
}

impl BobBucket {
    /// The stored form of bucket `k` (see `record.rs`).
    fn write(&self, k: usize, st: &Setup) -> Zeroizing<Vec<u8>> {
        let mut v = Zeroizing::new(Vec::new());
        record::put_u64(&mut v, record::BOB_BUCKET_VERSION);
        record::put_u64(&mut v, k as u64);
        for &j in &self.members {
            record::put_u64(&mut v, j as u64);
        }
        for d in &self.diffs {
            v.extend_from_slice(d);
        }
        for b in &self.bundles {
            b.write(&mut v);
        }
        for l in &self.encoded {
            record::put_blocks(&mut v, l);
        }
        v.extend_from_slice(&bundle::pack_bits(&self.choices));
        debug_assert_eq!(self.members.len(), record::members(st));
        v
    }

    fn read(bytes: &[u8], reserved: u64, st: &Setup) -> Result<BobBucket> {
        let mut r = Reader::new(bytes);
        if r.u64()? != record::BOB_BUCKET_VERSION {
            return Err(Error::malformed(
                "lindell-riva: stored bucket of another record version",
            ));
        }
        stored::check_index(r.u64()?, reserved)?;
        let n = record::members(st);
        let total = st.total() as u64;
        let members = (0..n)
            .map(|_| {
                r.u64().and_then(|j| {
                    (j < total)
                        .then_some(j as usize)
                        .ok_or_else(|| Error::malformed("lindell-riva: stored member index"))
                })
            })
            .collect::<Result<Vec<usize>>>()?;
        let diffs = (0..n)
            .map(|_| r.take(st.excom.msg_bytes).map(<[u8]>::to_vec))
            .collect::<Result<Vec<_>>>()?;
        let mut bundles = Vec::with_capacity(n);
        for i in 0..n {
            let (plan, shape) = record::part_of(st, i);
            bundles.push(KeptBundle::read(&mut r, plan, shape)?);
        }
        let encoded = (0..n)
            .map(|i| r.blocks(record::encoded_of(st, i)))
            .collect::<Result<Vec<_>>>()?;
        let choices = r.bits(st.ots_per_bucket())?;
        r.done()?;
        Ok(BobBucket {
            members,
            diffs,
            bundles,
            encoded,
            choices,
        })
    }
}

/// The bundles Bob received in the preprocessing run, until bucketing:
/// in memory, or (with a store) spilled to a private file beside it, one
/// bundle at a time, with only their digests in memory — so whole
/// garbled circuits never all sit in RAM.
enum Held {
    Memory(Vec<Option<Kept>>),
    Spill {
        file: std::fs::File,
        path: std::path::PathBuf,
        /// Per bundle: offset, length, digest of the stored form.
        at: Vec<(u64, usize, [u8; 32])>,
        end: u64,
    },
}

impl Held {
    fn new(spill_dir: Option<&std::path::Path>) -> Result<Held> {
        let Some(dir) = spill_dir else {
            return Ok(Held::Memory(Vec::new()));
        };
        use std::os::unix::fs::OpenOptionsExt;
        let path = dir.join("lr-bundles.spill");
        // A spill a killed run left behind holds no material anyone uses.
        let _ = std::fs::remove_file(&path);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
            .map_err(|e| Error::Storage(format!("{}: {e}", path.display())))?;
        Ok(Held::Spill {
            file,
            path,
            at: Vec::new(),
            end: 0,
        })
    }

    fn push(&mut self, b: KeptBundle) -> Result<()> {
        match self {
            Held::Memory(v) => v.push(Some(Kept::Whole(b))),
            Held::Spill {
                file,
                path,
                at,
                end,
            } => {
                use std::io::Write;
                let mut bytes = Vec::new();
                b.write(&mut bytes);
                file.write_all(&bytes)
                    .map_err(|e| Error::Storage(format!("{}: {e}", path.display())))?;
                at.push((*end, bytes.len(), *blake3::hash(&bytes).as_bytes()));
                *end += bytes.len() as u64;
            }
        }
        Ok(())
    }

    /// Keeps only the digest of a bundle Bob's cut checks (never taken
    /// into a bucket: `take` refuses it).
    fn push_digest(&mut self, b: &BundlePublic) {
        let d = b.digest();
        match self {
            Held::Memory(v) => v.push(Some(Kept::Digest(d))),
            Held::Spill { at, end, .. } => at.push((*end, 0, d)),
        }
    }

    /// The digest of checked bundle `j` as received (what its
    /// regeneration must hash to).
    fn checked_digest(&self, j: usize) -> Option<[u8; 32]> {
        match self {
            Held::Memory(v) => match v.get(j).and_then(Option::as_ref) {
                Some(Kept::Digest(d)) => Some(*d),
                _ => None,
            },
            Held::Spill { at, .. } => at.get(j).map(|a| a.2),
        }
    }

    fn take(&mut self, j: usize, st: &Setup) -> Result<KeptBundle> {
        match self {
            Held::Memory(v) => match v.get_mut(j).and_then(Option::take) {
                Some(Kept::Whole(b)) => Ok(b),
                _ => Err(Error::malformed("bucket member missing")),
            },
            Held::Spill { file, path, at, .. } => {
                use std::os::unix::fs::FileExt;
                let &(off, len, digest) = at
                    .get(j)
                    .ok_or_else(|| Error::malformed("bucket member missing"))?;
                let mut bytes = vec![0u8; len];
                file.read_exact_at(&mut bytes, off)
                    .map_err(|e| Error::Storage(format!("{}: {e}", path.display())))?;
                // Our own file, but read back as untrusted bytes.
                if *blake3::hash(&bytes).as_bytes() != digest {
                    return Err(Error::Storage(format!(
                        "{}: spilled bundle changed on disk",
                        path.display()
                    )));
                }
                let (plan, shape) = st.of(j);
                let mut r = Reader::new(&bytes);
                let b = KeptBundle::read(&mut r, plan, shape)?;
                r.done()?;
                Ok(b)
            }
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Held::Spill { path, .. } = self {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// A checked bundle to regenerate: its index, the mask F_ExCom∆ZK opened,
/// the opened seed and the digest of what Alice sent.
struct CheckJob {
    j: usize,
    mask: Vec<u8>,
    seed: Block,
    digest: [u8; 32],
}

/// Per bundle, where its OT-fed wires' choice bits lie in `choices`
/// (offset, length): bucket `k`'s `y¹` for a member of C, its `d¹` for
/// one of C'. Bundles in no bucket (checked) get an empty range.
fn kept_choices(
    st: &Setup,
    buckets: &[Vec<usize>],
    choices: &[bool],
) -> Result<Vec<(usize, usize)>> {
    let per = st.ots_per_bucket();
    if buckets.len() != st.buckets() || choices.len() != per * buckets.len() {
        return Err(Error::config("lindell-riva: OTs missing"));
    }
    let mut at = vec![(0, 0); st.total()];
    for (k, members) in buckets.iter().enumerate() {
        for &j in members {
            let slot = at
                .get_mut(j)
                .ok_or_else(|| Error::config("lindell-riva: bucket member index"))?;
            *slot = if j < st.m() {
                (k * per, st.shape.ot)
            } else {
                (k * per + st.shape.ot, st.shape2.ot)
            };
        }
    }
    Ok(at)
}

/// Regenerates every checked bundle from its seed into one reused buffer:
/// its mask must be the one F_ExCom∆ZK opened (`check-mask`) and its
/// bytes those Alice sent (`check-circuit`).
fn check_bundles(st: &Setup, jobs: Vec<CheckJob>, mut regen: BundlePublic) -> Result<()> {
    let mut scratch = bundle::Scratch::new();
    for job in jobs {
        let (plan, shape) = st.of(job.j);
        let secret = bundle::generate_into(plan, shape, job.j, job.seed, &mut regen, &mut scratch)?;
        if secret.mask_bytes() != job.mask {
            return Err(cheating(CHECK_MASK));
        }
        if regen.digest() != job.digest {
            return Err(cheating(CHECK_CIRCUIT));
        }
    }
    Ok(())
}

/// A bundle in memory: kept (`kept.rs`) if it may be evaluated, its
/// digest if Bob's cut checks it (it is only compared with its
/// regeneration).
enum Kept {
    Whole(KeptBundle),
    Digest([u8; 32]),
}

/// Bob's state across the phases.
pub struct Bob {
    agreed: Agreed,
    setup: Option<Setup>,
    prg: Prg,
    kos: Option<KosReceiver>,
    choices: Vec<bool>,
    keys: Zeroizing<Vec<Block>>,
    buckets: Vec<Option<BobBucket>>,
    next: usize,
    /// Buckets in a store instead of `buckets` (see `stored.rs`).
    store: Option<Box<Store>>,
    /// The store's next bucket, read before its execution.
    ahead: NextUnit<BobBucket>,
    cheat: Cheat,
    /// The last execution's bucket, freed by [`Bob::release_spent`]
    /// (after the execution's timing) or with the party.
    spent: Option<Arc<BobBucket>>,
    /// The thread checking label batches beside executions (started by
    /// the first one).
    checker: Option<Checker>,
    last_source: Option<OutputSource>,
    last_recovered: Option<Vec<bool>>,
}

impl Bob {
    /// A fresh party for the agreed run.
    pub fn new(agreed: Agreed) -> Self {
        Self::with_prg(agreed, Prg::new())
    }

    /// With a given PRG (fixed seeds in tests only).
    pub fn with_prg(agreed: Agreed, prg: Prg) -> Self {
        Bob {
            agreed,
            setup: None,
            prg,
            kos: None,
            choices: Vec::new(),
            keys: Zeroizing::new(Vec::new()),
            buckets: Vec::new(),
            next: 0,
            store: None,
            ahead: NextUnit::default(),
            cheat: Cheat::None,
            spent: None,
            checker: None,
            last_source: None,
            last_recovered: None,
        }
    }

    /// Keeps the buckets in `store`: a preprocessing run writes them there,
    /// a later run (whose setup the store recorded) takes them from it.
    pub fn attach_store(&mut self, mut store: Store) -> Result<()> {
        if let Some(rec) = stored::attach(&mut store)? {
            let st = Setup::from_record(&self.agreed, &rec)?;
            st.evaluated()?;
            self.setup = Some(st);
        }
        self.store = Some(Box::new(store));
        Ok(())
    }

    /// Durably poisons the attached store (the peer cheated).
    pub fn poison_store(&mut self, check: &str) -> Result<()> {
        match &mut self.store {
            Some(s) => s.poison(check),
            None => Ok(()),
        }
    }

    /// With a store: the next-bucket handshake for `want` executions.
    pub fn begin_online(&mut self, ch: &mut Channel, want: u64) -> Result<()> {
        let Some(s) = &mut self.store else {
            return Ok(());
        };
        let rec = self.setup.as_ref().map(Setup::record).ok_or_else(|| {
            Error::Exhausted(
                "lindell-riva: this store holds no finished preprocessing (no setup record)".into(),
            )
        })?;
        stored::begin(ch, s, &rec, want)?;
        self.ahead.begin(want);
        if let Some(st) = &self.setup {
            self.ahead.fill(s, stored::UNIT, |k, p| {
                BobBucket::read(stored::one(&p)?, k, st)
            });
        }
        Ok(())
    }

    /// The next unused bucket, used once.
    fn take_bucket(&mut self, st: &Setup) -> Result<BobBucket> {
        let Some(s) = &mut self.store else {
            let k = self.next;
            let bk = self
                .buckets
                .get_mut(k)
                .and_then(Option::take)
                .ok_or_else(|| Error::Exhausted("lindell-riva: every bucket was used".into()))?;
            self.next += 1;
            return Ok(bk);
        };
        self.ahead.take(s, stored::UNIT, |k, p| {
            BobBucket::read(stored::one(&p)?, k, st)
        })
    }

    /// Frees the last execution's bucket (megabytes of tables whose free
    /// returns pages to the kernel) and reads the store's next one ahead:
    /// both kept off the execution's critical path.
    pub fn release_spent(&mut self) {
        self.spent = None;
        if let (Some(s), Some(st)) = (&mut self.store, &self.setup) {
            self.ahead.fill(s, stored::UNIT, |k, p| {
                BobBucket::read(stored::one(&p)?, k, st)
            });
        }
    }

    /// Adversary mode: the strategy this party follows.
    #[cfg(feature = "adversary")]
    pub fn set_cheat(&mut self, cheat: Cheat) {
        self.cheat = cheat;
    }

    /// How the last execution's output was decided.
    pub fn last_source(&self) -> Option<OutputSource> {
        self.last_source
    }

    /// The majority output of C' in the last execution (`x` if Bob learnt
    /// `D`, else 0 unless Alice cheated in a majority of C').
    pub fn last_recovered(&self) -> Option<&[bool]> {
        self.last_recovered.as_deref()
    }

    /// The agreed setup (after [`Bob::setup`]).
    pub fn setup_info(&self) -> Option<&Setup> {
        self.setup.as_ref()
    }

    /// Fig. A.1 Setup: choose E, E'; KOS base OTs.
    pub fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        let st = Setup::bob_choose(ch, &self.agreed, &mut self.prg, self.cheat)?;
        st.evaluated()?;
        self.setup = Some(st);
        self.kos = Some(KosReceiver::setup(ch, &mut self.prg)?);
        Ok(())
    }

    /// Random OTs with Bob's random `y¹_j`, `d¹_j` as choice bits.
    pub fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        let st = self
            .setup
            .as_ref()
            .ok_or_else(|| Error::config("lindell-riva: setup did not run"))?;
        let n = st.ots_per_bucket() * st.buckets();
        self.choices = self.prg.random_bits(n);
        let kos = self
            .kos
            .as_mut()
            .ok_or_else(|| Error::config("lindell-riva: setup did not run"))?;
        self.keys = Zeroizing::new(kos.random(ch, &self.choices)?);
        Ok(())
    }

    /// Fig. A.2: commit, receive bundles, F_ExCom∆ZK, check, OT labels.
    pub fn dependent(&mut self, ch: &mut Channel) -> Result<()> {
        let setup = self
            .setup
            .take()
            .ok_or_else(|| Error::config("lindell-riva: setup did not run"))?;
        let r = self.offline(ch, &setup);
        self.setup = Some(setup);
        r
    }

    fn offline(&mut self, ch: &mut Channel, st: &Setup) -> Result<()> {
        let per = st.ots_per_bucket();
        if self.keys.len() != per * st.buckets() {
            return Err(Error::config("lindell-riva: OTs missing"));
        }
        #[allow(unused_mut)]
        let (mut v, challenges) = {
            #[allow(unused_mut)]
            let mut prg = &mut self.prg;
            #[cfg(feature = "adversary")]
            let mut rigged = Prg::from_seed(super::RIGGED_SEED);
            #[cfg(feature = "adversary")]
            if self.cheat.rigs_bob() {
                prg = &mut rigged;
            }
            VerifierAwaiting::start(ch, st.excom, prg)?
        };
        #[cfg(feature = "adversary")]
        if self.cheat == Cheat::BadSelectionOpen {
            v.set_cheat(crate::excom::VerifierCheat::BadSelectionOpen);
        }
        let total = st.total();
        let mut bundles = Held::new(self.store.as_ref().map(|s| s.dir()))?;
        let mut seed_commits = Vec::with_capacity(total);
        // A bundle our cut checks is only hashed (received into one
        // reused buffer); the others are kept for the buckets.
        let checked = v.checked();
        let choices = kept_choices(st, &v.buckets(), &self.choices)?;
        let mut scratch = BundlePublic::empty();
        let mut ot = Vec::new();
        step("1 receive M + M' bundles", || {
            for (j, &check) in checked.iter().enumerate().take(total) {
                let (plan, shape) = st.of(j);
                if check {
                    scratch.recv_into(ch, plan, shape)?;
                    bundles.push_digest(&scratch);
                } else {
                    let c = choices
                        .get(j)
                        .and_then(|&(at, n)| self.choices.get(at..at + n))
                        .ok_or_else(|| Error::config("lindell-riva: bundle in no bucket"))?;
                    bundles.push(KeptBundle::recv(ch, plan, shape, c, &mut ot)?)?;
                }
                seed_commits.push(bundle::recv_commitment(ch)?);
            }
            Ok::<_, Error>(())
        })?;
        if seed_commits.len() != total {
            return Err(Error::config("lindell-riva: selection size"));
        }
        let (session, opened) = step("2 F_ExCom∆ZK commitments, open selection", || {
            v.receive_commitments(ch)
        })?;
        // Checked bundles: the seed opens its commitment (checked here),
        // and everything regenerated from it must equal what was sent.
        let jobs = step("3 open checked seeds", || {
            let mut jobs = Vec::with_capacity(opened.len());
            for (j, mask) in opened {
                let mut seed = [0u8; 16];
                let mut r = [0u8; 16];
                ch.recv_bytes(&mut seed)?;
                ch.recv_bytes(&mut r)?;
                if commit(Role::Seed(j as u64), &seed, &r) != seed_commits[j] {
                    return Err(cheating(CHECK_SEED));
                }
                let digest = bundles
                    .checked_digest(j)
                    .ok_or_else(|| Error::malformed("lindell-riva: checked bundle missing"))?;
                jobs.push(CheckJob {
                    j,
                    mask,
                    seed: Block::from_bytes(seed),
                    digest,
                });
            }
            Ok(jobs)
        })?;
        // The regeneration runs on a thread of its own while this one goes
        // on with F_ExCom∆ZK and the OTs: it needs nothing from Alice, and
        // no message of ours depends on its outcome (Alice sees the abort
        // at the end of the phase instead of in its middle; nothing of
        // Bob's input is used offline). Its result is taken before the
        // buckets are committed to a store, and its checks come first.
        let (main, regen) = std::thread::scope(|sc| {
            let regen = std::thread::Builder::new()
                .name("bob-check".into())
                .spawn_scoped(sc, || check_bundles(st, jobs, scratch));
            let main = (|| {
                // F_ExCom∆ZK: all buckets' differences, then all
                // challenges, then all openings (no difference is accepted
                // after its challenge).
                let proven = step("4 F_ExCom∆ZK verify", || {
                    let mut claims = Vec::with_capacity(challenges.len());
                    for c in challenges {
                        claims.push(session.receive_differences(ch, c)?);
                    }
                    let mut opened_claims = Vec::with_capacity(claims.len());
                    for c in claims {
                        opened_claims.push(session.open_challenge(ch, c)?);
                    }
                    let mut proven = Vec::with_capacity(opened_claims.len());
                    for o in opened_claims {
                        proven.push(session.verify(ch, o)?);
                    }
                    Ok::<_, Error>(proven)
                })?;
                // OT label transfer, each label checked against its commitment.
                if let Some(s) = &mut self.store {
                    stored::save_setup(s, &st.record())?;
                }
                step("5 OT labels, check, keep buckets", || {
                    self.receive_ot_labels(ch, st, proven, &mut bundles)
                })
            })();
            let regen = step("6 wait for the checked bundles' thread", || match regen {
                Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
                Err(e) => Err(Error::config(format!("lindell-riva: check thread: {e}"))),
            });
            (main, regen)
        });
        regen?;
        let kept = main?;
        if let Some(s) = &mut self.store {
            s.commit()?;
        }
        drop(bundles);
        self.keys = Zeroizing::new(Vec::new());
        self.buckets = kept;
        self.next = 0;
        Ok(())
    }

    /// Fig. A.2 "Running OTs" per bucket, each label checked against its
    /// `H2` commitment, then the bucket kept (in memory or one record in
    /// the store).
    fn receive_ot_labels(
        &mut self,
        ch: &mut Channel,
        st: &Setup,
        proven: Vec<crate::excom::ProvenDifferences>,
        bundles: &mut Held,
    ) -> Result<Vec<Option<BobBucket>>> {
        let per = st.ots_per_bucket();
        let ev = st.evaluated()?;
        let mut kept = Vec::with_capacity(proven.len());
        // Buffers reused by every bucket: the encrypted messages of one
        // part's OTs (wiped when dropped), the commitment inputs, the
        // commitments they must hash to and those they hash to.
        let mut enc = Zeroizing::new(Vec::new());
        let mut blocks = Vec::new();
        let mut want = Vec::new();
        let mut got = Vec::new();
        // Per part (C, C'), the labels of its OT wires (wire `t` of its
        // member `m` at `t * count + m`), and the slots of the encoding's
        // network run on them.
        let mut fed: [Vec<Block>; 2] = Default::default();
        let mut slots = Vec::new();
        for (k, pd) in proven.into_iter().enumerate() {
            let members = pd.members.clone();
            let mut diffs = vec![vec![0u8; st.excom.msg_bytes]];
            for d in &pd.deltas {
                let prev = diffs.last().cloned().unwrap_or_default();
                diffs.push(prev.iter().zip(d.iter()).map(|(a, b)| a ^ b).collect());
            }
            let bs: Vec<KeptBundle> = members
                .iter()
                .map(|&j| bundles.take(j, st))
                .collect::<Result<_>>()?;
            // Every label of the bucket is checked against its `H2`
            // commitment in one batch once the bucket's messages are in.
            blocks.clear();
            want.clear();
            let choices = self.choices[k * per..(k + 1) * per].to_vec();
            let keys = &self.keys[k * per..(k + 1) * per];
            let mut first = 0;
            let parts = [(0..st.b(), st.shape), (st.b()..members.len(), st.shape2)];
            for (p, (range, shape)) in parts.into_iter().enumerate() {
                let count = range.len();
                fed[p].clear();
                fed[p].resize(count * shape.ot, Block::ZERO);
                // Per OT both messages (`count` labels each); all of the
                // part's OTs in one read, only the chosen messages padded.
                let row = 32 * count;
                enc.resize(row * shape.ot, 0);
                ch.recv_bytes(&mut enc)?;
                let (choices, keys) = (&choices[first..], &keys[first..]);
                for (t, (msg, &c)) in enc.chunks_exact_mut(row).zip(choices).enumerate() {
                    let half = 16 * count * c as usize;
                    pads::xor_pad(keys[t], &mut msg[half..half + 16 * count]);
                }
                // Member by member, so each bundle's commitments are read
                // in order (the bundles arrived long ago: out of cache).
                for (m, i) in range.enumerate() {
                    // The commitments at our choices, kept as the bundle
                    // arrived (`kept.rs`).
                    let ours = &bs[i].chosen;
                    if ours.len() != shape.ot {
                        return Err(Error::malformed("lindell-riva: bundle shape"));
                    }
                    for (t, (&com, &c)) in ours.iter().zip(choices).enumerate() {
                        let at = row * t + 16 * count * c as usize + 16 * m;
                        let mut lab = [0u8; 16];
                        lab.copy_from_slice(&enc[at..at + 16]);
                        let lab = Block::from_bytes(lab);
                        blocks.push(label_hash_input(members[i], shape.x + t, c as u8, lab));
                        want.push(com);
                        fed[p][t * count + m] = lab;
                    }
                }
                first += shape.ot;
            }
            got.resize(blocks.len(), Commitment([0; 32]));
            commit_blocks(&blocks, &mut got);
            if got != want {
                return Err(cheating(CHECK_OT_LABEL));
            }
            // The labels of E·y¹, E'·d¹: the encoding's XOR gates, run
            // now on labels Bob holds instead of online in C and C'.
            let encoded = step("5.1 (in 5) labels of E·y¹, E'·d¹", || {
                let mut e = ev.net.apply_many(st.b(), &fed[0], &mut slots)?;
                e.extend(
                    ev.net2
                        .apply_many(members.len() - st.b(), &fed[1], &mut slots)?,
                );
                Ok::<_, Error>(e)
            })?;
            let bk = BobBucket {
                members,
                diffs,
                bundles: bs,
                encoded,
                choices,
            };
            match &mut self.store {
                // One bucket at a time to disk (see `record.rs`).
                Some(s) => s.append_blob(stored::KIND, &bk.write(k, st))?,
                None => kept.push(Some(bk)),
            }
        }
        Ok(kept)
    }

    /// Fig. A.3 on the next unused bucket, Bob's input `y`; returns `f(x, y)`.
    pub fn online(&mut self, ch: &mut Channel, y: &[bool]) -> Result<Vec<bool>> {
        let st = self
            .setup
            .take()
            .ok_or_else(|| Error::config("lindell-riva: setup did not run"))?;
        let r = self.online_with(ch, &st, y);
        self.setup = Some(st);
        r
    }

    fn online_with(&mut self, ch: &mut Channel, st: &Setup, y: &[bool]) -> Result<Vec<bool>> {
        self.last_source = None;
        self.last_recovered = None;
        if y.len() != st.bob.len() {
            return Err(Error::config("lindell-riva: wrong input length"));
        }
        if self.checker.is_none() {
            self.checker = Some(Checker::start()?);
        }
        let checks = match &self.checker {
            Some(c) => Arc::clone(&c.shared),
            None => return Err(Error::config("lindell-riva: no checker thread")),
        };
        let (bk, y2) = step("b1 take bucket, y² = y ⊕ E·y¹, send", || {
            let bk = Arc::new(self.take_bucket(st)?);
            let y2 = st.e.correction(y, &bk.choices[..st.shape.ot])?;
            ch.send_bits(&y2)?;
            ch.flush()?;
            Ok::<_, Error>((bk, y2))
        })?;
        let (b, nx, nout) = (st.b(), st.shape.x, st.outputs());
        let ev = st.evaluated()?;
        // E'·d¹ depends on the bucket alone: computed now, while flight 1
        // travels, so that d² = d ⊕ E'·d¹ is one XOR once d is known.
        let ed1 = Zeroizing::new(step("b2 wait for flight 1 (x̂, labels of x)", || {
            st.e2.apply(&bk.choices[st.shape.ot..])
        })?);
        // Flight 1 (x̂, the labels of x in every circuit of C and C', the
        // recovery values, H(D)), then flight 2 (the labels of y² in C,
        // the λs of C). Each batch of labels goes to the checker thread as
        // it arrives, so the checks of flight 1 run while flight 2 is on
        // its way and all of them beside the evaluation.
        let (opened, rest) = with_checker(&checks, "b6 wait for C label checks", |checks| {
            let xh = step("b2 wait for flight 1 (x̂, labels of x)", || {
                ch.recv_bits(nx)
            })?;
            let (mut inputs, enc, hd) = step("b3 receive labels of x, recovery values", || {
                let mut inputs: Vec<Vec<Block>> = Vec::with_capacity(bk.members.len());
                let mut batches = Vec::with_capacity(bk.members.len());
                for i in 0..bk.members.len() {
                    let shape = if i < b { st.shape } else { st.shape2 };
                    let m = bundle::unpack_bits(&bk.diffs[i], nx);
                    let xi: Vec<bool> = xh.iter().zip(&m).map(|(a, b)| a ^ b).collect();
                    let mut labs = Vec::with_capacity(shape.inputs());
                    batches.push(recv_labels(ch, &bk, i, 0, &xi, CHECK_INPUT, &mut labs)?);
                    labs.extend_from_slice(&bk.encoded[i]);
                    inputs.push(labs);
                }
                checks.send(batches);
                let enc = ch.recv_block_vec(2 * nout * b)?;
                let mut hd = [0u8; 32];
                ch.recv_bytes(&mut hd)?;
                Ok::<_, Error>((inputs, enc, hd))
            })?;
            let inputs2 = inputs.split_off(b);
            step("b4 wait for and receive flight 2 (labels of y²)", || {
                let base = nx + st.shape.ot;
                let mut batches = Vec::with_capacity(b);
                for (i, labs) in inputs.iter_mut().enumerate() {
                    batches.push(recv_public_labels(ch, &bk, i, base, &y2, labs)?);
                }
                checks.send(batches);
                Ok::<_, Error>(())
            })?;
            let outs = step("b5 λ, evaluate C", || {
                // λ_i only now, after every label.
                for (i, labs) in inputs.iter_mut().enumerate() {
                    let lam = recv_lambda(ch, &bk, i)?;
                    unmask(labs, lam, nx, ev.net.odd());
                }
                // Evaluate all B circuits, interleaved a stage at a time.
                evaluate_bucket(&ev.plan, &bk.bundles[..b], &inputs)
            })?;
            Ok((inputs2, enc, hd, outs))
        });
        opened?;
        let (mut inputs2, enc, hd, outs) = rest?;
        let step7 = Timer::start("b7 decode, learn D, send d²");
        let mut out_labels = Vec::with_capacity(b);
        let mut out_bits = Vec::with_capacity(b);
        for (o, bundle) in outs.into_iter().zip(&bk.bundles) {
            out_bits.push(decode(&o.output_labels, &bundle.decoding)?);
            out_labels.push(o.output_labels);
        }
        // Two circuits disagreeing on a wire give R_v and R_v ⊕ D.
        let mut learnt = None;
        'wires: for v in 0..nout {
            for i0 in (0..b).filter(|&i| !out_bits[i][v]) {
                for i1 in (0..b).filter(|&i| out_bits[i][v]) {
                    let r0 = out_labels[i0][v] ^ enc[2 * (i0 * nout + v)];
                    let r1 = out_labels[i1][v] ^ enc[2 * (i1 * nout + v) + 1];
                    if hash_d(r0 ^ r1) == hd {
                        learnt = Some(r0 ^ r1);
                        break 'wires;
                    }
                }
            }
        }
        let mut d = learnt.unwrap_or_else(|| self.prg.random_block());
        if self.cheat == Cheat::GuessD {
            d = self.prg.random_block();
        }
        let d_bits: Vec<bool> = (0..D_BITS).map(|i| d.bit(i)).collect();
        let d2: Vec<bool> = d_bits.iter().zip(ed1.iter()).map(|(a, b)| a ^ b).collect();
        ch.send_bits(&d2)?;
        ch.flush()?;
        step7.stop();
        d = Block::ZERO;
        let _ = d;
        // D, the labels of D and d² in C', the λs of C', and the
        // output-label decommitments.
        let (opened, rest) = with_checker(&checks, "b11 wait for C' label checks", |checks| {
            let big_d = step("b8 wait for the last flight (D)", || ch.recv_block())?;
            let public: Vec<bool> = (0..D_BITS)
                .map(|i| big_d.bit(i))
                .chain(d2.iter().copied())
                .collect();
            step("b9 receive C' labels", || {
                let base = nx + st.shape2.ot;
                let mut batches = Vec::with_capacity(inputs2.len());
                for (t, labs) in inputs2.iter_mut().enumerate() {
                    batches.push(recv_public_labels(ch, &bk, b + t, base, &public, labs)?);
                }
                checks.send(batches);
                Ok::<_, Error>(())
            })?;
            step("b10 λ, output decommitments, evaluate C'", || {
                for (t, labs) in inputs2.iter_mut().enumerate() {
                    let lam = recv_lambda(ch, &bk, b + t)?;
                    unmask(labs, lam, nx, ev.net2.odd());
                }
                let mut pairs_all = Vec::with_capacity(b);
                for i in 0..b {
                    let flat = ch.recv_block_vec(2 * nout)?;
                    let mut o = [0u8; 16];
                    ch.recv_bytes(&mut o)?;
                    let pairs: Vec<(Block, Block)> =
                        flat.chunks_exact(2).map(|p| (p[0], p[1])).collect();
                    let c = commit(
                        Role::Output(bk.members[i] as u64),
                        &bundle::output_bytes(&pairs),
                        &o,
                    );
                    if c != bk.bundles[i].outputs {
                        return Err(cheating(CHECK_OUTPUT));
                    }
                    pairs_all.push(pairs);
                }
                // One R_v per wire for the whole bucket: taken from circuit 0
                // and checked in every circuit, both halves.
                for v in 0..nout {
                    let r_v = enc[2 * v] ^ pairs_all[0][v].0;
                    for (i, pairs) in pairs_all.iter().enumerate() {
                        let (w0, w1) = pairs[v];
                        let (e0, e1) = (enc[2 * (i * nout + v)], enc[2 * (i * nout + v) + 1]);
                        if e0 ^ w0 != r_v || e1 ^ w1 != r_v ^ big_d {
                            return Err(cheating(CHECK_RECOVERY_ENC));
                        }
                    }
                }
                if hash_d(big_d) != hd {
                    return Err(cheating(CHECK_RECOVERY_HASH));
                }
                // C': majority output (the B' copies interleaved).
                let outs2 = evaluate_bucket(&ev.plan2, &bk.bundles[b..], &inputs2)?;
                Ok((pairs_all, outs2))
            })
        });
        let step12 = Timer::start("b12 majority, output");
        opened?;
        let (pairs_all, outs2) = rest?;
        let mut votes: Vec<(Vec<bool>, usize)> = Vec::new();
        for (o, bundle) in outs2.iter().zip(&bk.bundles[b..]) {
            let bits = decode(&o.output_labels, &bundle.decoding)?;
            match votes.iter_mut().find(|(v, _)| *v == bits) {
                Some(e) => e.1 += 1,
                None => votes.push((bits, 1)),
            }
        }
        let recovered = votes
            .into_iter()
            .max_by_key(|(_, n)| *n)
            .map(|(v, _)| v)
            .unwrap_or_else(|| vec![false; nx]);
        self.last_recovered = Some(recovered.clone());
        // P2's output.
        let (out, source) = if out_bits.iter().all(|o| *o == out_bits[0]) {
            (out_bits[0].clone(), OutputSource::Agreed)
        } else if learnt.is_some() {
            (
                eval_plain(&st.f, &st.alice, &st.bob, &recovered, y)?,
                OutputSource::Recovered,
            )
        } else {
            let valid = (0..b).find_map(|i| {
                out_labels[i]
                    .iter()
                    .zip(&pairs_all[i])
                    .map(|(&l, &(w0, w1))| {
                        if l == w0 {
                            Some(false)
                        } else if l == w1 {
                            Some(true)
                        } else {
                            None
                        }
                    })
                    .collect::<Option<Vec<bool>>>()
            });
            (
                valid.ok_or_else(|| cheating(CHECK_NO_VALID))?,
                OutputSource::ValidCircuit,
            )
        };
        self.last_source = Some(source);
        self.spent = Some(bk);
        step12.stop();
        Ok(out)
    }
}

/// Takes `λ` off a member's input labels (`x`, then the rows of the
/// encoding, then the public wires): every label Alice sent is `λ ⊕ W`,
/// and a row of the encoding, the XOR of the masked labels of its ones,
/// is masked iff it has an odd number of them (`odd`).
fn unmask(labs: &mut [Block], lam: Block, nx: usize, odd: &[bool]) {
    for (at, l) in labs.iter_mut().enumerate() {
        let rows = at >= nx && at < nx + odd.len();
        if !rows || odd[at - nx] {
            *l ^= lam;
        }
    }
}

/// Evaluates the garbled circuits of `bundles` (copies of `plan`) on
/// `inputs`, side by side (see `brickyard_garble::evaluate_many`).
fn evaluate_bucket(
    plan: &GarblePlan,
    bundles: &[KeptBundle],
    inputs: &[Vec<Block>],
) -> Result<Vec<EvalOutput>> {
    let jobs: Vec<(&GarbledCircuit, &[Block])> = bundles
        .iter()
        .zip(inputs)
        .map(|(bd, l)| (&bd.gc, &l[..]))
        .collect();
    evaluate_many(plan, &jobs, Keep::Outputs)
}

/// Label openings received but not checked yet. The checker builds the
/// hash inputs itself (a 64-byte block and the wanted commitment per
/// wire, read from the cold bucket), so that work leaves the critical
/// path with the hashing.
struct Openings {
    /// The bucket, its member `i` (bundle index `j`) and the first wire
    /// of the batch.
    bk: Arc<BobBucket>,
    i: usize,
    j: usize,
    base: usize,
    /// Per wire, the bit whose commitment position must open.
    bits: Vec<bool>,
    got: Received,
    check: &'static str,
}

/// What arrived for a batch of labels.
enum Received {
    /// `label ‖ opening` per wire (Alice's input wires).
    WithOpenings(Vec<u8>),
    /// The labels alone, each the preimage of an `H2` commitment.
    Labels(Vec<Block>),
}

impl Openings {
    /// What wires `base..base + bits.len()` of member `i` must open, once
    /// the bucket is known to hold their commitments.
    fn of(
        bk: &Arc<BobBucket>,
        i: usize,
        base: usize,
        bits: &[bool],
        got: Received,
        check: &'static str,
    ) -> Result<Openings> {
        commitments(bk, i, base, bits.len())?;
        Ok(Openings {
            bk: Arc::clone(bk),
            i,
            j: bk.members[i],
            base,
            bits: bits.to_vec(),
            got,
            check,
        })
    }

    /// Whether every label opens its commitment (else the batch's check).
    fn verify(&self) -> Result<()> {
        let n = self.bits.len();
        let mut blocks = Vec::with_capacity(n);
        let mut want = Vec::with_capacity(n);
        let pairs = commitments(&self.bk, self.i, self.base, n)?;
        for (w, (&bit, pair)) in self.bits.iter().zip(pairs).enumerate() {
            let (wire, pos) = (self.base + w, bit as u8);
            blocks.push(match &self.got {
                Received::WithOpenings(flat) => {
                    let (lab, o) = split_opening(&flat[32 * w..32 * w + 32]);
                    label_commit_input(self.j, wire, pos, lab, &o)
                }
                Received::Labels(labs) => label_hash_input(self.j, wire, pos, labs[w]),
            });
            want.push(pair[bit as usize]);
        }
        if all_open(&blocks, &want) {
            Ok(())
        } else {
            Err(cheating(self.check))
        }
    }
}

/// `label ‖ opening` (32 bytes) split.
fn split_opening(c: &[u8]) -> (Block, [u8; 16]) {
    let mut l = [0u8; 16];
    l.copy_from_slice(&c[..16]);
    let mut o = [0u8; 16];
    o.copy_from_slice(&c[16..32]);
    (Block::from_bytes(l), o)
}

/// Bob's checker thread, started once for the run and fed label batches
/// by every execution (see [`with_checker`]): a thread started per
/// execution cost more than the checks it ran beside (its start and
/// first wake-up, on a busy machine hundreds of µs).
struct Checker {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// What Bob's thread and the checker thread share.
struct Shared {
    state: Mutex<Queue>,
    /// A batch was queued, or the checker is to end.
    ready: Condvar,
    /// A batch was verified.
    done: Condvar,
}

/// The batches of the current execution step.
#[derive(Default)]
struct Queue {
    /// Batches not taken yet, with their position in the order handed.
    batches: VecDeque<(usize, Openings)>,
    handed: usize,
    finished: usize,
    /// The failed batch first in the order handed, with its error.
    failed: Option<(usize, Error)>,
    shutdown: bool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues the batches of one flight (one wake-up of the checker: each
    /// is a system call on Bob's thread).
    fn send(&self, batches: Vec<Openings>) {
        let mut q = self.lock();
        for o in batches {
            let at = q.handed;
            q.handed += 1;
            q.batches.push_back((at, o));
        }
        drop(q);
        self.ready.notify_one();
    }

    /// Verifies a batch taken from the queue and counts it, keeping the
    /// first failure in the order handed (so two threads find the one a
    /// single thread would).
    fn verify(&self, at: usize, o: Openings) {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| o.verify()))
            .unwrap_or_else(|_| Err(Error::malformed("lindell-riva: label check failed")));
        drop(o);
        let mut q = self.lock();
        if let Err(e) = r {
            if q.failed.as_ref().is_none_or(|(f, _)| at < *f) {
                q.failed = Some((at, e));
            }
        }
        q.finished += 1;
        // Bob's thread waits only for the last one.
        let last = q.finished == q.handed;
        drop(q);
        if last {
            self.done.notify_all();
        }
    }

    /// The checker thread: verifies batches as they come until shut down.
    fn run(&self) {
        let mut q = self.lock();
        loop {
            if q.shutdown {
                return;
            }
            match q.batches.pop_front() {
                Some((at, o)) => {
                    drop(q);
                    self.verify(at, o);
                    q = self.lock();
                }
                None => q = self.ready.wait(q).unwrap_or_else(PoisonError::into_inner),
            }
        }
    }

    /// The verdict on every batch handed since the last one: Bob's thread
    /// checks what is still queued, then waits for the batch the checker
    /// holds, if any.
    fn finish(&self) -> Result<()> {
        let mut q = self.lock();
        loop {
            if let Some((at, o)) = q.batches.pop_front() {
                drop(q);
                self.verify(at, o);
                q = self.lock();
            } else if q.finished < q.handed {
                q = self.done.wait(q).unwrap_or_else(PoisonError::into_inner);
            } else {
                break;
            }
        }
        q.handed = 0;
        q.finished = 0;
        q.failed.take().map_or(Ok(()), |(_, e)| Err(e))
    }
}

impl Checker {
    fn start() -> Result<Checker> {
        let shared = Arc::new(Shared {
            state: Mutex::new(Queue::default()),
            ready: Condvar::new(),
            done: Condvar::new(),
        });
        let s = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("lr-label-checks".into())
            .spawn(move || s.run())
            .map_err(Error::Io)?;
        Ok(Checker {
            shared,
            thread: Some(thread),
        })
    }
}

impl Drop for Checker {
    fn drop(&mut self) {
        self.shared.lock().shutdown = true;
        self.shared.ready.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Runs `rest` (the next steps of the execution: receiving, the
/// evaluation) here while the checker thread checks the label batches
/// `rest` hands it, and returns both outcomes: the checks' (the first
/// failing batch in the order handed) and `rest`'s. Why: a bucket's
/// label checks are thousands of BLAKE3 blocks, the evaluation needs the
/// labels but not the checks' verdict, and the other core is idle while
/// Bob waits for Alice or evaluates; a batch handed over as soon as it is
/// received is checked while the next flight is still on its way, and
/// whatever is left when `rest` ends Bob's thread checks beside the
/// checker instead of waiting for it. Nothing leaves Bob before both
/// outcomes are in: the caller returns the checks' error first, as if
/// they had run before `rest`, so a cheat is reported by the same name as
/// when they ran one after the other. `join_step` names the end (the
/// checks left, then the wait for the checker).
fn with_checker<T>(
    checks: &Shared,
    join_step: &'static str,
    rest: impl FnOnce(&Shared) -> Result<T>,
) -> (Result<()>, Result<T>) {
    let rest = rest(checks);
    let opened = step(join_step, || checks.finish());
    (opened, rest)
}

/// The bundle's commitments of wires `base..base + n` of member `i`.
fn commitments(bk: &BobBucket, i: usize, base: usize, n: usize) -> Result<&[[Commitment; 2]]> {
    bk.bundles[i]
        .pairs(base, n)
        .ok_or_else(|| Error::malformed("lindell-riva: label commitments of the wrong length"))
}

/// Receives `bits.len()` labels (with openings) for wires `base..` of
/// member `i`, appends them, and returns what must open the commitments
/// at positions `bits[w]` (failing: `check`).
fn recv_labels(
    ch: &mut Channel,
    bk: &Arc<BobBucket>,
    i: usize,
    base: usize,
    bits: &[bool],
    check: &'static str,
    out: &mut Vec<Block>,
) -> Result<Openings> {
    // Label ‖ opening per wire, read at once.
    let mut flat = vec![0u8; 32 * bits.len()];
    ch.recv_bytes(&mut flat)?;
    out.extend(flat.chunks_exact(32).map(|c| split_opening(c).0));
    Openings::of(bk, i, base, bits, Received::WithOpenings(flat), check)
}

/// Whether every block commitment input hashes to its commitment.
fn all_open(blocks: &[[u8; 64]], want: &[Commitment]) -> bool {
    let mut got = vec![Commitment([0; 32]); blocks.len()];
    commit_blocks(blocks, &mut got);
    got == want
}

/// Receives the labels of `bits.len()` wires `base..` of member `i` that
/// are not Alice's (`y²`; `D`, `d²`), appends them, and returns what
/// must open: each label the preimage of the `H2` commitment at position
/// `bits[w]` (`public-input-decommit`).
fn recv_public_labels(
    ch: &mut Channel,
    bk: &Arc<BobBucket>,
    i: usize,
    base: usize,
    bits: &[bool],
    out: &mut Vec<Block>,
) -> Result<Openings> {
    let labs = ch.recv_block_vec(bits.len())?;
    out.extend_from_slice(&labs);
    Openings::of(
        bk,
        i,
        base,
        bits,
        Received::Labels(labs),
        CHECK_PUBLIC_INPUT,
    )
}

/// Receives `λ_i` with its opening and checks it (`lambda-decommit`).
fn recv_lambda(ch: &mut Channel, bk: &BobBucket, i: usize) -> Result<Block> {
    let lam = ch.recv_block()?;
    let mut o = [0u8; 16];
    ch.recv_bytes(&mut o)?;
    if lambda_commit(bk.members[i], lam, &o) != bk.bundles[i].lambda {
        return Err(cheating(CHECK_LAMBDA));
    }
    Ok(lam)
}

#[cfg(test)]
mod record_tests {
    use super::*;
    use crate::protocol::tests::{agreed, run};
    use crate::protocol::Alice;

    /// A bucket of an honest run survives its stored form; a record of
    /// another version (the first layout began with `k`, no version word)
    /// is `Malformed`, never a panic.
    #[test]
    fn bucket_records_of_another_version_are_malformed() {
        let a = agreed(1, 40);
        let (aa, ab) = (a.clone(), a);
        let (alice, bob) = run(
            move |ch| {
                let mut p = Alice::with_prg(aa, Prg::from_seed(Block(1)));
                p.setup(ch)?;
                p.independent(ch)?;
                p.dependent(ch)
            },
            move |ch| {
                let mut p = Bob::with_prg(ab, Prg::from_seed(Block(2)));
                p.setup(ch)?;
                p.independent(ch)?;
                p.dependent(ch)?;
                Ok::<_, Error>(p)
            },
        );
        alice.unwrap();
        let mut bob = bob.unwrap();
        let st = bob.setup.take().unwrap();
        let bk = bob.buckets[0].take().unwrap();
        let bytes = bk.write(0, &st);
        let back = BobBucket::read(&bytes, 0, &st).unwrap();
        assert_eq!(back.bundles, bk.bundles);
        assert_eq!(back.choices, bk.choices);
        let malformed = |b: &[u8]| matches!(BobBucket::read(b, 0, &st), Err(Error::Malformed(_)));
        assert!(malformed(&bytes[8..]), "no version word");
        let mut other = bytes.to_vec();
        other[7] ^= 1;
        assert!(malformed(&other), "another version");
        assert!(malformed(&bytes[..bytes.len() - 1]), "short");
        assert_eq!(back.encoded, bk.encoded);
        assert_eq!(back.members, bk.members);
        // Another bucket's index is the store's error, not a misread bucket.
        assert!(matches!(
            BobBucket::read(&bytes, 1, &st),
            Err(Error::Storage(_))
        ));
        for cut in [0, 7, 8, 15, 16, bytes.len() / 2] {
            assert!(malformed(&bytes[..cut]), "cut at {cut}");
        }
        let mut long = bytes.to_vec();
        long.extend_from_slice(&[0; 16]);
        assert!(malformed(&long), "trailing bytes");
        let mut bad = bytes.to_vec();
        bad[16] ^= 0xff;
        assert!(BobBucket::read(&bad, 0, &st).is_err(), "member index");
    }
}
