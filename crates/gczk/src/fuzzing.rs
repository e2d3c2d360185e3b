//! Direct entry point of the fuzz target `gczk_decode` (feature
//! `fuzzing`): the messages of the JKO13 proof that the prover and the
//! verifier read after the committed OT, from a state dealt from a fixed
//! seed instead of a session with OS randomness.
//!
//! Byte 0: bit 0 picks the side, bits 1–2 the relation ("I know a, b > 1
//! of w bits with a · b = N mod 2^{2w}", w = 2, 4, 8, 12); the rest is
//! the peer's stream:
//!
//! - prover (bit 0 = 0): the relation digest (`agree`, `Config` if it
//!   differs), then [`protocol::prove_after_ot`] with the witness labels
//!   an honest OT gives under the verifier seed [`SEED`]: every garbled
//!   table while evaluating, the verifier's seed, the re-garbling under
//!   that seed (`gczk-garbling`: tables and output label);
//! - verifier (bit 0 = 1): the digest, then [`protocol::check_opening`]
//!   for the garbling of [`SEED`]: the commitment, the opening
//!   (`gczk-commitment`, `gczk-output`).
//!
//! Not reached: the committed OT (base-OT points, KOS columns, check
//! answer, χ seed, ciphertexts; their decoders are fuzzed by `ot_decode`
//! and `ot_session`) and so the prover's OT checks `gczk-ot-sender`,
//! `gczk-ot-labels`, which compare against a whole KOS session: here
//! they are replaced by nothing (the prover's labels are dealt).
//! `gczk-output` is reached only with a commitment that opens, so by the
//! unit test and by inputs derived from an honest seed, not by chance.

use crate::protocol::{self, Opening};
use crate::relation::{garble_relation, Relation};
use brickyard_circuit::{BitVec, Circuit, CircuitBuilder};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use std::sync::OnceLock;

/// The verifier's seed of the dealt state.
pub const SEED: Block = Block(0x677a_6b2d_6675_7a7a_2d73_6565_642d_0001);

/// The witness widths w of the four relations.
const WIDTHS: [usize; 4] = [2, 4, 8, 12];

/// "a, b > 1 of `w` bits with a · b = `n` mod 2^{2w}".
fn relation(w: usize, n: u64) -> Circuit {
    let mut b = CircuitBuilder::new();
    let x = b.input("a", w);
    let y = b.input("b", w);
    let xx = b.zext(&x, 2 * w);
    let yy = b.zext(&y, 2 * w);
    let p = b.mul(&xx, &yy);
    let is_n = b.eq(&p, &BitVec::constant(n.into(), 2 * w));
    let a_big = b.or_all(&x.slice(1..w));
    let b_big = b.or_all(&y.slice(1..w));
    let t = b.and_bit(is_n, a_big);
    let ok = b.and_bit(t, b_big);
    b.output("ok", &BitVec(vec![ok]));
    b.finish()
}

/// One relation with a witness and the verifier's state under [`SEED`].
pub struct Dealt {
    /// The relation.
    pub circuit: Circuit,
    /// A witness (a, b: the largest w-bit prime and the next one down).
    pub witness: Vec<bool>,
    /// The witness labels an honest OT gives the prover.
    pub labels: Vec<Block>,
    /// The garbled tables under [`SEED`], flat.
    pub tables: Vec<Block>,
    /// The output's label of "true".
    pub one: Block,
}

fn make(w: usize) -> Dealt {
    let (a, b): (u64, u64) = match w {
        2 => (3, 2),
        4 => (13, 11),
        8 => (251, 241),
        _ => (4093, 4091),
    };
    let circuit = relation(w, a * b);
    let witness: Vec<bool> = (0..w)
        .map(|i| a >> i & 1 == 1)
        .chain((0..w).map(|i| b >> i & 1 == 1))
        .collect();
    let opening = Opening::from_seed(SEED, circuit.witness_bits());
    let labels = opening
        .pairs()
        .iter()
        .zip(&witness)
        .map(|(&(l0, l1), &c)| if c { l1 } else { l0 })
        .collect();
    let mut tables = Vec::new();
    let zero = garble_relation(&circuit, opening.delta, &opening.input_zero, |t| {
        tables.extend_from_slice(t);
        Ok(())
    })
    .expect("garbling the fuzz relation");
    Dealt {
        circuit,
        witness,
        labels,
        tables,
        one: zero ^ opening.delta,
    }
}

/// The dealt state of relation `k` (0..4), built once.
pub fn dealt(k: usize) -> &'static Dealt {
    static D: OnceLock<Vec<Dealt>> = OnceLock::new();
    &D.get_or_init(|| WIDTHS.iter().map(|&w| make(w)).collect())[k & 3]
}

