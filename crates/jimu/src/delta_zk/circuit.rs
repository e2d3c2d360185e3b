//! The Step 5b relation as one Boolean circuit, built with
//! `brickyard_circuit`'s SHA-256 compression and AES-128 (key schedule
//! included) and the public values folded in as constants (the builder
//! drops every AND with a known input, so the tags, padding, IV and the
//! comparisons with public digests cost only what depends on the witness).
//!
//! Inputs: group `delta` (8ℓ bits: byte k, bit t at 8k + t), group `seeds`
//! (128 bits per seed: seed j's byte k (`Block::to_bytes`), bit t at
//! 128j + 8k + t). One output: all constraints hold.
//!
//! Two forms of the same constraints: [`relation`], one circuit (28 M gates
//! at the paper's sizes; plaintext tests), and [`Parts`], the relation in
//! parts of a few SHA-256/AES instances each ([`brickyard_gczk::Relation`]),
//! which the proof uses so that no party holds more than a few parts.

use super::Statement;
use brickyard_circuit::library::{aes, sha256};
use brickyard_circuit::{Bit, BitVec, Circuit, CircuitBuilder};
use brickyard_core::{Block, Result};
use brickyard_gczk::{Part, Relation};
use brickyard_ihash::Code;
use std::borrow::Cow;
use std::ops::Range;

/// SHA-256 initial chaining value H0..H7.
const IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// A constant byte as 8 bits, LSB first.
fn const_byte(v: u8) -> BitVec {
    BitVec::constant(v.into(), 8)
}

/// Bytes (LSB-first bits each) → the REVERSED group order of the SHA-256
/// and AES circuits: byte j of n, bit t, at 8(n − 1 − j) + t.
fn reversed(bytes: &[BitVec]) -> BitVec {
    bytes
        .iter()
        .rev()
        .fold(BitVec::default(), |acc, b| acc.concat(b))
}

/// Inverse of [`reversed`].
fn unreversed(g: &BitVec) -> Vec<BitVec> {
    let n = g.len() / 8;
    (0..n)
        .map(|j| g.slice(8 * (n - 1 - j)..8 * (n - j)))
        .collect()
}

/// SHA-256 of a message of at most 55 bytes: one compression of the
/// padded block from the IV.
pub(crate) fn sha256_one_block(b: &mut CircuitBuilder, msg: &[BitVec]) -> Vec<BitVec> {
    assert!(msg.len() <= 55, "delta_zk: message longer than one block");
    let mut block: Vec<BitVec> = msg.to_vec();
    block.push(const_byte(0x80));
    block.resize(56, const_byte(0));
    let len_bits = (msg.len() as u64 * 8).to_be_bytes();
    block.extend(len_bits.iter().map(|&v| const_byte(v)));
    let iv: Vec<BitVec> = IV
        .iter()
        .flat_map(|w| w.to_be_bytes())
        .map(const_byte)
        .collect();
    let out = sha256::compress(b, &reversed(&block), &reversed(&iv));
    unreversed(&out)
}

/// `x = c` for a public byte string `c`.
fn equals(b: &mut CircuitBuilder, x: &[BitVec], c: &[u8]) -> Bit {
    let x = x.iter().fold(BitVec::default(), |acc, v| acc.concat(v));
    let c = c
        .iter()
        .fold(BitVec::default(), |acc, &v| acc.concat(&const_byte(v)));
    b.eq(&x, &c)
}

/// `coef · x` in GF(2^8) for a public `coef`: GF(2)-linear, XORs only
/// (column k of the bit matrix is `coef · 2^k`).
fn gf_mul_const(b: &mut CircuitBuilder, code: &Code, coef: u8, x: &BitVec) -> BitVec {
    let cols: Vec<u8> = (0..8).map(|k| code.field().mul(coef, 1 << k)).collect();
    let bits = (0..8)
        .map(|r| {
            (0..8)
                .filter(|&k| cols[k] >> r & 1 == 1)
                .fold(Bit::ZERO, |acc, k| b.xor_bit(acc, x.bit(k)))
        })
        .collect();
    BitVec(bits)
}

/// The seed j's 16 bytes out of a `seeds` group whose first seed is `first`.
fn seed_bytes(seeds: &BitVec, first: usize, j: usize) -> Vec<BitVec> {
    let o = 128 * (j - first);
    (0..16)
        .map(|k| seeds.slice(o + 8 * k..o + 8 * k + 8))
        .collect()
}

