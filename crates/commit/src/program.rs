//! Batch openings of XORs described by a straight-line program instead of
//! one id set per opened item.
//!
//! A caller whose opened items share long common parts (LEGO's Build opens
//! `set(w) ⊕ head` where `set(w)` grows along a circuit's XOR gates) would
//! otherwise XOR the same shares again for every item; a program keeps
//! one register per intermediate XOR, so each party does one row XOR per
//! step. The opening and its check are exactly those of
//! [`Committer::batch_open_xor`]: the same messages, challenge and
//! combination on the wire, computed from the same linear functions of
//! the commitments.

use crate::code::{xor_rows, Row};
use crate::committer::Committer;
use crate::params::ROW_WORDS;
use crate::receiver::Receiver;
use crate::sliced::{combine_item_msgs, combine_items_with};
use crate::wire::{recv_count, send_count};
use brickyard_core::{Block, Channel, Error, Result};
use zeroize::Zeroize;

/// One step; registers are numbered by the caller.
#[derive(Clone, Copy, Debug)]
enum Op {
    /// `r[dst] = 0`.
    Zero(u32),
    /// `r[dst] = r[a] ⊕ C[id]` (`a = None`: `r[dst] = C[id]`).
    XorId(u32, Option<u32>, usize),
    /// `r[dst] = r[a] ⊕ r[b]`.
    Xor(u32, u32, u32),
    /// Opens `r[a] ⊕ C[id]` (the next item).
    Open(u32, usize),
}

/// A straight-line program whose `open` steps, in order, are the items of
/// one batch opening.
#[derive(Clone, Debug, Default)]
pub struct XorProgram {
    ops: Vec<Op>,
    regs: usize,
    opens: usize,
}

impl XorProgram {
    fn reg(&mut self, r: usize) -> u32 {
        self.regs = self.regs.max(r + 1);
        r as u32
    }
    /// `r[dst] = ⊕ C[id]` over `ids` (0 when empty).
    pub fn load(&mut self, dst: usize, ids: &[usize]) {
        let d = self.reg(dst);
        match ids.split_first() {
            None => self.ops.push(Op::Zero(d)),
            Some((&first, rest)) => {
                self.ops.push(Op::XorId(d, None, first));
                for &id in rest {
                    self.ops.push(Op::XorId(d, Some(d), id));
                }
            }
        }
    }
    /// `r[dst] = r[a] ⊕ C[id]`.
    pub fn xor_id(&mut self, dst: usize, a: usize, id: usize) {
        let (d, a) = (self.reg(dst), self.reg(a));
        self.ops.push(Op::XorId(d, Some(a), id));
    }
    /// `r[dst] = r[a] ⊕ r[b]`.
    pub fn xor(&mut self, dst: usize, a: usize, b: usize) {
        let (d, a, b) = (self.reg(dst), self.reg(a), self.reg(b));
        self.ops.push(Op::Xor(d, a, b));
    }
    /// Appends the item `r[a] ⊕ C[id]` to the opening.
    pub fn open(&mut self, a: usize, id: usize) {
        let a = self.reg(a);
        self.ops.push(Op::Open(a, id));
        self.opens += 1;
    }
    /// How many items the opening has.
    pub fn items(&self) -> usize {
        self.opens
    }
    /// How many registers a run holds (its memory: one row each).
    pub fn registers(&self) -> usize {
        self.regs
    }

    /// Runs the program over one party's values; `get(id)` is `None` for
    /// an unknown id (refused before anything is sent). A register read
    /// before it is written reads 0: the caller's program defines it.
    /// Public so that a caller can check its program against the sets it
    /// stands for on values of its own (lego's Build plan does).
    pub fn run<T: Copy + Zeroize>(
        &self,
        zero: T,
        get: impl Fn(usize) -> Option<T>,
        xor: impl Fn(&T, &T) -> T,
    ) -> Result<Vec<T>> {
        let unknown = |id| Error::config(format!("unknown commitment id {id}"));
        let mut r = vec![zero; self.regs];
        let mut out = Vec::with_capacity(self.opens);
        for op in &self.ops {
            match *op {
                Op::Zero(d) => r[d as usize] = zero,
                Op::XorId(d, a, id) => {
                    let v = get(id).ok_or_else(|| unknown(id))?;
                    r[d as usize] = match a {
                        Some(a) => xor(&r[a as usize], &v),
                        None => v,
                    };
                }
                Op::Xor(d, a, b) => r[d as usize] = xor(&r[a as usize], &r[b as usize]),
                Op::Open(a, id) => {
                    let v = get(id).ok_or_else(|| unknown(id))?;
                    out.push(xor(&r[a as usize], &v));
                }
            }
        }
        r.zeroize();
        Ok(out)
    }
}

/// One item of a committer's batch opening as one word array: the
/// message's halves, then the share.
type Item = [u64; 2 + ROW_WORDS];

/// The items of one batch opening on the committer's side, gathered from
/// one or several programs (e.g. several copies of one circuit, each with
/// its own commitment ids), so that all of them go out in one flight with
/// one challenge and one combination instead of a round trip each.
/// Zeroized on drop.
#[derive(Default)]
pub struct OpenBatch {
    items: Vec<Item>,
    /// Code length of the sessions gathered from (all must share it).
    n: Option<usize>,
}

impl Drop for OpenBatch {
    fn drop(&mut self) {
        self.items.zeroize();
    }
}

