//! Step 4, Check, run before Build (NST17's order; nothing in it depends
//! on f or the inputs). Bob opens J; J fixes which B·N·e gates go into
//! buckets (Step 3's selection) and, for every other gate, Bob's (a, b).
//! Alice opens ρ^l, ρ^r, ρ^o and w^a_l, w^b_r, w^{a∧b}_o; Bob verifies
//! each against its i-hash and checks EvlAND. A gate that is wrong on
//! one of the four (a, b) is caught with probability ≥ 1/4; one whose
//! output i-hash is wrong, on any (a, b) (Lemma 5.3: ≥ 1/2 per faulty
//! gate, the bound Sec. 6.3's T is computed from).

use super::generate::{commit_j, AliceGates, BobGates, Sizes};
use super::{cheating, label_bytes_into, parity, xor_bytes};
use crate::cheat::{Cheat, Cheats};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use brickyard_garble::wide::{
    self, eval_batch_compressed_at, Compress, Label, WideDelta, WideScratch,
};
use brickyard_ihash::{Receiver, Rows};

/// What J selects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// The bucketed gates: bucket q holds `bucketed[qB .. (q+1)B]`.
    pub bucketed: Vec<usize>,
    /// The checked gates with Bob's (a, b).
    pub checked: Vec<(usize, bool, bool)>,
}

/// The selection and challenges J determines (a uniform permutation of
/// the T gates, then one (a, b) per checked gate).
pub fn assign(j: Block, sz: &Sizes) -> Assignment {
    let mut prg = Prg::from_seed(j);
    let mut order: Vec<usize> = (0..sz.t).collect();
    prg.shuffle(&mut order);
    let checked = order[sz.bucketed()..]
        .iter()
        .map(|&i| (i, prg.random_bool(), prg.random_bool()))
        .collect();
    order.truncate(sz.bucketed());
    Assignment {
        bucketed: order,
        checked,
    }
}

fn on<const L: usize>(m: &Label<L>, bit: bool, delta: &Label<L>) -> Label<L> {
    wide::xor(m, &wide::and_bit(delta, bit))
}

/// Alice: receives J, checks it against the commitment, opens the
/// checked gates.
pub fn alice<const L: usize>(
    ch: &mut Channel,
    g: &AliceGates<L>,
    delta: &WideDelta<L>,
    sz: &Sizes,
    com: &[u8; 32],
) -> Result<Assignment> {
    let j = ch.recv_block()?;
    let r = ch.recv_block()?;
    if commit_j(j, r) != *com {
        return Err(cheating("cut-and-choose-open"));
    }
    let asg = assign(j, sz);
    let d = delta.label();
    let mut rhos = Vec::new();
    let mut labels = Vec::new();
    for &(i, a, b) in &asg.checked {
        let (rl, rr, ro) = (g.rho.get(3 * i), g.rho.get(3 * i + 1), g.rho.get(3 * i + 2));
        rhos.extend_from_slice(rl);
        rhos.extend_from_slice(rr);
        rhos.extend_from_slice(ro);
        let (pl, pr, po) = (parity(rl), parity(rr), parity(ro));
        labels.extend(on(&g.ml[i], a ^ pl, d));
        labels.extend(on(&g.mr[i], b ^ pr, d));
        labels.extend(on(&g.mo[i], (a & b) ^ po, d));
    }
    ch.send_bytes(&rhos)?;
    ch.send_blocks(&labels)?;
    ch.flush()?;
    Ok(asg)
}

