//! Sec. 5.1 Step 5(b): Alice proves in zero knowledge that the double
//! hashes D_i, Bob's ⟨Δ⟩ and the permutation seeds all come from one Δ.
//!
//! As the paper writes it the statement names Bob's secret watch sets, which
//! a garbled circuit built by Bob from public values cannot contain, and
//! which Alice must not learn. It is restated over public values only
//! (`docs/protocols/jimu.md`, "Step 5b"):
//!
//! * Alice publishes C_j = [`seed_commitment`](crate::seeds::seed_commitment)(s_j)
//!   for every wire-IHash seed before the w-out-of-n OT, and Bob checks the
//!   seeds he watches against them; Bob checks each watched permutation seed
//!   against D_i himself ([`double_hash`](crate::seeds::double_hash)).
//! * The proof: ∃ Δ, s_1..s_n with C_j = SHA-256(2 ‖ s_j) for all j, the
//!   i-hash of Δ, as the public transcript and s_j define it, equal to
//!   Encode(Δ) at **every** position j, and D_i = SHA-256(1 ‖ trunc₁₂₈
//!   SHA-256(0 ‖ Δ ‖ i)) for all i.
//!
//! The relation is [`circuit::relation`], the proof `brickyard_gczk`
//! (JKO13 with privacy-free half-gates); Alice proves, Bob verifies.

pub mod circuit;
mod stamp;

/// Both parties derive the statement from the Setup transcript; their
/// statement digests differ only if the peer misreports that transcript
/// (an honest pair always agrees), so the mismatch is cheating, not a
/// configuration error as in standalone gczk use.
pub const CHECK_STATEMENT: &str = "step-5b-statement";

/// What a statement-digest mismatch is here ([`CHECK_STATEMENT`]).
const MISMATCH: Mismatch = Mismatch::Cheating(CHECK_STATEMENT);
#[cfg(test)]
mod tests;

use brickyard_core::gf256::Field;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_gczk::Mismatch;
use brickyard_ihash::Code;
use zeroize::Zeroizing;

/// ⟨Δ⟩ in public form: where Δ's random mask sits in the wire-IHash seeds'
/// PRG streams, and the public shift at every code position.
///
/// IHash's Hash (`brickyard_ihash::Sender::hash_chosen`) gives, for the
/// chosen message Δ at stream symbol q of every seed (symbol q of seed j is
/// byte q mod 16 of AES_{s_j}(⌊q/16⌋), `Prg::from_seed`'s counter mode;
/// batches start on block boundaries), Bob's symbol at watched position j:
/// `PRG_j[q] ⊕ h_j` with `h_j = x_j` for j < ℓ and
/// `h_j = x'_{j,q} ⊕ Encode(x)[j]` for j ≥ ℓ (x = Δ ⊕ m' the chosen-message
/// correction, x' the parity corrections). Honest: `PRG_j[q] ⊕ h_j =
/// Encode(Δ)[j]` at every j.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeltaIhash {
    /// ℓ_w: Δ's symbols over GF(2^8) (= its bytes).
    pub ell: usize,
    /// q: index of Δ's mask symbol in every seed's PRG byte stream.
    pub symbol_index: u64,
    /// h_j for every position j < n_w.
    pub shifts: Vec<u8>,
}

impl DeltaIhash {
    /// From Alice's Hash messages for Δ: `parity_corrections` = x'_{j,q}
    /// for j = ℓ..n (the message's column of the corrections), `x` = the
    /// chosen-message correction (ℓ symbols).
    pub fn from_transcript(
        n: usize,
        symbol_index: u64,
        parity_corrections: &[u8],
        x: &[u8],
    ) -> Result<DeltaIhash> {
        let ell = x.len();
        if ell == 0 || ell >= n || n > 256 || parity_corrections.len() != n - ell {
            return Err(Error::config("delta_zk: transcript of the wrong shape"));
        }
        let code = Code::new(gf256(), n, ell);
        let mut shifts = code.encode(x);
        for (h, c) in shifts[ell..].iter_mut().zip(parity_corrections) {
            *h ^= c;
        }
        Ok(DeltaIhash {
            ell,
            symbol_index,
            shifts,
        })
    }

    /// ⟨Δ⟩ ⊕ ⟨e⟩ for a public difference `e` (ℓ symbols), e.g. a public
    /// fix of Δ's point-and-permute bit that Bob applies homomorphically:
    /// the shifts absorb Encode(e), so the statement stays about Δ ⊕ e.
    pub fn xor_public(&mut self, e: &[u8]) -> Result<()> {
        if e.len() != self.ell {
            return Err(Error::config("delta_zk: difference of the wrong length"));
        }
        let code = Code::new(gf256(), self.shifts.len(), self.ell);
        for (h, d) in self.shifts.iter_mut().zip(code.encode(e)) {
            *h ^= d;
        }
        Ok(())
    }

