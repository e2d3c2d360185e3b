//! The report as files: `report.md` with the header, one section per
//! experiment (plot + the numbers behind it), skipped and failed cells and
//! the protocols' notes; one SVG per plot.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use brickyard_protocols::report::{Report, PHASE_NAMES};

use super::svg::{LineChart, Series, StackedBars, PHASE_COLOURS, SERIES_COLOURS};
use super::{ReportData, Settings};
use crate::error::CliError;

/// A `--net` spec as a short label: `loopback`, `wan`, `RTT 10 ms`.
pub fn net_short(net: &str) -> String {
    match net {
        "none" => "loopback".into(),
        n if n.parse::<f64>().is_ok() => format!("RTT {n} ms"),
        n => n.to_string(),
    }
}

/// A `--net` spec in words, with the profile's numbers.
pub fn net_long(net: &str) -> String {
    match crate::localnet::profile(net) {
        Ok(None) => "loopback TCP".into(),
        Ok(Some(p)) => {
            let rtt = p.latency.as_secs_f64() * 2000.0;
            let bw = match p.bandwidth_bits_per_sec {
                Some(b) => format!("{} Mbit/s", super::svg::label(b as f64 / 1e6)),
                None => "unlimited bandwidth".into(),
            };
            format!(
                "{} (shaped: {} ms RTT, {bw})",
                net_short(net),
                super::svg::label(rtt)
            )
        }
        Err(_) => net.to_string(),
    }
}

/// A file-name fragment for a circuit: `builtin:aes128` → `aes128`,
/// `../x/sha256.txt` → `sha256`.
pub fn slug(s: &str) -> String {
    let base = s.strip_prefix("builtin:").unwrap_or(s);
    let base = Path::new(base)
        .file_stem()
        .and_then(|x| x.to_str())
        .unwrap_or(base);
    let out: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    if out.is_empty() {
        "circuit".into()
    } else {
        out
    }
}

/// Milliseconds with a precision that suits the size.
pub fn ms(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else if v >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

fn bytes(b: u64) -> String {
    match b {
        b if b >= 1_000_000 => format!("{:.2} MB", b as f64 / 1e6),
        b if b >= 1_000 => format!("{:.1} kB", b as f64 / 1e3),
        b => format!("{b} B"),
    }
}

/// Wall ms of each phase, in [`PHASE_NAMES`] order (0 for a phase the
/// report lacks).
pub fn phase_ms(r: &Report) -> Vec<f64> {
    PHASE_NAMES
        .iter()
        .map(|n| {
            r.phases
                .iter()
                .find(|p| p.name == *n)
                .map_or(0.0, |p| p.wall_ms)
        })
        .collect()
}

fn colour(settings: &Settings, protocol: &str) -> &'static str {
    // By registry index, so a protocol's colour does not depend on which
    // others a report includes.
    let i = brickyard_protocols::registry::PROTOCOLS
        .iter()
        .position(|p| p.name == protocol)
        .unwrap_or(settings.protocols.len());
    SERIES_COLOURS[i % SERIES_COLOURS.len()]
}

fn why_missing(data: &ReportData, p: &str, c: &str, net: &str, e: usize) -> String {
    match data.find(p, c, net, e) {
        Some(o) if o.skipped.is_some() => "n/a (skipped)".into(),
        Some(o) if o.failed.is_some() => "FAILED".into(),
        _ => "—".into(),
    }
}

