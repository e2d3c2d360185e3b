//! Honest runs: i-hashes verify, forgeries do not, XOR homomorphism.

mod common;
use brickyard_core::prg::Prg;
use brickyard_core::Block;
use brickyard_ihash::{xor_into, Params, Receiver, Rows, Sender};

fn session(
    p: Params,
    count: usize,
    seed: u128,
) -> (Rows, Rows, Rows, Rows, brickyard_ihash::Verifier) {
    println!("params {p:?}, seed {seed:#x}");
    let mut mprg = Prg::from_seed(Block(seed ^ 0xabc));
    let mask = (p.field().order() - 1) as u8;
    let mut chosen = vec![0u8; count * p.ell];
    mprg.fill_bytes(&mut chosen);
    chosen.iter_mut().for_each(|x| *x &= mask);
    let chosen = Rows::from_flat(&chosen, p.ell);
    let sent = chosen.clone();
    let (a, b) = common::run(
        move |ch| {
            let mut prg = Prg::from_seed(Block(seed));
            let mut s = Sender::setup(ch, &mut prg, p).unwrap();
            let r1 = s.hash_random(ch, count).unwrap();
            s.hash_chosen(ch, &sent).unwrap();
            let r2 = s.hash_random(ch, 3).unwrap();
            (r1, r2)
        },
        move |ch| {
            let mut prg = Prg::from_seed(Block(seed + 1));
            let mut r = Receiver::setup(ch, &mut prg, p).unwrap();
            let h1 = r.hash_random(ch, &mut prg, count).unwrap();
            let h2 = r.hash_chosen(ch, &mut prg, count).unwrap();
            let h3 = r.hash_random(ch, &mut prg, 3).unwrap();
            assert_eq!(h3.len(), 3);
            (h1, h2, r.verifier().clone(), h3)
        },
    );
    let (random, later) = a;
    let (h_random, h_chosen, verifier, h_later) = b;
    for (h, m) in h_later.iter().zip(later.iter()) {
        assert!(verifier.verify(h, m), "a later batch verifies");
    }
    (random, h_random, chosen, h_chosen, verifier)
}

fn check_all(p: Params, count: usize, seed: u128) {
    let (random, h_random, chosen, h_chosen, v) = session(p, count, seed);
    assert_eq!(
        (random.len(), h_random.len(), h_chosen.len()),
        (count, count, count)
    );
    assert_eq!(v.watch().len(), p.w);
    let field = p.field();
    for i in 0..count {
        assert!(
            v.verify(h_random.get(i), random.get(i)),
            "random message {i}"
        );
        assert!(
            v.verify(h_chosen.get(i), chosen.get(i)),
            "chosen message {i}"
        );
        // Forgeries: any one symbol changed, another batch message.
        for j in [0, p.ell / 2, p.ell - 1] {
            let mut m = random.get(i).to_vec();
            m[j] ^= 1;
            assert!(!v.verify(h_random.get(i), &m), "one symbol changed");
        }
        let other = random.get((i + 1) % count);
        assert!(!v.verify(h_random.get(i), other), "another message");
        let mut bad = chosen.get(i).to_vec();
        bad[0] ^= (field.order() - 1) as u8;
        assert!(!v.verify(h_chosen.get(i), &bad));
    }
    // Homomorphism: ⟨a⟩ ⊕ ⟨b⟩ ⊕ ⟨c⟩ verifies a ⊕ b ⊕ c.
    for i in 0..count - 1 {
        let mut h = h_random.get(i).to_vec();
        xor_into(&mut h, h_chosen.get(i + 1));
        xor_into(&mut h, h_random.get(i + 1));
        let mut m = random.get(i).to_vec();
        xor_into(&mut m, chosen.get(i + 1));
        xor_into(&mut m, random.get(i + 1));
        assert!(v.verify(&h, &m));
        assert!(!v.verify(&h, random.get(i)));
    }
    // A symbol outside GF(2^σ) is never accepted.
    if p.sigma == 6 {
        let mut m = random.get(0).to_vec();
        m[0] |= 0x40;
        assert!(!v.verify(h_random.get(0), &m));
    }
}

#[test]
fn labels_k88_verify_and_forgeries_fail() {
    check_all(Params::for_labels(88, 40).unwrap(), 300, 0x8801);
}

#[test]
fn labels_k127_verify_and_forgeries_fail() {
    check_all(Params::for_labels(127, 40).unwrap(), 200, 0x12701);
}

#[test]
fn permutation_strings_verify_and_forgeries_fail() {
    check_all(Params::for_permutation_strings(40).unwrap(), 200, 0x4401);
}
