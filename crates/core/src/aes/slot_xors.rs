//! The XOR part of a slot program: 3-input XOR gates
//! `w[out] = w[a] ⊕ w[b] ⊕ w[c]` over the label vector.
//!
//! Why 3 inputs, one record format and byte offsets: free-XOR costs no
//! cryptography, so on circuits such as SHA-256 (~5 XORs per AND) the XOR
//! loop is a third of the time, and it is bound by instructions per gate,
//! not by memory. The plan fuses chains `(a ⊕ b) ⊕ c` whose middle value
//! nothing else reads into one gate (one store and no reload instead of
//! two of each), pads 2-input gates with a slot that stays zero, and splits
//! wider XORs into 3-input pieces. One fixed record format keeps the loop
//! free of branches: per-arity loops were tried and lost on SHA-256, where
//! a step holds ~10 short runs and every run switch is a mispredicted jump.
//! Offsets are stored pre-multiplied by 16 (x86 addressing scales by at
//! most 8), which saves a shift per operand.

use crate::{Block, Error, Result};
use std::ops::Range;

/// 3-input XOR gates `[a, b, c, out]`, validated against a bound.
///
/// Until [`SlotXors::validate`] the entries are slot numbers; afterwards
/// they are byte offsets into the label vector (`16 · slot`), each checked
/// to address a block below the bound, so the kernel does no arithmetic and
/// no bounds checks.
#[derive(Clone, Debug, Default)]
pub struct SlotXors {
    gates: Vec<[u32; 4]>,
    /// The bound the offsets were checked against (`None`: slot numbers).
    validated: Option<usize>,
}

impl SlotXors {
    /// `gates[i] = [a, b, c, out]`: `w[out] = w[a] ⊕ w[b] ⊕ w[c]` (an
    /// input may equal `out`: all inputs are read before the store).
    pub fn new(gates: Vec<[u32; 4]>) -> Self {
        SlotXors {
            gates,
            validated: None,
        }
    }

    /// Number of gates.
    pub fn len(&self) -> usize {
        self.gates.len()
    }

    /// Whether there are no gates.
    pub fn is_empty(&self) -> bool {
        self.gates.is_empty()
    }

    /// Gate `i` as slot numbers `[a, b, c, out]`.
    ///
    /// # Panics
    /// If `i` is out of range.
    pub fn gate(&self, i: usize) -> [u32; 4] {
        let scale = if self.validated.is_some() { 16 } else { 1 };
        self.gates[i].map(|s| s / scale)
    }

    /// Checks every slot `< bound` and turns slots into byte offsets.
    /// Gates validated against another bound are checked anew: a program
    /// built from another program's gates (`SlotProgram::xors` cloned)
    /// must not run offsets checked only against a longer vector.
    pub(crate) fn validate(&mut self, bound: usize) -> Result<()> {
        match self.validated {
            Some(b) if b == bound => return Ok(()),
            Some(_) => {
                for g in &mut self.gates {
                    *g = g.map(|s| s / 16);
                }
                self.validated = None;
            }
            None => {}
        }
        if bound > (u32::MAX as usize) / 16 {
            return Err(Error::config(format!(
                "{bound} label slots: byte offsets exceed 32 bits"
            )));
        }
        if let Some(g) = self
            .gates
            .iter()
            .find(|g| g.iter().any(|&s| s as usize >= bound))
        {
            return Err(Error::config(format!(
                "XOR gate {g:?} names a slot outside 0..{bound}"
            )));
        }
        for g in &mut self.gates {
            *g = g.map(|s| s * 16);
        }
        self.validated = Some(bound);
        Ok(())
    }