/// The phase plot of one circuit and link, and its table.
fn phases_section(
    data: &ReportData,
    circuit: &str,
    net: &str,
    md: &mut String,
) -> (String, String) {
    let s = &data.settings;
    let bars = StackedBars {
        title: format!(
            "Per-phase wall time, one execution: {circuit}, {}",
            net_short(net)
        ),
        y_label: "ms (slower party)".into(),
        stacks: PHASE_NAMES.iter().map(|n| n.to_string()).collect(),
        colours: PHASE_COLOURS.to_vec(),
        bars: s
            .protocols
            .iter()
            .map(|p| {
                let v = data
                    .find(p, circuit, net, 1)
                    .and_then(|o| o.report.as_ref())
                    .map(phase_ms);
                (p.clone(), v)
            })
            .collect(),
        missing: "n/a".into(),
    };
    let file = format!("phases-{}-{}.svg", slug(circuit), slug(&net_short(net)));
    let _ = writeln!(md, "### {circuit}, {}\n", net_long(net));
    let _ = writeln!(md, "![per-phase stacked bars]({file})\n");
    let _ = writeln!(
        md,
        "| protocol | setup | independent | dependent | online | total | bytes A→B (online) | bytes B→A (online) | flights (online) |"
    );
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for p in &s.protocols {
        match data
            .find(p, circuit, net, 1)
            .and_then(|o| o.report.as_ref())
        {
            Some(r) => {
                let v = phase_ms(r);
                let a: u64 = r.phases.iter().map(|x| x.bytes_alice_to_bob).sum();
                let b: u64 = r.phases.iter().map(|x| x.bytes_bob_to_alice).sum();
                let on = r.phases.iter().find(|x| x.name == "online");
                let _ = writeln!(
                    md,
                    "| `{p}` | {} | {} | {} | {} | {} | {} ({}) | {} ({}) | {} |",
                    ms(v[0]),
                    ms(v[1]),
                    ms(v[2]),
                    ms(v[3]),
                    ms(v.iter().sum()),
                    bytes(a),
                    bytes(on.map_or(0, |x| x.bytes_alice_to_bob)),
                    bytes(b),
                    bytes(on.map_or(0, |x| x.bytes_bob_to_alice)),
                    on.map_or(0, |x| x.rounds),
                );
            }
            None => {
                let _ = writeln!(
                    md,
                    "| `{p}` | {} | | | | | | | |",
                    why_missing(data, p, circuit, net, 1)
                );
            }
        }
    }
    md.push('\n');
    (file, bars.render())
}

/// Online latency against RTT (first circuit), and its table.
fn rtt_section(data: &ReportData, md: &mut String) -> (String, String) {
    let s = &data.settings;
    let circuit = &s.circuits[0];
    let mut rtts = s.rtts_ms.clone();
    rtts.sort_by(f64::total_cmp);
    let series: Vec<Series> = s
        .protocols
        .iter()
        .map(|p| Series {
            name: p.clone(),
            points: rtts
                .iter()
                .filter_map(|&r| {
                    data.find(p, circuit, &Settings::rtt_net(r), 1)
                        .and_then(|o| o.report.as_ref())
                        .map(|rep| (r, rep.online.latency_ms))
                })
                .collect(),
            colour: colour(s, p),
            dashed: false,
        })
        .collect();
    let chart = LineChart {
        title: format!("Online latency vs round-trip time: {circuit}"),
        x_label: "round-trip time (ms), unlimited bandwidth".into(),
        y_label: "online latency (ms, log scale)".into(),
        x_log: false,
        y_log: true,
        x_ticks: Some(rtts.clone()),
        series,
    };
    let file = format!("rtt-{}.svg", slug(circuit));
    let _ = writeln!(
        md,
        "## Online latency vs round-trip time\n\n{circuit}, one execution; the link is loopback \
         TCP shaped to each RTT with no bandwidth cap (0 = plain loopback). The slope is the \
         protocol's online round trips.\n"
    );
    let _ = writeln!(md, "![online latency vs RTT]({file})\n");
    let _ = write!(md, "| protocol |");
    for &r in &rtts {
        let _ = write!(md, " {} ms |", super::svg::label(r));
    }
    let _ = write!(md, "\n|---|");
    for _ in &rtts {
        md.push_str("---:|");
    }
    md.push('\n');
    for p in &s.protocols {
        let _ = write!(md, "| `{p}` |");
        for &r in &rtts {
            let net = Settings::rtt_net(r);
            let cell = match data
                .find(p, circuit, &net, 1)
                .and_then(|o| o.report.as_ref())
            {
                Some(rep) => ms(rep.online.latency_ms),
                None => why_missing(data, p, circuit, &net, 1),
            };
            let _ = write!(md, " {cell} |");
        }
        md.push('\n');
    }
    md.push_str("\nLatency in ms (median single execution).\n\n");
    (file, chart.render())
}

