//! What IKNP and KOS share above their extension cores.
//!
//! The two extensions differ only in how a batch is extended (checked or
//! not) and hashed (CR or TCCR); the public conveniences built on that
//! (random Δ, Vec-returning twins, stored batches, length checks) are
//! written once here. Macros rather than a trait, so the methods stay
//! inherent (callers need no import) and monomorphic (no indirection on the
//! hot path: each is one call into the type's own `*_into`).

use crate::iknp::{pack_bits, unpack_bits};
use brickyard_core::prg::Prg;
use brickyard_core::Block;

/// Where an extension's choice bits come from.
pub(crate) enum Choices<'a> {
    /// Given by the caller (one per row), consumed front to back.
    Given(&'a [bool]),
    /// Drawn from the PRG (random-choice OTs for preprocessing); the drawn
    /// bits are appended to the vector.
    Random(&'a mut Prg, &'a mut Vec<bool>),
}

impl Choices<'_> {
    /// Packs the next `rows` choice bits into `r` (row layout; bits of
    /// blocks beyond `rows` are zero for given choices, random otherwise).
    pub(crate) fn next_into(&mut self, rows: usize, r: &mut [Block]) {
        match self {
            Choices::Given(bits) => {
                let (now, rest) = bits.split_at(rows);
                pack_bits(now, r);
                *bits = rest;
            }
            Choices::Random(prg, bits) => {
                prg.fill_blocks(r);
                unpack_bits(r, rows, bits);
            }
        }
    }
}

/// The sender API every extension offers beyond its own `setup_with_delta`,
/// `correlated_into` and `random_into` (fields `delta` and `index`).
macro_rules! sender_api {
    ($t:ident) => {
        impl std::fmt::Debug for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{} {{ index: {} }}", stringify!($t), self.index)
            }
        }

        impl $t {
            /// Runs the 128 base OTs with a fresh random Δ.
            pub fn setup(
                ch: &mut ::brickyard_core::Channel,
                prg: &mut ::brickyard_core::prg::Prg,
            ) -> ::brickyard_core::Result<Self> {
                let delta = prg.random_block();
                Self::setup_with_delta(ch, prg, delta)
            }

            /// The global correlation: the receiver with choice `c_i` gets
            /// `q_i ⊕ c_i·Δ`.
            pub fn delta(&self) -> ::brickyard_core::Block {
                self.delta
            }

            /// Number of OTs extended so far in this session.
            pub fn ots_done(&self) -> u64 {
                self.index
            }

            #[doc = concat!("`n` correlated OTs (see [`", stringify!($t), "::correlated_into`]).")]
            pub fn correlated(
                &mut self,
                ch: &mut ::brickyard_core::Channel,
                n: usize,
            ) -> ::brickyard_core::Result<Vec<::brickyard_core::Block>> {
                let mut out = vec![::brickyard_core::Block::ZERO; n];
                self.correlated_into(ch, &mut out)?;
                Ok(out)
            }

            #[doc = concat!("`n` random OTs (see [`", stringify!($t), "::random_into`]).")]
            pub fn random(
                &mut self,
                ch: &mut ::brickyard_core::Channel,
                n: usize,
            ) -> ::brickyard_core::Result<Vec<(::brickyard_core::Block, ::brickyard_core::Block)>>
            {
                let zero = ::brickyard_core::Block::ZERO;
                let mut out = vec![(zero, zero); n];
                self.random_into(ch, &mut out)?;
                Ok(out)
            }

            /// Correlated OTs stored for later use (see [`crate::beaver`]).
            pub fn correlated_batch(
                &mut self,
                ch: &mut ::brickyard_core::Channel,
                n: usize,
            ) -> ::brickyard_core::Result<$crate::rot::CotSenderBatch> {
                let start = self.index;
                let q = self.correlated(ch, n)?;
                Ok($crate::rot::CotSenderBatch::new(start, self.delta, q))
            }
        }
    };
}

