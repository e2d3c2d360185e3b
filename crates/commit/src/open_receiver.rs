//! Openings, receiver side. Every check compares the opened share against
//! `w = t ⊕ (Δ_R ∧ C(m))`: a committer who opens a different codeword must
//! guess Δ_R on the ≥ D positions where the two codewords differ.

use crate::code::{xor_rows, Row};
use crate::open_committer::{challenge_rows, check_bit_args};
use crate::params::ROW_WORDS;
use crate::receiver::Receiver;
use crate::sets::{first_unknown, Chunk, ItemSets};
use crate::sliced::{combine_item_msgs, combine_items_with};
use crate::wire::{get_opening, opening_bytes, recv_count, singletons, OPEN_PIECE};
use brickyard_core::{Block, Channel, Error, Result};

impl Receiver {
    /// `⊕ w_i` over the ids of one set.
    fn item<S: AsRef<[usize]>>(&self, set: S) -> Result<Row> {
        let mut w = [0u64; ROW_WORDS];
        for &id in set.as_ref() {
            let wi = self.state.w[..self.verified()]
                .get(id)
                .ok_or_else(|| Error::config(format!("unknown commitment id {id}")))?;
            w = xor_rows(&w, wi);
        }
        Ok(w)
    }

    /// Refuses any id that is not a commitment of a checked batch (before
    /// anything is read).
    fn check_ids<S: AsRef<[usize]>>(&self, sets: &[S]) -> Result<()> {
        let n = self.verified();
        match sets.iter().flat_map(|s| s.as_ref()).find(|&&id| id >= n) {
            Some(id) => Err(Error::config(format!("unknown commitment id {id}"))),
            None => Ok(()),
        }
    }

    /// `⊕ w_i` over ids already checked by [`Receiver::check_ids`].
    #[inline]
    fn item_unchecked(&self, set: &[usize]) -> Row {
        set.iter()
            .fold([0u64; ROW_WORDS], |w, &id| xor_rows(&w, &self.state.w[id]))
    }

    /// Verifies one opening `(m, t)` of an item with our `w`:
    /// `w ⊕ t = Δ_R ∧ C(m)`, compared word by word without branching.
    #[inline]
    fn verify_one(&self, w: &Row, m: Block, t: &Row) -> Result<()> {
        let c = self.params.code().encode(m);
        let diff = (0..ROW_WORDS).fold(0u64, |d, i| {
            d | (w[i] ^ t[i] ^ (c[i] & self.state.watch[i]))
        });
        if diff == 0 {
            Ok(())
        } else {
            Err(Error::Cheating { check: "decommit" })
        }
    }

    /// Receives and verifies the openings of `ids`; returns the values.
    pub fn verify_open(&self, ch: &mut Channel, ids: &[usize]) -> Result<Vec<Block>> {
        self.verify_open_xor(ch, singletons(ids))
    }

    /// Receives and verifies, for each set, the opening of the XOR of its
    /// commitments; returns the XORed values. A single streaming pass: the
    /// openings are read piece by piece (the committer's [`OPEN_PIECE`]
    /// slots) into one reused buffer and checked in order, so the first
    /// bad opening is the error reported.
    pub fn verify_open_xor<S: AsRef<[usize]>>(
        &self,
        ch: &mut Channel,
        sets: &[S],
    ) -> Result<Vec<Block>> {
        self.check_ids(sets)?;
        recv_count(ch, sets.len(), "opening")?;
        let mut out = Vec::with_capacity(sets.len());
        let n = self.params.n();
        let ob = opening_bytes(n);
        let mut bytes = vec![0u8; sets.len().min(OPEN_PIECE) * ob];
        for piece in sets.chunks(OPEN_PIECE) {
            let bytes = &mut bytes[..piece.len() * ob];
            ch.recv_bytes(bytes)?;
            for (s, slot) in piece.iter().zip(bytes.chunks_exact(ob)) {
                let (m, t) = get_opening(slot, n)?;
                self.verify_one(&self.item_unchecked(s.as_ref()), m, &t)?;
                out.push(m);
            }
        }
        Ok(out)
    }

    /// Receives a batch opening of `ids` (messages, then one combination of
    /// the shares for our random challenge); returns the values.
    pub fn verify_batch_open(&mut self, ch: &mut Channel, ids: &[usize]) -> Result<Vec<Block>> {
        self.verify_batch_open_xor(ch, singletons(ids))
    }

