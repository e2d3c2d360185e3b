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

use super::stamp::{const_bits, Stamp, Val};
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
/// proof: same constraints and witness layout as [`relation`], each part
/// stamped from the [`Templates`] (see [`super::stamp`]).
pub struct Parts<'a> {
    st: &'a Statement,
    code: Code,
    kinds: Vec<Kind>,
    t: Templates,
}

/// The sub-circuits every part is stamped from, built once per statement.
struct Templates {
    /// SHA-256(2 ‖ s): input s (16 bytes), output the digest (32 bytes).
    image: Circuit,
    /// Byte `byte()` of AES_s(block q), q public: input s, output 1 byte.
    stream: Circuit,
    /// First 16 bytes of SHA-256(0 ‖ Δ ‖ i_be32): inputs Δ (ℓ bytes) and
    /// i (4 bytes, stamped as constants).
    inner: Circuit,
    /// SHA-256(1 ‖ h): input h (16 bytes), output the digest.
    outer: Circuit,
}

/// Bytes of a builder input group.
fn input_bytes(b: &mut CircuitBuilder, name: &str, n: usize) -> Vec<BitVec> {
    let v = b.input(name, 8 * n);
    (0..n).map(|k| v.slice(8 * k..8 * k + 8)).collect()
}

fn output_bytes(b: &mut CircuitBuilder, bytes: &[BitVec]) {
    let all = bytes.iter().fold(BitVec::default(), |acc, v| acc.concat(v));
    b.output("out", &all);
}

impl Templates {
    fn new(st: &Statement) -> Templates {
        let ell = st.delta_ihash.ell;
        let image = {
            let mut b = CircuitBuilder::new();
            let mut msg = vec![const_byte(2)];
            msg.extend(input_bytes(&mut b, "s", 16));
            let d = sha256_one_block(&mut b, &msg);
            output_bytes(&mut b, &d);
            b.finish()
        };
        let stream = {
            let mut b = CircuitBuilder::new();
            let key = input_bytes(&mut b, "s", 16);
            let block = Block(st.delta_ihash.block().into()).to_bytes();
            let pt: Vec<BitVec> = block.iter().map(|&v| const_byte(v)).collect();
            let ct = aes::encrypt_bytes(&mut b, &key, &pt);
            output_bytes(
                &mut b,
                &ct[st.delta_ihash.byte()..st.delta_ihash.byte() + 1],
            );
            b.finish()
        };
        let inner = {
            let mut b = CircuitBuilder::new();
            let mut msg = vec![const_byte(0)];
            msg.extend(input_bytes(&mut b, "delta", ell));
            msg.extend(input_bytes(&mut b, "i", 4));
            let d = sha256_one_block(&mut b, &msg);
            output_bytes(&mut b, &d[..16]);
            b.finish()
        };
        let outer = {
            let mut b = CircuitBuilder::new();
            let mut msg = vec![const_byte(1)];
            msg.extend(input_bytes(&mut b, "h", 16));
            let d = sha256_one_block(&mut b, &msg);
            output_bytes(&mut b, &d);
            b.finish()
        };
        Templates {
            image,
            stream,
            inner,
            outer,
        }
    }
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
            t: Templates::new(st),
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

    /// `coef · x` in GF(2^8) for a public `coef` (XORs only, as
    /// [`gf_mul_const`]).
    fn gf_mul_const(&self, s: &mut Stamp, coef: u8, x: &[Val]) -> Vec<Val> {
        let cols: Vec<u8> = (0..8)
            .map(|k| self.code.field().mul(coef, 1 << k))
            .collect();
        (0..8)
            .map(|r| {
                (0..8)
                    .filter(|&k| cols[k] >> r & 1 == 1)
                    .fold(Val::Const(false), |acc, k| s.xor(acc, x[k]))
            })
            .collect()
    }

    /// ⟨Δ⟩ at position j (as [`ihash_ok`]).
    fn ihash_ok(&self, s: &mut Stamp, delta: &[Val], seed: &[Val], j: usize) -> Val {
        let stream = s.template(&self.t.stream, seed);
        let shift = self.st.delta_ihash.shifts[j];
        let sym: Vec<Val> = stream
            .iter()
            .zip(const_bits(&[shift]))
            .map(|(&v, c)| if c { !v } else { v })
            .collect();
        let mut enc = vec![Val::Const(false); 8];
        for (i, &c) in self.code.generator_column(j).iter().enumerate() {
            if c != 0 {
                let t = self.gf_mul_const(s, c, &delta[8 * i..8 * i + 8]);
                for (e, t) in enc.iter_mut().zip(t) {
                    *e = s.xor(*e, t);
                }
            }
        }
        s.equals(&sym, &enc)
    }

    /// D_i = SHA-256(1 ‖ SHA-256(0 ‖ Δ ‖ i)[..16]) (as [`double_hash_ok`]).
    fn double_hash_ok(&self, s: &mut Stamp, delta: &[Val], i: u32, d: &[u8; 32]) -> Val {
        let mut ins = delta.to_vec();
        ins.extend(const_bits(&i.to_be_bytes()).map(Val::Const));
        let inner = s.template(&self.t.inner, &ins);
        let outer = s.template(&self.t.outer, &inner);
        s.equals_const(&outer, const_bits(d))
    }
}

impl Relation for Parts<'_> {
    fn digest(&self) -> [u8; 32] {
        let st = self.st;
        let mut h = blake3::Hasher::new_derive_key(
            "brickyard 2026-11 jimu step 5b relation parts v2 (stamped)",
        );
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
        let mut s = Stamp::with_capacity(1 << 20);
        let (ok, inputs): (Vec<Val>, Vec<u32>) = match &self.kinds[k] {
            Kind::Images(js) => {
                let seeds = s.input("seeds", 128 * js.len());
                let mut ok = Vec::with_capacity(js.len());
                for (t, j) in js.clone().enumerate() {
                    let d = s.template(&self.t.image, &seeds[128 * t..128 * t + 128]);
                    ok.push(s.equals_const(&d, const_bits(&st.seed_images[j])));
                }
                (ok, self.seed_wires(js).collect())
            }
            Kind::Ihash(js) => {
                let delta = s.input("delta", 8 * ell);
                let seeds = s.input("seeds", 128 * js.len());
                let mut ok = Vec::with_capacity(js.len());
                for (t, j) in js.clone().enumerate() {
                    ok.push(self.ihash_ok(&mut s, &delta, &seeds[128 * t..128 * t + 128], j));
                }
                (ok, self.delta_wires().chain(self.seed_wires(js)).collect())
            }
            Kind::Double(is) => {
                let delta = s.input("delta", 8 * ell);
                let mut ok = Vec::with_capacity(is.len());
                for (i, d) in &st.double_hashes[is.clone()] {
                    ok.push(self.double_hash_ok(&mut s, &delta, *i, d));
                }
                (ok, self.delta_wires().collect())
            }
            Kind::All => {
                let others = self.kinds.len() - 1;
                let outs = s.input("parts", others);
                let w = self.witness_bits() as u32;
                (outs, (w..w + others as u32).collect())
            }
        };
        let holds = s.all(&ok);
        Ok(Part {
            circuit: Cow::Owned(s.finish(holds)),
            inputs,
        })
    }
}
