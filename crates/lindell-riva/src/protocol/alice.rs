//! Alice (P1): the garbler.

use super::bundle::{self, BundleSecret};
use super::record::{self, Reader};
use super::{hash_d, pads, stored, Agreed, Cheat, Setup};
use crate::excom::{commit, AwaitingCommit, Opening, Role};
use brickyard_circuit::Gate;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::steps::{step, Timer};
use brickyard_garble::GarblePlan;
use brickyard_ot::KosSender;
use brickyard_store::{NextUnit, Store};
use zeroize::Zeroizing;

/// Alice's state across the phases.
pub struct Alice {
    agreed: Agreed,
    setup: Option<Setup>,
    prg: Prg,
    kos: Option<KosSender>,
    /// Random OT pairs, `ots_per_bucket` per bucket.
    rot: Zeroizing<Vec<(Block, Block)>>,
    /// Per bucket: the C members' then the C' members' secrets.
    buckets: Vec<Vec<BundleSecret>>,
    next: usize,
    /// Buckets in a store instead of `buckets` (see `stored.rs`).
    store: Option<Box<Store>>,
    /// The store's next bucket, read before its execution.
    ahead: NextUnit<Vec<BundleSecret>>,
    /// The last execution's bucket, wiped and freed by
    /// [`Alice::release_spent`] (after the execution's timing) or with
    /// the party.
    spent: Vec<BundleSecret>,
    cheat: Cheat,
}

impl Alice {
    /// A fresh party for the agreed run.
    pub fn new(agreed: Agreed) -> Self {
        Self::with_prg(agreed, Prg::new())
    }

    /// With a given PRG (fixed seeds in tests only).
    pub fn with_prg(agreed: Agreed, prg: Prg) -> Self {
        Alice {
            agreed,
            setup: None,
            prg,
            kos: None,
            rot: Zeroizing::new(Vec::new()),
            buckets: Vec::new(),
            next: 0,
            store: None,
            ahead: NextUnit::default(),
            spent: Vec::new(),
            cheat: Cheat::None,
        }
    }

    /// Keeps the buckets in `store`: a preprocessing run writes them there,
    /// a later run (whose setup the store recorded) takes them from it.
    pub fn attach_store(&mut self, mut store: Store) -> Result<()> {
        if let Some(rec) = stored::attach(&mut store)? {
            self.setup = Some(Setup::from_record(&self.agreed, &rec)?);
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
            self.ahead
                .fill(s, stored::UNIT, |k, p| read_bucket(stored::one(&p)?, k, st));
        }
        Ok(())
    }

    /// The next unused bucket's secrets (C members, then C'), used once.
    fn take_bucket(&mut self, st: &Setup) -> Result<Vec<BundleSecret>> {
        let Some(s) = &mut self.store else {
            let k = self.next;
            if k >= self.buckets.len() || self.buckets[k].is_empty() {
                return Err(Error::Exhausted(
                    "lindell-riva: every bucket was used".into(),
                ));
            }
            // The bucket is spent whatever happens next.
            self.next += 1;
            return Ok(std::mem::take(&mut self.buckets[k]));
        };
        self.ahead
            .take(s, stored::UNIT, |k, p| read_bucket(stored::one(&p)?, k, st))
    }

    /// Wipes and frees the last execution's bucket (its secrets are never
    /// used again; the wiping is kept off the execution's critical path).
    /// The store's next bucket is read ahead here too.
    pub fn release_spent(&mut self) {
        self.spent = Vec::new();
        if let (Some(s), Some(st)) = (&mut self.store, &self.setup) {
            self.ahead
                .fill(s, stored::UNIT, |k, p| read_bucket(stored::one(&p)?, k, st));
        }
    }

    /// Adversary mode: the strategy this party follows.
    #[cfg(feature = "adversary")]
    pub fn set_cheat(&mut self, cheat: Cheat) {
        self.cheat = cheat;
    }

    /// The agreed setup (after [`Alice::setup`]).
    pub fn setup_info(&self) -> Option<&Setup> {
        self.setup.as_ref()
    }