    pub(crate) fn block(&self) -> u64 {
        self.symbol_index / 16
    }

    pub(crate) fn byte(&self) -> usize {
        (self.symbol_index % 16) as usize
    }
}

/// GF(2^8), the wire i-hash's field.
pub(crate) fn gf256() -> &'static Field {
    Field::of(8).expect("GF(2^8) exists")
}

/// The public values of Step 5b, all of which Bob received from Alice in
/// Setup: the statement Alice proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// C_j = SHA-256(2 ‖ s_j) of the n_w wire-IHash seeds, position order.
    pub seed_images: Vec<[u8; 32]>,
    /// ⟨Δ⟩ in public form (its shifts cover all n_w positions).
    pub delta_ihash: DeltaIhash,
    /// (i, D_i) for every permutation-seed index i of IHash_p.
    pub double_hashes: Vec<(u32, [u8; 32])>,
}

impl Statement {
    pub(crate) fn code(&self) -> Code {
        Code::new(gf256(), self.seed_images.len(), self.delta_ihash.ell)
    }

    fn check_shape(&self) -> Result<()> {
        let n = self.seed_images.len();
        let ell = self.delta_ihash.ell;
        if ell == 0 || ell >= n || n > 256 || self.delta_ihash.shifts.len() != n {
            return Err(Error::config("delta_zk: ⟨Δ⟩ does not cover the n_w seeds"));
        }
        if ell + 5 > 55 {
            return Err(Error::config(
                "delta_zk: Δ longer than one SHA-256 block allows",
            ));
        }
        Ok(())
    }

    /// The relation as one circuit (see [`circuit`]; the proof uses
    /// [`Statement::parts`], the same constraints in parts).
    pub fn relation(&self) -> Result<brickyard_circuit::Circuit> {
        self.check_shape()?;
        Ok(circuit::relation(self))
    }

    /// The relation in parts, as the proof streams it.
    pub fn parts(&self) -> Result<circuit::Parts<'_>> {
        self.check_shape()?;
        Ok(circuit::Parts::new(self))
    }
}

/// Alice's witness: Δ (ℓ_w bytes, least significant symbol first) and the
/// n_w wire-IHash seeds.
pub struct Witness {
    /// Δ.
    pub delta: Zeroizing<Vec<u8>>,
    /// s_1..s_n, position order.
    pub seeds: Zeroizing<Vec<Block>>,
}

impl Witness {
    fn bits(&self) -> Zeroizing<Vec<bool>> {
        let bytes = self
            .delta
            .iter()
            .copied()
            .chain(self.seeds.iter().flat_map(|s| s.to_bytes()));
        Zeroizing::new(
            bytes
                .flat_map(|v| (0..8).map(move |t| v >> t & 1 == 1))
                .collect(),
        )
    }
}

/// Alice's side of Step 5b: proves `st` with `w`. A witness that does not
/// satisfy `st` is refused locally (`Config`); a verifier who deviates is
/// caught by `brickyard_gczk`'s checks (`gczk-ot-sender`, `gczk-ot-labels`,
/// `gczk-garbling`), one who reports another statement by
/// [`CHECK_STATEMENT`].
pub fn prove(ch: &mut Channel, st: &Statement, w: &Witness) -> Result<()> {
    if w.delta.len() != st.delta_ihash.ell || w.seeds.len() != st.seed_images.len() {
        return Err(Error::config("delta_zk: witness of the wrong shape"));
    }
    st.check_shape()?;
    brickyard_gczk::prove_relation_as(ch, &circuit::Parts::new(st), &w.bits(), MISMATCH)
}

/// Alice's side of Step 5b going on with a witness that does not satisfy
/// `st` (adversary mode: Bob must reject it with `gczk-output`).
#[cfg(feature = "adversary")]
pub fn prove_false(ch: &mut Channel, st: &Statement, w: &Witness) -> Result<()> {
    if w.delta.len() != st.delta_ihash.ell || w.seeds.len() != st.seed_images.len() {
        return Err(Error::config("delta_zk: witness of the wrong shape"));
    }
    st.check_shape()?;
    brickyard_gczk::prove_cheating_as(
        ch,
        &circuit::Parts::new(st),
        &w.bits(),
        brickyard_gczk::ProverCheat::FalseWitness,
        MISMATCH,
    )
}

/// Bob's side of Step 5b: accepts iff Alice proved `st`; a failed proof is
/// `Cheating { check: "gczk-output" }` (or `gczk-commitment`), a statement
/// other than Alice's `Cheating { check: "step-5b-statement" }`.
pub fn verify(ch: &mut Channel, st: &Statement) -> Result<()> {
    st.check_shape()?;
    brickyard_gczk::verify_relation_as(ch, &circuit::Parts::new(st), MISMATCH)
}
