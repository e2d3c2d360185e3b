//! Step 5b on small instances (n_w = 4, ℓ_w = 2, two permutation seeds):
//! the same circuits as the paper's sizes, fewer copies. The full sizes run
//! in `full_size_statement_cost` (ignored; command in docs/testing.md).

use super::{prove, verify, DeltaIhash, Statement, Witness};
use crate::seeds::{double_hash, perm_seed, seed_commitment};
use brickyard_core::channel::memory_pair;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Error, Result};
use brickyard_ihash::Code;
use zeroize::Zeroizing;

/// An honest Setup as Alice runs it: seeds, Δ, the Hash of Δ at stream
/// symbol `q` exactly as `brickyard_ihash::Sender` computes it (PRG symbols,
/// parity corrections, chosen-message correction), C_j and D_i.
fn honest(n: usize, ell: usize, q: u64, perm: &[u32], seed: u64) -> (Statement, Witness) {
    let mut prg = Prg::from_seed(Block(seed.into()));
    let seeds = prg.random_blocks(n);
    let mut delta = vec![0u8; ell];
    prg.fill_bytes(&mut delta);
    let code = Code::new(brickyard_core::gf256::Field::of(8).unwrap(), n, ell);
    // Symbol q of each seed's stream.
    let sym: Vec<u8> = seeds
        .iter()
        .map(|&s| {
            let mut stream = vec![0u8; q as usize + 1];
            Prg::from_seed(s).fill_bytes(&mut stream);
            stream[q as usize]
        })
        .collect();
    let m = &sym[..ell];
    let enc_m = code.encode(m);
    let corrections: Vec<u8> = (ell..n).map(|j| sym[j] ^ enc_m[j]).collect();
    let x: Vec<u8> = delta.iter().zip(m).map(|(d, m)| d ^ m).collect();
    let delta_ihash = DeltaIhash::from_transcript(n, q, &corrections, &x).unwrap();
    // What Bob would hold at any watched j is Encode(Δ)[j].
    let enc_d = code.encode(&delta);
    for j in 0..n {
        assert_eq!(sym[j] ^ delta_ihash.shifts[j], enc_d[j], "position {j}");
    }
    let st = Statement {
        seed_images: seeds.iter().map(|&s| seed_commitment(s)).collect(),
        delta_ihash,
        double_hashes: perm
            .iter()
            .map(|&i| (i, double_hash(perm_seed(&delta, i))))
            .collect(),
    };
    let w = Witness {
        delta: Zeroizing::new(delta),
        seeds: Zeroizing::new(seeds),
    };
    (st, w)
}

fn small() -> (Statement, Witness) {
    honest(4, 2, 21, &[1, 2], 5)
}

/// Whether `w` satisfies `st`, by the whole circuit; asserts that the
/// relation in parts (what the proof streams) says the same.
fn holds(st: &Statement, w: &Witness) -> bool {
    let c = st.relation().unwrap();
    let bits = w.bits();
    let ell = st.delta_ihash.ell;
    let out = c
        .eval(&[bits[..8 * ell].to_vec(), bits[8 * ell..].to_vec()])
        .unwrap();
    let parts = brickyard_gczk::holds(&st.parts().unwrap(), &bits).unwrap();
    assert_eq!(parts, out[0][0], "the parts and the whole circuit disagree");
    out[0][0]
}

fn run(st: &Statement, w: &Witness, cheat: bool) -> (Result<()>, Result<()>) {
    let (mut a, mut b) = memory_pair();
    std::thread::scope(|s| {
        // Alice's channel goes with her thread: Bob sees her hang-up at once.
        let h = s.spawn(move || {
            if cheat {
                brickyard_gczk::prove_cheating(
                    &mut a,
                    &st.parts()?,
                    &w.bits(),
                    brickyard_gczk::ProverCheat::FalseWitness,
                )
            } else {
                prove(&mut a, st, w)
            }
        });
        let rb = verify(&mut b, st);
        drop(b);
        (h.join().expect("alice"), rb)
    })
}

#[test]
fn relation_holds_exactly_on_consistent_values() {
    let (st, w) = small();
    assert!(holds(&st, &w));
    let (st2, w2) = honest(5, 3, 0, &[7], 9);
    assert!(holds(&st2, &w2));

    let mut bad = st.clone();
    bad.double_hashes[1].1[31] ^= 1;
    assert!(!holds(&bad, &w), "D_i");
    let mut bad = st.clone();
    bad.seed_images[3][0] ^= 0x80;
    assert!(!holds(&bad, &w), "C_j");
    for j in [0, 3] {
        let mut bad = st.clone();
        bad.delta_ihash.shifts[j] ^= 4;
        assert!(!holds(&bad, &w), "⟨Δ⟩ at {j}");
    }
    let mut bad = st.clone();
    bad.delta_ihash.symbol_index += 1;
    assert!(!holds(&bad, &w), "⟨Δ⟩ stream position");

    // More seeds and double hashes than one part holds: the part
    // boundaries (8 images, 16 positions, 4 double hashes a part).
    let (st3, w3) = honest(17, 2, 5, &[1, 2, 3, 4, 5], 3);
    assert!(holds(&st3, &w3));
    for j in [7, 8, 16] {
        let mut bad = st3.clone();
        bad.seed_images[j][5] ^= 1;
        assert!(!holds(&bad, &w3), "C_{j}");
    }
    let mut bad = st3.clone();
    bad.delta_ihash.shifts[16] ^= 1;
    assert!(!holds(&bad, &w3), "⟨Δ⟩ at 16");
    let mut bad = st3.clone();
    bad.double_hashes[4].1[0] ^= 1;
    assert!(!holds(&bad, &w3), "D_5");
}

