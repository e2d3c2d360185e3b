//! One SVG per circuit and link: ms per execution against N (log–log),
//! per protocol the offline time per execution (solid) and the online
//! latency (dashed), with the paper's figures beside them. Drawn by the
//! report's hand-written SVG writer, whose points carry `data-x`/`data-y`.

use super::Row;
use crate::bench::report::svg::{LineChart, Series, SERIES_COLOURS};

/// A file-name fragment of a `--net` spec: `none` → `loopback`, `75,58` → `75-58`.
pub fn net_slug(net: &str) -> String {
    if net == "none" {
        return "loopback".into();
    }
    net.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// The series name of a protocol's offline / online line.
pub fn series_name(protocol: &str, online: bool) -> String {
    format!(
        "{protocol} {}",
        if online { "online latency" } else { "offline" }
    )
}

/// `(file name, SVG text)` for every circuit and link among `rows`.
pub fn render_all(rows: &[Row]) -> Vec<(String, String)> {
    let mut keys: Vec<(&str, &str)> = Vec::new();
    for r in rows {
        if !keys.contains(&(r.circuit.as_str(), r.net.as_str())) {
            keys.push((&r.circuit, &r.net));
        }
    }
    keys.into_iter()
        .map(|(c, net)| {
            let mine: Vec<&Row> = rows
                .iter()
                .filter(|r| r.circuit == c && r.net == net)
                .collect();
            (
                format!("lr-{c}-{}.svg", net_slug(net)),
                chart(c, net, &mine).render(),
            )
        })
        .collect()
}

fn chart(circuit: &str, net: &str, rows: &[&Row]) -> LineChart {
    let mut ns: Vec<usize> = rows.iter().map(|r| r.executions).collect();
    ns.sort_unstable();
    ns.dedup();
    let mut protocols: Vec<&str> = Vec::new();
    for r in rows {
        for m in &r.protocols {
            if !protocols.contains(&m.protocol.as_str()) {
                protocols.push(&m.protocol);
            }
        }
    }
    let mut series = Vec::new();
    for (i, p) in protocols.iter().enumerate() {
        for online in [false, true] {
            let mut points: Vec<(f64, f64)> = rows
                .iter()
                .filter_map(|r| {
                    let m = r.protocols.iter().find(|m| m.protocol == *p)?;
                    let y = if online {
                        m.online_latency_ms
                    } else {
                        m.offline_ms_per_execution
                    }?;
                    Some((r.executions as f64, y))
                })
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            series.push(Series {
                name: series_name(p, online),
                points,
                colour: SERIES_COLOURS[i % SERIES_COLOURS.len()],
                dashed: online,
            });
        }
    }
    // The paper: offline per bucket (9 threads) and online (1 thread).
    let colour = SERIES_COLOURS[protocols.len() % SERIES_COLOURS.len()];
    let paper = |f: fn(&super::paper::PaperRow) -> f64| -> Vec<(f64, f64)> {
        let mut v: Vec<(f64, f64)> = rows
            .iter()
            .filter_map(|r| r.paper.as_ref().map(|p| (r.executions as f64, f(p))))
            .collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        v
    };
    let off = paper(|p| p.offline_ms_per_execution_9t);
    if !off.is_empty() {
        series.push(Series {
            name: "paper offline (9 threads)".into(),
            points: off,
            colour,
            dashed: false,
        });
        series.push(Series {
            name: "paper online (1 thread)".into(),
            points: paper(|p| p.online_ms[0]),
            colour,
            dashed: true,
        });
    }
    LineChart {
        title: format!(
            "Lindell-Riva tables: {circuit}, {}",
            if net == "none" { "loopback" } else { net }
        ),
        x_label: "executions N (log scale)".into(),
        y_label: "ms per execution (log scale)".into(),
        x_log: true,
        y_log: true,
        x_ticks: Some(ns.iter().map(|&n| n as f64).collect()),
        series,
    }
}
