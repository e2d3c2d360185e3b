//! What Bob keeps of a bundle he may evaluate: everything Alice sent but
//! the commitments of the OT-fed wires (`y¹` in C, `d¹` in C') at the
//! position he did not choose. His choice bits are drawn (independent
//! phase) and his buckets fixed by his own selection before any bundle
//! arrives, and the OT label check opens only the chosen position
//! (`ot-label-decommit`), so the other commitment of each of those wires
//! is never read: dropping it as it arrives spares ≈ 12 KB of fresh memory
//! per bundle (a fifth of a C' bundle), whose first touches are most of
//! Bob's offline CPU. A bundle his cut checks is not kept this way: it is
//! hashed whole and compared with its regeneration (`check-circuit`).

use super::bundle::{pack_bits, recv_commitment};
use super::circuits::Shape;
use super::record::{put_blocks, Reader};
use crate::excom::Commitment;
use brickyard_core::{Channel, Error, Result};
use brickyard_garble::{Decoding, GarblePlan, GarbledCircuit};

/// A bundle of `shape` as Bob keeps it for a bucket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptBundle {
    /// The garbled circuit.
    pub gc: GarbledCircuit,
    /// Colour bit of each output 0-label.
    pub decoding: Decoding,
    /// Two commitments per wire whose bit is only known online: Alice's
    /// `x` wires, then the public ones (`y²`, or `D ‖ d²`).
    pairs: Vec<[Commitment; 2]>,
    /// Per OT-fed wire, the commitment at Bob's choice bit.
    pub chosen: Vec<Commitment>,
    /// The commitment to all output labels.
    pub outputs: Commitment,
    /// `ExtractCom(λ)`.
    pub lambda: Commitment,
    shape: Shape,
}

impl KeptBundle {
    /// Receives a bundle of the agreed shape (sizes from `plan`, `shape`),
    /// keeping of each OT-fed wire `t` the commitment at `choices[t]`;
    /// `ot` is a buffer for the pairs of those wires, reused from bundle to
    /// bundle. The bytes read are exactly those of `BundlePublic::recv`.
    pub fn recv(
        ch: &mut Channel,
        plan: &GarblePlan,
        shape: Shape,
        choices: &[bool],
        ot: &mut Vec<[Commitment; 2]>,
    ) -> Result<Self> {
        if choices.len() != shape.ot {
            return Err(Error::config("lindell-riva: choice bits of a kept bundle"));
        }
        let tables = ch.recv_block_vec(plan.table_blocks())?;
        let decoding = Decoding {
            bits: ch.recv_bits(plan.output_wires().len())?,
        };
        let mut pairs = vec![[Commitment([0; 32]); 2]; shape.x + shape.public];
        let (xs, public) = pairs.split_at_mut(shape.x);
        ch.recv_bytes(bytemuck::cast_slice_mut(xs))?;
        ot.resize(shape.ot, [Commitment([0; 32]); 2]);
        ch.recv_bytes(bytemuck::cast_slice_mut(ot))?;
        let chosen = ot
            .iter()
            .zip(choices)
            .map(|(pair, &c)| pair[c as usize])
            .collect();
        ch.recv_bytes(bytemuck::cast_slice_mut(public))?;
        Ok(KeptBundle {
            gc: GarbledCircuit {
                tables,
                tweak_offset: 0,
            },
            decoding,
            pairs,
            chosen,
            outputs: recv_commitment(ch)?,
            lambda: recv_commitment(ch)?,
            shape,
        })
    }

    /// The commitment pairs of input wires `base..base + n` (wire indices
    /// of the whole bundle); `None` unless they are all `x` wires or all
    /// public ones (the OT-fed wires' pairs are not kept).
    pub fn pairs(&self, base: usize, n: usize) -> Option<&[[Commitment; 2]]> {
        let end = base.checked_add(n)?;
        let (x, ot) = (self.shape.x, self.shape.ot);
        if end <= x {
            self.pairs.get(base..end)
        } else if base >= x + ot {
            self.pairs.get(base - ot..end - ot)
        } else {
            None
        }
    }

