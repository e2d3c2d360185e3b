//! Protocols by name, for the CLI and the bench harness.

use crate::{Party, Role, RunConfig};
use brickyard_core::{Error, Result};

/// A registered protocol.
pub struct ProtocolInfo {
    /// Name on the command line.
    pub name: &'static str,
    /// Adversary model, as the paper states it.
    pub security: &'static str,
    /// One-line description.
    pub summary: &'static str,
}

/// Every protocol this build offers.
pub const PROTOCOLS: &[ProtocolInfo] = &[
    ProtocolInfo {
        name: "yao",
        security: "semi-honest",
        summary: "half-gates Yao with preprocessed correlated OT (the baseline)",
    },
    ProtocolInfo {
        name: "compgc",
        security: "semi-honest",
        summary: "component-based garbling: a pre-garbled component library linked online",
    },
    ProtocolInfo {
        name: "lego",
        security: "malicious (statistical 2^-40, Theorem 2)",
        summary: "TinyLEGO with function-independent preprocessing (NST17): Generate / Build / two-round Eval",
    },
    ProtocolInfo {
        name: "jimu",
        security: "malicious (statistical 2^-40, Sec. 6.3; Step 5b proof in Setup)",
        summary: "JIMU (Zhu–Huang): LEGO with interactive hashes, single-good-gate buckets, function-independent Generate/Check",
    },
    ProtocolInfo {
        name: "lindell-riva",
        security: "malicious (statistical 2^-40 per execution, Lemmas 2.2/2.3; ROM commitments)",
        summary: "Lindell–Riva (CCS'15): batched cut-and-choose of whole circuits with cheating recovery, output to Bob",
    },
    ProtocolInfo {
        name: "tinytable",
        security: "malicious (statistical 2^-k, k = MAC bits)",
        summary: "TinyTable: scrambled AND tables with MACs, one round per AND layer (needs --dealer until TinyOT preprocessing lands)",
    },
    ProtocolInfo {
        name: "tinytable-sbox",
        security: "malicious (statistical 2^-k, k = MAC bits)",
        summary: "TinyTable for AES-128 with 8-bit S-box tables: 10 table rounds (needs --dealer until TinyOT preprocessing lands)",
    },
];

/// Looks a protocol up by name.
pub fn info(name: &str) -> Result<&'static ProtocolInfo> {
    PROTOCOLS.iter().find(|p| p.name == name).ok_or_else(|| {
        let names: Vec<&str> = PROTOCOLS.iter().map(|p| p.name).collect();
        Error::config(format!(
            "unknown protocol `{name}` (available: {})",
            names.join(", ")
        ))
    })
}

/// A fresh party of `protocol` for `role`.
pub fn new_party(protocol: &str, role: Role, cfg: RunConfig) -> Result<Box<dyn Party>> {
    info(protocol)?;
    Ok(match (protocol, role) {
        ("yao", Role::Alice) => Box::new(crate::yao::YaoAlice::new(cfg)?),
        ("yao", Role::Bob) => Box::new(crate::yao::YaoBob::new(cfg)?),
        ("lego", Role::Alice) => Box::new(crate::lego::LegoAlice::new(cfg)?),
        ("lego", Role::Bob) => Box::new(crate::lego::LegoBob::new(cfg)?),
        ("jimu", r) => crate::jimu::new_party(r, cfg, Default::default(), Default::default())?,
        ("lindell-riva", Role::Alice) => Box::new(crate::lindell_riva::party::LrAlice::new(cfg)?),
        ("lindell-riva", Role::Bob) => Box::new(crate::lindell_riva::party::LrBob::new(cfg)?),
        ("compgc", r) => crate::compgc::new_party(r, cfg, Default::default())?,
        ("tinytable" | "tinytable-sbox", r) => {
            crate::tinytable::new_party(r, cfg, crate::tinytable::Options::for_protocol(protocol)?)?
        }
        _ => {
            return Err(Error::config(format!(
                "protocol `{protocol}` has no {} implementation",
                role.name()
            )))
        }
    })
}

/// Estimated peak memory in bytes of one party of `protocol` running
/// `cfg` (preprocessing included unless `from_store`), for refusing runs
/// that cannot fit before they start; `None` where no estimate is known
/// (the protocol's memory does not grow with the execution count faster
/// than its inputs do).
pub fn memory_estimate(protocol: &str, cfg: &RunConfig, from_store: bool) -> Option<u64> {
    match protocol {
        "lego" if !from_store => {
            crate::lego::memory_estimate(cfg, &crate::lego::LegoOptions::default()).ok()
        }
        "lindell-riva" => {
            use crate::lindell_riva::estimate::{estimate, Mode};
            let mode = if from_store {
                Mode::Online
            } else {
                Mode::InMemory
            };
            estimate(cfg, mode).ok().map(|e| e.memory())
        }
        _ => None,
    }
}
