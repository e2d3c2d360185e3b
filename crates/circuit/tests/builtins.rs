//! Every builtin against an independent reference on random inputs: the
//! `aes` crate, `sha2`'s raw compression function, native integers, a plain
//! Levenshtein DP, and the shared Bristol files where they exist.

mod common;

use aes::cipher::{BlockCipherEncrypt, KeyInit};
use brickyard_circuit::{builtin, format_value, load, parse_value, Circuit, ValueFormat};
use common::*;

fn aes_ref(key: &[u8], pt: &[u8]) -> Vec<u8> {
    let cipher = aes::Aes128::new_from_slice(key).expect("16-byte key");
    let mut block = aes::Block::default();
    block.copy_from_slice(pt);
    cipher.encrypt_block(&mut block);
    block.to_vec()
}

/// One value per group.
type Groups = Vec<Vec<bool>>;

/// Evaluates 64 random instances at once; `gen` makes one instance's input
/// groups from the rng; returns (inputs, outputs) per lane.
fn run64(
    c: &Circuit,
    rng: &mut Rng,
    mut gen: impl FnMut(&mut Rng) -> Vec<Vec<bool>>,
) -> Vec<(Groups, Groups)> {
    let lanes: Vec<Vec<Vec<bool>>> = (0..64).map(|_| gen(rng)).collect();
    let words: Vec<Vec<u64>> = (0..c.inputs.len())
        .map(|g| pack(&lanes.iter().map(|l| l[g].clone()).collect::<Vec<_>>()))
        .collect();
    let out = c.eval64(&words).expect("eval64");
    lanes
        .into_iter()
        .enumerate()
        .map(|(l, ins)| (ins, out.iter().map(|o| lane(o, l)).collect()))
        .collect()
}

#[test]
fn aes128_fips_and_random() {
    let c = builtin("aes128").unwrap();
    c.validate().unwrap();
    assert_eq!(c.and_count(), 6400);
    let key = parse_value("0x000102030405060708090a0b0c0d0e0f", 128).unwrap();
    let pt = parse_value("0x00112233445566778899aabbccddeeff", 128).unwrap();
    let ct = c.eval(&[key, pt]).unwrap();
    assert_eq!(
        format_value(&ct[0], ValueFormat::Hex),
        "0x69c4e0d86a7b0430d8cdb78070b4c55a"
    );

    let mut rng = Rng::new(1);
    for (ins, outs) in run64(&c, &mut rng, |r| vec![r.bits(128), r.bits(128)]) {
        let want = aes_ref(&reversed_bytes(&ins[0]), &reversed_bytes(&ins[1]));
        assert_eq!(reversed_bytes(&outs[0]), want);
    }
}

/// Reference key schedule (test-only, S-box from its GF(2^8) definition) to
/// feed the round components.
fn round_keys(key: &[u8]) -> Vec<Vec<u8>> {
    let sbox = |x: u8| {
        let mul = |mut a: u8, mut b: u8| {
            let mut p = 0u8;
            while b != 0 {
                if b & 1 == 1 {
                    p ^= a;
                }
                a = (a << 1) ^ if a & 0x80 != 0 { 0x1b } else { 0 };
                b >>= 1;
            }
            p
        };
        let inv = (1..=255u8).find(|&y| mul(x, y) == 1).unwrap_or(0);
        inv ^ inv.rotate_left(1)
            ^ inv.rotate_left(2)
            ^ inv.rotate_left(3)
            ^ inv.rotate_left(4)
            ^ 0x63
    };
    let mut w: Vec<[u8; 4]> = key.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
    let mut rcon = 1u8;
    for i in 4..44 {
        let mut t = w[i - 1];
        if i % 4 == 0 {
            t = [sbox(t[1]) ^ rcon, sbox(t[2]), sbox(t[3]), sbox(t[0])];
            rcon = (rcon << 1) ^ if rcon & 0x80 != 0 { 0x1b } else { 0 };
        }
        let p = w[i - 4];
        w.push([p[0] ^ t[0], p[1] ^ t[1], p[2] ^ t[2], p[3] ^ t[3]]);
    }
    w.chunks(4).map(|c| c.concat()).collect()
}

#[test]
fn aes128_from_round_components() {
    let round = builtin("aes128-round").unwrap();
    let last = builtin("aes128-final-round").unwrap();
    assert_eq!(round.and_count(), 16 * 32);
    assert_eq!(last.and_count(), 16 * 32);
    let mut rng = Rng::new(2);
    for _ in 0..4 {
        let (key, pt) = (rng.bytes(16), rng.bytes(16));
        let rks = round_keys(&key);
        let mut s: Vec<u8> = pt.iter().zip(&rks[0]).map(|(a, b)| a ^ b).collect();
        for (r, rk) in rks.iter().enumerate().skip(1) {
            let comp = if r < 10 { &round } else { &last };
            let out = comp.eval(&[reversed_bits(&s), reversed_bits(rk)]).unwrap();
            s = reversed_bytes(&out[0]);
        }
        assert_eq!(s, aes_ref(&key, &pt));
    }
}

