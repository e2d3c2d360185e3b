//! Preprocess in one pair of processes, run online in later pairs, and kill
//! parties with SIGKILL at random moments: every output that appears is
//! correct, and material is never used twice (the store's accounting and
//! Beaver's index check would turn reuse into an error, never an output).

use std::process::Stdio;
use std::time::Duration;

mod common;
use common::{brickyard, info, kind_field, listen, CT, KEY, PT};

#[test]
fn preprocess_then_online_with_kills() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let (a_store, b_store) = (dir.path().join("a.store"), dir.path().join("b.store"));
    let executions = 12;
    let (alice, addr) = listen(
        &home,
        &[
            "preprocess",
            "--role",
            "alice",
            "--store",
            a_store.to_str().unwrap(),
            "--executions",
            "12",
        ],
        10,
    );
    let bob = brickyard(&home)
        .args([
            "preprocess",
            "--role",
            "bob",
            "--connect",
            &addr,
            "--store",
            b_store.to_str().unwrap(),
        ])
        .args(["--executions", "12"])
        .output()
        .unwrap();
    assert!(
        bob.status.success(),
        "{}",
        String::from_utf8_lossy(&bob.stderr)
    );
    assert!(alice.wait_with_output().unwrap().status.success());
    assert_eq!(
        kind_field(&info(&home, &b_store), "rot", "produced"),
        128 * executions
    );

    // Online runs; every other one has a party killed after a random delay.
    let mut rng = 0x9e3779b97f4a7c15u64;
    let (mut ok, mut killed) = (0, 0);
    for round in 0..20 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let (mut alice, addr) = listen(
            &home,
            &[
                "run",
                // Runs here are killed on one side at random: exactly when
                // an operator allows both stores to resynchronise.
                "--resync",
                "--role",
                "alice",
                "--store",
                a_store.to_str().unwrap(),
                "--input",
                KEY,
                "--output",
                "both",
                // Both open their stores before connecting, so a kill can
                // land before the connection: the survivor must not wait
                // the default 60 s for a peer that is gone.
                "--connect-timeout",
                "2",
            ],
            10,
        );
        let mut bob = brickyard(&home)
            .args([
                "run",
                "--resync",
                "--role",
                "bob",
                "--connect",
                &addr,
                "--store",
                b_store.to_str().unwrap(),
            ])
            .args(["--input", PT, "--output", "both", "--timeout", "10"])
            .args(["--connect-timeout", "2"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if round % 2 == 1 {
            std::thread::sleep(Duration::from_micros(rng % 40_000));
            let victim = if rng & 1 == 0 { &mut alice } else { &mut bob };
            let _ = victim.kill();
            killed += 1;
        }
        let b = bob.wait_with_output().unwrap();
        let a = alice.wait_with_output().unwrap();
        let bo = String::from_utf8_lossy(&b.stdout).trim().to_string();
        let ao = String::from_utf8_lossy(&a.stdout).trim().to_string();
        // An output, whenever there is one, is the right one.
        for o in [&bo, &ao] {
            assert!(o.is_empty() || o == CT, "round {round}: wrong output {o}");
        }
        if b.status.success() && a.status.success() {
            assert_eq!(bo, CT);
            ok += 1;
        }
    }
    let (ai, bi) = (info(&home, &a_store), info(&home, &b_store));
    for v in [&ai, &bi] {
        let (consumed, burned, remaining) = (
            kind_field(v, "rot", "consumed"),
            kind_field(v, "rot", "burned"),
            kind_field(v, "rot", "remaining"),
        );
        // Nothing is counted twice and nothing disappears.
        assert_eq!(
            consumed + burned + remaining + kind_field(v, "rot", "dropped"),
            128 * executions
        );
        assert!(
            consumed / 128 >= ok,
            "{ok} successful runs but only {consumed} OTs consumed"
        );
    }
    assert!(ok >= 1, "no run succeeded ({killed} kills)");
    assert!(
        ok <= executions,
        "more successful runs than preprocessed executions"
    );
}
