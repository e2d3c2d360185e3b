//! The one-byte verdict that ends each checked step, so that a party that
//! detects cheating tells its peer why before both stop.

use brickyard_core::{Channel, Error, Result};

/// The named checks of this crate (see `docs/protocols/jimu.md`).
pub const CHECKS: [&str; 5] = [
    "ihash-setup-shares",
    "ihash-setup-key",
    "ihash-consistency",
    "ihash-seed-image",
    "perm-seed",
];

/// Sends the outcome of a local check: 0 = passed, 1 + index of the check
/// otherwise. Returns `outcome` unchanged.
pub(crate) fn send(ch: &mut Channel, outcome: Result<()>) -> Result<()> {
    let code = match &outcome {
        Ok(()) => 0u8,
        Err(Error::Cheating { check }) => {
            1 + CHECKS.iter().position(|c| c == check).unwrap_or(254) as u8
        }
        Err(_) => 255,
    };
    ch.send_bytes(&[code])?;
    ch.flush()?;
    outcome
}

/// Receives the peer's verdict; a failure at the peer becomes
/// `Disconnected` naming the peer's check.
pub(crate) fn recv(ch: &mut Channel) -> Result<()> {
    let mut b = [0u8];
    ch.recv_bytes(&mut b)?;
    match b[0] {
        0 => Ok(()),
        c if (c as usize) <= CHECKS.len() => Err(Error::Disconnected(format!(
            "peer aborted: check `{}` failed",
            CHECKS[c as usize - 1]
        ))),
        255 => Err(Error::Disconnected(
            "peer aborted with a local error".into(),
        )),
        c => Err(Error::malformed(format!("ihash: verdict byte {c}"))),
    }
}
