//! Openings, committer side: plain and XOR openings, batch opening, and
//! opening single bits (docs/protocols/commitments.md, "Open").
//!
//! Everything is linear: the opening of `c_a ⊕ c_b` is `(m_a ⊕ m_b, t_a ⊕ t_b)`
//! and is checked against `w_a ⊕ w_b`, so every function here works on
//! "items", each the XOR of a set of commitment ids.

use crate::code::{xor_rows, Row};
use crate::committer::Committer;
use crate::params::ROW_WORDS;
use crate::sets::{first_unknown, pieces, Chunk, ItemSets, PIECE};
use crate::sliced::combine_items_with;
use crate::wire::{opening_bytes, put_opening, send_count, singletons, write_opening, OPEN_PIECE};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use zeroize::Zeroize;

impl Committer {
    /// `(⊕ m_i, ⊕ t_i)` over the ids of one set.
    pub(crate) fn item<S: AsRef<[usize]>>(&self, set: S) -> Result<(Block, Row)> {
        let mut m = Block::ZERO;
        let mut t = [0u64; ROW_WORDS];
        for &id in set.as_ref() {
            let (mi, ti) = match (self.state.msgs.get(id), self.state.t.get(id)) {
                (Some(m), Some(t)) => (m, t),
                _ => return Err(Error::config(format!("unknown commitment id {id}"))),
            };
            m ^= *mi;
            t = xor_rows(&t, ti);
        }
        Ok((m, t))
    }

    fn items<S: AsRef<[usize]>>(&self, sets: &[S]) -> Result<(Vec<Block>, Vec<Row>)> {
        let mut ms = Vec::with_capacity(sets.len());
        let mut ts = Vec::with_capacity(sets.len());
        for s in sets {
            let (m, t) = self.item(s)?;
            ms.push(m);
            ts.push(t);
        }
        Ok((ms, ts))
    }

    /// Opens commitments: sends `(m_i, t_i)` for each id (K + N bits each).
    pub fn open(&self, ch: &mut Channel, ids: &[usize]) -> Result<()> {
        self.open_xor(ch, singletons(ids))
    }

    /// Opens, for each set, the XOR of its commitments (XOR-homomorphism):
    /// the peer learns only the XOR.
    ///
    /// Streams: the openings are written piece by piece into one reused
    /// buffer of [`OPEN_PIECE`] slots and sent as they are built, so memory
    /// traffic stays in cache and no opening-sized buffer is allocated or
    /// zero-filled. The buffer is not zeroized: it holds exactly what the
    /// peer receives.
    pub fn open_xor<S: AsRef<[usize]>>(&self, ch: &mut Channel, sets: &[S]) -> Result<()> {
        self.check_ids(sets)?;
        send_count(ch, sets.len())?;
        let ob = opening_bytes(self.params.n());
        let mut buf = vec![0u8; sets.len().min(OPEN_PIECE) * ob];
        for piece in sets.chunks(OPEN_PIECE) {
            let buf = &mut buf[..piece.len() * ob];
            for (s, slot) in piece.iter().zip(buf.chunks_exact_mut(ob)) {
                let (m, t) = self.item_unchecked(s.as_ref());
                write_opening(slot, m, &t);
            }
            ch.send_bytes(buf)?;
        }
        ch.flush()
    }

    /// Refuses any id that is not a commitment (before anything is sent).
    fn check_ids<S: AsRef<[usize]>>(&self, sets: &[S]) -> Result<()> {
        let n = self.state.msgs.len();
        match sets.iter().flat_map(|s| s.as_ref()).find(|&&id| id >= n) {
            Some(id) => Err(Error::config(format!("unknown commitment id {id}"))),
            None => Ok(()),
        }
    }

    /// `(⊕ m_i, ⊕ t_i)` over ids already checked by [`Committer::check_ids`].
    #[inline]
    fn item_unchecked(&self, set: &[usize]) -> (Block, Row) {
        let mut m = Block::ZERO;
        let mut t = [0u64; ROW_WORDS];
        for &id in set {
            m ^= self.state.msgs[id];
            t = xor_rows(&t, &self.state.t[id]);
        }
        (m, t)
    }

    /// Batch opening: sends the messages only (K bits each), then one
    /// GF(2^128) combination of the shares chosen by the receiver (N Blocks
    /// in total), so the cost per opened value is K bits plus a constant.
    pub fn batch_open(&self, ch: &mut Channel, ids: &[usize]) -> Result<()> {
        self.batch_open_xor(ch, singletons(ids))
    }

    /// [`Committer::batch_open`] for XORs of sets of commitments.
    pub fn batch_open_xor<S: AsRef<[usize]>>(&self, ch: &mut Channel, sets: &[S]) -> Result<()> {
        self.batch_open_sets(ch, sets)
    }

