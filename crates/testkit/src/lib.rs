//! Helpers shared by the protocol integration tests.
#![allow(dead_code)]

pub mod adversary;
pub mod stats;

pub use adversary::run_pair;

use brickyard_circuit::{Circuit, Gate, Group};
use brickyard_core::channel::memory_pair;
use brickyard_protocols::driver::{run_local, LocalNet, LocalRun};
use brickyard_protocols::registry::new_party;
use brickyard_protocols::{PartyInputs, Role, RunConfig};
use std::path::PathBuf;
use std::sync::Arc;

/// Deterministic xorshift64* so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0.max(1);
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    pub fn bits(&mut self, n: usize) -> Vec<bool> {
        (0..n).map(|_| self.next_u64() & 1 == 1).collect()
    }
}

/// A random circuit: `groups` input groups of random widths, random XOR /
/// AND / INV gates over earlier wires, and `outs` output groups drawn from
/// all wires (inputs included, repeats allowed).
pub fn random_circuit(rng: &mut Rng, groups: usize, gates: usize, outs: usize) -> Circuit {
    let mut inputs = Vec::new();
    let mut next = 0u32;
    for g in 0..groups {
        let w = 1 + rng.below(12) as u32;
        inputs.push(Group {
            name: format!("in{g}"),
            wires: (next..next + w).collect(),
        });
        next += w;
    }
    let mut gs = Vec::new();
    for _ in 0..gates {
        let a = rng.below(next as usize) as u32;
        let b = rng.below(next as usize) as u32;
        let out = next;
        next += 1;
        gs.push(match rng.below(5) {
            0 | 1 => Gate::And { a, b, out },
            2 | 3 => Gate::Xor { a, b, out },
            _ => Gate::Inv { a, out },
        });
    }
    let outputs = (0..outs)
        .map(|o| {
            let w = 1 + rng.below(10);
            Group {
                name: format!("out{o}"),
                wires: (0..w).map(|_| rng.below(next as usize) as u32).collect(),
            }
        })
        .collect();
    Circuit {
        num_wires: next,
        inputs,
        outputs,
        gates: gs,
    }
}

/// Runs `protocol` in one process over an in-memory channel pair.
pub fn run_memory(
    protocol: &str,
    cfg: &RunConfig,
    alice: Vec<PartyInputs>,
    bob: Vec<PartyInputs>,
) -> brickyard_core::Result<LocalRun> {
    let (a, b) = memory_pair();
    run_local(
        protocol,
        "test",
        new_party(protocol, Role::Alice, cfg.clone())?,
        new_party(protocol, Role::Bob, cfg.clone())?,
        cfg,
        alice,
        bob,
        LocalNet {
            alice: a,
            bob: b,
            name: "memory".into(),
        },
    )
}

/// Random inputs for one party and `e` executions.
pub fn random_inputs(rng: &mut Rng, cfg: &RunConfig, role: Role, e: usize) -> Vec<PartyInputs> {
    (0..e)
        .map(|_| {
            cfg.groups_of(role)
                .iter()
                .map(|&g| rng.bits(cfg.circuit.inputs[g].width()))
                .collect()
        })
        .collect()
}

/// The full input vector (all groups, group order) from the two parties' values.
pub fn assemble(cfg: &RunConfig, alice: &PartyInputs, bob: &PartyInputs) -> Vec<Vec<bool>> {
    let mut all = vec![Vec::new(); cfg.circuit.inputs.len()];
    for (&g, v) in cfg.alice_groups.iter().zip(alice) {
        all[g] = v.clone();
    }
    for (&g, v) in cfg.bob_groups.iter().zip(bob) {
        all[g] = v.clone();
    }
    all
}

/// `<workspace>/../shared/circuits`, or `$BRICKYARD_SHARED/circuits`; `None`
/// with a printed notice when absent.
pub fn shared_circuits() -> Option<PathBuf> {
    let p = match std::env::var_os("BRICKYARD_SHARED") {
        Some(root) => PathBuf::from(root).join("circuits"),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/circuits"),
    };
    if p.join("vectors.json").is_file() {
        Some(p)
    } else {
        eprintln!("notice: shared circuits not found (set BRICKYARD_SHARED); skipping");
        None
    }
}

/// Shorthand.
pub fn cfg_for(c: Circuit) -> RunConfig {
    RunConfig::new(Arc::new(c)).expect("valid config")
}
