//! Build(f): Step 1's assignment of the pool i-hashes to the circuit's
//! wires (inputs and AND outputs; XOR and NOT wires follow by the
//! homomorphism) and Step 3(a) i–ii, the solderings of every bucket gate to
//! its logical gate: ρ^l ⊕ ρ^{i,l}, ρ^r ⊕ ρ^{i,r}, ρ^o ⊕ ρ^{i,o} and
//! δ_l = w^{p_l}_l ⊕ w^{p_{i,l}}_{i,l} ⊕ (p_l ⊕ p_{i,l})Δ, δ_r, δ_o. None of
//! it depends on the inputs, so Alice sends all of it in one flight and
//! Bob verifies it against the i-hashes at once: no challenge. The flight
//! is cut into frames of whole ANDs ([`frame_ands`]), each sent as soon as
//! Alice has walked it, so that Bob's walk runs beside hers.
//!
//! Bob's input wire is the XOR of its s shares (Step 1(b)v): label and
//! i-hash are XORs, its permutation bit is 0, so its ρ is the all-zero
//! string (i-hash zero).

use super::check::Assignment;
use super::eval::BobShares;
use super::generate::{AliceGates, BobGates, Sizes};
use super::schedule::Schedule;
use super::{cheating, label_bytes_into, parity, xor_bytes};
use crate::cheat::{Cheat, Cheats};
use brickyard_circuit::{Circuit, Gate};
use brickyard_core::prefetch::prefetch;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::steps::step;
use brickyard_garble::wide::{self, Compress, Label, WideDelta};
use brickyard_ihash::{Receiver, Rows, Verifier};
use zeroize::Zeroizing;

/// The circuit's input wires in the run's input order (groups concatenated).
pub fn input_wires(c: &Circuit) -> Vec<u32> {
    c.inputs
        .iter()
        .flat_map(|g| g.wires.iter().copied())
        .collect()
}

/// One execution's material at Alice.
pub struct AliceExec<const L: usize> {
    /// (m, p) of each of her input wires: she sends m ⊕ (x ⊕ p)Δ.
    pub inputs: Vec<(Label<L>, bool)>,
    /// w^0 of each of Bob's input shares (s per bit, in bit order).
    pub shares: Vec<Label<L>>,
    /// ρ^o of each output wire, one after another.
    pub out_rho: Vec<u8>,
    /// Execution index (which pools and OTs it uses).
    pub index: usize,
    /// Each share's w^0 under both of its OT pads, made in the dependent
    /// phase (`eval::alice_prepare`); empty until then.
    pub masked_shares: Zeroizing<Vec<Label<L>>>,
}

/// Bob's bucket gates of one execution in [`Schedule`] order (layer by
/// layer, each AND's B gates together), with everything about them that
/// does not depend on the inputs worked out here rather than online: the
/// garbled gate's number (its hash tweak), its table with δ_l folded into
/// T_E (the evaluator reads T_E ⊕ A ⊕ δ_l; see
/// `brickyard_garble::wide::eval_soldered_at`), δ_o, the compressions of
/// δ_l, δ_r (Compress is linear, so Eval compresses each wire label once
/// and XORs these in) and their lsbs (the colour bits are lsb(A) ⊕
/// lsb(δ_l), lsb(B) ⊕ lsb(δ_r)); and the i-hashes of the AND outputs in
/// schedule order, the rows the buckets' candidates are verified against.
pub struct Buckets<const L: usize> {
    /// Garbled gate number i.
    pub id: Vec<u64>,
    /// [T_G, T_E ⊕ δ_l] of each gate.
    pub tables: Vec<Label<L>>,
    /// δ_o.
    pub dout: Vec<Label<L>>,
    /// Compress(δ_l), Compress(δ_r) of each gate, one after the other.
    pub cd: Vec<Block>,
    /// lsb(δ_l) (bit 0) and lsb(δ_r) (bit 1).
    pub lsbs: Vec<u8>,
    /// ⟨w^{p}⟩ of every AND output, in schedule order.
    pub h_out: Rows,
}

