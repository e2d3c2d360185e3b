//! Two endpoints of a loopback TCP connection in one process, optionally
//! shaped, for `demo` and `bench`.

use brickyard_core::channel::{accept, connect, listen, NetOptions, NetProfile};
use brickyard_core::Result;
use brickyard_protocols::LocalNet;

/// Environment variable: microseconds a read spins before sleeping
/// ([`NetOptions::spin`]); unset or 0 = no spinning. Only pays on an idle
/// machine with a core per party (see docs/protocols/yao.md).
pub const SPIN_ENV: &str = "BRICKYARD_SPIN_US";

/// The read spin [`SPIN_ENV`] asks for (zero when unset).
pub fn spin_from_env() -> Result<std::time::Duration> {
    let spin_us = match std::env::var(SPIN_ENV) {
        Ok(v) => v.trim().parse::<u64>().map_err(|_| {
            brickyard_core::Error::config(format!("{SPIN_ENV}={v}: expected microseconds"))
        })?,
        Err(_) => 0,
    };
    Ok(std::time::Duration::from_micros(spin_us))
}

/// Connects Alice and Bob over 127.0.0.1 with `profile` (`None` = the
/// plain loopback link).
pub fn loopback(profile: Option<NetProfile>, name: &str) -> Result<LocalNet> {
    let listener = listen("127.0.0.1:0")?;
    let addr = listener.local_addr()?.to_string();
    let opts = NetOptions {
        profile,
        spin: spin_from_env()?,
        ..NetOptions::default()
    };
    let opts_b = opts.clone();
    let t = std::thread::spawn(move || connect(&addr, &opts_b));
    let alice = accept(&listener, &opts)?;
    let bob = t
        .join()
        .map_err(|_| brickyard_core::Error::config("connect thread panicked"))??;
    Ok(LocalNet {
        alice,
        bob,
        name: name.to_string(),
    })
}

/// Parses `--net`: `none` (plain loopback), `lan`, `wan`, `compgc` or
/// `RTT_MS,MBIT`.
pub fn profile(spec: &str) -> Result<Option<NetProfile>> {
    let p = NetProfile::parse(spec)?;
    Ok(if p == NetProfile::none() {
        None
    } else {
        Some(p)
    })
}
