//! Channels between the two parties: TCP between processes or machines,
//! and in-process pairs (memory or loopback TCP) for tests and demos.
//!
//! A [`Channel`] counts bytes and rounds, so every run's report shows the
//! traffic of each phase. Reads time out after
//! [`NetOptions::read_timeout`] with `Error::Timeout`.

use brickyard_core::Result;
use brickyard_protocols::LocalNet;

pub use brickyard_core::channel::{accept, connect, listen, memory_pair, NetOptions};
pub use brickyard_core::Channel;

/// Waits on `addr` (e.g. `0.0.0.0:7766`) for one peer to connect.
/// [`NetOptions::accept_timeout`] bounds the wait.
///
/// ```no_run
/// let ch = brickyard::net::accept_on("0.0.0.0:7766", &Default::default())?;
/// # Ok::<(), brickyard::Error>(())
/// ```
pub fn accept_on(addr: &str, opts: &NetOptions) -> Result<Channel> {
    let listener = listen(addr)?;
    accept(&listener, opts)
}

/// Both ends of an in-memory channel, named `name` in the report.
///
/// ```
/// let net = brickyard::net::memory("memory");
/// assert_eq!(net.name, "memory");
/// ```
pub fn memory(name: &str) -> LocalNet {
    let (alice, bob) = memory_pair();
    LocalNet {
        alice,
        bob,
        name: name.to_string(),
    }
}

/// Both ends of a TCP connection over 127.0.0.1 (a free port), so a local
/// run pays the operating system's network stack like a real one.
///
/// ```
/// let net = brickyard::net::loopback()?;
/// assert_eq!(net.name, "loopback");
/// # Ok::<(), brickyard::Error>(())
/// ```
pub fn loopback() -> Result<LocalNet> {
    let listener = listen("127.0.0.1:0")?;
    let addr = listener.local_addr()?.to_string();
    let opts = NetOptions::default();
    let opts_b = opts.clone();
    let t = std::thread::spawn(move || connect(&addr, &opts_b));
    let alice = accept(&listener, &opts)?;
    let bob = t
        .join()
        .map_err(|_| brickyard_core::Error::config("connect thread panicked"))??;
    Ok(LocalNet {
        alice,
        bob,
        name: "loopback".to_string(),
    })
}
