//! Malformed function specs are refused with the right error, one test per
//! kind; the documented example parses.

use brickyard_protocols::compgc::{Function, SpecError};
use serde_json::{json, Value};

/// `xor4(g, e)` then `xor4(·, 1010)`: valid.
fn base() -> Value {
    json!({
        "metadata": {"name": "tiny", "garbler_inputs": 4, "evaluator_inputs": 4, "outputs": 4},
        "components": [{"type": "xor4", "num": 2}],
        "input_mapping": [
            {"start_input_idx": 0, "end_input_idx": 3, "gc_id": 0, "start_wire_idx": 0, "end_wire_idx": 3},
            {"start_input_idx": 4, "end_input_idx": 7, "gc_id": 0, "start_wire_idx": 4, "end_wire_idx": 7}
        ],
        "constants": [{"value": "1010", "gc_id": 1, "start_wire_idx": 4, "end_wire_idx": 7}],
        "instructions": [
            {"type": "EVAL", "gc_id": 0},
            {"type": "CHAIN", "from_gc_id": 0, "from_wire_id_start": 0, "from_wire_id_end": 3,
             "to_gc_id": 1, "to_wire_id_start": 0, "to_wire_id_end": 3},
            {"type": "EVAL", "gc_id": 1}
        ],
        "output": [{"name": "out", "gc_id": 1, "start_wire_idx": 0, "end_wire_idx": 3}]
    })
}

fn err(v: &Value) -> SpecError {
    match Function::from_json(v.to_string().as_bytes()) {
        Ok(_) => panic!("accepted: {v}"),
        Err(e) => e,
    }
}

#[test]
fn the_base_spec_is_valid_and_computes_xor_then_constant() {
    let f = Function::from_json(base().to_string().as_bytes()).unwrap();
    let c = f.flatten().unwrap();
    let out = c
        .eval(&[
            vec![true, true, false, false],
            vec![true, false, true, false],
        ])
        .unwrap();
    // (1100 ⊕ 1010) ⊕ 1010 = 1100
    assert_eq!(out, vec![vec![true, true, false, false]]);
}

#[test]
fn the_documented_example_parses() {
    let doc = include_str!("../../../docs/protocols/compgc.md");
    let start = doc.find("```json\n").expect("example in docs") + 8;
    let end = start + doc[start..].find("```").unwrap();
    let f = Function::from_json(&doc.as_bytes()[start..end]).unwrap();
    assert_eq!(f.instances(), 2);
}

#[test]
fn not_json_or_unknown_fields() {
    assert_eq!(err(&json!([1, 2])).kind(), "json");
    let mut v = base();
    v["instructions"][0]["type"] = json!("JUMP");
    assert_eq!(err(&v).kind(), "json");
    let mut v = base();
    v["extra"] = json!(1);
    assert_eq!(err(&v).kind(), "json");
}

#[test]
fn unknown_component_type() {
    let mut v = base();
    v["components"][0]["type"] = json!("no-such-component");
    assert_eq!(err(&v).kind(), "unknown-component");
}

#[test]
fn gc_id_out_of_range() {
    let mut v = base();
    v["instructions"][2]["gc_id"] = json!(2);
    assert_eq!(err(&v), SpecError::GcIdOutOfRange { gc_id: 2, count: 2 });
}

#[test]
fn wire_or_input_index_out_of_range() {
    let mut v = base();
    v["input_mapping"][1]["end_wire_idx"] = json!(8);
    v["input_mapping"][1]["end_input_idx"] = json!(8);
    assert_eq!(err(&v).kind(), "index-out-of-range");
    let mut v = base();
    v["output"][0]["start_wire_idx"] = json!(3);
    v["output"][0]["end_wire_idx"] = json!(2);
    assert_eq!(err(&v).kind(), "index-out-of-range");
}

#[test]
fn unequal_range_lengths() {
    let mut v = base();
    v["instructions"][1]["to_wire_id_end"] = json!(2);
    assert!(matches!(
        err(&v),
        SpecError::RangeLengthMismatch { from: 4, to: 3, .. }
    ));
}

#[test]
fn a_wire_chained_twice() {
    let mut v = base();
    let extra = v["instructions"][1].clone();
    v["instructions"].as_array_mut().unwrap().insert(2, extra);
    assert_eq!(err(&v), SpecError::WireChainedTwice { gc_id: 1, wire: 0 });
    // A constant onto a chained wire is the same mistake.
    let mut v = base();
    v["constants"][0]["start_wire_idx"] = json!(0);
    v["constants"][0]["end_wire_idx"] = json!(3);
    assert_eq!(err(&v).kind(), "wire-chained-twice");
}

#[test]
fn an_input_never_provided() {
    let mut v = base();
    v["constants"] = json!([]);
    assert_eq!(err(&v), SpecError::InputNeverProvided { gc_id: 1, wire: 4 });
}

#[test]
fn evaluation_order_that_reads_an_unevaluated_component() {
    let mut v = base();
    v["instructions"].as_array_mut().unwrap().swap(0, 1);
    assert_eq!(
        err(&v),
        SpecError::ReadsUnevaluated {
            instruction: 0,
            gc_id: 0
        }
    );
    // Chaining into a component after its EVAL is an order error too.
    let mut v = base();
    v["instructions"].as_array_mut().unwrap().swap(1, 2);
    assert_eq!(err(&v).kind(), "input-never-provided");
}

#[test]
fn components_evaluated_twice_or_never() {
    let mut v = base();
    v["instructions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "EVAL", "gc_id": 1}));
    assert_eq!(err(&v), SpecError::EvalCount { gc_id: 1, times: 2 });
    let mut v = base();
    v["components"][0]["num"] = json!(3);
    assert_eq!(err(&v).kind(), "eval-count");
}

#[test]
fn metadata_that_disagrees() {
    let mut v = base();
    v["metadata"]["outputs"] = json!(5);
    assert_eq!(err(&v).kind(), "metadata");
    let mut v = base();
    v["inputs"] = json!([{"party": "garbler", "name": "x", "width": 3}, {"party": "evaluator", "name": "y", "width": 4}]);
    assert_eq!(err(&v).kind(), "metadata");
}

#[test]
fn bad_constants_and_transforms() {
    let mut v = base();
    v["constants"][0]["value"] = json!("10x0");
    assert_eq!(err(&v).kind(), "bad-constant");
    let mut v = base();
    v["constants"][0]["value"] = json!("101");
    assert_eq!(err(&v).kind(), "bad-constant");
    let mut v = base();
    v["metadata"]["garbler_transform"] = json!("aes128-key-schedule");
    assert_eq!(err(&v).kind(), "transform");
}

#[test]
fn errors_become_config_errors_naming_the_kind() {
    let mut v = base();
    v["components"][0]["type"] = json!("nope");
    let e: brickyard_core::Error = err(&v).into();
    assert!(matches!(e, brickyard_core::Error::Config(m) if m.contains("unknown-component")));
}
