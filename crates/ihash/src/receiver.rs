//! Bob (P2, the IHash receiver): Setup, Hash (keeping the i-hashes, running
//! the consistency check), and his [`Verifier`].

use crate::layout::{fill_symbols, xor_into, Rows, CHUNK};
use crate::params::Params;
use crate::rs::Code;
use crate::setup::SeedImages;
use crate::verifier::Verifier;
use crate::{check, setup, verdict};
use brickyard_core::gf256::layout::transpose;
use brickyard_core::gf256::{combine_rows_many, Field};
use brickyard_core::prg::Prg;
use brickyard_core::{Channel, Error, Result};

/// Reads `buf.len()` symbols of GF(2^σ) from the peer (one per byte); a
/// byte outside the field is `Malformed`, naming `what`.
pub(crate) fn recv_symbols(
    ch: &mut Channel,
    buf: &mut [u8],
    field: &Field,
    what: &str,
) -> Result<()> {
    ch.recv_bytes(buf)?;
    if !buf.iter().all(|&x| field.contains(x)) {
        return Err(Error::malformed(format!("ihash: {what} outside GF(2^σ)")));
    }
    Ok(())
}

/// Bob's IHash session: W and one PRG per watched seed.
pub struct Receiver {
    p: Params,
    prgs: Vec<Prg>,
    verifier: Verifier,
    /// Alice's images of all n seeds (empty without).
    images: Vec<[u8; 32]>,
    /// AES blocks every seed's PRG stream has produced so far.
    blocks_used: u64,
}

/// What Alice sent in one Hash of chosen messages, all positions (not only
/// the watched ones): the public transcript that JIMU's Step 5b speaks
/// about (`brickyard_jimu::delta_zk::DeltaIhash::from_transcript`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChosenTranscript {
    /// Index in every seed's PRG byte stream of message 0's mask symbol.
    pub first_symbol: u64,
    /// x'_{j,t} for j = ℓ..n, message-major (`count` rows of n − ℓ).
    pub parity_corrections: Vec<u8>,
    /// x_t = m_t ⊕ m'_t, message-major (`count` rows of ℓ).
    pub x: Vec<u8>,
}

impl Receiver {
    /// IHash.Setup as the receiver with a fresh uniform watch set W.
    pub fn setup(ch: &mut Channel, prg: &mut Prg, p: Params) -> Result<Receiver> {
        Self::setup_cheating(ch, prg, p, None, false)
    }

    /// Setup receiving Alice's images of all n seeds before the OT and
    /// checking each watched seed against its image
    /// (`Cheating { check: images.check }`).
    pub fn setup_with_images(
        ch: &mut Channel,
        prg: &mut Prg,
        p: Params,
        images: Option<SeedImages>,
    ) -> Result<Receiver> {
        Self::setup_cheating(ch, prg, p, images, false)
    }

    /// [`Receiver::setup_with_images`] playing
    /// [`crate::Cheat::ReceiverExtraSeed`] when asked (adversary builds).
    #[cfg(feature = "adversary")]
    pub fn setup_with_images_cheat(
        ch: &mut Channel,
        prg: &mut Prg,
        p: Params,
        images: Option<SeedImages>,
        cheat: Option<crate::Cheat>,
    ) -> Result<Receiver> {
        let extra = cheat == Some(crate::Cheat::ReceiverExtraSeed);
        Self::setup_cheating(ch, prg, p, images, extra)
    }

    /// Setup playing [`crate::Cheat::ReceiverExtraSeed`] when asked
    /// (adversary builds only; other cheats are the sender's).
    #[cfg(feature = "adversary")]
    pub fn setup_with_cheat(
        ch: &mut Channel,
        prg: &mut Prg,
        p: Params,
        cheat: Option<crate::Cheat>,
    ) -> Result<Receiver> {
        Self::setup_cheating(
            ch,
            prg,
            p,
            None,
            cheat == Some(crate::Cheat::ReceiverExtraSeed),
        )
    }

