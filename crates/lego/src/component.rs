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

use super::material::GateB;
use brickyard_core::aes::soldered::SolderedGate;
use brickyard_core::hash::{tccr, tccr_batch};
use brickyard_core::Block;
use brickyard_core::Result;
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
    garble_gates_into(l0, r0, delta, first, &mut out, &mut tables)?;
    Ok((out, tables))
}

/// [`garble_gates`] into the caller's buffers (Generate writes the output
/// 0-keys straight into the values it commits to: no gate-sized copy).
pub fn garble_gates_into(
    l0: &[Block],
    r0: &[Block],
    delta: &Delta,
    first: u64,
    out: &mut [Block],
    tables: &mut [Block],
) -> Result<()> {
    let n = l0.len();
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
    Ok(())
}

/// Evaluates gate `id` on keys `l`, `r`.
pub fn eval_gate(l: Block, r: Block, table: &[Block; 2], id: u64) -> Block {
    eval_and(l, r, table, id)
}

/// Bob's garbled gates are read in place by the fused bucket kernel
/// (`brickyard_core::aes::soldered`): gate `id` hashes under the garbling's
/// tweak `and_tweak(0, id)`, as [`garble_gates`] made it.
impl SolderedGate for GateB {
    #[inline(always)]
    fn table(&self) -> &[Block; 2] {
        &self.table
    }
    #[inline(always)]
    fn id(&self) -> u64 {
        self.id
    }
    #[inline(always)]
    fn solder(&self) -> &[Block; 3] {
        &self.s
    }
}

/// Builds authenticators for 0-keys `k0` with ids `first..`: `2` hashes each.
pub fn make_auths(k0: &[Block], delta: Block, first: u64) -> Vec<Block> {
    let mut x = vec![Block::ZERO; 2 * k0.len()];
    let mut tw = vec![Block::ZERO; 2 * k0.len()];
    make_auths_into(k0, delta, first, &mut x, &mut tw);
    x
}

/// [`make_auths`] into `out` (2 blocks per key), with `tweaks` (as long)
/// as scratch: Generate builds them a chunk at a time into reused buffers
/// and sends each chunk, instead of two authenticator-sized vectors.
pub fn make_auths_into(
    k0: &[Block],
    delta: Block,
    first: u64,
    out: &mut [Block],
    tweaks: &mut [Block],
) {
    for (j, &k) in k0.iter().enumerate() {
        // Slot c holds the key whose lsb is c.
        let (a, b) = if k.lsb() {
            (k ^ delta, k)
        } else {
            (k, k ^ delta)
        };
        out[2 * j] = a;
        out[2 * j + 1] = b;
        let t = auth_tweak(first + j as u64);
        tweaks[2 * j] = t;
        tweaks[2 * j + 1] = t;
    }
    tccr_batch(&mut out[..2 * k0.len()], &tweaks[..2 * k0.len()]);
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
    fn soldered_evaluation_is_the_garble_crates() {
        use brickyard_core::aes::soldered::{eval_soldered, eval_soldered_portable};
        let mut prg = Prg::from_seed(Block(2));
        let delta = Delta::random(&mut prg);
        let d = delta.block();
        let n = 300;
        let l0: Vec<Block> = prg.random_blocks(n);
        let r0: Vec<Block> = prg.random_blocks(n);
        let (o0, tables) = garble_gates(&l0, &r0, &delta, 40).unwrap();
        // Buckets of 3 gates in a scrambled order with arbitrary ids; the
        // head keys are gate g's own keys translated by random solderings,
        // and each gate gets the inverse soldering, plus one onto its
        // output: the kernel must return that gate's output key ⊕ s_O.
        let per = 3;
        let order: Vec<usize> = (0..n).map(|i| (i * 7) % n).collect();
        let mut heads = Vec::new();
        let mut gates = Vec::new();
        let mut want = Vec::new();
        for (j, &g) in order.iter().enumerate() {
            let (a, b) = (j % 2 == 1, j % 3 == 1);
            let (l, r) = (l0[g] ^ d.and_bit(a), r0[g] ^ d.and_bit(b));
            if j % per == 0 {
                heads.push([prg.random_block(), prg.random_block()]);
            }
            let h = heads[j / per];
            let s = [h[0] ^ l, h[1] ^ r, prg.random_block()];
            let table = [tables[2 * g], tables[2 * g + 1]];
            let id = 40 + g as u64;
            let out = eval_gate(l, r, &table, id);
            assert_eq!(out, o0[g] ^ d.and_bit(a && b), "garble crate, gate {g}");
            want.push(out ^ s[2]);
            gates.push(GateB { table, id, s });
        }
        let mut got = vec![Block::ZERO; n];
        eval_soldered(&heads, per, &gates, &mut got);
        assert_eq!(got, want);
        eval_soldered_portable(&heads, per, &gates, &mut got);
        assert_eq!(got, want);
    }
}
