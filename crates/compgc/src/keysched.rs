//! The AES-128 key schedule as a circuit, used as the garbler's plaintext
//! transform in the AES and CBC functions.
//!
//! In the CompGC paper's experiment the round keys are inputs. Here the user
//! still gives a 128-bit key (FIPS-197's `000102…0f`): Alice expands it
//! locally, in the clear — it is her own input, so nothing leaks — and her
//! labels are for the 11 round keys. The schedule is also a circuit so a
//! spec can be flattened into one plain [`Circuit`] for the plaintext
//! evaluator and for `RunConfig`; its AND count is irrelevant because it is
//! never garbled.
//!
//! Bit order is the circuit library's REVERSED AES convention: in a 16-byte
//! block, byte `j` bit `t` is wire `8(15−j)+t`. Output: round key `r` on
//! bits `128r..128r+128`, each in that order.

use brickyard_circuit::{Bit, BitVec, Circuit, CircuitBuilder};

/// Component/transform name.
pub const NAME: &str = "aes128-key-schedule";

fn to_bytes(g: &BitVec) -> Vec<BitVec> {
    let n = g.len() / 8;
    (0..n)
        .map(|j| g.slice(8 * (n - 1 - j)..8 * (n - j)))
        .collect()
}

fn from_bytes(bytes: &[BitVec]) -> BitVec {
    bytes
        .iter()
        .rev()
        .fold(BitVec::default(), |acc, b| acc.concat(b))
}

/// Product in GF(2^8) mod x^8+x^4+x^3+x+1 (schoolbook, then reduce).
fn gf_mul(b: &mut CircuitBuilder, x: &BitVec, y: &BitVec) -> BitVec {
    let mut p = vec![Bit::ZERO; 15];
    for i in 0..8 {
        for j in 0..8 {
            let t = b.and_bit(x.bit(i), y.bit(j));
            p[i + j] = b.xor_bit(p[i + j], t);
        }
    }
    for k in (8..15).rev() {
        let hi = p[k];
        for s in [0, 1, 3, 4] {
            p[k - 8 + s] = b.xor_bit(p[k - 8 + s], hi);
        }
    }
    p.truncate(8);
    BitVec(p)
}

/// The AES S-box: x^254 (the inverse, 0 ↦ 0), then the affine map.
fn sbox(b: &mut CircuitBuilder, x: &BitVec) -> BitVec {
    let sq = |b: &mut CircuitBuilder, v: &BitVec| gf_mul(b, v, v);
    let mut acc = sq(b, x); // x^2
    for _ in 0..6 {
        acc = gf_mul(b, &acc, x); // x^(2^k - 1)
        acc = sq(b, &acc);
    }
    // acc = x^254
    (0..8)
        .map(|i| {
            let mut v = acc.bit(i);
            for s in 4..8 {
                v = b.xor_bit(v, acc.bit((i + s) % 8));
            }
            if 0x63 >> i & 1 == 1 {
                !v
            } else {
                v
            }
        })
        .collect()
}

/// `aes128-key-schedule`: key(128) → round_keys(11·128).
pub fn aes128_key_schedule() -> Circuit {
    let mut b = CircuitBuilder::new();
    let key = b.input("key", 128);
    let bytes = to_bytes(&key);
    let mut w: Vec<Vec<BitVec>> = bytes.chunks(4).map(<[BitVec]>::to_vec).collect();
    let mut rcon = 1u8;
    for i in 4..44 {
        let mut temp = w[i - 1].clone();
        if i % 4 == 0 {
            temp.rotate_left(1);
            temp = temp.iter().map(|x| sbox(&mut b, x)).collect();
            temp[0] = b.xor(&temp[0], &BitVec::constant(rcon.into(), 8));
            rcon = (rcon << 1) ^ if rcon & 0x80 != 0 { 0x1b } else { 0 };
        }
        let prev = w[i - 4].clone();
        w.push(prev.iter().zip(&temp).map(|(p, t)| b.xor(p, t)).collect());
    }
    let keys = w
        .chunks(4)
        .map(|ws| from_bytes(&ws.concat()))
        .fold(BitVec::default(), |acc, k| acc.concat(&k));
    b.output("round_keys", &keys);
    b.finish()
}