    fn st(&self) -> Result<&Setup> {
        self.setup
            .as_ref()
            .ok_or_else(|| Error::config("lindell-riva: setup did not run"))
    }

    /// Fig. A.1 Setup: receive and verify E, E'; KOS base OTs.
    pub fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        self.setup = Some(Setup::alice_receive(ch, &self.agreed)?);
        self.kos = Some(KosSender::setup(ch, &mut self.prg)?);
        Ok(())
    }

    /// Random OTs whose choice bits are Bob's random `y¹_j`, `d¹_j`.
    pub fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        let n = self.st()?.ots_per_bucket() * self.st()?.buckets();
        let kos = self
            .kos
            .as_mut()
            .ok_or_else(|| Error::config("lindell-riva: setup did not run"))?;
        self.rot = Zeroizing::new(kos.random(ch, n)?);
        Ok(())
    }

    /// Fig. A.2: bundles, joint F_ExCom∆ZK, cut-and-choose, OT transfer.
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
        if self.rot.len() != st.ots_per_bucket() * st.buckets() {
            return Err(Error::config("lindell-riva: OTs missing"));
        }
        // Bob committed to σ, seed_π and his challenges before anything of ours.
        let awaiting = AwaitingCommit::receive(ch, st.excom)?;
        let cheat_plan = match self.cheat {
            Cheat::TwoOutputs | Cheat::BadRecoveryCircuit => Some(negated_output(st)?),
            _ => None,
        };
        // bad-recovery-circuit: a wrong C' in the first bundle of C' (a
        // minority of whichever bucket gets it: B' ≥ 3).
        let (bad_c2, bad_c2_plan) = match self.cheat {
            Cheat::BadRecoveryCircuit => (
                1.min(st.b2().saturating_sub(1) / 2),
                Some(negated_recovery(st)?),
            ),
            _ => (0, None),
        };
        // invalid-output-labels: the C members of bucket 0 under the rigged selection.
        #[allow(unused_mut)]
        let mut rigged_bucket: Vec<usize> = Vec::new();
        #[cfg(feature = "adversary")]
        if self.cheat == Cheat::InvalidOutputLabels {
            let sel =
                crate::excom::Selection::random(&st.excom, &mut Prg::from_seed(super::RIGGED_SEED));
            let (buckets, _) = sel.buckets(&st.excom);
            rigged_bucket = buckets[0][..st.b()].to_vec();
        }
        let total = st.total();
        let mut secrets = Vec::with_capacity(total);
        let mut seeds: Vec<(Block, Opening)> = Vec::with_capacity(total);
        step("1 garble, commit, send M + M' bundles", || {
            self.send_bundles(
                ch,
                st,
                &mut secrets,
                &mut seeds,
                &rigged_bucket,
                cheat_plan.as_ref(),
                (bad_c2, bad_c2_plan.as_ref()),
            )
        })?;
        let masks = secrets
            .iter()
            .map(|s| {
                let mut m = s.as_ref().map(BundleSecret::mask_bytes).unwrap_or_default();
                if self.cheat == Cheat::BadMask {
                    m[0] ^= 1;
                }
                m
            })
            .collect();
        #[allow(unused_mut)]
        let mut committed = step("2 F_ExCom∆ZK commit", || {
            awaiting.commit(ch, masks, &mut self.prg)
        })?;
        #[cfg(feature = "adversary")]
        if self.cheat == Cheat::FalseDifference {
            committed.set_cheat(crate::excom::ProverCheat::FalseDifference {
                bucket: 0,
                seed: self.prg.random_u64(),
            });
        }
        // Bob opens σ, seed_π (checked: `cc-decommit`); F_ExCom∆ZK opens
        // the checked masks; we open their seeds.
        let cheat = self.cheat;
        let (mut session, tokens, buckets) = step("3 cut-and-choose: open seeds", || {
            let (session, tokens) = committed.receive_selection(ch)?;
            let buckets = session.buckets().to_vec();
            let mut in_bucket = vec![false; total];
            for b in &buckets {
                for &j in b {
                    in_bucket[j] = true;
                }
            }
            for j in (0..total).filter(|&j| !in_bucket[j]) {
                let mut r = seeds[j].1;
                if cheat == Cheat::BadSeedOpen {
                    r[0] ^= 1;
                }
                ch.send_bytes(&seeds[j].0.to_bytes())?;
                ch.send_bytes(&r)?;
                secrets[j] = None;
            }
            ch.flush()?;
            Ok::<_, Error>((session, tokens, buckets))
        })?;
        // The differences of every bucket, then every challenge's response.
        step("4 F_ExCom∆ZK prove", || {
            let mut waiting = Vec::with_capacity(tokens.len());
            for t in tokens {
                waiting.push(session.prove(ch, t)?);
            }
            for a in waiting {
                session.respond(ch, a)?;
            }
            Ok::<_, Error>(())
        })?;
        // OTs: per bucket and OT wire, the labels of that wire in all the
        // bucket's circuits of C (then C'); each opens its `H2` commitment
        // by itself.
        if let Some(s) = &mut self.store {
            stored::save_setup(s, &st.record())?;
        }
        let kept = step("5 OT transfer, keep buckets", || {
            self.transfer(ch, st, &buckets, &mut secrets)
        })?;
        self.rot = Zeroizing::new(Vec::new());
        self.buckets = kept;
        self.next = 0;
        Ok(())
    }

    /// Fig. A.2 "Creating a Garbled-Circuit Bundle" for all `M + M'`
    /// bundles, each sent as it is garbled, then `ExtractCom(seed_j)`.
    #[allow(clippy::too_many_arguments)]
    fn send_bundles(
        &mut self,
        ch: &mut Channel,
        st: &Setup,
        secrets: &mut Vec<Option<BundleSecret>>,
        seeds: &mut Vec<(Block, Opening)>,
        rigged_bucket: &[usize],
        cheat_plan: Option<&GarblePlan>,
        (bad_c2, bad_c2_plan): (usize, Option<&GarblePlan>),
    ) -> Result<()> {
        let total = st.total();
        let mut scratch = bundle::Scratch::new();
        for j in 0..total {
            let seed = self.prg.random_block();
            let mut r = [0u8; 16];
            self.prg.fill_bytes(&mut r);
            let (plan, shape) = st.of(j);
            let plan = match (cheat_plan, bad_c2_plan, j) {
                (Some(p), _, 0) => p,
                (_, Some(p), j) if j >= st.m() && j < st.m() + bad_c2 => p,
                _ => plan,
            };
            let honest = !rigged_bucket.contains(&j)
                && !matches!(self.cheat, Cheat::BadCircuit(k) if j < k.min(st.m()));
            let secret = if honest {
                // Garbled straight onto the channel.
                bundle::generate_to(ch, plan, shape, j, seed, &mut scratch)?
            } else {
                #[allow(unused_mut)]
                let (mut public, mut secret) = bundle::generate(plan, shape, j, seed)?;
                #[cfg(feature = "adversary")]
                if let Some(t) = rigged_bucket.iter().position(|&m| m == j) {
                    public.outputs = secret.shift_outputs(Block(2));
                    if t % 2 == 1 {
                        public.decoding.bits[0] ^= true;
                    }
                }
                if let Cheat::BadCircuit(k) = self.cheat {
                    if j < k.min(st.m()) {
                        if let Some(t) = public.gc.tables.first_mut() {
                            *t ^= Block(1);
                        }
                    }
                }
                public.send(ch)?;
                secret
            };
            ch.send_bytes(&commit(Role::Seed(j as u64), &seed.to_bytes(), &r).0)?;
            secrets.push(Some(secret));
            seeds.push((seed, r));
        }
        Ok(())
    }

    /// Fig. A.2 "Running OTs" per bucket, then the bucket kept (in memory
    /// or one record in the store).
    fn transfer(
        &mut self,
        ch: &mut Channel,
        st: &Setup,
        buckets: &[Vec<usize>],
        secrets: &mut [Option<BundleSecret>],
    ) -> Result<Vec<Vec<BundleSecret>>> {
        let per = st.ots_per_bucket();
        let mut kept = Vec::with_capacity(buckets.len());
        // One buffer for the messages of all OTs of a part of a bucket
        // (wiped when dropped).
        let mut msg = Zeroizing::new(Vec::new());
        for (k, members) in buckets.iter().enumerate() {
            let secs: Vec<BundleSecret> = members
                .iter()
                .map(|&j| secrets[j].take())
                .collect::<Option<_>>()
                .ok_or_else(|| Error::config("bucket member twice"))?;
            let (c, c2) = secs.split_at(st.b());
            let mut ot = k * per;
            for (part, shape) in [(c, st.shape), (c2, st.shape2)] {
                // Per OT wire both messages, each the wire's labels of one
                // bit in all the part's circuits: written member by
                // member (each bundle's labels read in order: they were
                // made long ago and are out of cache), then each message
                // under its own pad, and the part in one write.
                let count = part.len();
                let row = 32 * count;
                msg.clear();
                msg.resize(row * shape.ot, 0);
                for (m, s) in part.iter().enumerate() {
                    for (t, out) in msg.chunks_exact_mut(row).enumerate() {
                        for bit in [false, true] {
                            let l = s.label(shape.x + t, bit);
                            let at = 16 * count * bit as usize + 16 * m;
                            out[at..at + 16].copy_from_slice(&l.to_bytes());
                        }
                    }
                }
                for (t, out) in msg.chunks_exact_mut(row).enumerate() {
                    let (m0, m1) = out.split_at_mut(16 * count);
                    if self.cheat == Cheat::SelectiveOt && t == 0 && ot == k * per {
                        m1[0] ^= 1;
                    }
                    let (k0, k1) = self.rot[ot + t];
                    pads::xor_pad(k0, m0);
                    pads::xor_pad(k1, m1);
                }
                ch.send_bytes(&msg)?;
                ot += shape.ot;
            }
            match &mut self.store {
                // One bucket at a time to disk (see `record.rs`).
                Some(s) => {
                    let mut rec = Zeroizing::new(Vec::new());
                    record::put_u64(&mut rec, k as u64);
                    for sec in &secs {
                        sec.write(&mut rec);
                    }
                    s.append_blob(stored::KIND, &rec)?;
                }
                None => kept.push(secs),
            }
        }
        ch.flush()?;
        if let Some(s) = &mut self.store {
            s.commit()?;
        }
        Ok(kept)
    }

    /// Fig. A.3 on the next unused bucket, Alice's input `x`.
    pub fn online(&mut self, ch: &mut Channel, x: &[bool]) -> Result<()> {
        let st = self
            .setup
            .take()
            .ok_or_else(|| Error::config("lindell-riva: setup did not run"))?;
        let r = self.online_with(ch, &st, x);
        self.setup = Some(st);
        r
    }

    /// The four flights of Fig. A.3, with what does not depend on Bob's
    /// messages sent or prepared before they come (why this is still the
    /// paper's protocol: docs/protocols/lindell-riva.md, "Online flights"):
    /// flight 1 (x̂, the labels of `x` in every circuit of C and C',
    /// the recovery values and `H(D)`) goes out while Bob's `y²` travels;
    /// after `y²`, its labels and the λs of C; the last flight (`D`, the
    /// labels of `D` and `d²` in C', the λs of C', the output
    /// decommitments) is written while Bob evaluates C, so that only the
    /// `d²` labels are filled in once `d²` arrives.
    fn online_with(&mut self, ch: &mut Channel, st: &Setup, x: &[bool]) -> Result<()> {
        if x.len() != st.shape.x {
            return Err(Error::config("lindell-riva: wrong input length"));
        }
        let secs = step("a1 take bucket", || self.take_bucket(st))?;
        let (b, b2) = (st.b(), st.b2());
        let (c, c2) = secs.split_at(b);
        let (l, nx) = (st.shape.public, st.shape.x);
        let nout = st.outputs();
        let t = Timer::start("a2 x̂, labels of x, recovery values, send");
        // x̂ = x ⊕ m_1; per circuit of C, then of C', the labels of
        // x_i = x ⊕ m_i with the openings of their commitments.
        let xh: Vec<bool> = x.iter().zip(&c[0].m).map(|(a, m)| a ^ m).collect();
        ch.send_bits(&xh)?;
        let mut flat = Zeroizing::new(Vec::with_capacity(32 * nx));
        for (i, s) in secs.iter().enumerate() {
            flat.clear();
            for (w, &xw) in x.iter().enumerate() {
                let mut bit = xw;
                if self.cheat == Cheat::InconsistentInput && i == 1 && w == 0 {
                    bit = !bit;
                }
                let (lab, o) = s.label_with_opening(w, bit);
                flat.extend_from_slice(&lab.to_bytes());
                flat.extend_from_slice(&o);
            }
            ch.send_bytes(&flat)?;
        }
        // Cheating recovery: D, R_v, W⁰⊕R_v and W¹⊕R_v⊕D, H(D).
        let d = self.prg.random_block();
        let r: Zeroizing<Vec<Block>> = Zeroizing::new(self.prg.random_blocks(nout));
        let mut enc = Zeroizing::new(Vec::with_capacity(32 * nout * b));
        for (i, s) in c.iter().enumerate() {
            let pairs = s.output_pairs();
            for (v, &(w0, w1)) in pairs.iter().enumerate() {
                // split-r: circuit i uses R_v ⊕ i (each pair consistent alone).
                let r_v = if self.cheat == Cheat::SplitR {
                    r[v] ^ Block(i as u128)
                } else {
                    r[v]
                };
                let mut e1 = w1 ^ r_v ^ d;
                if self.cheat == Cheat::BadRecoveryEncryption && i == 0 && v == 0 {
                    e1 ^= Block(1);
                }
                enc.extend_from_slice(&(w0 ^ r_v).to_bytes());
                enc.extend_from_slice(&e1.to_bytes());
            }
        }
        ch.send_bytes(&enc)?;
        let hashed = if self.cheat == Cheat::WrongD {
            d ^ Block(1)
        } else {
            d
        };
        ch.send_bytes(&hash_d(hashed))?;
        ch.flush()?;
        t.stop();
        let y2 = step("a3 wait for y² (Bob's flight)", || ch.recv_bits(l))?;
        let t = Timer::start("a4 y² labels, λ of C, send");
        // Per circuit of C the labels of y² (opening their H2
        // commitments), then the λs: after every label of C.
        let base = nx + st.shape.ot;
        let mut labs = Zeroizing::new(Vec::with_capacity(16 * l));
        for (i, s) in c.iter().enumerate() {
            labs.clear();
            for (w, &v) in y2.iter().enumerate() {
                let (mut lab, _) = s.label_with_opening(base + w, v);
                if self.cheat == Cheat::BadPublicLabel && i == 0 && w == 0 {
                    lab ^= Block(1);
                }
                labs.extend_from_slice(&lab.to_bytes());
            }
            ch.send_bytes(&labs)?;
        }
        for (i, s) in c.iter().enumerate() {
            let mut lam = s.lambda;
            if self.cheat == Cheat::BadLambda && i == 0 {
                lam ^= Block(1);
            }
            ch.send_block(lam)?;
            ch.send_bytes(&s.lambda_open)?;
        }
        ch.flush()?;
        t.stop();
        // The last flight, all but the labels of d², while Bob evaluates.
        let last = step("a5 prepare the last flight", || {
            LastFlight::new(st, c, c2, d, self.cheat)
        });
        // Bob's d² = d ⊕ E'·d¹.
        let d2 = step("a6 wait for d² (Bob's flight)", || {
            ch.recv_bits(super::circuits::D_BITS)
        })?;
        step("a7 labels of d², send the last flight", || {
            let mut last = last;
            last.fill_d2(st, c2, &d2);
            ch.send_bytes(&last.bytes)?;
            ch.flush()
        })?;
        debug_assert_eq!(secs.len(), b + b2);
        self.spent = secs;
        Ok(())
    }
}

