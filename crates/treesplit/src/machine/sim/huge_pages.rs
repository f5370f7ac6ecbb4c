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
    // SAFETY: the range is whole pages of this process's own memory; MADV_HUGEPAGE and
    // MADV_COLLAPSE (25, Linux 6.1) change no contents, and their failures (a page the
    // allocator has meanwhile given back: ENOMEM) are harmless and ignored.
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
/// On the main thread that is glibc's main heap, from the program break. An engine thread
/// (`partition.rs`) allocates from an *arena* of its own: glibc keeps a thread's arena in
/// heaps of [`ARENA_HEAP`] bytes, each mapped at a multiple of its size, and grows each by
/// changing the protection of its next pages. Where a fresh allocation of the thread lies
/// shows the heap it grows now; its whole reservation is advised (the pages it will take
/// are then huge as they come), and what it holds already is collapsed, as the main heap's
/// is. Elsewhere (another allocator, another system), the advice is a hint about some of
/// the process's own memory and changes nothing.
pub(super) struct HeapFollower {
    /// Where the program break was when last advised (0: unknown).
    advised: usize,
    /// Engine thread: the arena heap advised last.
    arena_heap: usize,
}

/// The size and alignment of a glibc arena heap on 64-bit Linux (`HEAP_MAX_SIZE`).
const ARENA_HEAP: usize = 64 << 20;

impl HeapFollower {
    /// Following the heap from `advised` (where the program break stood when the heap was
    /// last advised; 0 where that is unknown).
    pub(super) fn new(advised: usize) -> Self {
        HeapFollower {
            advised,
            arena_heap: 0,
        }
    }

    /// Advise what the heap has grown by since the last call.
    pub(super) fn follow(&mut self) {
        if std::thread::current().name() == Some("main") {
            let end = heap_end();
            if self.advised > 0 && end >= self.advised + LEAST {
                advise(self.advised, end);
                self.advised = end;
            }
            return;
        }
        // A block too large for the thread's cache of freed blocks and too small to be
        // mapped on its own comes from the arena, from the heap it grows when nothing
        // freed fits.
        let probe: Vec<u8> = Vec::with_capacity(4096);
        let heap = probe.as_ptr() as usize / ARENA_HEAP * ARENA_HEAP;
        drop(probe);
        if heap != self.arena_heap {
            advise_range(heap, heap + ARENA_HEAP, false);
            self.arena_heap = heap;
        }
        advise_range(heap, heap + ARENA_HEAP, true);
    }
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
