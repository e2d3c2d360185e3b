//! The JKO13 proof: [`prove`] (the prover, evaluator) and [`verify`] (the
//! verifier, garbler), over one channel.
//!
//! Flow: both send the relation's digest → committed OT of the witness
//! labels → verifier streams the garbled tables, layer by layer → prover
//! sends `commit(output label)` → verifier opens its seed → prover checks
//! the OTs and the whole garbling against the seed → prover opens →
//! verifier checks the opening and that it is the label of "true".
//!
//! On any error the caller tells the peer (the phase driver sends the abort
//! frame); nothing here is retried.

use crate::commit::commit;
use crate::relation::{evaluate_relation, garble_relation, Relation};
use crate::{ot, CHECK_COMMITMENT, CHECK_GARBLING, CHECK_OUTPUT};
use brickyard_circuit::{Circuit, Gate};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use zeroize::Zeroizing;

/// Everything the verifier derives from its one seed: the OT randomness,
/// the extension secret s, Δ and the witness wires' 0-labels. Revealing the
/// seed opens all of it.
pub struct Opening {
    /// Seed of the PRG of the verifier's base OTs (it is their receiver).
    pub ot_seed: Block,
    /// The OT extension's secret s (KOS's Δ; used for nothing else).
    pub ot_s: Block,
    /// The free-XOR offset.
    pub delta: Block,
    /// 0-labels of the witness wires.
    pub input_zero: Zeroizing<Vec<Block>>,
}

impl Opening {
    /// Expands the verifier's seed for a relation with `inputs` witness bits.
    pub fn from_seed(seed: Block, inputs: usize) -> Opening {
        let mut prg = Prg::from_seed(seed);
        let ot_seed = prg.random_block();
        let ot_s = prg.random_block();
        let delta = prg.random_block();
        let input_zero = Zeroizing::new(prg.random_blocks(inputs));
        Opening {
            ot_seed,
            ot_s,
            delta,
            input_zero,
        }
    }

    /// The OT messages `(L⁰, L¹)` of the witness wires.
    pub fn pairs(&self) -> Zeroizing<Vec<(Block, Block)>> {
        Zeroizing::new(
            self.input_zero
                .iter()
                .map(|&l| (l, l ^ self.delta))
                .collect(),
        )
    }
}

/// A digest of the relation (wires, groups, gates), exchanged first so that
/// two parties holding different statements stop before any cryptography
/// (with `Config`, or the caller's named check: [`Mismatch`]), instead of
/// failing a check.
pub fn digest(circuit: &Circuit) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key("brickyard 2026-11 gczk relation digest v1");
    h.update(&circuit.num_wires.to_le_bytes());
    for groups in [&circuit.inputs, &circuit.outputs] {
        h.update(&(groups.len() as u64).to_le_bytes());
        for g in groups.iter() {
            h.update(&(g.wires.len() as u64).to_le_bytes());
            h.update(bytemuck::cast_slice(&g.wires));
        }
    }
    let mut buf = Vec::with_capacity(1 << 16);
    for chunk in circuit.gates.chunks(4096) {
        buf.clear();
        for g in chunk {
            let (tag, a, b, out) = match *g {
                Gate::Xor { a, b, out } => (0u32, a, b, out),
                Gate::And { a, b, out } => (1, a, b, out),
                Gate::Inv { a, out } => (2, a, a, out),
            };
            for v in [tag, a, b, out] {
                buf.extend_from_slice(&v.to_le_bytes());
            }
        }
        h.update(&buf);
    }
    *h.finalize().as_bytes()
}

/// What a relation-digest mismatch means, which only the caller knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// Each party's caller chose its relation (standalone use): different
    /// relations are a configuration error (`Config`), as a differing
    /// circuit is in the driver's run agreement; nobody has cheated.
    Config,
    /// Both parties derive the relation from a transcript they share (JIMU's
    /// Step 5b statement): a differing digest means the peer misreports
    /// that transcript, `Cheating { check }` with this name.
    Cheating(&'static str),
}