#[test]
fn aes128_cbc_matches_manual_chaining() {
    let c = builtin("aes128-cbc:3").unwrap();
    assert_eq!(c.and_count(), 40 * 32 + 3 * 160 * 32);
    let mut rng = Rng::new(3);
    for _ in 0..3 {
        let (key, pt) = (rng.bytes(16), rng.bytes(48));
        let out = c.eval(&[reversed_bits(&key), reversed_bits(&pt)]).unwrap();
        let mut prev = vec![0u8; 16];
        let mut want = Vec::new();
        for block in pt.chunks(16) {
            let x: Vec<u8> = block.iter().zip(&prev).map(|(a, b)| a ^ b).collect();
            prev = aes_ref(&key, &x);
            want.extend_from_slice(&prev);
        }
        assert_eq!(reversed_bytes(&out[0]), want);
    }
}

#[test]
fn aes128_agrees_with_shared_file() {
    let Some(dir) = shared_circuits() else { return };
    let theirs = load(dir.join("bristol_fashion/aes_128.txt")).unwrap();
    let ours = builtin("aes128").unwrap();
    let mut rng = Rng::new(4);
    let ins: Vec<Vec<u64>> = (0..2)
        .map(|_| (0..128).map(|_| rng.next_u64()).collect())
        .collect();
    assert_eq!(ours.eval64(&ins).unwrap(), theirs.eval64(&ins).unwrap());
}

fn sha_ref(block: &[u8], cv: &[u8]) -> Vec<u8> {
    let mut state = [0u32; 8];
    for (s, c) in state.iter_mut().zip(cv.chunks(4)) {
        *s = u32::from_be_bytes([c[0], c[1], c[2], c[3]]);
    }
    let mut b = [0u8; 64];
    b.copy_from_slice(block);
    sha2::block_api::compress256(&mut state, &[b]);
    state.iter().flat_map(|w| w.to_be_bytes()).collect()
}

#[test]
fn sha256_matches_sha2_and_shared_file() {
    let c = builtin("sha256").unwrap();
    c.validate().unwrap();
    assert!(c.and_count() <= 22_600, "sha256 has {} ANDs", c.and_count());
    let mut rng = Rng::new(5);
    let results = run64(&c, &mut rng, |r| vec![r.bits(512), r.bits(256)]);
    for (ins, outs) in &results {
        assert_eq!(
            reversed_bytes(&outs[0]),
            sha_ref(&reversed_bytes(&ins[0]), &reversed_bytes(&ins[1]))
        );
    }
    if let Some(dir) = shared_circuits() {
        let theirs = load(dir.join("bristol_fashion/sha256.txt")).unwrap();
        let ins: Vec<Vec<u64>> = [512, 256]
            .iter()
            .map(|&n| (0..n).map(|_| rng.next_u64()).collect())
            .collect();
        assert_eq!(c.eval64(&ins).unwrap(), theirs.eval64(&ins).unwrap());
    }
}

#[test]
fn integer_circuits_match_native_arithmetic() {
    let mut rng = Rng::new(6);
    for n in [1usize, 7, 32, 64] {
        let mask = if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        type Ref = fn(u128, u128, u128, usize) -> u128;
        let ops: [(&str, Ref); 6] = [
            ("add", |a, b, m, _| (a + b) & m),
            ("sub", |a, b, m, _| a.wrapping_sub(b) & m),
            ("mul", |a, b, m, _| a.wrapping_mul(b) & m),
            ("lt", |a, b, _, _| u128::from(a < b)),
            ("eq", |a, b, _, _| u128::from(a == b)),
            ("hamming", |a, b, _, _| u128::from((a ^ b).count_ones())),
        ];
        for (name, f) in ops {
            let c = builtin(&format!("{name}{n}")).unwrap();
            c.validate().unwrap();
            let results = run64(&c, &mut rng, |r| {
                let a = u128::from(r.next_u64()) & mask;
                // Make equal operands common enough to exercise eq/lt edges.
                let b = if r.below(4) == 0 {
                    a
                } else {
                    u128::from(r.next_u64()) & mask
                };
                vec![int_bits(a, n), int_bits(b, n)]
            });
            for (ins, outs) in results {
                let (a, b) = (bits_int(&ins[0]), bits_int(&ins[1]));
                assert_eq!(bits_int(&outs[0]), f(a, b, mask, n), "{name}{n}({a}, {b})");
            }
        }
    }
    // Cost sanity: one AND per carry, as the shared adder64 file.
    assert_eq!(builtin("add64").unwrap().and_count(), 63);
    assert_eq!(builtin("lt256").unwrap().and_count(), 256);
    assert_eq!(builtin("hamming8").unwrap().outputs[0].width(), 4);
}