/// The AES S-box, computed at compile time from its definition (inverse in
/// GF(2^8), then the affine map), for [`expand_bits`].
const SBOX: [u8; 256] = {
    const fn mul(mut a: u8, mut b: u8) -> u8 {
        let mut p = 0u8;
        while b != 0 {
            if b & 1 == 1 {
                p ^= a;
            }
            let carry = a & 0x80 != 0;
            a <<= 1;
            if carry {
                a ^= 0x1b;
            }
            b >>= 1;
        }
        p
    }
    let mut t = [0u8; 256];
    let mut x = 0usize;
    while x < 256 {
        // x^254 = x^-1 (and 0 ↦ 0).
        let mut inv = 1u8;
        let mut e = 0;
        while e < 254 {
            inv = mul(inv, x as u8);
            e += 1;
        }
        let mut v = inv;
        let mut s = 1;
        while s < 5 {
            v ^= inv.rotate_left(s);
            s += 1;
        }
        t[x] = v ^ 0x63;
        x += 1;
    }
    t
};

/// [`aes128_key_schedule`] in the clear, byte by byte, same bit order:
/// Alice expands her own key once per execution, and evaluating the
/// circuit gate by gate (its S-boxes are GF(2^8) inversions, ~10^5 gates)
/// took 125–260 µs of compgc's online phase, during which Bob waits.
/// `None` if `key` is not 128 bits.
pub fn expand_bits(key: &[bool]) -> Option<Vec<bool>> {
    if key.len() != 128 {
        return None;
    }
    // Byte j of a 16-byte block is bits 8(15−j)..8(16−j), bit t at 8(15−j)+t.
    let byte = |bits: &[bool], j: usize| -> u8 {
        (0..8).fold(0u8, |acc, t| acc | (u8::from(bits[8 * (15 - j) + t]) << t))
    };
    let mut w: Vec<[u8; 4]> = (0..4)
        .map(|i| std::array::from_fn(|k| byte(key, 4 * i + k)))
        .collect();
    let mut rcon = 1u8;
    for i in 4..44 {
        let mut temp = w[i - 1];
        if i % 4 == 0 {
            temp.rotate_left(1);
            temp = temp.map(|x| SBOX[x as usize]);
            temp[0] ^= rcon;
            rcon = (rcon << 1) ^ if rcon & 0x80 != 0 { 0x1b } else { 0 };
        }
        let prev = w[i - 4];
        w.push(std::array::from_fn(|k| prev[k] ^ temp[k]));
    }
    let mut out = vec![false; 11 * 128];
    for (r, key) in w.chunks(4).enumerate() {
        for (j, &b) in key.iter().flatten().enumerate() {
            for t in 0..8 {
                out[128 * r + 8 * (15 - j) + t] = b >> t & 1 == 1;
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_circuit::{format_value, parse_value, ValueFormat};

    #[test]
    fn fips197_key_expansion() {
        let c = aes128_key_schedule();
        let key = parse_value("0x2b7e151628aed2a6abf7158809cf4f3c", 128).unwrap();
        let out = c.eval(&[key]).unwrap().remove(0);
        let hex = |r: usize| format_value(&out[128 * r..128 * (r + 1)], ValueFormat::Hex);
        // FIPS-197 Appendix A.1: w[4..8] and w[40..44].
        assert_eq!(hex(1), "0xa0fafe1788542cb123a339392a6c7605");
        assert_eq!(hex(10), "0xd014f9a8c9ee2589e13f0cc8b6630ca6");
        assert_eq!(hex(0), "0x2b7e151628aed2a6abf7158809cf4f3c");
        assert_eq!(
            expand_bits(&parse_value("0x2b7e151628aed2a6abf7158809cf4f3c", 128).unwrap()),
            Some(out)
        );
    }

    #[test]
    fn expand_bits_is_the_circuit() {
        let c = aes128_key_schedule();
        let mut prg =
            brickyard_core::prg::Prg::from_seed(brickyard_core::Block::from_bytes([7; 16]));
        for _ in 0..64 {
            let key = prg.random_bits(128);
            let want = c.eval(std::slice::from_ref(&key)).unwrap().remove(0);
            assert_eq!(expand_bits(&key), Some(want));
        }
        assert_eq!(expand_bits(&[false; 127]), None);
    }
}
