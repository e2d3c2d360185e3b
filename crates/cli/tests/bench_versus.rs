//! `brickyard bench versus` (issue #30 item 5) through the built binary:
//! each run really is two `brickyard run` processes, every phase a
//! protocol has shows positive time and bytes, the peer's row and the
//! ratios appear, and a broken peer file is refused with its exit code.

use serde_json::Value;
use std::process::Command;

fn brickyard() -> Command {
    Command::new(env!("CARGO_BIN_EXE_brickyard"))
}

const EMP: &str = r#"{
  "name": "emp-ag2pc v0.3 (WRK17)",
  "source": "issue #30's measurement of 2026-11-26; not measured by brickyard",
  "columns": {
    "setup": {"ms": 35.8},
    "independent": {"ms": 9.95, "bytes": 3500000},
    "dependent": {"ms": 4.29, "bytes": 542000},
    "online": {"ms": 0.895, "bytes": 4990},
    "total": {"ms": 50.8}
  }
}"#;

fn versus(extra: &[&str]) -> (Value, String) {
    let out = brickyard()
        .args([
            "bench",
            "versus",
            "--protocols",
            "yao,lego",
            "--rounds",
            "2",
            "--circuit",
            "builtin:add8",
            "--child-timeout",
            "120",
        ])
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{stderr}");
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    (v, stderr)
}