    /// [`Receiver::verify_batch_open`] for XORs of sets of commitments.
    pub fn verify_batch_open_xor<S: AsRef<[usize]>>(
        &mut self,
        ch: &mut Channel,
        sets: &[S],
    ) -> Result<Vec<Block>> {
        self.verify_batch_open_sets(ch, sets)
    }

    /// [`Receiver::verify_batch_open_xor`] for items described by
    /// [`ItemSets`]. Our side of the check does not depend on the
    /// committer's messages, and the challenge is ours (drawn now, sent
    /// only after every message has arrived), so the combination of our
    /// rows is computed chunk by chunk while the messages stream in.
    pub fn verify_batch_open_sets<T: ItemSets + ?Sized>(
        &mut self,
        ch: &mut Channel,
        sets: &T,
    ) -> Result<Vec<Block>> {
        self.verify_batch_open_sets_then(ch, sets, || ())
    }

    /// [`Receiver::verify_batch_open_sets`] that runs `meanwhile` (local
    /// work that needs no opened value) after the challenge is sent, while
    /// the committer computes its answer.
    pub fn verify_batch_open_sets_then<T: ItemSets + ?Sized>(
        &mut self,
        ch: &mut Channel,
        sets: &T,
        meanwhile: impl FnOnce(),
    ) -> Result<Vec<Block>> {
        let n = sets.count();
        let mut chunk = Chunk::default();
        if let Some(id) = first_unknown(sets, self.verified(), &mut chunk) {
            return Err(Error::config(format!("unknown commitment id {id}")));
        }
        recv_count(ch, n, "batch opening")?;
        let alpha = self.prg.random_block();
        // calloc: fresh pages arrive zeroed (`vec!` would fill Block by Block).
        let mut ms: Vec<Block> = bytemuck::allocation::zeroed_vec(n);
        let mut got = Ok(());
        let rows = &self.state.w;
        let used = self.params.n().div_ceil(64);
        let w = combine_items_with(ROW_WORDS, self.params.n(), n, alpha, |range, out| {
            chunk.load(sets, range.clone());
            chunk.gather_rows(rows, used, out);
            if got.is_ok() {
                got = ch.recv_blocks(&mut ms[range]);
            }
        });
        got?;
        ch.send_block(alpha)?;
        ch.flush()?;
        let m = combine_item_msgs(&ms, alpha);
        meanwhile();
        let t = ch.recv_block_vec(self.params.n())?;
        self.check_combination(&w, &t, &m, "batch-decommit")?;
        Ok(ms)
    }

    /// Receives the opening of bit `bit` of the XOR of each set (see
    /// [`crate::Committer::open_bits`]); returns the bits. `blinders` must
    /// be the same s ids the committer uses; they are consumed.
    pub fn verify_open_bits<S: AsRef<[usize]>>(
        &mut self,
        ch: &mut Channel,
        sets: &[S],
        bit: usize,
        blinders: &[usize],
    ) -> Result<Vec<bool>> {
        let reps = self.params.blinders();
        check_bit_args(sets, bit, blinders, reps)?;
        let ws = sets
            .iter()
            .map(|s| self.item(s))
            .collect::<Result<Vec<Row>>>()?;
        let bw = blinders
            .iter()
            .map(|&b| self.item([b]))
            .collect::<Result<Vec<Row>>>()?;
        recv_count(ch, sets.len(), "bit opening")?;
        let claims = ch.recv_bits(sets.len() + reps)?;
        let seed = self.prg.random_block();
        ch.send_block(seed)?;
        let rows = challenge_rows(seed, sets.len(), reps);
        recv_count(ch, reps, "bit opening combinations")?;
        let n = self.params.n();
        let ob = opening_bytes(n);
        let mut bytes = vec![0u8; reps * ob];
        ch.recv_bytes(&mut bytes)?;
        for (l, r) in rows.iter().enumerate() {
            let (m, t) = get_opening(&bytes[l * ob..(l + 1) * ob], n)?;
            let mut w = bw[l];
            let mut claim = claims[sets.len() + l];
            for (q, &take) in r.iter().enumerate() {
                if take {
                    w = xor_rows(&w, &ws[q]);
                    claim ^= claims[q];
                }
            }
            self.verify_one(&w, m, &t)?;
            if m.bit(bit) != claim {
                return Err(Error::Cheating { check: "bit-open" });
            }
        }
        Ok(claims[..sets.len()].to_vec())
    }
}
