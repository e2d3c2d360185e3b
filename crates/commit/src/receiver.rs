//! The receiver: setup (n base OTs as OT receiver with random watch bits)
//! and commit batches with the consistency check.
//!
//! Per position j the receiver expands the one seed it holds, `s_j^{Δ_R[j]}`;
//! where `Δ_R[j] = 1` it adds the committer's correction. Per commitment
//! this gives `w_i = t_i ⊕ (Δ_R ∧ x_i)`, where `x_i` is the committed column
//! (a codeword if the committer was honest). The check then verifies two
//! random GF(2^128) combinations of the columns against the committer's
//! claimed openings of them.

use crate::code::{row_bit, row_from_bits};
use crate::committer::{check_coefficients, chunk_len};
use crate::material::ReceiverState;
use crate::par;
use crate::params::{CommitParams, CHUNK_BLOCKS, K};
use crate::sliced::{prg_row, store_rows, xor_into};
use crate::wire::recv_header;
use brickyard_core::aes::Aes128;
use brickyard_core::gf128::{gf_mul_acc_rows, GfWide};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use std::ops::Range;
use zeroize::{Zeroize, Zeroizing};

/// Chunks per thread per wave (matches the committer's pacing; not part of
/// the wire format, which is one stream of chunks).
const WAVE_CHUNKS_PER_THREAD: usize = 8;

/// Largest batch a receiver accepts in one `receive_commitments` call; a
/// sanity bound against a hostile count (memory is ~80 bytes per commitment).
pub const MAX_BATCH: usize = 1 << 28;

/// One thread's working set: the W rows of one chunk (N rows of
/// `CHUNK_BLOCKS` Blocks, ~150 KB) and its share of the check sums.
struct Scratch {
    w: Vec<Block>,
    acc: Vec<GfWide>,
}

impl Scratch {
    fn new(n: usize, checks: usize) -> Scratch {
        Scratch {
            w: vec![Block::ZERO; n * CHUNK_BLOCKS],
            acc: vec![GfWide::default(); checks * n],
        }
    }
}

impl Scratch {
    /// Zeroes the buffers in place (the allocation is kept for reuse).
    fn wipe(&mut self) {
        self.w.iter_mut().for_each(|b| *b = Block::ZERO);
        self.acc.iter_mut().for_each(|a| *a = GfWide::default());
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.w.zeroize();
        self.acc.zeroize();
    }
}

/// A received commit batch whose consistency check is still to run
/// ([`Receiver::receive_finish`]).
#[must_use = "a commit batch must be finished before its commitments are used"]
pub struct PendingReceive {
    first_id: usize,
    count: usize,
    /// Our combinations of the batch's rows (secret: they involve Δ_R).
    combos: Zeroizing<Vec<Block>>,
}

impl std::fmt::Debug for PendingReceive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PendingReceive {{ first_id: {}, count: {} }}",
            self.first_id, self.count
        )
    }
}

/// The receiving party. Holds secrets (watch bits); see [`ReceiverState`].
pub struct Receiver {
    pub(crate) state: ReceiverState,
    /// The code and repetition counts, from s (both parties use the same).
    pub(crate) params: CommitParams,
    aes: Vec<Aes128>,
    pub(crate) threads: usize,
    /// Challenges come from here (seeded from the OS at setup / resume).
    pub(crate) prg: Prg,
    /// Commitments `0..verified` passed their batch's check.
    verified: usize,
    /// Working buffers kept between batches (wiped after each use): fresh
    /// ones cost a page fault per 4 KB.
    spare: Vec<Scratch>,
    wire: Vec<Block>,
}

impl std::fmt::Debug for Receiver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Receiver {{ {:?}, threads: {} }}",
            self.state, self.threads
        )
    }
}

