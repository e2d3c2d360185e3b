//! Openings, receiver side. Every check compares the opened share against
//! `w = t ⊕ (Δ_R ∧ C(m))`: a committer who opens a different codeword must
//! guess Δ_R on the ≥ D positions where the two codewords differ.

use crate::code::{code, xor_rows, Row};
use crate::open_committer::{challenge_rows, check_bit_args};
use crate::par;
use crate::params::{K, N, ROW_WORDS, S};
use crate::receiver::Receiver;
use crate::sliced::{combine_item_msgs, combine_item_rows};
use crate::wire::{get_opening, recv_count, OPENING_BYTES};
use brickyard_core::{Block, Channel, Error, Result};

impl Receiver {
    /// `⊕ w_i` over the ids of one set.
    fn item<S: AsRef<[usize]>>(&self, set: S) -> Result<Row> {
        let mut w = [0u64; ROW_WORDS];
        for &id in set.as_ref() {
            let wi = self
                .state
                .w
                .get(id)
                .ok_or_else(|| Error::config(format!("unknown commitment id {id}")))?;
            w = xor_rows(&w, wi);
        }
        Ok(w)
    }

    /// Verifies one opening `(m, t)` of an item with our `w`.
    fn verify_one(&self, w: &Row, m: Block, t: &Row) -> Result<()> {
        let c = code().encode(m);
        let expect = xor_rows(w, t);
        let masked: Row = std::array::from_fn(|i| c[i] & self.state.watch[i]);
        if expect == masked {
            Ok(())
        } else {
            Err(Error::Cheating { check: "decommit" })
        }
    }

    /// Receives and verifies the openings of `ids`; returns the values.
    pub fn verify_open(&self, ch: &mut Channel, ids: &[usize]) -> Result<Vec<Block>> {
        let sets: Vec<[usize; 1]> = ids.iter().map(|&i| [i]).collect();
        self.verify_open_xor(ch, &sets)
    }

    /// Receives and verifies, for each set, the opening of the XOR of its
    /// commitments; returns the XORed values.
    pub fn verify_open_xor<S: AsRef<[usize]> + Sync>(
        &self,
        ch: &mut Channel,
        sets: &[S],
    ) -> Result<Vec<Block>> {
        for s in sets {
            self.item(s)?;
        }
        recv_count(ch, sets.len(), "opening")?;
        let mut bytes = vec![0u8; sets.len() * OPENING_BYTES];
        ch.recv_bytes(&mut bytes)?;
        let ranges = par::partition(sets.len(), self.threads);
        let parts = par::run(&ranges, vec![(); ranges.len()], |r, ()| {
            r.map(|q| {
                let (m, t) = get_opening(&bytes[q * OPENING_BYTES..(q + 1) * OPENING_BYTES])?;
                self.verify_one(&self.item(&sets[q])?, m, &t)?;
                Ok(m)
            })
            .collect::<Result<Vec<Block>>>()
        });
        let mut out = Vec::with_capacity(sets.len());
        for p in parts {
            out.extend(p?);
        }
        Ok(out)
    }

    /// Receives a batch opening of `ids` (messages, then one combination of
    /// the shares for our random challenge); returns the values.
    pub fn verify_batch_open(&mut self, ch: &mut Channel, ids: &[usize]) -> Result<Vec<Block>> {
        let sets: Vec<[usize; 1]> = ids.iter().map(|&i| [i]).collect();
        self.verify_batch_open_xor(ch, &sets)
    }

    /// [`Receiver::verify_batch_open`] for XORs of sets of commitments.
    pub fn verify_batch_open_xor<S: AsRef<[usize]>>(
        &mut self,
        ch: &mut Channel,
        sets: &[S],
    ) -> Result<Vec<Block>> {
        let ws = sets
            .iter()
            .map(|s| self.item(s))
            .collect::<Result<Vec<Row>>>()?;
        recv_count(ch, sets.len(), "batch opening")?;
        let ms = ch.recv_block_vec(sets.len())?;
        let alpha = self.prg.random_block();
        ch.send_block(alpha)?;
        let t = ch.recv_block_vec(N)?;
        let w = combine_item_rows(&ws, alpha);
        let m = combine_item_msgs(&ms, alpha);
        self.check_combination(&w[..N], &t, &m[..K], "batch-decommit")?;
        Ok(ms)
    }

    /// Receives the opening of bit `bit` of the XOR of each set (see
    /// [`crate::Committer::open_bits`]); returns the bits. `blinders` must
    /// be the same S ids the committer uses; they are consumed.
    pub fn verify_open_bits<S: AsRef<[usize]>>(
        &mut self,
        ch: &mut Channel,
        sets: &[S],
        bit: usize,
        blinders: &[usize],
    ) -> Result<Vec<bool>> {
        check_bit_args(sets, bit, blinders)?;
        let ws = sets
            .iter()
            .map(|s| self.item(s))
            .collect::<Result<Vec<Row>>>()?;
        let bw = blinders
            .iter()
            .map(|&b| self.item([b]))
            .collect::<Result<Vec<Row>>>()?;
        recv_count(ch, sets.len(), "bit opening")?;
        let claims = ch.recv_bits(sets.len() + S)?;
        let seed = self.prg.random_block();
        ch.send_block(seed)?;
        let rows = challenge_rows(seed, sets.len());
        recv_count(ch, S, "bit opening combinations")?;
        let mut bytes = vec![0u8; S * OPENING_BYTES];
        ch.recv_bytes(&mut bytes)?;
        for (l, r) in rows.iter().enumerate() {
            let (m, t) = get_opening(&bytes[l * OPENING_BYTES..(l + 1) * OPENING_BYTES])?;
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
