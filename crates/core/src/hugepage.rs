//! Buffers for preprocessed material that is read at scattered places, cut
//! from one region advised for transparent huge pages. A lookup that lands
//! in another 4 KiB page than the previous one misses the TLB, and in a
//! VM each miss is a two-dimensional page walk: TinyTable's S-box online
//! phase reads one entry per 4.75 KiB table record, i.e. one new page per
//! entry. With 2 MiB pages the same reads need about 400 times fewer
//! translations. Linux only (`madvise(MADV_HUGEPAGE)`, honoured when
//! `/sys/kernel/mm/transparent_hugepage/enabled` is `always` or
//! `madvise`); elsewhere, or if the mapping fails, the buffers are plain
//! heap vectors (the portable fallback: the same bytes, only the page size
//! differs). `BRICKYARD_HUGEPAGES=0` in the environment selects the
//! fallback everywhere (to measure what the huge pages change). Every
//! buffer is zeroized when dropped.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;
use zeroize::Zeroize;

/// The huge-page size the region is aligned to (x86_64's 2 MiB).
pub const HUGE_PAGE: usize = 2 << 20;

/// One anonymous mapping, aligned to and a multiple of [`HUGE_PAGE`],
/// unmapped when the last [`PageBuf`] cut from it drops.
#[cfg(target_os = "linux")]
struct Region {
    ptr: std::ptr::NonNull<u8>,
    len: usize,
}

// SAFETY: the region is plain memory owned by the `PageBuf`s cut from it,
// which touch disjoint ranges only; nothing in it is tied to a thread.
#[cfg(target_os = "linux")]
unsafe impl Send for Region {}
// SAFETY: as above; `Region` itself offers no access, only `Drop`.
#[cfg(target_os = "linux")]
unsafe impl Sync for Region {}

#[cfg(target_os = "linux")]
impl Region {
    /// A zero-filled mapping of at least `len` bytes, aligned to
    /// [`HUGE_PAGE`] and advised for huge pages; `None` if the kernel
    /// refuses the mapping.
    fn map(len: usize) -> Option<Region> {
        let len = len.checked_next_multiple_of(HUGE_PAGE)?.max(HUGE_PAGE);
        let over = len.checked_add(HUGE_PAGE)?;
        // SAFETY: an anonymous private mapping at an address of the
        // kernel's choice: no existing memory is affected; the result is
        // checked for MAP_FAILED.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                over,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return None;
        }
        let base = raw as usize;
        let start = base.next_multiple_of(HUGE_PAGE);
        let (head, tail) = (start - base, base + over - (start + len));
        // SAFETY: `[base, base + head)` and `[start + len, base + over)` lie
        // inside the mapping just made (head + len + tail = over), are page
        // aligned (mmap returns page-aligned memory; `start` and `len` are
        // multiples of HUGE_PAGE) and nothing refers to them yet. munmap of
        // an empty range is skipped. madvise is a hint on the kept range;
        // its failure (THP disabled) leaves ordinary pages.
        unsafe {
            if head > 0 {
                libc::munmap(raw, head);
            }
            if tail > 0 {
                libc::munmap((start + len) as *mut libc::c_void, tail);
            }
            libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
        }
        Some(Region {
            ptr: std::ptr::NonNull::new(start as *mut u8)?,
            len,
        })
    }
}

#[cfg(target_os = "linux")]
impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: `ptr..ptr + len` is exactly the range kept by `map`, and
        // every `PageBuf` referring to it has dropped (it holds an `Arc`).
        unsafe {
            libc::munmap(self.ptr.as_ptr() as *mut libc::c_void, self.len);
        }
    }
}

