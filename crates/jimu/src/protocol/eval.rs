//! The online execution: Step 1(a) Alice's input labels, Step 1(b) Bob's
//! input split into s XOR shares, each share's label by OT (KOS random OTs
//! made in preprocessing, derandomised here) and checked with a delayed
//! abort; Step 3 bucket evaluation with the single-good-gate rule; Step 5
//! output through ρ^o, or f(x, y) from an extracted Δ.

use super::build::{input_wires, AliceExec, BobExec, Owner};
use super::generate::Sizes;
use super::schedule::Schedule;
use super::setup::perm_seeds;
use super::{cheating, label_bytes, label_bytes_into, parity, xor_bytes};
use crate::cheat::{Cheat, Cheats};
use crate::seeds;
use brickyard_circuit::{Circuit, Gate};
use brickyard_core::aes::fan::tccr_fan;
use brickyard_core::gf256::{combine_rows_many, GF256};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_garble::wide::{self, eval_soldered_at, Compress, Label, WideDelta, WideScratch};
use brickyard_ihash::{replay_random, Params, Rows, Verifier};
use brickyard_ot::{KosReceiver, KosSender};
use zeroize::Zeroizing;

/// Alice's random OTs for Bob's shares: (r_0, r_1) per share.
pub type AliceRots = Zeroizing<Vec<(Block, Block)>>;
/// Bob's random OTs: his choice c and r_c per share.
pub type BobRots = (Vec<bool>, Zeroizing<Vec<Block>>);

/// Preprocessing: one random OT per share of every Bob input bit of every
/// execution (KOS, malicious-receiver secure).
pub fn alice_rots(ch: &mut Channel, kos: &mut KosSender, sz: &Sizes) -> Result<AliceRots> {
    Ok(Zeroizing::new(kos.random(ch, sz.e * sz.nb * sz.s)?))
}

/// Bob's side of [`alice_rots`] with random choices.
pub fn bob_rots(
    ch: &mut Channel,
    kos: &mut KosReceiver,
    sz: &Sizes,
    prg: &mut Prg,
) -> Result<BobRots> {
    let c = prg.random_bits(sz.e * sz.nb * sz.s);
    let r = Zeroizing::new(kos.random(ch, &c)?);
    Ok((c, r))
}

/// Tweak domain (high half) of the pads: apart from every garbling
/// tweak, whose high half is the garbling offset 0.
const PAD_DOMAIN: u64 = u64::from_le_bytes(*b"jimu-pad");

/// The one-time pads of labels from random-OT strings: the pad of string
/// `r[i]` is `tccr(r[i], τ(L·numbers[i] + k))` for its `L` blocks (the
/// fixed-key TCCR of `brickyard_core`, keyed by nothing secret but `r`,
/// which the OT leaves uniform and unknown to the other side). Share `g`'s
/// string r_j (j ∈ {0, 1}, the OT's index, not the label it will mask) is
/// number 2g + j, so no tweak repeats within a run, and each party's pads
/// depend only on its preprocessed OT strings: both are made in the
/// dependent phase, and online is XORs.
fn pads<const L: usize>(r: &[Block], numbers: &[u64], out: &mut [Block]) {
    let bases: Vec<u64> = numbers.iter().map(|&n| n.wrapping_mul(L as u64)).collect();
    tccr_fan(r, &bases, PAD_DOMAIN, L, out);
}

fn label_at<const L: usize>(v: &[Block], i: usize) -> Label<L> {
    std::array::from_fn(|q| v[i * L + q])
}

/// Alice's share labels under both pads, made before the inputs exist
/// (dependent phase): share k's w^0 ⊕ pad(r_0) and w^0 ⊕ pad(r_1), one
/// after the other. Online, Bob's correction d picks which goes with
/// which label: z_b = w^b ⊕ pad(r_{b ⊕ d}).
pub fn alice_prepare<const L: usize>(
    ex: &mut AliceExec<L>,
    rots: &[(Block, Block)],
    sz: &Sizes,
) -> Result<()> {
    let ns = sz.nb * sz.s;
    let base = ex.index * ns;
    let mine = rots
        .get(base..base + ns)
        .ok_or_else(|| Error::config("jimu: fewer share OTs than shares"))?;
    let r = Zeroizing::new(
        mine.iter()
            .flat_map(|&(r0, r1)| [r0, r1])
            .collect::<Vec<_>>(),
    );
    let numbers: Vec<u64> = (2 * base as u64..2 * (base + ns) as u64).collect();
    let mut p = Zeroizing::new(vec![Block::ZERO; 2 * ns * L]);
    pads::<L>(&r, &numbers, &mut p);
    let mut masked = Zeroizing::new(Vec::with_capacity(2 * ns));
    for (k, w0) in ex.shares.iter().enumerate() {
        masked.push(wide::xor(w0, &label_at(&p, 2 * k)));
        masked.push(wide::xor(w0, &label_at(&p, 2 * k + 1)));
    }
    ex.masked_shares = masked;
    Ok(())
}

