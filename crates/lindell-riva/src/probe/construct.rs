//! The s-probe-resistant matrix E (Definition 2.1): a block-diagonal
//! composition of binary images of Reed–Solomon generator matrices.
//!
//! **One block.** For `l_b` input bits, a field `GF(2^t)`, `K = ⌈l_b/t⌉`
//! message symbols and `N' = K + s − 1` distinct evaluation points
//! `a_1..a_N'`, row `r = j·t + b` of the block is the bit expansion of
//! `(x^b · a_k^j)_{k = 1..N'}` (`t` bits per point, so `n_b = t·N'`).
//! A nonempty set `L` of rows XORs to the expansion of `(P(a_k))_k` where
//! `P(X) = Σ_j c_j X^j` and `c_j` has bit `b` set iff `j·t + b ∈ L`. `L ≠ ∅`
//! gives `P ≠ 0` of degree `< K`, which has at most `K − 1` roots, so at
//! least `N' − K + 1 = s` of the `N'` symbols are nonzero and each nonzero
//! symbol has at least one set bit: the XOR has weight ≥ s.
//!
//! **Blocks.** For `E = diag(E_1, …, E_c)`, a nonempty row set meets some
//! block in a nonempty set, whose columns are disjoint from the other
//! blocks', so the weight is again ≥ s. The paper (Sec. 5) composes small
//! matrices in the same way for long inputs.
//!
//! Bob picks the evaluation points at random (the paper has P2 choose E at
//! random; the argument above holds for any distinct points). The matrix is
//! never sent: Bob sends the [`ProbeSpec`], and Alice accepts it only after
//! [`ProbeSpec::verify`] has re-checked every premise of the argument
//! (field modulus irreducible, points distinct and in the field,
//! `N' − K + 1 ≥ s`, blocks covering exactly `l` rows), then both build E
//! from it. The SS13 construction of the paper's prototype (random
//! polynomials, "might fail with negligible probability") is not used.

use super::gf2t::{is_irreducible, Field, MAX_T, MIN_T};
use super::matrix::BitMatrix;
use brickyard_core::prg::Prg;
use brickyard_core::{Error, Result};
use serde::{Deserialize, Serialize};

/// Largest number of input bits in one block: keeps a block's dense
/// matrix small (4096 × 4455 bits at s = 40) and its build fast.
pub const MAX_BLOCK_ROWS: usize = 4096;
/// Largest input length accepted (bounds the allocation from a peer's spec).
pub const MAX_INPUT_BITS: usize = 1 << 24;

/// Check name when a matrix or spec is not s-probe-resistant.
pub const CHECK: &str = "probe-resistance";

/// One Reed–Solomon block of E.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockSpec {
    /// Input bits (rows) of the block.
    pub rows: u32,
    /// Field degree t.
    pub t: u32,
    /// The `N'` distinct evaluation points in `GF(2^t)`.
    pub points: Vec<u32>,
}

impl BlockSpec {
    fn symbols(&self) -> usize {
        (self.rows as usize).div_ceil(self.t as usize)
    }

    /// Columns `t·N'`.
    pub fn cols(&self) -> usize {
        self.t as usize * self.points.len()
    }
}

/// E as Bob chooses it: `l` rows split into blocks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeSpec {
    /// Probe resistance claimed.
    pub s: u32,
    /// The blocks, in row order.
    pub blocks: Vec<BlockSpec>,
}

/// The smallest `t·(⌈rows/t⌉ + s − 1)` with `⌈rows/t⌉ + s − 1 ≤ 2^t`.
fn best_t(rows: usize, s: u32) -> Option<u32> {
    (MIN_T..=MAX_T)
        .filter(|&t| rows.div_ceil(t as usize) + s as usize - 1 <= 1usize << t)
        .min_by_key(|&t| t as usize * (rows.div_ceil(t as usize) + s as usize - 1))
}

impl ProbeSpec {
    /// Bob's choice for an `l`-bit input: near-equal blocks of at most
    /// [`MAX_BLOCK_ROWS`], each with the smallest `t` and random points.
    pub fn choose(l: usize, s: u32, prg: &mut Prg) -> Result<Self> {
        if l == 0 || l > MAX_INPUT_BITS || s == 0 {
            return Err(Error::config(format!(
                "probe-resistant encoding needs 1 <= l <= {MAX_INPUT_BITS} and s >= 1"
            )));
        }
        let count = l.div_ceil(MAX_BLOCK_ROWS);
        let mut blocks = Vec::with_capacity(count);
        for i in 0..count {
            let rows = l / count + usize::from(i < l % count);
            let t = best_t(rows, s).ok_or_else(|| {
                Error::config(format!("no field up to GF(2^{MAX_T}) fits s = {s}"))
            })?;
            let n_points = rows.div_ceil(t as usize) + s as usize - 1;
            // A uniformly random n_points-subset of the field, in random order.
            let mut all: Vec<u32> = (0..1u32 << t).collect();
            for k in 0..n_points {
                let j = k + prg.gen_range((all.len() - k) as u64) as usize;
                all.swap(k, j);
            }
            all.truncate(n_points);
            blocks.push(BlockSpec {
                rows: rows as u32,
                t,
                points: all,
            });
        }
        Ok(ProbeSpec { s, blocks })
    }