    /// Appends the stored form (see `record.rs`).
    pub fn write(&self, out: &mut Vec<u8>) {
        put_blocks(out, &self.gc.tables);
        out.extend_from_slice(&pack_bits(&self.decoding.bits));
        out.extend_from_slice(bytemuck::cast_slice(&self.pairs));
        out.extend_from_slice(bytemuck::cast_slice(&self.chosen));
        out.extend_from_slice(&self.outputs.0);
        out.extend_from_slice(&self.lambda.0);
    }

    /// The stored form of a bundle of the agreed shape.
    pub(crate) fn read(r: &mut Reader<'_>, plan: &GarblePlan, shape: Shape) -> Result<Self> {
        let tables = r.blocks(plan.table_blocks())?;
        let decoding = Decoding {
            bits: r.bits(plan.output_wires().len())?,
        };
        let pairs = (0..shape.x + shape.public)
            .map(|_| Ok([Commitment(r.arr32()?), Commitment(r.arr32()?)]))
            .collect::<Result<Vec<_>>>()?;
        let chosen = (0..shape.ot)
            .map(|_| r.arr32().map(Commitment))
            .collect::<Result<Vec<_>>>()?;
        Ok(KeptBundle {
            gc: GarbledCircuit {
                tables,
                tweak_offset: 0,
            },
            decoding,
            pairs,
            chosen,
            outputs: Commitment(r.arr32()?),
            lambda: Commitment(r.arr32()?),
            shape,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::bundle::generate;
    use crate::protocol::tests::small_f;
    use brickyard_core::channel::memory_pair;
    use brickyard_core::Block;

    /// An honest bundle sent whole and received kept: the same tables and
    /// commitments, of each OT-fed wire the chosen one, the same again
    /// through the stored form, and a short record refused.
    #[test]
    fn a_kept_bundle_holds_the_chosen_commitments() {
        let plan = GarblePlan::new(&small_f()).unwrap();
        let shape = Shape {
            x: 2,
            ot: 4,
            public: 2,
        };
        let (public, _) = generate(&plan, shape, 3, Block(11)).unwrap();
        let choices = [true, false, false, true];
        let (mut a, mut b) = memory_pair();
        public.send(&mut a).unwrap();
        a.flush().unwrap();
        let kept = KeptBundle::recv(&mut b, &plan, shape, &choices, &mut Vec::new()).unwrap();
        assert_eq!(kept.gc, public.gc);
        assert_eq!(kept.decoding, public.decoding);
        assert_eq!(kept.pairs(0, 2), Some(&public.labels[..2]));
        assert_eq!(kept.pairs(6, 2), Some(&public.labels[6..]));
        assert_eq!(kept.pairs(7, 1), Some(&public.labels[7..]));
        assert_eq!(kept.pairs(1, 2), None);
        assert_eq!(kept.pairs(5, 2), None);
        assert_eq!(kept.pairs(6, 3), None);
        for (t, &c) in choices.iter().enumerate() {
            assert_eq!(kept.chosen[t], public.labels[2 + t][c as usize]);
        }
        assert_eq!((kept.outputs, kept.lambda), (public.outputs, public.lambda));
        let mut bytes = Vec::new();
        kept.write(&mut bytes);
        let mut r = Reader::new(&bytes);
        assert_eq!(KeptBundle::read(&mut r, &plan, shape).unwrap(), kept);
        r.done().unwrap();
        let mut r = Reader::new(&bytes[..bytes.len() - 1]);
        assert!(matches!(
            KeptBundle::read(&mut r, &plan, shape),
            Err(Error::Malformed(_))
        ));
        let wrong = KeptBundle::recv(&mut b, &plan, shape, &choices[1..], &mut Vec::new());
        assert!(wrong.is_err());
    }
}
