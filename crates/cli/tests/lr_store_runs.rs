//! Lindell–Riva offline and online in separate processes, as a user runs
//! it: `brickyard preprocess --protocol lindell-riva --executions N` in one
//! pair of processes, then `brickyard run --store` pairs, each using one
//! bucket, once. A run past the last bucket is refused (exit 6) with the
//! stores unchanged; a store made for another circuit is refused (exit 3,
//! naming the circuit digest) before connecting; parties killed with
//! SIGKILL at random moments never make a bucket serve twice and never
//! give a wrong output.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

mod common;
use common::{brickyard, info, kind_field, listen};

const CIRCUIT: &str = "builtin:add32";

fn preprocess(home: &Path, a_store: &Path, b_store: &Path, n: &str) {
    let (alice, addr) = listen(
        home,
        &[
            "preprocess",
            "--protocol",
            "lindell-riva",
            "--circuit",
            CIRCUIT,
            "--role",
            "alice",
            "--store",
            a_store.to_str().unwrap(),
            "--executions",
            n,
        ],
        60,
    );
    let bob = brickyard(home)
        .args([
            "preprocess",
            "--protocol",
            "lindell-riva",
            "--circuit",
            CIRCUIT,
        ])
        .args(["--role", "bob", "--connect", &addr, "--store"])
        .arg(b_store)
        .args(["--executions", n])
        .output()
        .unwrap();
    assert!(
        bob.status.success(),
        "{}",
        String::from_utf8_lossy(&bob.stderr)
    );
    assert!(alice.wait_with_output().unwrap().status.success());
}

/// One `run --store` pair; `(alice, bob)` outputs.
fn run(
    home: &Path,
    a_store: &Path,
    b_store: &Path,
    x: u64,
    y: u64,
    extra: &[&str],
) -> (std::process::Output, std::process::Output) {
    let (xs, ys) = (x.to_string(), y.to_string());
    let mut a_args = vec![
        "run",
        "--protocol",
        "lindell-riva",
        "--circuit",
        CIRCUIT,
        "--role",
        "alice",
        "--store",
        a_store.to_str().unwrap(),
        "--input",
        &xs,
        "--connect-timeout",
        "5",
    ];
    a_args.extend_from_slice(extra);
    let (alice, addr) = listen(home, &a_args, 20);
    let bob = brickyard(home)
        .args(["run", "--protocol", "lindell-riva", "--circuit", CIRCUIT])
        .args(["--role", "bob", "--connect", &addr, "--store"])
        .arg(b_store)
        .args(["--input", &ys, "--format", "int", "--timeout", "20"])
        .args(["--connect-timeout", "5"])
        .args(extra)
        .output()
        .unwrap();
    (alice.wait_with_output().unwrap(), bob)
}