/// Bob: opens J (committed before Generate), verifies the openings.
#[allow(clippy::too_many_arguments)]
pub fn bob<const L: usize>(
    ch: &mut Channel,
    g: &BobGates<L>,
    wire: &Receiver,
    perm: &Receiver,
    h_delta: &[u8],
    compress: &Compress,
    sz: &Sizes,
    j: Block,
    r: Block,
    cheats: &Cheats,
) -> Result<Assignment> {
    let opened = if cheats.is(Cheat::BadJOpen) {
        j ^ Block(1)
    } else {
        j
    };
    ch.send_block(opened)?;
    ch.send_block(r)?;
    ch.flush()?;
    let asg = assign(j, sz);
    let lp = perm.params().ell;
    let c = asg.checked.len();
    let mut rhos = vec![0u8; 3 * c * lp];
    ch.recv_bytes(&mut rhos)?;
    let mut labels = vec![Block::ZERO; 3 * c * L];
    ch.recv_blocks(&mut labels)?;
    let (wv, pv) = (wire.verifier(), perm.verifier());
    let (wp, ww) = (pv.watch().len(), wv.watch().len());
    // Every opening is verified in batches (3c ρ pairs, 3c label pairs)
    // and every checked gate evaluated in one call; the checks are then
    // read gate by gate in the order one-at-a-time checking makes them, so
    // the error is that of the first failing pair.
    let mut h_rho = Rows::zeroed(3 * c, wp);
    let mut m_rho = Rows::zeroed(3 * c, lp);
    let mut h_lab = Rows::zeroed(3 * c, ww);
    let mut m_lab = Rows::zeroed(3 * c, 16 * L);
    let lab = |k: usize| -> Label<L> { std::array::from_fn(|q| labels[k * L + q]) };
    for (k, &(i, a, b)) in asg.checked.iter().enumerate() {
        let mut ps = [false; 3];
        for (s, p) in ps.iter_mut().enumerate() {
            let r = &rhos[(3 * k + s) * lp..(3 * k + s + 1) * lp];
            h_rho
                .get_mut(3 * k + s)
                .copy_from_slice(g.hrho.get(3 * i + s));
            m_rho.get_mut(3 * k + s).copy_from_slice(r);
            *p = parity(r);
        }
        for (s, (h, bit)) in [
            (&g.hl, a ^ ps[0]),
            (&g.hr, b ^ ps[1]),
            (&g.ho, (a & b) ^ ps[2]),
        ]
        .into_iter()
        .enumerate()
        {
            let want = h_lab.get_mut(3 * k + s);
            want.copy_from_slice(h.get(i));
            if bit {
                xor_bytes(want, h_delta);
            }
            label_bytes_into(&lab(3 * k + s), m_lab.get_mut(3 * k + s));
        }
    }
    let mut rho_ok = vec![false; 3 * c];
    pv.verify_batch(&h_rho, &m_rho, &mut rho_ok);
    let mut lab_ok = vec![false; 3 * c];
    wv.verify_batch(&h_lab, &m_lab, &mut lab_ok);
    let (mut wl, mut wr, mut cl, mut cr) = (
        Vec::with_capacity(c),
        Vec::with_capacity(c),
        Vec::with_capacity(c),
        Vec::with_capacity(c),
    );
    let mut ids = Vec::with_capacity(c);
    let mut tables = Vec::with_capacity(2 * c);
    for (k, &(i, _, _)) in asg.checked.iter().enumerate() {
        let (l, r) = (lab(3 * k), lab(3 * k + 1));
        cl.push(compress.apply(&l));
        cr.push(compress.apply(&r));
        wl.push(l);
        wr.push(r);
        ids.push(i as u64);
        tables.extend_from_slice(&g.tables[2 * i..2 * i + 2]);
    }
    let mut out = vec![[Block::ZERO; L]; c];
    eval_batch_compressed_at(
        &wl,
        &wr,
        &cl,
        &cr,
        &tables,
        compress,
        0,
        &ids,
        &mut out,
        &mut WideScratch::new(),
    )?;
    for (k, o) in out.iter().enumerate() {
        if rho_ok[3 * k..3 * k + 3].contains(&false) {
            return Err(cheating("check-gate-rho"));
        }
        if lab_ok[3 * k..3 * k + 3].contains(&false) {
            return Err(cheating("check-gate-label"));
        }
        if *o != lab(3 * k + 2) {
            return Err(cheating("check-gate-eval"));
        }
    }
    Ok(asg)
}
