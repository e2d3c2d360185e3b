//! The binary as a user runs it: the demo, and two `run` processes over TCP.

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStderr, Command, Stdio};

fn brickyard() -> Command {
    Command::new(env!("CARGO_BIN_EXE_brickyard"))
}

/// Starts `brickyard run ... --listen 127.0.0.1:0` (the OS picks the port)
/// and returns it, the rest of its stderr and the address it printed.
fn listening(args: &[&str]) -> (Child, BufReader<ChildStderr>, String) {
    let mut child = brickyard()
        .arg("run")
        .args(args)
        .args(["--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(line.contains("listening on"), "{line}");
    let addr = line.trim().rsplit(' ').next().unwrap().to_string();
    (child, err, addr)
}

#[test]
fn demo_reproduces_fips_197() {
    let out = brickyard().arg("demo").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("0x69c4e0d86a7b0430d8cdb78070b4c55a: match"),
        "{text}"
    );
    assert!(text.contains("online"));
}

#[test]
fn demo_json_has_outputs_and_phases() {
    let out = brickyard()
        .args([
            "demo",
            "--circuit",
            "builtin:add16",
            "--alice",
            "40000",
            "--bob",
            "30000",
            "--format",
            "int",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["outputs"][0][0], (70000u32 % 65536).to_string());
    assert_eq!(v["report"]["phases"].as_array().unwrap().len(), 4);
    assert!(v["report"]["online"]["latency_ms"].as_f64().unwrap() > 0.0);
}

#[test]
fn two_processes_over_tcp() {
    // Bob listens on an OS-chosen port and prints it; Alice connects.
    let (bob, _err, addr) = listening(&[
        "--role",
        "bob",
        "--circuit",
        "builtin:aes128",
        "--input",
        "0x00112233445566778899aabbccddeeff",
        "--output",
        "both",
        "--timeout",
        "20",
    ]);
    let alice = brickyard()
        .args([
            "run",
            "--role",
            "alice",
            "--connect",
            &addr,
            "--circuit",
            "builtin:aes128",
        ])
        .args([
            "--input",
            "0x000102030405060708090a0b0c0d0e0f",
            "--output",
            "both",
            "--timeout",
            "20",
        ])
        .output()
        .unwrap();
    let bob = bob.wait_with_output().unwrap();
    assert!(
        alice.status.success(),
        "{}",
        String::from_utf8_lossy(&alice.stderr)
    );
    assert!(bob.status.success());
    let want = "0x69c4e0d86a7b0430d8cdb78070b4c55a";
    assert_eq!(String::from_utf8_lossy(&bob.stdout).trim(), want);
    assert_eq!(String::from_utf8_lossy(&alice.stdout).trim(), want);
}

#[test]
fn mismatched_circuits_fail_cleanly() {
    let (bob, mut err, addr) =
        listening(&["--role", "bob", "--circuit", "builtin:add8", "--input", "1"]);
    let alice = brickyard()
        .args([
            "run",
            "--role",
            "alice",
            "--connect",
            &addr,
            "--circuit",
            "builtin:sub8",
            "--input",
            "1",
        ])
        .output()
        .unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let bob = bob.wait_with_output().unwrap();
    assert!(!alice.status.success());
    assert!(!bob.status.success());
    assert!(bob.stdout.is_empty(), "no output after an abort");
    let alice_err = String::from_utf8_lossy(&alice.stderr);
    assert!(
        alice_err.contains("settings differ from the peer's: circuit: digest"),
        "{alice_err}"
    );
    assert!(rest.contains("error:"), "{rest}");
}

#[test]
fn bad_values_give_clear_errors() {
    let out = brickyard()
        .args([
            "demo",
            "--circuit",
            "builtin:add8",
            "--alice",
            "300",
            "--bob",
            "1",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.starts_with("error:") && e.contains("alice"), "{e}");
    let out = brickyard()
        .args(["demo", "--protocol", "nope"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown protocol"));
}