/// A public difference e applied to ⟨Δ⟩ makes the statement about Δ ⊕ e.
#[test]
fn public_shift_of_delta_moves_the_statement() {
    let (mut st, w) = small();
    let e = [0x01u8, 0x80];
    st.delta_ihash.xor_public(&e).unwrap();
    assert!(!holds(&st, &w));
    let moved: Vec<u8> = w.delta.iter().zip(e).map(|(d, e)| d ^ e).collect();
    st.double_hashes = st
        .double_hashes
        .iter()
        .map(|&(i, _)| (i, double_hash(perm_seed(&moved, i))))
        .collect();
    let w2 = Witness {
        delta: Zeroizing::new(moved),
        seeds: w.seeds.clone(),
    };
    assert!(holds(&st, &w2));
}

#[test]
fn honest_proof_is_accepted() {
    let (st, w) = small();
    let (a, b) = run(&st, &w, false);
    a.expect("alice");
    b.expect("bob");
}

/// A Δ' ≠ Δ behind one D_i: Alice holds no witness; an honest prover
/// refuses, a cheating one is rejected by Bob's `gczk-output` check.
#[test]
fn delta_inconsistent_with_one_double_hash_is_rejected() {
    let (mut st, w) = small();
    let mut other = w.delta.to_vec();
    other[0] ^= 1;
    st.double_hashes[0].1 = double_hash(perm_seed(&other, st.double_hashes[0].0));
    let (a, _) = run(&st, &w, false);
    assert!(matches!(a, Err(Error::Config(_))), "{a:?}");
    let (a, b) = run(&st, &w, true);
    assert!(a.is_ok(), "{a:?}");
    assert!(
        matches!(
            b,
            Err(Error::Cheating {
                check: "gczk-output"
            })
        ),
        "{b:?}"
    );
}

/// A seed s'_j ≠ s_j behind C_j (the one Bob may have watched).
#[test]
fn seed_inconsistent_with_one_image_is_rejected() {
    let (mut st, w) = small();
    st.seed_images[2] = seed_commitment(w.seeds[2] ^ Block(1));
    let (a, b) = run(&st, &w, true);
    assert!(a.is_ok(), "{a:?}");
    assert!(
        matches!(
            b,
            Err(Error::Cheating {
                check: "gczk-output"
            })
        ),
        "{b:?}"
    );
}

#[test]
fn wrong_shapes_are_config_errors() {
    let (mut st, w) = small();
    let (mut a, _b) = memory_pair();
    let short = Witness {
        delta: Zeroizing::new(vec![0]),
        seeds: w.seeds.clone(),
    };
    assert!(matches!(prove(&mut a, &st, &short), Err(Error::Config(_))));
    st.delta_ihash.shifts.pop();
    assert!(matches!(verify(&mut a, &st), Err(Error::Config(_))));
    assert!(DeltaIhash::from_transcript(4, 0, &[1], &[1, 2]).is_err());
}

/// Peak resident memory of this process so far (VmHWM), in MiB.
fn peak_rss_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}

/// The paper's sizes (k = 88: n_w = 86, ℓ_w = 32; k = 127: 88, 48; n_p = 44
/// permutation seeds): one proof streamed in parts, both parties in this
/// process (wall time, bytes, peak memory of the process), then the AND
/// and gate counts part by part.
/// `cargo test --release -p brickyard-jimu --lib delta_zk -- --ignored --nocapture full_size`
#[test]
#[ignore]
fn full_size_statement_cost() {
    use brickyard_gczk::Relation;
    for (k, n, ell) in [(88u32, 86usize, 32usize), (127, 88, 48)] {
        let perm: Vec<u32> = (1..=44).collect();
        let (st, w) = honest(n, ell, 0, &perm, 11);
        let t1 = std::time::Instant::now();
        let (mut a, mut b) = memory_pair();
        let (ra, rb) = std::thread::scope(|s| {
            let h = s.spawn(|| prove(&mut a, &st, &w));
            let rb = verify(&mut b, &st);
            (h.join().unwrap(), rb)
        });
        let proof = t1.elapsed();
        ra.unwrap();
        rb.unwrap();
        let peak = peak_rss_mib();
        let stats = a.stats();
        let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        let parts = st.parts().unwrap();
        let t2 = std::time::Instant::now();
        let (mut ands, mut gates) = (0, 0);
        for p in 0..parts.parts() {
            let c = parts.part(p).unwrap().circuit;
            ands += c.and_count();
            gates += c.gates.len();
        }
        let build = t2.elapsed();
        println!(
            "k={k}: n_w={n} ell_w={ell} n_p=44: {ands} ANDs, {gates} gates in {} parts (building them all: {build:.2?}); \
             proof {proof:.2?} (both parties, one process); prover sent {} B, received {} B; \
             peak RSS of the process {peak} MiB; loadavg {}",
            parts.parts(),
            stats.bytes_sent,
            stats.bytes_received,
            load.trim()
        );
    }
}