impl Receiver {
    /// Runs the N base OTs as OT receiver with uniformly random watch bits
    /// (N from `params`, which the committer must share).
    pub fn setup(ch: &mut Channel, prg: &mut Prg, params: CommitParams) -> Result<Receiver> {
        let bits = Self::watch_bits(prg, params);
        let seeds = brickyard_ot::base::receive_random(ch, prg, &bits)?;
        Self::from_base(prg, bits, seeds, params)
    }

    /// Uniformly random watch bits, one per code position: the choices of
    /// the base OTs, for a caller that runs them itself
    /// (`brickyard_ot::base::exchange_random`) and then calls
    /// [`Receiver::from_base`].
    pub fn watch_bits(prg: &mut Prg, params: CommitParams) -> Vec<bool> {
        prg.random_bits(params.n())
    }

    /// The session from base OTs already run as their receiver with
    /// choices `bits` ([`Receiver::watch_bits`]) and keys `seeds`.
    /// `Config` if the counts are not N.
    pub fn from_base(
        prg: &mut Prg,
        mut bits: Vec<bool>,
        seeds: Vec<Block>,
        params: CommitParams,
    ) -> Result<Receiver> {
        if bits.len() != params.n() || seeds.len() != params.n() {
            bits.zeroize();
            return Err(Error::config("commitments: one base OT per code position"));
        }
        let state = ReceiverState {
            watch: row_from_bits(&bits),
            seeds,
            next_block: 0,
            w: Vec::new(),
        };
        bits.zeroize();
        let mut r = Receiver::from_state(state, params)?;
        r.prg = Prg::from_seed(prg.random_block());
        Ok(r)
    }

    /// Resumes a session from stored state (no new base OTs); challenges
    /// are drawn from a fresh OS-seeded PRG.
    pub fn from_state(state: ReceiverState, params: CommitParams) -> Result<Receiver> {
        let n = params.n();
        let padding = n < 64 * state.watch.len() && state.watch[n / 64] >> (n % 64) != 0;
        if state.seeds.len() != n || padding {
            return Err(Error::Storage(format!(
                "receiver state has the wrong shape for {params:?}"
            )));
        }
        Ok(Receiver {
            params,
            aes: state.seeds.iter().map(|&s| Aes128::new(s)).collect(),
            verified: state.w.len(),
            spare: Vec::new(),
            wire: Vec::new(),
            state,
            threads: 1,
            prg: Prg::new(),
        })
    }

    /// Uses `threads` worker threads for the local computation.
    pub fn with_threads(mut self, threads: usize) -> Receiver {
        self.threads = threads.max(1);
        self
    }

    /// The parameters (code, repetitions) of this session.
    pub fn params(&self) -> &CommitParams {
        &self.params
    }

    /// The session state, for persisting it.
    pub fn state(&self) -> &ReceiverState {
        &self.state
    }

    /// Number of commitments received so far (ids are `0..len()`).
    pub fn len(&self) -> usize {
        self.state.w.len()
    }

    /// Whether no commitment has been received yet.
    pub fn is_empty(&self) -> bool {
        self.state.w.is_empty()
    }

    /// Receives a batch of `count` commitments (chosen or random, as the
    /// committer's header says) and runs the consistency check. On
    /// `Cheating { check: "commit-consistency" }` the session must be
    /// abandoned: the failure may depend on the watch bits.
    pub fn receive_commitments(&mut self, ch: &mut Channel, count: usize) -> Result<Range<usize>> {
        let p = self.receive_start(ch, count)?;
        self.receive_finish(ch, p)
    }

    /// Makes room for `count` more commitments (see [`crate::Committer::reserve`]).
    pub fn reserve(&mut self, count: usize) {
        self.state.w.reserve_exact(count.min(MAX_BATCH));
        // See `Committer::reserve`.
        brickyard_core::hugepage::advise_huge(&self.state.w);
    }