pub(crate) fn agree<R: Relation + ?Sized>(
    ch: &mut Channel,
    rel: &R,
    mismatch: Mismatch,
) -> Result<()> {
    let mine = rel.digest();
    ch.send_bytes(&mine)?;
    ch.flush()?;
    let mut theirs = [0u8; 32];
    ch.recv_bytes(&mut theirs)?;
    if theirs != mine {
        return Err(match mismatch {
            Mismatch::Config => {
                Error::config("gczk: prover and verifier hold different relations (digests differ)")
            }
            Mismatch::Cheating(check) => Error::Cheating { check },
        });
    }
    Ok(())
}

/// Deviations of a cheating prover, for the tests of the verifier's checks
/// (feature `adversary`, and this crate's tests).
#[cfg(any(test, feature = "adversary"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProverCheat {
    /// Goes on with a witness that does not satisfy the relation.
    FalseWitness,
    /// Commits to its label, then opens another one.
    OpenOther,
    /// Sends inconsistent extension columns (to learn bits of s from the
    /// labels), answering the KOS check as if every bit of s were 0.
    InconsistentExtension,
}

/// Deviations of a cheating verifier, for the tests of the prover's checks.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VerifierCheat {
    /// Flips a bit of the table of AND gate `index`.
    CorruptTable { index: usize },
    /// Sends a wrong label for side `side` of witness bit `input`.
    WrongOtLabel { input: usize, side: bool },
    /// Opens a seed other than the one it garbled with.
    OtherSeed,
    /// Runs the OT extension with a secret other than the opened seed's.
    OtherS,
}

#[cfg(not(any(test, feature = "adversary")))]
type ProverCheatOpt = std::convert::Infallible;
#[cfg(any(test, feature = "adversary"))]
type ProverCheatOpt = ProverCheat;
#[cfg(not(test))]
type VerifierCheatOpt = std::convert::Infallible;
#[cfg(test)]
type VerifierCheatOpt = VerifierCheat;

/// Proves knowledge of `witness` (one bit per input wire, groups in order)
/// with `circuit(witness) = 1`. Refuses (`Config`) a witness that does not
/// satisfy the relation, after evaluating and before committing; fails with
/// `Cheating { check }` (`gczk-ot-sender`, `gczk-ot-labels`,
/// `gczk-garbling`) when the verifier's garbling or OTs are not the honest
/// function of the seed it opens, and then opens nothing.
pub fn prove(ch: &mut Channel, circuit: &Circuit, witness: &[bool]) -> Result<()> {
    prove_inner(ch, circuit, witness, None, Mismatch::Config)
}

/// [`prove`] for a relation given part by part ([`Relation`]): memory is
/// bounded by a few parts, whatever the relation's size.
pub fn prove_relation<R: Relation + ?Sized>(
    ch: &mut Channel,
    rel: &R,
    witness: &[bool],
) -> Result<()> {
    prove_inner(ch, rel, witness, None, Mismatch::Config)
}

/// [`verify`] for a relation given part by part.
pub fn verify_relation<R: Relation + ?Sized>(ch: &mut Channel, rel: &R) -> Result<()> {
    verify_inner(ch, rel, None, Mismatch::Config)
}

/// [`prove_relation`] of a relation both parties derive from a shared
/// transcript: a digest mismatch is `mismatch` (e.g.
/// `Mismatch::Cheating("step-5b-statement")`) instead of `Config`.
pub fn prove_relation_as<R: Relation + ?Sized>(
    ch: &mut Channel,
    rel: &R,
    witness: &[bool],
    mismatch: Mismatch,
) -> Result<()> {
    prove_inner(ch, rel, witness, None, mismatch)
}

/// [`verify_relation`] with the meaning of a digest mismatch given, as
/// [`prove_relation_as`].
pub fn verify_relation_as<R: Relation + ?Sized>(
    ch: &mut Channel,
    rel: &R,
    mismatch: Mismatch,
) -> Result<()> {
    verify_inner(ch, rel, None, mismatch)
}

/// Verifies a proof that the prover knows a witness with `circuit = 1`.
/// Fails with `Cheating { check }` (`gczk-commitment`, `gczk-output`) when
/// it does not.
pub fn verify(ch: &mut Channel, circuit: &Circuit) -> Result<()> {
    verify_inner(ch, circuit, None, Mismatch::Config)
}