fn lev_ref(a: &[u8], b: &[u8]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut row = vec![i + 1];
        for (j, y) in b.iter().enumerate() {
            row.push(
                (prev[j + 1] + 1)
                    .min(row[j] + 1)
                    .min(prev[j] + usize::from(x != y)),
            );
        }
        prev = row;
    }
    prev[b.len()]
}

#[test]
fn levenshtein_matches_dp() {
    let mut rng = Rng::new(7);
    for l in [1usize, 3, 8] {
        let c = builtin(&format!("levenshtein:{l}")).unwrap();
        c.validate().unwrap();
        // Small alphabets so matches (and therefore all DP branches) happen.
        let results = run64(&c, &mut rng, |r| {
            let a: Vec<u8> = (0..l).map(|_| b'a' + r.below(3) as u8).collect();
            let b: Vec<u8> = (0..l).map(|_| b'a' + r.below(3) as u8).collect();
            vec![reversed_bits(&a), reversed_bits(&b)]
        });
        for (ins, outs) in results {
            let (a, b) = (reversed_bytes(&ins[0]), reversed_bytes(&ins[1]));
            assert_eq!(bits_int(&outs[0]) as usize, lev_ref(&a, &b), "{a:?} {b:?}");
        }
    }
    let kitten = parse_value("0x6b697474656e", 48).unwrap();
    let sittin = parse_value("0x73697474696e", 48).unwrap();
    let c = builtin("levenshtein:6").unwrap();
    assert_eq!(bits_int(&c.eval(&[kitten, sittin]).unwrap()[0]), 2);
}

/// The cell equals the three-way minimum on every input that can occur in a
/// DP table (up, left ≥ diag − 1), exhaustively for W = 3.
#[test]
fn levenshtein_cell_exhaustive() {
    let w = 3;
    let c = builtin("levenshtein-cell:3").unwrap();
    assert_eq!(c.and_count(), 3 * w + 8);
    let sym = |v: u128| int_bits(v, 8);
    for diag in 0..8u128 {
        for up in diag.saturating_sub(1)..8 {
            for left in diag.saturating_sub(1)..8 {
                for same in [true, false] {
                    let want = (up + 1).min(left + 1).min(diag + u128::from(!same));
                    if want >= 8 {
                        continue;
                    }
                    let b = if same { 0x41 } else { 0x43 };
                    let out = c
                        .eval(&[
                            sym(0x41),
                            sym(b),
                            int_bits(diag, w),
                            int_bits(up, w),
                            int_bits(left, w),
                        ])
                        .unwrap();
                    assert_eq!(
                        bits_int(&out[0]),
                        want,
                        "diag {diag} up {up} left {left} same {same}"
                    );
                }
            }
        }
    }
}

#[test]
fn names_parse_and_refuse() {
    for (name, _) in brickyard_circuit::builtin_names() {
        let concrete = name
            .replace('N', "8")
            .replace(":M", ":2")
            .replace(":W", ":4")
            .replace(":L", ":4");
        let c = builtin(&concrete).unwrap_or_else(|e| panic!("{concrete}: {e}"));
        c.validate().unwrap();
    }
    for bad in [
        "add",
        "add0",
        "addx",
        "add-3",
        "aes128-cbc:",
        "aes128-cbc:0",
        "levenshtein:99999",
        "mul100000",
        "nope",
    ] {
        assert!(builtin(bad).is_err(), "{bad} accepted");
    }
}

