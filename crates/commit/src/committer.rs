//! The committer: setup (n base OTs as OT sender) and commit batches.
//!
//! A batch of γ commitments occupies `ceil(γ/128) + 2` blocks of the PRG
//! streams: the real blocks, then one dummy block per consistency-check
//! combination, which masks the opened combination and is never used again.
//! Flow (docs/protocols/commitments.md, "Commit"):
//!
//! 1. header, then the corrections, chunk by chunk (wave by wave);
//! 2. receive the challenges α_1, α_2;
//! 3. send Σ coef·t and Σ coef·m for each challenge (bit-sliced, GF(2^128)),
//!    and transpose the batch into per-commitment material.

#[cfg(test)]
use crate::cheat::Cheat;
use crate::code::{code, Row};
use crate::material::CommitterState;
use crate::par;
use crate::params::{CHECK_COMBINATIONS, CHUNK_BLOCKS, K, N, PARITY};
use crate::sliced::{combine_rows, msgs_of_block, prg_row, rows_of_block, slice_msgs};
use crate::wire::CommitHeader;
use brickyard_core::aes::Aes128;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use std::ops::Range;
use zeroize::Zeroize;

/// Chunks each thread processes per wave: large enough to amortise thread
/// start-up, small enough that the receiver starts while we compute.
const WAVE_CHUNKS_PER_THREAD: usize = 8;

/// The committing party. Holds secrets; see [`CommitterState`].
pub struct Committer {
    pub(crate) state: CommitterState,
    aes0: Vec<Aes128>,
    aes1: Vec<Aes128>,
    pub(crate) threads: usize,
    #[cfg(test)]
    pub(crate) cheat: Cheat,
}

impl std::fmt::Debug for Committer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Committer {{ {:?}, threads: {} }}",
            self.state, self.threads
        )
    }
}

/// Per-chunk inputs of the first pass.
struct Batch<'a> {
    first_block: u64,
    real_blocks: usize,
    total_blocks: usize,
    count: usize,
    msgs: Option<&'a [Block]>,
}

impl Committer {
    /// Runs the N base OTs as OT sender: the committer learns both seeds of
    /// every position, the receiver one of each (its watch bits).
    pub fn setup(ch: &mut Channel, prg: &mut Prg) -> Result<Committer> {
        let mut keys = brickyard_ot::base::send_random(ch, prg, N)?;
        ch.flush()?;
        let state = CommitterState {
            seeds0: keys.iter().map(|k| k.0).collect(),
            seeds1: keys.iter().map(|k| k.1).collect(),
            next_block: 0,
            msgs: Vec::new(),
            t: Vec::new(),
        };
        for k in keys.iter_mut() {
            k.0.zeroize();
            k.1.zeroize();
        }
        Committer::from_state(state)
    }

    /// Resumes a session from stored state (no new base OTs).
    pub fn from_state(state: CommitterState) -> Result<Committer> {
        if state.seeds0.len() != N || state.seeds1.len() != N || state.msgs.len() != state.t.len() {
            return Err(Error::Storage("committer state has the wrong shape".into()));
        }
        Ok(Committer {
            aes0: state.seeds0.iter().map(|&s| Aes128::new(s)).collect(),
            aes1: state.seeds1.iter().map(|&s| Aes128::new(s)).collect(),
            state,
            threads: 1,
            #[cfg(test)]
            cheat: Cheat::None,
        })
    }

    /// Uses `threads` worker threads for the local computation (results do
    /// not depend on it; the peer may use a different number).
    pub fn with_threads(mut self, threads: usize) -> Committer {
        self.threads = threads.max(1);
        self
    }

    /// The session state, for persisting it.
    pub fn state(&self) -> &CommitterState {
        &self.state
    }

    /// Number of commitments made so far (ids are `0..len()`).
    pub fn len(&self) -> usize {
        self.state.msgs.len()
    }

    /// Whether no commitment has been made yet.
    pub fn is_empty(&self) -> bool {
        self.state.msgs.is_empty()
    }

    /// The committed value of commitment `id`.
    pub fn value(&self, id: usize) -> Option<Block> {
        self.state.msgs.get(id).copied()
    }

    /// The committed values of a range of ids.
    pub fn values(&self, ids: Range<usize>) -> Option<&[Block]> {
        self.state.msgs.get(ids)
    }

    /// Commits to chosen messages; returns their ids. Costs N bits of
    /// correction per commitment.
    pub fn commit(&mut self, ch: &mut Channel, msgs: &[Block]) -> Result<Range<usize>> {
        self.commit_batch(ch, msgs.len(), Some(msgs))
    }

