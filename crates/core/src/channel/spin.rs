//! When a TCP read finds no bytes: poll for a while, or sleep at once.
//!
//! Sleeping costs a wake-up when the bytes come, and on a virtual machine
//! whose vCPU halted meanwhile that is tens of µs per message; protocols
//! with many short flights (TinyTable: 12 or 62 per AES) pay it every
//! flight on each side. Polling avoids it but burns the core, which on a
//! loaded machine (or with both parties on 2 vCPUs) is the core the peer
//! needs. [`ReadSpin::Auto`] keeps the polls that pay and drops the rest:
//!
//! - it yields the core between polls, so a runnable thread on this core
//!   (maybe the peer) runs instead of waiting for our time slice to end;
//! - a poll that comes back long after the previous one means other work
//!   held this core: the core is contended, so the read sleeps and the
//!   next waits sleep at once (exponential back-off) - a yielding spinner
//!   on a busy core notices its bytes a whole time slice late, while a
//!   sleeper is woken when they come;
//! - a spin that ran out and then slept long (a slow peer, a WAN) backs
//!   off the same way, so a peer computing for milliseconds costs at most
//!   one window of polling per back-off period;
//! - the window follows the waits that the polls caught: it grows when a
//!   reply came near its end (or shortly after it) and shrinks when replies
//!   come much sooner, between [`AUTO_MIN`] and [`AUTO_CAP`].
//!
//! The state machine is pure (time comes in as arguments), so its tests
//! are deterministic.

use crate::{Error, Result};
use std::time::{Duration, Instant};

/// First window of [`ReadSpin::Auto`]: the fixed spin that measured best
/// on an idle machine (docs/protocols/yao.md).
pub const AUTO_START: Duration = Duration::from_micros(50);
/// Smallest window: below this a spin rarely catches anything a wake-up
/// would have cost more than.
pub const AUTO_MIN: Duration = Duration::from_micros(10);
/// Largest window, and the longest wait still counted as "shortly after"
/// a window: a peer slower than this is a slow peer, not a near miss.
pub const AUTO_CAP: Duration = Duration::from_micros(200);
/// A gap this long between two polls (each a system call and a yield,
/// ~1-2 µs when the core is ours) means another thread ran on the core.
pub const CONTENDED_GAP: Duration = Duration::from_micros(50);
/// Most waits that sleep at once after repeated failed spins, before the
/// next spin is tried.
pub const MAX_BACKOFF: u32 = 64;

/// Pause between two polls of a fixed spin: each poll takes the socket
/// lock the sender needs to deliver.
const FIXED_BACKOFF: Duration = Duration::from_micros(1);

/// How a read that finds no bytes waits (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ReadSpin {
    /// Sleep at once.
    Block,
    /// Busy-poll for up to this long per wait, then sleep; no yielding and
    /// no adaptation (an explicit setting for a machine known to be idle).
    Fixed(Duration),
    /// Yielding polls with an adaptive window (the default).
    #[default]
    Auto,
}

impl ReadSpin {
    /// Parses a setting as given in an environment variable: `auto` (or
    /// empty), `0` (block) or microseconds of fixed spin.
    pub fn parse(s: &str) -> Result<ReadSpin> {
        let s = s.trim();
        if s.is_empty() || s.eq_ignore_ascii_case("auto") {
            return Ok(ReadSpin::Auto);
        }
        match s.parse::<u64>() {
            Ok(0) => Ok(ReadSpin::Block),
            Ok(us) => Ok(ReadSpin::Fixed(Duration::from_micros(us))),
            Err(_) => Err(Error::config(format!(
                "read spin {s:?}: expected auto, 0 or microseconds"
            ))),
        }
    }

    /// Reads `var`: unset means [`ReadSpin::Auto`].
    pub fn from_env(var: &str) -> Result<ReadSpin> {
        match std::env::var(var) {
            Ok(v) => ReadSpin::parse(&v).map_err(|e| Error::config(format!("{var}: {e}"))),
            Err(_) => Ok(ReadSpin::Auto),
        }
    }
}

/// How one wait ended, as the adaptive state learns from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The polls found the bytes after this long.
    Caught(Duration),
    /// The window ran out (or was zero) and the read slept.
    Slept {
        /// From the first empty poll to the bytes.
        waited: Duration,
        /// Whether the wait polled at all (a zero window did not).
        spun: bool,
    },
    /// The polls stopped because other work held the core.
    Contended,
}

/// The per-connection state of a read's spin policy.
#[derive(Clone, Debug)]
pub struct SpinState {
    mode: ReadSpin,
    /// Current window of [`ReadSpin::Auto`].
    window: Duration,
    /// Waits left that sleep at once.
    skip: u32,
    /// `skip` after the next failure; doubles per failure, reset by a catch.
    backoff: u32,
}

impl SpinState {
    /// Fresh state for `mode`.
    pub fn new(mode: ReadSpin) -> Self {
        SpinState {
            mode,
            window: AUTO_START,
            skip: 0,
            backoff: 1,
        }
    }