    /// First half of [`Receiver::receive_commitments`]: takes in the
    /// corrections and sends the challenges. The batch's commitments cannot
    /// be opened until [`Receiver::receive_finish`] has checked the
    /// committer's answer; meanwhile the caller may receive other messages
    /// (or start the next batch). Pending batches finish in order.
    pub fn receive_start(&mut self, ch: &mut Channel, count: usize) -> Result<PendingReceive> {
        if count > MAX_BATCH {
            return Err(Error::config(format!(
                "batch of {count} exceeds {MAX_BATCH}"
            )));
        }
        let first_id = self.len();
        let h = recv_header(ch, count, self.state.next_block)?;
        let n = self.params.n();
        let corr_rows = if h.chosen { n } else { self.params.parity() };
        let real_blocks = count.div_ceil(128);
        let total_blocks = real_blocks + self.params.checks();
        let nchunks = total_blocks.div_ceil(CHUNK_BLOCKS);
        let per_chunk = CHUNK_BLOCKS * 128;
        let first_block = self.state.next_block;

        // The challenges are drawn now but sent only after the last
        // correction has arrived (the committer must not learn them
        // earlier), so the combinations are summed in the same pass that
        // expands the PRG rows and stores the material.
        let alphas: Vec<Block> = (0..self.params.checks())
            .map(|_| self.prg.random_block())
            .collect();
        let coef = check_coefficients(&alphas, real_blocks);
        // Written straight into the session's rows (no batch-sized copy);
        // on any failure the batch's rows are zeroized and dropped.
        let mut new_w = Zeroizing::new(std::mem::take(&mut self.state.w));
        crate::alloc::grow_zeroed(&mut new_w, count);
        let mut scratch = self.take_scratch(self.threads.min(nchunks));

        let wave = WAVE_CHUNKS_PER_THREAD * self.threads;
        let mut wire = std::mem::take(&mut self.wire);
        wire.resize(
            (wave * CHUNK_BLOCKS).min(total_blocks) * corr_rows,
            Block::ZERO,
        );
        let got = (|| -> Result<()> {
            for w0 in (0..nchunks).step_by(wave) {
                let w1 = (w0 + wave).min(nchunks);
                let blocks = (w1 * CHUNK_BLOCKS).min(total_blocks) - w0 * CHUNK_BLOCKS;
                let wire = &mut wire[..blocks * corr_rows];
                ch.recv_blocks(wire)?;
                let ranges = par::partition(w1 - w0, self.threads);
                let ins = par::split_by(wire, &ranges, |c| c * CHUNK_BLOCKS * corr_rows);
                let item0 = first_id + w0 * per_chunk;
                let ws = par::split_by(&mut new_w, &ranges, |c| item0 + c * per_chunk);
                let items: Vec<_> = ins.into_iter().zip(ws).zip(scratch.iter_mut()).collect();
                par::run(&ranges, items, |r, ((corr, ws), sc)| {
                    let first_item = ((w0 + r.start) * per_chunk).min(count);
                    for (i, c) in r.enumerate() {
                        let c = w0 + c;
                        let nb = chunk_len(c, total_blocks);
                        let o = i * CHUNK_BLOCKS * corr_rows;
                        let corr = &corr[o..o + nb * corr_rows];
                        let ctr = first_block + (c * CHUNK_BLOCKS) as u64;
                        let w = &mut sc.w;
                        for j in 0..n {
                            let row = &mut w[j * CHUNK_BLOCKS..j * CHUNK_BLOCKS + nb];
                            prg_row(&self.aes[j], ctr, row);
                            if j >= n - corr_rows && row_bit(&self.state.watch, j) {
                                let cj = j - (n - corr_rows);
                                xor_into(row, &corr[cj * nb..(cj + 1) * nb]);
                            }
                        }
                        let blocks = c * CHUNK_BLOCKS..c * CHUNK_BLOCKS + nb;
                        for (a, acc) in sc.acc.chunks_exact_mut(n).enumerate() {
                            gf_mul_acc_rows(&coef[a][blocks.clone()], w, CHUNK_BLOCKS, acc);
                        }
                        let items = (c * per_chunk).min(count)..((c + 1) * per_chunk).min(count);
                        store_rows(
                            w,
                            n,
                            &mut ws[items.start - first_item..items.end - first_item],
                        );
                    }
                });
            }
            ch.send_blocks(&alphas)?;
            ch.flush()
        })();
        wire.zeroize();
        self.wire = wire;
        let mut sums = vec![GfWide::default(); self.params.checks() * n];
        for sc in &scratch {
            for (s, x) in sums.iter_mut().zip(&sc.acc) {
                *s ^= *x;
            }
        }
        scratch.iter_mut().for_each(Scratch::wipe);
        self.spare = scratch;
        let combos: Vec<Block> = sums.iter().map(|s| s.reduce()).collect();
        sums.zeroize();
        self.state.w = std::mem::take(&mut *new_w);
        if let Err(e) = got {
            self.drop_from(first_id);
            return Err(e);
        }
        self.state.next_block += total_blocks as u64;
        Ok(PendingReceive {
            first_id,
            count,
            combos: Zeroizing::new(combos),
        })
    }

