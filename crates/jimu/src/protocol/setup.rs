//! Step 0, Setup: the label i-hash (W_w), ⟨Δ⟩, the permutation-string
//! i-hash with seeds H(Δ, i) (W_p), the double hashes D_i, A'; and the
//! base OTs of the KOS extension that carries Bob's input shares.
//!
//! Two deviations in order only, both Alice committing earlier than the
//! paper asks: the images C_j = H(seed_j) of the wire-i-hash seeds and the
//! double hashes D_i = H(H(Δ, i)) (Step 0d) are sent before the
//! respective w-out-of-n OT, and Bob checks each seed he learns against
//! its image (`ihash-seed-image`, `perm-seed`). These are the public
//! values over which Step 5b's proof is stated (docs/protocols/jimu.md).
//!
//! Setup ends with Step 5(b), moved here from the paper's Step 5 (it
//! depends on nothing later, and proving it before Generate means no
//! input and no garbled gate exists when a false proof aborts): Alice
//! proves in zero knowledge that the D_i, Bob's ⟨Δ⟩ and the wire seeds
//! share one Δ ([`delta_zk`], restated over public values); each party
//! computes the statement from its own view of Setup.

use super::{label_bytes, JimuOptions};
#[cfg(feature = "adversary")]
use crate::cheat::Cheat;
use crate::cheat::Cheats;
use crate::delta_zk::{self, DeltaIhash, Statement, Witness};
use crate::seeds;
use brickyard_core::prg::Prg;
use brickyard_core::{Channel, Result};
use brickyard_driver::steps::step;
use brickyard_garble::wide::{Compress, WideDelta};
use brickyard_ihash::{ChosenTranscript, Code, Params, Receiver, Rows, SeedImages, Sender};
use brickyard_ot::{KosReceiver, KosSender};
use zeroize::Zeroizing;

/// The wire-seed images (Step 5b's public C_j).
pub const WIRE_IMAGES: SeedImages = SeedImages {
    image: seeds::seed_commitment,
    check: "ihash-seed-image",
};

/// The permutation-seed images: the double hashes D_i of Step 0d.
pub const PERM_IMAGES: SeedImages = SeedImages {
    image: seeds::double_hash,
    check: "perm-seed",
};

/// Alice after Setup.
pub struct AliceSetup<const L: usize> {
    /// IHash_{ℓ_w,σ_w} (wire labels).
    pub wire: Sender,
    /// IHash_{ℓ_p,σ_p} (permutation strings), seeded by H(Δ, i).
    pub perm: Sender,
    /// Δ (λ_w bits, lsb 1).
    pub delta: WideDelta<L>,
    /// A', sampled after Bob's watch choice.
    pub compress: Compress,
    /// The OT extension of Bob's input shares (Alice sends).
    pub kos: KosSender,
}

/// Bob after Setup.
pub struct BobSetup {
    /// IHash_{ℓ_w,σ_w} with W_w.
    pub wire: Receiver,
    /// IHash_{ℓ_p,σ_p} with W_p.
    pub perm: Receiver,
    /// ⟨Δ⟩.
    pub h_delta: Vec<u8>,
    /// D_1..D_{n_p} (also `perm.seed_images()`).
    pub d: Vec<[u8; 32]>,
    /// A'.
    pub compress: Compress,
    /// The OT extension of Bob's input shares (Bob receives).
    pub kos: KosReceiver,
}

/// The permutation seeds H(Δ, 1), …, H(Δ, n_p).
pub fn perm_seeds<const L: usize>(
    delta: &[u8],
    pp: &Params,
) -> Zeroizing<Vec<brickyard_core::Block>> {
    debug_assert_eq!(delta.len(), 16 * L);
    Zeroizing::new(
        (1..=pp.n as u32)
            .map(|i| seeds::perm_seed(delta, i))
            .collect(),
    )
}

