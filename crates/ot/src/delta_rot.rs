//! Δ-ROT as LEGO needs it (Nielsen–Schneider–Trifiletti, NDSS 2017,
//! Sec. III-B): random OTs whose pairs all differ by one global Δ, with Δ
//! uniform in the receiver's view even if the receiver cheated.
//!
//! 1. **Leaky Δ-ROT of length k + s.** An IKNP extension over `u = k + s`
//!    columns (168 for k = 128, s = 40) with the revised KOS column check
//!    ([`crate::kos`]). A malicious receiver can still learn individual
//!    bits of the `u`-bit Δ' — by using different choice bits in some
//!    columns and guessing those bits in the check — but each learned bit
//!    costs it a 1/2 chance of being caught, and the other bits stay
//!    uniform: exactly the paper's "leaky Δ-ROT".
//! 2. **Linear randomness extraction.** After the check, the sender draws a
//!    random `u × k` matrix `A` and both sides multiply their strings by it:
//!    `Δ = Δ'·A`, `q_i = q'_i·A`, `t_i = t'_i·A`, which keeps
//!    `t_i = q_i ⊕ b_i·Δ`. By Theorem 1 (Zhou–Bruck, ISIT 2011, Thm. 7) a receiver that
//!    learned λ bits makes `Δ` non-uniform with probability ≤ 2^(λ−s) over A,
//!    and it survives the check with probability 2^−λ: ≤ 2^−s in total.
//!    So `u = k + s` rows suffice (not `2^(2/3)·k`).
//! 3. **lsb(Δ) = 1** when asked: the sender tells the receiver whether it
//!    flips bit 0 of Δ, and the receiver XORs `b_i` into bit 0 of `t_i`. The
//!    flip bit is `lsb(Δ'A)`, which is independent of the other 127 bits
//!    when `Δ'A` is uniform, so it leaks nothing about them.
//!
//! A session extends **once**. `A` must be chosen after every bit the
//! receiver could have learned is fixed: a later extension under a public
//! `A` would let a cheater target a low-weight vector `w` with `A·w` known
//! (a random [168,128] code has codewords of weight ≈ 10), learning a
//! linear function of Δ for a 2^-10 risk instead of 2^-40.

use crate::base;
use crate::ext::Choices;
use crate::iknp::{transpose_to, KAPPA};
use crate::kos::columns::{chunk_nbs, ColReceiver, ColSender};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use zeroize::Zeroize;

/// The statistical and computational parameters of a Δ-ROT session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeltaRotParams {
    /// Length of the extracted strings and of Δ (bits); fixed to 128.
    pub k: usize,
    /// Statistical security: a cheating receiver gains a non-uniform Δ with
    /// probability at most 2^-s.
    pub s: usize,
}

impl Default for DeltaRotParams {
    fn default() -> Self {
        DeltaRotParams { k: 128, s: 40 }
    }
}

impl DeltaRotParams {
    /// Validates `(k, s)`: `k` must be the block length, `s` at least 40
    /// (the project's floor) and at most 128 (two column groups).
    pub fn new(k: usize, s: usize) -> Result<Self> {
        if k != KAPPA {
            return Err(Error::config(format!(
                "Δ-ROT strings are {KAPPA}-bit blocks; k = {k} is not supported"
            )));
        }
        if !(40..=128).contains(&s) {
            return Err(Error::config(format!(
                "Δ-ROT statistical parameter s = {s} refused (need 40 ≤ s ≤ 128)"
            )));
        }
        Ok(DeltaRotParams { k, s })
    }

    /// Length of the leaky strings: `u = k + s` (Theorem 1 with `l = u − λ`).
    pub fn leaky_len(&self) -> usize {
        self.k + self.s
    }
}

/// The sender's lsb flag (whether the receiver flips its strings' lsb):
/// the Block 0 or 1, anything else `Malformed`.
pub(crate) fn decode_lsb_flag(b: Block) -> Result<bool> {
    match b {
        Block(0) => Ok(false),
        Block(1) => Ok(true),
        _ => Err(Error::malformed("Δ-ROT lsb flag is not 0 or 1")),
    }
}

/// The public `u × k` extraction matrix `A` (row `j` is a Block).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtractionMatrix {
    rows: Vec<Block>,
}

impl ExtractionMatrix {
    /// The matrix expanded from a seed both parties know.
    pub fn from_seed(seed: Block, u: usize) -> Self {
        ExtractionMatrix {
            rows: Prg::from_seed(seed).random_blocks(u),
        }
    }

    /// Its rows `A_j`.
    pub fn rows(&self) -> &[Block] {
        &self.rows
    }

    /// `x·A` for a `u`-bit row vector given as bits.
    pub fn apply_bits(&self, bits: &[bool]) -> Block {
        let mut acc = Block::ZERO;
        for (&a, &b) in self.rows.iter().zip(bits) {
            acc ^= a.and_bit(b);
        }
        acc
    }

