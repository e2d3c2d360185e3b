//! Replay harness for fuzzing TinyTable's decoders of peer messages
//! (feature `fuzzing`; `fuzz/fuzz_targets/tinytable_{alice,bob}.rs`).
//!
//! The party runs every phase and one execution of `builtin:add8` with
//! dealer tables (`--dealer`: no TinyOT, so a run takes microseconds; the
//! real preprocessing's messages are TinyOT's, fuzzed by `ot_tinyot_*`),
//! against a recorded honest peer transcript mutated by the input, or raw
//! bytes. Decoders reached: the options digest, Bob's dealt records (table
//! chunks and execution record), the opened masked inputs and per-layer
//! masked values (packed bits with padding checks) and the MAC-check
//! answers. Bob replays to the end on an unmutated transcript; Alice
//! deals with fresh randomness, so a replayed Bob fails her first MAC
//! check, after every decoder of the first layer ran.
//!
//! Input format: as `brickyard_ot::fuzzing` (byte 0: odd = the rest is the
//! raw peer stream; even = 3-byte patches `(offset u16 LE, xor u8)` to the
//! recorded transcript, cut at the last patch if byte 0 ≥ 0x80).

use crate::{new_party, Options, Source};
use brickyard_core::channel::{memory_transport_pair, scripted, Recording};
use brickyard_core::{Channel, Result};
use brickyard_driver::{Outputs, Party, PartyInputs, Role, RunConfig};
use std::sync::{Arc, OnceLock};

struct Fixture {
    cfg: RunConfig,
    inputs: [PartyInputs; 2],
    /// What Alice sent, what Bob sent.
    sent: [Vec<u8>; 2],
}

fn options() -> Options {
    Options {
        source: Source::Dealer,
        ..Options::for_protocol("tinytable").expect("tinytable options")
    }
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let c = brickyard_circuit::resolve("builtin:add8").expect("builtin circuit");
        let cfg = RunConfig::new(Arc::new(c)).expect("config");
        let bits = |n: usize, v: u64| (0..n).map(|i| (v >> i) & 1 == 1).collect::<Vec<bool>>();
        let ins = |r: Role, v| -> PartyInputs {
            cfg.groups_of(r)
                .iter()
                .map(|&g| bits(cfg.circuit.inputs[g].width(), v))
                .collect()
        };
        let inputs = [ins(Role::Alice, 5), ins(Role::Bob, 7)];
        let (ta, tb) = memory_transport_pair();
        let (ra, log_a) = Recording::new(ta);
        let (rb, log_b) = Recording::new(tb);
        let mut alice = new_party(Role::Alice, cfg.clone(), options()).expect("alice");
        let mut bob = new_party(Role::Bob, cfg.clone(), options()).expect("bob");
        let x = inputs[0].clone();
        let h = std::thread::spawn(move || phases(alice.as_mut(), &mut Channel::new(ra), &x));
        phases(bob.as_mut(), &mut Channel::new(rb), &inputs[1]).expect("honest bob");
        h.join().expect("alice thread").expect("honest alice");
        let take =
            |l: Arc<std::sync::Mutex<Vec<u8>>>| l.lock().map(|v| v.clone()).unwrap_or_default();
        Fixture {
            sent: [take(log_a), take(log_b)],
            cfg,
            inputs,
        }
    })
}

/// Every phase and one execution, as the robustness harness of
/// `brickyard-protocols` runs them (no run agreement or barriers, so the
/// replayed bytes are exactly the peer's protocol messages).
fn phases(p: &mut dyn Party, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
    p.setup(ch)?;
    p.independent(ch)?;
    p.dependent(ch)?;
    p.begin_online(ch)?;
    let out = p.online(ch, inputs);
    ch.flush()?;
    out
}

/// The peer's byte stream for a fuzz input (see the module comment).
fn script(transcript: &[u8], data: &[u8]) -> Vec<u8> {
    let Some((&mode, rest)) = data.split_first() else {
        return transcript.to_vec();
    };
    if mode & 1 == 1 {
        return rest.to_vec();
    }
    let mut bytes = transcript.to_vec();
    let mut cut = None;
    for p in rest.chunks_exact(3) {
        if bytes.is_empty() {
            break;
        }
        let off = u16::from_le_bytes([p[0], p[1]]) as usize % bytes.len();
        bytes[off] ^= p[2];
        cut = Some(off);
    }
    if let (true, Some(c)) = (mode >= 0x80, cut) {
        bytes.truncate(c);
    }
    bytes
}

/// Runs an honest `role` party against the peer stream made from `data`;
/// it must never panic.
pub fn run(role: Role, data: &[u8]) -> Result<Option<Outputs>> {
    let f = fixture();
    let (me, peer) = match role {
        Role::Alice => (0, 1),
        Role::Bob => (1, 0),
    };
    let mut party = new_party(role, f.cfg.clone(), options())?;
    let mut ch = scripted(&script(&f.sent[peer], data));
    phases(party.as_mut(), &mut ch, &f.inputs[me])
}

