//! The proof on a toy relation: "I know a, b ∉ {0, 1} (16 bits each) with
//! a · b = 60491 mod 2^32" (251 · 241), a few hundred ANDs.

use crate::protocol::{prove_inner, verify_inner, Mismatch, ProverCheat, VerifierCheat};
use crate::{prove, verify, Relation};
use crate::{CHECK_COMMITMENT, CHECK_GARBLING, CHECK_OT_LABELS, CHECK_OT_SENDER, CHECK_OUTPUT};
use brickyard_circuit::{BitVec, Circuit, CircuitBuilder};
use brickyard_core::channel::{memory_pair, memory_transport_pair, scripted, Recording};
use brickyard_core::{Channel, Error, Result};

const N: u64 = 60491;

fn relation() -> Circuit {
    let mut b = CircuitBuilder::new();
    let x = b.input("a", 16);
    let y = b.input("b", 16);
    let xx = b.zext(&x, 32);
    let yy = b.zext(&y, 32);
    let p = b.mul(&xx, &yy);
    let is_n = b.eq(&p, &BitVec::constant(N.into(), 32));
    // a > 1 and b > 1: some bit above bit 0 is set.
    let a_big = b.or_all(&x.slice(1..16));
    let b_big = b.or_all(&y.slice(1..16));
    let t = b.and_bit(is_n, a_big);
    let ok = b.and_bit(t, b_big);
    b.output("ok", &BitVec(vec![ok]));
    b.finish()
}

fn bits(a: u16, b: u16) -> Vec<bool> {
    (0..16)
        .map(|i| a >> i & 1 == 1)
        .chain((0..16).map(|i| b >> i & 1 == 1))
        .collect()
}

fn run(
    witness: &[bool],
    pc: Option<ProverCheat>,
    vc: Option<VerifierCheat>,
) -> (Result<()>, Result<()>) {
    let c = &relation();
    let (mut p, mut v) = memory_pair();
    std::thread::scope(|s| {
        // Each party's channel is dropped as soon as it returns, so the
        // other one sees the hang-up at once instead of a read timeout.
        let hp = s.spawn(move || prove_inner(&mut p, c, witness, pc, Mismatch::Config));
        let rv = verify_inner(&mut v, c, vc, Mismatch::Config);
        drop(v);
        (hp.join().expect("prover thread"), rv)
    })
}

fn check_of(r: &Result<()>) -> Option<&'static str> {
    match r {
        Err(Error::Cheating { check }) => Some(check),
        _ => None,
    }
}

#[test]
fn honest_proof_is_accepted() {
    let (p, v) = run(&bits(251, 241), None, None);
    p.expect("prover");
    v.expect("verifier");
    let (p, v) = run(&bits(241, 251), None, None);
    assert!(p.is_ok() && v.is_ok());
}

#[test]
fn toy_relation_is_what_it_says() {
    let c = relation();
    assert!(
        c.and_count() > 100,
        "toy relation has {} ANDs",
        c.and_count()
    );
    let eval = |a, b| {
        let w = bits(a, b);
        let out = c.eval(&[w[..16].to_vec(), w[16..].to_vec()]).expect("eval");
        out[0][0]
    };
    assert!(eval(251, 241));
    assert!(!eval(1, 60491));
    assert!(!eval(251, 240));
}

#[test]
fn honest_prover_refuses_a_false_witness() {
    let (p, v) = run(&bits(251, 240), None, None);
    assert!(matches!(p, Err(Error::Config(_))), "{p:?}");
    assert!(v.is_err());
}

#[test]
fn false_witness_is_rejected_by_the_output_check() {
    for w in [bits(251, 240), bits(1, N as u16), bits(0, 0)] {
        let (p, v) = run(&w, Some(ProverCheat::FalseWitness), None);
        assert!(p.is_ok(), "{p:?}");
        assert_eq!(check_of(&v), Some(CHECK_OUTPUT), "{v:?}");
    }
}

#[test]
fn opening_another_label_is_rejected_by_the_commitment_check() {
    let (p, v) = run(&bits(251, 241), Some(ProverCheat::OpenOther), None);
    assert!(p.is_ok(), "{p:?}");
    assert_eq!(check_of(&v), Some(CHECK_COMMITMENT), "{v:?}");
}

