//! The OT layer's stateless decoders, direct (`brickyard_ot::fuzzing::decode`):
//! base-OT points (canonical Ristretto only, the sender's `S` not the
//! identity, the receiver's flight), the Δ-ROT lsb flag, Beaver headers.
//! `Ok` or a typed error, never a panic or an unbounded allocation.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = brickyard_ot::fuzzing::decode(data);
});