    /// Commits to `count` random values (read them with [`Committer::values`]);
    /// costs N − K bits per commitment. This is the cheap mode LEGO uses:
    /// commit to random values, later open differences to what is needed.
    pub fn commit_random(&mut self, ch: &mut Channel, count: usize) -> Result<Range<usize>> {
        self.commit_batch(ch, count, None)
    }

    fn commit_batch(
        &mut self,
        ch: &mut Channel,
        count: usize,
        msgs: Option<&[Block]>,
    ) -> Result<Range<usize>> {
        let first_id = self.len();
        let real_blocks = count.div_ceil(128);
        let total_blocks = real_blocks + CHECK_COMBINATIONS;
        let batch = Batch {
            first_block: self.state.next_block,
            real_blocks,
            total_blocks,
            count,
            msgs,
        };
        ch.send_msg(&CommitHeader {
            count: count as u64,
            chosen: msgs.is_some(),
            first_block: batch.first_block,
        })?;
        let corr_rows = if msgs.is_some() { N } else { PARITY };
        let nchunks = total_blocks.div_ceil(CHUNK_BLOCKS);
        let stride = (N + K) * CHUNK_BLOCKS;
        let mut sliced = crate::alloc::zeroed_blocks(nchunks * stride);

        // Pass 1: PRG rows, messages, parity, corrections; sent wave by wave.
        let wave = WAVE_CHUNKS_PER_THREAD * self.threads;
        let mut wire = vec![Block::ZERO; (wave * CHUNK_BLOCKS).min(total_blocks) * corr_rows];
        for w0 in (0..nchunks).step_by(wave) {
            let w1 = (w0 + wave).min(nchunks);
            let ranges = par::partition(w1 - w0, self.threads);
            let blocks = (w1 * CHUNK_BLOCKS).min(total_blocks) - w0 * CHUNK_BLOCKS;
            let wire = &mut wire[..blocks * corr_rows];
            let outs = par::split_by(wire, &ranges, |c| c * CHUNK_BLOCKS * corr_rows);
            let store = par::split_by(&mut sliced[w0 * stride..w1 * stride], &ranges, |c| {
                c * stride
            });
            let items: Vec<_> = outs.into_iter().zip(store).collect();
            par::run(&ranges, items, |r, (out, store)| {
                for (i, c) in r.clone().enumerate() {
                    let c = w0 + c;
                    let nb = chunk_len(c, total_blocks);
                    let out_len = out.len();
                    let o = i * CHUNK_BLOCKS * corr_rows;
                    let out = &mut out[o..(o + nb * corr_rows).min(out_len)];
                    self.pass1_chunk(&batch, c, &mut store[i * stride..(i + 1) * stride], out);
                }
            });
            #[cfg(test)]
            self.cheat_corrections(w0, wire, corr_rows, total_blocks);
            ch.send_blocks(wire)?;
        }
        sliced_check_and_store(self, ch, &batch, &sliced, first_id)?;
        sliced.zeroize();
        self.state.next_block += total_blocks as u64;
        Ok(first_id..first_id + count)
    }

    /// First pass over chunk `c`: fills the chunk's T0 rows (N) and message
    /// rows (K), and writes its corrections (row-major, `nb` Blocks per row).
    fn pass1_chunk(&self, batch: &Batch, c: usize, store: &mut [Block], out: &mut [Block]) {
        let nb = chunk_len(c, batch.total_blocks);
        let ctr = batch.first_block + (c * CHUNK_BLOCKS) as u64;
        let (t0, m) = store.split_at_mut(N * CHUNK_BLOCKS);
        let mut t1 = [Block::ZERO; CHUNK_BLOCKS];
        let first_corr = N - out.len() / nb.max(1);
        // Chosen messages, bit-sliced per block, with a lane mask: lanes
        // without a message (padding, dummy blocks) keep the random value.
        let given: Vec<Option<([Block; K], Block)>> = (0..nb)
            .map(|b| {
                let r = c * CHUNK_BLOCKS + b;
                let msgs = batch.msgs?;
                if r >= batch.real_blocks {
                    return None;
                }
                let lanes = &msgs[r * 128..(r * 128 + 128).min(batch.count)];
                let mask = if lanes.len() == 128 {
                    Block::ONES
                } else {
                    Block((1u128 << lanes.len()) - 1)
                };
                Some((slice_msgs(lanes), mask))
            })
            .collect();
        for j in 0..K {
            let row0 = &mut t0[j * CHUNK_BLOCKS..j * CHUNK_BLOCKS + nb];
            prg_row(&self.aes0[j], ctr, row0);
            prg_row(&self.aes1[j], ctr, &mut t1[..nb]);
            let mrow = &mut m[j * CHUNK_BLOCKS..j * CHUNK_BLOCKS + nb];
            for b in 0..nb {
                let x = row0[b] ^ t1[b];
                mrow[b] = match &given[b] {
                    Some((g, mask)) => (g[j] & *mask) ^ (x & !*mask),
                    None => x,
                };
                if first_corr == 0 {
                    out[j * nb + b] = mrow[b] ^ x;
                }
            }
        }
        let mut parity = vec![Block::ZERO; PARITY * CHUNK_BLOCKS];
        code().parity_sliced(m, &mut parity, CHUNK_BLOCKS);
        for l in 0..PARITY {
            let j = K + l;
            let row0 = &mut t0[j * CHUNK_BLOCKS..j * CHUNK_BLOCKS + nb];
            prg_row(&self.aes0[j], ctr, row0);
            prg_row(&self.aes1[j], ctr, &mut t1[..nb]);
            let o = (j - first_corr) * nb;
            for b in 0..nb {
                out[o + b] = parity[l * CHUNK_BLOCKS + b] ^ row0[b] ^ t1[b];
            }
        }
        parity.zeroize();
        t1.zeroize();
    }
}

