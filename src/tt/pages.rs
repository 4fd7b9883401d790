//! The table's allocator: on Linux, a helper thread maps every page of a large block as it
//! is allocated, so the search does not pay for it.
//!
//! The table is hundreds of megabytes of fresh memory, and a probe lands on a random slot
//! of it. Left to the kernel, each 4 KiB page is mapped (and zeroed) by a page fault the
//! first time a search stores into it, so a fresh process's first searches paid for tens
//! of thousands of faults inside their clock: at 200 ms a move an engine's first search
//! ran at about half the speed of its tenth (README, Performance). Faulting the
//! block in before returning it costs about 85 ms for a 350 MB budget, all of it inside
//! the first move when the manager sends the move right after `START` and `INFO`. So a
//! detached thread asks the kernel to map the block (`MADV_POPULATE_WRITE`, Linux 5.14 and
//! later), a chunk at a time: that call never reads or writes the memory, so it cannot
//! race with the search that is already storing into the same block, and on an older
//! kernel, or any other system, it simply fails and the pages fault in on first touch as
//! before.

use allocator_api2::alloc::{AllocError, Allocator, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The kernel's page: only whole pages can be advised.
#[cfg(target_os = "linux")]
const PAGE: usize = 4096;

/// Bytes mapped by one call of the helper (about a millisecond's work), and its pause
/// after each.
#[cfg(target_os = "linux")]
const CHUNK: usize = 2 << 20;
#[cfg(target_os = "linux")]
const PAUSE: std::time::Duration = std::time::Duration::from_micros(200);

/// Blocks this large or larger are mapped by the helper thread (a table's shards are).
const POPULATE_FROM: usize = 1 << 20;

/// The allocator of the table's shards (see the module docs). Each shard has its own, which
/// remembers where its last block starts: the shard's prefetch needs the address of the
/// hashbrown allocation, which hashbrown does not give out.
#[derive(Debug, Default)]
pub(crate) struct PageAlloc {
    last: AtomicUsize,
}

impl PageAlloc {
    /// The address of the last non-empty block this allocator handed out (0 before any).
    pub fn last_block(&self) -> usize {
        self.last.load(Ordering::Relaxed)
    }
}

/// A clone allocates and frees exactly as the original does; it starts with no block of
/// its own, so a cloned table records its own allocation, not its source's.
impl Clone for PageAlloc {
    fn clone(&self) -> Self {
        PageAlloc::default()
    }
}

// SAFETY: every block comes from `std::alloc::alloc` with the caller's layout and goes
// back to `std::alloc::dealloc` with the same layout; the helper thread's advice does not
// touch the block's contents or extent.
unsafe impl Allocator for PageAlloc {
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        if layout.size() == 0 {
            let dangling = NonNull::new(layout.align() as *mut u8).ok_or(AllocError)?;
            return Ok(NonNull::slice_from_raw_parts(dangling, 0));
        }
        // SAFETY: the size is not zero (checked above).
        let ptr = NonNull::new(unsafe { std::alloc::alloc(layout) }).ok_or(AllocError)?;
        if layout.size() >= POPULATE_FROM {
            populate(ptr.as_ptr() as usize, layout.size());
        }
        self.last.store(ptr.as_ptr() as usize, Ordering::Relaxed);
        Ok(NonNull::slice_from_raw_parts(ptr, layout.size()))
    }

    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        if layout.size() != 0 {
            // SAFETY: `ptr` was allocated by `allocate` for this `layout` (the caller's
            // contract), so by `std::alloc::alloc` with it.
            unsafe { std::alloc::dealloc(ptr.as_ptr(), layout) }
        }
    }
}

/// Map the whole pages inside `len` bytes from address `start`, on a detached thread.
#[cfg(target_os = "linux")]
fn populate(start: usize, len: usize) {
    // A failed spawn (or call) leaves the pages to fault in on first touch, as before.
    let _ = std::thread::Builder::new()
        .name("tt-populate".into())
        .spawn(move || populate_now(start, len));
}

#[cfg(not(target_os = "linux"))]
fn populate(_start: usize, _len: usize) {}

/// Ask the kernel to map the whole pages inside `len` bytes from address `start`, a chunk
/// at a time with a pause after each, so the search's own faults and allocations are
/// never held up for long and the process can exit between chunks. False when the kernel
/// refuses (a kernel older than 5.14, a range no longer mapped).
#[cfg(target_os = "linux")]
fn populate_now(start: usize, len: usize) -> bool {
    let first = start.next_multiple_of(PAGE);
    let end = (start + len) / PAGE * PAGE;
    let mut at = first;
    while at < end {
        let n = CHUNK.min(end - at);
        // SAFETY: `MADV_POPULATE_WRITE` maps pages without reading or writing them, so it
        // cannot race with the search. Should the block be freed first, the range is
        // either unmapped (the call fails) or reused, where mapping pages changes nothing
        // either.
        let rc = unsafe { libc::madvise(at as *mut libc::c_void, n, libc::MADV_POPULATE_WRITE) };
        if rc != 0 {
            return false;
        }
        at += n;
        std::thread::sleep(PAUSE);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_aligned_writable_and_returned() {
        let a = PageAlloc::default();
        for (size, align) in [(0, 8), (24, 8), (4096, 16), (3 * POPULATE_FROM + 40, 16)] {
            let layout = Layout::from_size_align(size, align).expect("valid layout");
            let block = a.allocate(layout).expect("allocates");
            let ptr = block.cast::<u8>();
            assert_eq!(block.len(), size);
            assert_eq!(ptr.as_ptr() as usize % align, 0);
            // SAFETY: `block` is `size` bytes this test owns.
            unsafe {
                if size > 0 {
                    ptr.as_ptr().write(1);
                    ptr.as_ptr().add(size - 1).write(2);
                }
                a.deallocate(ptr, layout);
            }
        }
    }

    /// Every page of a block is resident after the call (`mincore`), where the kernel
    /// knows `MADV_POPULATE_WRITE`.
    #[cfg(target_os = "linux")]
    #[test]
    fn populate_maps_every_page() {
        let len = 64 * PAGE;
        let layout = Layout::from_size_align(len, PAGE).expect("valid layout");
        // SAFETY: a non-zero size; freed below with the same layout.
        let ptr = unsafe { std::alloc::alloc(layout) };
        assert!(!ptr.is_null());
        if populate_now(ptr as usize, len) {
            let mut resident = vec![0u8; len / PAGE];
            // SAFETY: `ptr` is page aligned and `len` bytes long; `resident` has a byte
            // per page.
            let rc = unsafe { libc::mincore(ptr.cast(), len, resident.as_mut_ptr()) };
            assert_eq!(rc, 0);
            assert!(resident.iter().all(|&r| r & 1 == 1), "{resident:?}");
        } else {
            // Only a kernel without the advice may refuse it.
            let err = std::io::Error::last_os_error().raw_os_error();
            assert_eq!(err, Some(libc::EINVAL));
        }
        // SAFETY: allocated above with `layout`.
        unsafe { std::alloc::dealloc(ptr, layout) };
    }
}
