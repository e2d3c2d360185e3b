//! The Reed–Solomon code: MDS and agreement of the three encoders.

use brickyard_core::gf256::{Field, Kernel, GF256, GF64};
use brickyard_core::prg::Prg;
use brickyard_core::Block;
use brickyard_ihash::Code;

/// Whether the generator columns `cols` (ℓ of them) are invertible.
fn invertible(code: &Code, cols: &[usize]) -> bool {
    let ell = code.ell();
    let m = brickyard_core::gf256::GfMatrix::from_fn(code.field(), ell, ell, |r, c| {
        code.generator_column(cols[c])[r]
    });
    m.rank() == ell
}

fn subsets(n: usize, k: usize, f: &mut impl FnMut(&[usize])) {
    fn rec(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, f: &mut impl FnMut(&[usize])) {
        if cur.len() == k {
            return f(cur);
        }
        for i in start..=n - (k - cur.len()) {
            cur.push(i);
            rec(i + 1, n, k, cur, f);
            cur.pop();
        }
    }
    rec(0, n, k, &mut Vec::new(), f)
}

#[test]
fn small_codes_are_mds_exhaustively() {
    for (field, n, ell) in [(&GF64, 10usize, 4usize), (&GF64, 12, 6), (&GF256, 11, 5)] {
        let code = Code::new(field, n, ell);
        let mut count = 0;
        subsets(n, ell, &mut |s| {
            assert!(
                invertible(&code, s),
                "σ={} ({n},{ell}) columns {s:?}",
                field.sigma()
            );
            count += 1;
        });
        assert!(count > 200);
    }
}

#[test]
fn mds_check_sees_a_singular_choice() {
    // A repeated column is singular: the test's rank check can fail.
    let code = Code::new(&GF256, 86, 32);
    let mut cols: Vec<usize> = (40..72).collect();
    cols[31] = cols[0];
    assert!(!invertible(&code, &cols));
}

#[test]
fn code_86_32_is_mds_on_random_subsets() {
    let seed = 0x86_32_u128;
    println!("seed {seed:#x}");
    let mut prg = Prg::from_seed(Block(seed));
    let code = Code::new(&GF256, 86, 32);
    for _ in 0..10_000 {
        let mut all: Vec<usize> = (0..86).collect();
        prg.shuffle(&mut all);
        let mut s = all[..32].to_vec();
        s.sort_unstable();
        assert!(invertible(&code, &s), "columns {s:?}");
    }
}

fn encoders_agree(field: &'static Field, n: usize, ell: usize, count: usize, seed: u128) {
    println!(
        "seed {seed:#x}, {count} messages, kernels {:?}",
        Kernel::available()
    );
    let mut prg = Prg::from_seed(Block(seed));
    let code = Code::new(field, n, ell);
    let mask = (field.order() - 1) as u8;
    let mut msgs = vec![0u8; count * ell];
    prg.fill_bytes(&mut msgs);
    msgs.iter_mut().for_each(|x| *x &= mask);
    // Symbol-major copy for the batch encoder.
    let mut sym = vec![0u8; count * ell];
    for t in 0..count {
        for i in 0..ell {
            sym[i * count + t] = msgs[t * ell + i];
        }
    }
    let mut batches: Vec<Vec<u8>> = Kernel::available()
        .into_iter()
        .map(|k| {
            let mut par = vec![0u8; (n - ell) * count];
            code.parity_matrix().apply_on(k, &sym, count, &mut par);
            par
        })
        .collect();
    // The batch encoder the sender runs (the additive FFT when ℓ is a
    // power of two).
    let mut par = vec![0u8; (n - ell) * count];
    code.encode_batch(&sym, count, &mut par);
    batches.push(par);
    for t in 0..count {
        let m = &msgs[t * ell..(t + 1) * ell];
        let want = code.encode_reference(m);
        assert_eq!(code.encode(m), want, "table encoder, message {t}");
        for (k, par) in batches.iter().enumerate() {
            for j in 0..n - ell {
                assert_eq!(par[j * count + t], want[ell + j], "kernel {k}, message {t}");
            }
        }
    }
}

#[test]
fn encoders_agree_on_random_messages() {
    encoders_agree(&GF256, 86, 32, 100_000, 0xe1);
    encoders_agree(&GF64, 44, 20, 20_000, 0xe2);
}

/// `cargo-slot test -p brickyard-ihash --release --test rs -- --ignored`
#[test]
#[ignore]
fn encoders_agree_on_a_million_messages() {
    encoders_agree(&GF256, 86, 32, 1_000_000, 0xe3);
    encoders_agree(&GF256, 88, 48, 1_000_000, 0xe4);
    encoders_agree(&GF64, 44, 20, 1_000_000, 0xe5);
}