/// The receiver API every extension offers beyond its own `setup` and
/// `chosen_into`, built on its private
/// `extend_into(ch, Choices, hash: bool, out)` (field `index`).
macro_rules! receiver_api {
    ($t:ident) => {
        impl std::fmt::Debug for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{} {{ index: {} }}", stringify!($t), self.index)
            }
        }

        impl $t {
            /// Number of OTs extended so far in this session.
            pub fn ots_done(&self) -> u64 {
                self.index
            }

            /// Correlated OTs into `out` (`out.len() == choices.len()`):
            /// `out[i] = t_i = q_i ⊕ c_i·Δ`.
            ///
            /// # Panics
            /// If the lengths differ (caller bug).
            pub fn correlated_into(
                &mut self,
                ch: &mut ::brickyard_core::Channel,
                choices: &[bool],
                out: &mut [::brickyard_core::Block],
            ) -> ::brickyard_core::Result<()> {
                assert_eq!(choices.len(), out.len(), "correlated_into: length mismatch");
                self.extend_into(ch, $crate::ext::Choices::Given(choices), false, out)
            }

            /// Correlated OTs: returns `t_i = q_i ⊕ c_i·Δ`.
            pub fn correlated(
                &mut self,
                ch: &mut ::brickyard_core::Channel,
                choices: &[bool],
            ) -> ::brickyard_core::Result<Vec<::brickyard_core::Block>> {
                let mut out = vec![::brickyard_core::Block::ZERO; choices.len()];
                self.correlated_into(ch, choices, &mut out)?;
                Ok(out)
            }

            /// Random OTs with chosen choice bits into `out`: `m_{c_i}`, the
            /// extension's hash of `t_i`.
            ///
            /// # Panics
            /// If the lengths differ (caller bug).
            pub fn random_into(
                &mut self,
                ch: &mut ::brickyard_core::Channel,
                choices: &[bool],
                out: &mut [::brickyard_core::Block],
            ) -> ::brickyard_core::Result<()> {
                assert_eq!(choices.len(), out.len(), "random_into: length mismatch");
                self.extend_into(ch, $crate::ext::Choices::Given(choices), true, out)
            }

            /// Random OTs with chosen choice bits: returns `m_{c_i}`.
            pub fn random(
                &mut self,
                ch: &mut ::brickyard_core::Channel,
                choices: &[bool],
            ) -> ::brickyard_core::Result<Vec<::brickyard_core::Block>> {
                let mut out = vec![::brickyard_core::Block::ZERO; choices.len()];
                self.random_into(ch, choices, &mut out)?;
                Ok(out)
            }

            /// Random OTs with random choice bits, stored for later use (see
            /// [`crate::beaver`]).
            pub fn random_batch(
                &mut self,
                ch: &mut ::brickyard_core::Channel,
                prg: &mut ::brickyard_core::prg::Prg,
                n: usize,
            ) -> ::brickyard_core::Result<$crate::rot::RotReceiverBatch> {
                let (start, bits, t) = self.random_choice_ots(ch, prg, n, true)?;
                Ok($crate::rot::RotReceiverBatch::new(start, bits, t))
            }

            /// Correlated OTs with random choice bits, stored for later use.
            pub fn correlated_batch(
                &mut self,
                ch: &mut ::brickyard_core::Channel,
                prg: &mut ::brickyard_core::prg::Prg,
                n: usize,
            ) -> ::brickyard_core::Result<$crate::rot::CotReceiverBatch> {
                let (start, bits, t) = self.random_choice_ots(ch, prg, n, false)?;
                Ok($crate::rot::CotReceiverBatch::new(start, bits, t))
            }

            /// `n` OTs with choice bits drawn from `prg`: the first index,
            /// the bits and the (hashed if `hash`) `t_i`.
            fn random_choice_ots(
                &mut self,
                ch: &mut ::brickyard_core::Channel,
                prg: &mut ::brickyard_core::prg::Prg,
                n: usize,
                hash: bool,
            ) -> ::brickyard_core::Result<(u64, Vec<bool>, Vec<::brickyard_core::Block>)> {
                let start = self.index;
                let mut bits = Vec::with_capacity(n);
                let mut t = vec![::brickyard_core::Block::ZERO; n];
                let choices = $crate::ext::Choices::Random(prg, &mut bits);
                self.extend_into(ch, choices, hash, &mut t)?;
                Ok((start, bits, t))
            }

            /// Chosen-message OT: returns `x_{c_i}` of the sender's pairs.
            pub fn chosen(
                &mut self,
                ch: &mut ::brickyard_core::Channel,
                choices: &[bool],
            ) -> ::brickyard_core::Result<Vec<::brickyard_core::Block>> {
                let mut out = vec![::brickyard_core::Block::ZERO; choices.len()];
                self.chosen_into(ch, choices, &mut out)?;
                Ok(out)
            }
        }
    };
}

pub(crate) use {receiver_api, sender_api};
