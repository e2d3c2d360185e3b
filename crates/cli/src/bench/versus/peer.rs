//! `--peer FILE`: a peer's row measured elsewhere (e.g. emp-ag2pc by
//! hand), in the table's columns. The file is checked field by field: an
//! unknown field, a missing name, a negative or non-finite time is
//! `Malformed` naming the file and the field (exit 7), so a typo never
//! shows as a silent "—".

use super::{Cell, COLUMNS};
use crate::error::CliError;
use brickyard_core::Error;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

/// Files larger than this are refused before parsing.
const MAX_BYTES: u64 = 1 << 20;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: String,
    #[serde(default)]
    source: Option<String>,
    columns: BTreeMap<String, Option<FileCell>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCell {
    ms: f64,
    #[serde(default)]
    bytes: Option<u64>,
}

/// The peer's row: a cell per column of [`COLUMNS`], `None` for "—".
#[derive(Clone, Debug)]
pub(crate) struct PeerRow {
    pub name: String,
    /// Where the figures come from (who measured them, when, how).
    pub source: Option<String>,
    pub cells: [Option<Cell>; 6],
}

/// Reads and checks a peer file.
pub(crate) fn load(path: &Path) -> Result<PeerRow, CliError> {
    let io = |source| CliError::Io {
        path: path.display().to_string(),
        source,
    };
    let mut text = String::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(MAX_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => malformed(path, "is not UTF-8 text"),
            _ => io(e),
        })?;
    if text.len() as u64 > MAX_BYTES {
        return Err(malformed(path, "is larger than 1 MiB"));
    }
    parse(&text).map_err(|what| malformed(path, &what))
}

fn malformed(path: &Path, what: &str) -> CliError {
    Error::Malformed(format!("peer file {}: {what}", path.display())).into()
}

/// Parses a peer file's text; the error says what is wrong.
pub(crate) fn parse(text: &str) -> Result<PeerRow, String> {
    let f: File = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let name = f.name.trim();
    if name.is_empty() || name.chars().count() > 200 || name.chars().any(char::is_control) {
        return Err("`name` must be 1 to 200 printable characters".into());
    }
    let mut cells = [None; 6];
    for (col, cell) in &f.columns {
        let i = COLUMNS
            .iter()
            .position(|c| c == col)
            .ok_or_else(|| format!("unknown column `{col}` (columns: {})", COLUMNS.join(", ")))?;
        if let Some(c) = cell {
            if !c.ms.is_finite() || c.ms < 0.0 {
                return Err(format!("column `{col}`: `ms` must be a finite number ≥ 0"));
            }
            cells[i] = Some(Cell {
                ms: c.ms,
                bytes: c.bytes.map(|b| b as f64),
                split: None,
            });
        }
    }
    if cells.iter().all(Option::is_none) {
        return Err("no column has a figure".into());
    }
    Ok(PeerRow {
        name: name.to_string(),
        source: f.source,
        cells,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of docs/bench-json.md: the issue's emp-ag2pc row.
    pub(crate) const EMP: &str = r#"{
      "name": "emp-ag2pc v0.3 (WRK17)",
      "source": "issue #30's measurement of 2026-11-26 (2 vCPU AMD EPYC, loopback, fresh processes, medians of 3 alternating rounds); not measured by brickyard",
      "columns": {
        "setup": {"ms": 35.8},
        "independent": {"ms": 9.95, "bytes": 3500000},
        "dependent": {"ms": 4.29, "bytes": 542000},
        "online": {"ms": 0.895, "bytes": 4990},
        "total": {"ms": 50.8},
        "first": null
      }
    }"#;

    #[test]
    fn the_documented_example_parses() {
        let p = parse(EMP).unwrap();
        assert_eq!(p.name, "emp-ag2pc v0.3 (WRK17)");
        assert_eq!(p.cells[0].unwrap().ms, 35.8);
        assert_eq!(p.cells[0].unwrap().bytes, None);
        assert_eq!(p.cells[1].unwrap().bytes, Some(3_500_000.0));
        assert_eq!(p.cells[4].unwrap().ms, 50.8);
        assert!(p.cells[5].is_none());
    }

    #[test]
    fn broken_peer_files_are_refused_naming_the_problem() {
        for (text, says) in [
            ("{", "EOF"),
            (r#"{"columns": {"setup": {"ms": 1}}}"#, "name"),
            (
                r#"{"name": "x", "columns": {"setpu": {"ms": 1}}}"#,
                "unknown column `setpu`",
            ),
            (
                r#"{"name": "x", "columns": {"setup": {"ms": -1}}}"#,
                "finite",
            ),
            (
                r#"{"name": "x", "columns": {"setup": {"ms": "1"}}}"#,
                "invalid type",
            ),
            (
                r#"{"name": "x", "columns": {"setup": {"ms": 1, "byts": 2}}}"#,
                "unknown field",
            ),
            (
                r#"{"name": "x", "columns": {"setup": {"ms": 1, "bytes": -2}}}"#,
                "invalid value",
            ),
            (r#"{"name": "", "columns": {"setup": {"ms": 1}}}"#, "name"),
            (r#"{"name": "x", "columns": {}}"#, "no column"),
            (r#"{"name": "x", "columns": {"setup": null}}"#, "no column"),
            (
                r#"{"name": "x", "extra": 1, "columns": {"setup": {"ms": 1}}}"#,
                "unknown field",
            ),
        ] {
            let e = parse(text)
                .err()
                .unwrap_or_else(|| panic!("accepted {text}"));
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