/// Alice's Setup (Step 0 (a)–(d), A').
pub fn alice<const L: usize>(
    ch: &mut Channel,
    prg: &mut Prg,
    opts: &JimuOptions,
    cheats: &Cheats,
) -> Result<AliceSetup<L>> {
    let (pw, pp) = opts.ihash_params(16 * L)?;
    // (a) IHash_w.Setup: Bob picks W_w; C_j = H(seed_j) go first.
    let mut wire = wire_sender(ch, prg, pw, cheats)?;
    // (b) Δ and ⟨Δ⟩.
    let delta = WideDelta::<L>::random(prg);
    let d_bytes = Zeroizing::new(label_bytes(delta.label()));
    wire.hash_chosen(ch, &Rows::from_flat(&d_bytes, pw.ell))?;
    // (c) IHash_p.Setup with seeds H(Δ, i); (d) D_i = H(H(Δ, i)) sent
    // (before the OT) as the seeds' images.
    let seeds = perm_seeds::<L>(&d_bytes, &pp);
    let perm = perm_sender(ch, prg, pp, seeds, cheats)?;
    // A' after Bob's watch choice.
    let compress = Compress::sample(prg, 16 * L);
    ch.send_bytes(compress.rows())?;
    let kos = KosSender::setup(ch, prg)?;
    // 5(b), before anything depends on Δ.
    if cheats.runs_step_5b() {
        step(STEP_5B, || {
            step_5b_alice(ch, &wire, &perm, &d_bytes, cheats)
        })?;
    }
    Ok(AliceSetup {
        wire,
        perm,
        delta,
        compress,
        kos,
    })
}

/// The name of Step 5b's proof in the phase breakdown (`Report::steps`:
/// the bench prints it as its own row under `setup`).
pub const STEP_5B: &str = "step 5b: ZK proof of one Δ";

/// (i, D_i) for i = 1..n_p, as `seeds::perm_seed` numbers them.
fn double_hashes(d: &[[u8; 32]]) -> Vec<(u32, [u8; 32])> {
    d.iter()
        .enumerate()
        .map(|(k, &d)| (k as u32 + 1, d))
        .collect()
}

/// Step 5b's statement as Alice sent its values: her images C_j, the
/// shifts of ⟨Δ⟩ and her D_i. Δ is IHash_w's first Hash, at stream
/// symbol 0 of every seed, so the shift an honest transcript gives Bob at
/// j is PRG(s_j)[0] ⊕ Encode(Δ)[j] (`delta_zk::DeltaIhash`); Bob computes
/// the same statement from what he received, and the proof's first
/// message compares the two (`Config` if they differ).
pub fn statement_alice(wire: &Sender, perm: &Sender, delta: &[u8]) -> Statement {
    let p = wire.params();
    let enc = Code::new(delta_zk::gf256(), p.n, p.ell).encode(delta);
    let shifts = wire
        .seeds()
        .iter()
        .zip(&enc)
        .map(|(&s, &e)| {
            let mut first = [0u8; 1];
            Prg::from_seed(s).fill_bytes(&mut first);
            first[0] ^ e
        })
        .collect();
    Statement {
        seed_images: wire.seed_images().to_vec(),
        delta_ihash: DeltaIhash {
            ell: p.ell,
            symbol_index: 0,
            shifts,
        },
        double_hashes: double_hashes(perm.seed_images()),
    }
}

/// Step 5b's statement as Bob received it: the images C_j, ⟨Δ⟩ from the
/// recorded transcript of its Hash, and the D_i.
pub fn statement_bob(wire: &Receiver, t: &ChosenTranscript, d: &[[u8; 32]]) -> Result<Statement> {
    let p = wire.params();
    Ok(Statement {
        seed_images: wire.seed_images().to_vec(),
        delta_ihash: DeltaIhash::from_transcript(p.n, t.first_symbol, &t.parity_corrections, &t.x)?,
        double_hashes: double_hashes(d),
    })
}

/// Alice's Step 5b. Under [`Cheat::BadDeltaProof`] (and under
/// [`Cheat::BadPermSeed`], whose wrong D_j leaves her without a witness)
/// she goes on with a false witness, which Bob rejects (`gczk-output`).
fn step_5b_alice(
    ch: &mut Channel,
    wire: &Sender,
    perm: &Sender,
    delta: &[u8],
    cheats: &Cheats,
) -> Result<()> {
    #[allow(unused_mut)]
    let mut st = statement_alice(wire, perm, delta);
    #[cfg(feature = "adversary")]
    if cheats.is(Cheat::MisreportStatement) {
        let j = cheats.at(st.delta_ihash.shifts.len());
        st.delta_ihash.shifts[j] ^= 1;
    }
    #[allow(unused_mut)]
    let mut w = Witness {
        delta: Zeroizing::new(delta.to_vec()),
        seeds: Zeroizing::new(wire.seeds().to_vec()),
    };
    #[cfg(feature = "adversary")]
    if cheats.is(Cheat::BadDeltaProof) || cheats.is(Cheat::BadPermSeed) {
        if cheats.is(Cheat::BadDeltaProof) {
            // Δ off in one (random) bit: no witness for the statement.
            let bit = cheats.at(8 * w.delta.len());
            w.delta[bit / 8] ^= 1 << (bit % 8);
        }
        return delta_zk::prove_false(ch, &st, &w);
    }
    let _ = cheats;
    delta_zk::prove(ch, &st, &w)
}

