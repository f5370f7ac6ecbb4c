//! Huge pages (2 MiB) for the PEs' state. With many PEs each event reads the state of a PE
//! far from the last one's, and with 4 KiB pages most of those reads also missed the TLB
//! (at 65,536 PEs, huge pages for the whole heap made a run 15 % faster). Where Linux's
//! transparent huge pages are in `madvise` mode (the usual default) only memory that asks
//! gets them: the array of PE slots asks before it is filled; the heap memory the PEs'
//! protocol states took while they were built is collapsed into huge pages afterwards
//! (`MADV_COLLAPSE`, Linux 6.1), and so is what the heap grows by during the run (their
//! queues and statistics), every 2^20 events: the main heap, found from the program break,
//! or, for an engine thread of `partition.rs`, the glibc arena heap it allocates from
//! ([`HeapFollower`]). Hints only: where the kernel says no, nothing changes. At the end of a
//! run, the pages of the slots already taken out are given back ([`release`]).

const PAGE: usize = 4096;
/// Below this, not worth a system call.
const LEAST: usize = 8 << 20;

/// Where the heap ends now (the program break; 0 where there is none to ask, or where
/// the caller is not the main thread and allocates elsewhere).
pub(super) fn heap_end() -> usize {
    if std::thread::current().name() != Some("main") {
        return 0;
    }
    program_break()
}

/// The program break (0 where there is none to ask).
fn program_break() -> usize {
    #[cfg(target_os = "linux")]
    // SAFETY: sbrk(0) only reads the current break.
    return unsafe { libc::sbrk(0) } as usize;
    #[cfg(not(target_os = "linux"))]
    0
}

/// Ask for huge pages for the heap from `start` to its end (the break `end`), also for
/// what it holds already.
pub(super) fn advise(start: usize, end: usize) {
    advise_range(start, end.next_multiple_of(PAGE), true);
}

fn advise_range(start: usize, end: usize, collapse: bool) {
    let (start, end) = (start.next_multiple_of(PAGE), end / PAGE * PAGE);
    if end < start + LEAST {
        return;
    }
    #[cfg(target_os = "linux")]
    // SAFETY: the range is whole pages of this process's address space; MADV_HUGEPAGE and
    // MADV_COLLAPSE (25, Linux 6.1) change the contents of no page, mapped or not, and their
    // failures (parts unmapped or inaccessible, a page the allocator has meanwhile given
    // back: ENOMEM, EINVAL) are harmless and ignored.
    unsafe {
        let p = start as *mut libc::c_void;
        libc::madvise(p, end - start, libc::MADV_HUGEPAGE);
        if collapse {
            const MADV_COLLAPSE: libc::c_int = 25;
            libc::madvise(p, end - start, MADV_COLLAPSE);
        }
    }
    let _ = collapse;
}

/// Follows the heap an engine allocates from as it grows, asking for huge pages for it.
///
/// One engine on the main thread follows glibc's main heap, from the program break. An
/// engine thread of `partition.rs` allocates from a glibc *arena* of its own: glibc keeps a
/// thread's arena in heaps of [`ARENA_HEAP`] bytes, each mapped at a multiple of its size,
/// and grows each by changing the protection of its next pages. Where a fresh allocation of
/// the thread lies shows the heap it grows now; that heap is advised (the pages it takes
/// next are huge as they come) and what it holds is collapsed, as the main heap's is. Only
/// with glibc, and only for an allocation above the program break (not from the main heap,
/// where threads share the main arena once glibc's arena limit is reached). Under another
/// global allocator the 64 MiB around the probe may hold other mappings of the process:
/// the advice keeps their contents, but asks huge pages for them too.
pub(super) enum HeapFollower {
    /// The main heap, advised up to this program break (0: not on the main thread, where
    /// the break does not measure the engine's allocations).
    Main { advised: usize },
    /// An engine thread's arena.
    Arena,
}

/// The size and alignment of a glibc arena heap on 64-bit Linux (`HEAP_MAX_SIZE`).
const ARENA_HEAP: usize = 64 << 20;

impl HeapFollower {
    /// Advise what the heap has grown by since the last call.
    pub(super) fn follow(&mut self) {
        match self {
            HeapFollower::Main { advised } => {
                let end = heap_end();
                if *advised > 0 && end >= *advised + LEAST {
                    advise(*advised, end);
                    *advised = end;
                }
            }
            HeapFollower::Arena => {
                if let Some(heap) = arena_heap() {
                    // Advised whole, and collapsed again: its newest pages came in as the
                    // heap grew a page at a time, short of a whole huge page.
                    advise_range(heap, heap + ARENA_HEAP, true);
                }
            }
        }
    }
}

/// The glibc arena heap this thread allocates from now, if it can be told.
fn arena_heap() -> Option<usize> {
    #[cfg(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64"))]
    {
        // A block too large for the thread's cache of freed blocks and too small to be
        // mapped on its own comes from the arena, from the heap it grows when nothing
        // freed fits.
        let probe: Vec<u8> = Vec::with_capacity(4096);
        let at = std::hint::black_box(probe.as_ptr()) as usize;
        drop(probe);
        (at > program_break()).then_some(at / ARENA_HEAP * ARENA_HEAP)
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64")))]
    None
}

/// An empty vector with room for `n` items, its memory advised before anything touches it.
pub(super) fn vec<X>(n: usize) -> Vec<X> {
    let v = Vec::with_capacity(n);
    let start = v.as_ptr() as usize;
    advise_range(
        start,
        start + n.saturating_mul(std::mem::size_of::<X>()),
        false,
    );
    v
}

/// Give back the whole pages strictly inside `start .. end`, a range of a live allocation
/// whose contents nothing reads again (the slots already moved out of the slot array): they
/// no longer count as resident. The allocation's first page is kept (the allocator's own
/// record of the block may lie just before `start`).
pub(super) fn release(start: usize, end: usize) {
    let (from, to) = ((start / PAGE + 1) * PAGE, end / PAGE * PAGE);
    if to < from + LEAST {
        return;
    }
    #[cfg(target_os = "linux")]
    // SAFETY: whole pages inside an allocation this process owns and still holds, whose
    // contents are never read again: MADV_DONTNEED only makes them read as zeros if they
    // were; neither the allocator's records (before `start`, or after `end`) nor anything
    // alive lies in them.
    unsafe {
        libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_DONTNEED);
    }
}
