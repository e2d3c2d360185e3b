//! Issue #28 as a user meets it, two processes over real TCP: errors at
//! once and explained to the peer (item 3), exit codes and JSON errors
//! (4), private inputs from files and stdin (5), labelled outputs of many
//! executions (9), progress bars and memory limits (7).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn brickyard() -> Command {
    Command::new(env!("CARGO_BIN_EXE_brickyard"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

/// Starts a listening party with `args` and returns it with its address.
fn listen(args: &[&str]) -> (Child, String) {
    let mut child = brickyard()
        .args(args)
        .args(["--listen", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(line.contains("listening on"), "{line}");
    let addr = line.trim().rsplit(' ').next().unwrap().to_string();
    // Keep the rest of stderr: put it back as a thread that collects it.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut rest);
        let _ = tx.send(rest);
    });
    LISTEN_ERR.with(|m| m.borrow_mut().push(rx));
    (child, addr)
}

thread_local! {
    static LISTEN_ERR: std::cell::RefCell<Vec<std::sync::mpsc::Receiver<String>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The stderr of the last listener started by this thread, after it exited.
fn last_listener_stderr() -> String {
    LISTEN_ERR.with(|m| {
        m.borrow_mut()
            .pop()
            .and_then(|rx| rx.recv_timeout(Duration::from_secs(30)).ok())
            .unwrap_or_default()
    })
}

fn connect(addr: &str, args: &[&str]) -> Output {
    brickyard()
        .args(args)
        .args(["--connect", addr])
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

const ADD: [&str; 4] = ["--circuit", "builtin:add32", "--format", "int"];

// ---- item 3: errors at once, and the peer learns why ----

#[test]
fn local_mistakes_are_reported_before_connecting() {
    // An address without a port: refused at once, not after 60 s of retries.
    let start = Instant::now();
    let out = brickyard()
        .args([
            "run",
            "--role",
            "bob",
            "--connect",
            "127.0.0.1",
            "--input",
            "7",
        ])
        .args(ADD)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("HOST:PORT"),
        "{}",
        text(&out.stderr)
    );
    assert!(start.elapsed() < Duration::from_secs(5));
    // A bad input value: refused before listening (no "listening on").
    let out = brickyard()
        .args([
            "run",
            "--role",
            "alice",
            "--listen",
            "127.0.0.1:0",
            "--input",
            "0xzz",
        ])
        .args(ADD)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !text(&out.stderr).contains("listening"),
        "{}",
        text(&out.stderr)
    );
    // A missing store: refused before listening, with the store's code.
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nothing.store");
    let out = brickyard()
        .env("BRICKYARD_HOME", dir.path())
        .args([
            "run",
            "--role",
            "alice",
            "--listen",
            "127.0.0.1:0",
            "--input",
            "5",
        ])
        .args(["--store", missing.to_str().unwrap()])
        .args(ADD)
        .output()
        .unwrap();
    assert!(
        !text(&out.stderr).contains("listening"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
}

#[test]
fn two_parties_with_the_same_role_stop_at_once() {
    let start = Instant::now();
    let (a1, addr) = listen(&["run", "--role", "alice", "--input", "5", "--timeout", "60"]);
    let other = connect(
        &addr,
        &["run", "--role", "alice", "--input", "6", "--timeout", "60"],
    );
    let first = a1.wait_with_output().unwrap();
    let first_err = last_listener_stderr();
    assert!(start.elapsed() < Duration::from_secs(30));
    for (o, err) in [(&other, text(&other.stderr)), (&first, first_err)] {
        assert_eq!(o.status.code(), Some(3), "{err}");
        assert!(err.contains("both parties were started as alice"), "{err}");
    }
}

#[test]
fn a_settings_mismatch_names_the_setting() {
    let (alice, addr) = listen(
        &[
            &[
                "run",
                "--role",
                "alice",
                "--input",
                "5",
                "--executions",
                "2",
            ][..],
            &ADD,
        ]
        .concat(),
    );
    let bob = connect(
        &addr,
        &[
            &["run", "--role", "bob", "--input", "7", "--executions", "3"][..],
            &["--circuit", "builtin:sub32"],
        ]
        .concat(),
    );
    let a = alice.wait_with_output().unwrap();
    let a_err = last_listener_stderr();
    let b_err = text(&bob.stderr);
    assert_eq!(bob.status.code(), Some(3), "{b_err}");
    assert_eq!(a.status.code(), Some(3), "{a_err}");
    assert!(b_err.contains("executions: this side 3, peer 2"), "{b_err}");
    assert!(b_err.contains("circuit: digest"), "{b_err}");
    assert!(!b_err.contains("protocol:"), "{b_err}");
    assert!(a_err.contains("executions: this side 2, peer 3"), "{a_err}");
}

/// A cheater learns at once that the honest party aborted (instead of
/// waiting for its 120 s timeout), and the honest party's JSON error names
/// the check.
#[cfg(feature = "adversary")]
#[test]
fn the_peer_of_an_aborting_party_stops_at_once() {
    let lego = [
        "--protocol",
        "lego",
        "--circuit",
        "builtin:add8",
        "--timeout",
        "120",
    ];
    let (alice, addr) = listen(
        &[
            &[
                "run",
                "--role",
                "alice",
                "--input",
                "5",
                "--cheat",
                "alice:bad-soldering",
            ][..],
            &lego,
        ]
        .concat(),
    );
    let bob = connect(
        &addr,
        &[
            &["run", "--role", "bob", "--input", "7", "--json"][..],
            &lego,
        ]
        .concat(),
    );
    let bob_done = Instant::now();
    let a = alice.wait_with_output().unwrap();
    let after = bob_done.elapsed();
    let a_err = last_listener_stderr();
    assert_eq!(bob.status.code(), Some(4), "{}", text(&bob.stderr));
    let v: serde_json::Value = serde_json::from_slice(&bob.stdout).unwrap();
    assert_eq!(v["error"]["kind"], "cheating");
    assert_eq!(v["error"]["exit_code"], 4);
    assert!(v["error"]["check"].is_string(), "{v}");
    assert_eq!(a.status.code(), Some(8), "{a_err}");
    assert!(a_err.contains("peer aborted"), "{a_err}");
    // The check's name is not told to the cheater.
    assert!(
        !a_err.contains(v["error"]["check"].as_str().unwrap()),
        "{a_err}"
    );
    assert!(after < Duration::from_secs(20), "{after:?}");
}

// ---- item 4: exit codes and JSON errors ----

#[test]
fn exit_codes_and_json_errors() {
    // Usage: an unknown flag; with --json the error is JSON on stdout.
    let out = brickyard().args(["demo", "--bogus"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = brickyard()
        .args(["demo", "--bogus", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["kind"], "usage");
    assert_eq!(v["error"]["exit_code"], 2);
    // Config: an insecure or invalid setting (a group owned twice).
    let out = brickyard()
        .args([
            "demo",
            "--circuit",
            "builtin:add32",
            "--alice-groups",
            "0",
            "--bob-groups",
            "0,1",
        ])
        .args(["--alice", "1", "--bob", "2", "--bob", "3", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stdout));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["kind"], "config");
    // Network: nobody listens.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = brickyard()
        .args([
            "run",
            "--role",
            "bob",
            "--input",
            "7",
            "--connect-timeout",
            "1",
        ])
        .args(["--connect", &format!("127.0.0.1:{port}")])
        .args(ADD)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5), "{}", text(&out.stderr));
    // Malformed input: a circuit file that does not parse.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "3 5\n1 2\nnonsense\n").unwrap();
    let out = brickyard()
        .args(["circuit", "stats", bad.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(7), "{}", text(&out.stdout));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["kind"], "malformed");
}

#[test]
fn circuit_list_has_json() {
    let out = brickyard()
        .args(["circuit", "list", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"builtin:aes128"), "{names:?}");
    assert!(v[0]["description"].is_string());
}

// ---- item 5: private inputs ----

#[test]
fn inputs_from_a_file_and_from_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("alice.in");
    std::fs::write(&file, "# Alice's secret\n40000\n").unwrap();
    let (alice, addr) = listen(
        &[
            &["run", "--role", "alice", "--output", "both"][..],
            &["--input-file", file.to_str().unwrap()],
            &ADD,
        ]
        .concat(),
    );
    let mut bob = brickyard()
        .args(["run", "--role", "bob", "--output", "both", "--input", "-"])
        .args(ADD)
        .args(["--connect", &addr])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    bob.stdin.take().unwrap().write_all(b"2\n").unwrap();
    let b = bob.wait_with_output().unwrap();
    let a = alice.wait_with_output().unwrap();
    assert!(b.status.success(), "{}", text(&b.stderr));
    assert!(a.status.success(), "{}", last_listener_stderr());
    assert_eq!(text(&b.stdout).trim(), "40002");
    assert_eq!(text(&a.stdout).trim(), "40002");
    // The demo: Alice's values from a file, Bob's from stdin.
    let mut demo = brickyard()
        .args([
            "demo",
            "--alice-file",
            file.to_str().unwrap(),
            "--bob",
            "-",
            "--json",
        ])
        .args(ADD)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    demo.stdin.take().unwrap().write_all(b"3").unwrap();
    let d = demo.wait_with_output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&d.stdout).unwrap();
    assert_eq!(v["outputs"][0][0], "40003");
    // Values both inline and in a file are refused.
    let out = brickyard()
        .args([
            "demo",
            "--alice-file",
            file.to_str().unwrap(),
            "--alice",
            "1",
            "--bob",
            "2",
        ])
        .args(ADD)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn output_to_alice_only() {
    let (alice, addr) = listen(
        &[
            &[
                "run", "--role", "alice", "--output", "alice", "--input", "5",
            ][..],
            &ADD,
        ]
        .concat(),
    );
    let bob = connect(
        &addr,
        &[
            &["run", "--role", "bob", "--output", "alice", "--input", "7"][..],
            &ADD,
        ]
        .concat(),
    );
    let a = alice.wait_with_output().unwrap();
    assert!(bob.status.success(), "{}", text(&bob.stderr));
    assert!(a.status.success(), "{}", last_listener_stderr());
    assert_eq!(text(&a.stdout).trim(), "12");
    assert!(
        text(&bob.stdout).contains("learns no output"),
        "{}",
        text(&bob.stdout)
    );
    assert!(!text(&bob.stdout).contains("12"));
    let out = brickyard()
        .args([
            "demo",
            "--protocol",
            "compgc",
            "--output",
            "alice",
            "--alice",
            "5",
            "--bob",
            "7",
        ])
        .args(ADD)
        .output()
        .unwrap();
    let t = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(t.contains("output (Alice):\n12\n"), "{t}");
    // lego gives output to Bob only (the paper's online phase).
    let out = brickyard()
        .args([
            "demo",
            "--protocol",
            "lego",
            "--output",
            "alice",
            "--alice",
            "5",
            "--bob",
            "7",
        ])
        .args(ADD)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
}

// ---- item 9: many executions ----

#[test]
fn many_executions_are_labelled_and_tiny_circuits_get_no_gate_rate() {
    let args = [
        "demo",
        "--alice",
        "1",
        "--alice",
        "2",
        "--alice",
        "3",
        "--bob",
        "10",
        "--bob",
        "20",
        "--bob",
        "30",
        "--executions",
        "3",
    ];
    let out = brickyard().args(args).args(ADD).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    for want in ["#0 11", "#1 22", "#2 33"] {
        assert!(t.lines().any(|l| l == want), "{want}: {t}");
    }
    assert!(!t.contains("AND/s"), "{t}");
    let out = brickyard()
        .args(args)
        .args(ADD)
        .arg("--json")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let outs = v["outputs"].as_array().unwrap();
    assert_eq!(outs.len(), 3);
    assert_eq!(outs[2][0], "33");
    // Two processes: Bob's text output is labelled the same way.
    let (alice, addr) = listen(
        &[
            &[
                "run",
                "--role",
                "alice",
                "--executions",
                "2",
                "--input",
                "1",
                "--input",
                "2",
            ][..],
            &ADD,
        ]
        .concat(),
    );
    let bob = connect(
        &addr,
        &[
            &[
                "run",
                "--role",
                "bob",
                "--executions",
                "2",
                "--input",
                "5",
                "--input",
                "6",
            ][..],
            &ADD,
        ]
        .concat(),
    );
    assert!(alice.wait_with_output().unwrap().status.success());
    assert_eq!(text(&bob.stdout), "#0 6\n#1 8\n");
}

// ---- item 7: progress and limits ----

#[test]
fn a_run_that_cannot_fit_in_memory_is_refused_with_the_estimate() {
    let start = Instant::now();
    let out = brickyard()
        .args(["demo", "--protocol", "lego", "--executions", "1000000"])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("needs about") && err.contains("MemAvailable"),
        "{err}"
    );
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_lego_generate_that_cannot_fit_is_refused_before_connecting() {
    // Sized by counts (which once skipped the check) and by --executions:
    // refused with the estimate and the way to make a large store (several
    // preprocess runs, each adding a batch), before the store is created
    // or the peer is awaited.
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("a.store");
    for size in [
        &[
            "--and-gates",
            "1000000000",
            "--inputs",
            "8",
            "--outputs",
            "8",
        ][..],
        &["--circuit", "builtin:aes128", "--executions", "1000000"][..],
    ] {
        let start = Instant::now();
        let out = brickyard()
            .args(["preprocess", "--protocol", "lego", "--role", "alice"])
            .args(["--listen", "127.0.0.1:0", "--store"])
            .arg(&store)
            .args(size)
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{err}");
        assert!(
            err.contains("needs about") && err.contains("several times"),
            "{err}"
        );
        assert!(!store.exists());
        assert!(start.elapsed() < Duration::from_secs(10));
    }
}

#[test]
fn no_progress_bar_on_a_pipe() {
    let out = brickyard()
        .args(["demo", "--alice", "1", "--bob", "2", "--executions", "400"])
        .args(ADD)
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(!err.contains("eta") && !err.contains('\r'), "{err}");
}

/// On a terminal (a pseudo-terminal from `script`), lego's preprocessing
/// shows its Generate stages instead of 0/0.
#[test]
fn lego_preprocessing_shows_progress_on_a_terminal() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` to provide a terminal");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let (a, b) = (dir.path().join("a.store"), dir.path().join("b.store"));
    let sizes = [
        "--protocol",
        "lego",
        "--and-gates",
        "20000",
        "--inputs",
        "64",
        "--outputs",
        "32",
    ];
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let alice_cmd = format!(
        "{} preprocess --role alice --listen {addr} --store {} {}",
        env!("CARGO_BIN_EXE_brickyard"),
        a.display(),
        sizes.join(" ")
    );
    let alice = Command::new("script")
        .args(["-qefc", &alice_cmd, "/dev/null"])
        .env("BRICKYARD_HOME", &home)
        // The bar waits for half a second of work by default; this
        // Generate can be shorter than that on a fast machine.
        .env("BRICKYARD_PROGRESS_AFTER_MS", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let bob = brickyard()
        .env("BRICKYARD_HOME", &home)
        .args(["preprocess", "--role", "bob", "--connect", &addr])
        .args(["--store", b.to_str().unwrap()])
        .args(sizes)
        .output()
        .unwrap();
    let a = alice.wait_with_output().unwrap();
    assert!(bob.status.success(), "{}", text(&bob.stderr));
    let screen = text(&a.stdout);
    assert!(a.status.success(), "{screen}");
    assert!(screen.contains("preprocessing: Generate: "), "{screen}");
    assert!(!screen.contains("0/0"), "{screen}");
    assert!(!text(&bob.stderr).contains("Generate"), "bar on a pipe");
}