/// [`prove`] playing a cheat (feature `adversary`): lets other crates test
/// that their statements reject a prover without a witness.
#[cfg(feature = "adversary")]
pub fn prove_cheating<R: Relation + ?Sized>(
    ch: &mut Channel,
    rel: &R,
    witness: &[bool],
    cheat: ProverCheat,
) -> Result<()> {
    prove_inner(ch, rel, witness, Some(cheat), Mismatch::Config)
}

/// [`prove_cheating`] with the meaning of a digest mismatch given, as
/// [`prove_relation_as`].
#[cfg(feature = "adversary")]
pub fn prove_cheating_as<R: Relation + ?Sized>(
    ch: &mut Channel,
    rel: &R,
    witness: &[bool],
    cheat: ProverCheat,
    mismatch: Mismatch,
) -> Result<()> {
    prove_inner(ch, rel, witness, Some(cheat), mismatch)
}

/// The relation's witness width; for a plain circuit also its shape check
/// (one output bit, at least one input), before anything is sent.
fn witness_bits<R: Relation + ?Sized>(rel: &R) -> Result<usize> {
    if rel.parts() == 1 {
        crate::garble::Shape::of(&rel.part(0)?.circuit)?;
    }
    Ok(rel.witness_bits())
}

pub(crate) fn prove_inner<R: Relation + ?Sized>(
    ch: &mut Channel,
    rel: &R,
    witness: &[bool],
    cheat: Option<ProverCheatOpt>,
    mismatch: Mismatch,
) -> Result<()> {
    let inputs = witness_bits(rel)?;
    if witness.len() != inputs {
        return Err(Error::config(format!(
            "gczk: witness of {} bits for a relation with {inputs} inputs",
            witness.len(),
        )));
    }
    agree(ch, rel, mismatch)?;
    let mut prg = Prg::new();
    let (mut kos, flight) = brickyard_ot::KosReceiver::setup_recorded(ch, &mut prg)?;
    #[cfg(any(test, feature = "adversary"))]
    if cheat == Some(ProverCheat::InconsistentExtension) {
        kos.set_cheat(Some(
            brickyard_ot::adversary::KosReceiverCheat::InconsistentColumns {
                columns: 128,
                guess: false,
            },
        ));
    }
    let received = ot::receive_with(ch, &mut kos, flight, witness)?;
    drop(kos);
    prove_after_ot(
        ch,
        rel,
        &received.labels,
        witness,
        &mut prg,
        cheat,
        |opening| {
            ot::check(
                &received,
                &mut Prg::from_seed(opening.ot_seed),
                opening.ot_s,
                &opening.pairs(),
            )
        },
    )
}

/// The prover after the committed OT: reads the garbled tables while
/// evaluating on its witness `labels`, commits to the output label, reads
/// the verifier's seed, runs `check_ots` (the OT check, [`ot::check`])
/// and its own garbling check against the seed, and only then opens.
/// Split from [`prove_inner`] so that the fuzz target `gczk_decode`
/// reaches the table and seed reading with dealt labels.
pub(crate) fn prove_after_ot<R: Relation + ?Sized>(
    ch: &mut Channel,
    rel: &R,
    labels: &[Block],
    witness: &[bool],
    prg: &mut Prg,
    cheat: Option<ProverCheatOpt>,
    check_ots: impl FnOnce(&Opening) -> Result<()>,
) -> Result<()> {
    let inputs = witness.len();
    let mut seen = blake3::Hasher::new();
    let (label, value) = evaluate_relation(rel, labels, witness, |t| {
        ch.recv_blocks(t)?;
        seen.update(bytemuck::cast_slice(t));
        Ok(())
    })?;
    #[cfg(any(test, feature = "adversary"))]
    let lying = cheat == Some(ProverCheat::FalseWitness);
    #[cfg(not(any(test, feature = "adversary")))]
    let lying = cheat.is_some();
    if !value && !lying {
        return Err(Error::config(
            "gczk: the witness does not satisfy the relation; nothing was committed",
        ));
    }
    let r = prg.random_block();
    ch.send_bytes(&commit(label, r))?;
    ch.flush()?;

    // Opening phase: everything the verifier sent must be the function of
    // its seed; only then is the output label opened.
    let seed = ch.recv_block()?;
    let opening = Opening::from_seed(seed, inputs);
    check_ots(&opening)?;
    let mut regarbled = blake3::Hasher::new();
    let zero = garble_relation(rel, opening.delta, &opening.input_zero, |t| {
        regarbled.update(bytemuck::cast_slice(t));
        Ok(())
    })?;
    // With the tables and labels checked, the label held is the honest
    // evaluation: the 1-label of the output for a true witness.
    if regarbled.finalize() != seen.finalize() || (!lying && label != zero ^ opening.delta) {
        return Err(Error::Cheating {
            check: CHECK_GARBLING,
        });
    }
    #[cfg(any(test, feature = "adversary"))]
    let label = if cheat == Some(ProverCheat::OpenOther) {
        label ^ Block(1)
    } else {
        label
    };
    ch.send_blocks(&[r, label])?;
    ch.flush()
}

