//! Every vector of the shared `vectors.json` on every shared circuit file,
//! plus header counts and a write→parse round trip of each file.

mod common;

use brickyard_circuit::{load, parse_bristol, parse_value, write_bristol_fashion, Circuit, Gate};
use common::{shared_circuits, wire_bits};
use serde_json::Value;

fn count(c: &Circuit, f: fn(&Gate) -> bool) -> u64 {
    c.gates.iter().filter(|g| f(g)).count() as u64
}

/// Same wires and gates; names are not part of Bristol files.
fn same_structure(a: &Circuit, b: &Circuit) -> bool {
    let wires =
        |gs: &[brickyard_circuit::Group]| gs.iter().map(|g| g.wires.clone()).collect::<Vec<_>>();
    a.num_wires == b.num_wires
        && a.gates == b.gates
        && wires(&a.inputs) == wires(&b.inputs)
        && wires(&a.outputs) == wires(&b.outputs)
}

#[test]
fn every_vector_on_every_file() {
    let Some(dir) = shared_circuits() else { return };
    let text = std::fs::read_to_string(dir.join("vectors.json")).expect("vectors.json readable");
    let json: Value = serde_json::from_str(&text).expect("vectors.json parses");
    let circuits = json["circuits"].as_object().expect("circuits object");
    assert!(
        circuits.len() >= 15,
        "expected all shared files, found {}",
        circuits.len()
    );
    let mut checked = 0;
    for (file, spec) in circuits {
        let c = load(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        c.validate().unwrap_or_else(|e| panic!("{file}: {e}"));
        let counts = &spec["header"]["counts"];
        assert_eq!(
            count(&c, |g| matches!(g, Gate::And { .. })),
            counts["AND"].as_u64().unwrap_or(0),
            "{file} AND"
        );
        assert_eq!(
            count(&c, |g| matches!(g, Gate::Xor { .. })),
            counts["XOR"].as_u64().unwrap_or(0),
            "{file} XOR"
        );
        assert_eq!(
            count(&c, |g| matches!(g, Gate::Inv { .. })),
            counts["INV"].as_u64().unwrap_or(0),
            "{file} INV"
        );
        let outs: Vec<usize> = c.outputs.iter().map(|g| g.width()).collect();
        let want_outs: Vec<usize> = spec["header"]["output_sizes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(outs, want_outs, "{file} output widths");

        for v in spec["vectors"].as_array().expect("vectors") {
            let inputs: Vec<Vec<bool>> = v["input_wire_bits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| wire_bits(s.as_str().unwrap()))
                .collect();
            // Old-format files with a zero-width second input have one group.
            let inputs: Vec<Vec<bool>> = inputs.into_iter().filter(|b| !b.is_empty()).collect();
            let want: Vec<Vec<bool>> = v["output_wire_bits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| wire_bits(s.as_str().unwrap()))
                .collect();
            let got = c.eval(&inputs).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(got, want, "{file}: {}", v["note"]);
            checked += 1;
        }

        let again = parse_bristol(&write_bristol_fashion(&c))
            .unwrap_or_else(|e| panic!("{file} rewritten: {e}"));
        assert!(
            same_structure(&c, &again),
            "{file}: write→parse changed the structure"
        );
    }
    assert!(checked >= 45, "only {checked} vectors checked");
}

/// The value syntax is the one the files' REVERSED order expects: `0x` plus
/// the bytes in order gives exactly the vector's wire bits.
#[test]
fn hex_values_match_reversed_files() {
    let Some(dir) = shared_circuits() else { return };
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("vectors.json")).unwrap()).unwrap();
    for file in ["bristol_fashion/aes_128.txt", "bristol_fashion/sha256.txt"] {
        for v in json["circuits"][file]["vectors"].as_array().unwrap() {
            for (nat, bits) in v["inputs"]
                .as_array()
                .unwrap()
                .iter()
                .zip(v["input_wire_bits"].as_array().unwrap())
            {
                let bits = wire_bits(bits.as_str().unwrap());
                let parsed =
                    parse_value(&format!("0x{}", nat.as_str().unwrap()), bits.len()).unwrap();
                assert_eq!(parsed, bits, "{file}");
            }
        }
    }
}
