//! Refusing runs that cannot fit in memory, before they start: a run that
//! would allocate more than the machine has is stopped with the estimate
//! instead of being killed (or aborting) halfway.

use crate::error::CliError;
use brickyard_protocols::RunConfig;

/// Bytes available for new allocations: `MemAvailable` from
/// `/proc/meminfo` (None where there is no such file).
pub fn mem_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available(&text)
}

fn parse_mem_available(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut parts = line.split_whitespace().skip(1);
    let n: u64 = parts.next()?.parse().ok()?;
    let unit = parts.next().unwrap_or("kB");
    Some(match unit {
        "kB" => n.checked_mul(1024)?,
        _ => n,
    })
}

/// Refuses a run of `protocol` on `cfg` whose estimated peak memory
/// (for this process; both parties for a demo, `parties` = 2) exceeds
/// `MemAvailable`. Protocols without an estimate pass.
pub fn check_memory_for(
    protocol: &str,
    cfg: &RunConfig,
    from_store: bool,
    parties: u64,
) -> Result<(), CliError> {
    let Some(per_party) = brickyard_protocols::registry::memory_estimate(protocol, cfg, from_store)
    else {
        return Ok(());
    };
    let need = per_party.saturating_mul(parties);
    let Some(avail) = mem_available() else {
        return Ok(());
    };
    if need > avail {
        return Err(CliError::Protocol(brickyard_core::Error::config(format!(
            "{protocol} with {} execution(s) of this circuit needs about {} of memory ({}), \
             but only {} is available (MemAvailable): use fewer --executions{}",
            cfg.executions,
            gib(need),
            if parties == 1 {
                "this party"
            } else {
                "both parties in this process"
            },
            gib(avail),
            if protocol == "lego" {
                ", or preprocess into a store and run batches from it"
            } else {
                ""
            }
        ))));
    }
    Ok(())
}

/// `brickyard preprocess --protocol lindell-riva`: this role's memory
/// (Bob's bundles stream to disk) and its store's size (with Bob's spill
/// file) against `MemAvailable` and the free space where the store goes.
pub fn check_lr_preprocess(
    cfg: &RunConfig,
    role: brickyard_protocols::Role,
    store: &std::path::Path,
) -> Result<(), CliError> {
    use brickyard_lindell_riva::estimate::{estimate, Mode};
    let e = estimate(cfg, Mode::Preprocess)?;
    let (mem, disk) = match role {
        brickyard_protocols::Role::Alice => (e.alice_memory, e.alice_disk),
        brickyard_protocols::Role::Bob => (e.bob_memory, e.bob_disk),
    };
    if let Some(avail) = mem_available() {
        if mem > avail {
            return Err(CliError::Protocol(brickyard_core::Error::config(format!(
                "lindell-riva preprocessing of {} execution(s) of this circuit needs about {} of \
                 memory ({}), but only {} is available (MemAvailable): use fewer --executions",
                cfg.executions,
                gib(mem),
                role.name(),
                gib(avail)
            ))));
        }
    }
    let parent = store
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    if let Ok(st) = rustix::fs::statvfs(parent) {
        let free = st.f_bavail.saturating_mul(st.f_frsize);
        if disk > free {
            return Err(CliError::Protocol(brickyard_core::Error::config(format!(
                "lindell-riva preprocessing of {} execution(s) of this circuit needs about {} of \
                 disk in {} ({}'s store{}), but only {} is free: use fewer --executions",
                cfg.executions,
                gib(disk),
                parent.display(),
                role.name(),
                if role == brickyard_protocols::Role::Bob {
                    " and the bundles until bucketing"
                } else {
                    ""
                },
                gib(free)
            ))));
        }
    }
    Ok(())
}

/// `brickyard preprocess --protocol lego`: one Generate call's estimated
/// peak memory (sized by `--and-gates`/`--inputs`/`--outputs` or by
/// `--executions` copies of `--circuit`) against `MemAvailable`. A store
/// larger than memory is made by several preprocess runs, each adding a
/// batch (its records go to disk as they are written), so that is the
/// advice when one call does not fit.
pub fn check_lego_generate(
    cfg: &RunConfig,
    size: Option<brickyard_protocols::lego::GenerateSize>,
) -> Result<(), CliError> {
    let opts = brickyard_protocols::lego::LegoOptions {
        generate: size,
        ..Default::default()
    };
    let need =
        brickyard_protocols::lego::memory_estimate(cfg, &opts).map_err(CliError::Protocol)?;
    let Some(avail) = mem_available() else {
        return Ok(());
    };
    if need > avail {
        return Err(CliError::Protocol(brickyard_core::Error::config(format!(
            "lego: one Generate of this size needs about {} of memory (this party), but only {} \
             is available (MemAvailable): run `brickyard preprocess` several times with fewer \
             --executions (or --and-gates); each run adds a batch to the store, and a later run \
             takes its copies from several batches",
            gib(need),
            gib(avail)
        ))));
    }
    Ok(())
}

/// [`check_memory_for`] for one party (`run`, `preprocess`).
pub fn check_memory(protocol: &str, cfg: &RunConfig, from_store: bool) -> Result<(), CliError> {
    check_memory_for(protocol, cfg, from_store, 1)
}

fn gib(b: u64) -> String {
    if b >= 1 << 30 {
        format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64)
    } else {
        format!("{:.0} MiB", b as f64 / (1u64 << 20) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_is_parsed() {
        let t = "MemTotal:       8000000 kB\nMemFree:  100 kB\nMemAvailable:    4000000 kB\n";
        assert_eq!(parse_mem_available(t), Some(4_000_000 * 1024));
        assert_eq!(parse_mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(gib(3 << 30), "3.0 GiB");
    }
}