    fn setup_cheating(
        ch: &mut Channel,
        prg: &mut Prg,
        p: Params,
        images: Option<SeedImages>,
        extra: bool,
    ) -> Result<Receiver> {
        let sc = setup::SetupCheat {
            extra_seed: extra,
            ..Default::default()
        };
        let (watch, seeds, images) = setup::receive(ch, prg, &p, images, sc)?;
        let code = Code::new(p.field(), p.n, p.ell);
        Ok(Receiver {
            p,
            prgs: seeds.iter().map(|&s| Prg::from_seed(s)).collect(),
            verifier: Verifier::new(&code, &watch),
            images,
            blocks_used: 0,
        })
    }

    /// A session restored for verification only, from its parameters,
    /// Bob's watch set W (sorted, in range) and Alice's seed images: what a
    /// store keeps of a Setup made in another process (JIMU's stored
    /// preprocessing). It verifies as the original did; it holds no seed,
    /// so any further Hash is refused (`Config`), never run with missing
    /// streams.
    pub fn restore_verifier(p: Params, watch: &[usize], images: Vec<[u8; 32]>) -> Result<Receiver> {
        if watch.len() != p.w
            || !watch.windows(2).all(|q| q[0] < q[1])
            || watch.last().is_some_and(|&j| j >= p.n)
        {
            return Err(Error::Storage(
                "ihash: a stored watch set is not w sorted positions of the code".into(),
            ));
        }
        if !images.is_empty() && images.len() != p.n {
            return Err(Error::Storage(
                "ihash: stored seed images are not one per position".into(),
            ));
        }
        let code = Code::new(p.field(), p.n, p.ell);
        Ok(Receiver {
            p,
            prgs: Vec::new(),
            verifier: Verifier::new(&code, watch),
            images,
            blocks_used: 0,
        })
    }

    /// The parameter set.
    pub fn params(&self) -> &Params {
        &self.p
    }

    /// Alice's images of all n seeds, in code position order (empty if
    /// Setup ran without images); each watched seed was checked against
    /// its image.
    pub fn seed_images(&self) -> &[[u8; 32]] {
        &self.images
    }

    /// The verifier at Bob's watch set.
    pub fn verifier(&self) -> &Verifier {
        &self.verifier
    }

    /// Hash of `count` random messages: returns their i-hashes (w symbols
    /// each) after the consistency check passed; on
    /// `Cheating { check: "ihash-consistency" }` the session must be
    /// abandoned (the failure may depend on W).
    pub fn hash_random(&mut self, ch: &mut Channel, prg: &mut Prg, count: usize) -> Result<Rows> {
        self.hash_random_recording(ch, prg, count, None)
    }

