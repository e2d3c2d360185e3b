//! `brickyard params jimu`: the paper's DES row through the CLI, and a
//! refused override.

use std::process::Command;

fn brickyard(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_brickyard"))
        .args(args)
        .output()
        .expect("run brickyard")
}

#[test]
fn des_row_and_refused_override() {
    let out = brickyard(&["params", "jimu", "--and-gates", "18175", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["params"]["total"], 97_593);
    assert_eq!(v["params"]["bucket"], 5);
    assert_eq!(v["label_bits"], 256);
    let out = brickyard(&[
        "params",
        "jimu",
        "--and-gates",
        "18175",
        "--k",
        "127",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["label_bits"], 384);
    assert!(v["compressed_entropy_bits"].as_f64().unwrap() > 126.99);
    let out = brickyard(&[
        "params",
        "jimu",
        "--and-gates",
        "18175",
        "--bucket",
        "5",
        "--total",
        "97592",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("2^-40"));
    let out = brickyard(&["params", "jimu", "--and-gates", "100", "--k", "100"]);
    assert!(!out.status.success());
}