    /// Multiplies every row of a column matrix by `A`, in column space:
    /// output column `o` is `⊕_j A_j[o]·col_j`. `cols` holds `u` columns of
    /// `nb` blocks, `out` receives 128 columns of `nb` blocks. Memory
    /// accesses depend only on `A`, which is public.
    pub fn apply_columns(&self, cols: &[Block], nb: usize, out: &mut [Block]) {
        assert_eq!(
            cols.len(),
            self.rows.len() * nb,
            "apply_columns: input size"
        );
        assert_eq!(out.len(), KAPPA * nb, "apply_columns: output size");
        out.fill(Block::ZERO);
        for (a, col) in self.rows.iter().zip(cols.chunks_exact(nb)) {
            // Only the set bits of the (public) row: no test per output column.
            let mut set = a.0;
            while set != 0 {
                let o = set.trailing_zeros() as usize;
                brickyard_core::block::xor_in_place(&mut out[o * nb..(o + 1) * nb], col);
                set &= set - 1;
            }
        }
    }
}

/// Extracts and transposes every data chunk of `store` into `out`.
fn extract_rows(a: &ExtractionMatrix, u: usize, store: &[Block], out: &mut [Block]) {
    let (mut off, mut first) = (0, 0);
    let mut cols = Vec::new();
    let mut scratch = Vec::new();
    for (rows, nb) in chunk_nbs(out.len()) {
        cols.resize(KAPPA * nb, Block::ZERO);
        a.apply_columns(&store[off..off + u * nb], nb, &mut cols);
        transpose_to(&cols, &mut scratch, &mut out[first..first + rows]);
        off += u * nb;
        first += rows;
    }
    cols.zeroize();
    scratch.zeroize();
}

/// The Δ-ROT sender: holds Δ (LEGO's global garbling offset).
#[cfg_attr(feature = "fuzzing", derive(Clone))]
pub struct DeltaRotSender {
    core: ColSender,
    params: DeltaRotParams,
    delta_bits: Vec<bool>,
    force_lsb: bool,
    prg: Prg,
    delta: Option<Block>,
}

impl std::fmt::Debug for DeltaRotSender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "DeltaRotSender {{ {:?}, extended: {} }}",
            self.params,
            self.delta.is_some()
        )
    }
}

impl Drop for DeltaRotSender {
    fn drop(&mut self) {
        self.delta_bits.zeroize();
        self.delta.zeroize();
    }
}

/// A Δ-ROT sender waiting for its base OTs ([`DeltaRotSender::prepare`]).
pub struct DeltaRotSenderSetup {
    delta_bits: Vec<bool>,
    params: DeltaRotParams,
    force_lsb: bool,
    prg: Prg,
}

impl Drop for DeltaRotSenderSetup {
    fn drop(&mut self) {
        self.delta_bits.zeroize();
    }
}

impl DeltaRotSenderSetup {
    /// The base OTs' choice bits (Δ'), one per leaky column.
    pub fn choices(&self) -> &[bool] {
        &self.delta_bits
    }

    /// The sender, from the keys the base OTs with [`Self::choices`]
    /// gave (as their receiver). `Config` if there is not one per column.
    pub fn finish(mut self, seeds: Vec<Block>) -> Result<DeltaRotSender> {
        if seeds.len() != self.delta_bits.len() {
            return Err(Error::config("Δ-ROT: one base OT per leaky column"));
        }
        let delta_bits = std::mem::take(&mut self.delta_bits);
        let prg = std::mem::replace(&mut self.prg, Prg::from_seed(Block::ZERO));
        Ok(DeltaRotSender {
            core: ColSender::from_base(delta_bits.clone(), seeds),
            params: self.params,
            delta_bits,
            force_lsb: self.force_lsb,
            prg,
            delta: None,
        })
    }
}

impl DeltaRotSender {
    /// Base OTs for `k + s = 168` columns; `force_lsb` makes `lsb(Δ) = 1`
    /// (point-and-permute garbling, LEGO's input-bit check).
    pub fn setup(ch: &mut Channel, prg: &mut Prg, force_lsb: bool) -> Result<Self> {
        Self::setup_with(ch, prg, DeltaRotParams::default(), force_lsb)
    }

    /// As [`DeltaRotSender::setup`] with explicit parameters.
    pub fn setup_with(
        ch: &mut Channel,
        prg: &mut Prg,
        params: DeltaRotParams,
        force_lsb: bool,
    ) -> Result<Self> {
        let pending = Self::prepare(prg, params, force_lsb)?;
        let seeds = base::receive_random(ch, prg, pending.choices())?;
        pending.finish(seeds)
    }

    /// The sender's side before its base OTs: draws the leaky Δ' whose
    /// bits are the base OTs' choices, for a caller that runs the base
    /// OTs itself (e.g. together with base OTs the other way,
    /// [`base::exchange_random`]) and then calls
    /// [`DeltaRotSenderSetup::finish`].
    pub fn prepare(
        prg: &mut Prg,
        params: DeltaRotParams,
        force_lsb: bool,
    ) -> Result<DeltaRotSenderSetup> {
        let params = DeltaRotParams::new(params.k, params.s)?;
        Ok(DeltaRotSenderSetup {
            delta_bits: prg.random_bits(params.leaky_len()),
            params,
            force_lsb,
            prg: Prg::from_seed(prg.random_block()),
        })
    }

