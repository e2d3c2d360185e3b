//! Bytes from a peer that do not fit the protocol give typed errors.

use super::{ideal_setup, run};
use crate::wire::{put_opening, send_count, CommitHeader};
use brickyard_core::{Block, Error};

#[test]
fn wrong_counts_and_padding_are_malformed() {
    let (mut c, mut r) = ideal_setup(20);
    run(
        &mut c,
        &mut r,
        |c, ch| c.commit_random(ch, 10).unwrap(),
        |r, ch| r.receive_commitments(ch, 10).unwrap(),
    );
    // The committer opens two values where one was expected.
    let (_, res) = run(
        &mut c,
        &mut r,
        |c, ch| c.open(ch, &[0, 1]),
        |r, ch| r.verify_open(ch, &[0]),
    );
    assert!(matches!(res, Err(Error::Malformed(_))), "{res:?}");
    // Padding bits beyond N set in the share.
    let (_, res) = run(
        &mut c,
        &mut r,
        |c, ch| {
            let (m, mut t) = c.item([0]).unwrap();
            t[4] |= 1 << 44;
            let mut buf = Vec::new();
            put_opening(&mut buf, c.params.n(), m, &t);
            send_count(ch, 1).unwrap();
            ch.send_bytes(&buf).unwrap();
            ch.flush()
        },
        |r, ch| r.verify_open(ch, &[0]),
    );
    assert!(matches!(res, Err(Error::Malformed(_))), "{res:?}");
    // A batch opening with a short message list.
    let (_, res) = run(
        &mut c,
        &mut r,
        |c, ch| c.batch_open(ch, &[0]),
        |r, ch| r.verify_batch_open(ch, &[0, 1]),
    );
    assert!(matches!(res, Err(Error::Malformed(_))), "{res:?}");
}

#[test]
fn bad_headers_and_truncation_are_typed_errors() {
    let (mut c, mut r) = ideal_setup(21);
    // Count differs from what the receiver expects.
    let (_, res) = run(
        &mut c,
        &mut r,
        |c, ch| c.commit_random(ch, 11),
        |r, ch| r.receive_commitments(ch, 10),
    );
    assert!(matches!(res, Err(Error::Malformed(_))), "{res:?}");
    // Desynchronised block counter.
    let (mut c, mut r) = ideal_setup(22);
    let (_, res) = run(
        &mut c,
        &mut r,
        |_, ch| {
            ch.send_msg(&CommitHeader {
                count: 10,
                chosen: false,
                first_block: 7,
            })?;
            ch.flush()
        },
        |r, ch| r.receive_commitments(ch, 10),
    );
    assert!(matches!(res, Err(Error::Malformed(_))), "{res:?}");
    // The committer hangs up half-way through the corrections.
    let (mut c, mut r) = ideal_setup(23);
    let (_, res) = run(
        &mut c,
        &mut r,
        |_, ch| {
            ch.send_msg(&CommitHeader {
                count: 1000,
                chosen: true,
                first_block: 0,
            })?;
            ch.send_blocks(&[Block(3); 100])?;
            ch.flush()
        },
        |r, ch| r.receive_commitments(ch, 1000),
    );
    assert!(
        matches!(res, Err(Error::Disconnected(_)) | Err(Error::Io(_))),
        "{res:?}"
    );
    // Unknown ids and bad bit-opening arguments are local configuration errors.
    let (mut c, mut r) = ideal_setup(24);
    run(
        &mut c,
        &mut r,
        |c, ch| c.commit_random(ch, 50).unwrap(),
        |r, ch| r.receive_commitments(ch, 50).unwrap(),
    );
    let (a, b) = run(
        &mut c,
        &mut r,
        |c, ch| c.open(ch, &[50]),
        |r, ch| r.verify_open(ch, &[50]),
    );
    assert!(matches!(a, Err(Error::Config(_))) && matches!(b, Err(Error::Config(_))));
    let (a, b) = run(
        &mut c,
        &mut r,
        |c, ch| c.open_bits(ch, &[[0usize]], 0, &[1, 2]),
        |r, ch| r.verify_open_bits(ch, &[[0usize]], 128, &[1, 2]),
    );
    assert!(matches!(a, Err(Error::Config(_))) && matches!(b, Err(Error::Config(_))));
}