/// Alice's execution: receives Bob's OT corrections, sends her input
/// labels w^{x_i}_i, the masked share label pairs and the output ρ^o.
#[allow(clippy::too_many_arguments)]
pub fn alice<const L: usize>(
    ch: &mut Channel,
    ex: &AliceExec<L>,
    sz: &Sizes,
    delta: &WideDelta<L>,
    x: &[bool],
    prg: &mut Prg,
    cheats: &Cheats,
) -> Result<()> {
    if x.len() != sz.na {
        return Err(Error::config(format!(
            "jimu: Alice has {} input bits, the circuit {}",
            x.len(),
            sz.na
        )));
    }
    let d = delta.label();
    let ns = sz.nb * sz.s;
    if ex.masked_shares.len() != 2 * ns {
        return Err(Error::config("jimu: execution not prepared"));
    }
    let mut corr = vec![0u8; ns];
    ch.recv_bytes(&mut corr)?;
    if corr.iter().any(|&b| b > 1) {
        return Err(Error::malformed("jimu: OT correction is not a bit"));
    }
    let mut out = Zeroizing::new(Vec::with_capacity((2 * ns + sz.na) * L));
    let bad_share = cheats.at(ns.max(1));
    for (k, (pair, &c)) in ex.masked_shares.chunks_exact(2).zip(&corr).enumerate() {
        // z_0 = w^0 ⊕ pad(r_c), z_1 = w^0 ⊕ Δ ⊕ pad(r_{1⊕c}).
        let (z0, m1) = if c == 1 {
            (&pair[1], &pair[0])
        } else {
            (&pair[0], &pair[1])
        };
        let mut z1 = wide::xor(m1, d);
        if cheats.is(Cheat::SelectiveOt) && k == bad_share {
            z1[0] ^= Block(prg.random_block().0 | 2);
        }
        out.extend(*z0);
        out.extend(z1);
    }
    let bad_in = cheats.at(sz.na.max(1));
    for (k, (&(m, p), &xi)) in ex.inputs.iter().zip(x).enumerate() {
        let mut w = wide::xor(&m, &wide::and_bit(d, xi ^ p));
        if cheats.is(Cheat::WrongInputLabel) && k == bad_in {
            w[0] ^= Block(prg.random_block().0 | 2);
        }
        out.extend(w);
    }
    let mut rho = ex.out_rho.clone();
    if !rho.is_empty() && cheats.is(Cheat::WrongOutputRho) {
        let j = cheats.at(rho.len());
        rho[j] ^= 1;
    }
    ch.send_blocks(&out)?;
    ch.send_bytes(&rho)?;
    ch.flush()
}

/// What Bob needs from Setup to evaluate and to extract.
pub struct BobKeys<'a> {
    /// Label verifier (W_w).
    pub wire: &'a Verifier,
    /// ρ verifier (W_p).
    pub perm: &'a Verifier,
    /// The ρ i-hash parameters (for the replay after extraction).
    pub perm_params: Params,
    /// ⟨Δ⟩.
    pub h_delta: &'a [u8],
    /// D_1..D_{n_p}.
    pub d: &'a [[u8; 32]],
    /// A'.
    pub compress: &'a Compress,
    /// Where Alice's input ρ of this execution sit in the replayed ρ
    /// batch when the material came from a store (`store.rs`); `None`:
    /// where `Sizes` puts them (Generate in this run).
    pub alice_rho: Option<AliceRho<'a>>,
}

/// The ρ batch's size and the position in it of each of Alice's input ρ
/// (her bit order), for the replay after extracting Δ.
#[derive(Clone, Copy)]
pub struct AliceRho<'a> {
    /// Messages of the ρ batch.
    pub batch: usize,
    /// Position of Alice's input bit k's ρ.
    pub at: &'a [usize],
}