impl OpenBatch {
    /// How many items are gathered.
    pub fn len(&self) -> usize {
        self.items.len()
    }
    /// Nothing gathered yet.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The opening of every gathered item, exactly as
    /// [`Committer::batch_open_xor`] sends it for that many items.
    pub fn send(self, ch: &mut Channel) -> Result<()> {
        let n = self
            .n
            .ok_or_else(|| Error::config("batch opening: nothing was gathered"))?;
        let items = &self.items;
        send_count(ch, items.len())?;
        let mut ms: Vec<Block> = items
            .iter()
            .map(|i| Block::from_halves(i[0], i[1]))
            .collect();
        ch.send_blocks(&ms)?;
        ms.zeroize();
        let alpha = ch.recv_block()?;
        let mut comb = combine_items_with(ROW_WORDS, n, items.len(), alpha, |range, out| {
            for (i, o) in items[range].iter().zip(out.chunks_exact_mut(ROW_WORDS)) {
                o.copy_from_slice(&i[2..]);
            }
        });
        ch.send_blocks(&comb)?;
        comb.zeroize();
        ch.flush()
    }
}

/// The receiver's side of an [`OpenBatch`]: each item's check row.
#[derive(Default)]
pub struct CheckBatch {
    rows: Vec<Row>,
}

impl CheckBatch {
    /// How many items are gathered.
    pub fn len(&self) -> usize {
        self.rows.len()
    }
    /// Nothing gathered yet.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// `id` through the caller's renumbering (`None`: ids are commitment ids).
fn mapped(map: Option<&[usize]>, id: usize) -> Option<usize> {
    match map {
        None => Some(id),
        Some(m) => m.get(id).copied(),
    }
}

impl Committer {
    /// [`Committer::batch_open_xor`] for the items of `prog`.
    pub fn batch_open_program(&self, ch: &mut Channel, prog: &XorProgram) -> Result<()> {
        let mut batch = OpenBatch::default();
        self.gather_program(prog, None, &mut batch)?;
        batch.send(ch)
    }

    /// Appends the items of `prog` to `batch`, the program's id `i` being
    /// commitment `map[i]` (`None`: the ids are commitment ids). An id
    /// outside `map` or the session is refused before anything is sent.
    pub fn gather_program(
        &self,
        prog: &XorProgram,
        map: Option<&[usize]>,
        batch: &mut OpenBatch,
    ) -> Result<()> {
        let n = self.params.n();
        if batch.n.is_some_and(|b| b != n) {
            return Err(Error::config(
                "batch opening: sessions with different codes gathered together",
            ));
        }
        batch.n = Some(n);
        let st = &self.state;
        let items = prog.run(
            [0u64; 2 + ROW_WORDS],
            |id| {
                let id = mapped(map, id)?;
                let (lo, hi) = st.msgs.get(id)?.halves();
                let t = st.t.get(id)?;
                Some(std::array::from_fn(|i| {
                    if i < 2 {
                        [lo, hi][i]
                    } else {
                        t[i - 2]
                    }
                }))
            },
            |a, b| std::array::from_fn(|i| a[i] ^ b[i]),
        )?;
        let mut items = OpenBatch { items, n: Some(n) };
        // The first program's items become the batch (no copy of
        // megabytes into a fresh buffer); later ones are appended.
        if batch.items.is_empty() {
            std::mem::swap(&mut batch.items, &mut items.items);
        } else {
            batch.items.append(&mut items.items);
        }
        Ok(())
    }
}

impl Receiver {
    /// [`Receiver::verify_batch_open_xor`] for the items of `prog`.
    pub fn verify_batch_open_program(
        &mut self,
        ch: &mut Channel,
        prog: &XorProgram,
    ) -> Result<Vec<Block>> {
        let mut batch = CheckBatch::default();
        self.gather_program(prog, None, &mut batch)?;
        self.verify_batch(ch, batch)
    }

    /// Appends the check rows of `prog`'s items to `batch` (ids as in
    /// [`Committer::gather_program`]).
    pub fn gather_program(
        &self,
        prog: &XorProgram,
        map: Option<&[usize]>,
        batch: &mut CheckBatch,
    ) -> Result<()> {
        let st = &self.state;
        let mut rows = prog.run(
            [0u64; ROW_WORDS],
            |id| st.w.get(mapped(map, id)?).copied(),
            xor_rows,
        )?;
        if batch.rows.is_empty() {
            batch.rows = rows;
        } else {
            batch.rows.append(&mut rows);
        }
        Ok(())
    }

    /// Receives and checks the opening of every gathered item
    /// (`batch-decommit`, one challenge for all) and returns the opened
    /// values in order. The rows may come from several receivers of this
    /// session (they share its watch bits); the challenge is this one's.
    pub fn verify_batch(&mut self, ch: &mut Channel, batch: CheckBatch) -> Result<Vec<Block>> {
        let rows = batch.rows;
        recv_count(ch, rows.len(), "batch opening")?;
        let ms = ch.recv_block_vec(rows.len())?;
        let alpha = self.prg.random_block();
        ch.send_block(alpha)?;
        ch.flush()?;
        let w = combine_items_with(
            ROW_WORDS,
            self.params.n(),
            rows.len(),
            alpha,
            |range, out| {
                out.copy_from_slice(bytemuck::cast_slice(&rows[range]));
            },
        );
        let m = combine_item_msgs(&ms, alpha);
        let t = ch.recv_block_vec(self.params.n())?;
        self.check_combination(&w, &t, &m, "batch-decommit")?;
        Ok(ms)
    }
}
