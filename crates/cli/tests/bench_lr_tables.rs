//! `brickyard bench lr-tables` (issue #25 item 8) on a tiny row: the JSON
//! has the documented structure, every time is positive, the byte counts
//! are the channel's counters (and lindell-riva's match the protocol's
//! structure), and the SVG is well-formed with the JSON's points.

mod bench_common;

use bench_common::*;

#[test]
fn tiny_lr_tables_row_is_consistent_with_its_counters_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let out = brickyard()
        .args([
            "bench",
            "lr-tables",
            "--circuits",
            "add32",
            "--executions",
            "1,2",
            "--net",
            "none",
            "--protocols",
            "lindell-riva,yao",
            "--json",
            "--svg",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(json["header"]["load_start"].as_array().unwrap().len() == 3);
    assert_eq!(json["runs"], 1);
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "one row per N");
    for (row, n) in rows.iter().zip([1u64, 2]) {
        assert_eq!(row["circuit"], "add32");
        assert_eq!(row["executions"], n);
        assert_eq!(row["net"], "none");
        assert!(row["and_gates"].as_u64().unwrap() > 0);
        assert_eq!(row["load"].as_array().unwrap().len(), 3);
        // The paper has no N = 1 or 2 rows.
        assert!(row["paper"].is_null());
        let ps = row["protocols"].as_array().unwrap();
        let names: Vec<&str> = ps.iter().map(|p| p["protocol"].as_str().unwrap()).collect();
        assert_eq!(names, ["lindell-riva", "yao"]);
        for p in ps {
            assert_measured_consistent(p, n);
        }
        // lindell-riva's offline bytes are what the protocol's structure
        // says (M + M' bundles, commitments, OT labels), within 3 %.
        let lr = &ps[0];
        let sent: u64 = lr["phases"].as_array().unwrap()[..3]
            .iter()
            .map(|x| x["bytes_alice_to_bob"].as_u64().unwrap())
            .sum();
        let model = lr["offline_bytes_model"].as_u64().unwrap() as f64;
        assert!(
            (sent as f64 - model).abs() <= 0.03 * model,
            "N = {n}: sent {sent}, model {model}"
        );
        assert!(lr["memory_estimate"].as_u64().unwrap() as f64 >= model);
        assert!(ps[1]["offline_bytes_model"].is_null());
    }

    // One SVG (add32, loopback), well-formed, with the JSON's points.
    let files = json["svg_files"].as_array().unwrap();
    assert_eq!(files.len(), 1);
    let path = files[0].as_str().unwrap();
    assert!(path.ends_with("lr-add32-loopback.svg"), "{path}");
    let svg = std::fs::read_to_string(path).unwrap();
    well_formed_svg(&svg).unwrap();
    for (i, who) in ["lindell-riva", "yao"].iter().enumerate() {
        for (series, key) in [
            (format!("{who} offline"), "offline_ms_per_execution"),
            (format!("{who} online latency"), "online_latency_ms"),
        ] {
            let got = series_points(&svg, &series);
            let want: Vec<(f64, f64)> = rows
                .iter()
                .map(|r| {
                    (
                        r["executions"].as_f64().unwrap(),
                        r["protocols"][i][key].as_f64().unwrap(),
                    )
                })
                .collect();
            assert_eq!(got.len(), want.len(), "{series}");
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    close(g.0, w.0) && close(g.1, w.1),
                    "{series}: {got:?} vs {want:?}"
                );
            }
        }
    }
    // No paper rows at these N: no paper series.
    assert!(series_points(&svg, "paper offline (9 threads)").is_empty());
}

#[test]
fn lr_tables_refuses_unknown_selections() {
    assert_usage_errors(
        "lr-tables",
        &[
            &["--circuits", "md5"][..],
            &["--protocols", "tinytable"][..],
            &["--executions", "0"][..],
        ],
    );
}