/// One execution's material at Bob.
pub struct BobExec<const L: usize> {
    /// ⟨w^{p}⟩ of every circuit wire (w_w bytes each, by wire id).
    pub hm: Vec<u8>,
    /// ⟨ρ⟩ of every output wire, one after another.
    pub h_out_rho: Vec<u8>,
    /// ⟨w^0⟩ of each of his input shares.
    pub h_shares: Vec<u8>,
    /// ⟨ρ⟩ of each of Alice's input wires (her bit order): what a
    /// replayed ρ is checked against after extracting Δ.
    pub h_alice_rho: Vec<u8>,
    /// B soldered gates per AND, in schedule order.
    pub buckets: Buckets<L>,
    /// Execution index.
    pub index: usize,
    /// The share material made in the dependent phase
    /// (`eval::bob_prepare`); empty until then.
    pub shares: BobShares<L>,
}

/// Where Alice's walk hands each finished frame (ρ differences, δ's).
type Sink<'a> = &'a mut dyn FnMut(&mut Vec<u8>, &mut Vec<Block>) -> Result<()>;

/// Alice's per-wire (m, ρ) walk of execution `x`, and her solderings
/// appended to `rho_out` / `lab_out`, handed to `sink` after the last AND
/// of each frame ([`frame_ands`]).
#[allow(clippy::too_many_arguments)]
fn alice_walk<const L: usize>(
    c: &Circuit,
    g: &AliceGates<L>,
    asg: &Assignment,
    sz: &Sizes,
    x: usize,
    delta: &WideDelta<L>,
    lp: usize,
    owner: &[Owner],
    rho_out: &mut Vec<u8>,
    lab_out: &mut Vec<Block>,
    sink: Sink<'_>,
) -> Result<AliceExec<L>> {
    let frame = frame_ands(sz);
    let nw = c.num_wires as usize;
    let d = delta.label();
    let mut m = Zeroizing::new(vec![[Block::ZERO; L]; nw]);
    let mut rho = vec![0u8; nw * lp];
    let pool_rho = |i: usize| g.rho.get(3 * sz.t + i);
    let ins = input_wires(c);
    let mut inputs = vec![([Block::ZERO; L], false); sz.na];
    let mut shares = vec![[Block::ZERO; L]; sz.nb * sz.s];
    for (pos, &w) in ins.iter().enumerate() {
        let w = w as usize;
        match owner[pos] {
            Owner::Alice(k) => {
                let i = sz.alice_input(x, k);
                m[w] = g.pool[i];
                rho[w * lp..(w + 1) * lp].copy_from_slice(pool_rho(i));
                inputs[k] = (m[w], parity(pool_rho(i)));
            }
            Owner::Bob(k) => {
                let mut acc = [Block::ZERO; L];
                for j in 0..sz.s {
                    let sh = g.pool[sz.bob_share(x, k, j)];
                    acc = wide::xor(&acc, &sh);
                    shares[k * sz.s + j] = sh;
                }
                m[w] = acc;
            }
        }
    }
    let mut and = 0usize;
    for gate in &c.gates {
        match *gate {
            Gate::Xor { a, b, out } => {
                let (a, b, o) = (a as usize, b as usize, out as usize);
                m[o] = wide::xor(&m[a], &m[b]);
                xor_row(&mut rho, lp, a, b, o);
            }
            Gate::Inv { a, out } => {
                let (a, o) = (a as usize, out as usize);
                m[o] = wide::xor(&m[a], d);
                rho.copy_within(a * lp..(a + 1) * lp, o * lp);
            }
            Gate::And { a, b, out } => {
                let (a, b, o) = (a as usize, b as usize, out as usize);
                let i = sz.and_output(x, and);
                m[o] = g.pool[i];
                rho[o * lp..(o + 1) * lp].copy_from_slice(pool_rho(i));
                let q = x * sz.n + and;
                if let Some(next) = asg.bucketed.get(bucket_range(q + AHEAD, sz.bucket)) {
                    for &gi in next {
                        prefetch_label(&g.ml[gi]);
                        prefetch_label(&g.mr[gi]);
                        prefetch_label(&g.mo[gi]);
                        prefetch_rows(&g.rho, 3 * gi, 3);
                    }
                }
                for &gi in &asg.bucketed[bucket_range(q, sz.bucket)] {
                    let mine = [(a, &g.ml[gi]), (b, &g.mr[gi]), (o, &g.mo[gi])];
                    for (side, (wire, gm)) in mine.into_iter().enumerate() {
                        let rw = &rho[wire * lp..(wire + 1) * lp];
                        let rg = g.rho.get(3 * gi + side);
                        let dp = parity(rw) ^ parity(rg);
                        rho_out.extend(rw.iter().zip(rg).map(|(x, y)| x ^ y));
                        let dl = wide::xor(&wide::xor(&m[wire], gm), &wide::and_bit(d, dp));
                        lab_out.extend(dl);
                    }
                }
                if (q + 1).is_multiple_of(frame) {
                    sink(rho_out, lab_out)?;
                }
                and += 1;
            }
        }
    }
    let out_rho = c
        .outputs
        .iter()
        .flat_map(|grp| grp.wires.iter())
        .flat_map(|&w| rho[w as usize * lp..(w as usize + 1) * lp].iter().copied())
        .collect();
    Ok(AliceExec {
        inputs,
        shares,
        out_rho,
        index: x,
        masked_shares: Zeroizing::new(Vec::new()),
    })
}

