//! The channel's decoders of peer bytes: frame headers, abort (control)
//! frames, typed postcard messages (`u32` length + body), packed bit
//! vectors, blocks and partial bulk reads. The first input byte picks a
//! sequence of reads; the rest is the peer's byte stream
//! (`brickyard_core::channel::scripted`). Every read must return bytes or a
//! typed error, never panic or allocate beyond `MAX_MESSAGE_LEN`.
#![no_main]

use brickyard_core::channel::{scripted, Abort};
use brickyard_core::Error;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&ops, stream)) = data.split_first() else {
        return;
    };
    let mut ch = scripted(stream);
    // Four reads, two bits each, so every order of kinds is reached.
    for i in 0..4 {
        let r = match (ops >> (2 * i)) & 3 {
            0 => ch.recv_msg::<(u8, String, Vec<u64>)>().map(drop),
            1 => ch.recv_bits(13).map(|b| assert_eq!(b.len(), 13)),
            2 => {
                let mut buf = [0u8; 40];
                ch.recv_bytes_at_least(&mut buf, 7).map(|n| {
                    assert!((7..=40).contains(&n));
                })
            }
            _ => ch.recv_msg::<Option<Abort>>().map(drop),
        };
        if let Err(e) = r {
            match e {
                Error::PeerAborted { reason, .. } => {
                    assert!(reason.len() <= brickyard_core::channel::ABORT_REASON_LEN);
                    assert!(!reason.chars().any(char::is_control));
                }
                Error::Malformed(_) | Error::Disconnected(_) => {}
                other => panic!("unexpected error kind from a channel read: {other:?}"),
            }
            return;
        }
    }
    let _ = ch.recv_block_vec(2);
});
