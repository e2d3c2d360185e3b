//! LEGO's offline/online split across processes: `brickyard preprocess
//! --protocol lego` runs Generate sized by AND gates, inputs and outputs
//! (no circuit), and later `brickyard run --store` processes Build AES-128
//! from unused buckets and evaluate it on the FIPS-197 vector. A run that
//! finds no unused buckets fails cleanly; preprocessing again adds a batch.

use std::io::BufRead;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

const KEY: &str = "0x000102030405060708090a0b0c0d0e0f";
const PT: &str = "0x00112233445566778899aabbccddeeff";
const CT: &str = "0x69c4e0d86a7b0430d8cdb78070b4c55a";

fn brickyard(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_brickyard"));
    c.env("BRICKYARD_HOME", home);
    c
}

/// Starts the listening party and returns it with the address it bound.
fn listen(home: &Path, args: &[&str]) -> (Child, String) {
    let mut child = brickyard(home)
        .args(args)
        .args(["--listen", "127.0.0.1:0", "--timeout", "60"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(line.contains("listening on"), "{line}");
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut rest);
        rest
    });
    (child, line.trim().rsplit(' ').next().unwrap().to_string())
}

/// Runs Alice (listening) and Bob with the same `common` arguments plus
/// their own; returns (Alice, Bob).
fn pair(home: &Path, common: &[&str], a: &[&str], b: &[&str]) -> (Output, Output) {
    let mut aargs = common.to_vec();
    aargs.extend_from_slice(&["--role", "alice"]);
    aargs.extend_from_slice(a);
    let (alice, addr) = listen(home, &aargs);
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
    assert!(err.contains("enough unused material"), "{err}");

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
