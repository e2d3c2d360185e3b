//! Step 2, Generate, with Step 1's i-hashes of the circuit wires made
//! ahead as pools (function-independent: only their number depends on
//! the circuit). Bob commits to J first; then Alice
//! (a) i-hashes 2T random labels m_{i,l}, m_{i,r} (and the label pool),
//! (b) i-hashes 3T random ρ^{i,l}, ρ^{i,r}, ρ^{i,o} (and the ρ pool),
//! (c) garbles w^0_{i,l} = m_{i,l} ⊕ p_{i,l}Δ, w^0_{i,r} likewise,
//! (d) i-hashes the chosen output labels w^{p_{i,o}}_{i,o}.

use super::{label_bytes_into, label_from_bytes, parity, JimuOptions};
use crate::cheat::{Cheat, Cheats};
use crate::CutAndChoose;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::{Role, RunConfig};
use brickyard_garble::wide::{self, garble_batch, Compress, Label, WideDelta, WideScratch};
use brickyard_ihash::{Receiver, Rows, Sender};

/// The sizes of one Generate: `e` executions of a circuit with `n` ANDs,
/// `na` input bits of Alice, `nb` of Bob, `s` shares per Bob bit; `T`
/// garbled gates in buckets of `B` (Sec. 6.3 from (N·e, s)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// AND gates per execution (N).
    pub n: usize,
    /// Executions.
    pub e: usize,
    /// Alice's input bits per execution.
    pub na: usize,
    /// Bob's input bits per execution.
    pub nb: usize,
    /// Shares per Bob input bit (s).
    pub s: usize,
    /// Bucket size B.
    pub bucket: usize,
    /// Garbled AND gates T (T − B·N·e checked).
    pub t: usize,
}

impl Sizes {
    /// From the run's circuit, ownership and executions.
    pub fn new(cfg: &RunConfig, opts: &JimuOptions) -> Result<Sizes> {
        let n = cfg.circuit.and_count();
        let e = cfg.executions;
        let na = brickyard_driver::layout::input_positions(cfg, Role::Alice).len();
        let nb = brickyard_driver::layout::input_positions(cfg, Role::Bob).len();
        let total = (n as u64)
            .checked_mul(e as u64)
            .ok_or_else(|| Error::config("jimu: too many gates"))?;
        let (bucket, t) = if total == 0 {
            (0, 0)
        } else {
            let cc = CutAndChoose::optimise(total, opts.s)?;
            let t = usize::try_from(cc.total)
                .map_err(|_| Error::config("jimu: T does not fit this machine"))?;
            (cc.bucket as usize, t)
        };
        Ok(Sizes {
            n,
            e,
            na,
            nb,
            s: opts.s as usize,
            bucket,
            t,
        })
    }

    /// Gates in buckets (B·N·e).
    pub fn bucketed(&self) -> usize {
        self.bucket * self.n * self.e
    }

    /// Label pool: Alice's input wires, AND output wires, Bob's shares.
    pub fn label_pool(&self) -> usize {
        self.e * (self.na + self.n + self.s * self.nb)
    }

    /// ρ pool: Alice's input wires and AND output wires.
    pub fn rho_pool(&self) -> usize {
        self.e * (self.na + self.n)
    }

    /// Pool index of Alice's input bit `k` of execution `x` (both pools).
    pub fn alice_input(&self, x: usize, k: usize) -> usize {
        x * self.na + k
    }

    /// Pool index of the output wire of AND `g` of execution `x` (both pools).
    pub fn and_output(&self, x: usize, g: usize) -> usize {
        self.e * self.na + x * self.n + g
    }

    /// Label-pool index of share `j` of Bob's input bit `k` of execution `x`.
    pub fn bob_share(&self, x: usize, k: usize, j: usize) -> usize {
        self.e * (self.na + self.n) + (x * self.nb + k) * self.s + j
    }

    /// Messages of the one ρ batch (for Bob's replay after extracting Δ).
    pub fn rho_batch(&self) -> usize {
        3 * self.t + self.rho_pool()
    }
}

/// Alice's garbled gates and pools.
pub struct AliceGates<const L: usize> {
    /// m_{i,l} = w^{p_{i,l}}_{i,l}.
    pub ml: Vec<Label<L>>,
    /// m_{i,r} = w^{p_{i,r}}_{i,r}.
    pub mr: Vec<Label<L>>,
    /// w^{p_{i,o}}_{i,o} (i-hashed as chosen messages).
    pub mo: Vec<Label<L>>,
    /// ρ^{i,l}, ρ^{i,r}, ρ^{i,o} (rows 3i, 3i+1, 3i+2), then the ρ pool.
    pub rho: Rows,
    /// The label pool (m of circuit wires and Bob's shares).
    pub pool: Vec<Label<L>>,
}

/// Bob's i-hashes and garbled tables.
pub struct BobGates<const L: usize> {
    /// ⟨m_{i,l}⟩.
    pub hl: Rows,
    /// ⟨m_{i,r}⟩.
    pub hr: Rows,
    /// ⟨w^{p_{i,o}}_{i,o}⟩.
    pub ho: Rows,
    /// ⟨ρ⟩ of the gates (3i + side), then of the ρ pool.
    pub hrho: Rows,
    /// [T_G, T_E] per gate.
    pub tables: Vec<Label<L>>,
    /// ⟨m⟩ of the label pool.
    pub pool: Rows,
}

