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
use crate::params::{N, ROW_WORDS};
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

    /// Runs the program over one party's values; `get(id)` is `None` for
    /// an unknown id (refused before anything is sent). A register read
    /// before it is written reads 0: the caller's program defines it.
    fn run<T: Copy + Zeroize>(
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

impl Committer {
    /// [`Committer::batch_open_xor`] for the items of `prog`.
    pub fn batch_open_program(&self, ch: &mut Channel, prog: &XorProgram) -> Result<()> {
        // Each item as one word array: the message's halves, then the share.
        let st = &self.state;
        let mut items = prog.run(
            [0u64; 2 + ROW_WORDS],
            |id| {
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
        send_count(ch, items.len())?;
        let mut ms: Vec<Block> = items
            .iter()
            .map(|i| Block::from_halves(i[0], i[1]))
            .collect();
        ch.send_blocks(&ms)?;
        ms.zeroize();
        let alpha = ch.recv_block()?;
        let mut comb = combine_items_with(ROW_WORDS, N, items.len(), alpha, |range, out| {
            for (i, o) in items[range].iter().zip(out.chunks_exact_mut(ROW_WORDS)) {
                o.copy_from_slice(&i[2..]);
            }
        });
        items.zeroize();
        ch.send_blocks(&comb)?;
        comb.zeroize();
        ch.flush()
    }
}

impl Receiver {
    /// [`Receiver::verify_batch_open_xor`] for the items of `prog`.
    pub fn verify_batch_open_program(
        &mut self,
        ch: &mut Channel,
        prog: &XorProgram,
    ) -> Result<Vec<Block>> {
        let st = &self.state;
        let rows: Vec<Row> = prog.run([0u64; ROW_WORDS], |id| st.w.get(id).copied(), xor_rows)?;
        recv_count(ch, rows.len(), "batch opening")?;
        let ms = ch.recv_block_vec(rows.len())?;
        let alpha = self.prg.random_block();
        ch.send_block(alpha)?;
        ch.flush()?;
        let w = combine_items_with(ROW_WORDS, N, rows.len(), alpha, |range, out| {
            out.copy_from_slice(bytemuck::cast_slice(&rows[range]));
        });
        let m = combine_item_msgs(&ms, alpha);
        let t = ch.recv_block_vec(N)?;
        self.check_combination(&w, &t, &m, "batch-decommit")?;
        Ok(ms)
    }
}
