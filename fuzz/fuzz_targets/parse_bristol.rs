//! Any bytes: the parser returns, never panics, and whatever it accepts is
//! a valid circuit that survives a write → parse round trip with the same
//! evaluation on an all-zero input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(c) = brickyard_circuit::parse_bristol_bytes(data) else { return };
    c.validate().expect("parsed circuits are valid");
    // Keep each run cheap: skip the round trip for big circuits.
    if c.gates.len() > 10_000 || c.num_wires > 100_000 {
        return;
    }
    let text = brickyard_circuit::write_bristol_fashion(&c);
    let d = brickyard_circuit::parse_bristol(&text).expect("written circuits parse");
    let zeros: Vec<Vec<bool>> = c.inputs.iter().map(|g| vec![false; g.width()]).collect();
    assert_eq!(c.eval(&zeros), d.eval(&zeros));
});
