//! What a run computes and who owns which inputs.

use brickyard_circuit::Circuit;
use brickyard_core::{Error, Result};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Who learns the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum OutputMode {
    /// Only Bob (the evaluator) learns the output.
    #[default]
    Bob,
    /// Both parties learn the output.
    Both,
    /// Only Alice (the garbler) learns the output: Bob returns his output
    /// labels without decoding them. Semi-honest protocols only (`yao`,
    /// `compgc`); the malicious ones refuse it.
    Alice,
}

impl OutputMode {
    /// Whether `role` learns the output.
    pub fn learns(self, role: crate::Role) -> bool {
        match self {
            OutputMode::Both => true,
            OutputMode::Bob => role == crate::Role::Bob,
            OutputMode::Alice => role == crate::Role::Alice,
        }
    }
}

impl std::str::FromStr for OutputMode {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "bob" => Ok(OutputMode::Bob),
            "both" => Ok(OutputMode::Both),
            "alice" => Ok(OutputMode::Alice),
            other => Err(format!(
                "unknown output mode `{other}` (expected bob, both or alice)"
            )),
        }
    }
}

/// The parameters both parties must agree on for a run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// The function.
    pub circuit: Arc<Circuit>,
    /// Input groups Alice provides, in the order she lists her values.
    pub alice_groups: Vec<usize>,
    /// Input groups Bob provides.
    pub bob_groups: Vec<usize>,
    /// Number of online executions the preprocessing must cover.
    pub executions: usize,
    /// Who learns the output.
    pub output: OutputMode,
    /// Where long preprocessing reports its progress (not part of the
    /// agreement between the parties).
    pub progress: crate::progress::Progress,
    /// The session of the store this run consumes, if any: part of the
    /// run agreement, so two stores of different sessions are refused
    /// before any material is touched.
    pub store_session: Option<String>,
}

impl RunConfig {
    /// A configuration with the default ownership: Alice owns group 0, Bob
    /// owns group 1, and any further groups go to Bob.
    pub fn new(circuit: Arc<Circuit>) -> Result<Self> {
        let n = circuit.inputs.len();
        let alice_groups = if n > 0 { vec![0] } else { vec![] };
        let bob_groups = (1..n).collect();
        let cfg = RunConfig {
            circuit,
            alice_groups,
            bob_groups,
            executions: 1,
            output: OutputMode::Bob,
            progress: Default::default(),
            store_session: None,
        };
        cfg.validate()?;
        Ok(cfg)
    }

    /// Checks that every input group is owned by exactly one party.
    pub fn validate(&self) -> Result<()> {
        let n = self.circuit.inputs.len();
        let mut owner = vec![0u8; n];
        for (groups, who) in [(&self.alice_groups, 1u8), (&self.bob_groups, 2u8)] {
            for &g in groups {
                let slot = owner.get_mut(g).ok_or_else(|| {
                    Error::config(format!(
                        "input group {g} does not exist (the circuit has {n})"
                    ))
                })?;
                if *slot != 0 {
                    return Err(Error::config(format!("input group {g} is assigned twice")));
                }
                *slot = who;
            }
        }
        if let Some(g) = owner.iter().position(|&o| o == 0) {
            return Err(Error::config(format!(
                "input group {g} is owned by neither party"
            )));
        }
        if self.executions == 0 {
            return Err(Error::config("at least one execution is needed"));
        }
        Ok(())
    }

    /// A digest of everything both parties must agree on for `protocol`:
    /// the circuit, input ownership, execution count and output mode. The
    /// driver exchanges it first, so two processes started with different
    /// circuits or flags fail with a clear error instead of computing garbage.
    pub fn digest(&self, protocol: &str) -> [u8; 32] {
        let mut h = blake3::Hasher::new_derive_key("brickyard run config v1");
        h.update(protocol.as_bytes());
        h.update(&[0]);
        h.update(&postcard::to_stdvec(&*self.circuit).unwrap_or_default());
        let owned = (
            &self.alice_groups,
            &self.bob_groups,
            self.executions as u64,
            self.output,
        );
        h.update(&postcard::to_stdvec(&owned).unwrap_or_default());
        *h.finalize().as_bytes()
    }

    /// A digest of the circuit alone (the run agreement sends it instead
    /// of the circuit).
    pub fn circuit_digest(&self) -> [u8; 32] {
        let mut h = blake3::Hasher::new_derive_key("brickyard circuit v1");
        h.update(&postcard::to_stdvec(&*self.circuit).unwrap_or_default());
        *h.finalize().as_bytes()
    }

    /// The store parameters of function-dependent material: the circuit's
    /// digest and who owns which input group (the material's layout
    /// follows both).
    pub fn function_parameters(&self) -> std::collections::BTreeMap<String, String> {
        let groups = |g: &[usize]| {
            g.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let digest: String = self
            .circuit_digest()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let mut m = std::collections::BTreeMap::new();
        m.insert("circuit digest".into(), digest);
        m.insert("alice groups".into(), groups(&self.alice_groups));
        m.insert("bob groups".into(), groups(&self.bob_groups));
        m
    }

    /// The groups a role owns.
    pub fn groups_of(&self, role: crate::Role) -> &[usize] {
        match role {
            crate::Role::Alice => &self.alice_groups,
            crate::Role::Bob => &self.bob_groups,
        }
    }

    /// Checks one party's inputs against the widths of its groups.
    pub fn check_inputs(&self, role: crate::Role, inputs: &crate::PartyInputs) -> Result<()> {
        let groups = self.groups_of(role);
        if inputs.len() != groups.len() {
            return Err(Error::config(format!(
                "{} owns {} input group(s) but {} value(s) were given",
                role.name(),
                groups.len(),
                inputs.len()
            )));
        }
        for (v, &g) in inputs.iter().zip(groups) {
            let w = self.circuit.inputs[g].width();
            if v.len() != w {
                return Err(Error::config(format!(
                    "input group {g} has {w} bits, value has {}",
                    v.len()
                )));
            }
        }
        Ok(())
    }

    /// The wires of a role's input groups, concatenated in its group order.
    pub fn input_wires(&self, role: crate::Role) -> Vec<u32> {
        self.groups_of(role)
            .iter()
            .flat_map(|&g| self.circuit.inputs[g].wires.iter().copied())
            .collect()
    }
}