/// Δ's ℓ bytes out of the `delta` group.
fn delta_bytes(delta_in: &BitVec, ell: usize) -> Vec<BitVec> {
    (0..ell).map(|k| delta_in.slice(8 * k..8 * k + 8)).collect()
}

/// C_j = SHA-256(2 ‖ s_j).
fn seed_image_ok(b: &mut CircuitBuilder, seed: Vec<BitVec>, image: &[u8; 32]) -> Bit {
    let mut msg = vec![const_byte(2)];
    msg.extend(seed);
    let d = sha256_one_block(b, &msg);
    equals(b, &d, image)
}

/// ⟨Δ⟩ at position j: the PRG symbol of seed j under the public shift is
/// symbol j of Encode(Δ).
fn ihash_ok(
    b: &mut CircuitBuilder,
    st: &Statement,
    code: &Code,
    delta: &[BitVec],
    seed: &[BitVec],
    j: usize,
) -> Bit {
    let block = Block(st.delta_ihash.block().into()).to_bytes();
    let pt: Vec<BitVec> = block.iter().map(|&v| const_byte(v)).collect();
    let stream = aes::encrypt_bytes(b, seed, &pt);
    let sym = b.xor(
        &stream[st.delta_ihash.byte()],
        &const_byte(st.delta_ihash.shifts[j]),
    );
    let col = code.generator_column(j);
    let mut enc = const_byte(0);
    for (i, &c) in col.iter().enumerate() {
        if c != 0 {
            let t = gf_mul_const(b, code, c, &delta[i]);
            enc = b.xor(&enc, &t);
        }
    }
    b.eq(&sym, &enc)
}

/// D_i = SHA-256(1 ‖ first 16 bytes of SHA-256(0 ‖ Δ ‖ i_be32)).
fn double_hash_ok(b: &mut CircuitBuilder, delta: &[BitVec], i: u32, d: &[u8; 32]) -> Bit {
    let mut msg = vec![const_byte(0)];
    msg.extend(delta.iter().cloned());
    msg.extend(i.to_be_bytes().iter().map(|&v| const_byte(v)));
    let inner = sha256_one_block(b, &msg);
    let mut msg = vec![const_byte(1)];
    msg.extend(inner[..16].iter().cloned());
    let outer = sha256_one_block(b, &msg);
    equals(b, &outer, d)
}

/// ∧ of the bits: ¬(∨ ¬c).
fn all(b: &mut CircuitBuilder, bits: &[Bit]) -> Bit {
    let not: BitVec = BitVec(bits.iter().map(|&c| !c).collect());
    let bad = b.or_all(&not);
    !bad
}

/// The relation circuit of `st` (see the module docs for the input layout).
pub fn relation(st: &Statement) -> Circuit {
    let ell = st.delta_ihash.ell;
    let n = st.seed_images.len();
    let code = st.code();
    let mut b = CircuitBuilder::new();
    let delta_in = b.input("delta", 8 * ell);
    let seeds_in = b.input("seeds", 128 * n);
    let delta = delta_bytes(&delta_in, ell);
    let mut ok: Vec<Bit> = Vec::new();
    for (j, image) in st.seed_images.iter().enumerate() {
        let seed = seed_bytes(&seeds_in, 0, j);
        ok.push(seed_image_ok(&mut b, seed, image));
    }
    for j in 0..n {
        let seed = seed_bytes(&seeds_in, 0, j);
        ok.push(ihash_ok(&mut b, st, &code, &delta, &seed, j));
    }
    for &(i, ref d) in &st.double_hashes {
        ok.push(double_hash_ok(&mut b, &delta, i, d));
    }
    let holds = all(&mut b, &ok);
    b.output("holds", &BitVec(vec![holds]));
    b.finish()
}

/// Seed images per part (one SHA-256 compression each, ≈ 140 K gates).
const IMAGES_PER_PART: usize = 8;
/// ⟨Δ⟩ positions per part (one AES-128 with key schedule each).
const IHASH_PER_PART: usize = 16;
/// Double hashes per part (two SHA-256 compressions each).
const DOUBLE_PER_PART: usize = 4;

/// What one part checks.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// C_j for j in the range.
    Images(Range<usize>),
    /// ⟨Δ⟩ at positions j in the range.
    Ihash(Range<usize>),
    /// D_i for the double hashes in the range (indices into the list).
    Double(Range<usize>),
    /// The AND of every other part's output.
    All,
}

/// The Step 5b relation in parts (each ≤ about 1.2 M gates), for the
/// proof: same constraints and witness layout as [`relation`].
pub struct Parts<'a> {
    st: &'a Statement,
    code: Code,
    kinds: Vec<Kind>,
}