/// Time per execution against the number of executions (first circuit,
/// loopback), and its table.
fn executions_section(data: &ReportData, md: &mut String) -> (String, String) {
    let s = &data.settings;
    let circuit = &s.circuits[0];
    let mut es = s.executions.clone();
    es.sort_unstable();
    let per = |p: &str, e: usize| -> Option<(f64, f64)> {
        let r = data.find(p, circuit, "none", e)?.report.as_ref()?;
        let all: f64 = phase_ms(r).iter().sum();
        Some((all / e as f64, r.online.throughput_ms))
    };
    let mut series = Vec::new();
    for p in &s.protocols {
        let pts: Vec<(usize, (f64, f64))> = es
            .iter()
            .filter_map(|&e| per(p, e).map(|v| (e, v)))
            .collect();
        series.push(Series {
            name: format!("{p} (all phases)"),
            points: pts.iter().map(|&(e, v)| (e as f64, v.0)).collect(),
            colour: colour(s, p),
            dashed: false,
        });
        series.push(Series {
            name: format!("{p} (online)"),
            points: pts.iter().map(|&(e, v)| (e as f64, v.1)).collect(),
            colour: colour(s, p),
            dashed: true,
        });
    }
    let chart = LineChart {
        title: format!("Time per execution vs executions: {circuit}, loopback"),
        x_label: "executions in the run (log scale)".into(),
        y_label: "ms per execution (log scale)".into(),
        x_log: true,
        y_log: true,
        x_ticks: Some(es.iter().map(|&e| e as f64).collect()),
        series,
    };
    let file = format!("executions-{}.svg", slug(circuit));
    let _ = writeln!(
        md,
        "## Time per execution vs number of executions\n\n{circuit}, loopback. Solid: all four \
         phases of the run divided by the executions (preprocessing amortised); dashed: the \
         online time per execution (the report's throughput figure: pipelined for protocols \
         the driver pipelines, else the mean of barrier-separated executions).\n"
    );
    let _ = writeln!(md, "![time per execution vs executions]({file})\n");
    let _ = write!(md, "| protocol |");
    for &e in &es {
        let _ = write!(md, " E = {e} |");
    }
    let _ = write!(md, "\n|---|");
    for _ in &es {
        md.push_str("---:|");
    }
    md.push('\n');
    for p in &s.protocols {
        let _ = write!(md, "| `{p}` |");
        for &e in &es {
            let cell = match per(p, e) {
                Some((all, on)) => format!("{} / {}", ms(all), ms(on)),
                None => why_missing(data, p, circuit, "none", e),
            };
            let _ = write!(md, " {cell} |");
        }
        md.push('\n');
    }
    md.push_str("\nms per execution: all phases / online.\n\n");
    (file, chart.render())
}

