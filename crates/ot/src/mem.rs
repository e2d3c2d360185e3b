//! Large reusable buffers of the TinyOT batch pipeline.
//!
//! A bucketing batch holds ~10^6 leaky triples (hundreds of MB). A fresh
//! page costs more than the work done on it (a fault per 4 KiB page,
//! ≈ 1 ns per byte on this machine's VM, more than a pass over the data),
//! so the session keeps its buffers across batches and calls and only
//! reallocates when a larger batch comes. Transparent huge pages were
//! tried (`MADV_HUGEPAGE`) and measured slower here: the hypervisor backs
//! a fresh 2 MiB guest page with 512 host faults at once.

use zeroize::Zeroize;

/// Makes `v` hold exactly `n` elements. When the capacity must grow, the
/// old buffer is wiped and replaced by a fresh one of `n` default
/// elements; otherwise existing elements are kept (callers overwrite them),
/// so a buffer reused at the same size costs nothing.
pub(crate) fn set_len<T: Copy + Default + Zeroize>(v: &mut Vec<T>, n: usize) {
    if v.capacity() < n {
        v.zeroize();
        *v = Vec::with_capacity(n);
    }
    v.resize(n, T::default());
}

/// Makes `v` empty with room for `n` elements (growing as [`set_len`]).
pub(crate) fn clear_for<T: Zeroize>(v: &mut Vec<T>, n: usize) {
    if v.capacity() < n {
        v.zeroize();
        *v = Vec::with_capacity(n);
    }
    v.clear();
}
