//! Specs of the paper's functions, built in code: AES-128 from round
//! components, AES-CBC, Levenshtein distance from core cells — plus any
//! circuit run as a single component.

use super::components::ComponentType;
use super::function::Function;
use super::spec::*;
use brickyard_circuit::library::levenshtein::distance_bits;
use brickyard_core::{Error, Result};
use brickyard_driver::{Role, RunConfig};

fn map(inp: usize, gc: usize, wire: usize, len: usize) -> InputMap {
    InputMap {
        start_input_idx: inp,
        end_input_idx: inp + len - 1,
        gc_id: gc,
        start_wire_idx: wire,
        end_wire_idx: wire + len - 1,
    }
}

fn chain(from: usize, fw: usize, to: usize, tw: usize, len: usize) -> Instruction {
    Instruction::Chain {
        from_gc_id: from,
        from_wire_id_start: fw,
        from_wire_id_end: fw + len - 1,
        to_gc_id: to,
        to_wire_id_start: tw,
        to_wire_id_end: tw + len - 1,
    }
}

fn group(party: SpecParty, name: &str, width: usize) -> InputGroup {
    InputGroup {
        party,
        name: name.into(),
        width,
    }
}

fn entry(kind: &str, num: usize) -> ComponentEntry {
    ComponentEntry {
        kind: kind.into(),
        num,
    }
}

/// Round key `r` in the garbler's transformed input.
fn rk(r: usize) -> usize {
    128 * r
}

/// AES-CBC over `m ≥ 1` blocks with a zero IV (`m = 1` is plain AES-128):
/// the user-facing groups of the circuit library's `aes128` /
/// `aes128-cbc:M` (key for Alice, plaintext for Bob), so the results are
/// comparable bit for bit. Alice's transform expands the key; block `i`
/// is `xor3-128(p_i, c_{i−1}, k_0)` (`xor128(p_0, k_0)` for block 0), then
/// nine `aes128-round` and one `aes128-final-round`: `m` XOR and `10m`
/// round components.
pub fn aes_cbc_spec(m: usize) -> SpecFile {
    let g_in = 11 * 128;
    let xor_gc = |i: usize| i;
    let round_gc = |i: usize, r: usize| m + 9 * i + (r - 1);
    let final_gc = |i: usize| 10 * m + i;
    let mut components = vec![entry("xor128", 1)];
    if m > 1 {
        components.push(entry("xor3-128", m - 1));
    }
    components.push(entry("aes128-round", 9 * m));
    components.push(entry("aes128-final-round", m));
    let mut input_mapping = Vec::new();
    let mut instructions = Vec::new();
    let mut output = Vec::new();
    for i in 0..m {
        // Block i is the byte string's i-th block: the top wires come first.
        let p = g_in + 128 * (m - 1 - i);
        input_mapping.push(map(p, xor_gc(i), 0, 128));
        if i == 0 {
            input_mapping.push(map(rk(0), xor_gc(0), 128, 128));
        } else {
            instructions.push(chain(final_gc(i - 1), 0, xor_gc(i), 128, 128));
            input_mapping.push(map(rk(0), xor_gc(i), 256, 128));
        }
        instructions.push(Instruction::Eval { gc_id: xor_gc(i) });
        let mut prev = xor_gc(i);
        for r in 1..=10 {
            let g = if r < 10 { round_gc(i, r) } else { final_gc(i) };
            input_mapping.push(map(rk(r), g, 128, 128));
            instructions.push(chain(prev, 0, g, 0, 128));
            instructions.push(Instruction::Eval { gc_id: g });
            prev = g;
        }
    }
    for i in (0..m).rev() {
        output.push(OutputMap {
            name: Some("ciphertext".into()),
            gc_id: final_gc(i),
            start_wire_idx: 0,
            end_wire_idx: 127,
        });
    }
    SpecFile {
        metadata: Metadata {
            name: if m == 1 {
                "aes128".into()
            } else {
                format!("aes128-cbc:{m}")
            },
            garbler_inputs: g_in,
            evaluator_inputs: 128 * m,
            outputs: 128 * m,
            garbler_transform: Some(super::keysched::NAME.into()),
        },
        components,
        inputs: vec![
            group(SpecParty::Garbler, "key", 128),
            group(SpecParty::Evaluator, "plaintext", 128 * m),
        ],
        input_mapping,
        constants: vec![],
        instructions,
        output,
    }
}

fn bits_of(v: usize, w: usize) -> String {
    (0..w)
        .map(|k| if v >> k & 1 == 1 { '1' } else { '0' })
        .collect()
}