/// ANDs ahead of the walk whose bucket gates' rows are prefetched: the
/// cut-and-choose permutes the gates, so the gates of a bucket sit at
/// random places in megabytes of rows, and without a hint every
/// soldering waits for a cache (and TLB) miss. (Walking the gates in
/// increasing number instead makes those reads a stream but the per-wire
/// reads random, and measured slower.)
const AHEAD: usize = 4;

/// The bucket gates of bucket `q` in `Assignment::bucketed`.
fn bucket_range(q: usize, bucket: usize) -> std::ops::Range<usize> {
    q * bucket..(q + 1) * bucket
}

/// Prefetches a label (its first and last byte's lines).
fn prefetch_label<const L: usize>(l: &Label<L>) {
    let b: &[u8] = bytemuck::bytes_of(l);
    prefetch(b, 0);
    prefetch(b, b.len() - 1);
}

/// Prefetches rows `first..first + count` of `r` (the first line of each;
/// rows are at most a line wide at k = 88).
fn prefetch_rows(r: &Rows, first: usize, count: usize) {
    for i in first..(first + count).min(r.len()) {
        prefetch(r.get(i), 0);
    }
}

/// Who owns an input position, and which of the owner's bits it is.
#[derive(Clone, Copy, Debug)]
pub enum Owner {
    /// Alice's bit k (in her flattened input order).
    Alice(usize),
    /// Bob's bit k.
    Bob(usize),
}

/// The owner of every input position (`alice_pos`, `bob_pos` from
/// `brickyard_driver::layout::input_positions`).
pub fn owners(alice_pos: &[usize], bob_pos: &[usize]) -> Vec<Owner> {
    let mut o = vec![Owner::Alice(usize::MAX); alice_pos.len() + bob_pos.len()];
    for (k, &p) in alice_pos.iter().enumerate() {
        o[p] = Owner::Alice(k);
    }
    for (k, &p) in bob_pos.iter().enumerate() {
        o[p] = Owner::Bob(k);
    }
    o
}

/// Alice's Build for all executions: one flight of solderings, frame by
/// frame.
#[allow(clippy::too_many_arguments)]
pub fn alice<const L: usize>(
    ch: &mut Channel,
    c: &Circuit,
    owner: &[Owner],
    g: &AliceGates<L>,
    asg: &Assignment,
    sz: &Sizes,
    delta: &WideDelta<L>,
    lp: usize,
    prg: &mut Prg,
    cheats: &Cheats,
) -> Result<Vec<AliceExec<L>>> {
    let per_exec = 3 * sz.bucket * sz.n;
    let total = sz.e * per_exec;
    let room = 3 * sz.bucket * frame_ands(sz);
    let mut rho_out = Vec::with_capacity(room.min(total) * lp);
    let mut lab_out = Vec::with_capacity(room.min(total) * L);
    // The cheats pick one place in the whole flight, as if it were one
    // frame.
    let bad_lab = (total > 0 && cheats.is(Cheat::BadSolderLabel))
        .then(|| (cheats.at(total * L), Block(prg.random_block().0 | 1)));
    let bad_rho = (total > 0 && cheats.is(Cheat::BadSolderRho)).then(|| cheats.at(total * lp));
    let (mut sent_rho, mut sent_lab) = (0usize, 0usize);
    let mut sink = |rho_out: &mut Vec<u8>, lab_out: &mut Vec<Block>| -> Result<()> {
        if let Some((j, e)) = bad_lab {
            if (sent_lab..sent_lab + lab_out.len()).contains(&j) {
                lab_out[j - sent_lab] ^= e;
            }
        }
        if let Some(j) = bad_rho {
            if (sent_rho..sent_rho + rho_out.len()).contains(&j) {
                rho_out[j - sent_rho] ^= 1;
            }
        }
        sent_rho += rho_out.len();
        sent_lab += lab_out.len();
        ch.send_bytes(rho_out)?;
        ch.send_blocks(lab_out)?;
        ch.flush()?;
        rho_out.clear();
        lab_out.clear();
        Ok(())
    };
    let mut execs = Vec::with_capacity(sz.e);
    step("build: Alice's solderings, sent frame by frame", || {
        for x in 0..sz.e {
            execs.push(alice_walk(
                c,
                g,
                asg,
                sz,
                x,
                delta,
                lp,
                owner,
                &mut rho_out,
                &mut lab_out,
                &mut sink,
            )?);
        }
        if !rho_out.is_empty() || !lab_out.is_empty() {
            sink(&mut rho_out, &mut lab_out)?;
        }
        Ok(execs)
    })
}

