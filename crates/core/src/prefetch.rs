//! Software prefetch: a hint that lets a caller start the memory reads it
//! will need soon (known addresses, scattered over many pages) while it
//! still works on the current ones. The hardware prefetcher only follows
//! streams inside a page, so scattered lookups (one table entry per record,
//! as in TinyTable's online phase) otherwise wait for one miss at a time.

/// Hints the CPU to bring the cache line holding `data[at]` into all cache
/// levels. Never reads into a register and never faults; an `at` out of
/// range is ignored. On targets without the instruction it does nothing
/// (the portable fallback: a prefetch has no observable effect).
#[inline(always)]
pub fn prefetch(data: &[u8], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(b) = data.get(at) {
        // SAFETY: `prefetcht0` is an SSE instruction, part of the x86_64
        // baseline, so the target feature is always present; it is a hint
        // that neither reads into a register nor faults, and the pointer is
        // in bounds of `data` anyway.
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                b as *const u8 as *const i8,
            )
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (data, at);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefetch_changes_nothing_and_ignores_out_of_range() {
        let data: Vec<u8> = (0..10_000u32).map(|i| (i * 31 % 251) as u8).collect();
        let copy = data.clone();
        for at in [0, 1, 63, 64, 4095, 4096, 9_999, 10_000, usize::MAX] {
            prefetch(&data, at);
        }
        prefetch(&[], 0);
        assert_eq!(data, copy);
    }
}
