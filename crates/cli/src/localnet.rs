//! Two endpoints of a loopback TCP connection in one process, optionally
//! shaped, for `demo` and `bench`.

use brickyard_core::channel::{accept, connect, listen, NetOptions, NetProfile, ReadSpin};
use brickyard_core::Result;
use brickyard_protocols::LocalNet;

/// Environment variable: what a read that finds no bytes does
/// ([`NetOptions::spin`]): unset or `auto` = poll (yielding) while polls
/// pay, with an adaptive window; `0` = sleep at once; `N` = busy-poll up to
/// N µs per wait (only pays on an idle machine with a core per party).
pub const SPIN_ENV: &str = "BRICKYARD_SPIN_US";

/// `--help` paragraph of the commands whose reads [`SPIN_ENV`] steers (a
/// macro so that `concat!` can join it to their literal help texts).
macro_rules! spin_help {
    () => {
        "Environment: BRICKYARD_SPIN_US = what a network read that finds no bytes does:\n  \
auto (default): poll, yielding the core, while that pays (window adapts up to 200 µs;\n    \
backs off after slow replies or when other threads hold the core)\n  \
0: sleep at once (plain blocking reads)\n  \
N: busy-poll up to N µs per wait (only for an idle machine with a core per party)"
    };
}
pub(crate) use spin_help;

/// The read policy [`SPIN_ENV`] asks for ([`ReadSpin::Auto`] when unset).
pub fn spin_from_env() -> Result<ReadSpin> {
    ReadSpin::from_env(SPIN_ENV)
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
