//! Sub-steps of a phase, for the bench's breakdown.
//!
//! A phase's wall time says how long it took, not where the time went. A
//! protocol names the steps of a phase by wrapping them in [`step`]; the
//! driver collects what the party's thread recorded while it ran the
//! phase ([`begin`] / [`take`], called by the driver only) and the report
//! lists it under the phase (`Report::steps`). Recording is per thread
//! (each party runs on its own thread), costs one `Instant` pair per step
//! and nothing when no phase is being recorded, so protocols may leave
//! their steps in place.
//!
//! A step's time is the party's wall time, waiting for the peer
//! included: a step that waits shows what the peer's step cost it. Its
//! CPU time (the party's thread only, `brickyard_core::cpu_time`) says
//! what the step computed, and stays meaningful on a
//! loaded machine where wall times are not.

use std::cell::RefCell;
use std::time::Instant;

/// One recorded step: its name, wall and CPU time in milliseconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Step name, as the protocol gave it.
    pub name: &'static str,
    /// Wall time in milliseconds.
    pub ms: f64,
    /// CPU time of the party's thread in milliseconds (None where the
    /// platform does not say).
    pub cpu_ms: Option<f64>,
}

pub use brickyard_core::cpu_time::thread_cpu_ns;

thread_local! {
    static STEPS: RefCell<Option<Vec<Step>>> = const { RefCell::new(None) };
}

/// Runs `f` as the step `name` of the phase being recorded on this
/// thread (if any). Steps of the same name add up into one entry, so a
/// step inside a loop is one line of the breakdown.
pub fn step<T>(name: &'static str, f: impl FnOnce() -> T) -> T {
    let t = Timer::start(name);
    let out = f();
    t.stop();
    out
}

/// A step whose start and end are two points of straight-line code (where
/// wrapping it in a closure for [`step`] would tangle the borrows): it
/// counts from [`Timer::start`] to [`Timer::stop`]; dropped without
/// `stop` (an early return) it records nothing.
#[must_use = "a step timer records only when stopped"]
pub struct Timer {
    name: &'static str,
    /// Wall and thread-CPU start, when a phase is being recorded.
    start: Option<(Instant, Option<u64>)>,
}

impl Timer {
    /// Starts timing the step `name`.
    pub fn start(name: &'static str) -> Timer {
        let recording = STEPS.with(|s| s.borrow().is_some());
        Timer {
            name,
            start: recording.then(|| (Instant::now(), thread_cpu_ns())),
        }
    }

    /// Ends the step and adds it to the phase's record.
    pub fn stop(self) {
        let Some((start, cpu0)) = self.start else {
            return;
        };
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let cpu_ms = cpu0
            .zip(thread_cpu_ns())
            .map(|(a, b)| b.saturating_sub(a) as f64 / 1e6);
        let name = self.name;
        STEPS.with(|s| {
            if let Some(v) = s.borrow_mut().as_mut() {
                match v.iter_mut().find(|x| x.name == name) {
                    Some(x) => {
                        x.ms += ms;
                        x.cpu_ms = x.cpu_ms.zip(cpu_ms).map(|(a, b)| a + b);
                    }
                    None => v.push(Step { name, ms, cpu_ms }),
                }
            }
        });
    }
}

/// Starts recording this thread's steps (the driver, before a phase).
pub fn begin() {
    STEPS.with(|s| *s.borrow_mut() = Some(Vec::new()));
}

/// Stops recording and returns the steps in the order first seen.
pub fn take() -> Vec<Step> {
    STEPS.with(|s| s.borrow_mut().take()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_recorded_only_between_begin_and_take_and_add_up() {
        assert_eq!(step("outside", || 1), 1);
        begin();
        step("a", || {
            std::thread::sleep(std::time::Duration::from_millis(2))
        });
        step("b", || ());
        let t = Timer::start("b");
        t.stop();
        step("a", || {
            std::thread::sleep(std::time::Duration::from_millis(2))
        });
        let got = take();
        assert_eq!(
            got.iter().map(|s| s.name).collect::<Vec<_>>(),
            ["a", "b"],
            "{got:?}"
        );
        assert!(got[0].ms >= 4.0, "{got:?}");
        step("after", || ());
        assert!(take().is_empty());
    }
}
