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