/// Runs the side and relation byte 0 picks on the rest of `data` (see
/// the module docs). `Ok` or a typed error.
pub fn decode(data: &[u8]) -> Result<()> {
    let Some((&sel, rest)) = data.split_first() else {
        return Ok(());
    };
    let d = dealt((sel >> 1) as usize);
    let ch = &mut brickyard_core::channel::scripted(rest);
    protocol::agree(ch, &d.circuit, protocol::Mismatch::Config)?;
    if sel & 1 == 0 {
        // The commitment's randomness is the prover's own (fixed here).
        let prg = &mut Prg::from_seed(Block(7));
        protocol::prove_after_ot(ch, &d.circuit, &d.labels, &d.witness, prg, None, |_| Ok(()))
    } else {
        protocol::check_opening(ch, SEED, d.one)
    }
}

/// An honest input for selector `sel`: the verifier's messages to the
/// prover (digest, tables, [`SEED`]) or the prover's to the verifier
/// (digest, commitment to the 1-label with randomness `r`, opening), each
/// message one frame as the parties flush them.
pub fn honest(sel: u8) -> Vec<u8> {
    let d = dealt((sel >> 1) as usize);
    let (a, b) = brickyard_core::channel::memory_transport_pair();
    let (rec, log) = brickyard_core::channel::Recording::new(b);
    let mut ch = Channel::new(rec);
    let mut send = |f: &mut dyn FnMut(&mut Channel) -> Result<()>| {
        f(&mut ch).and_then(|_| ch.flush()).expect("memory channel");
    };
    send(&mut |c| c.send_bytes(&protocol::digest(&d.circuit)));
    if sel & 1 == 0 {
        send(&mut |c| c.send_blocks(&d.tables));
        send(&mut |c| c.send_block(SEED));
    } else {
        let r = Block(0x1234);
        send(&mut |c| c.send_bytes(&crate::commit::commit(d.one, r)));
        send(&mut |c| c.send_blocks(&[r, d.one]));
    }
    drop((ch, a));
    let v = log.lock().map(|v| v.clone()).unwrap_or_default();
    [vec![sel], v].concat()
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::Error;

    fn check(r: Result<()>) -> Option<&'static str> {
        match r {
            Err(Error::Cheating { check }) => Some(check),
            _ => None,
        }
    }

    #[test]
    fn direct_decoders_accept_honest_messages_and_refuse_a_bad_one() {
        for k in 0..4u8 {
            let (p, v) = (2 * k, 2 * k + 1);
            for sel in [p, v] {
                let h = honest(sel);
                decode(&h).unwrap_or_else(|e| panic!("sel {sel}: {e}"));
                // Cut short: an error, never a hang or a panic.
                assert!(decode(&h[..h.len() - 1]).is_err(), "sel {sel}");
                // Another relation's digest: `Config`.
                let mut other = h.clone();
                other[0] = sel ^ 2;
                assert!(matches!(decode(&other), Err(Error::Config(_))), "sel {sel}");
            }
            // Prover: a flipped table bit, or another seed, is `gczk-garbling`.
            let h = honest(p);
            let mut bad = h.clone();
            bad[1 + 4 + 32 + 4 + 3] ^= 0x40;
            assert_eq!(check(decode(&bad)), Some(crate::CHECK_GARBLING), "k {k}");
            let mut bad = h.clone();
            let last = bad.len() - 1;
            bad[last] ^= 1;
            assert_eq!(check(decode(&bad)), Some(crate::CHECK_GARBLING), "k {k}");
            // Verifier: an opening that does not match the commitment, and
            // a committed label that is not the 1-label.
            let h = honest(v);
            let mut bad = h.clone();
            let last = bad.len() - 1;
            bad[last] ^= 1;
            assert_eq!(check(decode(&bad)), Some(crate::CHECK_COMMITMENT), "k {k}");
            let d = dealt(k as usize);
            let (r, wrong) = (Block(5), d.one ^ Block(1 << 9));
            let (a, b) = brickyard_core::channel::memory_transport_pair();
            let (rec, log) = brickyard_core::channel::Recording::new(b);
            let mut ch = Channel::new(rec);
            ch.send_bytes(&protocol::digest(&d.circuit)).unwrap();
            ch.flush().unwrap();
            ch.send_bytes(&crate::commit::commit(wrong, r)).unwrap();
            ch.flush().unwrap();
            ch.send_blocks(&[r, wrong]).unwrap();
            ch.flush().unwrap();
            drop((ch, a));
            let s = [vec![v], log.lock().unwrap().clone()].concat();
            assert_eq!(check(decode(&s)), Some(crate::CHECK_OUTPUT), "k {k}");
        }
    }

    /// Writes the honest inputs into `$BRICKYARD_FUZZ_SEEDS` (a fuzz
    /// corpus directory) when it is set: `cargo test -p brickyard-gczk --features
    /// fuzzing --lib fuzzing -- --ignored write_seeds`.
    #[test]
    #[ignore]
    fn write_seeds() {
        let Some(dir) = std::env::var_os("BRICKYARD_FUZZ_SEEDS") else {
            return;
        };
        std::fs::create_dir_all(&dir).unwrap();
        for sel in 0u8..8 {
            let v = honest(sel);
            std::fs::write(std::path::Path::new(&dir).join(format!("honest-{sel}")), v).unwrap();
        }
    }
}
