//! Alice (P1, the IHash sender): Setup, Hash of random and chosen messages.

use crate::layout::{fill_symbols, Rows, CHUNK};
use crate::params::Params;
use crate::rs::Code;
use crate::setup::SeedImages;
use crate::{check, setup, verdict};
use brickyard_core::gf256::combine_rows_many;
use brickyard_core::gf256::layout::transpose;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};

/// Alice's IHash session: one PRG per seed, advanced by every batch.
pub struct Sender {
    p: Params,
    /// The n seeds (secret; zeroized on drop), for proofs about them
    /// (JIMU Step 5b).
    seeds: zeroize::Zeroizing<Vec<brickyard_core::Block>>,
    code: Code,
    prgs: Vec<Prg>,
    /// The systematic PRG rows (the messages) of one chunk, symbol-major
    /// (zeroized on drop).
    rows: zeroize::Zeroizing<Vec<u8>>,
    /// The parity corrections of one chunk (public: they are sent).
    corr: Vec<u8>,
    /// The images of the n seeds sent before the OT (empty without).
    images: Vec<[u8; 32]>,
    #[cfg(feature = "adversary")]
    cheat: Option<crate::Cheat>,
}

impl Sender {
    /// IHash.Setup as the sender (Bob learns w of n fresh seeds).
    pub fn setup(ch: &mut Channel, prg: &mut Prg, p: Params) -> Result<Sender> {
        Self::setup_cheating(ch, prg, p, None, None, None)
    }

    /// Setup with given seeds (JIMU's permutation-string i-hash uses
    /// H(Δ, i)) or fresh ones (`None`), sending each seed's image before
    /// the OT when `images` is given (Bob checks the seeds he learns).
    pub fn setup_with_seeds(
        ch: &mut Channel,
        prg: &mut Prg,
        p: Params,
        seeds: Option<zeroize::Zeroizing<Vec<Block>>>,
        images: Option<SeedImages>,
    ) -> Result<Sender> {
        Self::setup_cheating(ch, prg, p, seeds, images, None)
    }

    /// Setup playing a cheat (adversary builds only).
    #[cfg(feature = "adversary")]
    pub fn setup_with_cheat(
        ch: &mut Channel,
        prg: &mut Prg,
        p: Params,
        cheat: Option<crate::Cheat>,
    ) -> Result<Sender> {
        Self::setup_cheating(ch, prg, p, None, None, cheat)
    }

    /// [`Sender::setup_with_seeds`] playing a cheat (adversary builds only).
    #[cfg(feature = "adversary")]
    pub fn setup_with_seeds_cheat(
        ch: &mut Channel,
        prg: &mut Prg,
        p: Params,
        seeds: Option<zeroize::Zeroizing<Vec<Block>>>,
        images: Option<SeedImages>,
        cheat: Option<crate::Cheat>,
    ) -> Result<Sender> {
        Self::setup_cheating(ch, prg, p, seeds, images, cheat)
    }

    fn setup_cheating(
        ch: &mut Channel,
        prg: &mut Prg,
        p: Params,
        given: Option<zeroize::Zeroizing<Vec<Block>>>,
        images: Option<SeedImages>,
        _cheat: Option<crate::CheatOpt>,
    ) -> Result<Sender> {
        let mut sc = setup::SetupCheat::default();
        #[cfg(feature = "adversary")]
        match _cheat {
            Some(crate::Cheat::SenderBadShare { position }) => sc.bad_share = Some(position),
            Some(crate::Cheat::SenderBadImage { position }) => sc.bad_image = Some(position),
            _ => {}
        }
        let _ = &mut sc;
        let (seeds, images) = setup::send(ch, prg, &p, given, images, sc)?;
        Ok(Sender {
            p,
            code: Code::new(p.field(), p.n, p.ell),
            prgs: seeds.iter().map(|&s| Prg::from_seed(s)).collect(),
            seeds: zeroize::Zeroizing::new(seeds.to_vec()),
            rows: zeroize::Zeroizing::new(Vec::new()),
            corr: Vec::new(),
            images,
            #[cfg(feature = "adversary")]
            cheat: _cheat,
        })
    }

    /// The parameter set.
    pub fn params(&self) -> &Params {
        &self.p
    }

    /// The images of all n seeds Alice sent before the OT (in code
    /// position order; empty if Setup ran without images): public values
    /// a proof about the seeds may refer to.
    pub fn seed_images(&self) -> &[[u8; 32]] {
        &self.images
    }

    /// The n seeds of Setup, position order (secret: the witness of JIMU's
    /// Step 5b proof, never to be sent).
    pub fn seeds(&self) -> &[brickyard_core::Block] {
        &self.seeds
    }