#[test]
fn versus_runs_each_protocol_as_two_processes_with_every_phase() {
    let dir = tempfile::tempdir().unwrap();
    let peer = dir.path().join("emp.json");
    std::fs::write(&peer, EMP).unwrap();
    let (v, stderr) = versus(&["--json", "--peer", peer.to_str().unwrap()]);
    assert_eq!(v["circuit"], "builtin:add8");
    assert_eq!(v["rounds"], 2);
    // Round 2 runs the protocols in the rotated order.
    assert_eq!(
        v["order"],
        serde_json::json!([["yao", "lego"], ["lego", "yao"]])
    );
    // The progress line moved once per run (stderr is not a terminal here).
    assert_eq!(stderr.matches("bench versus: run ").count(), 4, "{stderr}");
    let rows = v["protocols"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for row in rows {
        let p = row["protocol"].as_str().unwrap();
        let cols = &row["columns"];
        // yao's dependent phase exchanges nothing: "—" (null); every
        // other phase of both protocols has time and bytes.
        let absent: &[&str] = if p == "yao" { &["dependent"] } else { &[] };
        let mut sum_ms = 0.0;
        let mut sum_bytes = 0.0;
        for c in ["setup", "independent", "dependent", "online"] {
            if absent.contains(&c) {
                assert!(cols[c].is_null(), "{p} {c}: {}", cols[c]);
                continue;
            }
            let ms = cols[c]["ms"].as_f64().unwrap();
            let bytes = cols[c]["bytes"].as_f64().unwrap();
            assert!(ms > 0.0, "{p} {c}: {ms}");
            assert!(bytes > 0.0, "{p} {c}: {bytes}");
            let split = cols[c]["bytes_alice_to_bob"].as_f64().unwrap()
                + cols[c]["bytes_bob_to_alice"].as_f64().unwrap();
            assert_eq!(split, bytes, "{p} {c}");
            sum_ms += ms;
            sum_bytes += bytes;
        }
        let total = &cols["total"];
        assert!((total["ms"].as_f64().unwrap() - sum_ms).abs() < 1e-9 * sum_ms.max(1.0));
        assert_eq!(total["bytes"].as_f64().unwrap(), sum_bytes);
        assert!(cols["first"]["ms"].as_f64().unwrap() > 0.0, "{p}");
        // One record per round, each with the four run phases.
        let rounds = row["rounds"].as_array().unwrap();
        assert_eq!(rounds.len(), 2);
        assert_eq!(rounds[0]["phases"].as_array().unwrap().len(), 4);
        // The labels say which rows are only semi-honest references.
        assert_eq!(row["semi_honest"], p == "yao", "{p}");
        if p == "yao" {
            assert!(row["label"]
                .as_str()
                .unwrap()
                .contains("semi-honest reference"));
        }
        // Ratios ours / peer, per column the peer has.
        let setup_ratio = row["ratio_to_peer"]["setup"]["ms"].as_f64().unwrap();
        let want = cols["setup"]["ms"].as_f64().unwrap() / 35.8;
        assert!((setup_ratio - want).abs() < 1e-9, "{setup_ratio} vs {want}");
        assert!(row["ratio_to_peer"]["first"].is_null());
    }
    assert_eq!(v["peer"]["name"], "emp-ag2pc v0.3 (WRK17)");
    assert_eq!(v["peer"]["columns"]["independent"]["bytes"], 3500000.0);
}

#[test]
fn versus_markdown_has_the_issue_columns_and_the_peer_row() {
    let dir = tempfile::tempdir().unwrap();
    let peer = dir.path().join("emp.json");
    std::fs::write(&peer, EMP).unwrap();
    let out = brickyard()
        .args([
            "bench",
            "versus",
            "--protocols",
            "yao",
            "--rounds",
            "1",
            "--circuit",
            "builtin:add8",
            "--markdown",
            "--peer",
        ])
        .arg(&peer)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(
        md.contains("| ms (bytes) | setup | independent | dependent | online | total |"),
        "{md}"
    );
    assert!(
        md.contains("| **emp-ag2pc v0.3 (WRK17) (the peer)** | 35.8 | 9.95 (3.50 MB) | 4.29 (542 KB) | 0.895 (4.99 KB) | 50.8 |"),
        "{md}"
    );
    assert!(md.contains("| `yao` (semi-honest reference) |"), "{md}");
    assert!(md.contains("| ours / emp-ag2pc v0.3 (WRK17) |"), "{md}");
    assert!(
        md.contains("brickyard bench versus --protocols yao"),
        "{md}"
    );
}

#[test]
fn a_broken_peer_file_is_malformed_before_any_run() {
    let dir = tempfile::tempdir().unwrap();
    let peer = dir.path().join("bad.json");
    std::fs::write(&peer, r#"{"name": "x", "columns": {"setpu": {"ms": 1}}}"#).unwrap();
    let out = brickyard()
        .args(["bench", "versus", "--protocols", "yao", "--json", "--peer"])
        .arg(&peer)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(7), "malformed is exit 7");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["kind"], "malformed");
    let msg = v["error"]["message"].as_str().unwrap();
    assert!(msg.contains("unknown column `setpu`"), "{msg}");
    // No process was started: no progress line.
    assert!(!String::from_utf8_lossy(&out.stderr).contains("bench versus: run"));
    // A missing file is a usage error (exit 2).
    let out = brickyard()
        .args(["bench", "versus", "--protocols", "yao", "--peer"])
        .arg(dir.path().join("missing.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_failing_child_is_its_typed_error_with_its_stderr() {
    // The children read BRICKYARD_SPIN_US (bench versus itself does not):
    // a bad value makes Alice's process fail before it listens, and bench
    // versus passes her error on (config, exit 3) with her stderr.
    let out = brickyard()
        .env("BRICKYARD_SPIN_US", "nonsense")
        .args([
            "bench",
            "versus",
            "--protocols",
            "yao",
            "--circuit",
            "builtin:add8",
        ])
        .args(["--rounds", "1", "--json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["kind"], "config");
    assert_eq!(v["error"]["exit_code"], 3);
    let msg = v["error"]["message"].as_str().unwrap();
    assert!(msg.contains("`brickyard run --role alice` failed"), "{msg}");
    assert!(msg.contains("BRICKYARD_SPIN_US"), "{msg}");
}

#[test]
fn a_run_over_its_budget_is_a_timeout() {
    // jimu's Setup alone (the Step 5b proof) takes seconds: with a 1 s
    // budget the run is stopped (by bench versus, or by a child's own
    // 1 s read timeout first) and reported as a timeout, exit 5.
    let start = std::time::Instant::now();
    let out = brickyard()
        .args(["bench", "versus", "--protocols", "jimu", "--rounds", "1"])
        .args(["--child-timeout", "1", "--json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(5),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["exit_code"], 5);
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
}
