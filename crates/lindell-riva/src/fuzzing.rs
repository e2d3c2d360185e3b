//! Lindell–Riva's stateless decoders of peer messages for the fast
//! cargo-fuzz target `lr_decode` (feature `fuzzing`); F_ExCom∆ZK's whole
//! sessions are the replay targets `lr_prover` and `lr_verifier`.

use crate::excom::{bytes_to_bits, ExComParams, Selection};
use crate::probe::ProbeSpec;
use brickyard_core::channel::scripted;
use brickyard_core::Result;

/// The F_ExCom∆ZK parameters the decoders expect (those of the replay
/// targets).
pub fn params() -> ExComParams {
    ExComParams::new(40, 8, 12, 3, 3).expect("parameters")
}

/// Byte 0 picks a decoder, byte 1 sizes it; the rest is the peer's bytes:
/// 0 = a packed bit vector (`bytes_to_bits`: exact length, zero padding),
/// 1 = Bob's opened cut-and-choose selection (`Selection::from_opening`:
/// length, padding, then the commitment check, `excom-selection`),
/// 2 = Bob's two probe-resistant matrix specs as Alice receives them
/// (postcard `ProbeSpec` over the channel, then `ProbeSpec::verify` for
/// `l` input rows at s = 40: every premise of the probe-resistance
/// argument). `Ok` or a typed error.
pub fn decode(data: &[u8]) -> Result<()> {
    let [sel, size, rest @ ..] = data else {
        return Ok(());
    };
    match sel % 3 {
        0 => bytes_to_bits(rest, *size as usize).map(drop),
        1 => {
            let p = params();
            let c = honest_selection(&p).commitment();
            Selection::from_opening(&p, rest, &c).map(drop)
        }
        _ => {
            let ch = &mut scripted(rest);
            let spec: ProbeSpec = ch.recv_msg()?;
            spec.verify(1 + *size as usize, 40)?;
            let spec2: ProbeSpec = ch.recv_msg()?;
            spec2.verify(1 + (*sel >> 2) as usize, 40)
        }
    }
}

/// Bob's opening of a bucket's challenge `W_j` as the prover receives it
/// in `ProverSession::respond` (fast target `phase_decode`): byte 0 picks
/// the bucket (of 4), the rest is the peer's stream; the fixed-length
/// read, then `challenge::open` (length, padding bits of `W_j`, and the
/// commitment check `challenge-decommit` against the challenge of
/// [`honest_challenge`]). `Ok` or a typed error.
pub fn challenge(data: &[u8]) -> Result<()> {
    let [b, rest @ ..] = data else {
        return Ok(());
    };
    let p = params();
    let bucket = *b as usize % 4;
    let c = honest_challenge(bucket).commitment();
    let mut bytes = vec![0u8; (p.s as usize).div_ceil(8) + 16];
    scripted(rest).recv_bytes(&mut bytes)?;
    crate::excom::challenge::open(bucket, p.s, &bytes, &c).map(drop)
}

/// The challenge of `bucket` whose commitment [`challenge`] checks
/// openings against.
pub fn honest_challenge(bucket: usize) -> crate::excom::BucketChallenge {
    use brickyard_core::prg::Prg;
    use brickyard_core::Block;
    let s = params().s;
    crate::excom::BucketChallenge::random(bucket, s, &mut Prg::from_seed(Block(0xc4a1)))
}

/// The selection whose commitment target 1 checks openings against.
pub fn honest_selection(p: &ExComParams) -> Selection {
    use brickyard_core::prg::Prg;
    use brickyard_core::Block;
    Selection::random(p, &mut Prg::from_seed(Block(0x5e1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::channel::{memory_transport_pair, Recording};
    use brickyard_core::prg::Prg;
    use brickyard_core::{Block, Channel, Error};

    #[test]
    fn direct_decoders_accept_honest_messages_and_refuse_others() {
        decode(&[0, 10, 0xff, 0x03]).unwrap();
        assert!(matches!(
            decode(&[0, 10, 0xff, 0x07]),
            Err(Error::Malformed(_))
        ));
        let p = params();
        let open = honest_selection(&p).opening_bytes();
        decode(&[[1, 0].as_slice(), &open].concat()).unwrap();
        let mut bad = open.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert!(matches!(
            decode(&[[1, 0].as_slice(), &bad].concat()),
            Err(Error::Cheating { .. })
        ));
        // Two honest specs for 20 and 7 input rows (sel = 2 + 4·6 = 26:
        // 26 % 3 = 2, 26 >> 2 = 6, so l' = 7).
        let prg = &mut Prg::from_seed(Block(3));
        let specs = [
            ProbeSpec::choose(20, 40, prg).unwrap(),
            ProbeSpec::choose(7, 40, prg).unwrap(),
        ];
        let (a, b) = memory_transport_pair();
        let (rec, log) = Recording::new(b);
        let mut ch = Channel::new(rec);
        ch.send_msg(&specs[0]).unwrap();
        ch.send_msg(&specs[1]).unwrap();
        ch.flush().unwrap();
        drop((ch, a));
        let v = log.lock().unwrap().clone();
        decode(&[[26, 19].as_slice(), &v].concat()).unwrap();
        assert!(
            decode(&[[26, 18].as_slice(), &v].concat()).is_err(),
            "wrong row count accepted"
        );
    }

    #[test]
    fn challenge_openings_decode_and_a_changed_bit_trips_challenge_decommit() {
        for bucket in 0..4u8 {
            let (open, w) = honest_challenge(bucket as usize).reveal();
            assert_eq!(w.len(), params().s as usize);
            // The channel reads raw bytes: the opening is one frame.
            let frame = |b: &[u8]| [&(b.len() as u32).to_le_bytes()[..], b].concat();
            challenge(&[[bucket].as_slice(), &frame(&open)].concat()).unwrap();
            let mut bad = open.clone();
            bad[0] ^= 1;
            let r = challenge(&[[bucket].as_slice(), &frame(&bad)].concat());
            assert!(
                matches!(r, Err(Error::Cheating { check }) if check == crate::excom::CHECK_CHALLENGE),
                "{r:?}"
            );
            // An opening of another challenge for this bucket is refused.
            let s = params().s;
            let other = crate::excom::BucketChallenge::random(
                bucket as usize,
                s,
                &mut Prg::from_seed(Block(0xbad)),
            );
            let r = challenge(&[[bucket].as_slice(), &frame(&other.reveal().0)].concat());
            assert!(matches!(r, Err(Error::Cheating { .. })), "{r:?}");
            assert!(challenge(&[[bucket].as_slice(), &frame(&open[1..])].concat()).is_err());
        }
    }
}
