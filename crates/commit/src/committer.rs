//! The committer: setup (n base OTs as OT sender) and commit batches.
//!
//! A batch of γ commitments occupies `ceil(γ/128) + 2` blocks of the PRG
//! streams: the real blocks, then one dummy block per consistency-check
//! combination, which masks the opened combination and is never used again.
//! Flow (docs/protocols/commitments.md, "Commit"):
//!
//! 1. header, then the corrections, chunk by chunk (wave by wave); each
//!    chunk's T0 and M rows are transposed into the stored material while
//!    they are in cache;
//! 2. receive the challenges α_1, α_2;
//! 3. send Σ coef·t and Σ coef·m for each challenge (bit-sliced, GF(2^128),
//!    one reduction per position), regenerating T0 and M from the PRG
//!    chunk by chunk instead of keeping the batch's bit-sliced rows.

#[cfg(test)]
use crate::cheat::Cheat;
use crate::code::Row;
use crate::material::CommitterState;
use crate::par;
use crate::params::{CommitParams, CHUNK_BLOCKS, K};
use crate::sliced::{prg_row, slice_msgs, store_msgs, store_rows};
use crate::wire::CommitHeader;
use brickyard_core::aes::Aes128;
use brickyard_core::gf128::{gf_mul_acc_rows, GfWide};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use std::ops::Range;
use zeroize::{Zeroize, Zeroizing};

/// Chunks each thread processes per wave: large enough to amortise thread
/// start-up, small enough that the receiver starts while we compute.
const WAVE_CHUNKS_PER_THREAD: usize = 8;

/// The committing party. Holds secrets; see [`CommitterState`].
pub struct Committer {
    pub(crate) state: CommitterState,
    /// The code and repetition counts, from s (both parties use the same).
    pub(crate) params: CommitParams,
    aes0: Vec<Aes128>,
    aes1: Vec<Aes128>,
    pub(crate) threads: usize,
    /// First blocks of started, unfinished batches, in order.
    pending: std::collections::VecDeque<u64>,
    /// Working buffers kept between batches (wiped after each use): fresh
    /// ones cost a page fault per 4 KB, which on this class of machine is
    /// as much as the work done in them.
    spare: Vec<Scratch>,
    wire: Vec<Block>,
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

/// A commit batch whose corrections are sent and whose consistency check
/// is still to run ([`Committer::commit_finish`]).
#[derive(Debug)]
#[must_use = "a commit batch must be finished"]
pub struct PendingCommit {
    first_id: usize,
    first_block: u64,
    count: usize,
    chosen: bool,
}

impl PendingCommit {
    /// Ids of the batch's commitments.
    pub fn ids(&self) -> Range<usize> {
        self.first_id..self.first_id + self.count
    }
}

/// One commit batch: its place in the PRG streams and its messages.
struct Batch<'a> {
    first_block: u64,
    real_blocks: usize,
    total_blocks: usize,
    count: usize,
    msgs: Option<&'a [Block]>,
}

impl Batch<'_> {
    /// Real commitments in chunk `c` (0 for a chunk of dummy blocks only).
    fn items_in(&self, c: usize) -> Range<usize> {
        let per = CHUNK_BLOCKS * 128;
        (c * per).min(self.count)..((c + 1) * per).min(self.count)
    }
}

/// One thread's working set: the bit-sliced rows of one chunk (T0: N rows,
/// M: K rows, T1: one row, parity: PARITY rows, `CHUNK_BLOCKS` Blocks each;
/// ~300 KB, L2-resident) and its share of the check sums.
struct Scratch {
    t0: Vec<Block>,
    m: Vec<Block>,
    t1: Vec<Block>,
    parity: Vec<Block>,
    acc: Vec<GfWide>,
}

impl Scratch {
    fn new(p: &CommitParams) -> Scratch {
        Scratch {
            t0: vec![Block::ZERO; p.n() * CHUNK_BLOCKS],
            m: vec![Block::ZERO; K * CHUNK_BLOCKS],
            t1: vec![Block::ZERO; CHUNK_BLOCKS],
            parity: vec![Block::ZERO; p.parity() * CHUNK_BLOCKS],
            acc: vec![GfWide::default(); p.checks() * (p.n() + K)],
        }
    }
}