/// ANDs per frame of Build's flight (the last frame may hold fewer): Alice
/// sends each frame (its ρ differences, then its δ's) as soon as she has
/// walked it, and Bob verifies it while she walks the next, so the two
/// walks overlap instead of adding up. About a verification slice of
/// solderings, in whole ANDs.
fn frame_ands(sz: &Sizes) -> usize {
    (SLICE / (3 * sz.bucket).max(1)).max(1)
}

/// Solderings Bob verifies per batch: a slice of the walk whose four
/// row sets (about 170 bytes a soldering at k = 88) stay in L2.
const SLICE: usize = 4096;

/// The solderings of a slice of Bob's walk, waiting for verification:
/// the ρ pair (⟨ρ_wire⟩ ⊕ ⟨ρ_gate⟩, the sent ρ difference) and the label
/// pair (⟨w_wire⟩ ⊕ ⟨w_gate⟩ ⊕ p⟨Δ⟩, the sent δ) of each, in walk order.
struct SolderBatch {
    want_rho: Rows,
    rho: Rows,
    want_lab: Rows,
    lab: Rows,
    rho_ok: Vec<bool>,
    lab_ok: Vec<bool>,
    len: usize,
}

impl SolderBatch {
    fn new(wp: usize, lp: usize, ww: usize, lw: usize) -> SolderBatch {
        SolderBatch {
            want_rho: Rows::zeroed(SLICE, wp),
            rho: Rows::zeroed(SLICE, lp),
            want_lab: Rows::zeroed(SLICE, ww),
            lab: Rows::zeroed(SLICE, lw),
            rho_ok: vec![false; SLICE],
            lab_ok: vec![false; SLICE],
            len: 0,
        }
    }

    /// The rows of the next soldering, to be filled.
    fn next(&mut self) -> (&mut [u8], &mut [u8], &mut [u8], &mut [u8]) {
        let i = self.len;
        self.len += 1;
        (
            self.want_rho.get_mut(i),
            self.rho.get_mut(i),
            self.want_lab.get_mut(i),
            self.lab.get_mut(i),
        )
    }

    fn full(&self) -> bool {
        self.len == SLICE
    }

    /// Verifies the waiting solderings and empties the batch; the error is
    /// the one checking them one by one in walk order would give (ρ before
    /// label of each soldering).
    fn verify(&mut self, wv: &Verifier, pv: &Verifier) -> Result<()> {
        let n = self.len;
        if n == 0 {
            return Ok(());
        }
        if n < SLICE {
            for r in [
                &mut self.want_rho,
                &mut self.rho,
                &mut self.want_lab,
                &mut self.lab,
            ] {
                r.resize(n);
            }
        }
        pv.verify_batch(&self.want_rho, &self.rho, &mut self.rho_ok[..n]);
        wv.verify_batch(&self.want_lab, &self.lab, &mut self.lab_ok[..n]);
        if n < SLICE {
            for r in [
                &mut self.want_rho,
                &mut self.rho,
                &mut self.want_lab,
                &mut self.lab,
            ] {
                r.resize(SLICE);
            }
        }
        self.len = 0;
        for (&r, &l) in self.rho_ok[..n].iter().zip(&self.lab_ok[..n]) {
            if !r {
                return Err(cheating("solder-rho"));
            }
            if !l {
                return Err(cheating("solder-label"));
            }
        }
        Ok(())
    }
}