    /// [`Committer::batch_open_xor`] for items described by [`ItemSets`]
    /// (no list of sets is built). Messages go out chunk by chunk as they
    /// are gathered; after the challenge the shares are gathered chunk by
    /// chunk into the combination's buffer (no share-sized copy of the
    /// opened items).
    pub fn batch_open_sets<T: ItemSets + ?Sized>(&self, ch: &mut Channel, sets: &T) -> Result<()> {
        let n = sets.count();
        let mut chunk = Chunk::default();
        // Every id is checked before anything is sent.
        if let Some(id) = first_unknown(sets, self.state.msgs.len(), &mut chunk) {
            return Err(Error::config(format!("unknown commitment id {id}")));
        }
        send_count(ch, n)?;
        let mut ms = vec![Block::ZERO; n.min(PIECE)];
        for r in pieces(n) {
            let ms = &mut ms[..r.len()];
            chunk.load(sets, r);
            chunk.gather_msgs(&self.state.msgs, ms);
            ch.send_blocks(ms)?;
        }
        ms.zeroize();
        let alpha = ch.recv_block()?;
        let used = self.params.n().div_ceil(64);
        let mut comb = combine_items_with(ROW_WORDS, self.params.n(), n, alpha, |range, out| {
            chunk.load(sets, range);
            chunk.gather_rows(&self.state.t, used, out);
        });
        ch.send_blocks(&comb)?;
        comb.zeroize();
        ch.flush()
    }

    /// Opens bit `bit` (0 = lsb) of the XOR of each set, hiding the other
    /// bits. `blinders` are s ([`CommitParams::blinders`](crate::params::CommitParams::blinders))
    /// commitments to random values that are
    /// consumed (their other bits must never be revealed; pass fresh ids
    /// from [`Committer::commit_random`]). This is the commitment-level form
    /// of LEGO's "VerLeak": the receiver checks s random binary combinations,
    /// each masked by one blinder and opened in full.
    pub fn open_bits<S: AsRef<[usize]>>(
        &self,
        ch: &mut Channel,
        sets: &[S],
        bit: usize,
        blinders: &[usize],
    ) -> Result<()> {
        self.open_bits_claiming(ch, sets, bit, blinders, None)
    }

    /// [`Committer::open_bits`] with the claimed bit of set `lie` flipped
    /// while every combination is opened honestly: the receiver's
    /// `bit-open` check must catch it (feature `adversary` only).
    #[cfg(feature = "adversary")]
    pub fn open_bits_lying<S: AsRef<[usize]>>(
        &self,
        ch: &mut Channel,
        sets: &[S],
        bit: usize,
        blinders: &[usize],
        lie: usize,
    ) -> Result<()> {
        self.open_bits_claiming(ch, sets, bit, blinders, Some(lie))
    }

    fn open_bits_claiming<S: AsRef<[usize]>>(
        &self,
        ch: &mut Channel,
        sets: &[S],
        bit: usize,
        blinders: &[usize],
        lie: Option<usize>,
    ) -> Result<()> {
        let reps = self.params.blinders();
        check_bit_args(sets, bit, blinders, reps)?;
        let (mut ms, mut ts) = self.items(sets)?;
        let (mut bm, mut bt) = self.items(&blinders.iter().map(|&b| [b]).collect::<Vec<_>>())?;
        let mut claims: Vec<bool> = ms.iter().chain(&bm).map(|m| m.bit(bit)).collect();
        if let Some(c) = lie.and_then(|i| claims.get_mut(i)) {
            *c = !*c;
        }
        send_count(ch, sets.len())?;
        ch.send_bits(&claims)?;
        let seed = ch.recv_block()?;
        let rows = challenge_rows(seed, sets.len(), reps);
        let n = self.params.n();
        let mut buf = Vec::with_capacity(reps * opening_bytes(n));
        for (l, r) in rows.iter().enumerate() {
            let (mut m, mut t) = (bm[l], bt[l]);
            for (q, &take) in r.iter().enumerate() {
                if take {
                    m ^= ms[q];
                    t = xor_rows(&t, &ts[q]);
                }
            }
            put_opening(&mut buf, n, m, &t);
        }
        send_count(ch, reps)?;
        ch.send_bytes(&buf)?;
        for v in [&mut ms, &mut bm] {
            v.zeroize();
        }
        ts.zeroize();
        bt.zeroize();
        buf.zeroize();
        ch.flush()
    }
}

/// Argument checks shared by both sides of the bit opening.
pub(crate) fn check_bit_args<S: AsRef<[usize]>>(
    sets: &[S],
    bit: usize,
    blinders: &[usize],
    reps: usize,
) -> Result<()> {
    if bit >= 128 {
        return Err(Error::config(format!("bit {bit} out of range")));
    }
    let mut b = blinders.to_vec();
    b.sort_unstable();
    b.dedup();
    if b.len() != reps || blinders.len() != reps {
        return Err(Error::config(format!("need {reps} distinct blinder ids")));
    }
    if sets
        .iter()
        .any(|s| s.as_ref().iter().any(|id| b.binary_search(id).is_ok()))
    {
        return Err(Error::config("a blinder id also appears in an opened set"));
    }
    Ok(())
}

/// The `reps` (= s) challenge rows (one bit per opened item) derived from
/// the receiver's seed; both parties expand it the same way.
pub(crate) fn challenge_rows(seed: Block, items: usize, reps: usize) -> Vec<Vec<bool>> {
    let mut prg = Prg::from_seed(seed);
    (0..reps).map(|_| prg.random_bits(items)).collect()
}
