//! Setup: the OTs that start F_HCOM and the first Δ-ROT session.
//!
//! The commitment scheme needs N(s_c) random OTs with Alice as sender
//! (one per code position; Bob's choices are his watch bits), and the
//! Δ-ROT needs k + s_c OTs with Alice as *receiver* (her choices are the
//! leaky Δ'). Neither needs them to be base OTs: both take OT outputs
//! only as PRG seeds. NST17 (Sec. VI, "commitment scheme") computes the
//! scheme's 312 random OTs by OT extension and notes that OT extension
//! can produce the base OTs of a protocol that already uses OT. So Setup
//! runs k = 128 public-key base OTs **each way**, in one flight each way
//! ([`brickyard_ot::base::exchange_random`]), and extends them with KOS
//! (the revised column check, `docs/security.md`):
//!
//! * session 1, Alice the KOS sender (base OTs Bob → Alice, Alice's
//!   choices a fresh Δ₁): N random OTs, Bob choosing his watch bits →
//!   the commitment seeds;
//! * session 2, Bob the KOS sender (base OTs Alice → Bob): k + s_c random
//!   OTs, Alice choosing Δ' → the Δ-ROT's base OTs.
//!
//! 2k = 256 public-key OTs instead of N + k + s_c = 488 at s = 40: the
//! count follows k (KOS needs κ = k columns for k-bit security), not s;
//! s moves into the extensions' lengths. Why this is as secure: KOS random
//! OT realises F_ROT against a malicious receiver (who may learn c bits
//! of the sender's Δ at a 2^-c risk each; TCCR-hashed outputs then cost
//! 2^(k−c) work, ≈ k bits in total) and a malicious sender (IKNP hides the
//! receiver's choices perfectly given the base OTs); its check fails to
//! catch an inconsistent receiver with probability ≤ 2^-114 per batch
//! ([`KOS_CHECK_LOG2`]), a seventh term of LEGO's union bound
//! ([`super::security::terms`]). A corrupt party choosing its own OT
//! outputs is no more than choosing its own seeds, which the simulators
//! of the FJNT16 commitments and of the leaky Δ-ROT already allow
//! (`docs/security.md`, "What it composes to"). The two sessions are
//! independent (their own base OTs and Δs), and neither Δ₁ nor Δ₂ is
//! used for anything else.

use super::hcom::{HcomReceiver, HcomSender};
use super::security::Components;
use brickyard_core::prg::Prg;
use brickyard_core::{Channel, Result};
use brickyard_driver::steps::step;
use brickyard_ot::delta_rot::{DeltaRotReceiver, DeltaRotSender};
use brickyard_ot::kos::{KosReceiver, KosSender};
use zeroize::{Zeroize, Zeroizing};

/// Public-key base OTs each way: KOS's κ, which is the computational
/// parameter k (128, the block length).
pub const BASE_OTS_EACH_WAY: usize = brickyard_ot::iknp::KAPPA;

/// log2 of the probability that one KOS check batch passes a receiver
/// whose columns use different choice vectors without a guessed Δ bit:
/// `κ²·2^-128` (`docs/security.md`, "Which KOS version").
pub const KOS_CHECK_LOG2: f64 = -114.0;

/// Setup's one step in the bench's breakdown: the OTs the commitments
/// and the Δ-ROT take as their base OTs (public-key OTs and the two KOS
/// extensions; the extensions cost well under a millisecond).
const STEP: &str = "base OTs (commitments and delta-ROT)";

/// Alice's Setup: her F_HCOM session and her Δ-ROT sender.
pub fn alice(
    ch: &mut Channel,
    prg: &mut Prg,
    sec: &Components,
) -> Result<(HcomSender, DeltaRotSender)> {
    step(STEP, || alice_ots(ch, prg, sec))
}

fn alice_ots(
    ch: &mut Channel,
    prg: &mut Prg,
    sec: &Components,
) -> Result<(HcomSender, DeltaRotSender)> {
    let delta1 = Zeroizing::new(prg.random_block());
    let choices = Zeroizing::new(
        (0..BASE_OTS_EACH_WAY)
            .map(|j| delta1.bit(j))
            .collect::<Vec<bool>>(),
    );
    // Alice receives session 1's base OTs (choices Δ₁) and sends session 2's.
    let (sent, got) = brickyard_ot::base::exchange_random(ch, prg, BASE_OTS_EACH_WAY, &choices)?;
    let mut kos1 = KosSender::from_base(*delta1, got, prg)?;
    let mut kos2 = KosReceiver::from_base(sent, prg)?;
    let pairs = kos1.random(ch, sec.commit.n())?;
    let hcom = HcomSender::from_base(pairs, sec.commit)?;
    let pending = DeltaRotSender::prepare(prg, sec.delta_rot, true)?;
    let seeds = kos2.random(ch, pending.choices())?;
    Ok((hcom, pending.finish(seeds)?))
}

/// Bob's Setup: his F_HCOM session and his Δ-ROT receiver.
pub fn bob(
    ch: &mut Channel,
    prg: &mut Prg,
    sec: &Components,
) -> Result<(HcomReceiver, DeltaRotReceiver)> {
    step(STEP, || bob_ots(ch, prg, sec))
}