    /// Hash of `count` random messages (the paper's optimisation: the
    /// PRG's systematic symbols are the messages, nothing else is sent for
    /// them). Returns the messages; Bob holds their i-hashes.
    pub fn hash_random(&mut self, ch: &mut Channel, count: usize) -> Result<Rows> {
        let (n, ell, xi) = (self.p.n, self.p.ell, self.p.xi());
        let total = count + xi;
        let field = self.p.field();
        // Step 1, a chunk of messages at a time so that the PRG rows, the
        // encoding and the transpose stay in L2: the systematic PRG rows
        // (= the messages m'_t) go to `chunk`, the parity PRG rows straight
        // into their corrections' place, which the encoder then updates:
        // x'_{j,t} = PRG(seed_j, t) ⊕ Encode(m'_t)[j]. Each chunk's
        // corrections leave at once ((n − ℓ) rows of the chunk's length).
        let chunk = &mut self.rows;
        chunk.resize(ell * CHUNK, 0);
        let corr = &mut self.corr;
        corr.resize((n - ell) * CHUNK, 0);
        let mut msgs = Rows::zeroed(total, ell);
        let stride = msgs.stride();
        let (sys_prgs, par_prgs) = self.prgs.split_at_mut(ell);
        let mut c0 = 0;
        while c0 < total {
            // CHUNK is a multiple of 16, so the streams are cut at block
            // boundaries and continue exactly as one fill of `total` bytes.
            let len = CHUNK.min(total - c0);
            for (row, prg) in chunk.chunks_exact_mut(CHUNK).zip(sys_prgs.iter_mut()) {
                fill_symbols(prg, &mut row[..len], field);
            }
            let corr = &mut corr[..(n - ell) * len];
            for (row, prg) in corr.chunks_exact_mut(len).zip(par_prgs.iter_mut()) {
                fill_symbols(prg, row, field);
            }
            self.code.encode_add_strided(chunk, CHUNK, len, corr, len);
            #[cfg(feature = "adversary")]
            if let Some(crate::Cheat::SenderBadCorrection {
                position,
                message,
                delta,
            }) = self.cheat
            {
                if (c0..c0 + len).contains(&message) {
                    corr[(position - ell) * len + message - c0] ^= delta;
                }
            }
            ch.send_bytes(corr)?;
            transpose(
                chunk,
                CHUNK,
                ell,
                len,
                &mut msgs.padded_mut()[c0 * stride..],
                stride,
            );
            c0 += len;
        }
        ch.flush()?;
        // Step 2: answer Bob's ξ random combinations, all in one pass over
        // the messages.
        let ys = check::coefficients(ch.recv_block()?, &self.p, count);
        let (hashed, masks) = msgs.padded().split_at(count * stride);
        let mut accs = zeroize::Zeroizing::new(masks.to_vec());
        combine_rows_many(field, &ys, hashed, &mut accs, stride);
        let mut answers = vec![0u8; xi * ell];
        for (a, acc) in answers.chunks_exact_mut(ell).zip(accs.chunks_exact(stride)) {
            a.copy_from_slice(&acc[..ell]);
        }
        #[cfg(feature = "adversary")]
        if let Some(crate::Cheat::SenderBadAnswer { t, symbol, delta }) = self.cheat {
            answers[t * ell + symbol] ^= delta;
        }
        ch.send_bytes(&answers)?;
        verdict::recv(ch)?;
        msgs.truncate(count);
        Ok(msgs)
    }

    /// Hash of chosen messages (`messages`, ℓ symbols each): i-hashes
    /// random m' and sends x = m ⊕ m' (Step 3).
    pub fn hash_chosen(&mut self, ch: &mut Channel, messages: &Rows) -> Result<()> {
        assert_eq!(messages.width(), self.p.ell, "hash_chosen: message length");
        let field = self.p.field();
        assert!(
            messages.iter().flatten().all(|&x| field.contains(x)),
            "hash_chosen: symbol outside GF(2^σ)"
        );
        let random = self.hash_random(ch, messages.len())?;
        let mut x = messages.to_flat();
        crate::layout::xor_into(&mut x, &random.to_flat());
        ch.send_bytes(&x)?;
        ch.flush()
    }
}

/// The random messages of the batches `counts` (in order, as
/// [`Sender::hash_random`] made them from the first batch of a session on),
/// regenerated from the ℓ systematic seeds alone: what a party that learns
/// the seeds later (JIMU's Bob after extracting Δ) recomputes. Each batch
/// drew `count + ξ` symbols per seed (CHUNK is a multiple of 16, so the
/// chunked fill consumed exactly the stream of one fill of that length).
pub fn replay_random(p: &Params, systematic_seeds: &[Block], counts: &[usize]) -> Vec<Rows> {
    assert_eq!(systematic_seeds.len(), p.ell, "replay_random: ℓ seeds");
    let field = p.field();
    let mut prgs: Vec<Prg> = systematic_seeds
        .iter()
        .map(|&s| Prg::from_seed(s))
        .collect();
    let mut out = Vec::with_capacity(counts.len());
    let mut row = zeroize::Zeroizing::new(Vec::new());
    for &count in counts {
        let total = count + p.xi();
        let mut msgs = Rows::zeroed(count, p.ell);
        for (j, prg) in prgs.iter_mut().enumerate() {
            row.resize(total, 0);
            fill_symbols(prg, &mut row, field);
            for t in 0..count {
                msgs.get_mut(t)[j] = row[t];
            }
        }
        out.push(msgs);
    }
    out
}
