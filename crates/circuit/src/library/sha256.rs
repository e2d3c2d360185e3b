//! The SHA-256 compression function (feed-forward included).
//!
//! Group layout and bit order match the shared `sha256.txt` so its vectors
//! cross-check this circuit: group 0 is the 512-bit padded block, group 1
//! the 256-bit chaining value H0..H7, output the new chaining value, all in
//! REVERSED order (wire `k` = bit `k` of the big-endian integer of the
//! bytes). With that order, 32-bit word `i` of an `n`-word group is simply
//! wires `32(n−1−i)..32(n−i)`, LSB first.
//!
//! AND cost: each 32-bit addition is a ripple-carry adder with one AND per
//! carry (31); Ch and Maj take one AND per bit; adding a round constant is
//! cheaper because the builder folds carries through its trailing zeros.

use crate::builder::{BitVec, CircuitBuilder};
use crate::ir::Circuit;

const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

fn words(g: &BitVec) -> Vec<BitVec> {
    let n = g.len() / 32;
    (0..n)
        .map(|i| g.slice(32 * (n - 1 - i)..32 * (n - i)))
        .collect()
}

fn from_words(ws: &[BitVec]) -> BitVec {
    ws.iter()
        .rev()
        .fold(BitVec::default(), |acc, w| acc.concat(w))
}

fn xor3(b: &mut CircuitBuilder, x: &BitVec, y: &BitVec, z: &BitVec) -> BitVec {
    let t = b.xor(x, y);
    b.xor(&t, z)
}

fn big_sigma(b: &mut CircuitBuilder, x: &BitVec, r: [usize; 3]) -> BitVec {
    let (p, q, s) = (b.rotr(x, r[0]), b.rotr(x, r[1]), b.rotr(x, r[2]));
    xor3(b, &p, &q, &s)
}

fn small_sigma(b: &mut CircuitBuilder, x: &BitVec, r: [usize; 2], s: usize) -> BitVec {
    let (p, q, t) = (b.rotr(x, r[0]), b.rotr(x, r[1]), b.shr(x, s));
    xor3(b, &p, &q, &t)
}

/// Ch(e,f,g) = (e ∧ (f ⊕ g)) ⊕ g.
fn ch(b: &mut CircuitBuilder, e: &BitVec, f: &BitVec, g: &BitVec) -> BitVec {
    let fg = b.xor(f, g);
    let t = b.and(e, &fg);
    b.xor(&t, g)
}

/// Maj(a,b,c) = ((a ⊕ b) ∧ (a ⊕ c)) ⊕ a.
fn maj(bl: &mut CircuitBuilder, a: &BitVec, b: &BitVec, c: &BitVec) -> BitVec {
    let ab = bl.xor(a, b);
    let ac = bl.xor(a, c);
    let t = bl.and(&ab, &ac);
    bl.xor(&t, a)
}

/// Compression of one block inside an existing builder (groups in the
/// REVERSED order above), for circuits that compose SHA-256 with other work.
pub fn compress(b: &mut CircuitBuilder, block: &BitVec, cv: &BitVec) -> BitVec {
    let mut w = words(block);
    for t in 16..64 {
        let s1 = small_sigma(b, &w[t - 2], [17, 19], 10);
        let s0 = small_sigma(b, &w[t - 15], [7, 18], 3);
        let x = b.add(&s1, &w[t - 7]);
        let y = b.add(&s0, &w[t - 16]);
        w.push(b.add(&x, &y));
    }
    let h = words(cv);
    let mut v = h.clone();
    for t in 0..64 {
        let (a, bb, c, d, e, f, g, hh) = (&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
        let s1 = big_sigma(b, e, [6, 11, 25]);
        let chv = ch(b, e, f, g);
        let kw = b.add(&w[t], &BitVec::constant(K[t].into(), 32));
        let x = b.add(hh, &s1);
        let y = b.add(&chv, &kw);
        let t1 = b.add(&x, &y);
        let s0 = big_sigma(b, a, [2, 13, 22]);
        let mj = maj(b, a, bb, c);
        let t2 = b.add(&s0, &mj);
        let new_e = b.add(d, &t1);
        let new_a = b.add(&t1, &t2);
        v = vec![
            new_a,
            a.clone(),
            bb.clone(),
            c.clone(),
            new_e,
            e.clone(),
            f.clone(),
            g.clone(),
        ];
    }
    let out: Vec<BitVec> = h.iter().zip(&v).map(|(x, y)| b.add(x, y)).collect();
    from_words(&out)
}

/// `sha256`: group 0 block (512), group 1 chaining value (256), output the
/// new chaining value (256).
pub fn sha256() -> Circuit {
    let mut b = CircuitBuilder::new();
    let block = b.input("block", 512);
    let cv = b.input("chaining_value", 256);
    let out = compress(&mut b, &block, &cv);
    b.output("chaining_value", &out);
    b.finish()
}