/// Asks the kernel to back the whole 2 MiB pages inside `v`'s allocation
/// (its capacity) with transparent huge pages, before they are first
/// touched: a large buffer then faults in 2 MiB at a time instead of
/// 4 KiB (hundreds of times fewer page faults), and scattered reads miss
/// the TLB less. A hint only: the contents and validity of the memory do
/// not change, and nothing happens off Linux, below two huge pages, with
/// THP off, or with `BRICKYARD_HUGEPAGES=0`.
pub fn advise_huge<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        let bytes = v.capacity().saturating_mul(std::mem::size_of::<T>());
        if bytes < 2 * HUGE_PAGE
            || std::env::var_os("BRICKYARD_HUGEPAGES").is_some_and(|x| x == "0")
        {
            return;
        }
        let base = v.as_ptr() as usize;
        let start = base.next_multiple_of(HUGE_PAGE);
        let end = (base + bytes) / HUGE_PAGE * HUGE_PAGE;
        if end > start {
            // SAFETY: `[start, end)` lies inside the live allocation `v`
            // owns (its capacity), page aligned; MADV_HUGEPAGE is advice
            // that changes neither the contents nor the validity of the
            // memory, and its failure leaves ordinary pages.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

enum Inner {
    Heap(Vec<u8>),
    #[cfg(target_os = "linux")]
    Cut {
        region: Arc<Region>,
        at: usize,
        len: usize,
    },
}

/// A byte buffer, either a heap vector or a piece of a huge-page region
/// ([`PageBuf::cut`]); derefs to `[u8]` and is zeroized on drop.
pub struct PageBuf(Inner);

impl PageBuf {
    /// `count` zero-filled buffers of `len` bytes each, cut from one region
    /// advised for huge pages (back to back, so the region is as small as
    /// possible), or heap vectors if huge-page regions are unavailable or
    /// `BRICKYARD_HUGEPAGES=0`.
    pub fn cut(len: usize, count: usize) -> Vec<PageBuf> {
        #[cfg(target_os = "linux")]
        {
            let off = std::env::var_os("BRICKYARD_HUGEPAGES").is_some_and(|v| v == "0");
            let total = len.checked_mul(count).filter(|&t| t > 0 && !off);
            if let Some(region) = total.and_then(Region::map).map(Arc::new) {
                return (0..count)
                    .map(|i| {
                        PageBuf(Inner::Cut {
                            region: region.clone(),
                            at: i * len,
                            len,
                        })
                    })
                    .collect();
            }
        }
        Self::heap(len, count)
    }

    /// The portable fallback of [`PageBuf::cut`]: `count` heap vectors.
    pub fn heap(len: usize, count: usize) -> Vec<PageBuf> {
        (0..count)
            .map(|_| PageBuf(Inner::Heap(vec![0; len])))
            .collect()
    }

    /// Whether this buffer lies in a huge-page region (the kernel may still
    /// back parts of it with small pages).
    pub fn is_huge(&self) -> bool {
        !matches!(self.0, Inner::Heap(_))
    }
}

impl From<Vec<u8>> for PageBuf {
    fn from(v: Vec<u8>) -> Self {
        PageBuf(Inner::Heap(v))
    }
}

impl Deref for PageBuf {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Inner::Heap(v) => v,
            // SAFETY: `at + len ≤ region.len` (cut from a region of at
            // least `len · count` bytes), the region lives as long as this
            // `Arc`, and no other `PageBuf` covers these bytes, so the only
            // mutable access is through `&mut self` below.
            #[cfg(target_os = "linux")]
            Inner::Cut { region, at, len } => unsafe {
                std::slice::from_raw_parts(region.ptr.as_ptr().add(*at), *len)
            },
        }
    }
}

impl DerefMut for PageBuf {
    fn deref_mut(&mut self) -> &mut [u8] {
        match &mut self.0 {
            Inner::Heap(v) => v,
            // SAFETY: as in `deref`; `&mut self` makes this the only access
            // to the range, which no other `PageBuf` covers.
            #[cfg(target_os = "linux")]
            Inner::Cut { region, at, len } => unsafe {
                std::slice::from_raw_parts_mut(region.ptr.as_ptr().add(*at), *len)
            },
        }
    }
}

