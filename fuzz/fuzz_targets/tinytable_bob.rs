//! TinyTable's peer messages, honest Bob as victim (dealer tables, one
//! execution of builtin:add8) against a mutated honest transcript or raw
//! bytes (`brickyard_tinytable::fuzzing`): `Ok` or a typed
//! error, never a panic or an unbounded allocation.
#![no_main]

use brickyard_driver::Role;
use brickyard_tinytable::fuzzing::run;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = run(Role::Bob, data);
});
