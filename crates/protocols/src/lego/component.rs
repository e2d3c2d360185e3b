//! The two garbled components of Generate step 3: half-gates AND gates and
//! wire authenticators (TinyLEGO), under one Generate call's Δ.
//!
//! A **wire authenticator** for a wire with 0-key `K⁰` is the pair
//! `T[c] = H(K⁰ ⊕ (c ⊕ lsb K⁰)·Δ, tweak)`, `c ∈ {0,1}`: it accepts a key `K`
//! iff `T[lsb K] = H(K, tweak)`. A good one accepts exactly `K⁰` and
//! `K⁰ ⊕ Δ` (lsb Δ = 1 puts them in different slots) and reveals neither:
//! H is the tweakable correlation-robust hash the gates use. Gate `j` uses
//! the garbling tweaks of AND index `j` (offset 0); authenticator `j` uses
//! tweak `(j, 1)`, so no tweak repeats under one Δ.

use brickyard_core::aes::fixed_key;
use brickyard_core::hash::{tccr, tccr_batch};
use brickyard_core::Block;
use brickyard_core::Result;
use brickyard_garble::tweak::and_tweak;
use brickyard_garble::{eval_and, garble_ands, AndScratch, Delta};

/// The tweak of authenticator `id`.
pub fn auth_tweak(id: u64) -> Block {
    Block::from_halves(id, 1)
}

/// Garbles gates with 0-keys `l0`, `r0` and ids `first..`: output 0-keys
/// and tables `[T_G, T_E]` per gate.
pub fn garble_gates(
    l0: &[Block],
    r0: &[Block],
    delta: &Delta,
    first: u64,
) -> Result<(Vec<Block>, Vec<Block>)> {
    let n = l0.len();
    let mut out = vec![Block::ZERO; n];
    let mut tables = vec![Block::ZERO; 2 * n];
    let mut scratch = AndScratch::new();
    const CHUNK: usize = 1024;
    for c in 0..n.div_ceil(CHUNK) {
        let r = c * CHUNK..(c * CHUNK + CHUNK).min(n);
        garble_ands(
            &l0[r.clone()],
            &r0[r.clone()],
            delta,
            0,
            first + r.start as u64,
            &mut out[r.clone()],
            &mut tables[2 * r.start..2 * r.end],
            &mut scratch,
        )?;
    }
    Ok((out, tables))
}

/// Evaluates gate `id` on keys `l`, `r`.
pub fn eval_gate(l: Block, r: Block, table: &[Block; 2], id: u64) -> Block {
    eval_and(l, r, table, id)
}

/// The tweak of gate `id`'s first (garbler-half) hash; the second is this
/// one with bit 0 set (`brickyard_garble::tweak`, offset 0).
#[inline]
pub fn gate_tweak(id: u64) -> Block {
    and_tweak(0, id)
}

/// The hashes of a batch of gate evaluations in one AES pass per step:
/// `x` holds the input pairs `(l, r)` of gate `i` at `2i, 2i + 1`, and
/// `h` receives `H(l, t_i)` and `H(r, t_i ⊕ 1)` with `t_i = gate_tweak(ids[i])`.
/// `u` is scratch of `x`'s length. [`gate_output`] finishes each gate.
///
/// # Panics
/// If the lengths disagree (the caller's own buffers).
pub fn hash_gate_inputs(x: &[Block], ids: &[u64], h: &mut [Block], u: &mut [Block]) {
    assert!(x.len() == 2 * ids.len() && h.len() == x.len() && u.len() == x.len());
    let pi = fixed_key();
    pi.encrypt_blocks_to(x, u);
    for ((hc, uc), &id) in h.chunks_exact_mut(2).zip(u.chunks_exact(2)).zip(ids) {
        let t = gate_tweak(id);
        hc[0] = uc[0] ^ t;
        hc[1] = uc[1] ^ t ^ Block(1);
    }
    pi.encrypt_blocks(h);
    for (hb, ub) in h.iter_mut().zip(u.iter()) {
        *hb ^= *ub;
    }
}