    /// Forgets what the waits so far taught (window and back-off), for a
    /// stage of the protocol they do not predict: preprocessing ends in
    /// long waits on a computing peer, which leave the back-off sleeping
    /// at once for up to [`MAX_BACKOFF`] waits — the first online
    /// execution's short flights would pay a wake-up each.
    pub fn restart(&mut self) {
        *self = SpinState::new(self.mode);
    }

    /// Whether reads try the socket without blocking first (needed to see
    /// that a wait begins at all).
    pub fn polls(&self) -> bool {
        self.mode != ReadSpin::Block
    }

    /// Current adaptive window (for tests and diagnostics).
    pub fn window(&self) -> Duration {
        self.window
    }

    /// A wait begins at `now`: how long to poll before sleeping.
    pub fn begin(&mut self, now: Instant) -> Wait {
        let budget = match self.mode {
            ReadSpin::Block => Duration::ZERO,
            ReadSpin::Fixed(d) => d,
            ReadSpin::Auto if self.skip > 0 => {
                self.skip -= 1;
                Duration::ZERO
            }
            ReadSpin::Auto => self.window,
        };
        Wait {
            start: now,
            last: now,
            budget,
            contended: false,
            slept: false,
            detect_contention: self.mode == ReadSpin::Auto,
        }
    }

    /// Learns from a finished wait (only [`ReadSpin::Auto`] adapts).
    pub fn record(&mut self, outcome: Outcome) {
        if self.mode != ReadSpin::Auto {
            return;
        }
        match outcome {
            Outcome::Caught(w) => {
                self.backoff = 1;
                if w > self.window / 2 {
                    self.window = (self.window * 2).min(AUTO_CAP);
                } else if w < self.window / 8 {
                    self.window = (self.window - self.window / 4).max(AUTO_MIN);
                }
            }
            // The window was one or two wake-ups too short: widen it.
            Outcome::Slept { waited, spun: true } if waited <= AUTO_CAP => {
                self.window = self.window.max(waited * 2).min(AUTO_CAP);
            }
            Outcome::Slept { spun: true, .. } | Outcome::Contended => self.back_off(),
            // A wait that did not poll says nothing about polling.
            Outcome::Slept { spun: false, .. } => {}
        }
    }

    fn back_off(&mut self) {
        self.skip = self.backoff;
        self.backoff = (self.backoff * 2).min(MAX_BACKOFF);
    }
}

/// One wait of a read, from the first empty poll to the bytes.
#[derive(Clone, Debug)]
pub struct Wait {
    start: Instant,
    last: Instant,
    budget: Duration,
    contended: bool,
    slept: bool,
    detect_contention: bool,
}

impl Wait {
    /// Another poll at `now` found nothing: whether to poll again (after
    /// [`Wait::pause`]) rather than sleep.
    pub fn poll_again(&mut self, now: Instant) -> bool {
        let gap = now.saturating_duration_since(self.last);
        self.last = now;
        if self.detect_contention && gap > CONTENDED_GAP {
            self.contended = true;
        }
        let go_on = !self.contended && now.saturating_duration_since(self.start) < self.budget;
        if !go_on {
            self.slept = true;
        }
        go_on
    }

    /// Between two polls: yield the core (auto) or back off briefly (fixed).
    pub fn pause(&self) {
        if self.detect_contention {
            std::thread::yield_now();
        } else {
            let t = Instant::now();
            while t.elapsed() < FIXED_BACKOFF {
                std::hint::spin_loop();
            }
        }
    }

