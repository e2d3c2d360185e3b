//! The IR invariants, checked in one linear pass.

use crate::ir::{Circuit, WireId};

/// Why a [`Circuit`] is not well formed. Protocols rely on these invariants
/// to index wire tables without bounds surprises, so hand-built circuits
/// should be validated before use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValidateError {
    /// A wire number is not below `num_wires`.
    #[error("wire {wire} is out of range (the circuit has {num_wires} wires)")]
    OutOfRange {
        /// The offending wire.
        wire: WireId,
        /// The circuit's wire count.
        num_wires: u32,
    },
    /// A wire is an input twice, a gate output twice, or both.
    #[error("wire {wire} is written more than once")]
    WrittenTwice {
        /// The offending wire.
        wire: WireId,
    },
    /// Gate `gate` reads a wire that no input or earlier gate wrote.
    #[error("gate {gate} reads wire {wire} before it is written")]
    ReadBeforeWrite {
        /// Index of the gate in `gates`.
        gate: usize,
        /// The wire read.
        wire: WireId,
    },
    /// An output group names a wire that nothing writes.
    #[error("output wire {wire} is never written")]
    OutputNotWritten {
        /// The offending wire.
        wire: WireId,
    },
    /// Some wire below `num_wires` is never written: wires must be dense so
    /// that per-wire tables have no holes.
    #[error("wire {wire} is never written (wires must be numbered densely)")]
    Unused {
        /// The first such wire.
        wire: WireId,
    },
}

impl Circuit {
    /// Checks the IR invariants: wires in range, every wire written exactly
    /// once (as an input or as a gate output), no gate reads a wire before it
    /// is written, output groups name written wires.
    pub fn validate(&self) -> Result<(), ValidateError> {
        let n = self.num_wires;
        let mut written = vec![false; n as usize];
        let mark = |wire: WireId, written: &mut [bool]| -> Result<(), ValidateError> {
            let slot = written
                .get_mut(wire as usize)
                .ok_or(ValidateError::OutOfRange { wire, num_wires: n })?;
            if *slot {
                return Err(ValidateError::WrittenTwice { wire });
            }
            *slot = true;
            Ok(())
        };
        for w in self.inputs.iter().flat_map(|g| g.wires.iter()) {
            mark(*w, &mut written)?;
        }
        for (i, g) in self.gates.iter().enumerate() {
            let (ins, k) = g.inputs();
            for &w in &ins[..k] {
                match written.get(w as usize) {
                    None => {
                        return Err(ValidateError::OutOfRange {
                            wire: w,
                            num_wires: n,
                        })
                    }
                    Some(false) => return Err(ValidateError::ReadBeforeWrite { gate: i, wire: w }),
                    Some(true) => {}
                }
            }
            mark(g.output(), &mut written)?;
        }
        for &w in self.outputs.iter().flat_map(|g| g.wires.iter()) {
            match written.get(w as usize) {
                None => {
                    return Err(ValidateError::OutOfRange {
                        wire: w,
                        num_wires: n,
                    })
                }
                Some(false) => return Err(ValidateError::OutputNotWritten { wire: w }),
                Some(true) => {}
            }
        }
        if let Some(w) = written.iter().position(|&b| !b) {
            return Err(ValidateError::Unused { wire: w as WireId });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::{Circuit, Gate, Group};

    use super::ValidateError;

    fn base() -> Circuit {
        Circuit {
            num_wires: 4,
            inputs: vec![Group {
                name: "a".into(),
                wires: vec![0, 1],
            }],
            outputs: vec![Group {
                name: "o".into(),
                wires: vec![3],
            }],
            gates: vec![Gate::And { a: 0, b: 1, out: 2 }, Gate::Inv { a: 2, out: 3 }],
        }
    }

    #[test]
    fn accepts_valid() {
        assert_eq!(base().validate(), Ok(()));
    }

    #[test]
    fn rejects_each_violation() {
        let mut c = base();
        c.gates.swap(0, 1);
        assert_eq!(
            c.validate(),
            Err(ValidateError::ReadBeforeWrite { gate: 0, wire: 2 })
        );

        let mut c = base();
        c.gates[1] = Gate::Inv { a: 2, out: 1 };
        assert_eq!(c.validate(), Err(ValidateError::WrittenTwice { wire: 1 }));

        let mut c = base();
        c.outputs[0].wires.push(9);
        assert_eq!(
            c.validate(),
            Err(ValidateError::OutOfRange {
                wire: 9,
                num_wires: 4
            })
        );

        let mut c = base();
        c.num_wires = 5;
        assert_eq!(c.validate(), Err(ValidateError::Unused { wire: 4 }));

        let mut c = base();
        c.gates[0] = Gate::Xor { a: 0, b: 7, out: 2 };
        assert_eq!(
            c.validate(),
            Err(ValidateError::OutOfRange {
                wire: 7,
                num_wires: 4
            })
        );
    }
}
