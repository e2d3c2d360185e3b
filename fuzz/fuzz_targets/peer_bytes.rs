//! An honest party of `yao`, `tinytable` or `lego` (either role) against a
//! peer whose messages are the fuzzer's bytes — raw, or XORed into the
//! honest peer's transcript of a real run so that the input reaches the
//! later messages — via `brickyard_protocols::robustness::against`. It must
//! end in a typed error or outputs; a panic, a hang or an allocation over
//! the `-malloc_limit_mb` the command in docs/testing.md sets is a bug.
#![no_main]

use brickyard_protocols::robustness::{against, transcript};
use brickyard_protocols::{PartyInputs, Role, RunConfig};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

const PROTOCOLS: [&str; 3] = ["yao", "tinytable", "lego"];

struct Fixture {
    cfg: RunConfig,
    x: PartyInputs,
    y: PartyInputs,
    /// Per protocol: (what Alice sent, what Bob sent) in an honest run.
    sent: Vec<(Vec<u8>, Vec<u8>)>,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let c = brickyard_circuit::resolve("builtin:add8").expect("builtin");
        let cfg = RunConfig::new(Arc::new(c)).expect("config");
        let bits = |n: usize, v: u64| (0..n).map(|i| (v >> i) & 1 == 1).collect::<Vec<bool>>();
        let width = |g: usize| cfg.circuit.inputs[g].width();
        let x: PartyInputs = cfg.groups_of(Role::Alice).iter().map(|&g| bits(width(g), 5)).collect();
        let y: PartyInputs = cfg.groups_of(Role::Bob).iter().map(|&g| bits(width(g), 7)).collect();
        let sent = PROTOCOLS
            .iter()
            .map(|p| {
                let (a, b, _) = transcript(p, &cfg, &x, &y).expect("honest run");
                (a, b)
            })
            .collect();
        Fixture { cfg, x, y, sent }
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let f = fixture();
    let p = (sel as usize / 4) % PROTOCOLS.len();
    let role = if sel & 1 == 0 { Role::Alice } else { Role::Bob };
    let (inputs, peer) = match role {
        Role::Alice => (&f.x, &f.sent[p].1),
        Role::Bob => (&f.y, &f.sent[p].0),
    };
    let bytes = if sel & 2 == 0 || peer.is_empty() || rest.len() < 4 {
        rest.to_vec()
    } else {
        let (off, mask) = rest.split_at(4);
        let off = u32::from_le_bytes(off.try_into().unwrap()) as usize % peer.len();
        let mut v = peer.clone();
        for (i, m) in mask.iter().enumerate() {
            let j = (off + i) % v.len();
            v[j] ^= m;
        }
        v
    };
    let _ = against(PROTOCOLS[p], role, &f.cfg, inputs, &bytes);
});
