//! A store computes only what it was made for, a run that asks for more
//! than a store holds loses nothing, a cheating peer poisons the store, and
//! `store verify` finds a tampered store before a run burns material on
//! it: each driven as a user would, two `brickyard` processes over TCP.

use std::path::Path;
use std::process::Output;

mod common;
use common::{brickyard, info, listen};

/// Alice (listening) and Bob with the same `common` arguments plus their
/// own; returns (Alice, Bob).
fn pair(home: &Path, common: &[&str], a: &[&str], b: &[&str]) -> (Output, Output) {
    let mut aargs = common.to_vec();
    aargs.extend_from_slice(&["--role", "alice"]);
    aargs.extend_from_slice(a);
    let (alice, addr) = listen(home, &aargs, 20);
    let bob = brickyard(home)
        .args(common)
        .args(["--role", "bob", "--connect", &addr, "--timeout", "20"])
        .args(b)
        .output()
        .unwrap();
    (alice.wait_with_output().unwrap(), bob)
}

/// Each party started alone against its store: a run refused for its
/// store's settings stops before listening or connecting (Bob is pointed
/// at a port nobody listens on). Returns (Alice, Bob).
fn alone(s: &Stores, common: &[&str]) -> (Output, Output) {
    let go = |role: &str, store: &str, input: &str, net: [&str; 2]| {
        brickyard(&s.home)
            .args(common)
            .args(["--role", role, "--store", store, "--input", input])
            .args(net)
            .args(["--timeout", "20"])
            .output()
            .unwrap()
    };
    (
        go("alice", &s.a, "100", ["--listen", "127.0.0.1:0"]),
        go("bob", &s.b, "1", ["--connect", "127.0.0.1:9"]),
    )
}

fn run_args<'a>(circuit: &'a str, executions: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "run",
        "--protocol",
        "tinytable",
        "--circuit",
        circuit,
        "--executions",
        executions,
        "--format",
        "int",
    ];
    v.extend_from_slice(extra);
    v
}

fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).to_string()
}

/// Executions left, as `store info --json` reports them to a user.
fn left(home: &Path, store: &str) -> u64 {
    let v = info(home, store);
    let u = v["units"].as_array().unwrap();
    assert_eq!(u.len(), 1, "{v}");
    assert_eq!(u[0]["name"], "execution");
    u[0]["left"].as_u64().unwrap()
}

struct Stores {
    _dir: tempfile::TempDir,
    home: std::path::PathBuf,
    a: String,
    b: String,
}

/// `brickyard preprocess --protocol tinytable --circuit builtin:add32` for
/// three executions (with `extra` flags, e.g. `--dealer`).
fn preprocess(extra: &[&str]) -> Stores {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let a = dir.path().join("a.store").to_str().unwrap().to_string();
    let b = dir.path().join("b.store").to_str().unwrap().to_string();
    let mut common = vec![
        "preprocess",
        "--protocol",
        "tinytable",
        "--circuit",
        "builtin:add32",
        "--executions",
        "3",
    ];
    common.extend_from_slice(extra);
    let (ao, bo) = pair(&home, &common, &["--store", &a], &["--store", &b]);
    assert!(ao.status.success(), "{}", text(&ao.stderr));
    assert!(bo.status.success(), "{}", text(&bo.stderr));
    assert_eq!((left(&home, &a), left(&home, &b)), (3, 3));
    Stores {
        _dir: dir,
        home,
        a,
        b,
    }
}

fn run(s: &Stores, circuit: &str, executions: &str, extra: &[&str]) -> (Output, Output) {
    let common = run_args(circuit, executions, extra);
    pair(
        &s.home,
        &common,
        &["--store", &s.a, "--input", "100"],
        &["--store", &s.b, "--input", "1"],
    )
}

#[test]
fn a_store_made_for_add32_refuses_a_sub32_run_naming_what_differs() {
    let s = preprocess(&[]);
    let (ao, bo) = alone(&s, &run_args("builtin:sub32", "1", &[]));
    for o in [&ao, &bo] {
        assert!(
            !o.status.success(),
            "a sub32 run on add32 material succeeded"
        );
        assert!(o.stdout.is_empty(), "printed {}", text(&o.stdout));
        let e = text(&o.stderr);
        assert!(
            e.contains("circuit digest")
                && e.contains("builtin:add32")
                && e.contains("nothing was touched"),
            "{e}"
        );
    }
    assert_eq!((left(&s.home, &s.a), left(&s.home, &s.b)), (3, 3));
    // The circuit it was made for still runs, and computes 100 + 1.
    let (ao, bo) = run(&s, "builtin:add32", "1", &[]);
    assert!(ao.status.success(), "{}", text(&ao.stderr));
    assert_eq!(text(&bo.stdout).trim(), "101");
}

#[test]
fn dealer_material_is_refused_unless_the_run_says_dealer() {
    let s = preprocess(&["--dealer"]);
    let (ao, bo) = alone(&s, &run_args("builtin:add32", "1", &[]));
    for o in [&ao, &bo] {
        assert!(!o.status.success());
        let e = text(&o.stderr);
        assert!(
            e.contains("preprocessing source") && e.contains("--dealer"),
            "{e}"
        );
    }
    assert_eq!(left(&s.home, &s.b), 3);
    let (ao, bo) = run(&s, "builtin:add32", "1", &["--dealer"]);
    assert!(ao.status.success(), "{}", text(&ao.stderr));
    assert_eq!(text(&bo.stdout).trim(), "101");
}

