//! Turning output labels back into bits.

use crate::delta::Delta;
use brickyard_core::{Block, Error, Result};
use serde::{Deserialize, Serialize};

/// Output decoding information: the colour bit of each output wire's
/// 0-label. Sending it lets the evaluator learn the output; withholding it
/// (and having labels sent back) keeps the output with the garbler.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decoding {
    /// `lsb` of the 0-label of each output wire, in plan output order.
    pub bits: Vec<bool>,
}

impl Decoding {
    /// The decoding information of the given output 0-labels.
    pub fn from_zero_labels(zero_labels: &[Block]) -> Self {
        Decoding {
            bits: zero_labels.iter().map(|l| l.lsb()).collect(),
        }
    }
}

/// The evaluator's decoding: value = colour bit ⊕ colour bit of the 0-label.
/// A count mismatch (peer-sent decoding info) is [`Error::Malformed`].
pub fn decode(labels: &[Block], decoding: &Decoding) -> Result<Vec<bool>> {
    if labels.len() != decoding.bits.len() {
        return Err(Error::malformed(format!(
            "{} output labels but {} decoding bits",
            labels.len(),
            decoding.bits.len()
        )));
    }
    Ok(labels
        .iter()
        .zip(&decoding.bits)
        .map(|(l, &d)| l.lsb() ^ d)
        .collect())
}

/// The garbler's decoding of labels the evaluator sent back. Unlike
/// [`decode`] it checks each label is one of the wire's two labels, so an
/// evaluator cannot make the garbler accept an output it did not compute:
/// any other block fails the check `output-label-authenticity`.
pub fn decode_checked(labels: &[Block], zero_labels: &[Block], delta: &Delta) -> Result<Vec<bool>> {
    if labels.len() != zero_labels.len() {
        return Err(Error::malformed(format!(
            "{} output labels for {} output wires",
            labels.len(),
            zero_labels.len()
        )));
    }
    let d = delta.block();
    labels
        .iter()
        .zip(zero_labels)
        .map(|(&l, &z)| {
            if l == z {
                Ok(false)
            } else if l == z ^ d {
                Ok(true)
            } else {
                Err(Error::Cheating {
                    check: "output-label-authenticity",
                })
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_both_ways() {
        let delta = Delta::new(Block(0xf0f1));
        let z = [Block(0x10), Block(0x21)];
        let labels = [z[0] ^ delta.block(), z[1]];
        let dec = Decoding::from_zero_labels(&z);
        assert_eq!(decode(&labels, &dec).unwrap(), vec![true, false]);
        assert_eq!(
            decode_checked(&labels, &z, &delta).unwrap(),
            vec![true, false]
        );
        assert!(matches!(
            decode(&labels[..1], &dec),
            Err(Error::Malformed(_))
        ));
        let forged = [labels[0], Block(0x23)];
        assert!(matches!(
            decode_checked(&forged, &z, &delta),
            Err(Error::Cheating {
                check: "output-label-authenticity"
            })
        ));
    }
}
