//! Plaintext evaluation, one input at a time or 64 at once.
//!
//! Both evaluators share one generic gate loop over a "word": `bool` for a
//! single evaluation, `u64` for 64 independent evaluations bit-sliced across
//! the lanes (used by the randomized tests to cover many inputs cheaply).

use std::ops::{BitAnd, BitXor, Not};

use crate::ir::{Circuit, Gate, WireId};

/// Why an evaluation could not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// The number of input values differs from the number of input groups.
    #[error("the circuit has {expected} input groups but {got} values were given")]
    GroupCount {
        /// Input groups in the circuit.
        expected: usize,
        /// Values supplied.
        got: usize,
    },
    /// An input value has the wrong number of bits.
    #[error("input group {group} ({name}) has {expected} bits but the value has {got}")]
    Width {
        /// Index of the group.
        group: usize,
        /// Name of the group.
        name: String,
        /// Width of the group.
        expected: usize,
        /// Bits supplied.
        got: usize,
    },
    /// The circuit names a wire that does not exist (it was not validated).
    #[error("the circuit refers to wire {0}, which is out of range")]
    WireOutOfRange(WireId),
}

trait Word:
    Copy + Default + BitXor<Output = Self> + BitAnd<Output = Self> + Not<Output = Self>
{
}
impl Word for bool {}
impl Word for u64 {}

impl Circuit {
    /// Evaluates the circuit on one value per input group (bit `k` of a
    /// value is wire `k` of its group) and returns one value per output group.
    pub fn eval(&self, inputs: &[Vec<bool>]) -> Result<Vec<Vec<bool>>, EvalError> {
        self.run(inputs)
    }

    /// Evaluates 64 independent instances at once: lane `j` of every `u64`
    /// belongs to instance `j`. Input `g` holds one word per wire of group
    /// `g`; the result holds one word per output wire.
    pub fn eval64(&self, inputs: &[Vec<u64>]) -> Result<Vec<Vec<u64>>, EvalError> {
        self.run(inputs)
    }

    fn run<W: Word>(&self, inputs: &[Vec<W>]) -> Result<Vec<Vec<W>>, EvalError> {
        if inputs.len() != self.inputs.len() {
            return Err(EvalError::GroupCount {
                expected: self.inputs.len(),
                got: inputs.len(),
            });
        }
        let mut wires = vec![W::default(); self.num_wires as usize];
        for (gi, (group, value)) in self.inputs.iter().zip(inputs).enumerate() {
            if group.width() != value.len() {
                return Err(EvalError::Width {
                    group: gi,
                    name: group.name.clone(),
                    expected: group.width(),
                    got: value.len(),
                });
            }
            for (&w, &v) in group.wires.iter().zip(value) {
                *wires
                    .get_mut(w as usize)
                    .ok_or(EvalError::WireOutOfRange(w))? = v;
            }
        }
        let get = |wires: &[W], w: WireId| {
            wires
                .get(w as usize)
                .copied()
                .ok_or(EvalError::WireOutOfRange(w))
        };
        for g in &self.gates {
            let v = match *g {
                Gate::Xor { a, b, .. } => get(&wires, a)? ^ get(&wires, b)?,
                Gate::And { a, b, .. } => get(&wires, a)? & get(&wires, b)?,
                Gate::Inv { a, .. } => !get(&wires, a)?,
            };
            let out = g.output();
            *wires
                .get_mut(out as usize)
                .ok_or(EvalError::WireOutOfRange(out))? = v;
        }
        self.outputs
            .iter()
            .map(|g| g.wires.iter().map(|&w| get(&wires, w)).collect())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::EvalError;
    use crate::ir::{Circuit, Gate, Group};

    fn maj() -> Circuit {
        // maj(a,b,c) = ((a^c)&(b^c))^c
        Circuit {
            num_wires: 7,
            inputs: vec![
                Group {
                    name: "ab".into(),
                    wires: vec![0, 1],
                },
                Group {
                    name: "c".into(),
                    wires: vec![2],
                },
            ],
            outputs: vec![Group {
                name: "m".into(),
                wires: vec![6],
            }],
            gates: vec![
                Gate::Xor { a: 0, b: 2, out: 3 },
                Gate::Xor { a: 1, b: 2, out: 4 },
                Gate::And { a: 3, b: 4, out: 5 },
                Gate::Xor { a: 5, b: 2, out: 6 },
            ],
        }
    }

    #[test]
    fn single_and_sliced_agree_with_majority() {
        let c = maj();
        for x in 0..8u8 {
            let (a, b, cc) = (x & 1 == 1, x & 2 == 2, x & 4 == 4);
            let out = c.eval(&[vec![a, b], vec![cc]]).unwrap();
            let want = (a as u8 + b as u8 + cc as u8) >= 2;
            assert_eq!(out, vec![vec![want]]);
        }
        let (a, b, cc) = (0xF0F0u64, 0xCCCCu64, 0xAAAAu64);
        let out = c.eval64(&[vec![a, b], vec![cc]]).unwrap();
        assert_eq!(out[0][0], (a & b) | (a & cc) | (b & cc));
    }

    #[test]
    fn width_errors() {
        let c = maj();
        assert_eq!(
            c.eval(&[vec![true]]),
            Err(EvalError::GroupCount {
                expected: 2,
                got: 1
            })
        );
        assert!(matches!(
            c.eval(&[vec![true], vec![true]]),
            Err(EvalError::Width { group: 0, .. })
        ));
    }
}
