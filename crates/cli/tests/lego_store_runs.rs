//! LEGO's offline/online split across processes: `brickyard preprocess
//! --protocol lego` runs Generate sized by AND gates, inputs and outputs
//! (no circuit), and later `brickyard run --store` processes Build AES-128
//! from unused buckets and evaluate it on the FIPS-197 vector. A run that
//! finds no unused buckets fails cleanly; preprocessing again adds a batch.

use std::path::Path;
use std::process::{Output, Stdio};

mod common;
use common::{brickyard, listen, CT, KEY, PT};

/// Runs Alice (listening) and Bob with the same `common` arguments plus
/// their own; returns (Alice, Bob).
fn pair(home: &Path, common: &[&str], a: &[&str], b: &[&str]) -> (Output, Output) {
    let mut aargs = common.to_vec();
    aargs.extend_from_slice(&["--role", "alice"]);
    aargs.extend_from_slice(a);
    let (alice, addr) = listen(home, &aargs, 60);
    let bob = brickyard(home)
        .args(common)
        .args(["--role", "bob", "--connect", &addr, "--timeout", "60"])
        .args(b)
        .output()
        .unwrap();
    (alice.wait_with_output().unwrap(), bob)
}

fn and_kinds(home: &Path, store: &Path) -> Vec<(u64, u64)> {
    let out = brickyard(home)
        .args(["store", "info", "--json"])
        .arg(store)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut ks: Vec<(u64, u64)> = v["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|k| k["name"].as_str().unwrap().ends_with("-and"))
        .map(|k| {
            (
                k["produced"].as_u64().unwrap(),
                k["consumed"].as_u64().unwrap(),
            )
        })
        .collect();
    ks.sort();
    ks
}

#[test]
fn lego_generate_then_build_and_eval_in_later_processes() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let a = dir.path().join("a.store");
    let b = dir.path().join("b.store");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let ok = |o: &Output| {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    // Generate for 2 × AES-128 (6400 ANDs, 256 inputs, 128 outputs each),
    // given as sizes only.
    let sizes = [
        "--and-gates",
        "12800",
        "--inputs",
        "512",
        "--outputs",
        "256",
    ];
    let mut common = vec!["preprocess", "--protocol", "lego"];
    common.extend_from_slice(&sizes);
    let (ao, bo) = pair(&home, &common, &["--store", a], &["--store", b]);
    ok(&ao);
    ok(&bo);
    assert_eq!(and_kinds(&home, Path::new(a)), vec![(12800, 0)]);

    // Two later runs, each in new processes: Build + Eval.
    let run = ["run", "--protocol", "lego", "--circuit", "builtin:aes128"];
    for i in 1..=2u64 {
        let (ao, bo) = pair(
            &home,
            &run,
            &["--store", a, "--input", KEY],
            &["--store", b, "--input", PT],
        );
        ok(&ao);
        ok(&bo);
        assert_eq!(String::from_utf8_lossy(&bo.stdout).trim(), CT);
        assert_eq!(and_kinds(&home, Path::new(b)), vec![(12800, 6400 * i)]);
    }
    // No unused buckets left: both fail cleanly, no output.
    let (ao, bo) = pair(
        &home,
        &run,
        &["--store", a, "--input", KEY],
        &["--store", b, "--input", PT],
    );
    assert!(!ao.status.success() && !bo.status.success());
    assert!(bo.stdout.is_empty());
    let err = String::from_utf8_lossy(&bo.stderr);
    assert!(
        err.contains("material for 0 built copies")
            && err.contains("asks for 1")
            && err.contains("nothing was reserved"),
        "{err}"
    );

    // Preprocess again, this time sized as one AES-128: a second batch.
    let again = [
        "preprocess",
        "--protocol",
        "lego",
        "--circuit",
        "builtin:aes128",
    ];
    let (ao, bo) = pair(&home, &again, &["--store", a], &["--store", b]);
    ok(&ao);
    ok(&bo);
    let (ao, bo) = pair(
        &home,
        &run,
        &["--store", a, "--input", KEY],
        &["--store", b, "--input", PT],
    );
    ok(&ao);
    ok(&bo);
    assert_eq!(String::from_utf8_lossy(&bo.stdout).trim(), CT);
    assert_eq!(
        and_kinds(&home, Path::new(a)),
        vec![(6400, 6400), (12800, 12800)]
    );
}

/// Every lego kind of `store`: (name, produced, consumed, burned,
/// remaining, dropped).
fn lego_kinds(home: &Path, store: &Path) -> Vec<(String, [u64; 5])> {
    let out = brickyard(home)
        .args(["store", "info", "--json"])
        .arg(store)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            let f = |n: &str| k[n].as_u64().unwrap();
            (
                k["name"].as_str().unwrap().to_string(),
                [
                    f("produced"),
                    f("consumed"),
                    f("burned"),
                    f("remaining"),
                    f("dropped"),
                ],
            )
        })
        .collect()
}