impl Drop for PageBuf {
    fn drop(&mut self) {
        match &mut self.0 {
            Inner::Heap(v) => v.zeroize(),
            #[cfg(target_os = "linux")]
            Inner::Cut { .. } => self.deref_mut().zeroize(),
        }
    }
}

impl std::fmt::Debug for PageBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PageBuf({} bytes, huge: {})", self.len(), self.is_huge())
    }
}

#[cfg(test)]
mod advise_tests {
    use super::*;

    #[test]
    fn advising_keeps_the_contents() {
        let mut v: Vec<u64> = Vec::with_capacity(3 * HUGE_PAGE / 8);
        v.extend((0..1000u64).map(|i| i * 7));
        advise_huge(&v);
        v.resize(3 * HUGE_PAGE / 8, 1);
        assert_eq!(v[999], 999 * 7);
        assert_eq!(v[1000], 1);
        advise_huge(&Vec::<u8>::new());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both paths give zero-filled, independent buffers of the asked
    /// length that keep what is written into them.
    #[test]
    fn cut_and_heap_buffers_are_zeroed_disjoint_and_writable() {
        for (len, count) in [(1, 1), (4864 * 200, 3), (65 * 6400, 5), (3 << 20, 2)] {
            for mut bufs in [PageBuf::cut(len, count), PageBuf::heap(len, count)] {
                assert_eq!(bufs.len(), count);
                for (i, b) in bufs.iter_mut().enumerate() {
                    assert_eq!(b.len(), len);
                    assert!(b.iter().all(|&x| x == 0));
                    b.fill(i as u8 + 1);
                }
                for (i, b) in bufs.iter().enumerate() {
                    assert!(
                        b.iter().all(|&x| x == i as u8 + 1),
                        "buffer {i} overwritten"
                    );
                }
            }
        }
        assert!(PageBuf::cut(0, 4).iter().all(|b| b.is_empty()));
        assert!(PageBuf::cut(8, 0).is_empty());
    }

    /// On Linux the region is really advised: with THP in `always` or
    /// `madvise` mode, touching a fresh 8 MiB region gives huge pages
    /// (checked in `/proc/self/smaps`, unless the kernel had no free huge
    /// page, which it reports as `thp_fault_fallback`; then nothing is
    /// asserted).
    #[cfg(target_os = "linux")]
    #[test]
    fn linux_regions_get_huge_pages_when_enabled() {
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
            .unwrap_or_default();
        let fallback = || {
            std::fs::read_to_string("/proc/vmstat")
                .unwrap_or_default()
                .lines()
                .find_map(|l| l.strip_prefix("thp_fault_fallback "))
                .and_then(|v| v.trim().parse::<u64>().ok())
                .unwrap_or(0)
        };
        let before = fallback();
        let mut bufs = PageBuf::cut(8 << 20, 1);
        assert!(bufs[0].is_huge());
        bufs[0].fill(1);
        let addr = bufs[0].as_ptr() as usize;
        if !(mode.contains("[always]") || mode.contains("[madvise]")) {
            return;
        }
        let huge_kb = huge_kib_at(addr);
        eprintln!("AnonHugePages of the region: {huge_kb} KiB");
        if huge_kb == 0 && fallback() == before {
            panic!("no AnonHugePages in the advised region");
        }
    }

    /// `AnonHugePages` of the mapping holding `addr`, in KiB.
    #[cfg(target_os = "linux")]
    fn huge_kib_at(addr: usize) -> u64 {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap_or_default();
        let mut inside = false;
        for line in smaps.lines() {
            if let Some((range, _)) = line.split_once(' ') {
                if let Some((a, b)) = range.split_once('-') {
                    if let (Ok(a), Ok(b)) =
                        (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
                    {
                        inside = a <= addr && addr < b;
                        continue;
                    }
                }
            }
            if inside {
                if let Some(v) = line.strip_prefix("AnonHugePages:") {
                    return v.trim().trim_end_matches("kB").trim().parse().unwrap_or(0);
                }
            }
        }
        0
    }
}
