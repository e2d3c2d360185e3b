//! Entry points for fuzzing the driver's decoders of peer messages
//! (feature `fuzzing`; `fuzz/fuzz_targets/run_agreement.rs`): the run
//! agreement (a postcard `Agreement`) and the phase barrier, against a peer
//! whose byte stream is the input. `Ok` or a typed error, never a panic or
//! an unbounded allocation.

use crate::driver;
use crate::{Role, RunConfig};
use brickyard_core::channel::scripted;
use brickyard_core::Result;
use std::sync::{Arc, OnceLock};

/// What `tinytable` sends as its security parameters, so the agreement's
/// comparison of them is reached.
pub(crate) fn security() -> std::collections::BTreeMap<String, String> {
    [("s", "40"), ("mac", "lookup-64")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn config() -> &'static RunConfig {
    static CFG: OnceLock<RunConfig> = OnceLock::new();
    CFG.get_or_init(|| {
        let c = brickyard_circuit::resolve("builtin:add8").expect("builtin circuit");
        RunConfig::new(Arc::new(c)).expect("config")
    })
}

/// The run agreement then one barrier, as Alice of `tinytable` (bit 0 of
/// the first byte: as Bob); the rest is the peer's byte stream.
pub fn agreement(data: &[u8]) -> Result<()> {
    let Some((&sel, rest)) = data.split_first() else {
        return Ok(());
    };
    let role = if sel & 1 == 0 { Role::Alice } else { Role::Bob };
    let mut ch = scripted(rest);
    driver::agree(&mut ch, config(), "tinytable", role, security())?;
    driver::barrier(&mut ch, role, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::channel::{memory_transport_pair, Recording};
    use brickyard_core::{Channel, Error};

    /// What Bob sends in an honest agreement and barrier with Alice.
    fn bob_says() -> Vec<u8> {
        let (ta, tb) = memory_transport_pair();
        let (rb, log) = Recording::new(tb);
        let h = std::thread::spawn(move || {
            let mut ch = Channel::new(ta);
            driver::agree(&mut ch, config(), "tinytable", Role::Alice, security())?;
            driver::barrier(&mut ch, Role::Alice, 1)
        });
        let mut ch = Channel::new(rb);
        driver::agree(&mut ch, config(), "tinytable", Role::Bob, security()).unwrap();
        driver::barrier(&mut ch, Role::Bob, 1).unwrap();
        h.join().unwrap().unwrap();
        let v = log.lock().unwrap().clone();
        v
    }

    #[test]
    fn honest_bytes_pass_and_altered_ones_are_typed_errors() {
        let mut input = vec![0u8];
        input.extend(bob_says());
        agreement(&input).unwrap();
        // The peer claims our role: a configuration error.
        let mut as_alice = vec![1u8];
        as_alice.extend(&input[1..]);
        assert!(matches!(agreement(&as_alice), Err(Error::Config(_))));
        let n = input.len();
        input[n - 1] ^= 1;
        assert!(matches!(agreement(&input), Err(Error::Malformed(_))));
    }
}
