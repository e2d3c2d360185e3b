//! Preprocessed OT material: plain values that can be serialised, stored,
//! and consumed later (possibly by another process) with [`crate::beaver`].
//!
//! Each batch remembers the session OT index of its first remaining item.
//! Consuming with [`take`](RotSenderBatch::take) removes items (they are
//! zeroized in place and can never be handed out again), and Beaver
//! derandomisation sends the index along so that two stores that drifted
//! apart are detected instead of silently producing wrong outputs.
//! Serialisation writes only the items that remain.

use brickyard_core::{Block, Error, Result};
use serde::{Deserialize, Serialize};
use zeroize::{Zeroize, ZeroizeOnDrop};

fn check_take(what: &str, left: usize, n: usize) -> Result<()> {
    if n > left {
        Err(Error::Exhausted(format!(
            "{what}: {n} requested, {left} left"
        )))
    } else {
        Ok(())
    }
}

fn take_vec<T: zeroize::DefaultIsZeroes>(v: &mut [T], at: usize, n: usize) -> Vec<T> {
    let out = v[at..at + n].to_vec();
    v[at..at + n].zeroize();
    out
}

macro_rules! batch_common {
    ($ty:ident, $what:literal, $len_field:ident) => {
        impl $ty {
            /// Items not yet consumed.
            pub fn len(&self) -> usize {
                self.$len_field.len() - self.next
            }
            /// Whether every item was consumed.
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }
            /// Session OT index of the next item; both parties' batches
            /// must agree on it when they are consumed together.
            pub fn next_index(&self) -> u64 {
                self.start + self.next as u64
            }
        }
        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(
                    f,
                    concat!($what, " {{ next_index: {}, len: {} }}"),
                    self.next_index(),
                    self.len()
                )
            }
        }
    };
}

/// Sender's random OTs: pairs `(m0_i, m1_i)`.
#[derive(Zeroize, ZeroizeOnDrop, Deserialize)]
#[serde(try_from = "RotSenderWire")]
pub struct RotSenderBatch {
    start: u64,
    next: usize,
    m0: Vec<Block>,
    m1: Vec<Block>,
}

#[derive(Serialize, Deserialize)]
struct RotSenderWire {
    start: u64,
    m0: Vec<Block>,
    m1: Vec<Block>,
}

#[derive(Serialize)]
struct RotSenderRef<'a> {
    start: u64,
    m0: &'a [Block],
    m1: &'a [Block],
}

impl TryFrom<RotSenderWire> for RotSenderBatch {
    type Error = String;
    fn try_from(w: RotSenderWire) -> std::result::Result<Self, String> {
        if w.m0.len() != w.m1.len() {
            return Err("RotSenderBatch: m0 and m1 lengths differ".into());
        }
        Ok(RotSenderBatch::new(w.start, w.m0, w.m1))
    }
}

impl Serialize for RotSenderBatch {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        RotSenderRef {
            start: self.next_index(),
            m0: &self.m0[self.next..],
            m1: &self.m1[self.next..],
        }
        .serialize(s)
    }
}

batch_common!(RotSenderBatch, "RotSenderBatch", m0);

impl RotSenderBatch {
    /// Wraps material whose first item has session OT index `start`.
    ///
    /// # Panics
    /// If `m0` and `m1` differ in length (a caller bug, not peer input).
    pub fn new(start: u64, m0: Vec<Block>, m1: Vec<Block>) -> Self {
        assert_eq!(m0.len(), m1.len(), "RotSenderBatch: length mismatch");
        RotSenderBatch {
            start,
            next: 0,
            m0,
            m1,
        }
    }

    /// Removes the next `n` items into a batch of their own.
    pub fn take(&mut self, n: usize) -> Result<RotSenderBatch> {
        check_take("random OT (sender)", self.len(), n)?;
        let start = self.next_index();
        let m0 = take_vec(&mut self.m0, self.next, n);
        let m1 = take_vec(&mut self.m1, self.next, n);
        self.next += n;
        Ok(RotSenderBatch::new(start, m0, m1))
    }

    /// The remaining pairs, `(m0_i, m1_i)`.
    pub fn pairs(&self) -> impl Iterator<Item = (Block, Block)> + '_ {
        self.m0[self.next..]
            .iter()
            .copied()
            .zip(self.m1[self.next..].iter().copied())
    }
}

