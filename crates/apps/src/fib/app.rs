//! The command line's face of fib as a tree of calls: its subcommand's arguments, how they
//! become an instance, and what the instance tells the commands (its task, fib(N) by
//! iteration, its peers: the plain recursion, rayon's `join` and chili's `join`).

use super::{fib_chili, fib_direct, fib_rayon, fib_recursive, Fib};
use crate::params::{Param, Type};
use crate::peers::{chili, Peers, EVERY_NODE};
use crate::spec::Published;

crate::number::number_app! {
    /// `treesplit run fib N`.
    app "fib";
    about "fib(N) as a tree of 2·fib(N + 1) − 1 calls of about a nanosecond each";
    param Param::positional("n", Type::U32, "N (0 ≤ N ≤ 92; N = 40 makes 331 million calls)").required();
    number u32;
    words "fib {}";
    /// A fib instance: N, checked.
    instance FibSpec;
    task Fib::new;
    published published;
    // About 1 ns per call: 16384 calls are 10–25 µs.
    delta_t 16384;
    example ["20"];
    // Every call forks.
    rayon_depth EVERY_NODE;
    peers FibPeers;
}

/// fib(N) against the value by iteration.
fn published(n: u32, s: &u64) -> Option<Published> {
    Some(Published::equal("fib by iteration", fib_direct(n), s))
}

/// fib's peers: forks above a depth cut-off, the plain recursion below.
struct FibPeers(u32);

impl Peers for FibPeers {
    type Output = u64;

    fn sequential(&self) -> u64 {
        fib_recursive(self.0)
    }

    fn rayon(&self, cut: u32) -> u64 {
        fib_rayon(self.0, 0, cut)
    }

    fn chili(&self, scope: &mut chili::Scope<'_>, cut: u32) -> Option<u64> {
        Some(fib_chili(scope, self.0, 0, cut))
    }

    fn cuts(&self) -> Vec<u32> {
        vec![4, 8, 12, 16, EVERY_NODE]
    }
}
