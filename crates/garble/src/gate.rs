//! The half-gates AND (Zahur–Rosulek–Evans 2015), single and batched.
//!
//! This is the only place the half-gates equations are written. Circuits call
//! the batch functions once per chunk of a layer; LEGO-style callers use the
//! single-gate wrappers. With colour bits `p_a = lsb(A₀)`, `p_b = lsb(B₀)`
//! and tweaks `t = tweak(j)`, `t' = t ⊕ 1`:
//!
//! ```text
//! garbler:   T_G = H(A₀,t) ⊕ H(A₁,t) ⊕ p_b·Δ        W_G = H(A₀,t) ⊕ p_a·T_G
//!            T_E = H(B₀,t') ⊕ H(B₁,t') ⊕ A₀          W_E = H(B₀,t') ⊕ p_b·(T_E ⊕ A₀)
//!            C₀  = W_G ⊕ W_E,  table = [T_G, T_E]
//! evaluator: C = H(A,t) ⊕ s_a·T_G ⊕ H(B,t') ⊕ s_b·(T_E ⊕ A)     (s = lsb of the held label)
//! ```

use crate::delta::Delta;
use crate::tweak::and_tweak;
use brickyard_core::aes::fixed_key;
use brickyard_core::{Block, Error, Result};
use zeroize::Zeroizing;

/// Ciphertexts per AND gate.
pub const TABLE_BLOCKS: usize = 2;

/// Reusable buffers for the batch functions, so a layer loop allocates
/// nothing. Wiped on drop: the garbler's hash inputs include both labels.
#[derive(Default)]
pub struct AndScratch {
    /// Hash inputs, then π(inputs).
    u: Zeroizing<Vec<Block>>,
    /// π(π(inputs) ⊕ tweak).
    v: Zeroizing<Vec<Block>>,
}

impl AndScratch {
    /// Empty buffers; they grow to the largest batch seen.
    pub fn new() -> Self {
        Self::default()
    }

    fn prepare(&mut self, n: usize) -> (&mut [Block], &mut [Block]) {
        if self.u.len() < n {
            self.u.resize(n, Block::ZERO);
            self.v.resize(n, Block::ZERO);
        }
        (&mut self.u[..n], &mut self.v[..n])
    }
}

/// TCCR `H(x, t) = π(π(x) ⊕ t) ⊕ π(x)` (`brickyard_core::hash::tccr`) over
/// groups of `K` consecutive blocks of `x`, group `g` hashed with tweak
/// `tweak(g) ⊕ 0` for its first `K/2` blocks and `tweak(g) ⊕ 1` for the rest
/// (the garbler's A- and B-halves). Fused rather than calling
/// `tccr_batch` so that tweaks are generated on the fly instead of stored,
/// and the final `⊕ π(x)` is left to the caller's combining loop:
/// afterwards `H = u[k] ⊕ v[k]`. A test checks it against core's `tccr`.
#[inline]
fn tccr_groups<const K: usize>(u: &mut [Block], v: &mut [Block], tweak: impl Fn(usize) -> Block) {
    let pi = fixed_key();
    pi.encrypt_blocks(u);
    for (g, (uc, vc)) in u.chunks_exact(K).zip(v.chunks_exact_mut(K)).enumerate() {
        let t = tweak(g);
        for k in 0..K {
            vc[k] = uc[k] ^ t ^ Block((2 * k / K) as u128);
        }
    }
    pi.encrypt_blocks(v);
}

fn check_len(what: &str, got: usize, want: usize) -> Result<()> {
    if got != want {
        return Err(Error::config(format!(
            "{what}: {got} blocks, expected {want}"
        )));
    }
    Ok(())
}

