//! The narrow interface through which LEGO uses the XOR-homomorphic
//! commitment scheme (`brickyard-commit`, the paper's F_HCOM): every
//! commitment, opening, batch opening and bit leak of the protocol goes
//! through here, so the scheme can be swapped or audited in one place.
//!
//! A *set* is a list of commitment ids; opening a set reveals only the XOR
//! of its values. LEGO writes every key it opens as such a set, e.g.
//! `[L⁰, Δ]` for a 1-key or `[O⁰_g, L⁰_h]` for a soldering.

use brickyard_commit::params::CommitParams;
pub use brickyard_commit::ItemSets;
use brickyard_commit::{
    CheckBatch, Committer, CommitterState, OpenBatch, PendingCommit, PendingReceive, Receiver,
    ReceiverState, XorProgram,
};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use std::ops::Range;

/// Alice's side of F_HCOM.
pub struct HcomSender(Committer);

/// Bob's side of F_HCOM.
pub struct HcomReceiver(Receiver);

impl HcomSender {
    /// Setup: the scheme's base OTs (Alice is their sender), for the
    /// code of `params` ([`super::security::Components::commit`]).
    pub fn setup(ch: &mut Channel, prg: &mut Prg, params: CommitParams) -> Result<Self> {
        Ok(HcomSender(Committer::setup(ch, prg, params)?))
    }
    /// The session from base OTs already run (Alice their sender, one
    /// per code position of `params`), e.g. together with the Δ-ROT's.
    pub fn from_base(keys: Vec<(Block, Block)>, params: CommitParams) -> Result<Self> {
        Ok(HcomSender(Committer::from_base(keys, params)?))
    }
    /// Resumes a session (no base OTs) from stored state made with `params`.
    pub fn from_state(state: CommitterState, params: CommitParams) -> Result<Self> {
        Ok(HcomSender(Committer::from_state(state, params)?))
    }
    /// The code and repetitions of this session.
    pub fn params(&self) -> &CommitParams {
        self.0.params()
    }
    /// The session state (seeds and every commitment).
    pub fn state(&self) -> &CommitterState {
        self.0.state()
    }
    /// Commits to `count` random values (cheap: parity bits only).
    pub fn commit_random(&mut self, ch: &mut Channel, count: usize) -> Result<Range<usize>> {
        self.0.commit_random(ch, count)
    }
    /// Commits to chosen values.
    pub fn commit(&mut self, ch: &mut Channel, values: &[Block]) -> Result<Range<usize>> {
        self.0.commit(ch, values)
    }
    /// Room for `count` more commitments (Generate knows both batches'
    /// sizes; growing the session between them would copy it).
    pub fn reserve(&mut self, count: usize) {
        self.0.reserve(count)
    }
    /// [`HcomSender::commit_random`] up to the consistency check, which
    /// [`HcomSender::finish`] runs: Generate sends its garbled tables and
    /// starts the next batch while Bob still works through this one.
    pub fn commit_random_start(&mut self, ch: &mut Channel, count: usize) -> Result<PendingCommit> {
        self.0.commit_random_start(ch, count)
    }
    /// [`HcomSender::commit`] up to the consistency check.
    pub fn commit_start(&mut self, ch: &mut Channel, values: &[Block]) -> Result<PendingCommit> {
        self.0.commit_start(ch, values)
    }
    /// The consistency check of a started batch (batches finish in order).
    pub fn finish(&mut self, ch: &mut Channel, p: PendingCommit) -> Result<Range<usize>> {
        self.0.commit_finish(ch, p)
    }
    /// The committed values of a range of ids.
    pub fn values(&self, ids: Range<usize>) -> Result<&[Block]> {
        self.0
            .values(ids)
            .ok_or_else(|| brickyard_core::Error::config("lego: unknown commitment ids"))
    }
    /// The XOR of a set's committed values.
    pub fn xor_of(&self, set: &[usize]) -> Result<Block> {
        let mut acc = Block::ZERO;
        for &id in set {
            acc ^= self
                .0
                .value(id)
                .ok_or_else(|| brickyard_core::Error::config("lego: unknown commitment id"))?;
        }
        Ok(acc)
    }
    /// Opens each set's XOR in full (one flight; the online phase's form).
    pub fn open(&self, ch: &mut Channel, sets: &[Vec<usize>]) -> Result<()> {
        self.0.open_xor(ch, sets)
    }
    /// Batch opening (values, then one check combination for Bob's
    /// challenge); the items are produced on demand, so millions of them
    /// cost no list of sets.
    pub fn batch_open<T: ItemSets + ?Sized>(&self, ch: &mut Channel, sets: &T) -> Result<()> {
        self.0.batch_open_sets(ch, sets)
    }
    /// Batch opening of a program's items (shared XORs computed once).
    pub fn batch_open_program(&self, ch: &mut Channel, prog: &XorProgram) -> Result<()> {
        self.0.batch_open_program(ch, prog)
    }
    /// Adds a program's items, its ids renumbered by `map`, to a batch
    /// opening that covers several copies (sent with [`OpenBatch::send`]).
    pub fn gather_program(
        &self,
        prog: &XorProgram,
        map: Option<&[usize]>,
        batch: &mut OpenBatch,
    ) -> Result<()> {
        self.0.gather_program(prog, map, batch)
    }
    /// VerLeak: leaks the lsb of each set's XOR, consuming `blinders`.
    pub fn leak_lsbs(
        &self,
        ch: &mut Channel,
        sets: &[Vec<usize>],
        blinders: &[usize],
    ) -> Result<()> {
        self.0.open_bits(ch, sets, 0, blinders)
    }
    /// VerLeak with the claimed lsb of set `lie` flipped (adversary tests).
    #[cfg(feature = "adversary")]
    pub fn leak_lsbs_lying(
        &self,
        ch: &mut Channel,
        sets: &[Vec<usize>],
        blinders: &[usize],
        lie: usize,
    ) -> Result<()> {
        self.0.open_bits_lying(ch, sets, 0, blinders, lie)
    }
}