/// AND gates of each part of the Step 5b relation (witness bytes as
/// inputs, public parts constant, as `circuit::relation` builds them).
/// `cargo test --release -p brickyard-jimu delta_zk -- --ignored --nocapture`
#[test]
#[ignore]
fn component_and_counts() {
    use super::circuit::sha256_one_block;
    use brickyard_circuit::library::aes::encrypt_bytes;
    use brickyard_circuit::{BitVec, CircuitBuilder};
    let bytes = |b: &mut CircuitBuilder, n: usize| -> Vec<BitVec> {
        let v = b.input("x", 8 * n);
        (0..n).map(|k| v.slice(8 * k..8 * k + 8)).collect()
    };
    let konst = |v: u8| BitVec::constant(v.into(), 8);
    let mut b = CircuitBuilder::new();
    let mut msg = vec![konst(2)];
    msg.extend(bytes(&mut b, 16));
    sha256_one_block(&mut b, &msg);
    let seed_image = b.and_count();
    let mut b = CircuitBuilder::new();
    let pt: Vec<BitVec> = (0..16).map(|_| konst(0)).collect();
    let key = bytes(&mut b, 16);
    encrypt_bytes(&mut b, &key, &pt);
    let aes = b.and_count();
    for ell in [32usize, 48] {
        let mut b = CircuitBuilder::new();
        let mut msg = vec![konst(0)];
        msg.extend(bytes(&mut b, ell));
        msg.extend([0u8, 0, 0, 1].map(konst));
        let inner = sha256_one_block(&mut b, &msg);
        let first = b.and_count();
        let mut msg = vec![konst(1)];
        msg.extend(inner[..16].iter().cloned());
        sha256_one_block(&mut b, &msg);
        println!(
            "ell_w={ell}: SHA-256(2‖s_j) {seed_image} ANDs; AES-128 with key schedule {aes}; \
             D_i = SHA(1‖SHA(0‖Δ‖i)) {} ANDs ({first} + {})",
            b.and_count(),
            b.and_count() - first
        );
    }
}

/// The public ⟨Δ⟩ from a real IHash_w session (k = 88 parameters, Δ hashed
/// after a batch of random messages): Bob's recorded transcript and Alice's
/// seeds satisfy PRG(s_j)[q] ⊕ h_j = Encode(Δ)[j] at every position.
#[test]
fn delta_ihash_from_a_real_ihash_session() {
    use brickyard_ihash::{Params, Receiver, Rows, Sender};
    let p = Params::for_labels(88, 40).unwrap();
    let (n, ell) = (p.n, p.ell);
    let mut delta = vec![0u8; ell];
    Prg::from_seed(Block(77)).fill_bytes(&mut delta);
    let (mut a, mut b) = memory_pair();
    let d = delta.clone();
    let (seeds, (t, watched)) = std::thread::scope(|s| {
        let h = s.spawn(move || {
            let mut prg = Prg::from_seed(Block(1));
            let mut snd = Sender::setup(&mut a, &mut prg, p).unwrap();
            snd.hash_random(&mut a, 37).unwrap();
            snd.hash_chosen(&mut a, &Rows::from_flat(&d, ell)).unwrap();
            snd.seeds().to_vec()
        });
        let mut prg = Prg::from_seed(Block(2));
        let mut rcv = Receiver::setup(&mut b, &mut prg, p).unwrap();
        rcv.hash_random(&mut b, &mut prg, 37).unwrap();
        let (hashes, t) = rcv.hash_chosen_recorded(&mut b, &mut prg, 1).unwrap();
        let watched: Vec<(usize, u8)> = rcv
            .verifier()
            .watch()
            .iter()
            .copied()
            .zip(hashes.get(0).iter().copied())
            .collect();
        (h.join().unwrap(), (t, watched))
    });
    assert_eq!(t.first_symbol, 48, "37 + ξ = 42 symbols use 3 blocks");
    let dh = DeltaIhash::from_transcript(n, t.first_symbol, &t.parity_corrections, &t.x).unwrap();
    let code = Code::new(brickyard_core::gf256::Field::of(8).unwrap(), n, ell);
    let enc = code.encode(&delta);
    for (j, &s) in seeds.iter().enumerate() {
        let mut stream = vec![0u8; dh.symbol_index as usize + 1];
        Prg::from_seed(s).fill_bytes(&mut stream);
        assert_eq!(
            stream[dh.symbol_index as usize] ^ dh.shifts[j],
            enc[j],
            "j = {j}"
        );
    }
    for (j, h) in watched {
        assert_eq!(h, enc[j], "Bob's ⟨Δ⟩ at {j}");
    }
}
