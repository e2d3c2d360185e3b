//! End-to-end sessions with the real base OTs: in-memory, over loopback
//! TCP, and resumed from serialised state (commit more without new OTs).

use brickyard_commit::params::CommitParams;
use brickyard_commit::{Committer, CommitterState, Receiver, ReceiverState};
use brickyard_core::channel::{accept, connect, listen, memory_pair, NetOptions};
use brickyard_core::prg::Prg;
use brickyard_core::Channel;

/// LEGO's default: s = 40 run at 43 (N = 317, D = 45).
fn params() -> CommitParams {
    CommitParams::new(43).unwrap()
}

fn session(mut ca: Channel, mut cb: Channel) -> (Committer, Receiver) {
    let msgs = Prg::new().random_blocks(300);
    std::thread::scope(|s| {
        let h = s.spawn(move || {
            let mut c = Committer::setup(&mut ca, &mut Prg::new(), params())
                .unwrap()
                .with_threads(2);
            assert_eq!(c.commit(&mut ca, &msgs).unwrap(), 0..300);
            assert_eq!(c.commit_random(&mut ca, 1000).unwrap(), 300..1300);
            c.open(&mut ca, &[0, 299, 1299]).unwrap();
            c.open_xor(&mut ca, &[vec![1, 2], vec![300, 301, 302]])
                .unwrap();
            c.batch_open(&mut ca, &(0..300).collect::<Vec<_>>())
                .unwrap();
            (c, msgs)
        });
        let mut r = Receiver::setup(&mut cb, &mut Prg::new(), params()).unwrap();
        assert_eq!(r.receive_commitments(&mut cb, 300).unwrap(), 0..300);
        assert_eq!(r.receive_commitments(&mut cb, 1000).unwrap(), 300..1300);
        let opened = r.verify_open(&mut cb, &[0, 299, 1299]).unwrap();
        let xored = r
            .verify_open_xor(&mut cb, &[vec![1, 2], vec![300, 301, 302]])
            .unwrap();
        let batch = r
            .verify_batch_open(&mut cb, &(0..300).collect::<Vec<_>>())
            .unwrap();
        let (c, msgs) = h.join().unwrap();
        let v = |i: usize| c.value(i).unwrap();
        assert_eq!(opened, vec![msgs[0], msgs[299], v(1299)]);
        assert_eq!(xored, vec![msgs[1] ^ msgs[2], v(300) ^ v(301) ^ v(302)]);
        assert_eq!(batch, msgs);
        (c, r)
    })
}

#[test]
fn honest_session_in_memory() {
    let (a, b) = memory_pair();
    session(a, b);
}

#[test]
fn honest_session_over_tcp() {
    let listener = listen("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let opts = NetOptions::default();
    let h = std::thread::spawn(move || connect(&addr, &NetOptions::default()).unwrap());
    let b = accept(&listener, &opts).unwrap();
    let a = h.join().unwrap();
    session(a, b);
}

#[test]
fn resumed_session_commits_more_without_new_base_ots() {
    let (a, b) = memory_pair();
    let (c, r) = session(a, b);
    // Persist both states as bytes (what the store would do) and resume.
    let cs: CommitterState =
        postcard::from_bytes(&postcard::to_stdvec(c.state()).unwrap()).unwrap();
    let rs: ReceiverState = postcard::from_bytes(&postcard::to_stdvec(r.state()).unwrap()).unwrap();
    let (mut c, mut r) = (
        Committer::from_state(cs, params()).unwrap(),
        Receiver::from_state(rs, params()).unwrap(),
    );
    let (mut ca, mut cb) = memory_pair();
    let got = std::thread::scope(|s| {
        let h = s.spawn(|| {
            c.commit_random(&mut ca, 200).unwrap();
            c.open(&mut ca, &[5, 1300, 1499]).unwrap();
        });
        assert_eq!(r.receive_commitments(&mut cb, 200).unwrap(), 1300..1500);
        let got = r.verify_open(&mut cb, &[5, 1300, 1499]).unwrap();
        h.join().unwrap();
        got
    });
    assert_eq!(
        got,
        vec![
            c.value(5).unwrap(),
            c.value(1300).unwrap(),
            c.value(1499).unwrap()
        ]
    );
    assert_ne!(c.value(1300), c.value(0));
}

#[test]
fn parties_with_different_s_fail_without_a_panic_and_states_do_not_resume_under_another_s() {
    let (mut ca, mut cb) = memory_pair();
    let (c, r) = std::thread::scope(|s| {
        let h = s.spawn(move || {
            Committer::setup(&mut ca, &mut Prg::new(), CommitParams::new(40).unwrap())
                .and_then(|mut c| c.commit_random(&mut ca, 100).map(|_| c))
        });
        let r = Receiver::setup(&mut cb, &mut Prg::new(), params())
            .and_then(|mut r| r.receive_commitments(&mut cb, 100).map(|_| r));
        drop(cb);
        (h.join().unwrap(), r)
    });
    assert!(
        c.is_err() || r.is_err(),
        "a 299-OT committer and a 317-OT receiver must not agree"
    );
    let (a, b) = memory_pair();
    let (c, r) = session(a, b);
    let other = CommitParams::new(40).unwrap();
    assert!(Committer::from_state(c.state().clone(), other).is_err());
    assert!(Receiver::from_state(r.state().clone(), other).is_err());
}
