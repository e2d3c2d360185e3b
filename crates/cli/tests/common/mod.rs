//! Helpers shared by the CLI tests that start `brickyard` processes
//! against a store (one copy, so both suites drive the binary alike).

#![allow(dead_code)]

use std::io::BufRead;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// FIPS-197 C.1: key, plaintext and the ciphertext every run must print.
pub const KEY: &str = "0x000102030405060708090a0b0c0d0e0f";
pub const PT: &str = "0x00112233445566778899aabbccddeeff";
pub const CT: &str = "0x69c4e0d86a7b0430d8cdb78070b4c55a";

/// The binary under test with its own `BRICKYARD_HOME`.
pub fn brickyard(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_brickyard"));
    c.env("BRICKYARD_HOME", home);
    c
}

/// Starts the listening party (network timeout `timeout_secs`) and returns
/// it with the address it bound; its later stderr is drained so it never
/// blocks on a full pipe.
pub fn listen(home: &Path, args: &[&str], timeout_secs: u32) -> (Child, String) {
    let timeout = timeout_secs.to_string();
    let mut child = brickyard(home)
        .args(args)
        .args(["--listen", "127.0.0.1:0", "--timeout", &timeout])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(line.contains("listening on"), "{line}");
    std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
    (child, line.trim().rsplit(' ').next().unwrap().to_string())
}

/// `brickyard store info --json <store>`, which must succeed.
pub fn info(home: &Path, store: impl AsRef<std::ffi::OsStr>) -> serde_json::Value {
    let out = brickyard(home)
        .args(["store", "info", "--json"])
        .arg(store)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `field` (`produced`, `consumed`, …) of the kind `name` in a `store info`.
pub fn kind_field(v: &serde_json::Value, name: &str, field: &str) -> u64 {
    v["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == name)
        .unwrap()[field]
        .as_u64()
        .unwrap()
}
