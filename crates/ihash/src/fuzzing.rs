//! The i-hash's stateless decoders for the fast cargo-fuzz target
//! `ihash_decode` (feature `fuzzing`); the whole sessions are the replay
//! targets `ihash_sender` and `ihash_receiver`.

use crate::params::Params;
use crate::receiver::recv_symbols;
use brickyard_core::channel::scripted;
use brickyard_core::Result;
use std::sync::OnceLock;

/// Byte 0 picks the parameter set (labels k = 88 over GF(2^8), or the
/// permutation strings' set) and byte 1 a count; the rest is the peer's
/// stream in the order the receiver reads it: a flight of corrections,
/// check answers and differences (symbols of GF(2^σ): a byte outside the
/// field is `Malformed`), then the sender's verdict byte
/// (`verdict::recv`). `Ok` or a typed error.
pub fn decode(data: &[u8]) -> Result<()> {
    let [sel, count, rest @ ..] = data else {
        return Ok(());
    };
    // The sets are searched once per process (the search costs more than
    // the decoders).
    static SETS: OnceLock<[Params; 2]> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        [
            Params::for_labels(88, 40).expect("label set"),
            Params::for_permutation_strings(40).expect("permutation-string set"),
        ]
    });
    let p = &sets[(*sel & 1) as usize];
    let field = p.field();
    let ch = &mut scripted(rest);
    let mut buf = vec![0u8; (p.n - p.ell) * (1 + *count as usize % 8)];
    recv_symbols(ch, &mut buf, field, "correction")?;
    let mut buf = vec![0u8; p.ell * (1 + *count as usize / 32)];
    recv_symbols(ch, &mut buf, field, "check answer")?;
    crate::verdict::recv(ch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::channel::{memory_transport_pair, Recording};
    use brickyard_core::{Channel, Error};

    fn stream(sel: u8, count: u8, symbol: u8, verdict: u8) -> Vec<u8> {
        let p = if sel & 1 == 0 {
            Params::for_labels(88, 40).unwrap()
        } else {
            Params::for_permutation_strings(40).unwrap()
        };
        let (a, b) = memory_transport_pair();
        let (rec, log) = Recording::new(b);
        let mut ch = Channel::new(rec);
        let n1 = (p.n - p.ell) * (1 + count as usize % 8);
        let n2 = p.ell * (1 + count as usize / 32);
        let mut v = vec![1u8; n1 + n2];
        v[n1 + n2 - 1] = symbol;
        ch.send_bytes(&v).unwrap();
        ch.send_bytes(&[verdict]).unwrap();
        ch.flush().unwrap();
        drop((ch, a));
        let v = log.lock().unwrap().clone();
        [vec![sel, count], v].concat()
    }

    #[test]
    fn direct_decoders_accept_honest_messages_and_refuse_others() {
        for sel in [0u8, 1] {
            for count in [0u8, 9, 255] {
                decode(&stream(sel, count, 7, 0)).unwrap();
                assert!(matches!(
                    decode(&stream(sel, count, 7, 1)),
                    Err(Error::Disconnected(_))
                ));
                assert!(matches!(
                    decode(&stream(sel, count, 7, 200)),
                    Err(Error::Malformed(_))
                ));
            }
        }
        // The permutation-string set is over GF(2^6): 255 is no symbol.
        assert_eq!(Params::for_permutation_strings(40).unwrap().sigma, 6);
        assert!(matches!(
            decode(&stream(1, 3, 255, 0)),
            Err(Error::Malformed(m)) if m.contains("check answer")
        ));
    }
}