impl Scratch {
    /// Zeroes every buffer in place (the allocation is kept for reuse).
    fn wipe(&mut self) {
        for v in [&mut self.t0, &mut self.m, &mut self.t1, &mut self.parity] {
            v.iter_mut().for_each(|b| *b = Block::ZERO);
        }
        self.acc.iter_mut().for_each(|a| *a = GfWide::default());
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.t0.zeroize();
        self.m.zeroize();
        self.t1.zeroize();
        self.parity.zeroize();
        self.acc.zeroize();
    }
}

impl Committer {
    /// Runs the N base OTs as OT sender (N from `params`, which the
    /// receiver must share): the committer learns both seeds of every
    /// position, the receiver one of each (its watch bits).
    pub fn setup(ch: &mut Channel, prg: &mut Prg, params: CommitParams) -> Result<Committer> {
        let keys = brickyard_ot::base::send_random(ch, prg, params.n())?;
        ch.flush()?;
        Committer::from_base(keys, params)
    }

    /// The session from base OTs already run (this party their sender, N
    /// of them for `params`), for a caller that runs them together with
    /// base OTs the other way (`brickyard_ot::base::exchange_random`).
    /// `Config` if there are not N.
    pub fn from_base(mut keys: Vec<(Block, Block)>, params: CommitParams) -> Result<Committer> {
        if keys.len() != params.n() {
            keys.zeroize();
            return Err(Error::config("commitments: one base OT per code position"));
        }
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
        Committer::from_state(state, params)
    }