/// Receiver's random OTs: choice bits `c_i` and `m_{c_i}`.
#[derive(Zeroize, ZeroizeOnDrop, Deserialize)]
#[serde(try_from = "RotReceiverWire")]
pub struct RotReceiverBatch {
    start: u64,
    next: usize,
    choices: Vec<bool>,
    msgs: Vec<Block>,
}

#[derive(Serialize, Deserialize)]
struct RotReceiverWire {
    start: u64,
    choices: Vec<bool>,
    msgs: Vec<Block>,
}

#[derive(Serialize)]
struct RotReceiverRef<'a> {
    start: u64,
    choices: &'a [bool],
    msgs: &'a [Block],
}

impl TryFrom<RotReceiverWire> for RotReceiverBatch {
    type Error = String;
    fn try_from(w: RotReceiverWire) -> std::result::Result<Self, String> {
        if w.choices.len() != w.msgs.len() {
            return Err("RotReceiverBatch: choices and msgs lengths differ".into());
        }
        Ok(RotReceiverBatch::new(w.start, w.choices, w.msgs))
    }
}

impl Serialize for RotReceiverBatch {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        RotReceiverRef {
            start: self.next_index(),
            choices: &self.choices[self.next..],
            msgs: &self.msgs[self.next..],
        }
        .serialize(s)
    }
}

batch_common!(RotReceiverBatch, "RotReceiverBatch", msgs);

impl RotReceiverBatch {
    /// Wraps material whose first item has session OT index `start`.
    ///
    /// # Panics
    /// If the lengths differ (a caller bug, not peer input).
    pub fn new(start: u64, choices: Vec<bool>, msgs: Vec<Block>) -> Self {
        assert_eq!(
            choices.len(),
            msgs.len(),
            "RotReceiverBatch: length mismatch"
        );
        RotReceiverBatch {
            start,
            next: 0,
            choices,
            msgs,
        }
    }

    /// Removes the next `n` items into a batch of their own.
    pub fn take(&mut self, n: usize) -> Result<RotReceiverBatch> {
        check_take("random OT (receiver)", self.len(), n)?;
        let start = self.next_index();
        let choices = take_vec(&mut self.choices, self.next, n);
        let msgs = take_vec(&mut self.msgs, self.next, n);
        self.next += n;
        Ok(RotReceiverBatch::new(start, choices, msgs))
    }

    /// The remaining choice bits.
    pub fn choices(&self) -> &[bool] {
        &self.choices[self.next..]
    }

    /// The remaining received messages `m_{c_i}`.
    pub fn msgs(&self) -> &[Block] {
        &self.msgs[self.next..]
    }
}

/// Sender's correlated OTs: `q_i` and the global Δ; the pair of OT `i` is
/// `(q_i, q_i ⊕ Δ)`.
#[derive(Zeroize, ZeroizeOnDrop, Deserialize)]
#[serde(try_from = "CotSenderWire")]
pub struct CotSenderBatch {
    start: u64,
    next: usize,
    delta: Block,
    q: Vec<Block>,
}

#[derive(Serialize, Deserialize)]
struct CotSenderWire {
    start: u64,
    delta: Block,
    q: Vec<Block>,
}

#[derive(Serialize)]
struct CotSenderRef<'a> {
    start: u64,
    delta: Block,
    q: &'a [Block],
}

impl TryFrom<CotSenderWire> for CotSenderBatch {
    type Error = String;
    fn try_from(w: CotSenderWire) -> std::result::Result<Self, String> {
        Ok(CotSenderBatch::new(w.start, w.delta, w.q))
    }
}

impl Serialize for CotSenderBatch {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        CotSenderRef {
            start: self.next_index(),
            delta: self.delta,
            q: &self.q[self.next..],
        }
        .serialize(s)
    }
}

batch_common!(CotSenderBatch, "CotSenderBatch", q);

impl CotSenderBatch {
    /// Wraps material whose first item has session OT index `start`.
    pub fn new(start: u64, delta: Block, q: Vec<Block>) -> Self {
        CotSenderBatch {
            start,
            next: 0,
            delta,
            q,
        }
    }

    /// The global correlation Δ.
    pub fn delta(&self) -> Block {
        self.delta
    }

    /// Removes the next `n` items into a batch of their own.
    pub fn take(&mut self, n: usize) -> Result<CotSenderBatch> {
        check_take("correlated OT (sender)", self.len(), n)?;
        let start = self.next_index();
        let q = take_vec(&mut self.q, self.next, n);
        self.next += n;
        Ok(CotSenderBatch::new(start, self.delta, q))
    }