#[test]
fn corrupt_table_is_caught_by_the_garbling_check() {
    for index in [0, 57, relation().and_count() - 1] {
        let (p, _) = run(
            &bits(251, 241),
            None,
            Some(VerifierCheat::CorruptTable { index }),
        );
        assert_eq!(check_of(&p), Some(CHECK_GARBLING), "{p:?}");
    }
}

#[test]
fn wrong_ot_label_is_caught_whatever_the_choice() {
    // Bit 0 of a = 251 is 1: side true is the chosen label, side false the
    // other; both must trip the same check (the abort reveals no choice).
    for side in [false, true] {
        let (p, _) = run(
            &bits(251, 241),
            None,
            Some(VerifierCheat::WrongOtLabel { input: 0, side }),
        );
        assert_eq!(check_of(&p), Some(CHECK_OT_LABELS), "side {side}: {p:?}");
    }
}

#[test]
fn other_seed_is_caught_by_the_ot_sender_check() {
    let (p, _) = run(&bits(251, 241), None, Some(VerifierCheat::OtherSeed));
    assert_eq!(check_of(&p), Some(CHECK_OT_SENDER), "{p:?}");
}

/// A verifier that runs the extension with s' ≠ s (the one its opened seed
/// gives) could otherwise make exactly the OTs with choice 1 fail; the
/// replayed base-OT flight catches it whatever the witness.
#[test]
fn other_extension_secret_is_caught_by_the_ot_sender_check() {
    for w in [bits(251, 241), bits(241, 251)] {
        let (p, _) = run(&w, None, Some(VerifierCheat::OtherS));
        assert_eq!(check_of(&p), Some(CHECK_OT_SENDER), "{p:?}");
    }
}

/// A prover whose extension columns are inconsistent (the way to learn s,
/// hence both labels of a witness wire and Δ, before committing) is caught
/// by the verifier's KOS consistency check, before any label is sent.
#[test]
fn inconsistent_extension_is_caught_by_the_kos_check() {
    let (p, v) = run(
        &bits(251, 241),
        Some(ProverCheat::InconsistentExtension),
        None,
    );
    assert_eq!(check_of(&v), Some(brickyard_ot::kos::CHECK_NAME), "{v:?}");
    assert!(p.is_err(), "{p:?}");
}

#[test]
fn wrong_shapes_are_config_errors() {
    let c = relation();
    let (mut p, _v) = memory_pair();
    assert!(matches!(
        prove(&mut p, &c, &[true; 3]),
        Err(Error::Config(_))
    ));
    let two_outputs = brickyard_circuit::library::aes::aes128();
    assert!(matches!(
        verify(&mut p, &two_outputs),
        Err(Error::Config(_))
    ));
}

#[test]
fn different_relations_stop_with_config() {
    let c = relation();
    let mut other = relation();
    let k = other
        .gates
        .iter()
        .position(|g| matches!(g, brickyard_circuit::Gate::Xor { .. }))
        .expect("an XOR");
    if let brickyard_circuit::Gate::Xor { a, b, out } = other.gates[k] {
        other.gates[k] = brickyard_circuit::Gate::Xor { a: b, b: a, out };
    }
    let c = &c;
    let (mut p, mut v) = memory_pair();
    let (rp, rv) = std::thread::scope(|s| {
        let h = s.spawn(move || prove(&mut p, c, &bits(251, 241)));
        let rv = verify(&mut v, &other);
        (h.join().expect("prover"), rv)
    });
    assert!(matches!(rp, Err(Error::Config(_))), "{rp:?}");
    assert!(matches!(rv, Err(Error::Config(_))), "{rv:?}");
}

/// A caller that derives the relation from a shared transcript names the
/// mismatch: both sides stop with `Cheating` of that name (and with
/// `Config` when the same relations are run as plain `prove`/`verify`).
#[test]
fn different_relations_as_named_check() {
    let c = relation();
    let mut other = relation();
    let k = other
        .gates
        .iter()
        .position(|g| matches!(g, brickyard_circuit::Gate::Xor { .. }))
        .expect("an XOR");
    if let brickyard_circuit::Gate::Xor { a, b, out } = other.gates[k] {
        other.gates[k] = brickyard_circuit::Gate::Xor { a: b, b: a, out };
    }
    const NAME: &str = "test-statement";
    let c = &c;
    let (mut p, mut v) = memory_pair();
    let (rp, rv) = std::thread::scope(|s| {
        let h = s.spawn(move || {
            crate::prove_relation_as(&mut p, c, &bits(251, 241), Mismatch::Cheating(NAME))
        });
        let rv = crate::verify_relation_as(&mut v, &other, Mismatch::Cheating(NAME));
        (h.join().expect("prover"), rv)
    });
    assert_eq!(check_of(&rp), Some(NAME), "{rp:?}");
    assert_eq!(check_of(&rv), Some(NAME), "{rv:?}");
    // Equal relations under the named meaning still prove.
    let (mut p, mut v) = memory_pair();
    let (rp, rv) = std::thread::scope(|s| {
        let h = s.spawn(move || {
            crate::prove_relation_as(&mut p, c, &bits(251, 241), Mismatch::Cheating(NAME))
        });
        let rv = crate::verify_relation_as(&mut v, c, Mismatch::Cheating(NAME));
        (h.join().expect("prover"), rv)
    });
    rp.unwrap();
    rv.unwrap();
}

