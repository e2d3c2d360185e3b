//! The order in which Bob evaluates a circuit: AND-depth layers (as
//! `Circuit::layering`), each AND gate keeping its number in circuit
//! order, which is the number of its bucket. Build lays every bucket's
//! soldered gates out in this order, so that Eval hashes all buckets of a
//! layer in one pass over contiguous slices.

use brickyard_circuit::{Circuit, Gate};

/// One layer: linear gates whose inputs are ready, then AND gates that
/// depend only on wires computed before them.
#[derive(Clone, Debug, Default)]
pub struct Layer {
    /// XOR and INV gates, in an order valid for sequential evaluation.
    pub linear: Vec<Gate>,
    /// `(a, b, out, bucket)`: the bucket is the AND's number in circuit
    /// order.
    pub ands: Vec<(u32, u32, u32, u32)>,
}

/// A circuit's layers and where each bucket sits in layer order.
#[derive(Clone, Debug, Default)]
pub struct Schedule {
    /// The layers, in evaluation order.
    pub layers: Vec<Layer>,
    /// Position of bucket `q` (circuit order) in layer order.
    pub slot: Vec<u32>,
}

impl Schedule {
    /// The schedule of `c`.
    pub fn new(c: &Circuit) -> Schedule {
        let depth = c.and_depths();
        let max = depth.iter().copied().max().unwrap_or(0) as usize;
        let mut layers: Vec<Layer> = (0..=max).map(|_| Layer::default()).collect();
        let mut and = 0u32;
        for g in &c.gates {
            let d = depth[g.output() as usize] as usize;
            match *g {
                Gate::And { a, b, out } => {
                    layers[d - 1].ands.push((a, b, out, and));
                    and += 1;
                }
                lin => layers[d].linear.push(lin),
            }
        }
        let mut slot = vec![0u32; and as usize];
        let mut next = 0u32;
        for l in &layers {
            for &(_, _, _, q) in &l.ands {
                slot[q as usize] = next;
                next += 1;
            }
        }
        Schedule { layers, slot }
    }

    /// AND gates of the circuit.
    pub fn and_count(&self) -> usize {
        self.slot.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::prg::Prg;
    use brickyard_core::Block;

    /// Evaluating the schedule gate by gate gives the circuit's outputs, and
    /// `slot` is a permutation that lists the ANDs in layer order.
    #[test]
    fn schedule_evaluates_like_the_circuit() {
        let c = brickyard_circuit::resolve("builtin:aes128").unwrap();
        let s = Schedule::new(&c);
        assert_eq!(s.and_count(), c.and_count());
        let mut seen = vec![false; s.and_count()];
        let mut at = 0;
        for l in &s.layers {
            for &(_, _, _, q) in &l.ands {
                assert_eq!(s.slot[q as usize], at);
                assert!(!std::mem::replace(&mut seen[q as usize], true));
                at += 1;
            }
        }
        let mut prg = Prg::from_seed(Block(27));
        let groups: Vec<Vec<bool>> = c
            .inputs
            .iter()
            .map(|g| prg.random_bits(g.width()))
            .collect();
        let want = c.eval(&groups).unwrap();
        let mut v = vec![false; c.num_wires as usize];
        for (g, bits) in c.inputs.iter().zip(&groups) {
            for (&w, &b) in g.wires.iter().zip(bits) {
                v[w as usize] = b;
            }
        }
        for l in &s.layers {
            for g in &l.linear {
                match *g {
                    Gate::Xor { a, b, out } => v[out as usize] = v[a as usize] ^ v[b as usize],
                    Gate::Inv { a, out } => v[out as usize] = !v[a as usize],
                    Gate::And { .. } => unreachable!(),
                }
            }
            for &(a, b, o, _) in &l.ands {
                v[o as usize] = v[a as usize] & v[b as usize];
            }
        }
        let got: Vec<Vec<bool>> = c
            .outputs
            .iter()
            .map(|g| g.wires.iter().map(|&w| v[w as usize]).collect())
            .collect();
        assert_eq!(got, want);
    }
}