/// `dst = a ⊕ b` (equal lengths).
fn xor_to(dst: &mut [u8], a: &[u8], b: &[u8]) {
    assert!(
        a.len() == dst.len() && b.len() == dst.len(),
        "xor_to: lengths"
    );
    for ((d, &x), &y) in dst.iter_mut().zip(a).zip(b) {
        *d = x ^ y;
    }
}

/// `buf[o] = buf[a] ⊕ buf[b]` for rows of `w` bytes (through a row on the
/// stack, so the XOR runs on whole slices rather than indexed bytes).
fn xor_row(buf: &mut [u8], w: usize, a: usize, b: usize, o: usize) {
    const MAX: usize = 64;
    if w > MAX {
        for k in 0..w {
            buf[o * w + k] = buf[a * w + k] ^ buf[b * w + k];
        }
        return;
    }
    let mut t = [0u8; MAX];
    let t = &mut t[..w];
    t.copy_from_slice(&buf[a * w..(a + 1) * w]);
    for (x, &y) in t.iter_mut().zip(&buf[b * w..(b + 1) * w]) {
        *x ^= y;
    }
    buf[o * w..(o + 1) * w].copy_from_slice(t);
}

/// Bob's Build: the same walk over i-hashes, receiving and verifying
/// every soldering (`solder-rho`, `solder-label`), and laying each
/// execution's bucket gates out in `sched` order for Eval.
#[allow(clippy::too_many_arguments)]
pub fn bob<const L: usize>(
    ch: &mut Channel,
    c: &Circuit,
    sched: &Schedule,
    owner: &[Owner],
    g: &BobGates<L>,
    asg: &Assignment,
    sz: &Sizes,
    wire: &Receiver,
    perm: &Receiver,
    h_delta: &[u8],
    compress: &Compress,
) -> Result<Vec<BobExec<L>>> {
    step(
        "build: Bob's walk and verification (waits included)",
        || {
            bob_walk(
                c, sched, owner, g, asg, sz, wire, perm, h_delta, compress, ch,
            )
        },
    )
}