    fn hash_random_recording(
        &mut self,
        ch: &mut Channel,
        prg: &mut Prg,
        count: usize,
        mut record: Option<&mut Vec<u8>>,
    ) -> Result<Rows> {
        let (n, ell, w, xi) = (self.p.n, self.p.ell, self.p.w, self.p.xi());
        if self.prgs.is_empty() && w > 0 {
            return Err(Error::config(
                "ihash: this session was restored for verification only; it cannot hash",
            ));
        }
        let field = self.p.field();
        let total = count + xi;
        // Step 1c: ⟨m'_t⟩ at watched j = PRG(seed_j, t) (⊕ x'_j for parity),
        // a chunk of messages at a time, as the sender sends them.
        let mut corr = vec![0u8; (n - ell) * CHUNK];
        let mut chunk = zeroize::Zeroizing::new(vec![0u8; w * CHUNK]);
        let mut hashes = Rows::zeroed(total, w);
        let stride = hashes.stride();
        let mut c0 = 0;
        while c0 < total {
            let len = CHUNK.min(total - c0);
            let corr = &mut corr[..(n - ell) * len];
            recv_symbols(ch, corr, field, "correction")?;
            if let Some(rec) = record.as_deref_mut() {
                for t in c0..(c0 + len).min(count) {
                    rec.extend((0..n - ell).map(|j| corr[j * len + t - c0]));
                }
            }
            for ((row, prg), &j) in chunk
                .chunks_exact_mut(CHUNK)
                .zip(&mut self.prgs)
                .zip(self.verifier.watch())
            {
                let row = &mut row[..len];
                fill_symbols(prg, row, field);
                if j >= ell {
                    xor_into(row, &corr[(j - ell) * len..][..len]);
                }
            }
            transpose(
                &chunk,
                CHUNK,
                w,
                len,
                &mut hashes.padded_mut()[c0 * stride..],
                stride,
            );
            c0 += len;
        }
        // Every chunk's fill ends on a block boundary (CHUNK is a multiple
        // of 16), so the batch used ⌈total/16⌉ blocks of each stream.
        self.blocks_used += total.div_ceil(16) as u64;
        // Step 2.
        let seed = prg.random_block();
        ch.send_block(seed)?;
        ch.flush()?;
        let ys = check::coefficients(seed, &self.p, count);
        let mut answers = vec![0u8; xi * ell];
        recv_symbols(ch, &mut answers, field, "check answer")?;
        let (hashed, masks) = hashes.padded().split_at(count * stride);
        let mut accs = masks.to_vec();
        combine_rows_many(field, &ys, hashed, &mut accs, stride);
        let mut ok = true;
        for (acc, answer) in accs.chunks_exact(stride).zip(answers.chunks_exact(ell)) {
            ok &= self.verifier.verify(&acc[..w], answer);
        }
        let outcome = if ok {
            Ok(())
        } else {
            Err(Error::Cheating {
                check: "ihash-consistency",
            })
        };
        verdict::send(ch, outcome)?;
        hashes.truncate(count);
        Ok(hashes)
    }

    /// Hash of `count` chosen messages: the random i-hashes shifted by
    /// Encode(x)|_W for Alice's differences x = m ⊕ m' (Step 3).
    pub fn hash_chosen(&mut self, ch: &mut Channel, prg: &mut Prg, count: usize) -> Result<Rows> {
        self.hash_chosen_recording(ch, prg, count, None)
    }

    /// [`Receiver::hash_chosen`] that also returns Alice's whole public
    /// transcript of the batch (every position's corrections, x, and where
    /// the batch sits in the seeds' streams).
    pub fn hash_chosen_recorded(
        &mut self,
        ch: &mut Channel,
        prg: &mut Prg,
        count: usize,
    ) -> Result<(Rows, ChosenTranscript)> {
        let first_symbol = 16 * self.blocks_used;
        let mut corrections = Vec::with_capacity(count * (self.p.n - self.p.ell));
        let mut x = Vec::with_capacity(count * self.p.ell);
        let hashes =
            self.hash_chosen_recording(ch, prg, count, Some((&mut corrections, &mut x)))?;
        Ok((
            hashes,
            ChosenTranscript {
                first_symbol,
                parity_corrections: corrections,
                x,
            },
        ))
    }

    fn hash_chosen_recording(
        &mut self,
        ch: &mut Channel,
        prg: &mut Prg,
        count: usize,
        record: Option<(&mut Vec<u8>, &mut Vec<u8>)>,
    ) -> Result<Rows> {
        let ell = self.p.ell;
        let (rec_corr, rec_x) = match record {
            Some((c, x)) => (Some(c), Some(x)),
            None => (None, None),
        };
        let mut hashes = self.hash_random_recording(ch, prg, count, rec_corr)?;
        let mut x = vec![0u8; count * ell];
        recv_symbols(ch, &mut x, self.p.field(), "difference")?;
        if let Some(rec) = rec_x {
            rec.extend_from_slice(&x);
        }
        let mut shift = vec![0u8; self.p.w];
        for (i, xi) in x.chunks_exact(ell).enumerate() {
            self.verifier.watched_symbols(xi, &mut shift);
            xor_into(hashes.get_mut(i), &shift);
        }
        Ok(hashes)
    }
}