    /// Input bits `l`.
    pub fn rows(&self) -> usize {
        self.blocks.iter().map(|b| b.rows as usize).sum()
    }

    /// Encoded bits `n` (one OT each).
    pub fn cols(&self) -> usize {
        self.blocks.iter().map(BlockSpec::cols).sum()
    }

    /// Alice's (and Bob's) check that this spec builds an `s`-probe-resistant
    /// matrix with `l` rows: every premise of the module's argument.
    /// Shape errors are [`Error::Malformed`]; a spec whose argument fails is
    /// `Cheating { check: "probe-resistance" }`.
    pub fn verify(&self, l: usize, s: u32) -> Result<()> {
        if self.blocks.is_empty() || self.blocks.len() > MAX_INPUT_BITS.div_ceil(MAX_BLOCK_ROWS) {
            return Err(Error::malformed("probe spec: bad block count"));
        }
        let mut rows = 0usize;
        for b in &self.blocks {
            if b.rows == 0 || b.rows as usize > MAX_BLOCK_ROWS {
                return Err(Error::malformed("probe spec: bad block size"));
            }
            rows += b.rows as usize;
            let field = Field::new(b.t).ok_or_else(|| Error::malformed("probe spec: bad t"))?;
            if !is_irreducible(field.modulus()) {
                return Err(Error::Cheating { check: CHECK });
            }
            if b.points.len() > field.order() as usize
                || b.points.iter().any(|&a| a >= field.order())
            {
                return Err(Error::malformed("probe spec: point outside the field"));
            }
            let mut seen = vec![false; field.order() as usize];
            for &a in &b.points {
                if std::mem::replace(&mut seen[a as usize], true) {
                    return Err(Error::Cheating { check: CHECK });
                }
            }
            // Minimum distance N' − K + 1 must reach both the claimed and the agreed s.
            if b.points.len() + 1 < b.symbols() + s.max(self.s) as usize {
                return Err(Error::Cheating { check: CHECK });
            }
        }
        if rows != l {
            return Err(Error::malformed(format!(
                "probe spec has {rows} rows, the agreed input has {l}"
            )));
        }
        Ok(())
    }

    /// Builds the blocks of E (no checks: call [`ProbeSpec::verify`] first).
    pub fn build(&self) -> Result<ProbeMatrix> {
        let mut blocks = Vec::with_capacity(self.blocks.len());
        for b in &self.blocks {
            let field = Field::new(b.t).ok_or_else(|| Error::malformed("probe spec: bad t"))?;
            let t = b.t as usize;
            let mut m = BitMatrix::zeros(b.rows as usize, b.cols());
            for (k, &a) in b.points.iter().enumerate() {
                let mut pow = 1u32; // a^j
                for j in 0..b.symbols() {
                    let mut v = pow; // x^bit · a^j
                    for bit in 0..t {
                        let r = j * t + bit;
                        if r >= b.rows as usize {
                            break;
                        }
                        for c in 0..t {
                            if v >> c & 1 == 1 {
                                m.set(r, k * t + c);
                            }
                        }
                        v = field.mul_x(v);
                    }
                    pow = field.mul(pow, a);
                }
            }
            blocks.push(m);
        }
        Ok(ProbeMatrix { s: self.s, blocks })
    }
}

/// The block-diagonal matrix E, `l × n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeMatrix {
    s: u32,
    blocks: Vec<BitMatrix>,
}

impl ProbeMatrix {
    /// Probe resistance `s`.
    pub fn s(&self) -> u32 {
        self.s
    }

    /// The diagonal blocks.
    pub fn blocks(&self) -> &[BitMatrix] {
        &self.blocks
    }

    /// Rows `l`.
    pub fn rows(&self) -> usize {
        self.blocks.iter().map(BitMatrix::rows).sum()
    }

    /// Columns `n`.
    pub fn cols(&self) -> usize {
        self.blocks.iter().map(BitMatrix::cols).sum()
    }

    /// The whole matrix, dense (tests and small sizes).
    pub fn dense(&self) -> BitMatrix {
        let mut m = BitMatrix::zeros(self.rows(), self.cols());
        let (mut r0, mut c0) = (0, 0);
        for b in &self.blocks {
            for r in 0..b.rows() {
                for c in 0..b.cols() {
                    if b.get(r, c) {
                        m.set(r0 + r, c0 + c);
                    }
                }
            }
            r0 += b.rows();
            c0 += b.cols();
        }
        m
    }
}