    /// The remaining `q_i` (the zero-side of each pair).
    pub fn q(&self) -> &[Block] {
        &self.q[self.next..]
    }
}

/// Receiver's correlated OTs: choice bits `c_i` and `t_i = q_i ⊕ c_i·Δ`.
#[derive(Zeroize, ZeroizeOnDrop, Deserialize)]
#[serde(try_from = "CotReceiverWire")]
pub struct CotReceiverBatch {
    start: u64,
    next: usize,
    choices: Vec<bool>,
    t: Vec<Block>,
}

#[derive(Serialize, Deserialize)]
struct CotReceiverWire {
    start: u64,
    choices: Vec<bool>,
    t: Vec<Block>,
}

#[derive(Serialize)]
struct CotReceiverRef<'a> {
    start: u64,
    choices: &'a [bool],
    t: &'a [Block],
}

impl TryFrom<CotReceiverWire> for CotReceiverBatch {
    type Error = String;
    fn try_from(w: CotReceiverWire) -> std::result::Result<Self, String> {
        if w.choices.len() != w.t.len() {
            return Err("CotReceiverBatch: choices and t lengths differ".into());
        }
        Ok(CotReceiverBatch::new(w.start, w.choices, w.t))
    }
}

impl Serialize for CotReceiverBatch {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        CotReceiverRef {
            start: self.next_index(),
            choices: &self.choices[self.next..],
            t: &self.t[self.next..],
        }
        .serialize(s)
    }
}

batch_common!(CotReceiverBatch, "CotReceiverBatch", t);

impl CotReceiverBatch {
    /// Wraps material whose first item has session OT index `start`.
    ///
    /// # Panics
    /// If the lengths differ (a caller bug, not peer input).
    pub fn new(start: u64, choices: Vec<bool>, t: Vec<Block>) -> Self {
        assert_eq!(choices.len(), t.len(), "CotReceiverBatch: length mismatch");
        CotReceiverBatch {
            start,
            next: 0,
            choices,
            t,
        }
    }

    /// Removes the next `n` items into a batch of their own.
    pub fn take(&mut self, n: usize) -> Result<CotReceiverBatch> {
        check_take("correlated OT (receiver)", self.len(), n)?;
        let start = self.next_index();
        let choices = take_vec(&mut self.choices, self.next, n);
        let t = take_vec(&mut self.t, self.next, n);
        self.next += n;
        Ok(CotReceiverBatch::new(start, choices, t))
    }

    /// The remaining choice bits.
    pub fn choices(&self) -> &[bool] {
        &self.choices[self.next..]
    }

    /// The remaining `t_i`.
    pub fn t(&self) -> &[Block] {
        &self.t[self.next..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_consumes_and_serialises_only_the_rest() {
        let m0: Vec<Block> = (0..10u128).map(Block).collect();
        let m1: Vec<Block> = (100..110u128).map(Block).collect();
        let mut b = RotSenderBatch::new(50, m0, m1);
        let first = b.take(4).unwrap();
        assert_eq!(first.next_index(), 50);
        assert_eq!(first.pairs().next(), Some((Block(0), Block(100))));
        assert_eq!(b.len(), 6);
        assert_eq!(b.next_index(), 54);
        assert!(matches!(b.take(7), Err(Error::Exhausted(_))));
        let bytes = postcard::to_stdvec(&b).unwrap();
        let back: RotSenderBatch = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(back.next_index(), 54);
        assert_eq!(
            back.pairs().collect::<Vec<_>>(),
            b.pairs().collect::<Vec<_>>()
        );
        // Consumed items were wiped in place.
        assert!(b.m0[..4].iter().all(|&x| x == Block::ZERO));
    }

    #[test]
    fn inconsistent_stored_batch_is_rejected() {
        let w = RotReceiverWire {
            start: 0,
            choices: vec![true],
            msgs: vec![],
        };
        let bytes = postcard::to_stdvec(&w).unwrap();
        assert!(postcard::from_bytes::<RotReceiverBatch>(&bytes).is_err());
        let w = CotReceiverWire {
            start: 3,
            choices: vec![true, false],
            t: vec![Block(1), Block(2)],
        };
        let bytes = postcard::to_stdvec(&w).unwrap();
        let mut b: CotReceiverBatch = postcard::from_bytes(&bytes).unwrap();
        let one = b.take(1).unwrap();
        assert_eq!((one.choices(), one.t()), (&[true][..], &[Block(1)][..]));
        assert_eq!(b.next_index(), 4);
    }
}
