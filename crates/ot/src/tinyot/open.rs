//! Opening authenticated shares with one batched MAC check.
//!
//! Each party sends its share bits and `BLAKE3(M_1 ‖ … ‖ M_n)` of its MACs
//! (32 bytes for the whole batch instead of 16 bytes per bit); the peer
//! recomputes the expected MACs `K_i ⊕ b_i·Δ` from its keys and the
//! received bits and compares digests. Passing with a flipped bit needs
//! the MAC `K_i ⊕ (1⊕b_i)·Δ`, i.e. guessing Δ: probability 2^-126 with two
//! bits of Δ fixed (plus the hash's collision bound). The digest reveals
//! nothing the verifier could not compute itself.
//!
//! Alice speaks first; Bob answers after reading. That order cannot help a
//! rushing Bob: his bits are bound by his MACs before he sees Alice's.

use super::share::{AuthShare, Role};
use brickyard_core::{Block, Channel, Error, Result};

/// Name of the check in `Cheating { check }`.
pub const MAC_CHECK: &str = "mac-check";

const CONTEXT: &str = "brickyard 2025-01 TinyOT batched MAC check v1";

fn digest(macs: &[Block]) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key(CONTEXT);
    h.update(bytemuck::cast_slice(macs));
    *h.finalize().as_bytes()
}

/// Sends my bits and MAC digest; `tamper` (adversary tests) may rewrite
/// them first.
fn send_mine(ch: &mut Channel, bits: &[bool], macs: &[Block]) -> Result<()> {
    ch.send_bits(bits)?;
    ch.send_bytes(&digest(macs))?;
    ch.flush()
}

fn check_peer(ch: &mut Channel, delta: Block, shares: &[AuthShare]) -> Result<Vec<bool>> {
    let peer = ch.recv_bits(shares.len())?;
    let mut got = [0u8; 32];
    ch.recv_bytes(&mut got)?;
    let mut expect: Vec<Block> = shares
        .iter()
        .zip(&peer)
        .map(|(s, &b)| s.key ^ delta.and_bit(b))
        .collect();
    let want = digest(&expect);
    use zeroize::Zeroize;
    expect.zeroize();
    // Digests are compared in full (no early exit).
    if got.iter().zip(&want).fold(0u8, |a, (x, y)| a | (x ^ y)) != 0 {
        return Err(Error::Cheating { check: MAC_CHECK });
    }
    Ok(peer)
}

/// Opens `shares` to both parties; returns `x_i = x_me ⊕ x_peer`.
/// `my_bits`/`my_macs` are what this party claims (equal to the shares'
/// own fields unless an adversary test rewrites them).
pub(crate) fn open_with(
    ch: &mut Channel,
    role: Role,
    delta: Block,
    shares: &[AuthShare],
    my_bits: &[bool],
    my_macs: &[Block],
) -> Result<Vec<bool>> {
    let peer = match role {
        Role::Alice => {
            send_mine(ch, my_bits, my_macs)?;
            check_peer(ch, delta, shares)?
        }
        Role::Bob => {
            let p = check_peer(ch, delta, shares)?;
            send_mine(ch, my_bits, my_macs)?;
            p
        }
    };
    Ok(shares.iter().zip(peer).map(|(s, p)| s.bit ^ p).collect())
}
