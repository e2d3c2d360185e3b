//! `Verifier::verify_batch` against the definition: every pair's result is
//! whether Encode(m)|_W (by reference arithmetic, `Code::encode_reference`)
//! equals the i-hash and m is a message, and equals `Verifier::verify`.

use brickyard_core::gf256::{Field, GF256, GF64};
use brickyard_core::prg::Prg;
use brickyard_core::Block;
use brickyard_ihash::{Code, Rows, Verifier};

/// A uniform field element other than 0.
fn nonzero(prg: &mut Prg, f: &Field) -> u8 {
    1 + prg.gen_range(f.order() as u64 - 1) as u8
}

/// `count` pairs, about half honest and the rest each broken one way; the
/// expected result of each.
fn pairs(code: &Code, watch: &[usize], count: usize, prg: &mut Prg) -> (Rows, Rows, Vec<bool>) {
    let (f, ell, w) = (code.field(), code.ell(), watch.len());
    let mask = (f.order() - 1) as u8;
    let (mut msgs, mut hashes, mut want) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..count {
        let mut m = vec![0u8; ell];
        prg.fill_bytes(&mut m);
        m.iter_mut().for_each(|x| *x &= mask);
        let c = code.encode_reference(&m);
        let mut h: Vec<u8> = watch.iter().map(|&j| c[j]).collect();
        let good = match prg.gen_range(6) {
            // One watched symbol of the i-hash changed.
            0 => {
                h[prg.gen_range(w as u64) as usize] ^= nonzero(prg, f);
                false
            }
            // One message symbol changed: caught unless the codeword
            // change misses W, which the definition decides.
            1 => {
                m[prg.gen_range(ell as u64) as usize] ^= nonzero(prg, f);
                let c2 = code.encode_reference(&m);
                watch.iter().zip(&h).all(|(&j, &x)| c2[j] == x)
            }
            // For σ < 8, a byte outside the field whose in-field bits are
            // the honest message (only the symbol check can catch it).
            2 if mask != 0xff => {
                m[prg.gen_range(ell as u64) as usize] |= 0x40 << prg.gen_range(2);
                false
            }
            _ => true,
        };
        msgs.extend(m);
        hashes.extend(h);
        want.push(good);
    }
    (
        Rows::from_flat(&hashes, w),
        Rows::from_flat(&msgs, ell),
        want,
    )
}

fn check(code: &Code, watch: &[usize], count: usize, prg: &mut Prg) {
    let v = Verifier::new(code, watch);
    let (hashes, msgs, want) = pairs(code, watch, count, prg);
    // Start from the opposite of what a no-op would need to pass.
    let mut ok: Vec<bool> = want.iter().map(|&b| !b).collect();
    v.verify_batch(&hashes, &msgs, &mut ok);
    for i in 0..count {
        assert_eq!(
            ok[i],
            want[i],
            "pair {i} of {count}, watch {watch:?}, code ({}, {})",
            code.n(),
            code.ell()
        );
        assert_eq!(ok[i], v.verify(hashes.get(i), msgs.get(i)), "pair {i}");
    }
    if count > 0 {
        assert!(want.iter().any(|&b| b) || count < 8, "some honest pairs");
        assert!(want.iter().any(|&b| !b) || count < 8, "some broken pairs");
    }
}

fn random_watch(n: usize, w: usize, prg: &mut Prg) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    prg.shuffle(&mut all);
    let mut watch = all[..w].to_vec();
    watch.sort_unstable();
    watch
}

#[test]
fn batch_verification_matches_the_definition_pair_by_pair() {
    let seed = 0x5eed_ba7c_0001u128;
    println!("seed {seed:#x}");
    let mut prg = Prg::from_seed(Block(seed));
    // The three parameter sets of Sec. 6.1 and a GF(2^6) code with ℓ > 32.
    for &(f, n, ell, w) in &[
        (&GF256, 86, 32, 21),
        (&GF256, 88, 48, 32),
        (&GF64, 44, 20, 19),
        (&GF64, 64, 40, 17),
    ] {
        let code = Code::new(f, n, ell);
        // Counts around the block size (256) and its multiples.
        for count in [0, 1, 15, 255, 256, 257, 700] {
            check(&code, &random_watch(n, w, &mut prg), count, &mut prg);
        }
        // Only systematic positions; only parity positions.
        let sys: Vec<usize> = (0..w).collect();
        let par: Vec<usize> = (n - w..n).collect();
        check(&code, &sys, 300, &mut prg);
        check(&code, &par, 300, &mut prg);
    }
}