/// Bob's walk, receiving Alice's solderings frame by frame (see [`bob`]).
#[allow(clippy::too_many_arguments)]
fn bob_walk<const L: usize>(
    c: &Circuit,
    sched: &Schedule,
    owner: &[Owner],
    g: &BobGates<L>,
    asg: &Assignment,
    sz: &Sizes,
    wire: &Receiver,
    perm: &Receiver,
    h_delta: &[u8],
    compress: &Compress,
    ch: &mut Channel,
) -> Result<Vec<BobExec<L>>> {
    let (ww, lp, wp) = (wire.params().w, perm.params().ell, perm.params().w);
    let (wv, pv) = (wire.verifier(), perm.verifier());
    let field = perm.params().field();
    let (frame, total_ands) = (frame_ands(sz), sz.e * sz.n);
    let mut rhos: Vec<u8> = Vec::new();
    let mut labs: Vec<Block> = Vec::new();
    let ins = input_wires(c);
    let nw = c.num_wires as usize;
    let gates: [&Rows; 3] = [&g.hl, &g.hr, &g.ho];
    let mut batch = SolderBatch::new(wp, lp, ww, 16 * L);
    let mut execs = Vec::with_capacity(sz.e);
    let mut at = 0usize;
    let nb = sz.bucket * sz.n;
    for x in 0..sz.e {
        let mut hm = vec![0u8; nw * ww];
        let mut hr = vec![0u8; nw * wp];
        let mut h_shares = vec![0u8; sz.nb * sz.s * ww];
        let mut h_alice_rho = vec![0u8; sz.na * wp];
        for (pos, &w) in ins.iter().enumerate() {
            let w = w as usize;
            match owner[pos] {
                Owner::Bob(k) => {
                    for j in 0..sz.s {
                        let h = g.pool.get(sz.bob_share(x, k, j));
                        xor_bytes(&mut hm[w * ww..(w + 1) * ww], h);
                        h_shares[(k * sz.s + j) * ww..(k * sz.s + j + 1) * ww].copy_from_slice(h);
                    }
                }
                Owner::Alice(k) => {
                    let i = sz.alice_input(x, k);
                    hm[w * ww..(w + 1) * ww].copy_from_slice(g.pool.get(i));
                    hr[w * wp..(w + 1) * wp].copy_from_slice(g.hrho.get(3 * sz.t + i));
                    h_alice_rho[k * wp..(k + 1) * wp].copy_from_slice(g.hrho.get(3 * sz.t + i));
                }
            }
        }
        let zero = [Block::ZERO; L];
        let mut bk = Buckets {
            id: vec![0; nb],
            tables: vec![zero; 2 * nb],
            dout: vec![zero; nb],
            cd: vec![Block::ZERO; 2 * nb],
            lsbs: vec![0; nb],
            h_out: Rows::zeroed(sched.and_count(), ww),
        };
        let mut and = 0usize;
        for gate in &c.gates {
            match *gate {
                Gate::Xor { a, b, out } => {
                    let (a, b, o) = (a as usize, b as usize, out as usize);
                    xor_row(&mut hm, ww, a, b, o);
                    xor_row(&mut hr, wp, a, b, o);
                }
                Gate::Inv { a, out } => {
                    let (a, o) = (a as usize, out as usize);
                    hm.copy_within(a * ww..(a + 1) * ww, o * ww);
                    xor_bytes(&mut hm[o * ww..(o + 1) * ww], h_delta);
                    hr.copy_within(a * wp..(a + 1) * wp, o * wp);
                }
                Gate::And { a, b, out } => {
                    let (a, b, o) = (a as usize, b as usize, out as usize);
                    let i = sz.and_output(x, and);
                    hm[o * ww..(o + 1) * ww].copy_from_slice(g.pool.get(i));
                    hr[o * wp..(o + 1) * wp].copy_from_slice(g.hrho.get(3 * sz.t + i));
                    let q = x * sz.n + and;
                    if q.is_multiple_of(frame) {
                        let n = frame.min(total_ands - q) * 3 * sz.bucket;
                        rhos.resize(n * lp, 0);
                        labs.resize(n * L, Block::ZERO);
                        step("build: Bob waits for a frame", || -> Result<()> {
                            ch.recv_bytes(&mut rhos)?;
                            ch.recv_blocks(&mut labs)
                        })?;
                        if !rhos.iter().all(|&v| field.contains(v)) {
                            return Err(Error::malformed("jimu: soldering ρ outside GF(2^σ)"));
                        }
                        at = 0;
                    }
                    if let Some(next) = asg.bucketed.get(bucket_range(q + AHEAD, sz.bucket)) {
                        for &gi in next {
                            prefetch_rows(&g.hrho, 3 * gi, 3);
                            for r in gates {
                                prefetch_rows(r, gi, 1);
                            }
                            if let Some(t) = g.tables.get(2 * gi..2 * gi + 2) {
                                prefetch_label(&t[0]);
                                prefetch_label(&t[1]);
                            }
                        }
                    }
                    let first = sched.slot[and] as usize * sz.bucket;
                    for (j, &gi) in asg.bucketed[bucket_range(q, sz.bucket)].iter().enumerate() {
                        let mut delta = [zero; 3];
                        for (side, wire_id) in [a, b, o].into_iter().enumerate() {
                            let diff = &rhos[at * lp..(at + 1) * lp];
                            let dl: Label<L> = std::array::from_fn(|k| labs[at * L + k]);
                            let (want_rho, rho, want_lab, lab) = batch.next();
                            xor_to(
                                want_rho,
                                &hr[wire_id * wp..(wire_id + 1) * wp],
                                g.hrho.get(3 * gi + side),
                            );
                            rho.copy_from_slice(diff);
                            xor_to(
                                want_lab,
                                &hm[wire_id * ww..(wire_id + 1) * ww],
                                gates[side].get(gi),
                            );
                            if parity(diff) {
                                xor_bytes(want_lab, h_delta);
                            }
                            label_bytes_into(&dl, lab);
                            if batch.full() {
                                batch.verify(wv, pv)?;
                            }
                            delta[side] = dl;
                            at += 1;
                        }
                        let p = first + j;
                        bk.id[p] = gi as u64;
                        bk.tables[2 * p] = g.tables[2 * gi];
                        bk.tables[2 * p + 1] = wide::xor(&g.tables[2 * gi + 1], &delta[0]);
                        bk.cd[2 * p] = compress.apply(&delta[0]);
                        bk.cd[2 * p + 1] = compress.apply(&delta[1]);
                        bk.lsbs[p] = wide::lsb(&delta[0]) as u8 | (wide::lsb(&delta[1]) as u8) << 1;
                        bk.dout[p] = delta[2];
                    }
                    and += 1;
                }
            }
        }
        batch.verify(wv, pv)?;
        let outs = sched.layers.iter().flat_map(|l| l.ands.iter());
        for (q, &(_, _, o, _)) in outs.enumerate() {
            let o = o as usize;
            bk.h_out
                .get_mut(q)
                .copy_from_slice(&hm[o * ww..(o + 1) * ww]);
        }
        let h_out_rho = c
            .outputs
            .iter()
            .flat_map(|grp| grp.wires.iter())
            .flat_map(|&w| hr[w as usize * wp..(w as usize + 1) * wp].iter().copied())
            .collect();
        execs.push(BobExec {
            hm,
            h_out_rho,
            h_shares,
            h_alice_rho,
            buckets: bk,
            index: x,
            shares: BobShares::default(),
        });
    }
    Ok(execs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::gf256::{GF256, GF64};
    use brickyard_ihash::Code;

    fn verifier(code: &Code, w: usize, prg: &mut Prg) -> Verifier {
        let mut all: Vec<usize> = (0..code.n()).collect();
        prg.shuffle(&mut all);
        let mut watch = all[..w].to_vec();
        watch.sort_unstable();
        Verifier::new(code, &watch)
    }

    /// A soldering batch over more than two slices, honest but for one
    /// pair: the verdict is that pair's named check, wherever it sits
    /// (first, inside or last of a slice, or in the last partial slice),
    /// and with a bad ρ and a bad label the earlier soldering's check
    /// (its ρ first if both are its own).
    #[test]
    fn soldering_batch_names_the_first_bad_pair() {
        let seed = 0x27_b17c_0001u128;
        println!("seed {seed:#x}");
        let mut prg = Prg::from_seed(Block(seed));
        let (lc, pc) = (Code::new(&GF256, 86, 32), Code::new(&GF64, 44, 20));
        let (wv, pv) = (verifier(&lc, 21, &mut prg), verifier(&pc, 19, &mut prg));
        let total = 2 * SLICE + 37;
        // (soldering index, is it the label) of each corrupted pair.
        let run = |bad: &[(usize, bool)], prg: &mut Prg| -> Result<()> {
            let mut b = SolderBatch::new(19, 20, 21, 32);
            for k in 0..total {
                let (want_rho, rho, want_lab, lab) = b.next();
                prg.fill_bytes(rho);
                rho.iter_mut().for_each(|x| *x &= 63);
                pv.watched_symbols(rho, want_rho);
                prg.fill_bytes(lab);
                wv.watched_symbols(lab, want_lab);
                for &(i, is_label) in bad {
                    if i == k {
                        if is_label {
                            want_lab[3] ^= 0x41;
                        } else {
                            want_rho[0] ^= 1;
                        }
                    }
                }
                if b.full() {
                    b.verify(&wv, &pv)?;
                }
            }
            b.verify(&wv, &pv)
        };
        run(&[], &mut prg).expect("honest solderings verify");
        let name = |r: Result<()>| match r {
            Err(Error::Cheating { check }) => check,
            other => panic!("expected a named check, got {other:?}"),
        };
        for at in [0, 1, SLICE - 1, SLICE, SLICE + 1234, 2 * SLICE + 36] {
            assert_eq!(
                name(run(&[(at, true)], &mut prg)),
                "solder-label",
                "at {at}"
            );
            assert_eq!(name(run(&[(at, false)], &mut prg)), "solder-rho", "at {at}");
        }
        let mid = SLICE / 2;
        assert_eq!(
            name(run(&[(mid, true), (mid + 1, false)], &mut prg)),
            "solder-label"
        );
        assert_eq!(
            name(run(&[(mid, false), (mid + 1, true)], &mut prg)),
            "solder-rho"
        );
        assert_eq!(
            name(run(&[(mid, true), (mid, false)], &mut prg)),
            "solder-rho"
        );
    }
}