/// TinyTable's stateless decoders run directly on `data` (the fast
/// target `tinytable_decode`): byte 0 picks the MAC scheme and the low
/// bits of a bit count, byte 1 its high bits; the rest is the peer's
/// stream in session order: the options digest (`agree_options`, checked
/// against ours), a flight of packed masked values (`recv_packed`:
/// padding bits must be zero) and a MAC-check answer (`recv_check`, the
/// scheme's key bytes). `Ok` or a typed error.
pub fn decode(data: &[u8]) -> Result<()> {
    use crate::mac::MacScheme;
    let [sel, size, rest @ ..] = data else {
        return Ok(());
    };
    let mac = [
        MacScheme::Lookup { k: 64 },
        MacScheme::Linear { k: 64 },
        MacScheme::Lookup { k: 32 },
        MacScheme::Linear { k: 32 },
    ][(*sel & 3) as usize];
    let o = Options { mac, ..options() };
    let ch = &mut scripted(rest);
    crate::party::agree_options(ch, &o)?;
    let mut buf = Vec::new();
    crate::online::recv_packed(ch, &mut buf, 8 * *size as usize + (*sel >> 2) as usize)?;
    crate::online::recv_check(ch, mac).map(drop)
}

/// The MAC schemes the direct entry points pick from (low two bits of
/// their selector byte).
const MACS: [crate::mac::MacScheme; 4] = [
    crate::mac::MacScheme::Lookup { k: 64 },
    crate::mac::MacScheme::Linear { k: 64 },
    crate::mac::MacScheme::Lookup { k: 32 },
    crate::mac::MacScheme::Linear { k: 32 },
];

/// The run of the direct target `tinytable_dealt`: `builtin:add8`,
/// `executions` of them, the MAC scheme `mac`, `--dealer`; Alice's
/// inputs 5, Bob's 7.
fn dealt_run(sel: u8) -> (RunConfig, Options, [PartyInputs; 2]) {
    let f = fixture();
    let mut cfg = f.cfg.clone();
    cfg.executions = 1 + ((sel >> 2) & 3) as usize;
    let o = Options {
        mac: MACS[(sel & 3) as usize],
        ..options()
    };
    (cfg, o, f.inputs.clone())
}

/// Bob's reading of the dealt records, direct (the target
/// `tinytable_dealt`): byte 0 picks the MAC scheme (bits 0–1) and the
/// number of executions E = 1..4 (bits 2–3); the rest is Alice's stream
/// from the dependent phase on: E executions' records as `receive_all`
/// reads them (`Party::dependent` of a `--dealer` Bob: table chunks of at
/// most `CHUNK_TABLES` tables, then the execution record, all of fixed
/// lengths), then the first online execution on those records (its
/// masked inputs, per-layer masked values and MAC-check answers, checked
/// with the records' MACs). `Ok` with Bob's output, or a typed error.
pub fn dealt(data: &[u8]) -> Result<Option<Outputs>> {
    let Some((&sel, rest)) = data.split_first() else {
        return Ok(None);
    };
    let (cfg, o, inputs) = dealt_run(sel);
    let mut bob = new_party(Role::Bob, cfg, o)?;
    let ch = &mut scripted(rest);
    bob.dependent(ch)?;
    bob.begin_online(ch)?;
    bob.online(ch, &inputs[1])
}

