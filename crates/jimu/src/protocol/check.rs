//! Step 4, Check, run before Build (NST17's order; nothing in it depends
//! on f or the inputs). Bob opens J; J fixes which B·N·e gates go into
//! buckets (Step 3's selection) and, for every other gate, Bob's (a, b).
//! Alice opens ρ^l, ρ^r, ρ^o and w^a_l, w^b_r, w^{a∧b}_o; Bob verifies
//! each against its i-hash and checks EvlAND. A gate that is wrong on
//! one of the four (a, b) is caught with probability ≥ 1/4; one whose
//! output i-hash is wrong, on any (a, b) (Lemma 5.3: ≥ 1/2 per faulty
//! gate, the bound Sec. 6.3's T is computed from).

use super::generate::{commit_j, AliceGates, BobGates, Sizes};
use super::{cheating, label_bytes, parity, xored};
use crate::cheat::{Cheat, Cheats};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use brickyard_garble::wide::{self, eval_batch, Compress, Label, WideDelta, WideScratch};
use brickyard_ihash::Receiver;

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
    let mut scratch = WideScratch::new();
    for (k, &(i, a, b)) in asg.checked.iter().enumerate() {
        let rho = |s: usize| &rhos[(3 * k + s) * lp..(3 * k + s + 1) * lp];
        let mut ps = [false; 3];
        for (s, p) in ps.iter_mut().enumerate() {
            if !pv.verify(g.hrho.get(3 * i + s), rho(s)) {
                return Err(cheating("check-gate-rho"));
            }
            *p = parity(rho(s));
        }
        let lab = |s: usize| -> Label<L> { std::array::from_fn(|q| labels[(3 * k + s) * L + q]) };
        let (wl, wr, wo) = (lab(0), lab(1), lab(2));
        for (w, h, bit) in [
            (&wl, &g.hl, a ^ ps[0]),
            (&wr, &g.hr, b ^ ps[1]),
            (&wo, &g.ho, (a & b) ^ ps[2]),
        ] {
            let want = if bit {
                xored(h.get(i), h_delta)
            } else {
                h.get(i).to_vec()
            };
            if !wv.verify(&want, &label_bytes(w)) {
                return Err(cheating("check-gate-label"));
            }
        }
        let mut out = [[Block::ZERO; L]];
        eval_batch(
            &[wl],
            &[wr],
            &g.tables[2 * i..2 * i + 2],
            compress,
            0,
            i as u64,
            &mut out,
            &mut scratch,
        )?;
        if out[0] != wo {
            return Err(cheating("check-gate-eval"));
        }
    }
    Ok(asg)
}
