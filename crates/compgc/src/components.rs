//! Component types by name: what the offline library garbles and what a
//! function spec refers to.
//!
//! A component is any circuit. Names are resolved in this order, so that the
//! small glue circuits CompGC needs exist without a file: CompGC's own
//! `xorN` (a(N), b(N) → a⊕b), `xor3-N` (a, b, c → a⊕b⊕c) and `muxN`
//! (s(1), a(N), b(N) → s ? a : b); then the circuit library's builtins
//! (`aes128-round`, `levenshtein-cell:W`, `addN`, `ltN`, …); then
//! `builtin:NAME` or a Bristol file path via [`brickyard_circuit::resolve`].

use super::keysched;
use brickyard_circuit::{BitVec, Circuit, CircuitBuilder};
use brickyard_core::{Error, Result};
use brickyard_garble::GarblePlan;
use std::sync::Arc;

/// Widest glue component: bounds what a typo can make us build.
const GLUE_MAX: usize = 1 << 16;

/// A resolved component type: its circuit and garbling plan.
#[derive(Clone)]
pub struct ComponentType {
    /// The name used in specs, `--components` and store kinds.
    pub name: String,
    /// The component's circuit.
    pub circuit: Arc<Circuit>,
    /// Its garbling plan (compiled once, shared by every instance).
    pub plan: Arc<GarblePlan>,
}

impl ComponentType {
    /// Resolves `name` (see the module docs).
    pub fn resolve(name: &str) -> Result<ComponentType> {
        let circuit = resolve_circuit(name)?;
        Self::from_circuit(name, circuit)
    }

    /// A component type made from a circuit at hand (e.g. a whole function
    /// run as one component).
    pub fn from_circuit(name: &str, circuit: Circuit) -> Result<ComponentType> {
        let plan = GarblePlan::new(&circuit)?;
        Ok(ComponentType {
            name: name.to_string(),
            circuit: Arc::new(circuit),
            plan: Arc::new(plan),
        })
    }

    /// Number of input wires (all input groups concatenated).
    pub fn inputs(&self) -> usize {
        self.plan.input_wires().len()
    }

    /// Number of output wires (all output groups concatenated).
    pub fn outputs(&self) -> usize {
        self.plan.output_wires().len()
    }

    /// Garbled-table blocks per instance.
    pub fn table_blocks(&self) -> usize {
        self.plan.table_blocks()
    }
}

fn glue_width(name: &str, digits: &str) -> Result<Option<usize>> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(None);
    }
    match digits.parse::<usize>() {
        Ok(n) if (1..=GLUE_MAX).contains(&n) => Ok(Some(n)),
        _ => Err(Error::config(format!(
            "component `{name}`: width must be 1..={GLUE_MAX}"
        ))),
    }
}

fn xor_n(n: usize, ways: usize) -> Circuit {
    let mut b = CircuitBuilder::new();
    let ins: Vec<BitVec> = (0..ways)
        .map(|i| b.input(&((b'a' + i as u8) as char).to_string(), n))
        .collect();
    let mut acc = ins[0].clone();
    for x in &ins[1..] {
        acc = b.xor(&acc, x);
    }
    b.output("out", &acc);
    b.finish()
}

fn mux_n(n: usize) -> Circuit {
    let mut b = CircuitBuilder::new();
    let s = b.input("s", 1);
    let x = b.input("a", n);
    let y = b.input("b", n);
    let out = b.mux(s.bit(0), &x, &y);
    b.output("out", &out);
    b.finish()
}