/// An honest `tinytable_dealt` input for selector `sel`: what a dealing
/// Alice sends from the dependent phase through the first execution
/// (the unit tests, and seeds for a fuzz corpus).
pub fn dealt_honest(sel: u8) -> Result<Vec<u8>> {
    let (cfg, o, inputs) = dealt_run(sel);
    let (ta, tb) = memory_transport_pair();
    let (ra, log) = Recording::new(ta);
    let mut alice = new_party(Role::Alice, cfg.clone(), o.clone())?;
    let mut bob = new_party(Role::Bob, cfg, o)?;
    let x = inputs[0].clone();
    let h = std::thread::spawn(move || -> Result<()> {
        let ch = &mut Channel::new(ra);
        alice.dependent(ch)?;
        alice.begin_online(ch)?;
        alice.online(ch, &x)?;
        ch.flush()
    });
    let ch = &mut Channel::new(tb);
    bob.dependent(ch)?;
    bob.begin_online(ch)?;
    bob.online(ch, &inputs[1])?;
    ch.flush()?;
    h.join()
        .map_err(|_| brickyard_core::Error::config("alice thread panicked"))??;
    let sent = log.lock().map(|v| v.clone()).unwrap_or_default();
    Ok([vec![sel], sent].concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bob_replays_to_the_right_sum_and_junk_is_an_error() {
        let out = run(Role::Bob, &[]).unwrap().expect("bob learns the sum");
        let sum: u64 = out[0]
            .iter()
            .enumerate()
            .map(|(i, &b)| (b as u64) << i)
            .sum();
        assert_eq!(sum, 12);
        for role in [Role::Alice, Role::Bob] {
            assert!(
                run(role, &[1, 0xee, 0xee]).is_err(),
                "{role:?}: junk accepted"
            );
        }
    }

    #[test]
    fn dealt_records_decode_to_the_sum_and_a_flipped_record_is_refused() {
        let sum = |out: Outputs| -> u64 {
            out[0]
                .iter()
                .enumerate()
                .map(|(i, &b)| (b as u64) << i)
                .sum()
        };
        for sel in [0u8, 1, 2, 3, 4 | 1, 12 | 2] {
            let honest = dealt_honest(sel).unwrap();
            let out = dealt(&honest)
                .unwrap_or_else(|e| panic!("sel {sel}: {e}"))
                .expect("bob learns the sum");
            assert_eq!(sum(out), 12, "sel {sel}");
            // A short stream, and a frame cut in two, are errors.
            assert!(dealt(&honest[..honest.len() / 2]).is_err(), "sel {sel}");
            assert!(dealt(&[sel, 1, 2, 3]).is_err(), "sel {sel}");
        }
        // Flips spread over the dealt records (not the frame headers):
        // never a wrong sum; the record bytes the first execution uses
        // are MAC-checked, so some flips are caught by a named check.
        let honest = dealt_honest(1).unwrap();
        let (mut caught, mut tried) = (0, 0);
        for off in (5..honest.len()).step_by(7) {
            let mut bad = honest.clone();
            bad[off] ^= 0x10;
            tried += 1;
            match dealt(&bad) {
                Ok(Some(out)) => assert_eq!(sum(out), 12, "flip at {off}: a wrong sum"),
                Ok(None) => panic!("flip at {off}: no output"),
                Err(brickyard_core::Error::Cheating { .. }) => caught += 1,
                Err(_) => {}
            }
        }
        assert!(caught > 0, "none of {tried} flips tripped a check");
    }

    #[test]
    fn direct_decoders_accept_honest_messages_and_refuse_padding() {
        use crate::mac::MacScheme;
        let stream = |sel: u8, size: u8, pad: bool| {
            let mac = [
                MacScheme::Lookup { k: 64 },
                MacScheme::Linear { k: 64 },
                MacScheme::Lookup { k: 32 },
                MacScheme::Linear { k: 32 },
            ][(sel & 3) as usize];
            let o = Options { mac, ..options() };
            let (a, b) = memory_transport_pair();
            let (rec, log) = Recording::new(b);
            let mut ch = Channel::new(rec);
            ch.send_bytes(blake3::hash(o.describe().as_bytes()).as_bytes())
                .unwrap();
            let nbits = 8 * size as usize + (sel >> 2) as usize;
            let mut packed = vec![0xffu8; nbits.div_ceil(8)];
            if !nbits.is_multiple_of(8) && !pad {
                *packed.last_mut().unwrap() >>= 8 - nbits % 8;
            }
            ch.send_bytes(&packed).unwrap();
            ch.send_bytes(&vec![1u8; mac.key_bytes()]).unwrap();
            ch.flush().unwrap();
            drop((ch, a));
            let v = log.lock().unwrap().clone();
            [vec![sel, size], v].concat()
        };
        for sel in [0u8, 1, 2, 3, 4 * 5 + 2, 4 * 7 + 1] {
            for size in [0u8, 3, 200] {
                decode(&stream(sel, size, false))
                    .unwrap_or_else(|e| panic!("sel {sel} size {size}: {e}"));
                if sel >> 2 != 0 {
                    let e = decode(&stream(sel, size, true)).unwrap_err();
                    assert!(matches!(e, brickyard_core::Error::Malformed(_)), "{e}");
                }
            }
        }
        // Another scheme's digest is refused.
        let mut s = stream(0, 3, false);
        s[0] = 1;
        assert!(matches!(decode(&s), Err(brickyard_core::Error::Config(_))));
    }

    /// Writes the honest inputs into `$BRICKYARD_FUZZ_SEEDS` (a fuzz
    /// corpus directory) when it is set: `cargo test -p brickyard-tinytable --features
    /// fuzzing --lib fuzzing -- --ignored write_seeds`.
    #[test]
    #[ignore]
    fn write_seeds() {
        let Some(dir) = std::env::var_os("BRICKYARD_FUZZ_SEEDS") else {
            return;
        };
        std::fs::create_dir_all(&dir).unwrap();
        for sel in 0u8..16 {
            let v = dealt_honest(sel).unwrap();
            std::fs::write(std::path::Path::new(&dir).join(format!("honest-{sel}")), v).unwrap();
        }
    }
}
