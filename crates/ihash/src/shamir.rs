//! Shamir sharing of the 16-byte setup key K over GF(2^8), byte by byte.
//!
//! Threshold t: any t shares give K, any t − 1 are independent of it. Share
//! j sits at x = j + 1 (n ≤ 255 points, never 0).

use brickyard_core::gf256::GF256;
use brickyard_core::prg::Prg;
use brickyard_core::Block;
use zeroize::Zeroize;

/// n shares of `secret` with threshold t (1 ≤ t ≤ n ≤ 255).
pub(crate) fn share(secret: Block, t: usize, n: usize, prg: &mut Prg) -> Vec<Block> {
    assert!(1 <= t && t <= n && n <= 255, "shamir: need 1 ≤ t ≤ n ≤ 255");
    // coef[d] holds the degree-d coefficient of all 16 byte polynomials.
    let mut coef = vec![secret.to_bytes()];
    for _ in 1..t {
        coef.push(prg.random_block().to_bytes());
    }
    let out = (0..n)
        .map(|j| {
            let x = j as u8 + 1;
            let mut y = [0u8; 16];
            // Horner from the top coefficient down.
            for c in coef.iter().rev() {
                for b in 0..16 {
                    y[b] = GF256.mul(y[b], x) ^ c[b];
                }
            }
            Block::from_bytes(y)
        })
        .collect();
    coef.zeroize();
    out
}

/// The secret from shares at positions `xs` (indices j, distinct): the
/// Lagrange interpolation at 0. With the right number of consistent shares
/// this is K; otherwise it is some value the caller's hash check rejects.
pub(crate) fn reconstruct(xs: &[usize], shares: &[Block]) -> Block {
    let mut out = [0u8; 16];
    for (a, (&ja, ya)) in xs.iter().zip(shares).enumerate() {
        let xa = ja as u8 + 1;
        // λ_a = Π_{b≠a} x_b / (x_b − x_a)  (− = + in characteristic 2).
        let lambda = xs
            .iter()
            .enumerate()
            .filter(|&(b, _)| b != a)
            .fold(1u8, |acc, (_, &jb)| {
                let xb = jb as u8 + 1;
                GF256.mul(acc, GF256.div(xb, xb ^ xa).expect("distinct points"))
            });
        let y = ya.to_bytes();
        for b in 0..16 {
            out[b] ^= GF256.mul(lambda, y[b]);
        }
    }
    let k = Block::from_bytes(out);
    out.zeroize();
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threshold_shares_reconstruct_and_fewer_do_not() {
        let mut prg = Prg::from_seed(Block(7));
        let k = prg.random_block();
        let shares = share(k, 5, 12, &mut prg);
        let pick = [11, 2, 7, 0, 5];
        let got: Vec<Block> = pick.iter().map(|&j| shares[j]).collect();
        assert_eq!(reconstruct(&pick, &got), k);
        assert_ne!(reconstruct(&pick[..4], &got[..4]), k);
        let mut bad = got.clone();
        bad[3] ^= Block(1);
        assert_ne!(reconstruct(&pick, &bad), k);
    }
}
