//! The S-box version of Sec. 2.3 / Sec. 5: AES-128 where every S-box is one
//! 8-bit table gate and every linear layer (AddRoundKey, ShiftRows,
//! MixColumns, the key schedule's XORs and Rcon) is XORs and NOTs on masked
//! bits, computed locally.
//!
//! Same function and wire layout as `builtin:aes128` (group 0 = key,
//! group 1 = plaintext, output = ciphertext, REVERSED bit order: byte `j`,
//! bit `t` of a 16-byte group is wire `8(15−j)+t`), so the two versions run
//! on the same inputs and can be compared. Unlike the paper (which feeds the
//! *expanded* key from Bob), the key schedule is inside: 40 key-schedule
//! S-boxes + 160 round S-boxes = 200 tables. Round `r`'s key S-boxes depend
//! only on round key `r−1`, so they run in the same layer as round `r`'s
//! state S-boxes: 10 table layers of 20 tables each.

use super::program::{Program, ProgramBuilder, TableFn};

/// The AES S-box, computed from its definition (inverse in GF(2^8) mod
/// x^8+x^4+x^3+x+1, then the affine map), not pasted.
pub fn sbox_table() -> Vec<u8> {
    fn mul(mut a: u8, mut b: u8) -> u8 {
        let mut p = 0u8;
        while b != 0 {
            if b & 1 == 1 {
                p ^= a;
            }
            let hi = a & 0x80;
            a <<= 1;
            if hi != 0 {
                a ^= 0x1b;
            }
            b >>= 1;
        }
        p
    }
    (0..=255u8)
        .map(|x| {
            // x^254 = x^{-1} (0 ↦ 0).
            let mut inv = 1u8;
            for _ in 0..254 {
                inv = mul(inv, x);
            }
            let inv = if x == 0 { 0 } else { inv };
            let mut s = 0x63u8;
            for i in 0..5 {
                s ^= inv.rotate_left(i);
            }
            s
        })
        .collect()
}

/// The table function of the S-box version.
pub fn sbox_fn() -> TableFn {
    TableFn {
        name: "aes-sbox",
        n_in: 8,
        n_out: 8,
        values: sbox_table(),
    }
}

type Byte = [u32; 8];

fn bytes_of(group: &[u32]) -> Vec<Byte> {
    (0..16)
        .map(|j| {
            let mut b = [0u32; 8];
            b.copy_from_slice(&group[8 * (15 - j)..8 * (16 - j)]);
            b
        })
        .collect()
}

fn xor_byte(p: &mut ProgramBuilder, a: &Byte, b: &Byte) -> Byte {
    let mut o = [0u32; 8];
    for t in 0..8 {
        o[t] = p.xor(a[t], b[t]);
    }
    o
}

fn sbox(p: &mut ProgramBuilder, a: &Byte) -> Byte {
    let o = p.table(a);
    let mut b = [0u32; 8];
    b.copy_from_slice(&o);
    b
}

/// Multiplication by x in GF(2^8): a shift (wire renaming) plus three XORs.
fn xtime(p: &mut ProgramBuilder, a: &Byte) -> Byte {
    let hi = a[7];
    [
        hi,
        p.xor(a[0], hi),
        a[1],
        p.xor(a[2], hi),
        p.xor(a[3], hi),
        a[4],
        a[5],
        a[6],
    ]
}

fn mix_columns(p: &mut ProgramBuilder, s: &[Byte]) -> Vec<Byte> {
    let mut out = Vec::with_capacity(16);
    for col in s.chunks(4) {
        let t01 = xor_byte(p, &col[0], &col[1]);
        let t23 = xor_byte(p, &col[2], &col[3]);
        let t = xor_byte(p, &t01, &t23);
        for r in 0..4 {
            let pair = xor_byte(p, &col[r], &col[(r + 1) % 4]);
            let x = xtime(p, &pair);
            let y = xor_byte(p, &x, &t);
            out.push(xor_byte(p, &y, &col[r]));
        }
    }
    out
}

fn shift_rows(s: &[Byte]) -> Vec<Byte> {
    (0..16)
        .map(|i| {
            let (r, c) = (i % 4, i / 4);
            s[r + 4 * ((c + r) % 4)]
        })
        .collect()
}

/// AES-128 with S-box tables (see the module docs).
pub fn aes128_sbox_program() -> Program {
    let mut p = ProgramBuilder::new(sbox_fn());
    let key = p.input(128);
    let pt = p.input(128);
    let mut rk = bytes_of(&key);
    let ptb = bytes_of(&pt);
    let mut s: Vec<Byte> = (0..16).map(|i| xor_byte(&mut p, &ptb[i], &rk[i])).collect();
    let mut rcon = 1u8;
    for round in 1..=10 {
        // Key schedule: w0 ^= SubWord(RotWord(w3)) ^ Rcon; w1 ^= w0; …
        let rot = [rk[13], rk[14], rk[15], rk[12]];
        let mut sub: Vec<Byte> = rot.iter().map(|b| sbox(&mut p, b)).collect();
        for (t, w) in sub[0].iter_mut().enumerate() {
            if (rcon >> t) & 1 == 1 {
                *w = p.not(*w);
            }
        }
        let mut next = Vec::with_capacity(16);
        for i in 0..16 {
            let prev = if i < 4 { sub[i] } else { next[i - 4] };
            next.push(xor_byte(&mut p, &rk[i], &prev));
        }
        rk = next;
        rcon = if rcon & 0x80 != 0 {
            (rcon << 1) ^ 0x1b
        } else {
            rcon << 1
        };
        // Round: SubBytes, ShiftRows, MixColumns (not in round 10), AddRoundKey.
        let sb: Vec<Byte> = s.iter().map(|b| sbox(&mut p, b)).collect();
        let sr = shift_rows(&sb);
        let mc = if round < 10 {
            mix_columns(&mut p, &sr)
        } else {
            sr
        };
        s = (0..16).map(|i| xor_byte(&mut p, &mc[i], &rk[i])).collect();
    }
    let out: Vec<u32> = s.iter().rev().flat_map(|b| b.iter().copied()).collect();
    p.finish(vec![out])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sbox_known_values() {
        let s = sbox_table();
        assert_eq!((s[0], s[1], s[0x53], s[0xff]), (0x63, 0x7c, 0xed, 0x16));
    }

    #[test]
    fn matches_builtin_aes128() {
        let p = aes128_sbox_program();
        assert_eq!(p.table_count(), 200);
        assert_eq!(p.table_layers(), 10);
        let c = brickyard_circuit::builtin("aes128").unwrap();
        let hex = |s: &str| brickyard_circuit::parse_value(s, 128).unwrap();
        let inp = vec![
            hex("0x000102030405060708090a0b0c0d0e0f"),
            hex("0x00112233445566778899aabbccddeeff"),
        ];
        let got = p.eval(&inp).unwrap();
        assert_eq!(got, c.eval(&inp).unwrap());
        assert_eq!(got[0], hex("0x69c4e0d86a7b0430d8cdb78070b4c55a"));
    }
}
