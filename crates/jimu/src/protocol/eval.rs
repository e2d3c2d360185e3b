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
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_garble::wide::{
    self, eval_batch_compressed_at, Compress, Label, WideDelta, WideScratch,
};
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

/// The one-time pads of labels from random-OT strings: pad of string `r`
/// number `n` is `tccr(r, τ(L·n + k))` for its `L` blocks (the fixed-key
/// TCCR of `brickyard_core`, keyed by nothing secret but `r`, which the
/// OT leaves uniform and unknown to the other side). `numbers[i]` is the
/// global share number of `r[i]`, so no tweak repeats within a run.
fn pads<const L: usize>(r: &[Block], numbers: &[u64], out: &mut [Block]) {
    let bases: Vec<u64> = numbers.iter().map(|&n| n.wrapping_mul(L as u64)).collect();
    tccr_fan(r, &bases, PAD_DOMAIN, L, out);
}

fn label_at<const L: usize>(v: &[Block], i: usize) -> Label<L> {
    std::array::from_fn(|q| v[i * L + q])
}

/// Alice's execution: receives Bob's OT corrections, sends her input
/// labels w^{x_i}_i, the masked share label pairs and the output ρ^o.
#[allow(clippy::too_many_arguments)]
pub fn alice<const L: usize>(
    ch: &mut Channel,
    ex: &AliceExec<L>,
    rots: &[(Block, Block)],
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
    let mut corr = vec![0u8; ns];
    ch.recv_bytes(&mut corr)?;
    if corr.iter().any(|&b| b > 1) {
        return Err(Error::malformed("jimu: OT correction is not a bit"));
    }
    let base = ex.index * ns;
    let mut out = Vec::with_capacity((2 * ns + sz.na) * L);
    let bad_share = cheats.at(ns.max(1));
    // The pads of (r_c, r_{1-c}) for each share, in that order.
    let mut r = Zeroizing::new(Vec::with_capacity(2 * ns));
    let mut numbers = Vec::with_capacity(2 * ns);
    for (k, &c) in corr.iter().enumerate() {
        let (r0, r1) = rots[base + k];
        r.extend(if c == 1 { [r1, r0] } else { [r0, r1] });
        numbers.extend([(base + k) as u64 * 2, (base + k) as u64 * 2 + 1]);
    }
    let mut p = Zeroizing::new(vec![Block::ZERO; 2 * ns * L]);
    pads::<L>(&r, &numbers, &mut p);
    for (k, &w0) in ex.shares.iter().enumerate() {
        let z0 = wide::xor(&w0, &label_at(&p, 2 * k));
        let mut w1 = wide::xor(&w0, d);
        if cheats.is(Cheat::SelectiveOt) && k == bad_share {
            w1[0] ^= Block(prg.random_block().0 | 2);
        }
        let z1 = wide::xor(&w1, &label_at(&p, 2 * k + 1));
        out.extend(z0);
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

/// Bob's reusable buffers for Eval (they grow to the largest layer and
/// hold labels: wiped on drop).
#[derive(Default)]
pub struct EvalScratch<const L: usize> {
    /// Every wire's label (by wire id), and its compression: kept from
    /// execution to execution (each execution writes a wire before it
    /// reads it), so an execution neither allocates nor zeroes them.
    lab: Zeroizing<Vec<Label<L>>>,
    clab: Zeroizing<Vec<Block>>,
    /// Bob's share labels of one execution, their pads, Alice's message
    /// (masked share labels and her input labels), and the share checks'
    /// rows: a few hundred kB each, which a fresh allocation would map and
    /// fault in again every execution.
    share_labels: Zeroizing<Vec<Label<L>>>,
    pad: Zeroizing<Vec<Block>>,
    got: Zeroizing<Vec<Block>>,
    share_rows: Option<(Rows, Rows)>,
    wl: Zeroizing<Vec<Label<L>>>,
    wr: Zeroizing<Vec<Label<L>>>,
    cl: Zeroizing<Vec<Block>>,
    cr: Zeroizing<Vec<Block>>,
    out: Zeroizing<Vec<Label<L>>>,
    hash: WideScratch,
    /// The layer's distinct candidate output labels, bucket by bucket.
    cand: Zeroizing<Vec<Label<L>>>,
    /// Each bucket's candidates: `cand[span.0..span.1]`.
    span: Vec<(usize, usize)>,
    /// The candidates' i-hash rows and label rows, for one batch.
    rows: Option<(Rows, Rows)>,
    /// What the batch found for each candidate.
    which: Vec<Option<bool>>,
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
    prg: &mut Prg,
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
    let ns = sz.nb * sz.s;
    let base = ex.index * ns;
    // Step 1(b) i–iii: y_{i,1} ⊕ … ⊕ y_{i,s} = y_i; OT corrections.
    let mut share_bits = Vec::with_capacity(ns);
    for &yi in y {
        let mut acc = yi;
        for _ in 1..sz.s {
            let b = prg.random_bool();
            acc ^= b;
            share_bits.push(b);
        }
        share_bits.push(acc);
    }
    let corr: Vec<u8> = share_bits
        .iter()
        .zip(&rots.0[base..base + ns])
        .map(|(&b, &ci)| (b ^ ci) as u8)
        .collect();
    ch.send_bytes(&corr)?;
    ch.flush()?;
    // Meanwhile: the pads of the labels Bob will unmask.
    let numbers: Vec<u64> = share_bits
        .iter()
        .enumerate()
        .map(|(k, &b)| 2 * (base + k) as u64 + b as u64)
        .collect();
    let pad = &mut scratch.pad;
    pad.resize(ns * L, Block::ZERO);
    pads::<L>(&rots.1[base..base + ns], &numbers, pad);
    let got = &mut scratch.got;
    got.resize((2 * ns + sz.na) * L, Block::ZERO);
    ch.recv_blocks(got)?;
    let (pad, got) = (&scratch.pad[..], &scratch.got[..]);
    let n_out = c.output_width();
    let mut out_rho = vec![0u8; n_out * lp];
    ch.recv_bytes(&mut out_rho)?;
    // Step 1(b) iv–v: each share label checked against
    // ⟨w^0⟩ ⊕ y_{i,j}⟨Δ⟩ (one batch); a failure is remembered (delayed
    // abort, Step 5a).
    let nw = c.num_wires as usize;
    let mut lab = std::mem::take(&mut scratch.lab);
    lab.resize(nw, [Block::ZERO; L]);
    // Compress(label) of every wire (linear: XOR gates XOR them).
    let mut clab = std::mem::take(&mut scratch.clab);
    clab.resize(nw, Block::ZERO);
    let ins = input_wires(c);
    let mut share_labels = std::mem::take(&mut scratch.share_labels);
    share_labels.resize(ns, [Block::ZERO; L]);
    let (want, got_bytes) = match scratch.share_rows.take() {
        Some((mut h, mut l)) if h.width() == ww && l.width() == 16 * L => {
            h.resize(ns);
            l.resize(ns);
            (h, l)
        }
        _ => (Rows::zeroed(ns, ww), Rows::zeroed(ns, 16 * L)),
    };
    let (mut want, mut got_bytes) = (want, got_bytes);
    for (k, sl) in share_labels.iter_mut().enumerate() {
        let yb = share_bits[k];
        let z: Label<L> = label_at(got, 2 * k + yb as usize);
        let w = wide::xor(&z, &label_at(pad, k));
        let h = want.get_mut(k);
        h.copy_from_slice(&ex.h_shares[k * ww..(k + 1) * ww]);
        if yb {
            xor_bytes(h, hd);
        }
        label_bytes_into(&w, got_bytes.get_mut(k));
        *sl = w;
    }
    let mut ok = vec![false; ns];
    keys.wire.verify_batch(&want, &got_bytes, &mut ok);
    scratch.share_rows = Some((want, got_bytes));
    let bob_label_failed = ok.contains(&false);
    // Step 1(a): Alice's labels, each one of ⟨w^{p}⟩, ⟨w^{p}⟩ ⊕ ⟨Δ⟩.
    let mut hs = Rows::zeroed(sz.na, ww);
    let mut ls = Rows::zeroed(sz.na, 16 * L);
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
        match owner[pos] {
            Owner::Alice(k) => lab[w] = label_at(got, 2 * ns + k),
            Owner::Bob(k) => {
                lab[w] = share_labels[k * sz.s..(k + 1) * sz.s]
                    .iter()
                    .fold([Block::ZERO; L], |a, s| wide::xor(&a, s));
            }
        }
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
    scratch.share_labels = share_labels;
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
        return Err(cheating("bob-input-label"));
    }
    match walk {
        Walk::Extracted(delta) => {
            return recover(c, owner, ex, sz, keys, &delta, &alice_is_flipped, y)
        }
        Walk::Empty => return Err(cheating("bucket-empty")),
        Walk::Done => {}
    }
    // Step 5(c): bit = p_o if the label is w^{p_o}, else 1 − p_o.
    let mut hs = Rows::zeroed(n_out, ww);
    let mut ls = Rows::zeroed(n_out, 16 * L);
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
    let mut at = 0usize;
    for layer in &sched.layers {
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
        let m = layer.ands.len() * bucket;
        if m == 0 {
            continue;
        }
        let range = at..at + m;
        s.wl.clear();
        s.wr.clear();
        s.cl.clear();
        s.cr.clear();
        for (k, &(a, b, _, _)) in layer.ands.iter().enumerate() {
            let (la, lb) = (lab[a as usize], lab[b as usize]);
            let (ca, cb) = (clab[a as usize], clab[b as usize]);
            let r = at + k * bucket..at + (k + 1) * bucket;
            s.wl.extend(bk.dl[r.clone()].iter().map(|d| wide::xor(&la, d)));
            s.wr.extend(bk.dr[r.clone()].iter().map(|d| wide::xor(&lb, d)));
            s.cl.extend(bk.cdl[r.clone()].iter().map(|&d| ca ^ d));
            s.cr.extend(bk.cdr[r].iter().map(|&d| cb ^ d));
        }
        s.out.clear();
        s.out.resize(m, [Block::ZERO; L]);
        eval_batch_compressed_at(
            &s.wl,
            &s.wr,
            &s.cl,
            &s.cr,
            &bk.tables[2 * range.start..2 * range.end],
            keys.compress,
            0,
            &bk.id[range.clone()],
            &mut s.out,
            &mut s.hash,
        )?;
        // The single-good-gate rule: one valid label → use it; two
        // different valid labels → Δ*. Each bucket's distinct candidates
        // (B equal ones from an honest bucket: one) are verified for the
        // whole layer in one batch, against ⟨h⟩ and ⟨h⟩ ⊕ ⟨Δ⟩; then, in
        // bucket order, the first valid candidate is the label and a later
        // valid one (distinct, so different) gives Δ*, as checking them one
        // by one would.
        s.cand.clear();
        s.span.clear();
        for k in 0..layer.ands.len() {
            let first = s.cand.len();
            for j in 0..bucket {
                let wo = wide::xor(&s.out[k * bucket + j], &bk.dout[at + k * bucket + j]);
                if !s.cand[first..].contains(&wo) {
                    s.cand.push(wo);
                }
            }
            s.span.push((first, s.cand.len()));
        }
        let n = s.cand.len();
        let (hs, ls) = s
            .rows
            .get_or_insert_with(|| (Rows::zeroed(0, ww), Rows::zeroed(0, 16 * L)));
        hs.resize(n);
        ls.resize(n);
        for (&(_, _, o, _), &(from, to)) in layer.ands.iter().zip(&s.span) {
            let o = o as usize;
            for c in from..to {
                hs.get_mut(c).copy_from_slice(&ex.hm[o * ww..(o + 1) * ww]);
                label_bytes_into(&s.cand[c], ls.get_mut(c));
            }
        }
        s.which.clear();
        s.which.resize(n, None);
        keys.wire.verify_batch_either(hs, hd, ls, &mut s.which);
        let mut empty = false;
        let mut extracted = None;
        for (&(_, _, o, _), &(from, to)) in layer.ands.iter().zip(&s.span) {
            let o = o as usize;
            let mut valid: Option<Label<L>> = None;
            for c in from..to {
                if s.which[c].is_none() {
                    continue;
                }
                match valid {
                    None => valid = Some(s.cand[c]),
                    Some(w) => {
                        extracted.get_or_insert(wide::xor(&w, &s.cand[c]));
                        break;
                    }
                }
            }
            match valid {
                Some(w) => {
                    lab[o] = w;
                    clab[o] = keys.compress.apply(&w);
                }
                None => empty = true,
            }
        }
        if let Some(d) = extracted {
            return Ok(Walk::Extracted(d));
        }
        if empty {
            return Ok(Walk::Empty);
        }
        at += m;
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