/// Bob's share material of one execution, worked out before his input
/// exists (dependent phase), so that online his shares cost a few XORs
/// and one batched check.
///
/// Step 1(b)'s share check is Verify(⟨w^0_k⟩ ⊕ y_k⟨Δ⟩, w_k) for every
/// share k: e_k = Encode(w_k)|_W ⊕ ⟨w^0_k⟩ ⊕ y_k⟨Δ⟩ must be 0. Encode|_W
/// is GF(2^8)-linear, so Bob checks ξ = ⌈s/σ⌉ random combinations
/// instead: Σ_k r_{t,k} e_k = Encode(Σ_k r_{t,k} w_k)|_W ⊕ Σ_k r_{t,k}
/// ⟨w^0_k⟩ ⊕ (Σ_k r_{t,k} y_k)⟨Δ⟩ = 0 for t < ξ, with r uniform in
/// GF(2^8), drawn by Bob and never sent. Alice's labels are fixed before
/// anything that depends on r leaves Bob (nothing does), so if some
/// e_k ≠ 0 (a nonzero symbol e_{k,j}), each combination's symbol j is
/// uniform given the other coefficients, and all ξ vanish with
/// probability ≤ 2^-σξ ≤ 2^-s: Lemma 4.2's bound for the i-hash's own
/// consistency check. What fails is remembered as before (the delayed
/// abort `bob-input-label`); only the labels it is about are combined.
///
/// With the pads of the OT strings made here too (Bob's pad of share k
/// is pad(r_c), c his OT choice), the unmasked labels w_k = z_k ⊕ pad_k
/// never need to exist one by one: Σ r w = Σ r z ⊕ Σ r pad, and an
/// input wire's label is ⊕_j z ⊕ ⊕_j pad.
#[derive(Default)]
pub struct BobShares<const L: usize> {
    /// y_{i,j} for j < s (uniform, independent of y); the last share of
    /// each bit is y_i ⊕ the others, set online.
    bits: Vec<bool>,
    /// ⊕_j pad_{i,j} of each input bit i.
    pad_sum: Zeroizing<Vec<Label<L>>>,
    /// r_{t,k}: ξ rows of one coefficient per share.
    coeffs: Zeroizing<Vec<u8>>,
    /// Σ_k r_{t,k} pad_k: ξ rows of 16·L bytes.
    pad_comb: Zeroizing<Vec<u8>>,
    /// Σ_k r_{t,k} ⟨w^0_k⟩: ξ rows of w bytes.
    h_comb: Vec<u8>,
    /// Σ r_{t,k} y_k over the shares drawn here (all but the last of each
    /// bit): ξ coefficients of ⟨Δ⟩.
    y_comb: Vec<u8>,
}

/// Bob's preparation of an execution's shares (see [`BobShares`]).
pub fn bob_prepare<const L: usize>(
    ex: &mut BobExec<L>,
    rots: &BobRots,
    sz: &Sizes,
    wire: &Params,
    prg: &mut Prg,
) -> Result<()> {
    let (ns, s) = (sz.nb * sz.s, sz.s);
    let base = ex.index * ns;
    let (ww, lw, xi) = (wire.w, 16 * L, wire.xi());
    if wire.sigma != 8 || wire.ell != lw || ex.h_shares.len() != ns * ww {
        return Err(Error::config("jimu: label i-hash parameters"));
    }
    let (c, r) = (
        rots.0
            .get(base..base + ns)
            .ok_or_else(|| Error::config("jimu: fewer share OTs than shares"))?,
        rots.1
            .get(base..base + ns)
            .ok_or_else(|| Error::config("jimu: fewer share OTs than shares"))?,
    );
    let numbers: Vec<u64> = c
        .iter()
        .enumerate()
        .map(|(k, &ci)| 2 * (base + k) as u64 + ci as u64)
        .collect();
    let mut pad = Zeroizing::new(vec![Block::ZERO; ns * L]);
    pads::<L>(r, &numbers, &mut pad);
    let mut bits = vec![false; ns];
    for (k, b) in bits.iter_mut().enumerate() {
        if k % s != s - 1 {
            *b = prg.random_bool();
        }
    }
    let pad_sum: Vec<Label<L>> = (0..sz.nb)
        .map(|i| {
            (0..s).fold([Block::ZERO; L], |a, j| {
                wide::xor(&a, &label_at(&pad, i * s + j))
            })
        })
        .collect();
    let mut coeffs = Zeroizing::new(vec![0u8; xi * ns]);
    prg.fill_bytes(&mut coeffs);
    let pad_bytes: Zeroizing<Vec<u8>> =
        Zeroizing::new(pad.iter().flat_map(|b| b.to_bytes()).collect());
    let mut pad_comb = Zeroizing::new(vec![0u8; xi * lw]);
    let mut h_comb = vec![0u8; xi * ww];
    if ns > 0 {
        combine_rows_many(&GF256, &coeffs, &pad_bytes, &mut pad_comb, lw);
        combine_rows_many(&GF256, &coeffs, &ex.h_shares, &mut h_comb, ww);
    }
    let mut y_comb = vec![0u8; xi];
    for (t, yc) in y_comb.iter_mut().enumerate() {
        for (&b, &x) in bits.iter().zip(&coeffs[t * ns..(t + 1) * ns]) {
            if b {
                *yc ^= x;
            }
        }
    }
    ex.shares = BobShares {
        bits,
        pad_sum: Zeroizing::new(pad_sum),
        coeffs,
        pad_comb,
        h_comb,
        y_comb,
    };
    Ok(())
}

