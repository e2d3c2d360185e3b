//! F_Δ-ROT for LEGO (Generate step 2), through `brickyard_ot::delta_rot`:
//! a leaky k+s-column extension with the KOS check, linear randomness
//! extraction, and lsb(Δ) = 1. A Δ-ROT session extends exactly once, so
//! every Generate call runs its own session and gets its own Δ: material
//! of one Generate call is soldered only to material of the same call.

use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_ot::delta_rot::{DeltaRotParams, DeltaRotReceiver, DeltaRotSender};

/// Alice's Δ-ROTs: Δ (lsb 1) and the 0-strings `r⁰_i`.
pub struct RotSenderOut {
    /// The global difference, also the garbling Δ.
    pub delta: Block,
    /// `r⁰_i`; the pair is `(r⁰_i, r⁰_i ⊕ Δ)`.
    pub r0: Vec<Block>,
}

/// Alice: base OTs for one Δ-ROT session (done in Setup for the first
/// Generate, so Setup holds all public-key work as the paper says).
/// `params` are the run's ([`super::security::Components::delta_rot`]:
/// k + s_c leaky columns).
pub fn sender_setup(
    ch: &mut Channel,
    prg: &mut Prg,
    params: DeltaRotParams,
) -> Result<DeltaRotSender> {
    DeltaRotSender::setup_with(ch, prg, params, true)
}

/// Bob: base OTs for one Δ-ROT session.
pub fn receiver_setup(
    ch: &mut Channel,
    prg: &mut Prg,
    params: DeltaRotParams,
) -> Result<DeltaRotReceiver> {
    DeltaRotReceiver::setup_with(ch, prg, params)
}

/// Alice: `n` Δ-ROTs with lsb(Δ) = 1.
pub fn send(mut s: DeltaRotSender, ch: &mut Channel, n: usize) -> Result<RotSenderOut> {
    let r0 = s.extend(ch, n)?;
    let delta = s
        .delta()
        .ok_or_else(|| Error::config("lego: Δ-ROT produced no Δ"))?;
    if !delta.lsb() {
        return Err(Error::config("lego: Δ-ROT returned lsb(Δ) = 0"));
    }
    Ok(RotSenderOut { delta, r0 })
}

/// Bob: `n` Δ-ROTs: choice bits `b_i` and `r_i^{b_i}`.
pub fn receive(
    mut r: DeltaRotReceiver,
    ch: &mut Channel,
    n: usize,
) -> Result<(Vec<bool>, Vec<Block>)> {
    r.extend(ch, n)
}