/// Blocks in chunk `c` of a batch of `total` blocks.
pub(crate) fn chunk_len(c: usize, total: usize) -> usize {
    (total - c * CHUNK_BLOCKS).min(CHUNK_BLOCKS)
}

/// Check coefficients: real block r gets α_a^(r+1); dummy block a gets 1 in
/// combination a and 0 in the others.
pub(crate) fn check_coefficients(alphas: &[Block], real_blocks: usize) -> Vec<Vec<Block>> {
    alphas
        .iter()
        .enumerate()
        .map(|(a, &alpha)| {
            let mut v = crate::sliced::powers(alpha, 1, real_blocks);
            v.extend((0..alphas.len()).map(|d| if d == a { Block(1) } else { Block::ZERO }));
            v
        })
        .collect()
}

/// Pass 2: receive the challenges, combine, transpose into material, send.
fn sliced_check_and_store(
    me: &mut Committer,
    ch: &mut Channel,
    batch: &Batch,
    sliced: &[Block],
    first_id: usize,
) -> Result<()> {
    let mut alphas = [Block::ZERO; CHECK_COMBINATIONS];
    ch.recv_blocks(&mut alphas)?;
    let coef = check_coefficients(&alphas, batch.real_blocks);
    let stride = (N + K) * CHUNK_BLOCKS;
    let nchunks = batch.total_blocks.div_ceil(CHUNK_BLOCKS);
    debug_assert_eq!(me.state.msgs.len(), first_id);
    let mut new_msgs = crate::alloc::zeroed_blocks(batch.count);
    let mut new_t = crate::alloc::zeroed_rows(batch.count);
    let ranges = par::partition(nchunks, me.threads);
    let per_chunk = CHUNK_BLOCKS * 128;
    let msgs = par::split_by(&mut new_msgs, &ranges, |c| c * per_chunk);
    let ts = par::split_by(&mut new_t, &ranges, |c| c * per_chunk);
    let items: Vec<(&mut [Block], &mut [Row])> = msgs.into_iter().zip(ts).collect();
    let partials = par::run(&ranges, items, |r, (msgs, ts)| {
        let mut acc = vec![Block::ZERO; CHECK_COMBINATIONS * (N + K)];
        for (i, c) in r.enumerate() {
            let chunk = &sliced[c * stride..(c + 1) * stride];
            let nb = chunk_len(c, batch.total_blocks);
            let blocks = c * CHUNK_BLOCKS..c * CHUNK_BLOCKS + nb;
            for (a, acc) in acc.chunks_exact_mut(N + K).enumerate() {
                combine_rows(chunk, CHUNK_BLOCKS, &coef[a][blocks.clone()], acc);
            }
            for b in 0..nb {
                let rb = c * CHUNK_BLOCKS + b;
                if rb >= batch.real_blocks {
                    break;
                }
                let lanes = (batch.count - rb * 128).min(128);
                let at = (i * CHUNK_BLOCKS + b) * 128;
                let mut rows = rows_of_block(chunk, CHUNK_BLOCKS, N, b);
                ts[at..at + lanes].copy_from_slice(&rows[..lanes]);
                rows.zeroize();
                let mut m = msgs_of_block(&chunk[N * CHUNK_BLOCKS..], CHUNK_BLOCKS, b);
                msgs[at..at + lanes].copy_from_slice(&m[..lanes]);
                m.zeroize();
            }
        }
        acc
    });
    crate::alloc::append(&mut me.state.msgs, new_msgs);
    crate::alloc::append(&mut me.state.t, new_t);
    let mut resp = vec![Block::ZERO; CHECK_COMBINATIONS * (N + K)];
    for p in partials {
        crate::sliced::xor_into(&mut resp, &p);
    }
    #[cfg(test)]
    me.cheat_response(&mut resp);
    ch.send_blocks(&resp)?;
    ch.flush()
}