/// Levenshtein distance of two `l`-symbol strings (Alice's `a`, Bob's `b`,
/// 8-bit symbols, the groups of the library's `levenshtein:L`) from `l²`
/// `levenshtein-cell:W` components. The DP's first row and column are
/// constants.
pub fn levenshtein_spec(l: usize) -> SpecFile {
    let w = distance_bits(l);
    let cell_ty = format!("levenshtein-cell:{w}");
    let gc = |i: usize, j: usize| i * l + j;
    let (diag, up, left) = (16, 16 + w, 16 + 2 * w);
    let mut input_mapping = Vec::new();
    let mut constants = Vec::new();
    let mut instructions = Vec::new();
    let konst = |v: usize, g: usize, at: usize| ConstMap {
        value: bits_of(v, w),
        gc_id: g,
        start_wire_idx: at,
        end_wire_idx: at + w - 1,
    };
    for i in 0..l {
        for j in 0..l {
            let g = gc(i, j);
            input_mapping.push(map(8 * (l - 1 - i), g, 0, 8));
            input_mapping.push(map(8 * l + 8 * (l - 1 - j), g, 8, 8));
            // diag = D[i][j], up = D[i][j+1], left = D[i+1][j].
            match (i, j) {
                (0, _) => constants.push(konst(j, g, diag)),
                (_, 0) => constants.push(konst(i, g, diag)),
                _ => instructions.push(chain(gc(i - 1, j - 1), 0, g, diag, w)),
            }
            if i == 0 {
                constants.push(konst(j + 1, g, up));
            } else {
                instructions.push(chain(gc(i - 1, j), 0, g, up, w));
            }
            if j == 0 {
                constants.push(konst(i + 1, g, left));
            } else {
                instructions.push(chain(gc(i, j - 1), 0, g, left, w));
            }
            instructions.push(Instruction::Eval { gc_id: g });
        }
    }
    SpecFile {
        metadata: Metadata {
            name: format!("levenshtein:{l}"),
            garbler_inputs: 8 * l,
            evaluator_inputs: 8 * l,
            outputs: w,
            garbler_transform: None,
        },
        components: vec![entry(&cell_ty, l * l)],
        inputs: vec![
            group(SpecParty::Garbler, "a", 8 * l),
            group(SpecParty::Evaluator, "b", 8 * l),
        ],
        input_mapping,
        constants,
        instructions,
        output: vec![OutputMap {
            name: Some("distance".into()),
            gc_id: gc(l - 1, l - 1),
            start_wire_idx: 0,
            end_wire_idx: w - 1,
        }],
    }
}

/// Name of the component type a whole circuit runs as (see [`single`]).
pub const INLINE: &str = "inline";

/// Any circuit as one component, with `cfg`'s input ownership: the garbler
/// bits are Alice's groups in `cfg` order (as her inputs arrive), likewise
/// for Bob. CompGC then degenerates to Yao with the circuit garbled offline.
pub fn single(cfg: &RunConfig) -> Result<Function> {
    let c = &cfg.circuit;
    let ty = ComponentType::from_circuit(INLINE, (**c).clone())?;
    let mut starts = Vec::with_capacity(c.inputs.len());
    let mut at = 0;
    for g in &c.inputs {
        starts.push(at);
        at += g.width();
    }
    let mut input_mapping = Vec::new();
    let mut idx = 0;
    for role in [Role::Alice, Role::Bob] {
        for &g in cfg.groups_of(role) {
            let w = c.inputs[g].width();
            if w > 0 {
                input_mapping.push(map(idx, 0, starts[g], w));
            }
            idx += w;
        }
    }
    let party = |g: usize| {
        if cfg.alice_groups.contains(&g) {
            SpecParty::Garbler
        } else {
            SpecParty::Evaluator
        }
    };
    let mut out_at = 0;
    let output = c
        .outputs
        .iter()
        .filter(|g| g.width() > 0)
        .map(|g| {
            let o = OutputMap {
                name: Some(g.name.clone()),
                gc_id: 0,
                start_wire_idx: out_at,
                end_wire_idx: out_at + g.width() - 1,
            };
            out_at += g.width();
            o
        })
        .collect();
    let width = |r: Role| -> usize { cfg.groups_of(r).iter().map(|&g| c.inputs[g].width()).sum() };
    let spec = SpecFile {
        metadata: Metadata {
            name: "circuit".into(),
            garbler_inputs: width(Role::Alice),
            evaluator_inputs: width(Role::Bob),
            outputs: c.outputs.iter().map(|g| g.width()).sum(),
            garbler_transform: None,
        },
        components: vec![entry(INLINE, 1)],
        inputs: c
            .inputs
            .iter()
            .enumerate()
            .map(|(i, g)| group(party(i), &g.name, g.width()))
            .collect(),
        input_mapping,
        constants: vec![],
        instructions: vec![Instruction::Eval { gc_id: 0 }],
        output,
    };
    Ok(Function::new(&spec, &[ty])?)
}

/// The function a `--circuit` name stands for under compgc:
/// `builtin:aes128`, `builtin:aes128-cbc:M`, `builtin:levenshtein:L`, or a
/// `.json` spec file. `None` for other names (run them with [`single`]).
pub fn resolve_function(name: &str) -> Result<Option<Function>> {
    let spec = if name == "builtin:aes128" {
        aes_cbc_spec(1)
    } else if let Some(m) = name.strip_prefix("builtin:aes128-cbc:") {
        aes_cbc_spec(size(name, m, 1024)?)
    } else if let Some(l) = name.strip_prefix("builtin:levenshtein:") {
        levenshtein_spec(size(name, l, 512)?)
    } else if name.ends_with(".json") {
        let bytes = std::fs::read(name)
            .map_err(|e| Error::config(format!("cannot read spec {name}: {e}")))?;
        return Ok(Some(Function::from_json(&bytes)?));
    } else {
        return Ok(None);
    };
    Ok(Some(Function::new(&spec, &[])?))
}

fn size(name: &str, s: &str, max: usize) -> Result<usize> {
    match s.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(Error::config(format!(
            "{name}: size must be an integer in 1..={max}"
        ))),
    }
}