/// Alice's last online flight as Bob reads it: `D`; per circuit of C'
/// the labels of `D`'s wires, then of `d²`'s (left zero until `d²`
/// comes); the λs of C' with their openings; per circuit of C its output
/// label pairs and their commitment's opening. Secret until sent: wiped
/// when dropped.
struct LastFlight {
    bytes: Zeroizing<Vec<u8>>,
    /// Offset of the first `d²` label of the first circuit of C'.
    d2_at: usize,
}

impl LastFlight {
    fn new(st: &Setup, c: &[BundleSecret], c2: &[BundleSecret], d: Block, cheat: Cheat) -> Self {
        let nd = super::circuits::D_BITS;
        let per = 16 * 2 * nd;
        let size = 16 + c2.len() * (per + 32) + c.len() * (32 * st.outputs() + 16);
        let mut bytes = Zeroizing::new(Vec::with_capacity(size));
        bytes.extend_from_slice(&d.to_bytes());
        let base = st.shape.x + st.shape2.ot;
        let d2_at = bytes.len() + 16 * nd;
        for s in c2 {
            for w in 0..nd {
                let (lab, _) = s.label_with_opening(base + w, d.bit(w));
                bytes.extend_from_slice(&lab.to_bytes());
            }
            let filled = bytes.len() + 16 * nd;
            bytes.resize(filled, 0);
        }
        for s in c2 {
            bytes.extend_from_slice(&s.lambda.to_bytes());
            bytes.extend_from_slice(&s.lambda_open);
        }
        for (i, s) in c.iter().enumerate() {
            for (v, &(mut w0, w1)) in s.output_pairs().iter().enumerate() {
                if cheat == Cheat::BadOutputDecommit && i == 0 && v == 0 {
                    w0 ^= Block(1);
                }
                bytes.extend_from_slice(&w0.to_bytes());
                bytes.extend_from_slice(&w1.to_bytes());
            }
            bytes.extend_from_slice(&s.output_opening());
        }
        debug_assert_eq!(bytes.len(), size);
        LastFlight { bytes, d2_at }
    }

