//! AES-128 and its round components.
//!
//! Bit order is the REVERSED convention of the shared `aes_128.txt`: a
//! group's wire `k` is bit `k` of the big-endian integer of its bytes, so a
//! group read as a hex value is just the block's bytes in order (and byte
//! `j`, bit `t` of an `n`-byte group sits on wire `8(n−1−j)+t`).

use super::sbox::sbox;
use crate::builder::{BitVec, CircuitBuilder};
use crate::ir::Circuit;

/// 16 bytes (state byte `4c + r` = row r, column c, as in FIPS-197).
type State = Vec<BitVec>;

/// Splits a REVERSED-order group of `8n` wires into its `n` bytes.
pub(crate) fn to_bytes(g: &BitVec) -> Vec<BitVec> {
    let n = g.len() / 8;
    (0..n)
        .map(|j| g.slice(8 * (n - 1 - j)..8 * (n - j)))
        .collect()
}

/// Inverse of [`to_bytes`].
pub(crate) fn from_bytes(bytes: &[BitVec]) -> BitVec {
    bytes
        .iter()
        .rev()
        .fold(BitVec::default(), |acc, b| acc.concat(b))
}

fn xor_bytes(b: &mut CircuitBuilder, x: &[BitVec], y: &[BitVec]) -> Vec<BitVec> {
    x.iter().zip(y).map(|(p, q)| b.xor(p, q)).collect()
}

/// Multiplication by x in GF(2^8) (free: XORs only).
fn xtime(b: &mut CircuitBuilder, a: &BitVec) -> BitVec {
    let hi = a.bit(7);
    let s = BitVec::constant(0, 1).concat(&a.slice(0..7));
    let red: BitVec = (0..8)
        .map(|i| {
            if 0x1b >> i & 1 == 1 {
                hi
            } else {
                crate::builder::Bit::ZERO
            }
        })
        .collect();
    b.xor(&s, &red)
}

fn sub_bytes(b: &mut CircuitBuilder, s: &[BitVec]) -> State {
    s.iter().map(|x| sbox(b, x)).collect()
}

fn shift_rows(s: &[BitVec]) -> State {
    (0..16)
        .map(|i| {
            let (r, c) = (i % 4, i / 4);
            s[r + 4 * ((c + r) % 4)].clone()
        })
        .collect()
}

fn mix_columns(b: &mut CircuitBuilder, s: &[BitVec]) -> State {
    let mut out = Vec::with_capacity(16);
    for col in s.chunks(4) {
        let t01 = b.xor(&col[0], &col[1]);
        let t23 = b.xor(&col[2], &col[3]);
        let t = b.xor(&t01, &t23);
        for r in 0..4 {
            let pair = b.xor(&col[r], &col[(r + 1) % 4]);
            let x = xtime(b, &pair);
            let y = b.xor(&x, &t);
            out.push(b.xor(&y, &col[r]));
        }
    }
    out
}

/// The 11 round keys of AES-128, computed inside the circuit (40 S-boxes).
fn expand_key(b: &mut CircuitBuilder, key: &[BitVec]) -> Vec<State> {
    let mut w: Vec<Vec<BitVec>> = key.chunks(4).map(<[BitVec]>::to_vec).collect();
    let mut rcon = 1u8;
    for i in 4..44 {
        let mut temp = w[i - 1].clone();
        if i % 4 == 0 {
            temp.rotate_left(1);
            temp = temp.iter().map(|x| sbox(b, x)).collect();
            temp[0] = b.xor(&temp[0], &BitVec::constant(rcon.into(), 8));
            rcon = (rcon << 1) ^ if rcon & 0x80 != 0 { 0x1b } else { 0 };
        }
        let prev = w[i - 4].clone();
        w.push(xor_bytes(b, &prev, &temp));
    }
    w.chunks(4).map(|ws| ws.concat()).collect()
}

/// One full round: SubBytes, ShiftRows, MixColumns, AddRoundKey.
fn round(b: &mut CircuitBuilder, s: &[BitVec], rk: &[BitVec], mix: bool) -> State {
    let s = shift_rows(&sub_bytes(b, s));
    let s = if mix { mix_columns(b, &s) } else { s };
    xor_bytes(b, &s, rk)
}

/// AES-128 encryption of one block inside an existing builder.
pub(crate) fn encrypt(b: &mut CircuitBuilder, keys: &[State], pt: &[BitVec]) -> State {
    let mut s = xor_bytes(b, pt, &keys[0]);
    for (r, k) in keys.iter().enumerate().skip(1) {
        s = round(b, &s, k, r < 10);
    }
    s
}

/// AES-128 of one block inside an existing builder, key schedule included:
/// `key` and `pt` are 16 bytes each (FIPS-197 byte order, each byte's bit
/// `t` at index `t`), the result likewise. For circuits that compose AES
/// with other work.
pub fn encrypt_bytes(b: &mut CircuitBuilder, key: &[BitVec], pt: &[BitVec]) -> Vec<BitVec> {
    assert!(
        key.len() == 16 && pt.len() == 16,
        "aes: 16-byte key and block"
    );
    let keys = expand_key(b, key);
    encrypt(b, &keys, pt)
}

/// `aes128`: group 0 key, group 1 plaintext, output ciphertext.
pub fn aes128() -> Circuit {
    let mut b = CircuitBuilder::new();
    let key = b.input("key", 128);
    let pt = b.input("plaintext", 128);
    let keys = expand_key(&mut b, &to_bytes(&key));
    let ct = encrypt(&mut b, &keys, &to_bytes(&pt));
    b.output("ciphertext", &from_bytes(&ct));
    b.finish()
}

/// `aes128-round` (`final_round == false`) and `aes128-final-round`: group 0
/// state, group 1 round key, output the next state.
pub fn aes128_round(final_round: bool) -> Circuit {
    let mut b = CircuitBuilder::new();
    let s = b.input("state", 128);
    let k = b.input("round_key", 128);
    let out = round(&mut b, &to_bytes(&s), &to_bytes(&k), !final_round);
    b.output("state", &from_bytes(&out));
    b.finish()
}

/// `aes128-cbc:M`: group 0 key, group 1 the M plaintext blocks as one byte
/// string (block 0 first, so block 0 is the top 128 wires), output the M
/// ciphertext blocks the same way. The IV is zero: a caller with another IV
/// XORs it into block 0, which gives the same ciphertext.
pub fn aes128_cbc(m: usize) -> Circuit {
    let mut b = CircuitBuilder::new();
    let key = b.input("key", 128);
    let pt = b.input("plaintext", 128 * m);
    let keys = expand_key(&mut b, &to_bytes(&key));
    let pt = to_bytes(&pt);
    let mut chain: State = (0..16).map(|_| BitVec::constant(0, 8)).collect();
    let mut ct = Vec::with_capacity(16 * m);
    for block in pt.chunks(16) {
        let x = xor_bytes(&mut b, block, &chain);
        chain = encrypt(&mut b, &keys, &x);
        ct.extend(chain.iter().cloned());
    }
    b.output("ciphertext", &from_bytes(&ct));
    b.finish()
}