/// Bob's reusable buffers for Eval (they grow to the largest layer and
/// hold labels: wiped on drop). [`EvalScratch::reserve`] sizes and
/// touches them in the dependent phase, so that online neither allocates
/// nor faults pages in.
#[derive(Default)]
pub struct EvalScratch<const L: usize> {
    /// Every wire's label (by wire id), and its compression: kept from
    /// execution to execution (each execution writes a wire before it
    /// reads it), so an execution neither allocates nor zeroes them.
    lab: Zeroizing<Vec<Label<L>>>,
    clab: Zeroizing<Vec<Block>>,
    /// Bob's share bits of one execution, the selected masked share
    /// labels (the rows the check combines), the combinations, and
    /// Alice's message (masked share labels and her input labels).
    bits: Vec<bool>,
    z: Zeroizing<Vec<u8>>,
    comb: Zeroizing<Vec<u8>>,
    got: Zeroizing<Vec<Block>>,
    /// A layer's hashed inputs (two compressed blocks per gate), colour
    /// bits and left labels (one per bucket), and its outputs.
    u: Zeroizing<Vec<Block>>,
    colours: Vec<u8>,
    left: Zeroizing<Vec<Label<L>>>,
    out: Zeroizing<Vec<Label<L>>>,
    hash: WideScratch,
    /// The label rows of each bucket's first candidate (every AND of the
    /// circuit, schedule order), verified in one batch at the end.
    first: Option<Rows>,
    /// Whether a bucket was decided in its layer (it had several distinct
    /// candidates).
    decided: Vec<bool>,
    /// A layer's buckets with several distinct candidates: (bucket, label)
    /// of each candidate, in bucket order; none in an honest run.
    extra: Zeroizing<Vec<(usize, Label<L>)>>,
    /// What the batches found for the first and the other candidates.
    which: Vec<Option<bool>>,
    which_extra: Vec<Option<bool>>,
}

impl<const L: usize> EvalScratch<L> {
    /// Sizes every buffer for `c` at bucket size `bucket` (and `ns`
    /// shares, `na` Alice input labels) and touches it.
    pub fn reserve(&mut self, c: &Circuit, sched: &Schedule, sz: &Sizes, xi: usize) {
        let nw = c.num_wires as usize;
        let ns = sz.nb * sz.s;
        let zero = [Block::ZERO; L];
        self.lab.resize(nw, zero);
        self.clab.resize(nw, Block::ZERO);
        self.bits.resize(ns, false);
        self.z.resize(ns * 16 * L, 0);
        self.comb.resize(xi * 16 * L, 0);
        self.got.resize((2 * ns + sz.na) * L, Block::ZERO);
        let widest = sched.layers.iter().map(|l| l.ands.len()).max().unwrap_or(0);
        let m = widest * sz.bucket;
        self.u.resize(2 * m, Block::ZERO);
        self.colours.resize(m, 0);
        self.left.resize(widest, zero);
        self.out.resize(m, zero);
        self.hash.reserve(2 * m, 2 * L * m);
        let n_and = sched.and_count();
        if self.first.as_ref().is_none_or(|f| f.len() != n_and) {
            self.first = Some(Rows::zeroed(n_and, 16 * L));
        }
        self.decided.resize(n_and, false);
        self.extra.reserve(64);
        self.which.resize(n_and, None);
        self.which_extra.reserve(64);
    }
}

/// What Step 3 found.
enum Walk<const L: usize> {
    /// Every bucket gave one valid label.
    Done,
    /// A bucket gave two different valid labels: Δ* = w ⊕ w'.
    Extracted(Label<L>),
    /// A bucket gave no valid label.
    Empty,
}

