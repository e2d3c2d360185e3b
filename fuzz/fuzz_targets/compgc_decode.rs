//! CompGC's library manifest and tables as Bob receives them, direct
//! (`brickyard_compgc::library::receive_library` with Bob's rule that a
//! type name must be one he expects, as `compgc/bob.rs` resolves it): the
//! postcard `Manifest`, the announced total against his bound, each
//! instance's table blocks. `Ok` or a typed error, never a panic or an
//! unbounded allocation.
#![no_main]

use brickyard_compgc::components::ComponentType;
use brickyard_compgc::library::receive_library;
use brickyard_core::Error;
use std::sync::OnceLock;

fn known() -> &'static [ComponentType] {
    static T: OnceLock<Vec<ComponentType>> = OnceLock::new();
    T.get_or_init(|| {
        ["xor8", "mux8", "add8"]
            .iter()
            .map(|n| ComponentType::resolve(n).expect("component type"))
            .collect()
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let known = known();
    let resolve = |name: &str| {
        known
            .iter()
            .find(|t| t.name == name)
            .cloned()
            .ok_or_else(|| Error::malformed(format!("compgc: unexpected component `{name}`")))
    };
    let mut tweak = 1u64;
    let mut ch = brickyard_core::channel::scripted(data);
    let _ = receive_library(&mut ch, resolve, 64, &mut tweak, |_, _| Ok(()));
});