#[test]
fn batch_verification_fails_rows_of_the_wrong_width() {
    let code = Code::new(&GF256, 86, 32);
    let mut prg = Prg::from_seed(Block(7));
    let watch = random_watch(86, 21, &mut prg);
    let v = Verifier::new(&code, &watch);
    let (hashes, msgs, want) = pairs(&code, &watch, 40, &mut prg);
    let mut ok = vec![false; 40];
    v.verify_batch(&hashes, &msgs, &mut ok);
    assert_eq!(ok, want);
    let short = Rows::from_flat(&msgs.to_flat()[..40 * 31], 31);
    v.verify_batch(&hashes, &short, &mut ok);
    assert!(ok.iter().all(|&b| !b), "a 31-symbol message never verifies");
    let long_hashes = Rows::from_flat(&vec![0u8; 40 * 22], 22);
    ok.fill(true);
    v.verify_batch(&long_hashes, &msgs, &mut ok);
    assert!(ok.iter().all(|&b| !b), "a 22-symbol i-hash never verifies");
}

/// `verify_batch_either` against the two one-by-one checks: Some(false) iff
/// Verify(h, m), else Some(true) iff Verify(h ⊕ shift, m), else None; pairs
/// built on h, on h ⊕ shift and broken, around the block size.
#[test]
fn batch_either_matches_the_two_checks_pair_by_pair() {
    let seed = 0x5eed_ba7c_0002u128;
    println!("seed {seed:#x}");
    let mut prg = Prg::from_seed(Block(seed));
    for &(f, n, ell, w) in &[(&GF256, 86, 32, 21), (&GF64, 44, 20, 19)] {
        let code = Code::new(f, n, ell);
        let watch = random_watch(n, w, &mut prg);
        let v = Verifier::new(&code, &watch);
        let mask = (f.order() - 1) as u8;
        let mut d = vec![0u8; ell];
        prg.fill_bytes(&mut d);
        d.iter_mut().for_each(|x| *x &= mask);
        d[0] |= 1;
        let cd = code.encode_reference(&d);
        let shift: Vec<u8> = watch.iter().map(|&j| cd[j]).collect();
        for count in [1, 255, 256, 257, 600] {
            let (mut hashes, msgs, _) = pairs(&code, &watch, count, &mut prg);
            // A third of the i-hashes get the shift added: an honest
            // message then verifies against h ⊕ shift only.
            let mut flipped = vec![false; count];
            for (i, fl) in flipped.iter_mut().enumerate() {
                if prg.gen_range(3) == 0 {
                    brickyard_ihash::xor_into(hashes.get_mut(i), &shift);
                    *fl = true;
                }
            }
            let mut out = vec![Some(false); count];
            v.verify_batch_either(&hashes, &shift, &msgs, &mut out);
            let mut alt = vec![0u8; w];
            let (mut seen_true, mut seen_none) = (false, false);
            for i in 0..count {
                alt.copy_from_slice(hashes.get(i));
                brickyard_ihash::xor_into(&mut alt, &shift);
                let want = if v.verify(hashes.get(i), msgs.get(i)) {
                    Some(false)
                } else if v.verify(&alt, msgs.get(i)) {
                    Some(true)
                } else {
                    None
                };
                assert_eq!(out[i], want, "pair {i} of {count} (flipped {})", flipped[i]);
                seen_true |= want == Some(true);
                seen_none |= want.is_none();
            }
            if count > 100 {
                assert!(seen_true && seen_none, "both outcomes exercised");
            }
        }
        // A shift of the wrong width: None everywhere.
        let (hashes, msgs, _) = pairs(&code, &watch, 20, &mut prg);
        let mut out = vec![Some(false); 20];
        v.verify_batch_either(&hashes, &shift[1..], &msgs, &mut out);
        assert!(out.iter().all(Option::is_none));
    }
}