    /// Runs gates `range` in order on `w`. The caller has checked
    /// `w.len() >=` the bound passed to [`SlotXors::validate`].
    pub(crate) fn run(&self, w: &mut [Block], range: Range<usize>) {
        assert!(self.validated.is_some(), "XOR gates run before validation");
        let gates = &self.gates[range];
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: `validate` checked every offset addresses a block
            // below the bound, and the caller checked `w` is that long.
            unsafe { x86::run(w, gates) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        portable(w, gates)
    }

    /// The validated gates `range` as byte offsets, for kernels that run
    /// them interleaved with other work (`halfgates`' stage kernels).
    ///
    /// # Panics
    /// Before validation, or if `range` is out of bounds.
    pub(crate) fn offsets(&self, range: Range<usize>) -> &[[u32; 4]] {
        assert!(self.validated.is_some(), "XOR gates run before validation");
        &self.gates[range]
    }

    /// [`SlotXors::run`] with safe indexing (the portable backend; tests).
    pub(crate) fn run_portable(&self, w: &mut [Block], range: Range<usize>) {
        assert!(self.validated.is_some(), "XOR gates run before validation");
        portable(w, &self.gates[range])
    }
}

fn portable(w: &mut [Block], gates: &[[u32; 4]]) {
    for &[a, b, c, o] in gates {
        w[o as usize / 16] = w[a as usize / 16] ^ w[b as usize / 16] ^ w[c as usize / 16];
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use crate::Block;
    use std::arch::x86_64::*;

    /// SSE loads and stores (a `u128` XOR goes through pairs of 64-bit
    /// registers). The label loads are aligned (`Block` is 16-byte aligned
    /// and every offset a multiple of 16), so two of the three fold into the
    /// `xorps` as memory operands: with the offset loads, the store and the
    /// loop, that is 9 instructions per gate instead of 12, and the loop is
    /// bound by the load ports (7 loads per gate), not by the front end.
    ///
    /// # Safety
    /// Every byte offset of `gates` addresses a whole block of `w`.
    #[inline]
    pub(super) unsafe fn run(w: &mut [Block], gates: &[[u32; 4]]) {
        const _: () = assert!(std::mem::align_of::<Block>() == 16);
        let base = w.as_mut_ptr().cast::<u8>();
        let at = |o: u32| base.wrapping_add(o as usize).cast::<__m128i>();
        for &[a, b, c, o] in gates {
            // SAFETY: forwarded from the caller; `w`'s blocks are 16-byte
            // aligned (asserted above) and offsets are multiples of 16, so
            // the aligned accesses are too.
            unsafe {
                let x = _mm_xor_si128(_mm_load_si128(at(a)), _mm_load_si128(at(b)));
                _mm_store_si128(at(o), _mm_xor_si128(x, _mm_load_si128(at(c))));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prg::Prg;

    #[test]
    fn kernel_matches_portable_and_the_definition() {
        let mut p = Prg::from_seed(Block(5));
        let bound = 40u32;
        // Random gates, including outputs that overwrite their own inputs
        // and repeated inputs.
        let gates: Vec<[u32; 4]> = (0..300)
            .map(|_| {
                let r = p.random_block().0;
                std::array::from_fn(|k| ((r >> (16 * k)) as u32) % bound)
            })
            .collect();
        let mut x = SlotXors::new(gates.clone());
        assert_eq!(x.gate(7), gates[7]);
        x.validate(bound as usize).unwrap();
        assert_eq!(x.gate(7), gates[7]);
        let w0 = p.random_blocks(bound as usize);
        let (mut a, mut b, mut c) = (w0.clone(), w0.clone(), w0);
        x.run(&mut a, 0..150);
        x.run(&mut a, 150..300);
        x.run_portable(&mut b, 0..300);
        for &[i, j, k, o] in &gates {
            c[o as usize] = c[i as usize] ^ c[j as usize] ^ c[k as usize];
        }
        assert_eq!(a, c);
        assert_eq!(b, c);
    }

    #[test]
    fn out_of_bound_slots_are_config_errors() {
        let x = SlotXors::new(vec![[0, 1, 2, 3]]);
        assert!(matches!(x.clone().validate(3), Err(Error::Config(_))));
        assert!(x.clone().validate(4).is_ok());
        assert!(x.clone().validate(usize::MAX / 2).is_err());
        // Gates validated against one bound are checked anew against
        // another (a shorter vector must not get unchecked offsets).
        let mut y = x.clone();
        y.validate(64).unwrap();
        assert!(matches!(y.clone().validate(3), Err(Error::Config(_))));
        y.validate(4).unwrap();
        assert_eq!(y.gate(0), [0, 1, 2, 3]);
        let mut w = vec![Block(1), Block(2), Block(4), Block::ZERO];
        y.run(&mut w, 0..1);
        assert_eq!(w[3], Block(7));
    }

    #[test]
    #[should_panic(expected = "before validation")]
    fn unvalidated_gates_do_not_run() {
        SlotXors::new(vec![[0, 0, 0, 0]]).run_portable(&mut [Block::ZERO], 0..1);
    }
}