impl<'a> Parts<'a> {
    /// The parts of `st` (its shape must have been checked).
    pub fn new(st: &'a Statement) -> Parts<'a> {
        let n = st.seed_images.len();
        let ranges = |len: usize, per: usize| {
            (0..len.div_ceil(per)).map(move |k| k * per..((k + 1) * per).min(len))
        };
        let mut kinds: Vec<Kind> = ranges(n, IMAGES_PER_PART).map(Kind::Images).collect();
        kinds.extend(ranges(n, IHASH_PER_PART).map(Kind::Ihash));
        kinds.extend(ranges(st.double_hashes.len(), DOUBLE_PER_PART).map(Kind::Double));
        kinds.push(Kind::All);
        Parts {
            st,
            code: st.code(),
            kinds,
        }
    }

    fn ell(&self) -> usize {
        self.st.delta_ihash.ell
    }

    /// Witness indices of Δ's bits.
    fn delta_wires(&self) -> Range<u32> {
        0..8 * self.ell() as u32
    }

    /// Witness indices of the bits of seeds `js`.
    fn seed_wires(&self, js: &Range<usize>) -> Range<u32> {
        let o = 8 * self.ell();
        (o + 128 * js.start) as u32..(o + 128 * js.end) as u32
    }
}

impl Relation for Parts<'_> {
    fn digest(&self) -> [u8; 32] {
        let st = self.st;
        let mut h =
            blake3::Hasher::new_derive_key("brickyard 2026-11 jimu step 5b relation parts v1");
        for v in [
            IMAGES_PER_PART,
            IHASH_PER_PART,
            DOUBLE_PER_PART,
            st.seed_images.len(),
        ] {
            h.update(&(v as u64).to_le_bytes());
        }
        for c in &st.seed_images {
            h.update(c);
        }
        let dh = &st.delta_ihash;
        h.update(&(dh.ell as u64).to_le_bytes());
        h.update(&dh.symbol_index.to_le_bytes());
        h.update(&(dh.shifts.len() as u64).to_le_bytes());
        h.update(&dh.shifts);
        h.update(&(st.double_hashes.len() as u64).to_le_bytes());
        for (i, d) in &st.double_hashes {
            h.update(&i.to_le_bytes());
            h.update(d);
        }
        *h.finalize().as_bytes()
    }

    fn witness_bits(&self) -> usize {
        8 * self.ell() + 128 * self.st.seed_images.len()
    }

    fn parts(&self) -> usize {
        self.kinds.len()
    }

    fn part(&self, k: usize) -> Result<Part<'_>> {
        let st = self.st;
        let ell = self.ell();
        let mut b = CircuitBuilder::new();
        let (ok, inputs): (Vec<Bit>, Vec<u32>) = match &self.kinds[k] {
            Kind::Images(js) => {
                let seeds = b.input("seeds", 128 * js.len());
                let ok = js
                    .clone()
                    .map(|j| {
                        let seed = seed_bytes(&seeds, js.start, j);
                        seed_image_ok(&mut b, seed, &st.seed_images[j])
                    })
                    .collect();
                (ok, self.seed_wires(js).collect())
            }
            Kind::Ihash(js) => {
                let delta_in = b.input("delta", 8 * ell);
                let seeds = b.input("seeds", 128 * js.len());
                let delta = delta_bytes(&delta_in, ell);
                let ok = js
                    .clone()
                    .map(|j| {
                        let seed = seed_bytes(&seeds, js.start, j);
                        ihash_ok(&mut b, st, &self.code, &delta, &seed, j)
                    })
                    .collect();
                (ok, self.delta_wires().chain(self.seed_wires(js)).collect())
            }
            Kind::Double(is) => {
                let delta_in = b.input("delta", 8 * ell);
                let delta = delta_bytes(&delta_in, ell);
                let ok = st.double_hashes[is.clone()]
                    .iter()
                    .map(|(i, d)| double_hash_ok(&mut b, &delta, *i, d))
                    .collect();
                (ok, self.delta_wires().collect())
            }
            Kind::All => {
                let others = self.kinds.len() - 1;
                let outs = b.input("parts", others);
                let w = self.witness_bits() as u32;
                (outs.0.clone(), (w..w + others as u32).collect())
            }
        };
        let holds = all(&mut b, &ok);
        b.output("holds", &BitVec(vec![holds]));
        Ok(Part {
            circuit: Cow::Owned(b.finish()),
            inputs,
        })
    }
}