/// Bob's execution: returns the output bits (all output groups in order).
#[allow(clippy::too_many_arguments)]
pub fn bob<const L: usize>(
    ch: &mut Channel,
    c: &Circuit,
    sched: &Schedule,
    owner: &[Owner],
    ex: &BobExec<L>,
    rots: &BobRots,
    sz: &Sizes,
    keys: &BobKeys<'_>,
    y: &[bool],
    scratch: &mut EvalScratch<L>,
) -> Result<Vec<bool>> {
    if y.len() != sz.nb {
        return Err(Error::config(format!(
            "jimu: Bob has {} input bits, the circuit {}",
            y.len(),
            sz.nb
        )));
    }
    let (ww, wp) = (keys.wire.watch().len(), keys.perm.watch().len());
    let lp = keys.perm_params.ell;
    let hd = keys.h_delta;
    let (ns, s, lw) = (sz.nb * sz.s, sz.s, 16 * L);
    let base = ex.index * ns;
    let sh = &ex.shares;
    let xi = sh.y_comb.len();
    if sh.bits.len() != ns || sh.pad_sum.len() != sz.nb || rots.0.len() < base + ns {
        return Err(Error::config("jimu: execution not prepared"));
    }
    // Step 1(b) i–iii: y_{i,1} ⊕ … ⊕ y_{i,s} = y_i (all but the last share
    // drawn in the dependent phase); OT corrections d = y_{i,j} ⊕ c.
    let bits = &mut scratch.bits;
    bits.clear();
    bits.extend_from_slice(&sh.bits);
    for (i, &yi) in y.iter().enumerate() {
        let group = &mut bits[i * s..(i + 1) * s];
        let (last, rest) = group.split_last_mut().expect("s ≥ 1");
        *last = rest.iter().fold(yi, |a, &b| a ^ b);
    }
    let corr: Vec<u8> = bits
        .iter()
        .zip(&rots.0[base..base + ns])
        .map(|(&b, &ci)| (b ^ ci) as u8)
        .collect();
    ch.send_bytes(&corr)?;
    ch.flush()?;
    let got = &mut scratch.got;
    got.resize((2 * ns + sz.na) * L, Block::ZERO);
    ch.recv_blocks(got)?;
    let n_out = c.output_width();
    let mut out_rho = vec![0u8; n_out * lp];
    ch.recv_bytes(&mut out_rho)?;
    let got = &scratch.got[..];
    let bits = &scratch.bits[..];
    // Step 1(b) iv–v: the share labels z_k ⊕ pad_k, checked against
    // ⟨w^0⟩ ⊕ y_{i,j}⟨Δ⟩ by ξ random combinations ([`BobShares`]); a
    // failure is remembered (delayed abort, Step 5a). Each input wire's
    // label is the XOR of its shares'.
    let nw = c.num_wires as usize;
    let mut lab = std::mem::take(&mut scratch.lab);
    lab.resize(nw, [Block::ZERO; L]);
    // Compress(label) of every wire (linear: XOR gates XOR them).
    let mut clab = std::mem::take(&mut scratch.clab);
    clab.resize(nw, Block::ZERO);
    let z = &mut scratch.z;
    z.resize(ns * lw, 0);
    let ins = input_wires(c);
    let mut bob_in = Vec::with_capacity(sz.nb);
    for i in 0..sz.nb {
        let mut acc = sh.pad_sum[i];
        for k in i * s..(i + 1) * s {
            let zk: Label<L> = label_at(got, 2 * k + bits[k] as usize);
            acc = wide::xor(&acc, &zk);
            label_bytes_into(&zk, &mut z[k * lw..(k + 1) * lw]);
        }
        bob_in.push(acc);
    }
    let mut bob_label_failed = false;
    if ns > 0 {
        let comb = &mut scratch.comb;
        comb.clear();
        comb.resize(xi * lw, 0);
        combine_rows_many(&GF256, &sh.coeffs, &z[..], &mut comb[..], lw);
        let mut buf = [0u8; 256];
        for t in 0..xi {
            let msg = &mut comb[t * lw..(t + 1) * lw];
            xor_bytes(msg, &sh.pad_comb[t * lw..(t + 1) * lw]);
            let row = &sh.coeffs[t * ns..(t + 1) * ns];
            let yc = (s - 1..ns)
                .step_by(s)
                .filter(|&k| bits[k])
                .fold(sh.y_comb[t], |a, k| a ^ row[k]);
            let want = &mut buf[..ww];
            want.copy_from_slice(&sh.h_comb[t * ww..(t + 1) * ww]);
            for (w, &h) in want.iter_mut().zip(hd) {
                *w ^= GF256.mul(yc, h);
            }
            bob_label_failed |= !keys.wire.verify(want, msg);
        }
    }
    // Step 1(a): Alice's labels, each one of ⟨w^{p}⟩, ⟨w^{p}⟩ ⊕ ⟨Δ⟩.
    let mut hs = Rows::zeroed(sz.na, ww);
    let mut ls = Rows::zeroed(sz.na, lw);
    for (pos, &w) in ins.iter().enumerate() {
        if let Owner::Alice(k) = owner[pos] {
            let w = w as usize;
            hs.get_mut(k).copy_from_slice(&ex.hm[w * ww..(w + 1) * ww]);
            label_bytes_into(&label_at::<L>(got, 2 * ns + k), ls.get_mut(k));
        }
    }
    let mut which = vec![None; sz.na];
    keys.wire.verify_batch_either(&hs, hd, &ls, &mut which);
    drop(ls);
    let mut alice_is_flipped = vec![false; sz.na];
    for (f, w) in alice_is_flipped.iter_mut().zip(&which) {
        *f = w.ok_or_else(|| cheating("alice-input-label"))?;
    }
    for (pos, &w) in ins.iter().enumerate() {
        let w = w as usize;
        lab[w] = match owner[pos] {
            Owner::Alice(k) => label_at(got, 2 * ns + k),
            Owner::Bob(k) => bob_in[k],
        };
        clab[w] = keys.compress.apply(&lab[w]);
    }
    // Step 5(c)'s ρ^o, checked against ⟨ρ^o⟩.
    // (verify_batch also fails a ρ with a symbol outside GF(2^σ)).
    let mut ok = vec![false; n_out];
    keys.perm.verify_batch(
        &Rows::from_flat(&ex.h_out_rho, wp),
        &Rows::from_flat(&out_rho, lp),
        &mut ok,
    );
    if ok.contains(&false) {
        return Err(cheating("output-rho"));
    }
    // Step 3: a layer at a time.
    let walk = evaluate(sched, ex, sz.bucket, keys, &mut lab, &mut clab, scratch);
    scratch.clab = clab;
    let walk = match walk {
        Ok(w) => w,
        Err(e) => {
            scratch.lab = lab;
            return Err(e);
        }
    };
    // Step 5(a): the delayed abort.
    if bob_label_failed {
        scratch.lab = lab;
        return Err(cheating("bob-input-label"));
    }
    match walk {
        Walk::Extracted(delta) => {
            scratch.lab = lab;
            return recover(c, owner, ex, sz, keys, &delta, &alice_is_flipped, y);
        }
        Walk::Empty => {
            scratch.lab = lab;
            return Err(cheating("bucket-empty"));
        }
        Walk::Done => {}
    }
    // Step 5(c): bit = p_o if the label is w^{p_o}, else 1 − p_o.
    let mut hs = Rows::zeroed(n_out, ww);
    let mut ls = Rows::zeroed(n_out, lw);
    for (o, &w) in c.outputs.iter().flat_map(|g| g.wires.iter()).enumerate() {
        let w = w as usize;
        hs.get_mut(o).copy_from_slice(&ex.hm[w * ww..(w + 1) * ww]);
        label_bytes_into(&lab[w], ls.get_mut(o));
    }
    scratch.lab = lab;
    let mut which = vec![None; n_out];
    keys.wire.verify_batch_either(&hs, hd, &ls, &mut which);
    let mut bits = Vec::with_capacity(n_out);
    for (o, f) in which.iter().enumerate() {
        let p = parity(&out_rho[o * lp..(o + 1) * lp]);
        bits.push(p ^ f.ok_or_else(|| cheating("output-label"))?);
    }
    Ok(bits)
}