fn header_section(data: &ReportData, md: &mut String) {
    let h = &data.header;
    let s = &data.settings;
    let load = |l: &[f64; 3]| format!("{:.2} {:.2} {:.2}", l[0], l[1], l[2]);
    let _ = writeln!(md, "# Brickyard benchmark report\n");
    let _ = writeln!(
        md,
        "Generated by `brickyard bench report`; regenerate with the command below. Every \
         number is the median over runs of the per-phase report `brickyard bench --protocol \
         P` prints (same code: `crates/cli/src/bench/protocol.rs`), both parties in one \
         process on this machine over loopback TCP, shaped links simulated in the channel \
         (`docs/architecture.md`), random inputs, every output checked. Times are wall \
         times of the slower party.\n"
    );
    let _ = writeln!(md, "| | |\n|---|---|");
    let _ = writeln!(md, "| command | `{}` |", h.command);
    let _ = writeln!(md, "| commit | `{}` |", h.commit);
    let _ = writeln!(md, "| date | {} |", h.date);
    let _ = writeln!(
        md,
        "| machine | {}, {} logical cores, {:.1} GiB RAM |",
        h.cpu, h.cores, h.memory_gib
    );
    let _ = writeln!(
        md,
        "| SIMD | AES backend `{}`; CPU features {} |",
        h.aes_backend,
        h.simd_text()
    );
    let _ = writeln!(
        md,
        "| build | {} |",
        if h.release_build {
            "release (optimised)"
        } else {
            "DEBUG (unoptimised: numbers not representative)"
        }
    );
    let _ = writeln!(md, "| read policy | `BRICKYARD_SPIN_US={}` |", h.spin);
    let _ = writeln!(
        md,
        "| load average (1, 5, 15 min) | start {}; end {} ({} cores; the start figure is other work, the end one includes this run's own two parties: numbers taken under load are slower) |",
        load(&h.load_start),
        load(&h.load_end),
        h.cores
    );
    let _ = writeln!(md, "| duration | {:.0} s |", h.duration_s);
    let _ = writeln!(
        md,
        "| settings | {} run(s) per loopback cell, {} per shaped cell; WAN = {}; RTTs {} ms; executions {}{} |",
        s.runs,
        s.wan_runs,
        net_long(&s.wan),
        s.rtts_ms
            .iter()
            .map(|r| super::svg::label(*r))
            .collect::<Vec<_>>()
            .join(", "),
        s.executions
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        if s.quick { " (--quick)" } else { "" }
    );
    md.push('\n');
}

fn tail_sections(data: &ReportData, md: &mut String) {
    let off: Vec<_> = data
        .cells
        .iter()
        .filter(|o| o.skipped.is_some() || o.failed.is_some())
        .collect();
    if !off.is_empty() {
        md.push_str("## Cells not measured\n\n");
        for o in off {
            let (what, why) = match (&o.skipped, &o.failed) {
                (Some(s), _) => ("skipped", s),
                (_, Some(f)) => ("FAILED", f),
                _ => continue,
            };
            let _ = writeln!(md, "- {what}: `{}`: {}", o.cell.command(), why);
        }
        md.push('\n');
    }
    md.push_str("## Notes the protocols attach to their numbers\n\n");
    for p in &data.settings.protocols {
        let mut notes: Vec<&str> = Vec::new();
        for o in data.cells.iter().filter(|o| &o.cell.protocol == p) {
            for n in o.report.iter().flat_map(|r| r.notes.iter()) {
                // "median of N run(s)" differs per cell: the settings say it.
                let n = n.split("; median of").next().unwrap_or(n);
                if !notes.contains(&n) {
                    notes.push(n);
                }
            }
        }
        if !notes.is_empty() {
            let _ = writeln!(md, "- `{p}`: {}", notes.join("; "));
        }
    }
    md.push_str("\nEach cell alone: `brickyard bench --protocol P --circuit C --net N --executions E --runs R` (`docs/bench-json.md`).\n");
}

/// The Markdown page and every plot, as (file name, contents).
pub fn render(data: &ReportData) -> Vec<(String, String)> {
    let mut md = String::new();
    let mut files = Vec::new();
    header_section(data, &mut md);
    md.push_str("## Per-phase time\n\nOne execution per run; bars stack setup, function-independent and function-dependent preprocessing, and online. The number above each bar is the total.\n\n");
    for c in &data.settings.circuits {
        for net in ["none", data.settings.wan.as_str()] {
            files.push(phases_section(data, c, net, &mut md));
        }
    }
    files.push(rtt_section(data, &mut md));
    files.push(executions_section(data, &mut md));
    tail_sections(data, &mut md);
    files.insert(0, ("report.md".into(), md));
    files
}

/// Writes [`render`]'s files into `dir`; returns their paths.
pub fn write_all(data: &ReportData, dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let mut paths = Vec::new();
    for (name, text) in render(data) {
        let path = dir.join(&name);
        std::fs::write(&path, text).map_err(|source| CliError::Io {
            path: path.display().to_string(),
            source,
        })?;
        paths.push(path);
    }
    Ok(paths)
}