    /// Δ, once [`DeltaRotSender::extend`] has fixed it.
    pub fn delta(&self) -> Option<Block> {
        self.delta
    }

    /// The leaky `u`-bit Δ' the column check protects (tests of that check
    /// only: a column cheat must be caught exactly when its guess of the
    /// attacked bit is wrong).
    #[cfg(feature = "adversary")]
    pub fn leaky_delta_bits(&self) -> &[bool] {
        &self.delta_bits
    }

    /// Runs the leaky extension of `n` Δ-ROTs, its check, and the
    /// extraction; returns the `q_i` (the pair is `(q_i, q_i ⊕ Δ)`).
    /// A second call is refused: see the module documentation.
    pub fn extend(&mut self, ch: &mut Channel, n: usize) -> Result<Vec<Block>> {
        if self.delta.is_some() {
            return Err(Error::config(
                "a Δ-ROT session extends once (the extraction matrix is public afterwards)",
            ));
        }
        self.core.extend(ch, &mut self.prg, n, |_, _, _| {})?;
        let u = self.params.leaky_len();
        let seed = self.prg.random_block();
        let a = ExtractionMatrix::from_seed(seed, u);
        let mut delta = a.apply_bits(&self.delta_bits);
        let flip = self.force_lsb && !delta.lsb();
        delta ^= Block(flip as u128);
        ch.send_blocks(&[seed, Block(flip as u128)])?;
        ch.flush()?;
        let mut out = vec![Block::ZERO; n];
        extract_rows(&a, u, &self.core.store, &mut out);
        self.core.store.zeroize();
        self.delta = Some(delta);
        Ok(out)
    }
}

/// The Δ-ROT receiver: random choice bits `b_i` and `t_i = q_i ⊕ b_i·Δ`.
#[cfg_attr(feature = "fuzzing", derive(Clone))]
pub struct DeltaRotReceiver {
    core: ColReceiver,
    params: DeltaRotParams,
    prg: Prg,
    done: bool,
}

impl std::fmt::Debug for DeltaRotReceiver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "DeltaRotReceiver {{ {:?}, extended: {} }}",
            self.params, self.done
        )
    }
}

impl DeltaRotReceiver {
    /// Base OTs (as their sender) for `k + s` columns.
    pub fn setup(ch: &mut Channel, prg: &mut Prg) -> Result<Self> {
        Self::setup_with(ch, prg, DeltaRotParams::default())
    }

    /// As [`DeltaRotReceiver::setup`] with explicit parameters (both parties
    /// must use the same).
    pub fn setup_with(ch: &mut Channel, prg: &mut Prg, params: DeltaRotParams) -> Result<Self> {
        let params = DeltaRotParams::new(params.k, params.s)?;
        let seeds = base::send_random(ch, prg, params.leaky_len())?;
        Self::from_base(prg, params, seeds)
    }

    /// The receiver from base OTs already run (as their sender, one per
    /// leaky column of `params`: [`DeltaRotParams::leaky_len`]); `Config`
    /// if the count differs.
    pub fn from_base(
        prg: &mut Prg,
        params: DeltaRotParams,
        seeds: Vec<(Block, Block)>,
    ) -> Result<Self> {
        let params = DeltaRotParams::new(params.k, params.s)?;
        if seeds.len() != params.leaky_len() {
            return Err(Error::config("Δ-ROT: one base OT per leaky column"));
        }
        Ok(DeltaRotReceiver {
            core: ColReceiver::from_base(seeds),
            params,
            prg: Prg::from_seed(prg.random_block()),
            done: false,
        })
    }

    /// Installs a cheating strategy against the check (tests only).
    #[cfg(feature = "adversary")]
    pub fn set_cheat(&mut self, cheat: Option<crate::adversary::KosReceiverCheat>) {
        self.core.cheat = cheat;
    }

    /// The receiver's half of [`DeltaRotSender::extend`]: returns the
    /// random choice bits `b_i` and `t_i = q_i ⊕ b_i·Δ`.
    pub fn extend(&mut self, ch: &mut Channel, n: usize) -> Result<(Vec<bool>, Vec<Block>)> {
        if self.done {
            return Err(Error::config(
                "a Δ-ROT session extends once (the extraction matrix is public afterwards)",
            ));
        }
        self.done = true;
        let mut bits = Vec::with_capacity(n);
        let mut choice_prg = Prg::from_seed(self.prg.random_block());
        self.core.extend(
            ch,
            &mut self.prg,
            n,
            &mut Choices::Random(&mut choice_prg, &mut bits),
            |_, _, _| {},
        )?;
        let msg = ch.recv_block_vec(2)?;
        let flip = decode_lsb_flag(msg[1])?;
        let a = ExtractionMatrix::from_seed(msg[0], self.params.leaky_len());
        let mut out = vec![Block::ZERO; n];
        extract_rows(&a, self.params.leaky_len(), &self.core.store, &mut out);
        self.core.store.zeroize();
        if flip {
            for (t, &b) in out.iter_mut().zip(&bits) {
                *t ^= Block(b as u128);
            }
        }
        Ok((bits, out))
    }
}
