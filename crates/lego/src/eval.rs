//! Eval(x, y), Fig. 2: two flights.
//!
//! 1. Bob → Alice: `e = b ⊕ y` (his unused Δ-ROT choice bits).
//! 2. Alice → Bob: her input keys `K^{x_i}` in the clear; openings of
//!    `D_i = r⁰_i ⊕ K⁰_i ⊕ e_i·Δ` for Bob's inputs and of
//!    `D_j = v_j ⊕ K⁰_j` for the outputs (one message).
//!
//! Bob then computes his keys `K = r^{b} ⊕ D`, checks their lsbs against y
//! (step 4: a flipped bit or a bad OT string fails whatever y is), checks
//! every input key with its input authenticator, evaluates, and decodes
//! `z_j = lsb(Z_j) ⊕ lsb(D_j) ⊕ lsb(v_j)`. A bucket that yields two valid
//! keys hands Bob Δ; he then extracts x and outputs f(x, y) himself.

use super::build::{Built, BuiltBob};
use super::evaluator::{Evaluated, Evaluator};
use super::extract::extract_bit;
use super::hcom::{HcomReceiver, HcomSender};
use super::material::{BobMaterial, Layout};
use brickyard_circuit::Circuit;
use brickyard_core::{Block, Channel, Error, Result};

fn with(mut set: Vec<usize>, extra: &[usize]) -> Vec<usize> {
    for &x in extra {
        match set.iter().position(|&y| y == x) {
            Some(i) => {
                set.remove(i);
            }
            None => set.push(x),
        }
    }
    set
}

/// Which input positions belong to whom.
pub struct Owners<'a> {
    /// Alice's input positions (plan order).
    pub alice: &'a [usize],
    /// Bob's input positions.
    pub bob: &'a [usize],
}

fn opening_sets(built: &Built, layout: &Layout, owners: &Owners, e: &[bool]) -> Vec<Vec<usize>> {
    let mut sets = Vec::with_capacity(owners.bob.len() + built.out_sets.len());
    for (j, &p) in owners.bob.iter().enumerate() {
        let mut extra = vec![layout.r_ids[built.at.rot + j]];
        if e[j] {
            extra.push(layout.delta_id);
        }
        sets.push(with(built.input_sets[p].clone(), &extra));
    }
    for (j, s) in built.out_sets.iter().enumerate() {
        sets.push(with(s.clone(), &[layout.v_ids[built.at.out + j]]));
    }
    sets
}

/// Alice's Eval for one built copy.
#[allow(clippy::too_many_arguments)]
pub fn alice(
    hcom: &HcomSender,
    ch: &mut Channel,
    built: &Built,
    layout: &Layout,
    delta: Block,
    owners: &Owners,
    x: &[bool],
    #[allow(unused)] cheat: &super::cheat::Cheats,
) -> Result<()> {
    let e = ch.recv_bits(owners.bob.len())?;
    #[allow(unused_mut)]
    let mut keys: Vec<Block> = owners
        .alice
        .iter()
        .zip(x)
        .map(|(&p, &xi)| Ok(hcom.xor_of(&built.input_sets[p])? ^ delta.and_bit(xi)))
        .collect::<Result<_>>()?;
    #[allow(unused_mut)]
    let mut sets = opening_sets(built, layout, owners, &e);
    #[cfg(feature = "adversary")]
    cheat.corrupt_online(&mut keys, &mut sets, layout, delta);
    ch.send_blocks(&keys)?;
    zeroize::Zeroize::zeroize(&mut keys);
    hcom.open(ch, &sets)
}

/// An input wire soldered to an earlier copy's output: its position, the
/// key Bob got there, and the bit it carries (Bob decoded it).
pub type LinkedKey = (usize, Block, bool);

/// Bob's Eval for one built copy: the outputs, one bit per output wire.
#[allow(clippy::too_many_arguments)]
pub fn bob(
    hcom: &HcomReceiver,
    ch: &mut Channel,
    c: &Circuit,
    built: &BuiltBob,
    layout: &Layout,
    mat: &BobMaterial,
    owners: &Owners,
    y: &[bool],
) -> Result<Vec<bool>> {
    let mut ev = Evaluator::new(c);
    Ok(bob_with(&mut ev, hcom, ch, c, built, layout, mat, owners, y, &[])?.0)
}

/// [`bob`] for a copy with linked inputs (reactive use); also returns the
/// output keys, so a later copy can be linked to them. On the extraction
/// path (Bob learned Δ) the keys are empty and the bits are f(x, y).
#[allow(clippy::too_many_arguments)]
pub fn bob_linked(
    hcom: &HcomReceiver,
    ch: &mut Channel,
    c: &Circuit,
    built: &BuiltBob,
    layout: &Layout,
    mat: &BobMaterial,
    owners: &Owners,
    y: &[bool],
    linked: &[LinkedKey],
) -> Result<(Vec<bool>, Vec<Block>)> {
    let mut ev = Evaluator::new(c);
    bob_with(&mut ev, hcom, ch, c, built, layout, mat, owners, y, linked)
}

