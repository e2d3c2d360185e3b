//! A progress meter protocols report into during long preprocessing; the
//! CLI polls it to draw a bar with rate and ETA. Cheap to clone and share.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Shared counters: units of work planned and done (e.g. OTs, gates).
#[derive(Clone, Debug, Default)]
pub struct Progress(Arc<(AtomicU64, AtomicU64)>);

impl Progress {
    /// Announces `n` more units of planned work.
    pub fn add_total(&self, n: u64) {
        self.0 .0.fetch_add(n, Ordering::Relaxed);
    }
    /// Marks `n` units as done.
    pub fn advance(&self, n: u64) {
        self.0 .1.fetch_add(n, Ordering::Relaxed);
    }
    /// `(done, total)`.
    pub fn get(&self) -> (u64, u64) {
        (
            self.0 .1.load(Ordering::Relaxed),
            self.0 .0.load(Ordering::Relaxed),
        )
    }
}
