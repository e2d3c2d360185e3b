//! Helpers the `brickyard bench *-tables` tests share: the binary, float
//! comparison, the checks that a protocol's numbers are its channel
//! counters, and SVG reading.

#![allow(dead_code)]

use std::process::Command;

pub fn brickyard() -> Command {
    Command::new(env!("CARGO_BIN_EXE_brickyard"))
}

/// `brickyard bench <table>` with each of `extras` added exits with the
/// usage code 2 (a bad selection is refused before anything runs).
pub fn assert_usage_errors(table: &str, extras: &[&[&str]]) {
    for extra in extras {
        let o = brickyard()
            .args(["bench", table])
            .args(*extra)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {o:?}");
    }
}

/// Open and close tags balance and one `<svg>` root holds everything (a
/// small XML well-formedness check).
pub fn well_formed_svg(svg: &str) -> Result<(), String> {
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
pub fn series_points(svg: &str, name: &str) -> Vec<(f64, f64)> {
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

pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-12)
}

/// One protocol's numbers (`lr_tables::Measured` as JSON) over `n`
/// executions: not skipped, every time positive, the sums equal the
/// phases' channel counters and wall times.
pub fn assert_measured_consistent(p: &serde_json::Value, n: u64) {
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
    let offline: u64 = phases[..3].iter().map(both_ways).sum();
    assert_eq!(p["offline_bytes"].as_u64().unwrap(), offline, "{who}");
    assert!(close(
        p["online_bytes_per_execution"].as_f64().unwrap() * n as f64,
        both_ways(&phases[3]) as f64
    ));
    assert!(both_ways(&phases[3]) > 0, "{who} sends online");
    let wall: f64 = phases[..3]
        .iter()
        .map(|x| x["wall_ms"].as_f64().unwrap())
        .sum();
    assert!(close(wall, p["offline_ms"].as_f64().unwrap()));
}

/// A phase's bytes, both directions.
pub fn both_ways(x: &serde_json::Value) -> u64 {
    x["bytes_alice_to_bob"].as_u64().unwrap() + x["bytes_bob_to_alice"].as_u64().unwrap()
}
