//! The examples, run as tests: the builder example's answers on both
//! sides of the comparison and at the boundary, AES between two parties
//! over TCP against FIPS-197, and the preprocess-then-run story.

#[path = "../examples/millionaires.rs"]
mod millionaires;

#[path = "../examples/aes_two_process.rs"]
mod aes_two_process;

#[path = "../examples/preprocess_then_run.rs"]
mod preprocess_then_run;

use brickyard::Role;

#[test]
fn millionaires_compares_both_ways_and_at_equality() {
    for (x, y, want) in [
        (5, 3, true),
        (3, 5, false),
        (7, 7, false),
        (u64::MAX, u64::MAX - 1, true),
        (0, 1, false),
    ] {
        assert_eq!(
            millionaires::alice_is_richer("yao", x, y).unwrap(),
            want,
            "{x} > {y}"
        );
    }
    // The same circuit under a malicious-secure protocol.
    assert!(millionaires::alice_is_richer("tinytable", 1 << 40, 1 << 39).unwrap());
    assert!(!millionaires::alice_is_richer("tinytable", 1 << 39, 1 << 40).unwrap());
    // The example's own entry point (defaults: 1 000 000 vs 999 999).
    millionaires::main().unwrap();
}

#[test]
fn aes_two_parties_over_tcp_match_fips197() {
    // A free port, released for Alice to listen on (Bob's connect retries).
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .to_string();
    let a = addr.clone();
    let alice = std::thread::spawn(move || {
        aes_two_process::run("yao", Role::Alice, &a, aes_two_process::KEY)
    });
    let bob = aes_two_process::run("yao", Role::Bob, &addr, aes_two_process::PLAINTEXT).unwrap();
    assert_eq!(alice.join().unwrap().unwrap(), None);
    assert_eq!(bob.as_deref(), Some(aes_two_process::CIPHERTEXT));
    let _ = aes_two_process::main; // run from the command line only (needs --role)
}

#[test]
fn preprocess_then_run_sums_from_the_store_and_refuses_a_fourth_run() {
    let dir = tempfile::tempdir().unwrap();
    let sums = preprocess_then_run::story(dir.path()).unwrap();
    assert_eq!(sums, vec![3, 42, 0]);
    let _ = preprocess_then_run::main;
}