/// The half-gates evaluator's output for keys `l`, `r` from their hashes
/// (see [`hash_gate_inputs`]); equal to [`eval_gate`] (tested).
#[inline(always)]
pub fn gate_output(l: Block, r: Block, hl: Block, hr: Block, table: &[Block; 2]) -> Block {
    hl ^ table[0].and_bit(l.lsb()) ^ hr ^ (table[1] ^ l).and_bit(r.lsb())
}

/// Which of `keys` the authenticators accept: `keys[i]` is checked by
/// `(tables[i], ids[i])` (one hash batch for all). `scratch` is reused.
pub fn auths_accept(
    keys: &[Block],
    tables: &[[Block; 2]],
    ids: &[u64],
    scratch: &mut Vec<Block>,
    out: &mut Vec<bool>,
) {
    scratch.clear();
    scratch.extend_from_slice(keys);
    let tw: Vec<Block> = ids.iter().map(|&id| auth_tweak(id)).collect();
    tccr_batch(scratch, &tw);
    out.clear();
    out.extend(
        scratch
            .iter()
            .zip(keys)
            .zip(tables)
            .map(|((h, k), t)| *h == t[k.lsb() as usize]),
    );
}

/// Builds authenticators for 0-keys `k0` with ids `first..`: `2` hashes each.
pub fn make_auths(k0: &[Block], delta: Block, first: u64) -> Vec<Block> {
    let mut x = Vec::with_capacity(2 * k0.len());
    let mut tw = Vec::with_capacity(2 * k0.len());
    for (j, &k) in k0.iter().enumerate() {
        // Slot c holds the key whose lsb is c.
        let (a, b) = if k.lsb() {
            (k ^ delta, k)
        } else {
            (k, k ^ delta)
        };
        x.push(a);
        x.push(b);
        let t = auth_tweak(first + j as u64);
        tw.push(t);
        tw.push(t);
    }
    tccr_batch(&mut x, &tw);
    x
}

/// Whether authenticator `id` with table `t` accepts `key`.
pub fn auth_accepts(key: Block, t: &[Block; 2], id: u64) -> bool {
    tccr(key, auth_tweak(id)) == t[key.lsb() as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::prg::Prg;

    #[test]
    fn authenticator_accepts_exactly_the_two_keys() {
        let mut prg = Prg::from_seed(Block(1));
        let delta = Delta::random(&mut prg);
        let k0: Vec<Block> = prg.random_blocks(8);
        let t = make_auths(&k0, delta.block(), 5);
        for (j, &k) in k0.iter().enumerate() {
            let tab = [t[2 * j], t[2 * j + 1]];
            let id = 5 + j as u64;
            assert!(auth_accepts(k, &tab, id));
            assert!(auth_accepts(k ^ delta.block(), &tab, id));
            assert!(!auth_accepts(k ^ Block(2), &tab, id));
            assert!(!auth_accepts(k, &tab, id + 1));
        }
    }

    #[test]
    fn batched_gate_evaluation_is_the_garble_crates() {
        let mut prg = Prg::from_seed(Block(2));
        let delta = Delta::random(&mut prg);
        let n = 300;
        let l0: Vec<Block> = prg.random_blocks(n);
        let r0: Vec<Block> = prg.random_blocks(n);
        let (_, tables) = garble_gates(&l0, &r0, &delta, 40).unwrap();
        // Gates in a scrambled order with arbitrary (non-consecutive) ids.
        let order: Vec<usize> = (0..n).map(|i| (i * 7) % n).collect();
        let mut x = Vec::new();
        let mut ids = Vec::new();
        for (j, &g) in order.iter().enumerate() {
            let (a, b) = (j % 2 == 1, j % 3 == 1);
            x.push(l0[g] ^ delta.block().and_bit(a));
            x.push(r0[g] ^ delta.block().and_bit(b));
            ids.push(40 + g as u64);
        }
        let (mut h, mut u) = (vec![Block::ZERO; 2 * n], vec![Block::ZERO; 2 * n]);
        hash_gate_inputs(&x, &ids, &mut h, &mut u);
        for (j, &g) in order.iter().enumerate() {
            let t = [tables[2 * g], tables[2 * g + 1]];
            let want = eval_gate(x[2 * j], x[2 * j + 1], &t, ids[j]);
            let got = gate_output(x[2 * j], x[2 * j + 1], h[2 * j], h[2 * j + 1], &t);
            assert_eq!(got, want, "gate {g}");
        }
    }
}
