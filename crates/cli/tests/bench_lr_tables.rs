//! `brickyard bench lr-tables` (issue #25 item 8) on a tiny row: the JSON
//! has the documented structure, every time is positive, the byte counts
//! are the channel's counters (and lindell-riva's match the protocol's
//! structure), and the SVG is well-formed with the JSON's points.

use std::process::Command;

fn brickyard() -> Command {
    Command::new(env!("CARGO_BIN_EXE_brickyard"))
}

/// Open and close tags balance and one `<svg>` root holds everything (a
/// small XML well-formedness check).
fn well_formed_svg(svg: &str) -> Result<(), String> {
    let t = svg.trim();
    if !t.starts_with("<svg ") || !t.ends_with("</svg>") {
        return Err("not one <svg> element".into());
    }
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = t;
    let mut roots = 0;
    while let Some(i) = rest.find('<') {
        if stack.is_empty() && !rest[..i].trim().is_empty() {
            return Err(format!("text outside the root: {}", &rest[..i]));
        }
        let j = rest[i..].find('>').ok_or("unclosed tag")?;
        let tag = &rest[i + 1..i + j];
        if tag.contains('<') || !tag.matches('"').count().is_multiple_of(2) {
            return Err(format!("bad tag: {tag}"));
        }
        rest = &rest[i + j + 1..];
        if stack.is_empty() {
            roots += 1;
        }
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(open) if open == name.trim() => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
        } else if !tag.ends_with('/') {
            stack.push(tag.split_whitespace().next().ok_or("empty tag")?);
        }
        let text = &rest[..rest.find('<').unwrap_or(rest.len())];
        if text.contains('&') && !text.split('&').skip(1).all(|e| e.contains(';')) {
            return Err(format!("bare & in text: {text}"));
        }
    }
    if !stack.is_empty() || roots != 1 {
        return Err(format!("unclosed {stack:?} or {roots} roots"));
    }
    Ok(())
}

/// `(data-x, data-y)` of every point of series `name`.
fn series_points(svg: &str, name: &str) -> Vec<(f64, f64)> {
    let key = format!("class=\"series\" data-series=\"{name}\"");
    let Some(at) = svg.find(&key) else {
        return Vec::new();
    };
    let g = &svg[at..];
    let g = &g[..g.find("</g>").unwrap()];
    let attr = |s: &str, k: &str| -> f64 {
        let v = s.split(&format!("{k}=\"")).nth(1).unwrap();
        v[..v.find('"').unwrap()].parse().unwrap()
    };
    g.split("class=\"point\"")
        .skip(1)
        .map(|p| (attr(p, "data-x"), attr(p, "data-y")))
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-12)
}

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
            let who = p["protocol"].as_str().unwrap();
            assert!(p["skipped"].is_null(), "{who} skipped: {p}");
            for k in [
                "offline_ms",
                "offline_ms_per_execution",
                "online_latency_ms",
                "online_throughput_ms",
            ] {
                let v = p[k].as_f64().unwrap();
                assert!(v > 0.0 && v.is_finite(), "{who} {k} = {v}");
            }
            assert!(close(
                p["offline_ms_per_execution"].as_f64().unwrap() * n as f64,
                p["offline_ms"].as_f64().unwrap()
            ));
            // Bytes are the channel's counters of the phases.
            let phases = p["phases"].as_array().unwrap();
            let names: Vec<&str> = phases.iter().map(|x| x["name"].as_str().unwrap()).collect();
            assert_eq!(names, ["setup", "independent", "dependent", "online"]);
            let both = |x: &serde_json::Value| {
                x["bytes_alice_to_bob"].as_u64().unwrap()
                    + x["bytes_bob_to_alice"].as_u64().unwrap()
            };
            let offline: u64 = phases[..3].iter().map(both).sum();
            assert_eq!(p["offline_bytes"].as_u64().unwrap(), offline, "{who}");
            assert!(close(
                p["online_bytes_per_execution"].as_f64().unwrap() * n as f64,
                both(&phases[3]) as f64
            ));
            assert!(both(&phases[3]) > 0, "{who} sends online");
            let wall: f64 = phases[..3]
                .iter()
                .map(|x| x["wall_ms"].as_f64().unwrap())
                .sum();
            assert!(close(wall, p["offline_ms"].as_f64().unwrap()));
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
    for extra in [
        &["--circuits", "md5"][..],
        &["--protocols", "tinytable"][..],
        &["--executions", "0"][..],
    ] {
        let o = brickyard()
            .args(["bench", "lr-tables"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {o:?}");
    }
}