/// IHash_w.Setup as the sender; under [`Cheat::MalformedIhash`] every
/// i-hash batch gets a wrong consistency answer.
fn wire_sender(ch: &mut Channel, prg: &mut Prg, pw: Params, cheats: &Cheats) -> Result<Sender> {
    #[cfg(feature = "adversary")]
    if cheats.is(Cheat::MalformedIhash) {
        let cheat = brickyard_ihash::Cheat::SenderBadAnswer {
            t: 0,
            symbol: cheats.at(pw.ell),
            delta: 1,
        };
        return Sender::setup_with_seeds_cheat(ch, prg, pw, None, Some(WIRE_IMAGES), Some(cheat));
    }
    let _ = cheats;
    Sender::setup_with_seeds(ch, prg, pw, None, Some(WIRE_IMAGES))
}

/// IHash_p.Setup as the sender; under [`Cheat::BadPermSeed`] one seed
/// H(Δ, j) does not match its D_j.
fn perm_sender(
    ch: &mut Channel,
    prg: &mut Prg,
    pp: Params,
    seeds: Zeroizing<Vec<brickyard_core::Block>>,
    cheats: &Cheats,
) -> Result<Sender> {
    #[cfg(feature = "adversary")]
    if cheats.is(Cheat::BadPermSeed) {
        let j = cheats.at(pp.n);
        return Sender::setup_with_seeds_cheat(
            ch,
            prg,
            pp,
            Some(seeds),
            Some(PERM_IMAGES),
            Some(brickyard_ihash::Cheat::SenderBadImage { position: j }),
        );
    }
    let _ = cheats;
    Sender::setup_with_seeds(ch, prg, pp, Some(seeds), Some(PERM_IMAGES))
}

/// Bob's Setup.
pub fn bob<const L: usize>(
    ch: &mut Channel,
    prg: &mut Prg,
    opts: &JimuOptions,
    cheats: &Cheats,
) -> Result<BobSetup> {
    let (pw, pp) = opts.ihash_params(16 * L)?;
    let mut wire = wire_receiver(ch, prg, pw, cheats)?;
    // ⟨Δ⟩, with the public transcript Step 5b's statement is made of.
    let (h_delta, transcript) = wire.hash_chosen_recorded(ch, prg, 1)?;
    let h_delta = h_delta.get(0).to_vec();
    let perm = Receiver::setup_with_images(ch, prg, pp, Some(PERM_IMAGES))?;
    let d = perm.seed_images().to_vec();
    let compress = recv_compress::<L>(ch)?;
    let kos = KosReceiver::setup(ch, prg)?;
    // 5(b): a failed proof is `Cheating { check: "gczk-…" }` here, before
    // any input or garbled gate exists.
    if cheats.runs_step_5b() {
        let st = statement_bob(&wire, &transcript, &d)?;
        step(STEP_5B, || delta_zk::verify(ch, &st))?;
    }
    Ok(BobSetup {
        wire,
        perm,
        h_delta,
        d,
        compress,
        kos,
    })
}

fn wire_receiver(ch: &mut Channel, prg: &mut Prg, pw: Params, cheats: &Cheats) -> Result<Receiver> {
    #[cfg(feature = "adversary")]
    if cheats.is(Cheat::WatchMore) {
        return Receiver::setup_with_images_cheat(
            ch,
            prg,
            pw,
            Some(WIRE_IMAGES),
            Some(brickyard_ihash::Cheat::ReceiverExtraSeed),
        );
    }
    let _ = cheats;
    Receiver::setup_with_images(ch, prg, pw, Some(WIRE_IMAGES))
}

/// Bob reads A' (16 rows of 16·L bytes) and checks its rank
/// (`compress-rank`).
pub(crate) fn recv_compress<const L: usize>(ch: &mut Channel) -> Result<Compress> {
    let mut rows = vec![0u8; 16 * 16 * L];
    ch.recv_bytes(&mut rows)?;
    Compress::from_rows(&rows, 16 * L)
}
