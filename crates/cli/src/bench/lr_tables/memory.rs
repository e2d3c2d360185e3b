//! Peak-memory estimates of a row, both parties in this process, so a row
//! that cannot fit is reported rather than killed by the OOM killer.

use crate::error::CliError;
use brickyard_core::prg::Prg;
use brickyard_lindell_riva::params::{Choice, LrParams, Objective, S};
use brickyard_lindell_riva::probe::ProbeSpec;
use brickyard_lindell_riva::protocol::circuits::{recovery_circuit, D_BITS};
use brickyard_protocols::{Role, RunConfig};

/// Peak resident memory of a lindell-riva run over the bytes Alice sends
/// offline (both parties in one process: Bob holds every evaluation
/// bundle, the channel buffers a bundle at a time). Measured 1.18 with
/// `/usr/bin/time -v` on AES-128, N = 128 (516 MB peak for 438 MB sent);
/// rounded up.
const LR_PEAK_PER_OFFLINE_BYTE: f64 = 1.5;

/// `MemAvailable` of `/proc/meminfo` in bytes (`None` off Linux).
pub fn available() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Bytes Alice sends offline in a lindell-riva run of `cfg`: `M` bundles of
/// C and `M'` of C' (half-gates tables, 2 × 32-byte commitments per input
/// wire, output and λ commitments, the seed commitment), F_ExCom∆ZK's
/// `2s` split commitments per bundle, and the OT label transfer (per
/// bucket and OT wire, two messages of a 16-byte label per circuit). The small
/// rest (openings of checked seeds, proofs) is left out: the model is
/// within a few per cent of the channel's count.
pub fn lr_offline_bytes(cfg: &RunConfig) -> Result<u64, CliError> {
    let width = |role| -> usize {
        cfg.groups_of(role)
            .iter()
            .map(|&g| cfg.circuit.inputs[g].width())
            .sum()
    };
    let (nx, ny) = (width(Role::Alice), width(Role::Bob));
    let search = Choice::Search(Objective::Circuits, None);
    let p = LrParams::new(cfg.executions as u64, S, search, search)?;
    let mut prg = Prg::new();
    let ot = ProbeSpec::choose(ny, S, &mut prg)?.cols() as u64;
    let spec2 = ProbeSpec::choose(D_BITS, S, &mut prg)?;
    let ot2 = spec2.cols() as u64;
    let c2_ands = recovery_circuit(nx, &spec2.build()?)?.and_count() as u64;
    let outs = cfg.circuit.outputs.iter().map(|g| g.width()).sum::<usize>() as u64;
    let bundle = |ands: u64, inputs: u64, outs: u64| 32 * ands + 64 * inputs + 64 + outs / 8 + 1;
    let c = bundle(
        cfg.circuit.and_count() as u64,
        nx as u64 + ot + ny as u64,
        outs,
    );
    let c2 = bundle(c2_ands, nx as u64 + ot2 + 2 * D_BITS as u64, nx as u64);
    let labels = p.executions * 32 * (ot * p.main.b + ot2 * p.recovery.b);
    let excom = (p.main.m + p.recovery.m) * (64 * S as u64 + 32);
    Ok(p.main.m * c + p.recovery.m * c2 + labels + excom)
}

/// Estimated peak memory of `protocol` on `cfg`, both parties (`None`:
/// no estimate, the protocol's memory does not grow with N beyond its
/// inputs' size).
pub fn estimate(protocol: &str, cfg: &RunConfig) -> Result<Option<u64>, CliError> {
    Ok(match protocol {
        "lindell-riva" => {
            Some((lr_offline_bytes(cfg)? as f64 * LR_PEAK_PER_OFFLINE_BYTE).ceil() as u64)
        }
        p => brickyard_protocols::registry::memory_estimate(p, cfg, false).map(|b| 2 * b),
    })
}
