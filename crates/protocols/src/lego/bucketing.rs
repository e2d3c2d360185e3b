//! Bucketing, Fig. 1 steps 11–12: Bob's random permutation of the
//! unchecked components into q AND buckets (β gates + α authenticators),
//! n input buckets (β̃ gates) and n input authenticators (α̃), and Alice's
//! solderings that give every component of a bucket the head's keys.
//!
//! Solderings (each the XOR of two committed 0-keys, batch-opened):
//! AND bucket with head h — `L_g⊕L_h, R_g⊕R_h, O_g⊕O_h` per other gate g,
//! `K_a⊕O_h` per authenticator; input bucket — `R_h⊕L_h`, then
//! `L_g⊕L_h, R_g⊕L_h` (both inputs of every gate carry the input wire, the
//! trapdoor Eval uses to extract Alice's input); input authenticators —
//! `K_a⊕K_h`.

use super::cut_and_choose::Survivors;
use super::generate::{Ids, Plan};
use super::hcom::{HcomReceiver, HcomSender};
use super::material::{AuthB, BobMaterial, Flat, GateB, Layout};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};

struct Assignment {
    and: Vec<(Vec<usize>, Vec<usize>)>,
    input: Vec<Vec<usize>>,
    input_auth: Vec<Vec<usize>>,
}

fn assign(seed: Block, plan: &Plan, mut s: Survivors) -> Assignment {
    let mut prg = Prg::from_seed(seed);
    prg.shuffle(&mut s.gates);
    prg.shuffle(&mut s.auths);
    let p = &plan.params;
    let (q, n) = (p.q as usize, p.n as usize);
    let (b, a, bi, ai) = (
        p.beta as usize,
        p.alpha as usize,
        p.beta_in as usize,
        p.alpha_in as usize,
    );
    let and = (0..q)
        .map(|i| {
            (
                s.gates[i * b..(i + 1) * b].to_vec(),
                s.auths[i * a..(i + 1) * a].to_vec(),
            )
        })
        .collect();
    let input = (0..n)
        .map(|i| s.gates[q * b + i * bi..q * b + (i + 1) * bi].to_vec())
        .collect();
    let input_auth = (0..n)
        .map(|i| s.auths[q * a + i * ai..q * a + (i + 1) * ai].to_vec())
        .collect();
    Assignment {
        and,
        input,
        input_auth,
    }
}

fn solder_sets(asg: &Assignment, ids: &Ids) -> Vec<Vec<usize>> {
    let mut sets = Vec::new();
    for (gates, auths) in &asg.and {
        let h = gates[0];
        for &g in &gates[1..] {
            sets.push(vec![ids.l + g, ids.l + h]);
            sets.push(vec![ids.r + g, ids.r + h]);
            sets.push(vec![ids.o + g, ids.o + h]);
        }
        for &a in auths {
            sets.push(vec![ids.k + a, ids.o + h]);
        }
    }
    for gates in &asg.input {
        let h = gates[0];
        sets.push(vec![ids.r + h, ids.l + h]);
        for &g in &gates[1..] {
            sets.push(vec![ids.l + g, ids.l + h]);
            sets.push(vec![ids.r + g, ids.l + h]);
        }
    }
    for auths in &asg.input_auth {
        for &a in &auths[1..] {
            sets.push(vec![ids.k + a, ids.k + auths[0]]);
        }
    }
    sets
}

fn layout(asg: &Assignment, ids: &Ids, plan: &Plan) -> Layout {
    Layout {
        delta_id: ids.delta,
        r_ids: (0..plan.params.n as usize).map(|i| ids.r0 + i).collect(),
        v_ids: (0..plan.m).map(|j| ids.v + j).collect(),
        and_heads: asg
            .and
            .iter()
            .map(|(g, _)| [ids.l + g[0], ids.r + g[0], ids.o + g[0]])
            .collect(),
        in_heads: asg.input.iter().map(|g| ids.l + g[0]).collect(),
        in_auth_heads: asg.input_auth.iter().map(|a| ids.k + a[0]).collect(),
        refresh_ids: (0..plan.refresh()).map(|j| ids.refresh + j).collect(),
        next: Default::default(),
    }
}

/// Alice: receives the permutation, sends the solderings.
pub(crate) fn alice(
    hcom: &HcomSender,
    ch: &mut Channel,
    plan: &Plan,
    ids: &Ids,
    s: Survivors,
    #[allow(unused)] cheat: &super::cheat::Cheats,
) -> Result<Layout> {
    let asg = assign(ch.recv_block()?, plan, s);
    #[allow(unused_mut)]
    let mut sets = solder_sets(&asg, ids);
    #[cfg(feature = "adversary")]
    cheat.corrupt_sets(super::cheat::Cheat::BadSoldering, &mut sets, ids.delta);
    hcom.batch_open(ch, &sets)?;
    Ok(layout(&asg, ids, plan))
}

/// Bob: samples the permutation, verifies the solderings, and assembles
/// his buckets.
#[allow(clippy::too_many_arguments)]
pub(crate) fn bob(
    hcom: &mut HcomReceiver,
    ch: &mut Channel,
    plan: &Plan,
    ids: &Ids,
    s: Survivors,
    tables: &[Block],
    auth_tables: &[Block],
    prg: &mut Prg,
) -> Result<(Layout, BobMaterial)> {
    let seed = prg.random_block();
    ch.send_block(seed)?;
    let asg = assign(seed, plan, s);
    let sold = hcom.verify_batch_open(ch, &solder_sets(&asg, ids))?;
    let mut at = sold.into_iter();
    let mut next = || {
        at.next()
            .ok_or_else(|| Error::malformed("lego: short soldering opening"))
    };
    let gate = |j: usize, s: [Block; 3]| GateB {
        table: [tables[2 * j], tables[2 * j + 1]],
        id: j as u64,
        s,
    };
    let auth = |j: usize, s: Block| AuthB {
        table: [auth_tables[2 * j], auth_tables[2 * j + 1]],
        id: j as u64,
        s,
    };
    let p = &plan.params;
    let mut mat = BobMaterial::default();
    mat.and_gates = Flat::new(p.beta as usize);
    mat.and_auths = Flat::new(p.alpha as usize);
    mat.input = Flat::new(p.beta_in as usize);
    mat.input_auth = Flat::new(p.alpha_in as usize);
    mat.and_gates.items.reserve(asg.and.len() * p.beta as usize);
    mat.and_auths
        .items
        .reserve(asg.and.len() * p.alpha as usize);
    for (gates, auths) in &asg.and {
        mat.and_gates.items.push(gate(gates[0], [Block::ZERO; 3]));
        for &g in &gates[1..] {
            mat.and_gates
                .items
                .push(gate(g, [next()?, next()?, next()?]));
        }
        for &a in auths {
            mat.and_auths.items.push(auth(a, next()?));
        }
    }
    for gates in &asg.input {
        mat.input
            .items
            .push(gate(gates[0], [Block::ZERO, next()?, Block::ZERO]));
        for &g in &gates[1..] {
            mat.input
                .items
                .push(gate(g, [next()?, next()?, Block::ZERO]));
        }
    }
    for auths in &asg.input_auth {
        mat.input_auth.items.push(auth(auths[0], Block::ZERO));
        for &a in &auths[1..] {
            mat.input_auth.items.push(auth(a, next()?));
        }
    }
    Ok((layout(&asg, ids, plan), mat))
}
