//! Alice (P1, the IHash sender): Setup, Hash of random and chosen messages.

use crate::layout::{transpose, Rows};
use crate::params::Params;
use crate::rs::Code;
use crate::{check, setup, verdict};
use brickyard_core::gf256::combine_rows;
use brickyard_core::prg::Prg;
use brickyard_core::{Channel, Result};

/// Alice's IHash session: one PRG per seed, advanced by every batch.
pub struct Sender {
    p: Params,
    code: Code,
    prgs: Vec<Prg>,
    /// PRG rows of the current batch, kept between batches so that large
    /// batches do not fault fresh pages in every time (zeroized on drop).
    rows: zeroize::Zeroizing<Vec<u8>>,
    #[cfg(feature = "adversary")]
    cheat: Option<crate::Cheat>,
}

impl Sender {
    /// IHash.Setup as the sender (Bob learns w of n fresh seeds).
    pub fn setup(ch: &mut Channel, prg: &mut Prg, p: Params) -> Result<Sender> {
        Self::setup_cheating(ch, prg, p, None)
    }

    /// Setup playing a cheat (adversary builds only).
    #[cfg(feature = "adversary")]
    pub fn setup_with_cheat(
        ch: &mut Channel,
        prg: &mut Prg,
        p: Params,
        cheat: Option<crate::Cheat>,
    ) -> Result<Sender> {
        Self::setup_cheating(ch, prg, p, cheat)
    }

    fn setup_cheating(
        ch: &mut Channel,
        prg: &mut Prg,
        p: Params,
        _cheat: Option<crate::CheatOpt>,
    ) -> Result<Sender> {
        let mut sc = setup::SetupCheat::default();
        #[cfg(feature = "adversary")]
        if let Some(crate::Cheat::SenderBadShare { position }) = _cheat {
            sc.bad_share = Some(position);
        }
        let _ = &mut sc;
        let seeds = setup::send(ch, prg, &p, sc)?;
        Ok(Sender {
            p,
            code: Code::new(p.field(), p.n, p.ell),
            prgs: seeds.iter().map(|&s| Prg::from_seed(s)).collect(),
            rows: zeroize::Zeroizing::new(Vec::new()),
            #[cfg(feature = "adversary")]
            cheat: _cheat,
        })
    }

    /// The parameter set.
    pub fn params(&self) -> &Params {
        &self.p
    }

    /// Hash of `count` random messages (the paper's optimisation: the
    /// PRG's systematic symbols are the messages, nothing else is sent for
    /// them). Returns the messages; Bob holds their i-hashes.
    pub fn hash_random(&mut self, ch: &mut Channel, count: usize) -> Result<Rows> {
        let (n, ell, xi) = (self.p.n, self.p.ell, self.p.xi());
        let total = count + xi;
        // Step 1a: n rows of PRG symbols, symbol-major.
        let rows = &mut self.rows;
        rows.resize(n * total, 0);
        let mask = (self.p.field().order() - 1) as u8;
        for (row, prg) in rows.chunks_exact_mut(total).zip(&mut self.prgs) {
            prg.fill_bytes(row);
            if mask != 0xff {
                row.iter_mut().for_each(|x| *x &= mask);
            }
        }
        // Step 1b: parity corrections x'_i = PRG(seed_i, t) ⊕ Encode(m'_t)[i].
        let (systematic, parity_prg) = rows.split_at(ell * total);
        let mut corr = vec![0u8; (n - ell) * total];
        self.code.encode_batch(systematic, total, &mut corr);
        crate::layout::xor_into(&mut corr, parity_prg);
        #[cfg(feature = "adversary")]
        if let Some(crate::Cheat::SenderBadCorrection {
            position,
            message,
            delta,
        }) = self.cheat
        {
            corr[(position - ell) * total + message] ^= delta;
        }
        ch.send_bytes(&corr)?;
        ch.flush()?;
        let mut msgs = Rows::zeroed(total, ell);
        let stride = msgs.stride();
        transpose(systematic, ell, total, msgs.padded_mut(), stride);
        // Step 2: answer Bob's ξ random combinations.
        let ys = check::coefficients(ch.recv_block()?, &self.p, count);
        let mut answers = vec![0u8; xi * ell];
        let mut acc = vec![0u8; stride];
        let (hashed, masks) = msgs.padded().split_at(count * stride);
        for t in 0..xi {
            acc.copy_from_slice(&masks[t * stride..(t + 1) * stride]);
            combine_rows(
                self.p.field(),
                &ys[t * count..(t + 1) * count],
                hashed,
                &mut acc,
            );
            answers[t * ell..(t + 1) * ell].copy_from_slice(&acc[..ell]);
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
