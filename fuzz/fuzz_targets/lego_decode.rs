//! LEGO's own stateless decoders, direct (`brickyard_lego::fuzzing::decode`):
//! Bob's side of the batch-name coin toss (`batch-id-commit`), the batch
//! listing before Build, Eval's and step 10's bit flights, a flight of
//! garbled-table blocks. `Ok` or a typed error, never a panic or an
//! unbounded allocation.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = brickyard_lego::fuzzing::decode(data);
});