impl HcomReceiver {
    /// Setup: the scheme's base OTs (Bob is their receiver), for the
    /// code of `params`.
    pub fn setup(ch: &mut Channel, prg: &mut Prg, params: CommitParams) -> Result<Self> {
        Ok(HcomReceiver(Receiver::setup(ch, prg, params)?))
    }
    /// The watch bits: Bob's choices in the base OTs of `params`.
    pub fn watch_bits(prg: &mut Prg, params: CommitParams) -> Vec<bool> {
        Receiver::watch_bits(prg, params)
    }
    /// The session from base OTs already run with choices `bits`
    /// ([`HcomReceiver::watch_bits`]) and keys `seeds`.
    pub fn from_base(
        prg: &mut Prg,
        bits: Vec<bool>,
        seeds: Vec<Block>,
        params: CommitParams,
    ) -> Result<Self> {
        Ok(HcomReceiver(Receiver::from_base(prg, bits, seeds, params)?))
    }
    /// Resumes a session (no base OTs) from stored state made with `params`.
    pub fn from_state(state: ReceiverState, params: CommitParams) -> Result<Self> {
        Ok(HcomReceiver(Receiver::from_state(state, params)?))
    }
    /// The code and repetitions of this session.
    pub fn params(&self) -> &CommitParams {
        self.0.params()
    }
    /// The session state (watch bits, seeds and every commitment's row).
    pub fn state(&self) -> &ReceiverState {
        self.0.state()
    }
    /// Receives `count` commitments (random or chosen, as Alice sent them).
    pub fn receive(&mut self, ch: &mut Channel, count: usize) -> Result<Range<usize>> {
        self.0.receive_commitments(ch, count)
    }
    /// Room for `count` more commitments.
    pub fn reserve(&mut self, count: usize) {
        self.0.reserve(count)
    }
    /// [`HcomReceiver::receive`] up to the consistency check; the batch
    /// cannot be opened before [`HcomReceiver::finish`].
    pub fn receive_start(&mut self, ch: &mut Channel, count: usize) -> Result<PendingReceive> {
        self.0.receive_start(ch, count)
    }
    /// The consistency check of a started batch (batches finish in order).
    pub fn finish(&mut self, ch: &mut Channel, p: PendingReceive) -> Result<Range<usize>> {
        self.0.receive_finish(ch, p)
    }
    /// Receives and verifies full openings of each set's XOR.
    pub fn verify_open(&self, ch: &mut Channel, sets: &[Vec<usize>]) -> Result<Vec<Block>> {
        self.0.verify_open_xor(ch, sets)
    }
    /// Receives and verifies a batch opening.
    pub fn verify_batch_open<T: ItemSets + ?Sized>(
        &mut self,
        ch: &mut Channel,
        sets: &T,
    ) -> Result<Vec<Block>> {
        self.0.verify_batch_open_sets(ch, sets)
    }
    /// [`HcomReceiver::verify_batch_open`], running `meanwhile` (work that
    /// needs no opened value) while Alice computes her answer.
    pub fn verify_batch_open_then<T: ItemSets + ?Sized>(
        &mut self,
        ch: &mut Channel,
        sets: &T,
        meanwhile: impl FnOnce(),
    ) -> Result<Vec<Block>> {
        self.0.verify_batch_open_sets_then(ch, sets, meanwhile)
    }
    /// Receives and verifies a batch opening of a program's items.
    pub fn verify_batch_open_program(
        &mut self,
        ch: &mut Channel,
        prog: &XorProgram,
    ) -> Result<Vec<Block>> {
        self.0.verify_batch_open_program(ch, prog)
    }
    /// Bob's side of [`HcomSender::gather_program`].
    pub fn gather_program(
        &self,
        prog: &XorProgram,
        map: Option<&[usize]>,
        batch: &mut CheckBatch,
    ) -> Result<()> {
        self.0.gather_program(prog, map, batch)
    }
    /// Receives and verifies a batch opening of everything gathered
    /// (`batch-decommit`: one challenge for all copies).
    pub fn verify_batch(&mut self, ch: &mut Channel, batch: CheckBatch) -> Result<Vec<Block>> {
        self.0.verify_batch(ch, batch)
    }
    /// VerLeak, Bob's side: the verified lsbs.
    pub fn verify_lsbs(
        &mut self,
        ch: &mut Channel,
        sets: &[Vec<usize>],
        blinders: &[usize],
    ) -> Result<Vec<bool>> {
        self.0.verify_open_bits(ch, sets, 0, blinders)
    }
}
