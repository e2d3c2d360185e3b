//! `brickyard bench jimu-tables` (issue #27 item 5) on tiny sizes: the
//! JSON has the documented structure, every protocol's numbers are its
//! channel counters, jimu's online bytes are what Step 1 and 5 send, the
//! ratios are computed from the phases, and no application is missing.

mod bench_common;

use bench_common::*;
use serde_json::Value;

/// Independent + dependent + online time and bytes of one protocol.
fn work(p: &Value) -> (f64, u64) {
    let ph = p["phases"].as_array().unwrap();
    assert_eq!(ph[0]["name"], "setup");
    (
        ph[1..].iter().map(|x| x["wall_ms"].as_f64().unwrap()).sum(),
        ph[1..].iter().map(both_ways).sum(),
    )
}

#[test]
fn tiny_jimu_tables_are_consistent_with_their_counters() {
    let out = brickyard()
        .args([
            "bench",
            "jimu-tables",
            "--apps",
            "compare16",
            "--k",
            "88,127",
            "--net",
            "none",
            "--runs",
            "1",
            "--micro-wires",
            "8",
            "--micro-xors",
            "64",
            "--micro-ands",
            "128",
            "--json",
        ])
        // jimu's Step 5b proof costs seconds per run: skipped here by the
        // test-only switch of adversary builds (CI's --all-features).
        .args(if cfg!(feature = "adversary") {
            &["--test-skip-step-5b"][..]
        } else {
            &[]
        })
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["header"]["load_start"].as_array().unwrap().len(), 3);
    assert_eq!(json["runs"], 1);
    // Every application has a circuit (DES is builtin:des-expanded).
    assert!(json["missing"].as_array().unwrap().is_empty());
    assert!(!json["claims"]["items"].as_array().unwrap().is_empty());
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(row["app"], "compare16");
    assert_eq!(row["net"], "none");
    assert!(row["and_gates"].as_u64().unwrap() >= 16);
    assert_eq!(row["lego"]["protocol"], "lego");
    assert_measured_consistent(&row["lego"], 1);
    let (lego_ms, lego_bytes) = work(&row["lego"]);
    let cells = row["jimu"].as_array().unwrap();
    let ks: Vec<u64> = cells.iter().map(|c| c["k"].as_u64().unwrap()).collect();
    assert_eq!(ks, [88, 127]);
    for c in cells {
        let m = &c["measured"];
        assert_eq!(m["protocol"], "jimu");
        assert_measured_consistent(m, 1);
        assert!(c["bucket"].as_u64().unwrap() >= 2);
        assert!(c["total"].as_u64().unwrap() > c["bucket"].as_u64().unwrap());
        let (ms, bytes) = work(m);
        assert!(close(c["speedup_vs_lego"].as_f64().unwrap(), lego_ms / ms));
        assert!(close(
            c["bytes_vs_lego"].as_f64().unwrap(),
            bytes as f64 / lego_bytes as f64
        ));
        // Online: Bob sends one OT correction byte per share (16 bits x
        // s = 40); Alice two padded labels per share, one label per input
        // bit of hers and ρ^o (ℓ_p = 20 symbols) of the one output wire.
        let online = &m["phases"][3];
        assert_eq!(online["bytes_bob_to_alice"], 16 * 40);
        let label = if c["k"] == 88 { 32 } else { 48 };
        assert_eq!(
            online["bytes_alice_to_bob"].as_u64().unwrap(),
            (2 * 16 * 40 + 16) * label + 20
        );
    }
    let micro = json["micro"].as_array().unwrap();
    assert_eq!(micro.len(), 2);
    for m in micro {
        for k in [
            "alice_input_us_per_wire",
            "bob_input_us_per_wire",
            "output_us_per_wire",
        ] {
            let v = m[k].as_f64().unwrap();
            assert!(v >= 0.0 && v.is_finite(), "{k} = {v}");
        }
        for k in ["xor_per_s", "and_per_s_total", "and_per_s_online"] {
            let v = m[k].as_f64().unwrap();
            assert!(v > 0.0 && v.is_finite(), "{k} = {v}");
        }
        assert_eq!(m["and_gates"], 128);
        assert_eq!(m["wires"], 8);
        assert!(m["bucket"].as_u64().unwrap() >= 5);
    }
}

#[test]
fn jimu_tables_refuses_unknown_selections() {
    assert_usage_errors(
        "jimu-tables",
        &[
            &["--apps", "md5"][..],
            &["--k", "100"][..],
            &["--runs", "0"][..],
            &["--apps", "compare0"][..],
        ],
    );
}
