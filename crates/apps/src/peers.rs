//! An application's hand-written peers, which `bench` measures beside its treesplit task: the
//! plain sequential code with no runtime (a recursion, or a loop with an explicit stack), the
//! same computation forked with rayon's `join` or parallel iterators, and with chili's
//! heartbeat-scheduled `join`. Each peer runs at a *setting*, a depth cut-off above which it
//! forks and below which it recurses sequentially; the application names the cut-offs worth
//! trying ([`Peers::cuts`]) and `bench` sweeps them, so that each peer is compared at its
//! best. Nothing here names an application.

pub use chili;

/// A cut-off that forks at every node (no sequential cut-off).
pub const EVERY_NODE: u32 = u32::MAX;

/// One application instance's peers (see the module comment). The result of each is the
/// task's output, checked against the sequential run by `bench`.
pub trait Peers: Sync {
    /// The result, the task's output.
    type Output: Send;

    /// The plain sequential code, no runtime.
    fn sequential(&self) -> Self::Output;

    /// The computation on rayon, in the pool it is called in, forking above depth `cut`
    /// ([`EVERY_NODE`]: at every node).
    fn rayon(&self, cut: u32) -> Self::Output;

    /// The computation on chili's `scope`, forking above depth `cut`; `None` when the
    /// application has no chili peer.
    fn chili(&self, scope: &mut chili::Scope<'_>, cut: u32) -> Option<Self::Output>;

    /// The cut-offs `bench` tries for each peer, the application's default among them.
    fn cuts(&self) -> Vec<u32>;

    /// The cut-offs `bench` tries for chili (by default those of [`Peers::cuts`]). chili's
    /// worker threads have the default stack, which a recursion thousands of levels deep
    /// overflows: an application with such trees leaves [`EVERY_NODE`] out here.
    fn chili_cuts(&self) -> Vec<u32> {
        self.cuts()
    }
}

/// A cut-off in words: `every node` or `depth D`.
pub fn cut_name(cut: u32) -> String {
    if cut == EVERY_NODE {
        "every node".into()
    } else {
        format!("depth {cut}")
    }
}

/// A chili thread pool of `threads` threads (the calling thread is one of them), with chili's
/// default heartbeat interval.
pub fn chili_pool(threads: usize) -> chili::ThreadPool {
    chili::ThreadPool::with_config(chili::Config {
        thread_count: std::num::NonZero::new(threads.max(1)),
        ..chili::Config::default()
    })
}
