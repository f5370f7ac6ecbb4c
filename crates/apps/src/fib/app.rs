//! The command line's face of fib as a tree of calls: its subcommand's arguments, how they
//! become an instance, and what the instance tells the commands (its task, fib(N) by
//! iteration, its peers: the plain recursion, rayon's `join` and chili's `join`).

use super::{check_n, fib_chili, fib_direct, fib_rayon, fib_recursive, Fib};
use crate::instance::{Instance, PeerVisitor};
use crate::peers::{chili, Peers, EVERY_NODE};
use crate::spec::{AppVisitor, Published};

/// `treesplit run fib N`.
pub struct App;

/// fib(N) as a tree of 2·fib(N + 1) − 1 calls of about a nanosecond each.
#[derive(Debug, clap::Args)]
struct Args {
    /// N (0 ≤ N ≤ 92; N = 40 makes 331 million calls).
    n: u32,
}

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "fib"
    }

    fn command(&self) -> clap::Command {
        crate::app::command::<Args>(self.name())
    }

    /// Every call forks.
    fn rayon_depth(&self) -> Option<u32> {
        Some(EVERY_NODE)
    }

    fn example(&self) -> &'static [&'static str] {
        &["20"]
    }
}

impl crate::app::Parse for App {
    type Instance = FibSpec;

    fn parse(
        &self,
        args: &clap::ArgMatches,
        _given: &dyn Fn(&str) -> bool,
    ) -> Result<Self::Instance, String> {
        let Args { n } = crate::app::typed(args)?;
        check_n(n)?;
        Ok(FibSpec(n))
    }
}

/// A fib instance: N, checked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FibSpec(pub u32);

impl Instance for FibSpec {
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        let n = self.0;
        visitor.visit(
            move || Fib::new(n).expect("a validated fib instance"),
            move |s| {
                let expected = fib_direct(n);
                Some(Published {
                    source: "fib by iteration".into(),
                    value: expected.to_string(),
                    matches: expected == *s,
                })
            },
        )
    }

    fn cli_args(&self) -> String {
        format!("fib {}", self.0)
    }

    /// About 1 ns per call: 16384 calls are 10–25 µs.
    fn default_delta_t(&self) -> u64 {
        16384
    }

    fn visit_peer<V: PeerVisitor>(&self, visitor: V) -> Option<V::Out> {
        let n = self.0;
        Some(visitor.visit(
            move || Fib::new(n).expect("a validated fib instance"),
            FibPeers(n),
        ))
    }
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