/// Records what each party sends in one honest run.
fn transcripts() -> (Vec<u8>, Vec<u8>) {
    let c = relation();
    let (tp, tv) = memory_transport_pair();
    let (tp, log_p) = Recording::new(tp);
    let (tv, log_v) = Recording::new(tv);
    let (mut p, mut v) = (Channel::new(tp), Channel::new(tv));
    let c = &c;
    std::thread::scope(|s| {
        let h = s.spawn(move || prove(&mut p, c, &bits(251, 241)));
        verify(&mut v, c).expect("verifier");
        h.join().expect("thread").expect("prover");
    });
    let p = log_p.lock().expect("log").clone();
    let v = log_v.lock().expect("log").clone();
    (p, v)
}

#[test]
fn tampered_or_cut_bytes_are_typed_errors() {
    let c = relation();
    let (from_p, from_v) = transcripts();
    let positions = |len: usize| [0, 1, 31, 32, 40, 100, len / 2, len - 33, len - 17, len - 1];
    for at in positions(from_v.len()) {
        let mut t = from_v.clone();
        t[at] ^= 0x10;
        // A fresh prover: its OT flight differs from the recorded one, so
        // even the untampered transcript must fail, with a typed error.
        let r = prove(&mut scripted(&t), &c, &bits(251, 241));
        assert!(r.is_err(), "byte {at}");
        let r = prove(&mut scripted(&from_v[..at]), &c, &bits(251, 241));
        assert!(r.is_err(), "cut at {at}");
    }
    for at in positions(from_p.len()) {
        let mut t = from_p.clone();
        t[at] ^= 0x10;
        assert!(verify(&mut scripted(&t), &c).is_err(), "byte {at}");
        assert!(
            verify(&mut scripted(&from_p[..at]), &c).is_err(),
            "cut at {at}"
        );
    }
}

/// The committed OT extension alone at JIMU Step 5b's witness size
/// (11 264 bits): transfer and the prover's replay check.
/// `cargo test --release -p brickyard-gczk -- --ignored --nocapture`
#[test]
#[ignore]
fn committed_ot_cost() {
    use brickyard_core::prg::Prg;
    use brickyard_core::Block;
    let n = 11_264;
    let mut prg = Prg::from_seed(Block(9));
    let choices = prg.random_bits(n);
    let pairs: Vec<(Block, Block)> = (0..n)
        .map(|_| (prg.random_block(), prg.random_block()))
        .collect();
    let (mut p, mut v) = memory_pair();
    let t0 = std::time::Instant::now();
    let received = std::thread::scope(|s| {
        let h = s.spawn(|| crate::ot::receive_labels(&mut p, &mut Prg::new(), &choices));
        crate::ot::send_labels(&mut v, &mut Prg::from_seed(Block(1)), Block(2), &pairs).unwrap();
        h.join().unwrap().unwrap()
    });
    let transfer = t0.elapsed();
    let t1 = std::time::Instant::now();
    crate::ot::check(&received, &mut Prg::from_seed(Block(1)), Block(2), &pairs).unwrap();
    let check = t1.elapsed();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{n} committed OTs (KOS extension): transfer {transfer:.2?} (both parties), prover's replay check {check:.2?}; loadavg {}",
        load.trim()
    );
}

/// The toy relation in three parts: `a·b = N`, `a, b > 1`, and their AND
/// (pool entries 32 and 33). `bad_input` makes part 1 read a pool entry
/// that does not exist yet.
struct Split {
    bad_input: bool,
}

impl crate::Relation for Split {
    fn digest(&self) -> [u8; 32] {
        *blake3::hash(b"gczk test: split toy relation").as_bytes()
    }