    /// The labels of `d²` in every circuit of C'.
    fn fill_d2(&mut self, st: &Setup, c2: &[BundleSecret], d2: &[bool]) {
        let nd = super::circuits::D_BITS;
        let base = st.shape.x + st.shape2.ot + nd;
        for (k, s) in c2.iter().enumerate() {
            let at = self.d2_at + k * 32 * nd;
            for (w, &v) in d2.iter().enumerate() {
                let (lab, _) = s.label_with_opening(base + w, v);
                self.bytes[at + 16 * w..at + 16 * w + 16].copy_from_slice(&lab.to_bytes());
            }
        }
    }
}

/// C' with output bit 0 negated (the `bad-recovery-circuit` cheat's circuit).
fn negated_recovery(st: &Setup) -> Result<GarblePlan> {
    let mut c = super::circuits::recovery_circuit(st.alice.len(), &st.e2)?;
    negate_first_output(&mut c);
    GarblePlan::new(&c)
}

fn negate_first_output(c: &mut brickyard_circuit::Circuit) {
    let out = c.num_wires;
    let w = c.outputs[0].wires[0];
    c.gates.push(Gate::Inv { a: w, out });
    c.num_wires += 1;
    c.outputs[0].wires[0] = out;
}

/// C with output bit 0 negated (the `two-outputs` cheat's circuit): same
/// inputs, same number of tables, different function.
fn negated_output(st: &Setup) -> Result<GarblePlan> {
    let c = super::circuits::main_circuit(&st.f, &st.alice, &st.bob, &st.e)?;
    let mut c = c;
    let out = c.num_wires;
    let w = c.outputs[0].wires[0];
    c.gates.push(Gate::Inv { a: w, out });
    c.num_wires += 1;
    c.outputs[0].wires[0] = out;
    GarblePlan::new(&c)
}

/// Alice's stored bucket `reserved` (layout in `record.rs`).
fn read_bucket(bytes: &[u8], reserved: u64, st: &Setup) -> Result<Vec<BundleSecret>> {
    let mut r = Reader::new(bytes);
    stored::check_index(r.u64()?, reserved)?;
    let mut secs = Vec::with_capacity(record::members(st));
    for i in 0..record::members(st) {
        let (plan, shape) = record::part_of(st, i);
        secs.push(BundleSecret::read(
            &mut r,
            shape,
            plan.output_wires().len(),
        )?);
    }
    r.done()?;
    Ok(secs)
}