/// DES known answers: the first three are published vectors (the classic
/// worked example; the NBS variable-plaintext test's first entry; the
/// well-known all-zero ciphertext), the rest were made with OpenSSL's
/// `des-ecb` (legacy provider) on random keys and blocks, so they come from
/// an implementation independent of ours.
const DES_VECTORS: &[(&str, &str, &str)] = &[
    ("133457799bbcdff1", "0123456789abcdef", "85e813540f0ab405"),
    ("0101010101010101", "8000000000000000", "95f8a5e5dd31d900"),
    ("0e329232ea6d0d73", "8787878787878787", "0000000000000000"),
    ("0101010101010101", "0000000000000001", "166b40b44aba4bd6"),
    ("8001010101010101", "0000000000000000", "95a8d72813daa94d"),
    ("2e0ffb854ac096a2", "6a031ccb67706a2d", "8a5e8c0cc047edc2"),
    ("86a733f12e6936a5", "006fab808354e3f9", "6f8d8a9f9d3dfe86"),
    ("65c9b03a08f52ed0", "823f4eda7a01cd20", "0f79591b39d4ade3"),
    ("85394aac0aa5bdcd", "5950990ed1c90d74", "eb9667f7d5be6082"),
    ("5a790f876c79e3b8", "49c1c4c0bc1fe6eb", "3080863806b79f41"),
    ("cf56f7c8dbea4877", "70aa0af181a1e5b4", "864dfc1962cf4df8"),
    ("3eac2d08cce00da1", "622b4db162485080", "ef3c29365421024d"),
    ("80cf7bb2c4a8a920", "31debd79e7cb78a7", "187acdc50dce3c4e"),
    ("f543aca5da7ba502", "cb14f2362ddf8634", "980b29e24f39b6c1"),
    ("03896157dbea0f52", "48bfbe6675e99c45", "8f96a369a885b820"),
    ("19c866b74eb81c9c", "33dd9c096a0b92d3", "84be0a62da432f3a"),
    ("68bf8f783080451a", "8fc8ca1234669643", "01fd73eff57ed76b"),
    ("2728aadcd4b12804", "8d8c9153a6d63260", "97b5245b9bc832c4"),
    ("537fd33b39b73c9f", "ec895097fa39abf6", "fc808e4693d3103e"),
    ("8280680cb858a6e2", "23bebe07492ba932", "0b0b6c718499240d"),
    ("4caa13af95e78d19", "c37638678b079fde", "ddc488a8ad033544"),
    ("22a6a7828c1c11fa", "c0bbef93ec60aabc", "d62229fc1da896af"),
    ("b7307da36a7f4c50", "6ec35eb8583d221e", "460dd18fd652565b"),
    ("7e44d8f910891b2b", "471cc3b72b1d51e9", "a115b4a7af2c03a8"),
    ("945f8584c3cea68a", "a5b6eb3987986968", "9addfc267154ea76"),
    ("0ec22d5638cafce8", "9aed868d7886fdb3", "9c555a070bd332ff"),
    ("c28f261e03e6981e", "4c6ba544111fa021", "949bec4abea4e130"),
    ("e69a773bedb1d043", "020a0c60ccdc330e", "6f307e5d0a6b2bc3"),
    ("26ffad39b35a4d5a", "96039fe0ffdc2ddb", "c51f446cfc0a2cd7"),
];

#[test]
fn des_known_answers_both_layouts() {
    let c = builtin("des").unwrap();
    let x = builtin("des-expanded").unwrap();
    c.validate().unwrap();
    x.validate().unwrap();
    // The S-boxes are the only ANDs: ≤ 57 each (ANF monomials), 128 S-boxes.
    assert!(c.and_count() <= 128 * 57, "des has {} ANDs", c.and_count());
    assert_eq!(c.and_count(), x.and_count());
    assert_eq!((c.inputs[0].wires.len(), c.inputs[1].wires.len()), (64, 64));
    assert_eq!(x.inputs[0].wires.len(), 768);
    for (k, p, want) in DES_VECTORS {
        let key = parse_value(&format!("0x{k}"), 64).unwrap();
        let pt = parse_value(&format!("0x{p}"), 64).unwrap();
        let ct = c.eval(&[key.clone(), pt.clone()]).unwrap();
        assert_eq!(
            format_value(&ct[0], ValueFormat::Hex),
            format!("0x{want}"),
            "des {k} {p}"
        );
        let rk = brickyard_circuit::library::des::expand_key_bits(&key);
        let ct = x.eval(&[rk, pt]).unwrap();
        assert_eq!(
            format_value(&ct[0], ValueFormat::Hex),
            format!("0x{want}"),
            "des-expanded {k} {p}"
        );
    }
    // The parity bits (FIPS bits 8, 16, …, 64 = wires 0, 8, …, 56) do not
    // matter; every other key bit does for some block.
    let mut rng = Rng::new(7);
    for _ in 0..4 {
        let (key, pt) = (rng.bits(64), rng.bits(64));
        let base = c.eval(&[key.clone(), pt.clone()]).unwrap();
        for w in 0..64 {
            let mut k2 = key.clone();
            k2[w] = !k2[w];
            let other = c.eval(&[k2, pt.clone()]).unwrap();
            assert_eq!(other == base, w % 8 == 0, "key wire {w}");
        }
    }
}