/// Step 3 over the schedule: each layer's linear gates, then all buckets
/// of its AND gates in one hash pass, then the single-good-gate rule per
/// bucket. Stops after the first layer with a bucket that gave two
/// different valid labels (Δ* is taken from the first such bucket, in
/// layer order: extraction never aborts) or none.
///
/// A bucket whose B outputs are one label (every honest bucket) passes
/// that label on at once and has it verified with all such buckets of the
/// circuit in one batch at the end; a bucket with several distinct
/// candidates is decided in its layer (all its candidates verified then).
/// The outcome is the one-by-one walk's: if a deferred label fails, that
/// bucket is empty and the walk would have stopped at its layer, so the
/// earliest layer with an empty or extracting bucket decides (extraction
/// first within a layer), and whatever was computed after it from the
/// unverified label is discarded. Bob sends nothing during or after the
/// walk, so evaluating past a bad label shows nothing to Alice.
fn evaluate<const L: usize>(
    sched: &Schedule,
    ex: &BobExec<L>,
    bucket: usize,
    keys: &BobKeys<'_>,
    lab: &mut [Label<L>],
    clab: &mut [Block],
    s: &mut EvalScratch<L>,
) -> Result<Walk<L>> {
    let ww = keys.wire.watch().len();
    let hd = keys.h_delta;
    let bk = &ex.buckets;
    let n_and = sched.and_count();
    if bk.h_out.len() != n_and {
        return Err(Error::config("jimu: execution built for another schedule"));
    }
    let mut first = match s.first.take() {
        Some(f) if f.len() == n_and => f,
        _ => Rows::zeroed(n_and, 16 * L),
    };
    s.decided.clear();
    s.decided.resize(n_and, false);
    // (layer, what it found) of the first layer decided in place with an
    // empty or extracting bucket.
    let mut stop: Option<(usize, Walk<L>)> = None;
    let (mut at, mut q0) = (0usize, 0usize);
    for (li, layer) in sched.layers.iter().enumerate() {
        for g in &layer.linear {
            match *g {
                Gate::Xor { a, b, out } => {
                    let (a, b, o) = (a as usize, b as usize, out as usize);
                    lab[o] = wide::xor(&lab[a], &lab[b]);
                    clab[o] = clab[a] ^ clab[b];
                }
                Gate::Inv { a, out } => {
                    lab[out as usize] = lab[a as usize];
                    clab[out as usize] = clab[a as usize];
                }
                Gate::And { .. } => unreachable!("the schedule's linear gates"),
            }
        }
        let na = layer.ands.len();
        let m = na * bucket;
        if m == 0 {
            continue;
        }
        // The hashed inputs Compress(A ⊕ δ_l) = Compress(A) ⊕ Compress(δ_l)
        // (and for B), and the colours lsb(A) ⊕ lsb(δ_l), lsb(B) ⊕ lsb(δ_r).
        s.u.clear();
        s.colours.clear();
        s.left.clear();
        let cd = &bk.cd[2 * at..2 * (at + m)];
        let lsbs = &bk.lsbs[at..at + m];
        for (k, &(a, b, _, _)) in layer.ands.iter().enumerate() {
            let (a, b) = (a as usize, b as usize);
            let (ca, cb) = (clab[a], clab[b]);
            let mine = wide::lsb(&lab[a]) as u8 | (wide::lsb(&lab[b]) as u8) << 1;
            s.left.push(lab[a]);
            let r = k * bucket..(k + 1) * bucket;
            for (d, &l) in cd[2 * r.start..2 * r.end].chunks_exact(2).zip(&lsbs[r]) {
                s.u.extend([ca ^ d[0], cb ^ d[1]]);
                s.colours.push(mine ^ l);
            }
        }
        if s.out.len() < m {
            s.out.resize(m, [Block::ZERO; L]);
        }
        eval_soldered_at(
            &s.u,
            &s.colours,
            &s.left,
            bucket,
            &bk.tables[2 * at..2 * (at + m)],
            &bk.dout[at..at + m],
            0,
            &bk.id[at..at + m],
            &mut s.out[..m],
            &mut s.hash,
        )?;
        // The single-good-gate rule: one valid label → use it; two
        // different valid labels → Δ*. Each bucket's distinct candidates
        // in bucket order: the first valid one is the label and a later
        // valid one (distinct, so different) gives Δ*, as checking them
        // one by one would.
        s.extra.clear();
        for k in 0..na {
            let cands = &s.out[k * bucket..(k + 1) * bucket];
            label_bytes_into(&cands[0], first.get_mut(q0 + k));
            let from = s.extra.len();
            for c in &cands[1..] {
                if *c != cands[0] && !s.extra[from..].iter().any(|(_, e)| e == c) {
                    if s.extra.len() == from {
                        s.extra.push((k, cands[0]));
                    }
                    s.extra.push((k, *c));
                }
            }
        }
        // Buckets with several candidates: all of them, now.
        s.which_extra.clear();
        if !s.extra.is_empty() {
            let n = s.extra.len();
            let (mut hs, mut ls) = (Rows::zeroed(n, ww), Rows::zeroed(n, 16 * L));
            for (e, (k, c)) in s.extra.iter().enumerate() {
                hs.get_mut(e).copy_from_slice(bk.h_out.get(q0 + k));
                label_bytes_into(c, ls.get_mut(e));
            }
            s.which_extra.resize(n, None);
            keys.wire
                .verify_batch_either(&hs, hd, &ls, &mut s.which_extra);
        }
        let (mut empty, mut extracted) = (false, None);
        let mut e = 0usize;
        for (k, &(_, _, o, _)) in layer.ands.iter().enumerate() {
            let o = o as usize;
            let w = if e < s.extra.len() && s.extra[e].0 == k {
                s.decided[q0 + k] = true;
                let mut valid: Option<Label<L>> = None;
                let mut done = false;
                while e < s.extra.len() && s.extra[e].0 == k {
                    if !done && s.which_extra[e].is_some() {
                        let c = s.extra[e].1;
                        match valid {
                            None => valid = Some(c),
                            Some(w) => {
                                extracted.get_or_insert(wide::xor(&w, &c));
                                done = true;
                            }
                        }
                    }
                    e += 1;
                }
                match valid {
                    Some(w) => w,
                    None => {
                        empty = true;
                        continue;
                    }
                }
            } else {
                s.out[k * bucket]
            };
            lab[o] = w;
            clab[o] = keys.compress.apply(&w);
        }
        if let Some(d) = extracted {
            stop = Some((li, Walk::Extracted(d)));
        } else if empty {
            stop = Some((li, Walk::Empty));
        }
        at += m;
        q0 += na;
        if stop.is_some() {
            break;
        }
    }
    // The deferred buckets, all at once: the first that fails is an empty
    // bucket in its layer.
    s.which.clear();
    s.which.resize(n_and, None);
    keys.wire
        .verify_batch_either(&bk.h_out, hd, &first, &mut s.which);
    s.first = Some(first);
    let mut q = 0usize;
    for (li, layer) in sched.layers.iter().enumerate() {
        if q >= q0 || stop.as_ref().is_some_and(|(l, _)| *l <= li) {
            break;
        }
        let r = q..q + layer.ands.len();
        if r.clone().any(|q| !s.decided[q] && s.which[q].is_none()) {
            return Ok(Walk::Empty);
        }
        q = r.end;
    }
    if let Some((li, found)) = stop {
        // Its own layer's deferred buckets: an empty one there is decided
        // by the layer's rule (extraction first).
        let r = q..q + sched.layers[li].ands.len();
        let empty_here = r.clone().any(|q| !s.decided[q] && s.which[q].is_none());
        return Ok(match found {
            Walk::Extracted(d) => Walk::Extracted(d),
            _ if empty_here => Walk::Empty,
            other => other,
        });
    }
    Ok(Walk::Done)
}