    /// Second half of a commit batch: receives the committer's answer to
    /// the challenges and checks it. On `Cheating { check:
    /// "commit-consistency" }` the session must be abandoned (the failure
    /// may depend on the watch bits); the batch, and any started after it,
    /// is dropped.
    pub fn receive_finish(&mut self, ch: &mut Channel, p: PendingReceive) -> Result<Range<usize>> {
        if p.first_id != self.verified || self.state.w.len() < p.first_id + p.count {
            return Err(Error::config(
                "commit batches must finish in the order they started",
            ));
        }
        let n = self.params.n();
        let checked = ch
            .recv_block_vec(self.params.checks() * (n + K))
            .and_then(|resp| {
                resp.chunks_exact(n + K).enumerate().try_for_each(|(a, r)| {
                    let (t, m) = r.split_at(n);
                    self.check_combination(
                        &p.combos[a * n..(a + 1) * n],
                        t,
                        m,
                        "commit-consistency",
                    )
                })
            });
        if let Err(e) = checked {
            self.drop_from(p.first_id);
            return Err(e);
        }
        self.verified = p.first_id + p.count;
        Ok(p.first_id..p.first_id + p.count)
    }

    fn take_scratch(&mut self, k: usize) -> Vec<Scratch> {
        let mut v = std::mem::take(&mut self.spare);
        let (n, checks) = (self.params.n(), self.params.checks());
        v.resize_with(k.max(v.len()), || Scratch::new(n, checks));
        v
    }

    /// Zeroizes and drops the rows of unverified batches from `first_id` on.
    fn drop_from(&mut self, first_id: usize) {
        if first_id < self.state.w.len() {
            self.state.w[first_id..]
                .iter_mut()
                .for_each(Zeroize::zeroize);
            self.state.w.truncate(first_id);
        }
    }

    /// Ids below this belong to batches whose check passed (openable).
    pub(crate) fn verified(&self) -> usize {
        self.verified
    }

    /// Verifies `w̃ ⊕ t̃ = Δ_R ∗ C(m̃)` for one GF(2^128) combination:
    /// `w̃` (N Blocks) ours, `t̃` (N) and `m̃` (K) the committer's.
    pub(crate) fn check_combination(
        &self,
        w: &[Block],
        t: &[Block],
        m: &[Block],
        check: &'static str,
    ) -> Result<()> {
        let code = self.params.code();
        let mut parity = vec![Block::ZERO; code.parity_bits()];
        code.parity_sliced(m, &mut parity, 1);
        let mut ok = true;
        for j in 0..code.n() {
            let c = if j < K { m[j] } else { parity[j - K] };
            ok &= w[j] ^ t[j] == c.and_bit(row_bit(&self.state.watch, j));
        }
        if ok {
            Ok(())
        } else {
            Err(Error::Cheating { check })
        }
    }
}
