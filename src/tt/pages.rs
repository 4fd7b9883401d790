//! The table's allocator: large blocks on 2 MiB boundaries, with Linux asked to back them
//! with transparent huge pages.
//!
//! A probe lands on a random slot of a table of hundreds of megabytes, so with 4 KiB pages
//! nearly every probe also misses the TLB. Where the kernel's huge-page mode is `madvise`
//! (the common default), memory gets 2 MiB pages only when asked, so a block of at least
//! 2 MiB is aligned to 2 MiB and advised `MADV_HUGEPAGE`. A self-play game at 600 000 nodes
//! a move with a 350 MB budget ran 5–6 % faster with huge pages (README, Other measurements).
//! Elsewhere (other systems, small blocks) this is the global allocator.

use allocator_api2::alloc::{AllocError, Allocator, Layout};
use std::ptr::NonNull;

/// Blocks this large or larger are placed on huge-page boundaries.
const HUGE_PAGE: usize = 2 << 20;

/// The allocator of the table's shards (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PageAlloc;

impl PageAlloc {
    /// The layout a request is really served with: a huge block is aligned to the page.
    fn served(layout: Layout) -> Result<Layout, AllocError> {
        if layout.size() < HUGE_PAGE {
            return Ok(layout);
        }
        Layout::from_size_align(layout.size(), layout.align().max(HUGE_PAGE))
            .map_err(|_| AllocError)
    }
}

// SAFETY: every block comes from `std::alloc::alloc` with the layout `served` gives and is
// returned to `std::alloc::dealloc` with the same layout (it depends on the requested
// layout alone); `madvise` only changes how the kernel backs the pages, never their
// contents or the block's extent.
unsafe impl Allocator for PageAlloc {
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        let served = Self::served(layout)?;
        if served.size() == 0 {
            return Ok(NonNull::slice_from_raw_parts(NonNull::dangling(), 0));
        }
        // SAFETY: the size is not zero (checked above).
        let ptr = NonNull::new(unsafe { std::alloc::alloc(served) }).ok_or(AllocError)?;
        if served.size() >= HUGE_PAGE {
            advise_huge(ptr, served.size());
        }
        Ok(NonNull::slice_from_raw_parts(ptr, served.size()))
    }

    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        if let Ok(served) = Self::served(layout) {
            if served.size() != 0 {
                // SAFETY: `ptr` was allocated by `allocate` for this `layout`, so with
                // `served` (the caller's contract).
                unsafe { std::alloc::dealloc(ptr.as_ptr(), served) }
            }
        }
    }
}

/// Ask Linux for huge pages under `len` bytes from `ptr` (2 MiB aligned). Advice only: a
/// kernel without transparent huge pages refuses it and nothing changes.
#[cfg(target_os = "linux")]
fn advise_huge(ptr: NonNull<u8>, len: usize) {
    // SAFETY: the range is one block this allocator just obtained, page aligned; the
    // advice does not touch its contents.
    unsafe {
        libc::madvise(ptr.as_ptr().cast(), len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_ptr: NonNull<u8>, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_blocks_are_page_aligned_and_small_ones_untouched() {
        let a = PageAlloc;
        for (size, align) in [
            (24, 8),
            (4096, 16),
            (HUGE_PAGE, 16),
            (3 * HUGE_PAGE + 40, 16),
        ] {
            let layout = Layout::from_size_align(size, align).expect("valid layout");
            let block = a.allocate(layout).expect("allocates");
            let ptr = block.cast::<u8>();
            assert!(block.len() >= size);
            if size >= HUGE_PAGE {
                assert_eq!(ptr.as_ptr() as usize % HUGE_PAGE, 0);
            } else {
                assert_eq!(ptr.as_ptr() as usize % align, 0);
            }
            // The block is writable end to end.
            // SAFETY: `block` is `block.len()` bytes this test owns.
            unsafe {
                ptr.as_ptr().write(1);
                ptr.as_ptr().add(size - 1).write(2);
                a.deallocate(ptr, layout);
            }
        }
    }
}