#[test]
fn lego_runs_killed_at_random_never_reuse_buckets() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let a = dir.path().join("a.store");
    let b = dir.path().join("b.store");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let copies = 10u64;
    let prep = [
        "preprocess",
        "--protocol",
        "lego",
        "--circuit",
        "builtin:mul32",
        "--executions",
        "10",
    ];
    let (ao, bo) = pair(&home, &prep, &["--store", a], &["--store", b]);
    assert!(ao.status.success() && bo.status.success());
    // 123456 · 789 mod 2^32.
    let want = "97406784";
    let mut rng = 0x2545f4914f6cdd1du64;
    let (mut ok, mut killed) = (0u64, 0);
    for round in 0..16 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let common = [
            "run",
            "--protocol",
            "lego",
            "--circuit",
            "builtin:mul32",
            "--format",
            "int",
            // Runs here are killed on one side at random: exactly when an
            // operator allows both stores to resynchronise.
            "--resync",
        ];
        let mut aargs = common.to_vec();
        aargs.extend_from_slice(&["--role", "alice", "--store", a, "--input", "123456"]);
        let (mut alice, addr) = listen(&home, &aargs, 60);
        let mut bob = brickyard(&home)
            .args(common)
            .args(["--role", "bob", "--connect", &addr, "--timeout", "60"])
            .args(["--store", b, "--input", "789"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if round % 2 == 1 {
            // A run takes ≈ 70 ms here: kill during connect, Build or Eval.
            std::thread::sleep(std::time::Duration::from_micros(rng % 90_000));
            let victim = if rng & 1 == 0 { &mut alice } else { &mut bob };
            let _ = victim.kill();
            killed += 1;
        }
        let bo = bob.wait_with_output().unwrap();
        let ao = alice.wait_with_output().unwrap();
        let out = String::from_utf8_lossy(&bo.stdout).trim().to_string();
        assert!(
            out.is_empty() || out == want,
            "round {round}: wrong output {out}"
        );
        if ao.status.success() && bo.status.success() {
            assert_eq!(out, want);
            ok += 1;
        }
    }
    assert!(ok >= 1, "no run succeeded ({killed} kills)");
    assert!(ok <= copies, "more runs than preprocessed copies");
    for store in [a, b] {
        let ks = lego_kinds(&home, Path::new(store));
        assert_eq!(ks.len(), 5, "one batch: {ks:?}");
        for (name, [produced, consumed, burned, remaining, dropped]) in &ks {
            // Every record is accounted for once: nothing counted twice,
            // nothing vanished.
            assert_eq!(
                consumed + burned + remaining + dropped,
                *produced,
                "{store} {name}"
            );
        }
        let (_, and) = ks.iter().find(|k| k.0.ends_with("-and")).unwrap();
        eprintln!("{store}: {ok} runs ok, {killed} kills, AND buckets {and:?}");
        // Each successful run consumed its own 993 buckets.
        assert!(and[1] >= ok * 993, "{ok} runs, and {and:?}");
    }
}
