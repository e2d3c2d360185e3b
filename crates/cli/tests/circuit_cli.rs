//! `brickyard circuit …` and `brickyard bench parse` end to end: run the
//! binary, check stdout, exit codes, and that errors are one clean line.

use std::path::PathBuf;
use std::process::{Command, Output};

fn brickyard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_brickyard"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = brickyard(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 stdout")
}

/// A failing command exits non-zero with an `error:` line and no panic.
fn fails(args: &[&str]) -> String {
    let out = brickyard(args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    err
}

/// A file in a directory of its own, removed with the directory when
/// the test ends (pass or fail), so runs leave nothing in the temp dir.
struct Temp(PathBuf);

impl Temp {
    fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn temp(name: &str) -> Temp {
    let dir = std::env::temp_dir().join(format!(
        "brickyard-circuit-cli-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    Temp(dir.join(name))
}

#[test]
fn list_names_every_builtin() {
    let out = ok(&["circuit", "list"]);
    for name in [
        "aes128",
        "aes128-round",
        "aes128-final-round",
        "aes128-cbc:M",
        "sha256",
        "addN",
        "levenshtein:L",
    ] {
        assert!(
            out.contains(&format!("builtin:{name} ")),
            "{name} missing from\n{out}"
        );
    }
}

#[test]
fn eval_fips197_and_integers() {
    let out = ok(&[
        "circuit",
        "eval",
        "builtin:aes128",
        "--input",
        "0x000102030405060708090a0b0c0d0e0f",
        "--input",
        "0x00112233445566778899aabbccddeeff",
        "--format",
        "hex",
    ]);
    assert_eq!(out.trim(), "0x69c4e0d86a7b0430d8cdb78070b4c55a");
    let out = ok(&[
        "circuit",
        "eval",
        "builtin:mul32",
        "--input",
        "123456789",
        "--input",
        "987654",
        "--format",
        "int",
    ]);
    assert_eq!(out.trim(), (123456789u64 * 987654 % (1 << 32)).to_string());
    let out = ok(&[
        "circuit",
        "eval",
        "builtin:lt8",
        "--input",
        "b10000000",
        "--input",
        "3",
        "--format",
        "bits",
    ]);
    assert_eq!(out.trim(), "b1"); // 1 < 3
    let out = ok(&[
        "circuit",
        "eval",
        "builtin:add8",
        "--input",
        "200",
        "--input",
        "100",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["outputs"][0]["value"], "0x2c"); // 300 mod 256 = 44
}

#[test]
fn stats_json_counts() {
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["circuit", "stats", "builtin:aes128", "--json"])).unwrap();
    assert_eq!(v["and"], 6400);
    assert_eq!(v["inputs"][0]["name"], "key");
    assert_eq!(v["inputs"][1]["width"], 128);
    let text = ok(&["circuit", "stats", "builtin:add16"]);
    assert!(text.contains("AND 15"), "{text}");
}

#[test]
fn convert_then_eval_and_bench() {
    let path = temp("hamming12.txt");
    let p = path.path().to_str().expect("utf-8 path");
    ok(&["circuit", "convert", "builtin:hamming12", p]);
    let args = ["--input", "0xfff", "--input", "0x0f0", "--format", "int"];
    let from_file = ok(&[&["circuit", "eval", p][..], &args].concat());
    let from_builtin = ok(&[&["circuit", "eval", "builtin:hamming12"][..], &args].concat());
    assert_eq!(from_file, from_builtin);
    assert_eq!(from_file.trim(), "8");
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["bench", "parse", p, "--runs", "3", "--json"])).unwrap();
    assert!(v["median_ms"].as_f64().is_some_and(|m| m >= 0.0));
    assert_eq!(v["runs"], 3);
}

#[test]
fn bench_garble_reports_every_run() {
    let v: serde_json::Value = serde_json::from_str(&ok(&[
        "bench",
        "garble",
        "--circuit",
        "builtin:hamming12",
        "--iterations",
        "2",
        "--runs",
        "3",
        "--json",
    ]))
    .unwrap();
    let runs = v["runs"].as_array().expect("runs array");
    assert_eq!(runs.len(), 3);
    let mut evals: Vec<f64> = runs
        .iter()
        .map(|r| r["eval_ns_per_and"].as_f64().expect("eval median"))
        .collect();
    evals.sort_by(f64::total_cmp);
    assert_eq!(v["eval_ns_per_and"].as_f64(), Some(evals[1]));
    assert!(v["eval_ns_per_and_min"].as_f64().unwrap() <= evals[0]);
    assert_eq!(v["iterations"], 2);
    assert!(v["aes_backend"].is_string() && v["kernel_128"].is_string());
    let err = fails(&["bench", "garble", "--runs", "x"]);
    assert!(err.contains("--runs"), "{err}");
}

#[test]
fn errors_are_clean() {
    let e = fails(&["circuit", "eval", "builtin:add8", "--input", "1"]);
    assert!(
        e.starts_with("error:") && e.contains("2 input groups"),
        "{e}"
    );
    let e = fails(&[
        "circuit",
        "eval",
        "builtin:add8",
        "--input",
        "256",
        "--input",
        "1",
    ]);
    assert!(e.contains("does not fit in 8 bits"), "{e}");
    let e = fails(&["circuit", "stats", "builtin:nope"]);
    assert!(e.contains("unknown builtin"), "{e}");
    let e = fails(&["circuit", "stats", "/nonexistent/brickyard.txt"]);
    assert!(e.starts_with("error: /nonexistent/brickyard.txt"), "{e}");
    let bad = temp("bad.txt");
    std::fs::write(bad.path(), "1 3\n2 1 1\n1 1\n2 1 0 7 2 AND\n").unwrap();
    let e = fails(&["circuit", "stats", bad.path().to_str().unwrap()]);
    assert!(e.contains("line 4") && e.contains("wire 7"), "{e}");
}
