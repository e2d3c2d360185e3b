//! Two endpoints of a loopback TCP connection in one process, optionally
//! shaped, for `demo` and `bench`.

use brickyard_core::channel::{accept, connect, listen, NetOptions, NetProfile};
use brickyard_core::Result;
use brickyard_protocols::LocalNet;

/// Connects Alice and Bob over 127.0.0.1 with `profile` (`None` = the
/// plain loopback link).
pub fn loopback(profile: Option<NetProfile>, name: &str) -> Result<LocalNet> {
    let listener = listen("127.0.0.1:0")?;
    let addr = listener.local_addr()?.to_string();
    let opts = NetOptions {
        profile,
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