    fn witness_bits(&self) -> usize {
        32
    }

    fn parts(&self) -> usize {
        3
    }

    fn part(&self, k: usize) -> Result<crate::Part<'_>> {
        let mut b = CircuitBuilder::new();
        let inputs: Vec<u32> = match k {
            0 => {
                let x = b.input("a", 16);
                let y = b.input("b", 16);
                let (xx, yy) = (b.zext(&x, 32), b.zext(&y, 32));
                let p = b.mul(&xx, &yy);
                let ok = b.eq(&p, &BitVec::constant(N.into(), 32));
                b.output("ok", &BitVec(vec![ok]));
                (0..32).collect()
            }
            1 => {
                let x = b.input("a", 16);
                let y = b.input("b", 16);
                let a_big = b.or_all(&x.slice(1..16));
                let b_big = b.or_all(&y.slice(1..16));
                let ok = b.and_bit(a_big, b_big);
                b.output("ok", &BitVec(vec![ok]));
                let last = if self.bad_input { 33 } else { 31 };
                (0..31).chain([last]).collect()
            }
            _ => {
                let x = b.input("parts", 2);
                let ok = b.and_bit(x.bit(0), x.bit(1));
                b.output("ok", &BitVec(vec![ok]));
                vec![32, 33]
            }
        };
        Ok(crate::Part {
            circuit: std::borrow::Cow::Owned(b.finish()),
            inputs,
        })
    }
}

fn run_split(
    rel: &Split,
    witness: &[bool],
    pc: Option<ProverCheat>,
    vc: Option<VerifierCheat>,
) -> (Result<()>, Result<()>) {
    let (mut p, mut v) = memory_pair();
    std::thread::scope(|s| {
        let hp = s.spawn(move || prove_inner(&mut p, rel, witness, pc, Mismatch::Config));
        let rv = verify_inner(&mut v, rel, vc, Mismatch::Config);
        drop(v);
        (hp.join().expect("prover thread"), rv)
    })
}

/// A relation given in parts is proved, refused and checked exactly as
/// the whole circuit: honest accepted, false witnesses rejected by
/// `gczk-output`, a corrupt table of a later part caught by
/// `gczk-garbling`, and `holds` agrees with the whole circuit.
#[test]
fn relation_in_parts_is_proved_and_checked_like_the_whole() {
    let rel = Split { bad_input: false };
    let whole = relation();
    for (a, b) in [(251, 241), (241, 251), (251, 240), (1, N as u16), (0, 0)] {
        let w = bits(a, b);
        let want = whole
            .eval(&[w[..16].to_vec(), w[16..].to_vec()])
            .expect("eval")[0][0];
        assert_eq!(crate::holds(&rel, &w).expect("holds"), want, "{a}·{b}");
        if want {
            let (p, v) = run_split(&rel, &w, None, None);
            assert!(p.is_ok() && v.is_ok(), "{p:?} {v:?}");
        } else {
            let (p, _) = run_split(&rel, &w, None, None);
            assert!(matches!(p, Err(Error::Config(_))), "{p:?}");
            let (p, v) = run_split(&rel, &w, Some(ProverCheat::FalseWitness), None);
            assert!(p.is_ok(), "{p:?}");
            assert_eq!(check_of(&v), Some(CHECK_OUTPUT), "{v:?}");
        }
    }
    let ands0 = rel.part(0).unwrap().circuit.and_count();
    for index in [ands0 - 1, ands0, ands0 + 2] {
        let (p, _) = run_split(
            &rel,
            &bits(251, 241),
            None,
            Some(VerifierCheat::CorruptTable { index }),
        );
        assert_eq!(check_of(&p), Some(CHECK_GARBLING), "table {index}: {p:?}");
    }
}

/// A part reading a pool entry that is not made yet is a `Config` error
/// (no panic) where it is found; the other side stops too (with `Config`
/// as well, or the hang-up if the first side was faster).
#[test]
fn part_reading_a_later_entry_is_a_config_error() {
    let rel = Split { bad_input: true };
    let (p, v) = run_split(&rel, &bits(251, 241), None, None);
    assert!(matches!(v, Err(Error::Config(_))), "{v:?}");
    assert!(
        matches!(p, Err(Error::Config(_) | Error::Disconnected(_))),
        "{p:?}"
    );
    assert!(crate::holds(&rel, &bits(251, 241)).is_err());
}
