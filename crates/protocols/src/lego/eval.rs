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

use super::bucket::{eval_and_bucket, input_key_accepted, BucketOut};
use super::build::{Built, BuiltBob};
use super::extract::extract_bit;
use super::hcom::{HcomReceiver, HcomSender};
use super::material::{BobMaterial, Layout};
use brickyard_circuit::{Circuit, Gate};
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
    Ok(bob_linked(hcom, ch, c, built, layout, mat, owners, y, &[])?.0)
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
    let at = built.built.at;
    let b = &mat.rot_b[at.rot..at.rot + owners.bob.len()];
    let e: Vec<bool> = b.iter().zip(y).map(|(b, y)| b ^ y).collect();
    ch.send_bits(&e)?;
    let their = ch.recv_block_vec(owners.alice.len())?;
    let d = hcom.verify_open(ch, &opening_sets(&built.built, layout, owners, &e))?;
    let (d_in, d_out) = d.split_at(owners.bob.len());
    let n_in = built.built.input_sets.len();
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
    for (p, &k) in in_keys.iter().enumerate() {
        if built.built.linked[p] {
            continue;
        }
        let auths = &mat.input_auth[at.input + p];
        if !input_key_accepted(k ^ built.auth_solder[p], auths) {
            return Err(Error::Cheating {
                check: "input-authenticator",
            });
        }
    }
    // Step 5: evaluate.
    let mut keys = vec![Block::ZERO; c.num_wires as usize];
    for (w, &k) in c.inputs.iter().flat_map(|g| g.wires.iter()).zip(&in_keys) {
        keys[*w as usize] = k;
    }
    let mut k_and = 0;
    let mut scratch = brickyard_garble::AndScratch::new();
    let mut refresh = built.refresh.iter().peekable();
    for (gi, g) in c.gates.iter().enumerate() {
        let v = match *g {
            Gate::Xor { a, b, .. } => keys[a as usize] ^ keys[b as usize],
            Gate::Inv { a, .. } => keys[a as usize],
            Gate::And { a, b, .. } => {
                let s = built.solder[k_and];
                let bucket = &mat.and[at.and + k_and];
                k_and += 1;
                match eval_and_bucket(
                    bucket,
                    keys[a as usize] ^ s[0],
                    keys[b as usize] ^ s[1],
                    &mat.checked_auths,
                    &mut scratch,
                ) {
                    BucketOut::Key(k) => k,
                    BucketOut::Delta(delta) => {
                        return Ok((
                            extract_and_compute(
                                c, mat, at.input, &in_keys, owners, y, linked, delta,
                            )?,
                            Vec::new(),
                        ))
                    }
                }
            }
        };
        let v = match refresh.peek() {
            Some(&&(at_gate, s)) if at_gate == gi => {
                refresh.next();
                v ^ s
            }
            _ => v,
        };
        keys[g.output() as usize] = v;
    }
    let out_wires: Vec<u32> = c
        .outputs
        .iter()
        .flat_map(|g| g.wires.iter().copied())
        .collect();
    let bits = out_wires
        .iter()
        .zip(d_out)
        .enumerate()
        .map(|(j, (&w, dj))| keys[w as usize].lsb() ^ dj.lsb() ^ mat.v_lsb[at.out + j])
        .collect();
    Ok((bits, out_wires.iter().map(|&w| keys[w as usize]).collect()))
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
        bits[p] =
            extract_bit(&mat.input[first_input + p], in_keys[p], delta).ok_or(Error::Cheating {
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
