//! A progress meter protocols report into during long preprocessing and
//! many online executions; the CLI polls it to draw a bar with rate and
//! ETA. Cheap to clone and share.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Debug, Default)]
struct Inner {
    total: AtomicU64,
    done: AtomicU64,
    stage: Mutex<&'static str>,
}

/// Shared counters: units of work planned and done (e.g. OTs, gates,
/// executions), and the name of the current stage.
#[derive(Clone, Debug, Default)]
pub struct Progress(Arc<Inner>);

impl Progress {
    /// Announces `n` more units of planned work.
    pub fn add_total(&self, n: u64) {
        self.0.total.fetch_add(n, Ordering::Relaxed);
    }
    /// Marks `n` units as done.
    pub fn advance(&self, n: u64) {
        self.0.done.fetch_add(n, Ordering::Relaxed);
    }
    /// `(done, total)`.
    pub fn get(&self) -> (u64, u64) {
        (
            self.0.done.load(Ordering::Relaxed),
            self.0.total.load(Ordering::Relaxed),
        )
    }
    /// Starts a new stage of `total` units (counted from zero), e.g. the
    /// online executions after preprocessing: units of different stages
    /// are not added up.
    pub fn stage_start(&self, stage: &'static str, total: u64) {
        if let Ok(mut s) = self.0.stage.lock() {
            *s = stage;
        }
        self.0.done.store(0, Ordering::Relaxed);
        self.0.total.store(total, Ordering::Relaxed);
    }
    /// The current stage's name (empty before the first [`Progress::stage_start`]).
    pub fn stage(&self) -> &'static str {
        self.0.stage.lock().map(|s| *s).unwrap_or("")
    }
}