pub(crate) fn verify_inner<R: Relation + ?Sized>(
    ch: &mut Channel,
    rel: &R,
    cheat: Option<VerifierCheatOpt>,
    mismatch: Mismatch,
) -> Result<()> {
    let inputs = witness_bits(rel)?;
    agree(ch, rel, mismatch)?;
    let seed = Prg::new().random_block();
    let opening = Opening::from_seed(seed, inputs);
    #[allow(unused_mut)]
    let mut pairs = opening.pairs();
    #[cfg(test)]
    if let Some(VerifierCheat::WrongOtLabel { input, side }) = cheat {
        let p = &mut pairs[input];
        if side {
            p.1 ^= Block(1);
        } else {
            p.0 ^= Block(1);
        }
    }
    #[cfg(test)]
    let ot_cheat = (cheat == Some(VerifierCheat::OtherS)).then_some(ot::OtCheat::OtherS);
    #[cfg(not(test))]
    let ot_cheat = None;
    ot::send_labels_inner(
        ch,
        &mut Prg::from_seed(opening.ot_seed),
        opening.ot_s,
        &pairs,
        ot_cheat,
    )?;
    #[allow(unused_mut, unused_variables)]
    let mut sent = 0usize;
    let zero = garble_relation(rel, opening.delta, &opening.input_zero, |t| {
        #[cfg(test)]
        if let Some(VerifierCheat::CorruptTable { index }) = cheat {
            if (sent..sent + t.len()).contains(&index) {
                let mut bad = t.to_vec();
                bad[index - sent] ^= Block(1 << 77);
                sent += t.len();
                return ch.send_blocks(&bad);
            }
        }
        sent += t.len();
        ch.send_blocks(t)
    })?;
    ch.flush()?;
    #[allow(unused_mut)]
    let mut revealed = seed;
    #[cfg(test)]
    if cheat == Some(VerifierCheat::OtherSeed) {
        revealed = seed ^ Block(1);
    }
    #[cfg(not(test))]
    let _ = cheat;
    check_opening(ch, revealed, zero ^ opening.delta)
}

/// The verifier's last step: reads the prover's commitment, reveals
/// `seed`, reads the opening `(r, label)` and checks it against the
/// commitment (`gczk-commitment`) and against `one`, the output's label
/// of "true" (`gczk-output`).
pub(crate) fn check_opening(ch: &mut Channel, seed: Block, one: Block) -> Result<()> {
    let mut com = [0u8; 32];
    ch.recv_bytes(&mut com)?;
    ch.send_block(seed)?;
    ch.flush()?;
    let opened = ch.recv_block_vec(2)?;
    let (r, label) = (opened[0], opened[1]);
    if commit(label, r) != com {
        return Err(Error::Cheating {
            check: CHECK_COMMITMENT,
        });
    }
    if label != one {
        return Err(Error::Cheating {
            check: CHECK_OUTPUT,
        });
    }
    Ok(())
}
