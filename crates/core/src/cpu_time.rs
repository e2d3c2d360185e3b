//! CPU time of the calling thread, for measurements that must stay
//! meaningful on a loaded machine (the bench's step breakdown).
//!
//! `/proc/thread-self/schedstat` is only brought up to date at scheduler
//! ticks and switches, so a short step that ran uninterrupted can read as
//! zero; `clock_gettime(CLOCK_THREAD_CPUTIME_ID)` accounts the running
//! slice up to the call.

/// CPU time the calling thread has used, in nanoseconds (`None` where the
/// platform has no per-thread CPU clock).
#[cfg(target_os = "linux")]
pub fn thread_cpu_ns() -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the
    // call; the clock id is a constant the platform defines.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return None;
    }
    Some(ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

/// CPU time the calling thread has used (`None`: no per-thread clock here).
#[cfg(not(target_os = "linux"))]
pub fn thread_cpu_ns() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_cpu_time_advances_with_work_and_not_with_sleep() {
        let Some(t0) = thread_cpu_ns() else { return };
        let mut x = 0u64;
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_millis(20) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let t1 = thread_cpu_ns().unwrap();
        assert!(t1 - t0 >= 1_000_000, "20 ms of work counted {} ns", t1 - t0);
        std::thread::sleep(std::time::Duration::from_millis(30));
        let t2 = thread_cpu_ns().unwrap();
        assert!(t2 - t1 < 20_000_000, "a 30 ms sleep counted {} ns", t2 - t1);
    }
}
