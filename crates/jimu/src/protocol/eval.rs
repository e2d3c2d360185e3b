//! The online execution: Step 1(a) Alice's input labels, Step 1(b) Bob's
//! input split into s XOR shares, each share's label by OT (KOS random OTs
//! made in preprocessing, derandomised here) and checked with a delayed
//! abort; Step 3 bucket evaluation with the single-good-gate rule; Step 5
//! output through ρ^o, or f(x, y) from an extracted Δ.

use super::build::{input_wires, AliceExec, BobExec, Owner};
use super::generate::Sizes;
use super::setup::perm_seeds;
use super::{cheating, label_bytes, parity, xored};
use crate::cheat::{Cheat, Cheats};
use crate::seeds;
use brickyard_circuit::{Circuit, Gate};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_garble::wide::{self, eval_batch, Compress, Label, WideDelta, WideScratch};
use brickyard_ihash::{replay_random, Params, Verifier};
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

/// The one-time pad of a label from a random-OT string.
fn pad<const L: usize>(r: Block) -> Label<L> {
    let mut p = Prg::from_seed(r);
    std::array::from_fn(|_| p.random_block())
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
    for (k, (&w0, &c)) in ex.shares.iter().zip(&corr).enumerate() {
        let (r0, r1) = rots[base + k];
        let (ra, rb) = if c == 1 { (r1, r0) } else { (r0, r1) };
        let z0 = wide::xor(&w0, &pad(ra));
        let mut w1 = wide::xor(&w0, d);
        if cheats.is(Cheat::SelectiveOt) && k == bad_share {
            w1[0] ^= Block(prg.random_block().0 | 2);
        }
        let z1 = wide::xor(&w1, &pad(rb));
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
}

fn verifies_either(v: &Verifier, h: &[u8], hd: &[u8], w: &[u8]) -> Option<bool> {
    if v.verify(h, w) {
        Some(false)
    } else if v.verify(&xored(h, hd), w) {
        Some(true)
    } else {
        None
    }
}

/// Bob's execution: returns the output bits (all output groups in order).
#[allow(clippy::too_many_arguments)]
pub fn bob<const L: usize>(
    ch: &mut Channel,
    c: &Circuit,
    owner: &[Owner],
    ex: &BobExec<L>,
    tables: &[Label<L>],
    rots: &BobRots,
    sz: &Sizes,
    keys: &BobKeys<'_>,
    y: &[bool],
    prg: &mut Prg,
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
    let mut got = vec![Block::ZERO; (2 * ns + sz.na) * L];
    ch.recv_blocks(&mut got)?;
    let n_out = c.output_width();
    let mut out_rho = vec![0u8; n_out * lp];
    ch.recv_bytes(&mut out_rho)?;
    // Step 1(b) iv–v: each share label checked against
    // ⟨w^0⟩ ⊕ y_{i,j}⟨Δ⟩; a failure is remembered (delayed abort, Step 5a).
    let mut bob_label_failed = false;
    let nw = c.num_wires as usize;
    let mut lab = vec![[Block::ZERO; L]; nw];
    let ins = input_wires(c);
    let mut share_labels = vec![[Block::ZERO; L]; ns];
    for (k, sl) in share_labels.iter_mut().enumerate() {
        let yb = share_bits[k];
        let z: Label<L> = std::array::from_fn(|q| got[(2 * k + yb as usize) * L + q]);
        let w = wide::xor(&z, &pad(rots.1[base + k]));
        let h = &ex.h_shares[k * ww..(k + 1) * ww];
        let want = if yb { xored(h, hd) } else { h.to_vec() };
        if !keys.wire.verify(&want, &label_bytes(&w)) {
            bob_label_failed = true;
        }
        *sl = w;
    }
    // Step 1(a): Alice's labels, each one of ⟨w^{p}⟩, ⟨w^{p}⟩ ⊕ ⟨Δ⟩.
    let mut alice_is_flipped = vec![false; sz.na];
    for (pos, &w) in ins.iter().enumerate() {
        let w = w as usize;
        match owner[pos] {
            Owner::Alice(k) => {
                let l: Label<L> = std::array::from_fn(|q| got[(2 * ns + k) * L + q]);
                match verifies_either(
                    keys.wire,
                    &ex.hm[w * ww..(w + 1) * ww],
                    hd,
                    &label_bytes(&l),
                ) {
                    Some(f) => alice_is_flipped[k] = f,
                    None => return Err(cheating("alice-input-label")),
                }
                lab[w] = l;
            }
            Owner::Bob(k) => {
                lab[w] = share_labels[k * sz.s..(k + 1) * sz.s]
                    .iter()
                    .fold([Block::ZERO; L], |a, s| wide::xor(&a, s));
            }
        }
    }
    // Step 5(c)'s ρ^o, checked against ⟨ρ^o⟩.
    let field = keys.perm_params.field();
    for (o, r) in out_rho.chunks_exact(lp).enumerate() {
        if !r.iter().all(|&v| field.contains(v))
            || !keys.perm.verify(&ex.h_out_rho[o * wp..(o + 1) * wp], r)
        {
            return Err(cheating("output-rho"));
        }
    }
    // Step 3: buckets in topological order.
    let mut scratch = WideScratch::new();
    let mut and = 0usize;
    let mut extracted: Option<Label<L>> = None;
    let mut empty = false;
    'walk: for gate in &c.gates {
        match *gate {
            Gate::Xor { a, b, out } => {
                lab[out as usize] = wide::xor(&lab[a as usize], &lab[b as usize])
            }
            Gate::Inv { a, out } => lab[out as usize] = lab[a as usize],
            Gate::And { a, b, out } => {
                let o = out as usize;
                let h = &ex.hm[o * ww..(o + 1) * ww];
                let mut valid: Option<Label<L>> = None;
                for sg in &ex.buckets[and * sz.bucket..(and + 1) * sz.bucket] {
                    let wl = wide::xor(&lab[a as usize], &sg.delta[0]);
                    let wr = wide::xor(&lab[b as usize], &sg.delta[1]);
                    let mut res = [[Block::ZERO; L]];
                    eval_batch(
                        &[wl],
                        &[wr],
                        &tables[2 * sg.gate..2 * sg.gate + 2],
                        keys.compress,
                        0,
                        sg.gate as u64,
                        &mut res,
                        &mut scratch,
                    )?;
                    let wo = wide::xor(&res[0], &sg.delta[2]);
                    if verifies_either(keys.wire, h, hd, &label_bytes(&wo)).is_none() {
                        continue;
                    }
                    match valid {
                        None => valid = Some(wo),
                        Some(w) if w == wo => {}
                        // Two different valid labels: Δ* = w ⊕ w' (Step 3b).
                        Some(w) => {
                            extracted = Some(wide::xor(&w, &wo));
                            break 'walk;
                        }
                    }
                }
                match valid {
                    Some(w) => lab[o] = w,
                    None => {
                        empty = true;
                        break 'walk;
                    }
                }
                and += 1;
            }
        }
    }
    // Step 5(a): the delayed abort.
    if bob_label_failed {
        return Err(cheating("bob-input-label"));
    }
    if let Some(delta) = extracted {
        return recover(c, owner, ex, sz, keys, &delta, &alice_is_flipped, y);
    }
    if empty {
        return Err(cheating("bucket-empty"));
    }
    // Step 5(c): bit = p_o if the label is w^{p_o}, else 1 − p_o.
    let mut bits = Vec::with_capacity(n_out);
    for (o, &w) in c.outputs.iter().flat_map(|g| g.wires.iter()).enumerate() {
        let w = w as usize;
        let p = parity(&out_rho[o * lp..(o + 1) * lp]);
        match verifies_either(
            keys.wire,
            &ex.hm[w * ww..(w + 1) * ww],
            hd,
            &label_bytes(&lab[w]),
        ) {
            Some(f) => bits.push(p ^ f),
            None => return Err(cheating("output-label")),
        }
    }
    Ok(bits)
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
    let rho = replay_random(&pp, &ps[..pp.ell], &[sz.rho_batch()]);
    let rho = &rho[0];
    let mut x = Vec::with_capacity(sz.na);
    for (k, &flipped) in alice_is_flipped.iter().enumerate() {
        let i = 3 * sz.t + sz.alice_input(ex.index, k);
        // The replayed ρ must be the one Bob holds the i-hash of (a seed
        // other than H(Δ, i) at an unwatched position would give another
        // ρ: never a wrong x, an abort instead; Step 5b rules it out).
        if !keys
            .perm
            .verify(&ex.h_alice_rho[k * wp..(k + 1) * wp], rho.get(i))
        {
            return Err(cheating("delta-recovery"));
        }
        x.push(parity(rho.get(i)) ^ flipped);
    }
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