/// Garbles `a0.len()` independent AND gates with global indices
/// `first_and, first_and + 1, …` in one hash batch.
///
/// Writes the output 0-labels to `out0` and the tables (`[T_G, T_E]` per gate)
/// to `tables` (length `2 · n`). Mismatched lengths are [`Error::Config`]:
/// they are a bug of the caller, never peer input.
#[allow(clippy::too_many_arguments)]
pub fn garble_ands(
    a0: &[Block],
    b0: &[Block],
    delta: &Delta,
    tweak_offset: u64,
    first_and: u64,
    out0: &mut [Block],
    tables: &mut [Block],
    scratch: &mut AndScratch,
) -> Result<()> {
    let n = a0.len();
    check_len("garble_ands b0", b0.len(), n)?;
    check_len("garble_ands out0", out0.len(), n)?;
    check_len("garble_ands tables", tables.len(), TABLE_BLOCKS * n)?;
    let d = delta.block();
    let (u, v) = scratch.prepare(4 * n);
    for (uc, (&a, &b)) in u.chunks_exact_mut(4).zip(a0.iter().zip(b0)) {
        uc.copy_from_slice(&[a, a ^ d, b, b ^ d]);
    }
    tccr_groups::<4>(u, v, |g| and_tweak(tweak_offset, first_and + g as u64));
    for (((uc, vc), (&a, &b)), (o, tab)) in u
        .chunks_exact(4)
        .zip(v.chunks_exact(4))
        .zip(a0.iter().zip(b0))
        .zip(out0.iter_mut().zip(tables.chunks_exact_mut(TABLE_BLOCKS)))
    {
        let (pa, pb) = (a.lsb(), b.lsb());
        let (ha0, ha1) = (uc[0] ^ vc[0], uc[1] ^ vc[1]);
        let (hb0, hb1) = (uc[2] ^ vc[2], uc[3] ^ vc[3]);
        let hb = hb0 ^ hb1;
        let tg = ha0 ^ ha1 ^ d.and_bit(pb);
        let wg = ha0 ^ tg.and_bit(pa);
        let we = hb0 ^ hb.and_bit(pb);
        *o = wg ^ we;
        tab[0] = tg;
        tab[1] = hb ^ a;
    }
    Ok(())
}

/// Evaluates `a.len()` independent AND gates garbled by [`garble_ands`] with
/// the same `tweak_offset` and `first_and`.
///
/// `tables` usually comes from the peer: a wrong length is
/// [`Error::Malformed`], never a panic.
pub fn eval_ands(
    a: &[Block],
    b: &[Block],
    tables: &[Block],
    tweak_offset: u64,
    first_and: u64,
    out: &mut [Block],
    scratch: &mut AndScratch,
) -> Result<()> {
    let n = a.len();
    if tables.len() != TABLE_BLOCKS * n {
        return Err(Error::malformed(format!(
            "garbled table of {} blocks for {n} AND gates (expected {})",
            tables.len(),
            TABLE_BLOCKS * n
        )));
    }
    check_len("eval_ands b", b.len(), n)?;
    check_len("eval_ands out", out.len(), n)?;
    let (u, v) = scratch.prepare(2 * n);
    for (uc, (&la, &lb)) in u.chunks_exact_mut(2).zip(a.iter().zip(b)) {
        uc.copy_from_slice(&[la, lb]);
    }
    tccr_groups::<2>(u, v, |g| and_tweak(tweak_offset, first_and + g as u64));
    for (((uc, vc), (&la, &lb)), (o, tab)) in u
        .chunks_exact(2)
        .zip(v.chunks_exact(2))
        .zip(a.iter().zip(b))
        .zip(out.iter_mut().zip(tables.chunks_exact(TABLE_BLOCKS)))
    {
        let wg = uc[0] ^ vc[0] ^ tab[0].and_bit(la.lsb());
        let we = uc[1] ^ vc[1] ^ (tab[1] ^ la).and_bit(lb.lsb());
        *o = wg ^ we;
    }
    Ok(())
}

/// Garbles one AND gate (LEGO's independent gates). `gate_id` plays the role
/// of the global AND index under tweak offset 0: the caller keeps it unique
/// per Δ and below [`crate::tweak::MAX_AND_INDEX`]. One gate cannot fill
/// the AES pipeline; for many gates call [`garble_ands`] with a batch.
pub fn garble_and(a0: Block, b0: Block, delta: &Delta, gate_id: u64) -> (Block, [Block; 2]) {
    let mut out = [Block::ZERO];
    let mut table = [Block::ZERO; 2];
    garble_ands(
        &[a0],
        &[b0],
        delta,
        0,
        gate_id,
        &mut out,
        &mut table,
        &mut AndScratch::new(),
    )
    .expect("lengths are fixed here");
    (out[0], table)
}