/// Step 3(b) with an extracted Δ*: check it against D_i (and ⟨Δ⟩),
/// regenerate the permutation strings from the seeds H(Δ*, i), read
/// Alice's input x off her labels, output f(x, y).
#[allow(clippy::too_many_arguments)]
fn recover<const L: usize>(
    c: &Circuit,
    owner: &[Owner],
    ex: &BobExec<L>,
    sz: &Sizes,
    keys: &BobKeys<'_>,
    delta: &Label<L>,
    alice_is_flipped: &[bool],
    y: &[bool],
) -> Result<Vec<bool>> {
    let d_bytes = Zeroizing::new(label_bytes(delta));
    let pp = keys.perm_params;
    let wp = pp.w;
    let ps = perm_seeds::<L>(&d_bytes, &pp);
    let ok = ps
        .iter()
        .zip(keys.d)
        .all(|(&s, d)| seeds::double_hash(s) == *d)
        && keys.wire.verify(keys.h_delta, &d_bytes);
    if !ok {
        return Err(cheating("delta-recovery"));
    }
    let batch = keys.alice_rho.map_or(sz.rho_batch(), |r| r.batch);
    let rho = replay_random(&pp, &ps[..pp.ell], &[batch]);
    let rho = &rho[0];
    // The replayed ρ must be the one Bob holds the i-hash of (a seed
    // other than H(Δ, i) at an unwatched position would give another ρ:
    // never a wrong x, an abort instead; Step 5b rules it out).
    let mut replayed = Rows::zeroed(sz.na, pp.ell);
    for k in 0..sz.na {
        let i = match keys.alice_rho {
            Some(r) => match r.at.get(k) {
                Some(&i) if i < batch => i,
                _ => return Err(Error::Storage("jimu: no stored ρ position".into())),
            },
            None => 3 * sz.t + sz.alice_input(ex.index, k),
        };
        replayed.get_mut(k).copy_from_slice(rho.get(i));
    }
    let mut ok = vec![false; sz.na];
    keys.perm
        .verify_batch(&Rows::from_flat(&ex.h_alice_rho, wp), &replayed, &mut ok);
    if ok.contains(&false) {
        return Err(cheating("delta-recovery"));
    }
    let x: Vec<bool> = alice_is_flipped
        .iter()
        .enumerate()
        .map(|(k, &flipped)| parity(replayed.get(k)) ^ flipped)
        .collect();
    let mut bits = owner.iter().map(|o| match *o {
        Owner::Alice(k) => x[k],
        Owner::Bob(k) => y[k],
    });
    let groups: Vec<Vec<bool>> = c
        .inputs
        .iter()
        .map(|g| bits.by_ref().take(g.width()).collect())
        .collect();
    let out = c
        .eval(&groups)
        .map_err(|e| Error::config(format!("jimu: plaintext evaluation: {e}")))?;
    Ok(out.into_iter().flatten().collect())
}
