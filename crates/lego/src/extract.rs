//! Extraction of Alice's input once Bob knows Δ (Fig. 2 with the input
//! buckets as trapdoor). Each gate of an input bucket has both inputs
//! soldered to the input wire, so with Δ Bob can run it on all four key
//! pairs `(K ⊕ aΔ, K ⊕ bΔ)`. A correct AND gate gives one output on three
//! of them and another on the fourth, which is the pair of 1-keys and lies
//! on the diagonal `a = b`; so the semantic of K is `1 ⊕ a`. β̃ = 2β+1
//! gates vote; a strict majority decides (Theorem 2's input-bucket event).

use super::component::eval_gate;
use super::material::GateB;
use brickyard_core::Block;

/// One gate's vote on the bit `key` carries, if its outputs have the shape
/// of an AND gate.
fn vote(g: &GateB, key: Block, delta: Block) -> Option<bool> {
    let (l, r) = (key ^ g.s[0], key ^ g.s[1]);
    let out =
        |a: bool, b: bool| eval_gate(l ^ delta.and_bit(a), r ^ delta.and_bit(b), &g.table, g.id);
    let o = [
        out(false, false),
        out(false, true),
        out(true, false),
        out(true, true),
    ];
    for odd in 0..4 {
        let others: Vec<Block> = (0..4).filter(|&i| i != odd).map(|i| o[i]).collect();
        if others.iter().all(|&x| x == others[0]) && o[odd] != others[0] {
            return match odd {
                0 => Some(true),
                3 => Some(false),
                _ => None,
            };
        }
    }
    None
}

/// The bit Alice's input key `key` carries, by majority of the bucket.
pub fn extract_bit(gates: &[GateB], key: Block, delta: Block) -> Option<bool> {
    let ones = gates
        .iter()
        .filter(|g| vote(g, key, delta) == Some(true))
        .count();
    let zeros = gates
        .iter()
        .filter(|g| vote(g, key, delta) == Some(false))
        .count();
    if 2 * ones > gates.len() {
        Some(true)
    } else if 2 * zeros > gates.len() {
        Some(false)
    } else {
        None
    }
}