#[test]
fn lr_preprocess_three_then_three_runs_then_refused() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let (a_store, b_store) = (dir.path().join("a.store"), dir.path().join("b.store"));
    preprocess(&home, &a_store, &b_store, "3");
    for s in [&a_store, &b_store] {
        let v = info(&home, s);
        assert_eq!(kind_field(&v, "lr-bucket", "produced"), 3);
        assert_eq!(kind_field(&v, "lr-bucket", "remaining"), 3);
    }
    // Three runs, three inputs, three buckets.
    for (k, (x, y)) in [(5u64, 7u64), (1_000_000, 2_345), (4_294_967_295, 2)]
        .into_iter()
        .enumerate()
    {
        let (a, b) = run(&home, &a_store, &b_store, x, y, &[]);
        let err = String::from_utf8_lossy(&b.stderr);
        assert!(b.status.success(), "run {k}: {err}");
        assert!(a.status.success(), "run {k}");
        let out = String::from_utf8_lossy(&b.stdout).trim().to_string();
        assert_eq!(out, ((x + y) % (1 << 32)).to_string(), "run {k}");
        for s in [&a_store, &b_store] {
            assert_eq!(
                kind_field(&info(&home, s), "lr-bucket", "next_index"),
                k as u64 + 1
            );
        }
    }
    // A store for add32 refuses sub32 before connecting, naming the digest.
    let sub = brickyard(&home)
        .args([
            "run",
            "--protocol",
            "lindell-riva",
            "--circuit",
            "builtin:sub32",
        ])
        .args(["--role", "bob", "--connect", "127.0.0.1:1", "--store"])
        .arg(&b_store)
        .args(["--input", "1"])
        .output()
        .unwrap();
    assert_eq!(sub.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&sub.stderr).contains("circuit digest"),
        "{}",
        String::from_utf8_lossy(&sub.stderr)
    );
    // A fourth run: refused by both (store exhausted, exit 6), no output,
    // stores unchanged.
    let before: Vec<_> = [&a_store, &b_store]
        .iter()
        .map(|s| info(&home, s)["kinds"].clone())
        .collect();
    let (a, b) = run(&home, &a_store, &b_store, 1, 1, &[]);
    assert_eq!(
        b.status.code(),
        Some(6),
        "{}",
        String::from_utf8_lossy(&b.stderr)
    );
    assert_eq!(a.status.code(), Some(6));
    assert!(String::from_utf8_lossy(&b.stdout).trim().is_empty());
    let after: Vec<_> = [&a_store, &b_store]
        .iter()
        .map(|s| info(&home, s)["kinds"].clone())
        .collect();
    assert_eq!(before, after);
}

#[test]
fn lr_kills_never_reuse_a_bucket() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let (a_store, b_store) = (dir.path().join("a.store"), dir.path().join("b.store"));
    let n = 5u64;
    preprocess(&home, &a_store, &b_store, "5");
    let mut rng = 0x2545f4914f6cdd1du64;
    let (mut ok, mut killed) = (0u64, 0);
    for round in 0..8u64 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let (x, y) = (rng % 1000, round * 3);
        let xs = x.to_string();
        let (mut alice, addr) = listen(
            &home,
            &[
                "run",
                "--protocol",
                "lindell-riva",
                "--circuit",
                CIRCUIT,
                "--resync",
                "--role",
                "alice",
                "--store",
                a_store.to_str().unwrap(),
                "--input",
                &xs,
                "--connect-timeout",
                "2",
            ],
            10,
        );
        let mut bob = brickyard(&home)
            .args(["run", "--protocol", "lindell-riva", "--circuit", CIRCUIT])
            .args(["--resync", "--role", "bob", "--connect", &addr, "--store"])
            .arg(&b_store)
            .args(["--input", &y.to_string(), "--format", "int"])
            .args(["--timeout", "10", "--connect-timeout", "2"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if round % 2 == 1 {
            std::thread::sleep(Duration::from_micros(rng % 60_000));
            let victim = if rng & 1 == 0 { &mut alice } else { &mut bob };
            let _ = victim.kill();
            killed += 1;
        }
        let b = bob.wait_with_output().unwrap();
        let a = alice.wait_with_output().unwrap();
        let out = String::from_utf8_lossy(&b.stdout).trim().to_string();
        // An output, whenever there is one, is the right one.
        assert!(
            out.is_empty() || out == (x + y).to_string(),
            "round {round}: wrong output {out}"
        );
        if a.status.success() && b.status.success() {
            assert_eq!(out, (x + y).to_string());
            ok += 1;
        }
    }
    for s in [&a_store, &b_store] {
        let v = info(&home, s);
        let (consumed, burned, remaining) = (
            kind_field(&v, "lr-bucket", "consumed"),
            kind_field(&v, "lr-bucket", "burned"),
            kind_field(&v, "lr-bucket", "remaining"),
        );
        // Nothing counted twice, nothing lost.
        assert_eq!(
            consumed + burned + remaining + kind_field(&v, "lr-bucket", "dropped"),
            n
        );
        assert!(consumed >= ok, "{ok} runs, {consumed} buckets consumed");
    }
    assert!(ok >= 1, "no run succeeded ({killed} kills)");
    assert!(ok <= n, "more successful runs than buckets");
}
