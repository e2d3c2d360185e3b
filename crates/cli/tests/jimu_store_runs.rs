//! JIMU's offline/online split across processes: `brickyard preprocess
//! --protocol jimu` runs Setup, Generate, Check and the share OTs sized by
//! AND gates and inputs (no circuit); later `brickyard run --store`
//! processes build AES-128 (FIPS-197 vector) and then a 32-bit adder from
//! the unused records, each in new processes. When the material is used
//! up, a run fails cleanly on both sides with nothing reserved; a second
//! `preprocess` into the same stores adds a batch the next run uses.

use std::path::Path;
use std::process::Output;

mod common;
use common::{brickyard, info, kind_field, listen, CT, KEY, PT};

/// Runs Alice (listening) and Bob with the same `common` arguments plus
/// their own; returns (Alice, Bob).
fn pair(home: &Path, common: &[&str], a: &[&str], b: &[&str]) -> (Output, Output) {
    // jimu's Setup runs Step 5b's proof (seconds); this test is about the
    // store, so adversary builds (CI's --all-features) skip it with the
    // test-only switch, as the other jimu CLI tests do. The crate's own
    // `two_circuits_from_one_preprocessing` runs the proof.
    let skip: &[&str] = if cfg!(feature = "adversary") {
        &["--test-skip-step-5b"]
    } else {
        &[]
    };
    let mut aargs = common.to_vec();
    aargs.extend_from_slice(skip);
    aargs.extend_from_slice(&["--role", "alice"]);
    aargs.extend_from_slice(a);
    let (alice, addr) = listen(home, &aargs, 120);
    let bob = brickyard(home)
        .args(common)
        .args(skip)
        .args(["--role", "bob", "--connect", &addr, "--timeout", "120"])
        .args(b)
        .output()
        .unwrap();
    (alice.wait_with_output().unwrap(), bob)
}

fn consumed(home: &Path, store: &str) -> [u64; 3] {
    let v = info(home, store);
    ["jimu-bucket", "jimu-wire", "jimu-share"].map(|k| kind_field(&v, k, "consumed"))
}

#[test]
fn jimu_preprocess_then_two_circuits_in_later_processes() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let a = dir.path().join("a.store");
    let b = dir.path().join("b.store");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let ok = |o: &Output| {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    // Exactly AES-128 (6400 ANDs, 128 + 128 inputs) plus add32 (31 ANDs,
    // 32 + 32 inputs), given as sizes only.
    let pre = [
        "preprocess",
        "--protocol",
        "jimu",
        "--and-gates",
        "6431",
        "--inputs",
        "160",
        "--outputs",
        "0",
    ];
    let (ao, bo) = pair(&home, &pre, &["--store", a], &["--store", b]);
    ok(&ao);
    ok(&bo);
    for s in [a, b] {
        let v = info(&home, s);
        let produced =
            ["jimu-bucket", "jimu-wire", "jimu-share"].map(|k| kind_field(&v, k, "produced"));
        assert_eq!(produced, [6431, 6431 + 160, 160 * 40]);
    }

    let aes = ["run", "--protocol", "jimu", "--circuit", "builtin:aes128"];
    let (ao, bo) = pair(
        &home,
        &aes,
        &["--store", a, "--input", KEY],
        &["--store", b, "--input", PT],
    );
    ok(&ao);
    ok(&bo);
    assert_eq!(String::from_utf8_lossy(&bo.stdout).trim(), CT);
    assert_eq!(consumed(&home, b), [6400, 6528, 128 * 40]);

    let add = ["run", "--protocol", "jimu", "--circuit", "builtin:add32"];
    let (ao, bo) = pair(
        &home,
        &add,
        &["--store", a, "--input", "4000000000"],
        &["--store", b, "--input", "300000000"],
    );
    ok(&ao);
    ok(&bo);
    // (4·10^9 + 3·10^8) mod 2^32 = 5032704 = 0x4ccb00.
    assert_eq!(String::from_utf8_lossy(&bo.stdout).trim(), "0x004ccb00");
    assert_eq!(consumed(&home, a), [6431, 6591, 6400]);
    assert_eq!(consumed(&home, b), [6431, 6591, 6400]);

    // Used up: a third run fails on both sides, no output, nothing reserved.
    let (ao, bo) = pair(
        &home,
        &add,
        &["--store", a, "--input", "1"],
        &["--store", b, "--input", "2"],
    );
    assert!(!ao.status.success() && !bo.status.success());
    assert!(bo.stdout.is_empty());
    let err = String::from_utf8_lossy(&bo.stderr);
    assert!(err.contains("nothing was reserved"), "{err}");
    assert_eq!(consumed(&home, b), [6431, 6591, 6400]);
    let v = info(&home, b);
    assert_eq!(kind_field(&v, "jimu-bucket", "burned"), 0);

    // Preprocessing again on the same stores adds batch 1 (its own Setup
    // and kinds); the same run now goes through from it, batch 0 as it was.
    let more = [
        "preprocess",
        "--protocol",
        "jimu",
        "--and-gates",
        "31",
        "--inputs",
        "32",
        "--outputs",
        "0",
    ];
    let (ao, bo) = pair(&home, &more, &["--store", a], &["--store", b]);
    ok(&ao);
    ok(&bo);
    let (ao, bo) = pair(
        &home,
        &add,
        &["--store", a, "--input", "1"],
        &["--store", b, "--input", "2"],
    );
    ok(&ao);
    ok(&bo);
    assert_eq!(String::from_utf8_lossy(&bo.stdout).trim(), "0x00000003");
    for s in [a, b] {
        assert_eq!(consumed(&home, s), [6431, 6591, 6400]);
        let v = info(&home, s);
        let batch1 = ["jimu-bucket-1", "jimu-wire-1", "jimu-share-1"]
            .map(|k| (kind_field(&v, k, "produced"), kind_field(&v, k, "consumed")));
        assert_eq!(batch1, [(31, 31), (63, 63), (32 * 40, 32 * 40)]);
    }
}