/// Bob's commitment to the cut-and-choose randomness J:
/// BLAKE3(J ‖ r) under a domain key.
pub fn commit_j(j: Block, r: Block) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key("brickyard jimu cut-and-choose J v1");
    h.update(&j.to_bytes());
    h.update(&r.to_bytes());
    *h.finalize().as_bytes()
}

fn labels<const L: usize>(rows: &Rows, range: std::ops::Range<usize>) -> Vec<Label<L>> {
    range.map(|i| label_from_bytes(rows.get(i))).collect()
}

fn take_rows(rows: &Rows, range: std::ops::Range<usize>) -> Rows {
    let mut flat = Vec::with_capacity(range.len() * rows.width());
    for i in range {
        flat.extend_from_slice(rows.get(i));
    }
    Rows::from_flat(&flat, rows.width())
}

/// Alice's Generate. Returns her gates and the commitment to J.
#[allow(clippy::too_many_arguments)]
pub fn alice<const L: usize>(
    ch: &mut Channel,
    wire: &mut Sender,
    perm: &mut Sender,
    delta: &WideDelta<L>,
    compress: &Compress,
    sz: &Sizes,
    prg: &mut Prg,
    cheats: &Cheats,
) -> Result<(AliceGates<L>, [u8; 32])> {
    let t = sz.t;
    let mut com = [0u8; 32];
    ch.recv_bytes(&mut com)?;
    // (a) 2T random labels and the label pool.
    let m = wire.hash_random(ch, 2 * t + sz.label_pool())?;
    let ml: Vec<Label<L>> = labels(&m, 0..t);
    let mr: Vec<Label<L>> = labels(&m, t..2 * t);
    let pool: Vec<Label<L>> = labels(&m, 2 * t..2 * t + sz.label_pool());
    drop(m);
    // (b) 3T random ρ and the ρ pool.
    let rho = perm.hash_random(ch, sz.rho_batch())?;
    // (c) GenAND on w^0 = m ⊕ pΔ.
    let d = delta.label();
    let a0: Vec<Label<L>> = (0..t)
        .map(|i| wide::xor(&ml[i], &wide::and_bit(d, parity(rho.get(3 * i)))))
        .collect();
    let b0: Vec<Label<L>> = (0..t)
        .map(|i| wide::xor(&mr[i], &wide::and_bit(d, parity(rho.get(3 * i + 1)))))
        .collect();
    let mut out0 = vec![[Block::ZERO; L]; t];
    let mut tables = vec![[Block::ZERO; L]; 2 * t];
    garble_batch(
        &a0,
        &b0,
        delta,
        compress,
        0,
        0,
        &mut out0,
        &mut tables,
        &mut WideScratch::new(),
    )?;
    if t > 0 && cheats.is(Cheat::NandGate) {
        let j = cheats.at(t);
        out0[j] = wide::xor(&out0[j], d);
    }
    // Faults that know Bob's (rigged) J: `cheat::rig_gates`.
    crate::cheat::rig_gates(cheats, sz, &mut out0, &mut tables, d, prg);
    if t > 0 && cheats.is(Cheat::CorruptRow) {
        let j = cheats.at(2 * t);
        tables[j][0] ^= prg.random_block();
    }
    // (d) the chosen output labels w^{p_{i,o}}_{i,o} = w^0_{i,o} ⊕ p_{i,o}Δ.
    let mo: Vec<Label<L>> = (0..t)
        .map(|i| wide::xor(&out0[i], &wide::and_bit(d, parity(rho.get(3 * i + 2)))))
        .collect();
    let mut hashed = vec![0u8; 16 * L * t];
    for (m, h) in mo.iter().zip(hashed.chunks_exact_mut(16 * L)) {
        label_bytes_into(m, h);
    }
    if t > 0 && cheats.is(Cheat::BadOutputIhash) {
        let j = cheats.at(t);
        hashed[16 * L * j] ^= 1;
    }
    wire.hash_chosen(ch, &Rows::from_flat(&hashed, 16 * L))?;
    let flat: Vec<Block> = tables.iter().flatten().copied().collect();
    ch.send_blocks(&flat)?;
    ch.flush()?;
    Ok((
        AliceGates {
            ml,
            mr,
            mo,
            rho,
            pool,
        },
        com,
    ))
}

/// Bob's Generate: commits to `j` (with randomness `r`) first.
pub fn bob<const L: usize>(
    ch: &mut Channel,
    wire: &mut Receiver,
    perm: &mut Receiver,
    sz: &Sizes,
    prg: &mut Prg,
    j: Block,
    r: Block,
) -> Result<BobGates<L>> {
    let t = sz.t;
    ch.send_bytes(&commit_j(j, r))?;
    ch.flush()?;
    let m = wire.hash_random(ch, prg, 2 * t + sz.label_pool())?;
    let hl = take_rows(&m, 0..t);
    let hr = take_rows(&m, t..2 * t);
    let pool = take_rows(&m, 2 * t..2 * t + sz.label_pool());
    let hrho = perm.hash_random(ch, prg, sz.rho_batch())?;
    let ho = wire.hash_chosen(ch, prg, t)?;
    let mut flat = vec![Block::ZERO; 2 * t * L];
    ch.recv_blocks(&mut flat)?;
    let tables = flat
        .chunks_exact(L)
        .map(|c| std::array::from_fn(|k| c[k]))
        .collect();
    Ok(BobGates {
        hl,
        hr,
        ho,
        hrho,
        tables,
        pool,
    })
}
