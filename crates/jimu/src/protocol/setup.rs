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

use super::{label_bytes, JimuOptions};
#[cfg(feature = "adversary")]
use crate::cheat::Cheat;
use crate::cheat::Cheats;
use crate::seeds;
use brickyard_core::prg::Prg;
use brickyard_core::{Channel, Result};
use brickyard_garble::wide::{Compress, WideDelta};
use brickyard_ihash::{Params, Receiver, Rows, SeedImages, Sender};
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
    Ok(AliceSetup {
        wire,
        perm,
        delta,
        compress,
        kos,
    })
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
    let h_delta = wire.hash_chosen(ch, prg, 1)?.get(0).to_vec();
    let perm = Receiver::setup_with_images(ch, prg, pp, Some(PERM_IMAGES))?;
    let d = perm.seed_images().to_vec();
    let compress = recv_compress::<L>(ch)?;
    let kos = KosReceiver::setup(ch, prg)?;
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
