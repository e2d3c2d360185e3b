//! The Step 5b relation as one Boolean circuit, built with
//! `brickyard_circuit`'s SHA-256 compression and AES-128 (key schedule
//! included) and the public values folded in as constants (the builder
//! drops every AND with a known input, so the tags, padding, IV and the
//! comparisons with public digests cost only what depends on the witness).
//!
//! Inputs: group `delta` (8ℓ bits: byte k, bit t at 8k + t), group `seeds`
//! (128 bits per seed: seed j's byte k (`Block::to_bytes`), bit t at
//! 128j + 8k + t). One output: all constraints hold.

use super::Statement;
use brickyard_circuit::library::{aes, sha256};
use brickyard_circuit::{Bit, BitVec, Circuit, CircuitBuilder};
use brickyard_core::Block;
use brickyard_ihash::Code;

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

/// The relation circuit of `st` (see the module docs for the input layout).
pub fn relation(st: &Statement) -> Circuit {
    let ell = st.delta_ihash.ell;
    let n = st.seed_images.len();
    let code = st.code();
    let mut b = CircuitBuilder::new();
    let delta_in = b.input("delta", 8 * ell);
    let seeds_in = b.input("seeds", 128 * n);
    let delta: Vec<BitVec> = (0..ell).map(|k| delta_in.slice(8 * k..8 * k + 8)).collect();
    let seed = |j: usize| -> Vec<BitVec> {
        (0..16)
            .map(|k| seeds_in.slice(128 * j + 8 * k..128 * j + 8 * k + 8))
            .collect()
    };
    let mut ok: Vec<Bit> = Vec::new();

    // C_j = SHA-256(2 ‖ s_j) for every wire-IHash seed.
    for (j, image) in st.seed_images.iter().enumerate() {
        let mut msg = vec![const_byte(2)];
        msg.extend(seed(j));
        let d = sha256_one_block(&mut b, &msg);
        ok.push(equals(&mut b, &d, image));
    }

    // ⟨Δ⟩: at every position j, the PRG symbol of seed j under the public
    // shift is symbol j of Encode(Δ).
    let block = Block(st.delta_ihash.block().into()).to_bytes();
    let pt: Vec<BitVec> = block.iter().map(|&v| const_byte(v)).collect();
    for j in 0..n {
        let stream = aes::encrypt_bytes(&mut b, &seed(j), &pt);
        let sym = b.xor(
            &stream[st.delta_ihash.byte()],
            &const_byte(st.delta_ihash.shifts[j]),
        );
        let col = code.generator_column(j);
        let mut enc = const_byte(0);
        for (i, &c) in col.iter().enumerate() {
            if c != 0 {
                let t = gf_mul_const(&mut b, &code, c, &delta[i]);
                enc = b.xor(&enc, &t);
            }
        }
        ok.push(b.eq(&sym, &enc));
    }

    // D_i = SHA-256(1 ‖ first 16 bytes of SHA-256(0 ‖ Δ ‖ i_be32)).
    for &(i, ref d) in &st.double_hashes {
        let mut msg = vec![const_byte(0)];
        msg.extend(delta.iter().cloned());
        msg.extend(i.to_be_bytes().iter().map(|&v| const_byte(v)));
        let inner = sha256_one_block(&mut b, &msg);
        let mut msg = vec![const_byte(1)];
        msg.extend(inner[..16].iter().cloned());
        let outer = sha256_one_block(&mut b, &msg);
        ok.push(equals(&mut b, &outer, d));
    }

    // All constraints: ¬(∨ ¬c).
    let not_ok: BitVec = BitVec(ok.iter().map(|&c| !c).collect());
    let bad = b.or_all(&not_ok);
    b.output("holds", &BitVec(vec![!bad]));
    b.finish()
}