fn bob_ots(
    ch: &mut Channel,
    prg: &mut Prg,
    sec: &Components,
) -> Result<(HcomReceiver, DeltaRotReceiver)> {
    let delta2 = Zeroizing::new(prg.random_block());
    let choices = Zeroizing::new(
        (0..BASE_OTS_EACH_WAY)
            .map(|j| delta2.bit(j))
            .collect::<Vec<bool>>(),
    );
    // Bob sends session 1's base OTs and receives session 2's (choices Δ₂).
    let (sent, got) = brickyard_ot::base::exchange_random(ch, prg, BASE_OTS_EACH_WAY, &choices)?;
    let mut kos2 = KosSender::from_base(*delta2, got, prg)?;
    let mut kos1 = KosReceiver::from_base(sent, prg)?;
    let mut bits = HcomReceiver::watch_bits(prg, sec.commit);
    let seeds = match kos1.random(ch, &bits) {
        Ok(seeds) => seeds,
        Err(e) => {
            bits.zeroize();
            return Err(e);
        }
    };
    let hcom = HcomReceiver::from_base(prg, bits, seeds, sec.commit)?;
    let pairs = kos2.random(ch, sec.delta_rot.leaky_len())?;
    Ok((
        hcom,
        DeltaRotReceiver::from_base(prg, sec.delta_rot, pairs)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::channel::memory_pair;
    use brickyard_core::{Block, Error};

    fn sec() -> Components {
        Components::new(40).unwrap()
    }

    #[test]
    fn sessions_from_setup_commit_and_open() {
        let (mut ca, mut cb) = memory_pair();
        let t = std::thread::spawn(move || {
            let mut prg = Prg::new();
            let (mut hcom, _rot) = bob(&mut cb, &mut prg, &sec()).unwrap();
            let ids = hcom.receive(&mut cb, 300).unwrap();
            hcom.verify_open(&mut cb, &[vec![ids.start, ids.start + 7]])
        });
        let mut prg = Prg::new();
        let (mut hcom, rot) = alice(&mut ca, &mut prg, &sec()).unwrap();
        let vals: Vec<Block> = (0..300u128).map(|i| Block(i * 0x9e37_79b9 + 1)).collect();
        let ids = hcom.commit(&mut ca, &vals).unwrap();
        hcom.open(&mut ca, &[vec![ids.start, ids.start + 7]])
            .unwrap();
        let got = t.join().unwrap();
        assert_eq!(got.unwrap(), vec![vals[0] ^ vals[7]]);
        assert!(
            rot.delta().is_none(),
            "Δ is fixed by the extension, not Setup"
        );
    }

    /// Bob as the receiver of the commitments' KOS extension answers its
    /// check wrongly: Alice stops with the extension's named check.
    #[cfg(feature = "adversary")]
    #[test]
    fn a_cheating_receiver_of_the_commitment_ots_is_caught() {
        use brickyard_ot::adversary::KosReceiverCheat;
        let (mut ca, mut cb) = memory_pair();
        let t = std::thread::spawn(move || {
            let mut prg = Prg::new();
            let choices = prg.random_bits(BASE_OTS_EACH_WAY);
            let (sent, _got) =
                brickyard_ot::base::exchange_random(&mut cb, &mut prg, BASE_OTS_EACH_WAY, &choices)
                    .unwrap();
            let mut kos1 = KosReceiver::from_base(sent, &mut prg).unwrap();
            kos1.set_cheat(Some(KosReceiverCheat::WrongCheckValue));
            let bits = prg.random_bits(sec().commit.n());
            let _ = kos1.random(&mut cb, &bits);
        });
        let mut prg = Prg::new();
        let e = alice(&mut ca, &mut prg, &sec()).err().unwrap();
        drop(ca);
        t.join().unwrap();
        assert!(
            matches!(e, Error::Cheating { check } if check == brickyard_ot::kos::CHECK_NAME),
            "{e:?}"
        );
    }

    /// Alice as the receiver of the Δ-ROT base OTs' KOS extension answers
    /// its check wrongly: Bob stops with the extension's named check.
    #[cfg(feature = "adversary")]
    #[test]
    fn a_cheating_receiver_of_the_delta_rot_base_ots_is_caught() {
        use brickyard_ot::adversary::KosReceiverCheat;
        let (mut ca, mut cb) = memory_pair();
        let t = std::thread::spawn(move || {
            let mut prg = Prg::new();
            let delta1 = prg.random_block();
            let choices: Vec<bool> = (0..BASE_OTS_EACH_WAY).map(|j| delta1.bit(j)).collect();
            let (sent, got) =
                brickyard_ot::base::exchange_random(&mut ca, &mut prg, BASE_OTS_EACH_WAY, &choices)
                    .unwrap();
            let mut kos1 = KosSender::from_base(delta1, got, &mut prg).unwrap();
            let mut kos2 = KosReceiver::from_base(sent, &mut prg).unwrap();
            kos1.random(&mut ca, sec().commit.n()).unwrap();
            kos2.set_cheat(Some(KosReceiverCheat::WrongCheckValue));
            let choices = prg.random_bits(sec().delta_rot.leaky_len());
            let _ = kos2.random(&mut ca, &choices);
        });
        let mut prg = Prg::new();
        let e = bob(&mut cb, &mut prg, &sec()).err().unwrap();
        drop(cb);
        t.join().unwrap();
        assert!(
            matches!(e, Error::Cheating { check } if check == brickyard_ot::kos::CHECK_NAME),
            "{e:?}"
        );
    }
}