/// [`bob_linked`] with an evaluator made beforehand (its plan of `c` and
/// its buffers), as the party keeps one across executions.
#[allow(clippy::too_many_arguments)]
pub fn bob_with(
    ev: &mut Evaluator,
    hcom: &HcomReceiver,
    ch: &mut Channel,
    c: &Circuit,
    built: &BuiltBob,
    layout: &Layout,
    mat: &BobMaterial,
    owners: &Owners,
    y: &[bool],
    linked: &[LinkedKey],
) -> Result<(Vec<bool>, Vec<Block>)> {
    let at = built.built.at;
    let n_in = built.built.input_sets.len();
    let nb = owners.bob.len();
    if y.len() != nb
        || at.rot + nb > mat.rot_b.len().min(mat.rot_r.len()).min(mat.r_lsb.len())
        || built.built.linked.len() != n_in
        || owners.alice.iter().chain(owners.bob).any(|&p| p >= n_in)
    {
        return Err(Error::config(
            "lego: Eval inputs do not match the built copy",
        ));
    }
    // Flight 1 leaves before anything else: the openings Bob will verify
    // and the evaluator's helper thread are prepared while Alice answers.
    let b = &mat.rot_b[at.rot..at.rot + nb];
    let e: Vec<bool> = b.iter().zip(y).map(|(b, y)| b ^ y).collect();
    ch.send_bits(&e)?;
    ch.flush()?;
    let sets = opening_sets(&built.built, layout, owners, &e);
    let (r, in_keys, d) = ev.session(built, mat, |sess| {
        let their = ch.recv_block_vec(owners.alice.len())?;
        let d = hcom.verify_open(ch, &sets)?;
        let d_in = &d[..nb];
        let mut in_keys = vec![Block::ZERO; n_in];
        for (&p, &k) in owners.alice.iter().zip(&their) {
            in_keys[p] = k;
        }
        // Step 4: Bob's keys and their lsb check (independent of y on failure).
        for (j, &p) in owners.bob.iter().enumerate() {
            let i = at.rot + j;
            let k = mat.rot_r[i] ^ d_in[j];
            let lsb_k0 = d_in[j].lsb() ^ mat.r_lsb[i] ^ e[j];
            if k.lsb() ^ lsb_k0 != y[j] {
                return Err(Error::Cheating {
                    check: "input-key-lsb",
                });
            }
            in_keys[p] = k;
        }
        for &(p, k, _) in linked {
            if !built.built.linked.get(p).copied().unwrap_or(false) {
                return Err(Error::config(format!(
                    "lego: input {p} was not linked in Build"
                )));
            }
            in_keys[p] = k;
        }
        sess.check_input_keys(&in_keys)?;
        // Step 5: evaluate, layer by layer.
        let r = sess.evaluate(&in_keys)?;
        Ok((r, in_keys, d))
    })?;
    let d_out = &d[nb..];
    let out_keys = match r {
        Evaluated::Keys(k) => k,
        Evaluated::Delta(delta) => {
            return Ok((
                extract_and_compute(c, mat, at.input, &in_keys, owners, y, linked, delta)?,
                Vec::new(),
            ))
        }
    };
    if d_out.len() != out_keys.len() || at.out + out_keys.len() > mat.v_lsb.len() {
        return Err(Error::config(
            "lego: output openings do not match the circuit",
        ));
    }
    let bits = out_keys
        .iter()
        .zip(d_out)
        .enumerate()
        .map(|(j, (k, dj))| k.lsb() ^ dj.lsb() ^ mat.v_lsb[at.out + j])
        .collect();
    Ok((bits, out_keys))
}

/// Bob holds Δ: extracts x through the input buckets and computes f(x, y).
#[allow(clippy::too_many_arguments)]
fn extract_and_compute(
    c: &Circuit,
    mat: &BobMaterial,
    first_input: usize,
    in_keys: &[Block],
    owners: &Owners,
    y: &[bool],
    linked: &[LinkedKey],
    delta: Block,
) -> Result<Vec<bool>> {
    let mut bits = vec![false; in_keys.len()];
    for &(p, _, b) in linked {
        bits[p] = b;
    }
    for &p in owners.alice {
        let bucket = mat
            .input
            .get(first_input + p)
            .ok_or_else(|| Error::config("lego: input bucket missing"))?;
        bits[p] = extract_bit(bucket, in_keys[p], delta).ok_or(Error::Cheating {
            check: "input-bucket-extraction",
        })?;
    }
    for (&p, &yi) in owners.bob.iter().zip(y) {
        bits[p] = yi;
    }
    let mut groups = Vec::new();
    let mut at = 0;
    for g in &c.inputs {
        groups.push(bits[at..at + g.width()].to_vec());
        at += g.width();
    }
    let out = c
        .eval(&groups)
        .map_err(|e| Error::config(format!("lego: plaintext evaluation after extraction: {e}")))?;
    Ok(out.into_iter().flatten().collect())
}
