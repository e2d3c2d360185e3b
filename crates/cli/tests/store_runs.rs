//! Preprocess in one pair of processes, run online in later pairs, and kill
//! parties with SIGKILL at random moments: every output that appears is
//! correct, and material is never used twice (the store's accounting and
//! Beaver's index check would turn reuse into an error, never an output).

use std::io::BufRead;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

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
        .args(["--listen", "127.0.0.1:0", "--timeout", "10"])
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

fn info(home: &Path, store: &Path) -> serde_json::Value {
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

fn rot(v: &serde_json::Value, field: &str) -> u64 {
    v["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "rot")
        .unwrap()[field]
        .as_u64()
        .unwrap()
}

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
    assert_eq!(rot(&info(&home, &b_store), "produced"), 128 * executions);

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
                "--role",
                "alice",
                "--store",
                a_store.to_str().unwrap(),
                "--input",
                KEY,
                "--output",
                "both",
            ],
        );
        let mut bob = brickyard(&home)
            .args([
                "run",
                "--role",
                "bob",
                "--connect",
                &addr,
                "--store",
                b_store.to_str().unwrap(),
            ])
            .args(["--input", PT, "--output", "both", "--timeout", "10"])
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
        let (consumed, burned, remaining) =
            (rot(v, "consumed"), rot(v, "burned"), rot(v, "remaining"));
        // Nothing is counted twice and nothing disappears.
        assert_eq!(
            consumed + burned + remaining + rot(v, "dropped"),
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
