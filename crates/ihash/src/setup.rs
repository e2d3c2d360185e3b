//! IHash.Setup: the w-out-of-n OT by which Bob learns w of Alice's n seeds.
//!
//! The paper leaves OT^w_n to [8]; ours (argument in
//! `docs/protocols/jimu.md`, "Interactive hash"):
//! 1. Alice draws seeds s_1..s_n and a key K, Shamir-shares K with
//!    threshold n − w into k_1..k_n, and sends h = H(K).
//! 2. n maliciously secure 1-of-2 base OTs (Masny–Rindal, `brickyard-ot`): pair j is
//!    (k_j, s_j); Bob picks s_j for the w positions of his watch set W and
//!    k_j elsewhere.
//! 3. Bob interpolates K' from his n − w shares and checks H(K') = h
//!    (check `ihash-setup-shares`: Alice's shares are not consistent), then
//!    returns K'.
//! 4. Alice checks K' = K (check `ihash-setup-key`): a Bob who took more
//!    than w seeds holds fewer than n − w shares, which are independent of K.

use crate::params::Params;
use crate::verdict;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use zeroize::{Zeroize, Zeroizing};

/// Public images of the seeds, sent by Alice before the OT (JIMU Sec. 5.1
/// Step 5b restated over public values: the ZK proof speaks about these
/// images instead of Bob's secret watch set). Bob checks every seed he
/// receives against its image; a mismatch is `Cheating { check }`.
#[derive(Clone, Copy, Debug)]
pub struct SeedImages {
    /// The image of one seed (a random oracle; JIMU fixes it in
    /// `brickyard_jimu::seeds`).
    pub image: fn(Block) -> [u8; 32],
    /// The check a wrong watched seed fails (must be one of
    /// [`crate::verdict::CHECKS`]).
    pub check: &'static str,
}

/// Deviations of the setup (cargo feature `adversary`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SetupCheat {
    /// Bob takes w + 1 seeds and answers with K interpolated from the
    /// n − w − 1 shares he has (plus a guessed one).
    pub extra_seed: bool,
    /// Alice corrupts the share at this position.
    pub bad_share: Option<usize>,
    /// Alice sends a wrong image for the seed at this position.
    #[cfg(feature = "adversary")]
    pub bad_image: Option<usize>,
}

/// H(K), bound to the parameter set.
fn key_hash(p: &Params, k: Block) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key("brickyard ihash setup key v1");
    for v in [p.n, p.ell, p.w, p.sigma as usize] {
        h.update(&(v as u64).to_le_bytes());
    }
    h.update(&k.to_bytes());
    *h.finalize().as_bytes()
}

/// What Alice holds after Setup: her n seeds and the images she sent.
pub(crate) type Sent = (Zeroizing<Vec<Block>>, Vec<[u8; 32]>);

/// Alice's side: returns her n seeds (fresh, or `given`) and the images
/// she sent (if `images`) after Bob proved he took at most w.
pub(crate) fn send(
    ch: &mut Channel,
    prg: &mut Prg,
    p: &Params,
    given: Option<Zeroizing<Vec<Block>>>,
    images: Option<SeedImages>,
    cheat: SetupCheat,
) -> Result<Sent> {
    let seeds = match given {
        Some(s) if s.len() == p.n => s,
        Some(_) => return Err(Error::config("ihash setup: wrong number of seeds")),
        None => Zeroizing::new(prg.random_blocks(p.n)),
    };
    let sent_images: Vec<[u8; 32]> = match images {
        Some(im) => seeds.iter().map(|&s| (im.image)(s)).collect(),
        None => Vec::new(),
    };
    #[cfg(feature = "adversary")]
    let sent_images = {
        let mut v = sent_images;
        if let (Some(j), false) = (cheat.bad_image, v.is_empty()) {
            v[j % p.n][0] ^= 1;
        }
        v
    };
    for im in &sent_images {
        ch.send_bytes(im)?;
    }
    let key = prg.random_block();
    let mut shares = crate::shamir::share(key, p.n - p.w, p.n, prg);
    if let Some(j) = cheat.bad_share {
        shares[j] ^= Block(1);
    }
    ch.send_bytes(&key_hash(p, key))?;
    let mut pairs: Vec<(Block, Block)> =
        shares.iter().copied().zip(seeds.iter().copied()).collect();
    shares.zeroize();
    let sent = brickyard_ot::base::send(ch, prg, &pairs);
    pairs.zeroize();
    sent?;
    verdict::recv(ch)?;
    let answer = ch.recv_block()?;
    let outcome = if answer == key {
        Ok(())
    } else {
        Err(Error::Cheating {
            check: "ihash-setup-key",
        })
    };
    verdict::send(ch, outcome)?;
    Ok((seeds, sent_images))
}

/// What Bob holds after Setup: W (sorted), the seeds at W, and Alice's
/// images of all n seeds (empty without images).
pub(crate) type Received = (Vec<usize>, Zeroizing<Vec<Block>>, Vec<[u8; 32]>);

/// Bob's side: draws his watch set W (sorted) and returns it with the
/// seeds at those positions; with `images`, receives Alice's images first
/// and checks the watched seeds against them.
pub(crate) fn receive(
    ch: &mut Channel,
    prg: &mut Prg,
    p: &Params,
    images: Option<SeedImages>,
    cheat: SetupCheat,
) -> Result<Received> {
    let mut order: Vec<usize> = (0..p.n).collect();
    prg.shuffle(&mut order);
    let taken = p.w + cheat.extra_seed as usize;
    let mut watch = order[..taken].to_vec();
    watch.sort_unstable();
    let mut choices = vec![false; p.n];
    for &j in &watch {
        choices[j] = true;
    }
    let mut got_images = vec![[0u8; 32]; if images.is_some() { p.n } else { 0 }];
    for im in got_images.iter_mut() {
        ch.recv_bytes(im)?;
    }
    let mut h = [0u8; 32];
    ch.recv_bytes(&mut h)?;
    let got = Zeroizing::new(brickyard_ot::base::receive(ch, prg, &choices)?);
    let xs: Vec<usize> = (0..p.n).filter(|&j| !choices[j]).collect();
    let mut shares: Vec<Block> = xs.iter().map(|&j| got[j]).collect();
    let mut xs = xs;
    if cheat.extra_seed {
        // One share short: guess the missing one (any value; K stays hidden).
        xs.push(watch[0]);
        shares.push(prg.random_block());
    }
    let mut key = crate::shamir::reconstruct(&xs, &shares);
    shares.zeroize();
    let mut outcome = if key_hash(p, key) == h || cheat.extra_seed {
        Ok(())
    } else {
        Err(Error::Cheating {
            check: "ihash-setup-shares",
        })
    };
    if let (Ok(()), Some(im)) = (&outcome, images) {
        if !watch.iter().all(|&j| (im.image)(got[j]) == got_images[j]) {
            outcome = Err(Error::Cheating { check: im.check });
        }
    }
    verdict::send(ch, outcome)?;
    ch.send_block(key)?;
    ch.flush()?;
    key.zeroize();
    verdict::recv(ch)?;
    let seeds = Zeroizing::new(watch.iter().map(|&j| got[j]).collect());
    Ok((watch, seeds, got_images))
}