    /// The bytes came at `now`.
    pub fn finish(&self, now: Instant) -> Outcome {
        let waited = now.saturating_duration_since(self.start);
        let late = !self.slept
            && self.detect_contention
            && now.saturating_duration_since(self.last) > CONTENDED_GAP;
        if self.contended || late {
            Outcome::Contended
        } else if self.slept {
            Outcome::Slept {
                waited,
                spun: !self.budget.is_zero(),
            }
        } else {
            Outcome::Caught(waited)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn us(n: u64) -> Duration {
        Duration::from_micros(n)
    }

    /// Runs one wait against `s`: polls every `step` until `reply` (if
    /// the window lasts), returns the outcome it recorded.
    fn wait(s: &mut SpinState, t0: Instant, reply: Duration, step: Duration) -> Outcome {
        let mut w = s.begin(t0);
        let mut now = t0;
        loop {
            now += step;
            if now >= t0 + reply {
                break;
            }
            if !w.poll_again(now) {
                // Slept: woken when the bytes come.
                now = t0 + reply;
                break;
            }
        }
        let o = w.finish(now.max(t0 + reply));
        s.record(o);
        o
    }

    #[test]
    fn parse_settings() {
        assert_eq!(ReadSpin::parse("auto").unwrap(), ReadSpin::Auto);
        assert_eq!(ReadSpin::parse(" AUTO ").unwrap(), ReadSpin::Auto);
        assert_eq!(ReadSpin::parse("").unwrap(), ReadSpin::Auto);
        assert_eq!(ReadSpin::parse("0").unwrap(), ReadSpin::Block);
        assert_eq!(ReadSpin::parse("50").unwrap(), ReadSpin::Fixed(us(50)));
        assert!(matches!(ReadSpin::parse("-1"), Err(Error::Config(_))));
        assert!(matches!(ReadSpin::parse("fast"), Err(Error::Config(_))));
        assert_eq!(ReadSpin::default(), ReadSpin::Auto);
    }

    #[test]
    fn quick_replies_are_caught_and_keep_spinning() {
        let mut s = SpinState::new(ReadSpin::Auto);
        let t0 = Instant::now();
        for i in 0..100u32 {
            let t = t0 + us(1000) * i;
            assert_eq!(wait(&mut s, t, us(20), us(2)), Outcome::Caught(us(20)));
            assert!(s.begin(t).budget >= us(20), "window {:?}", s.window());
        }
        assert!(s.window() >= us(20) && s.window() <= AUTO_CAP);
    }

    #[test]
    fn window_grows_for_near_misses_and_shrinks_for_fast_replies() {
        let mut s = SpinState::new(ReadSpin::Auto);
        let t0 = Instant::now();
        // Replies at 80 µs: the first wait sleeps (window 50) and widens.
        assert!(matches!(
            wait(&mut s, t0, us(80), us(2)),
            Outcome::Slept { spun: true, .. }
        ));
        assert_eq!(s.window(), us(160));
        assert_eq!(
            wait(&mut s, t0 + us(1000), us(80), us(2)),
            Outcome::Caught(us(80))
        );
        // Replies at 1 µs: the window shrinks to the floor, not below.
        for i in 0..50u32 {
            wait(&mut s, t0 + us(2000) + us(100) * i, us(1), us(1));
        }
        assert_eq!(s.window(), AUTO_MIN);
    }

    #[test]
    fn a_restart_forgets_the_back_off_of_long_waits() {
        let mut s = SpinState::new(ReadSpin::Auto);
        let t0 = Instant::now();
        // Slow-peer waits (spun, then slept long) until waits sleep at once.
        for _ in 0..8 {
            let w = s.begin(t0);
            s.record(Outcome::Slept {
                waited: Duration::from_millis(5),
                spun: !w.budget.is_zero(),
            });
        }
        assert!(s.begin(t0).budget.is_zero(), "back-off sleeps at once");
        s.restart();
        assert_eq!(s.begin(t0).budget, AUTO_START);
        assert_eq!(s.window(), AUTO_START);
    }

    #[test]
    fn long_waits_stop_the_spinning_with_exponential_back_off() {
        let mut s = SpinState::new(ReadSpin::Auto);
        let t0 = Instant::now();
        let mut spins = 0;
        let mut slept_at_once = 0;
        for i in 0..1000u32 {
            match wait(&mut s, t0 + us(10_000) * i, us(5_000), us(2)) {
                Outcome::Slept { spun: true, .. } => spins += 1,
                Outcome::Slept { spun: false, .. } => slept_at_once += 1,
                o => panic!("{o:?}"),
            }
        }
        // 1, 2, 4, .., 64, 64, ..: about 1000/65 + 7 probes.
        assert!(spins <= 25, "{spins} spins");
        assert_eq!(spins + slept_at_once, 1000);
        // A quick reply on the next probe resets the back-off.
        while s.skip > 0 {
            wait(&mut s, t0, us(5_000), us(2));
        }
        assert!(matches!(
            wait(&mut s, t0, us(10), us(2)),
            Outcome::Caught(_)
        ));
        assert_eq!(s.backoff, 1);
        assert!(s.begin(t0).budget > Duration::ZERO);
    }

    #[test]
    fn a_long_gap_between_polls_is_contention() {
        let mut s = SpinState::new(ReadSpin::Auto);
        let t0 = Instant::now();
        // Polls 100 µs apart: another thread held the core.
        assert_eq!(wait(&mut s, t0, us(1000), us(100)), Outcome::Contended);
        assert_eq!(s.begin(t0).budget, Duration::ZERO);
        // Bytes found by a poll that came back late count as contention too.
        let mut s = SpinState::new(ReadSpin::Auto);
        let mut w = s.begin(t0);
        assert!(w.poll_again(t0 + us(2)));
        assert_eq!(w.finish(t0 + us(2) + us(3000)), Outcome::Contended);
        // Back-to-back contention doubles the back-off.
        s.record(Outcome::Contended);
        s.record(Outcome::Contended);
        assert_eq!((s.skip, s.backoff), (2, 4));
    }

    #[test]
    fn block_and_fixed_do_not_adapt() {
        let t0 = Instant::now();
        let mut b = SpinState::new(ReadSpin::Block);
        assert!(!b.polls());
        let mut w = b.begin(t0);
        assert!(!w.poll_again(t0));
        let mut f = SpinState::new(ReadSpin::Fixed(us(30)));
        for i in 0..20u32 {
            let o = wait(&mut f, t0 + us(10_000) * i, us(5_000), us(100));
            assert_eq!(
                o,
                Outcome::Slept {
                    waited: us(5_000),
                    spun: true
                }
            );
            // No contention detection and no back-off: every wait polls.
            assert_eq!(f.begin(t0).budget, us(30));
        }
    }
}