/// Evaluates one AND gate garbled by [`garble_and`] with the same `gate_id`.
pub fn eval_and(a: Block, b: Block, table: &[Block; 2], gate_id: u64) -> Block {
    let mut out = [Block::ZERO];
    eval_ands(
        &[a],
        &[b],
        table,
        0,
        gate_id,
        &mut out,
        &mut AndScratch::new(),
    )
    .expect("lengths are fixed here");
    out[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::prg::Prg;

    #[test]
    fn fused_hash_is_core_tccr_with_the_documented_tweaks() {
        let mut prg = Prg::from_seed(Block(6));
        let n = 5;
        let x: Vec<Block> = (0..4 * n).map(|_| prg.random_block()).collect();
        let (mut u, mut v) = (x.clone(), vec![Block::ZERO; 4 * n]);
        tccr_groups::<4>(&mut u, &mut v, |g| and_tweak(9, 40 + g as u64));
        for (k, &xk) in x.iter().enumerate() {
            let t = and_tweak(9, 40 + (k / 4) as u64) ^ Block((k % 4 >= 2) as u128);
            assert_eq!(u[k] ^ v[k], brickyard_core::hash::tccr(xk, t), "block {k}");
        }
    }

    #[test]
    fn slice_api_equals_the_circuit_kernels() {
        use brickyard_core::aes::halfgates::{AndSlots, SlotProgram, SlotXors};
        let mut prg = Prg::from_seed(Block(9));
        let delta = Delta::random(&mut prg);
        let n = 29;
        let a0: Vec<Block> = (0..n).map(|_| prg.random_block()).collect();
        let b0: Vec<Block> = (0..n).map(|_| prg.random_block()).collect();
        let (mut out0, mut tables) = (vec![Block::ZERO; n], vec![Block::ZERO; 2 * n]);
        let mut s = AndScratch::new();
        garble_ands(&a0, &b0, &delta, 4, 50, &mut out0, &mut tables, &mut s).unwrap();
        // The same gates over slots: a in 0..n, b in n..2n, outputs after.
        let gates = (0..n as u32)
            .map(|i| AndSlots {
                a: i,
                b: n as u32 + i,
                out: 2 * n as u32 + i,
                flip: 0,
            })
            .collect();
        let prog = SlotProgram::new(3 * n, SlotXors::default(), gates).unwrap();
        let mut w: Vec<Block> = a0.iter().chain(&b0).copied().collect();
        w.resize(3 * n, Block::ZERO);
        let mut t2 = vec![Block::ZERO; 2 * n];
        prog.garble_ands(&mut w, 0..n, delta.block(), 4, 50, &mut t2);
        assert_eq!(t2, tables);
        assert_eq!(&w[2 * n..], &out0[..]);
    }

    #[test]
    fn single_gate_truth_table() {
        let mut prg = Prg::from_seed(Block(7));
        let delta = Delta::random(&mut prg);
        let d = delta.block();
        for id in [0u64, 1, 99] {
            let (a0, b0) = (prg.random_block(), prg.random_block());
            let (c0, table) = garble_and(a0, b0, &delta, id);
            for x in [false, true] {
                for y in [false, true] {
                    let c = eval_and(a0 ^ d.and_bit(x), b0 ^ d.and_bit(y), &table, id);
                    assert_eq!(c, c0 ^ d.and_bit(x && y), "id {id} x {x} y {y}");
                }
            }
            // A different gate id means a different tweak: evaluation fails.
            assert_ne!(eval_and(a0, b0, &table, id + 1), c0);
        }
    }

    #[test]
    fn batch_equals_single_and_rejects_bad_tables() {
        let mut prg = Prg::from_seed(Block(8));
        let delta = Delta::random(&mut prg);
        let n = 37;
        let a0: Vec<Block> = (0..n).map(|_| prg.random_block()).collect();
        let b0: Vec<Block> = (0..n).map(|_| prg.random_block()).collect();
        let mut out0 = vec![Block::ZERO; n];
        let mut tables = vec![Block::ZERO; 2 * n];
        let mut s = AndScratch::new();
        garble_ands(&a0, &b0, &delta, 3, 100, &mut out0, &mut tables, &mut s).unwrap();
        let mut out = vec![Block::ZERO; n];
        eval_ands(&a0, &b0, &tables, 3, 100, &mut out, &mut s).unwrap();
        assert_eq!(out, out0);
        // Offset 0 and id 100+i reproduces nothing from offset 3.
        let (c, t) = garble_and(a0[0], b0[0], &delta, 100);
        assert_ne!([tables[0], tables[1]], t);
        assert_ne!(c, Block::ZERO);
        let short = &tables[..2 * n - 1];
        assert!(matches!(
            eval_ands(&a0, &b0, short, 3, 100, &mut out, &mut s),
            Err(Error::Malformed(_))
        ));
        assert!(matches!(
            garble_ands(
                &a0,
                &b0[1..],
                &delta,
                3,
                100,
                &mut out0,
                &mut tables,
                &mut s
            ),
            Err(Error::Config(_))
        ));
    }
}