#[test]
fn asking_for_more_executions_than_the_store_holds_loses_nothing() {
    let s = preprocess(&[]);
    let (ao, bo) = run(&s, "builtin:add32", "4", &[]);
    for o in [&ao, &bo] {
        assert!(!o.status.success(), "a 4-execution run on 3 succeeded");
        assert!(o.stdout.is_empty(), "printed {}", text(&o.stdout));
    }
    // (Alice's stderr after `listening on` is not kept by `listen`.)
    let e = text(&bo.stderr);
    assert!(
        e.contains("have 3 execution")
            && e.contains("asks for 4")
            && e.contains("nothing was reserved"),
        "{e}"
    );
    assert_eq!((left(&s.home, &s.a), left(&s.home, &s.b)), (3, 3));
    let (ao, bo) = run(&s, "builtin:add32", "3", &[]);
    assert!(ao.status.success(), "{}", text(&ao.stderr));
    assert_eq!(
        text(&bo.stdout)
            .lines()
            .filter(|l| l.split_whitespace().next_back() == Some("101"))
            .count(),
        3
    );
    assert_eq!(left(&s.home, &s.b), 0);
}

#[cfg(feature = "adversary")]
#[test]
fn a_cheating_peer_poisons_the_honest_partys_store() {
    let s = preprocess(&[]);
    let (_, bo) = run(&s, "builtin:add32", "1", &["--cheat", "alice:wrong-mac"]);
    assert!(!bo.status.success());
    assert!(
        text(&bo.stderr).contains("table-mac"),
        "{}",
        text(&bo.stderr)
    );
    let v = info(&s.home, &s.b);
    assert!(v["closed"].as_str().unwrap().contains("table-mac"), "{v}");
    assert_eq!(v["units"][0]["left"], 0);
    // No further run, honest or not, uses Bob's store.
    let (_, bo) = run(&s, "builtin:add32", "1", &[]);
    assert!(!bo.status.success());
    assert!(
        text(&bo.stderr).contains("poisoned"),
        "{}",
        text(&bo.stderr)
    );
    let out = brickyard(&s.home)
        .args(["store", "info", &s.b])
        .output()
        .unwrap();
    assert!(text(&out.stdout).contains("REFUSES USE"));
}

#[test]
fn verify_reports_a_tampered_store_before_any_run_burns_material() {
    let s = preprocess(&[]);
    let ok = brickyard(&s.home)
        .args(["store", "verify", &s.a])
        .output()
        .unwrap();
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert!(text(&ok.stdout).contains("OK"));
    let tables = std::fs::read_dir(&s.a)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("tables2"))
        .unwrap();
    let mut bytes = std::fs::read(&tables).unwrap();
    let at = bytes.len() - 7;
    bytes[at] ^= 0x10;
    std::fs::write(&tables, &bytes).unwrap();
    let bad = brickyard(&s.home)
        .args(["store", "verify", &s.a])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let e = text(&bad.stderr);
    assert!(e.contains("MAC mismatch") && e.contains("tables2"), "{e}");
    assert_eq!(left(&s.home, &s.a), 3, "verify reserved nothing");
}

#[test]
fn an_exported_store_refuses_use_and_the_imported_copy_runs_on() {
    let s = preprocess(&[]);
    let (ao, bo) = run(&s, "builtin:add32", "1", &[]);
    assert!(
        ao.status.success() && bo.status.success(),
        "{}",
        text(&bo.stderr)
    );
    let dir = Path::new(&s.a).parent().unwrap().to_path_buf();
    let pass = dir.join("pass.txt");
    std::fs::write(&pass, "a long enough passphrase\n").unwrap();
    let archive = dir.join("alice.bystore");
    let archive_s = archive.to_str().unwrap();
    let pass_s = pass.to_str().unwrap();
    let out = brickyard(&s.home)
        .args([
            "store",
            "export",
            &s.a,
            "--out",
            archive_s,
            "--passphrase-file",
            pass_s,
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The source is moved out: refused before connecting.
    let (ao, _) = alone(&s, &run_args("builtin:add32", "1", &[]));
    assert!(!ao.status.success());
    assert!(
        text(&ao.stderr).contains("exported"),
        "{}",
        text(&ao.stderr)
    );
    // "The other machine": a new directory and key place.
    let moved = dir.join("moved.store");
    let key = dir.join("elsewhere/alice.key");
    let (moved_s, key_s) = (moved.to_str().unwrap(), key.to_str().unwrap());
    let wrong = dir.join("wrong.txt");
    std::fs::write(&wrong, "not the passphrase\n").unwrap();
    let out = brickyard(&s.home)
        .args([
            "store", "import", archive_s, "--store", moved_s, "--key", key_s,
        ])
        .args(["--passphrase-file", wrong.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(!moved.exists(), "a failed import leaves nothing");
    let out = brickyard(&s.home)
        .args([
            "store", "import", archive_s, "--store", moved_s, "--key", key_s,
        ])
        .args(["--passphrase-file", pass_s])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (ao, bo) = pair(
        &s.home,
        &run_args("builtin:add32", "2", &[]),
        &["--store", moved_s, "--key", key_s, "--input", "100"],
        &["--store", &s.b, "--input", "1"],
    );
    assert!(ao.status.success(), "{}", text(&ao.stderr));
    assert_eq!(
        text(&bo.stdout)
            .lines()
            .filter(|l| l.split_whitespace().next_back() == Some("101"))
            .count(),
        2
    );
    assert_eq!(left(&s.home, &s.b), 0);
}
