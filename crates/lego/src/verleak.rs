//! VerLeak, Fig. 1 steps 5–7: Alice leaks lsb(r⁰_i) for the n usable
//! Δ-ROTs and lsb(v_j) for the m output blinders, and proves them with s_c = s + 3
//! random combinations, each masked by a one-time blinder v_{m+l}. Δ is
//! leaked along with them and must read 1: that is how Bob knows
//! lsb(Δ) = 1, which the input-bit check of Eval step 4 relies on.

use super::generate::Ids;
use super::hcom::{HcomReceiver, HcomSender};
use brickyard_core::{Channel, Error, Result};

/// The opened items and the `vs` (= s_c) blinders v_{m..m+vs}.
fn sets(ids: &Ids, n: usize, m: usize, vs: usize) -> (Vec<Vec<usize>>, Vec<usize>) {
    let mut sets: Vec<Vec<usize>> = (0..n).map(|i| vec![ids.r0 + i]).collect();
    sets.extend((0..m).map(|j| vec![ids.v + j]));
    sets.push(vec![ids.delta]);
    let blinders = (m..m + vs).map(|l| ids.v + l).collect();
    (sets, blinders)
}

/// Alice: steps 5 and 6.
pub(crate) fn alice(
    hcom: &HcomSender,
    ch: &mut Channel,
    ids: &Ids,
    n: usize,
    m: usize,
    vs: usize,
    #[allow(unused)] cheat: &super::cheat::Cheats,
) -> Result<()> {
    let (sets, blinders) = sets(ids, n, m, vs);
    // A lie about lsb(r⁰_i) (the claimed bit is that of r⁰_i ⊕ Δ), with
    // every combination opened honestly.
    #[cfg(feature = "adversary")]
    if let Some(i) = cheat.set_target(super::cheat::Cheat::LieVerLeak, n) {
        return hcom.leak_lsbs_lying(ch, &sets, &blinders, i);
    }
    hcom.leak_lsbs(ch, &sets, &blinders)
}

/// Bob: steps 6 and 7; returns `(lsb r⁰_i, lsb v_j)`.
pub(crate) fn bob(
    hcom: &mut HcomReceiver,
    ch: &mut Channel,
    ids: &Ids,
    n: usize,
    m: usize,
    vs: usize,
) -> Result<(Vec<bool>, Vec<bool>)> {
    let (sets, blinders) = sets(ids, n, m, vs);
    let bits = hcom.verify_lsbs(ch, &sets, &blinders)?;
    if bits.len() != n + m + 1 {
        return Err(Error::malformed(
            "lego: VerLeak returned the wrong number of bits",
        ));
    }
    if !bits[n + m] {
        return Err(Error::Cheating {
            check: "verleak-lsb-delta",
        });
    }
    Ok((bits[..n].to_vec(), bits[n..n + m].to_vec()))
}