    /// Resumes a session from stored state (no new base OTs), made with
    /// the same `params`.
    pub fn from_state(state: CommitterState, params: CommitParams) -> Result<Committer> {
        let n = params.n();
        if state.seeds0.len() != n || state.seeds1.len() != n || state.msgs.len() != state.t.len() {
            return Err(Error::Storage(format!(
                "committer state has the wrong shape for {params:?}"
            )));
        }
        Ok(Committer {
            params,
            aes0: state.seeds0.iter().map(|&s| Aes128::new(s)).collect(),
            aes1: state.seeds1.iter().map(|&s| Aes128::new(s)).collect(),
            state,
            threads: 1,
            pending: Default::default(),
            spare: Vec::new(),
            wire: Vec::new(),
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

    /// The parameters (code, repetitions) of this session.
    pub fn params(&self) -> &CommitParams {
        &self.params
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

    /// Makes room for `count` more commitments, so that the next batches
    /// (up to that many in total) are written in place instead of growing
    /// the session's vectors by a copy.
    pub fn reserve(&mut self, count: usize) {
        self.state.msgs.reserve_exact(count);
        self.state.t.reserve_exact(count);
        // Megabytes written once in order and gathered at random by batch
        // openings: huge pages fault in and translate far fewer times.
        brickyard_core::hugepage::advise_huge(&self.state.msgs);
        brickyard_core::hugepage::advise_huge(&self.state.t);
    }

    /// Commits to chosen messages; returns their ids. Costs N bits of
    /// correction per commitment.
    pub fn commit(&mut self, ch: &mut Channel, msgs: &[Block]) -> Result<Range<usize>> {
        let p = self.commit_start(ch, msgs)?;
        self.commit_finish(ch, p)
    }

    /// Commits to `count` random values (read them with [`Committer::values`]);
    /// costs N − K bits per commitment. This is the cheap mode LEGO uses:
    /// commit to random values, later open differences to what is needed.
    pub fn commit_random(&mut self, ch: &mut Channel, count: usize) -> Result<Range<usize>> {
        let p = self.commit_random_start(ch, count)?;
        self.commit_finish(ch, p)
    }

    /// First half of [`Committer::commit`]: sends the corrections; the
    /// values are committed (and readable) from here on. The consistency
    /// check follows in [`Committer::commit_finish`], so the caller can
    /// send other messages (or start another batch) while the receiver
    /// works through the corrections. Pending batches finish in order.
    pub fn commit_start(&mut self, ch: &mut Channel, msgs: &[Block]) -> Result<PendingCommit> {
        self.commit_batch(ch, msgs.len(), Some(msgs))
    }

    /// First half of [`Committer::commit_random`] (see [`Committer::commit_start`]).
    pub fn commit_random_start(&mut self, ch: &mut Channel, count: usize) -> Result<PendingCommit> {
        self.commit_batch(ch, count, None)
    }

    fn commit_batch(
        &mut self,
        ch: &mut Channel,
        count: usize,
        msgs: Option<&[Block]>,
    ) -> Result<PendingCommit> {
        let first_id = self.len();
        let real_blocks = count.div_ceil(128);
        let total_blocks = real_blocks + self.params.checks();
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
        let (n, parity) = (self.params.n(), self.params.parity());
        let corr_rows = if msgs.is_some() { n } else { parity };
        let nchunks = total_blocks.div_ceil(CHUNK_BLOCKS);
        let per_chunk = CHUNK_BLOCKS * 128;
        // The batch is written straight into the session's vectors (no
        // batch-sized copy, whose page faults cost as much as the work);
        // they are taken out meanwhile, as `pass1_chunk` borrows `self`.
        let mut new_msgs = Zeroizing::new(std::mem::take(&mut self.state.msgs));
        let mut new_t = Zeroizing::new(std::mem::take(&mut self.state.t));
        crate::alloc::grow_zeroed(&mut new_msgs, count);
        crate::alloc::grow_zeroed(&mut new_t, count);
        let mut scratch = self.take_scratch(self.threads.min(nchunks));

        // Pass 1, wave by wave: PRG rows, messages, parity and corrections
        // (sent), and the transpose of T0 and M into the stored material.
        let wave = WAVE_CHUNKS_PER_THREAD * self.threads;
        let mut wire = std::mem::take(&mut self.wire);
        wire.resize(
            (wave * CHUNK_BLOCKS).min(total_blocks) * corr_rows,
            Block::ZERO,
        );
        let sent = (|| -> Result<()> {
            for w0 in (0..nchunks).step_by(wave) {
                let w1 = (w0 + wave).min(nchunks);
                let ranges = par::partition(w1 - w0, self.threads);
                let blocks = (w1 * CHUNK_BLOCKS).min(total_blocks) - w0 * CHUNK_BLOCKS;
                let wire = &mut wire[..blocks * corr_rows];
                let outs = par::split_by(wire, &ranges, |c| c * CHUNK_BLOCKS * corr_rows);
                let item0 = first_id + w0 * per_chunk;
                let ts = par::split_by(&mut new_t, &ranges, |c| item0 + c * per_chunk);
                let ms = par::split_by(&mut new_msgs, &ranges, |c| item0 + c * per_chunk);
                let items: Vec<_> = outs
                    .into_iter()
                    .zip(ts)
                    .zip(ms)
                    .zip(scratch.iter_mut())
                    .collect();
                par::run(&ranges, items, |r, (((out, ts), ms), sc)| {
                    let first_item = batch.items_in(w0 + r.start).start;
                    for (i, c) in r.clone().enumerate() {
                        let c = w0 + c;
                        let nb = chunk_len(c, total_blocks);
                        let o = i * CHUNK_BLOCKS * corr_rows;
                        let out = &mut out[o..o + nb * corr_rows];
                        let items = batch.items_in(c);
                        let at = items.start - first_item..items.end - first_item;
                        self.pass1_chunk(&batch, c, sc, out, &mut ts[at.clone()], &mut ms[at]);
                    }
                });
                #[cfg(test)]
                self.cheat_corrections(w0, wire, corr_rows, total_blocks);
                ch.send_blocks(wire)?;
            }
            ch.flush()
        })();
        wire.zeroize();
        self.wire = wire;
        self.put_scratch(scratch);
        if let Err(e) = sent {
            // Nothing of a half-sent batch stays (the session is unusable
            // anyway: the receiver's counters no longer match).
            new_msgs[first_id..].zeroize();
            new_t[first_id..].iter_mut().for_each(Zeroize::zeroize);
            new_msgs.truncate(first_id);
            new_t.truncate(first_id);
            self.state.msgs = std::mem::take(&mut *new_msgs);
            self.state.t = std::mem::take(&mut *new_t);
            return Err(e);
        }
        self.state.msgs = std::mem::take(&mut *new_msgs);
        self.state.t = std::mem::take(&mut *new_t);
        self.state.next_block += total_blocks as u64;
        self.pending.push_back(batch.first_block);
        Ok(PendingCommit {
            first_id,
            first_block: batch.first_block,
            count,
            chosen: msgs.is_some(),
        })
    }

    /// Second half of a commit batch: receives the challenges and sends
    /// the combinations of T0 and M, with the rows regenerated from the
    /// PRG chunk by chunk. Batches must finish in the order they started.
    pub fn commit_finish(&mut self, ch: &mut Channel, p: PendingCommit) -> Result<Range<usize>> {
        if self.pending.front() != Some(&p.first_block) {
            return Err(Error::config(
                "commit batches must finish in the order they started",
            ));
        }
        self.pending.pop_front();
        let ids = p.first_id..p.first_id + p.count;
        let real_blocks = p.count.div_ceil(128);
        let total_blocks = real_blocks + self.params.checks();
        let nchunks = total_blocks.div_ceil(CHUNK_BLOCKS);
        let mut scratch = self.take_scratch(self.threads.min(nchunks));
        let batch = Batch {
            first_block: p.first_block,
            real_blocks,
            total_blocks,
            count: p.count,
            msgs: p.chosen.then(|| &self.state.msgs[ids.clone()]),
        };
        let mut alphas = vec![Block::ZERO; self.params.checks()];
        ch.recv_blocks(&mut alphas)?;
        let coef = check_coefficients(&alphas, real_blocks);
        let n = self.params.n();
        let ranges = par::partition(nchunks, self.threads);
        let mine = scratch.iter_mut().take(ranges.len()).collect();
        let partials = par::run(&ranges, mine, |r, sc| {
            for c in r {
                self.pass2_chunk(&batch, c, &coef, sc);
            }
            std::mem::replace(
                &mut sc.acc,
                vec![GfWide::default(); self.params.checks() * (n + K)],
            )
        });
        let mut sums = vec![GfWide::default(); self.params.checks() * (n + K)];
        for mut p in partials {
            for (s, x) in sums.iter_mut().zip(&p) {
                *s ^= *x;
            }
            p.zeroize();
        }
        self.put_scratch(scratch);
        let mut resp: Vec<Block> = sums.iter().map(|s| s.reduce()).collect();
        sums.zeroize();
        #[cfg(test)]
        self.cheat_response(&mut resp);
        ch.send_blocks(&resp)?;
        resp.zeroize();
        ch.flush()?;
        Ok(ids)
    }

    fn take_scratch(&mut self, k: usize) -> Vec<Scratch> {
        let mut v = std::mem::take(&mut self.spare);
        let p = self.params;
        v.resize_with(k.max(v.len()), || Scratch::new(&p));
        v
    }

    fn put_scratch(&mut self, mut v: Vec<Scratch>) {
        v.iter_mut().for_each(Scratch::wipe);
        self.spare = v;
    }

    /// T0 rows `rows` of chunk `c` (first `nb` Blocks of each row).
    fn t0_rows(&self, ctr: u64, nb: usize, rows: Range<usize>, t0: &mut [Block]) {
        for j in rows {
            prg_row(
                &self.aes0[j],
                ctr,
                &mut t0[j * CHUNK_BLOCKS..j * CHUNK_BLOCKS + nb],
            );
        }
    }

    /// The K message rows of chunk `c` into `sc.m`, from T0 rows 0..K
    /// (already in `sc.t0`) and the T1 rows: `m = t0 ⊕ t1` in random mode;
    /// chosen messages, bit-sliced per block, replace the lanes that carry
    /// one (padding lanes and dummy blocks keep the random value).
    fn message_rows(&self, batch: &Batch, c: usize, sc: &mut Scratch) {
        let nb = chunk_len(c, batch.total_blocks);
        let ctr = batch.first_block + (c * CHUNK_BLOCKS) as u64;
        for j in 0..K {
            let t1 = &mut sc.t1[..nb];
            prg_row(&self.aes1[j], ctr, t1);
            let row = j * CHUNK_BLOCKS..j * CHUNK_BLOCKS + nb;
            for ((m, a), b) in sc.m[row.clone()].iter_mut().zip(&sc.t0[row]).zip(t1.iter()) {
                *m = *a ^ *b;
            }
        }
        let Some(msgs) = batch.msgs else {
            return;
        };
        for b in 0..nb {
            let r = c * CHUNK_BLOCKS + b;
            if r >= batch.real_blocks {
                break;
            }
            let lanes = &msgs[r * 128..(r * 128 + 128).min(batch.count)];
            let mask = if lanes.len() == 128 {
                Block::ONES
            } else {
                Block((1u128 << lanes.len()) - 1)
            };
            let mut g = slice_msgs(lanes);
            for (j, gj) in g.iter().enumerate() {
                let m = &mut sc.m[j * CHUNK_BLOCKS + b];
                *m = (*gj & mask) ^ (*m & !mask);
            }
            g.zeroize();
        }
    }

    /// First pass over chunk `c`: writes its corrections (row-major, `nb`
    /// Blocks per row) and transposes T0 and M into the chunk's stored
    /// shares `ts` and messages `ms` (its real commitments only).
    fn pass1_chunk(
        &self,
        batch: &Batch,
        c: usize,
        sc: &mut Scratch,
        out: &mut [Block],
        ts: &mut [Row],
        ms: &mut [Block],
    ) {
        let nb = chunk_len(c, batch.total_blocks);
        let ctr = batch.first_block + (c * CHUNK_BLOCKS) as u64;
        let (n, parity) = (self.params.n(), self.params.parity());
        let first_corr = n - out.len() / nb;
        self.t0_rows(ctr, nb, 0..K, &mut sc.t0);
        self.message_rows(batch, c, sc);
        if first_corr == 0 {
            // Chosen mode: message positions carry corrections too.
            for j in 0..K {
                let row = j * CHUNK_BLOCKS..j * CHUNK_BLOCKS + nb;
                let t1 = &mut sc.t1[..nb];
                prg_row(&self.aes1[j], ctr, t1);
                for (((o, m), a), b) in out[j * nb..(j + 1) * nb]
                    .iter_mut()
                    .zip(&sc.m[row.clone()])
                    .zip(&sc.t0[row])
                    .zip(t1.iter())
                {
                    *o = *m ^ *a ^ *b;
                }
            }
        }
        self.params
            .code()
            .parity_sliced(&sc.m, &mut sc.parity, CHUNK_BLOCKS);
        for l in 0..parity {
            let j = K + l;
            let row = j * CHUNK_BLOCKS..j * CHUNK_BLOCKS + nb;
            prg_row(&self.aes0[j], ctr, &mut sc.t0[row.clone()]);
            let t1 = &mut sc.t1[..nb];
            prg_row(&self.aes1[j], ctr, t1);
            let o = (j - first_corr) * nb;
            for (((o, p), a), b) in out[o..o + nb]
                .iter_mut()
                .zip(&sc.parity[l * CHUNK_BLOCKS..l * CHUNK_BLOCKS + nb])
                .zip(&sc.t0[row])
                .zip(t1.iter())
            {
                *o = *p ^ *a ^ *b;
            }
        }
        store_rows(&sc.t0, n, ts);
        store_msgs(&sc.m, ms);
    }

    /// Second pass over chunk `c`: regenerates T0 and M and adds their
    /// check combinations into `sc.acc` (combination a: N T0 sums, then K
    /// M sums).
    fn pass2_chunk(&self, batch: &Batch, c: usize, coef: &[Vec<Block>], sc: &mut Scratch) {
        let nb = chunk_len(c, batch.total_blocks);
        let ctr = batch.first_block + (c * CHUNK_BLOCKS) as u64;
        let n = self.params.n();
        self.t0_rows(ctr, nb, 0..n, &mut sc.t0);
        self.message_rows(batch, c, sc);
        let blocks = c * CHUNK_BLOCKS..c * CHUNK_BLOCKS + nb;
        for (a, acc) in sc.acc.chunks_exact_mut(n + K).enumerate() {
            let (at, am) = acc.split_at_mut(n);
            gf_mul_acc_rows(&coef[a][blocks.clone()], &sc.t0, CHUNK_BLOCKS, at);
            gf_mul_acc_rows(&coef[a][blocks.clone()], &sc.m, CHUNK_BLOCKS, am);
        }
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