/// The circuit of component type `name`.
pub fn resolve_circuit(name: &str) -> Result<Circuit> {
    if name == keysched::NAME {
        return Ok(keysched::aes128_key_schedule());
    }
    if let Some(d) = name.strip_prefix("xor3-") {
        if let Some(n) = glue_width(name, d)? {
            return Ok(xor_n(n, 3));
        }
    }
    if let Some(d) = name.strip_prefix("xor") {
        if let Some(n) = glue_width(name, d)? {
            return Ok(xor_n(n, 2));
        }
    }
    if let Some(d) = name.strip_prefix("mux") {
        if let Some(n) = glue_width(name, d)? {
            return Ok(mux_n(n));
        }
    }
    let spec = if name.starts_with("builtin:") || name.contains('/') || name.contains('.') {
        name.to_string()
    } else {
        format!("builtin:{name}")
    };
    brickyard_circuit::resolve(&spec)
        .map_err(|e| Error::config(format!("unknown component type `{name}`: {e}")))
}

/// The store kind holding instances of component type `name`.
///
/// Kind names are file names (`[a-z0-9_-]{1,64}`); a type name that is not
/// one already (`levenshtein-cell:5`, a file path) is sanitised and given a
/// hash suffix so two different types never share a kind.
pub fn kind_name(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' | '_' | '-' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '_',
        })
        .collect();
    if clean == name && clean.len() <= 59 {
        return format!("comp-{clean}");
    }
    let h = blake3::hash(name.as_bytes()).to_hex();
    let keep: String = clean.chars().take(40).collect();
    format!("comp-{keep}-{}", &h.as_str()[..12])
}

/// Parses `--components`: `TYPE:COUNT,TYPE:COUNT,…`. The count is after
/// the last colon, so parameterised types (`levenshtein-cell:5:900`) work.
pub fn parse_components(s: &str) -> Result<Vec<(String, usize)>> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for item in s.split(',').map(str::trim).filter(|x| !x.is_empty()) {
        let (name, count) = item.rsplit_once(':').ok_or_else(|| {
            Error::config(format!(
                "`{item}`: expected TYPE:COUNT (e.g. aes128-round:90)"
            ))
        })?;
        let count: usize = count
            .parse()
            .map_err(|_| Error::config(format!("`{item}`: COUNT must be a number")))?;
        match out.iter_mut().find(|(n, _)| n == name) {
            Some(e) => e.1 += count,
            None => out.push((name.to_string(), count)),
        }
    }
    if out.is_empty() {
        return Err(Error::config("no components given"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glue_components_compute_what_they_say() {
        let x = resolve_circuit("xor4").unwrap();
        let o = x.eval(&[
            vec![true, false, true, false],
            vec![true, true, false, false],
        ]);
        assert_eq!(o.unwrap(), vec![vec![false, true, true, false]]);
        let m = resolve_circuit("mux2").unwrap();
        let a = vec![true, false];
        let b = vec![false, true];
        assert_eq!(
            m.eval(&[vec![true], a.clone(), b.clone()]).unwrap(),
            vec![a.clone()]
        );
        assert_eq!(m.eval(&[vec![false], a, b.clone()]).unwrap(), vec![b]);
        assert!(resolve_circuit("xor0").is_err());
        assert!(resolve_circuit("nonsense-type").is_err());
        assert_eq!(
            ComponentType::resolve("aes128-round").unwrap().inputs(),
            256
        );
    }

    #[test]
    fn kind_names_are_valid_and_distinct() {
        assert_eq!(kind_name("aes128-round"), "comp-aes128-round");
        let a = kind_name("levenshtein-cell:5");
        let b = kind_name("levenshtein-cell_5");
        assert_ne!(a, b);
        for k in [a, b, kind_name(&"x/".repeat(100))] {
            assert!(k.len() <= 64);
            assert!(k
                .bytes()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_' || c == b'-'));
        }
    }

    #[test]
    fn component_lists_parse() {
        let v =
            parse_components("aes128-round:90, levenshtein-cell:5:900,aes128-round:10").unwrap();
        assert_eq!(
            v,
            vec![
                ("aes128-round".to_string(), 100),
                ("levenshtein-cell:5".to_string(), 900)
            ]
        );
        assert!(parse_components("aes128-round").is_err());
        assert!(parse_components("aes128-round:x").is_err());
        assert!(parse_components("").is_err());
    }
}
