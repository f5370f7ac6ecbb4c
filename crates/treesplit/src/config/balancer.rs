//! The balancers and the options each one takes. A [`Balancer`] value carries exactly the
//! options of its algorithm, so a combination that makes no sense (a bundle rule for random
//! polling, a round length for block assignment) cannot be written. [`BalancerKind`] and
//! [`Balancer`] are written from the balancer table (`crate::balancers`, one row per
//! balancer) by `balancer_config!` below; what is said here of every balancer (its flags, its
//! round, its jobs) reads the balancer's options ([`Balancer::options`]) and names no
//! variant. Which balancer takes which option is read off the table too (`Balancer::apply`,
//! one match written from it, which both builds a balancer from [`BalancerOptions`] and says
//! which options it takes: [`BalancerKind::options`], [`BalancerKind::takes`],
//! [`BalancerOptions::unused`]), so the two cannot disagree; its inverse,
//! [`Balancer::options`], reads a balancer's options back. The options' own types are in
//! `options.rs`.
//!
//! ```
//! use treesplit::config::{BalancerOption, BalancerOptions};
//! use treesplit::{Balancer, BalancerKind, Jobs};
//!
//! let options = BalancerOptions { jobs: Some(Jobs::Depth(8)), round: Some(20), ..Default::default() };
//! assert_eq!(options.balancer(BalancerKind::Block), Balancer::Block { jobs: Jobs::Depth(8) });
//! assert_eq!(options.unused(BalancerKind::Block), [BalancerOption::Round]);
//! assert!(BalancerKind::RandomShift.takes(BalancerOption::Round));
//! ```

use super::options::{given, put, record, BalancerOption, BalancerOptions};
use super::options::{
    Adaptive, BundleRule, DealOrder, Embedding, Jobs, PermutationKind, PhaseSync, PollingOptions,
    StaticPermutation,
};
use crate::names::named;
use crate::topology::Topology;
use serde::{Deserialize, Serialize};
use std::fmt;

named! {
    /// The schedulers of task DAGs (paper 001 §14.6), given in `DagConfig`.
    pub enum DagScheduler("DAG scheduler") {
        /// The master (PE 0) is told of finished tasks and hands ready ones to idle workers.
        MasterWorker = "master-worker",
        /// The owner of a task is a pseudorandom permutation of its id; each PE runs its
        /// ready tasks, completions go to the owners of the successors.
        RandomStatic = "random-static",
        /// Each PE keeps its ready tasks; idle PEs steal by random polling; a completion
        /// makes successors ready at their owners.
        WorkStealing = "work-stealing",
    }
}

impl DagScheduler {
    /// The PEs that run tasks on `p` PEs: master–worker's master runs none when p > 1.
    pub fn workers(self, p: usize) -> usize {
        match self {
            DagScheduler::MasterWorker if p > 1 => p - 1,
            _ => p,
        }
    }
}

named! {
    /// How the end of the computation is detected.
    pub enum TerminationKind("termination protocol") {
        /// Four-counter waves over the binomial tree of PEs (paper 000 §2).
        FourCounter = "four-counter",
        /// Responses along the tree of pieces (paper 001 §14.5.3).
        ResponseTree = "response-tree",
    }
}

/// The default round length Δ of synchronous balancers: 50 (µs on real machines; in the
/// simulator, enough for a request, a split and the answer with T_rout = 10 and T_split = 5).
pub const DEFAULT_ROUND: u64 = 50;

/// Writes, from the balancer table (`crate::balancers`), [`BalancerKind`], [`Balancer`] and
/// what is read off the rows: the defaults, the kind, which option each field is, and the
/// static balancers.
macro_rules! balancer_config {
    (
        state_machines { $($state_machines:tt)* }
        dynamic { $($dynamic:tt)* }
        static { $($bag:tt)* }
    ) => {
        balancer_config! { @rows $($dynamic)* $($bag)* }

        impl BalancerKind {
            /// The balancers that work on a bag of independent jobs cut from the root.
            pub const STATIC: &'static [BalancerKind] = balancer_config!(@kinds $($bag)*);
        }
    };
    (@kinds $( $(#[$doc:meta])* $variant:ident { $($row:tt)* } )*) => {
        &[$(BalancerKind::$variant),*]
    };
    (@rows $(
        $(#[$doc:meta])*
        $variant:ident {
            name: $name:literal,
            kind: $kind:literal,
            runs: $runs:ident,
            options: {
                $( $(#[$field_meta:meta])* $field:ident: $ty:ty = $default:expr => $option:ident, )*
            },
        }
    )*) => {
        named! {
            /// The load-balancing algorithms, by name (a [`Balancer`] without its options).
            pub enum BalancerKind("balancer") {
                $( #[doc = $kind] $variant = $name, )*
            }
        }

        /// A load-balancing algorithm with its options.
        #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "name")]
        pub enum Balancer {
            $(
                $(#[$doc])*
                #[serde(rename = $name)]
                $variant {
                    $( $(#[$field_meta])* $field: $ty, )*
                },
            )*
        }

        impl Balancer {
            /// The balancer of `kind` with its default options (static balancers derive the
            /// number of jobs from the task's estimates).
            pub fn new(kind: BalancerKind) -> Self {
                match kind {
                    $( BalancerKind::$variant => Balancer::$variant { $( $field: $default, )* }, )*
                }
            }

            /// Which algorithm this is.
            pub fn kind(&self) -> BalancerKind {
                match self {
                    $( Balancer::$variant { .. } => BalancerKind::$variant, )*
                }
            }

            /// Put the options given in `o` that this balancer takes into it, and every option
            /// it takes into `taken`: the one place that says which balancer takes which option.
            pub(super) fn apply(&mut self, o: &BalancerOptions, taken: &mut Vec<BalancerOption>) {
                match self {
                    $( Balancer::$variant { $($field),* } => {
                        $( put($field, given!(o.$option), BalancerOption::$option, taken); )*
                    } )*
                }
            }

            /// Every option this balancer takes, with its value, as options gathered for it:
            /// `self.options().balancer(self.kind())` is `self`.
            pub fn options(&self) -> BalancerOptions {
                let mut o = BalancerOptions::default();
                match *self {
                    $( Balancer::$variant { $($field),* } => {
                        $( record!(o.$option = $field); )*
                    } )*
                }
                o
            }

            /// The options of the polling balancers (None for the static ones).
            pub fn polling(&self) -> Option<&PollingOptions> {
                match self {
                    $( Balancer::$variant { $($field),* } => {
                        None $( .or(polling_field!($option, $field)) )*
                    } )*
                }
            }
        }
    };
}

/// `Some(field)` where a field of the table is the [`BalancerOption::Polling`] option.
macro_rules! polling_field {
    (Polling, $field:ident) => {
        Some($field)
    };
    ($option:ident, $field:ident) => {{
        let _ = $field;
        None
    }};
}

crate::balancers::balancer_table!(balancer_config);

impl Balancer {
    /// The name used on the command line and in reports.
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// Poll-and-shuffle under local synchronization (§6.3): phases without rounds.
    pub fn is_locally_synchronized(&self) -> bool {
        self.options().sync == Some(PhaseSync::Local)
    }

    /// The round (phase) length Δ of the synchronous balancers.
    pub fn round(&self) -> Option<u64> {
        self.options().round
    }

    /// The number of jobs of a static balancer (None for the polling ones).
    pub fn jobs(&self) -> Option<Jobs> {
        self.options().jobs
    }

    /// Set the number of jobs of a static balancer (no effect on the polling ones).
    pub fn with_jobs(self, jobs: Jobs) -> Self {
        self.with(&BalancerOptions {
            jobs: Some(jobs),
            ..BalancerOptions::default()
        })
    }

    /// True for the balancers that work on a bag of jobs cut from the root.
    pub fn is_static(&self) -> bool {
        self.jobs().is_some()
    }

    /// The command-line flags that give this very balancer to `treesplit sim` and `run`:
    /// `--balancer NAME` and a flag for each option it takes (the CLI's `BalancerOpts`), so
    /// that the command line builds this value back (the CLI's plan tests parse them). The
    /// options whose default the machine decides (round, neighbourhood) are always written;
    /// the others where they differ from what the command line assumes. `--embedding` is the
    /// simulator's flag (`sim`, `compare`), written only for an embedding other than the
    /// network's: on threads and MPI the hypercube is the plain one. Every program that
    /// prints a balancer as flags (DST's replay line) uses this one function; it reads the
    /// balancer's options ([`Balancer::options`]), so a new balancer needs nothing here, and
    /// a new option its flag.
    ///
    /// ```
    /// use treesplit::{Balancer, Jobs};
    /// let b = Balancer::Block { jobs: Jobs::Depth(5) };
    /// assert_eq!(b.flags().join(" "), "--balancer block --h 5");
    /// ```
    pub fn flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        let mut add = |words: &[&dyn fmt::Display]| {
            flags.extend(words.iter().map(|w| w.to_string()));
        };
        let o = self.options();
        add(&[&"--balancer", &self.name()]);
        if let Some(polling) = o.polling {
            if let Some(trim) = polling.trim {
                add(&[&"--trim", &trim]);
            }
            if polling.fast_init {
                add(&[&"--fast-init"]);
            }
            if let Some(init) = polling.permuted_init {
                add(&[&"--permuted-init", &init]);
            }
        }
        if let Some(round) = o.round {
            add(&[&"--round", &round]);
        }
        match o.jobs {
            Some(Jobs::Depth(h)) => add(&[&"--h", &h]),
            Some(Jobs::PerPe(q)) => add(&[&"--q", &q]),
            Some(Jobs::FromEstimates) | None => {}
        }
        if let Some(neighbourhood) = o.neighbourhood {
            add(&[&"--neighbourhood", &neighbourhood]);
        }
        if let Some(permutation) = o.permutation {
            add(&[&"--permutation", &permutation]);
        }
        if let Some(sync) = o.sync.filter(|s| !s.is_global()) {
            add(&[&"--sync", &sync]);
        }
        if let Some(embedding) = o.embedding.filter(|e| !e.is_network()) {
            add(&[&"--embedding", &embedding]);
        }
        if let Some(a) = o.adaptive {
            add(&[
                &"--adaptive",
                &"--adaptive-c",
                &a.c,
                &"--adaptive-gamma",
                &a.gamma,
            ]);
        }
        if let Some(permutation) = o.static_permutation {
            add(&[&"--static-permutation", &permutation]);
        }
        if let Some(bundle) = o.bundle {
            add(&[&"--bundle", &bundle]);
        }
        if o.splittable == Some(false) {
            add(&[&"--atomic-jobs"]);
        }
        if let Some(order) = o.order.filter(|order| !order.is_in_order()) {
            add(&[&"--deal-order", &order]);
        }
        if let Some(fanout) = o.fanout.filter(|&fanout| fanout != 0) {
            add(&[&"--fanout", &fanout]);
        }
        if let Some(block) = o.locality.filter(|&block| block != 0) {
            add(&[&"--poll-within", &block]);
        }
        flags
    }
}

impl BalancerKind {
    /// True for the balancers of [`BalancerKind::STATIC`].
    pub fn is_static(self) -> bool {
        BalancerKind::STATIC.contains(&self)
    }
}

impl Default for Balancer {
    fn default() -> Self {
        Balancer::new(BalancerKind::RandomPolling)
    }
}

impl From<BalancerKind> for Balancer {
    fn from(kind: BalancerKind) -> Self {
        Balancer::new(kind)
    }
}

impl fmt::Display for Balancer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl BalancerOptions {
    /// The balancer of `kind` with the options given here that it takes, and its defaults
    /// for the rest.
    pub fn balancer(&self, kind: BalancerKind) -> Balancer {
        Balancer::new(kind).with(self)
    }

    /// The options given here that the balancers of `kind` do not take, in the order of the
    /// fields.
    pub fn unused(&self, kind: BalancerKind) -> Vec<BalancerOption> {
        use BalancerOption as O;
        let o = self;
        let given = [
            (O::Polling, o.polling.is_some()),
            (O::Round, o.round.is_some()),
            (O::Neighbourhood, o.neighbourhood.is_some()),
            (O::Permutation, o.permutation.is_some()),
            (O::Adaptive, o.adaptive.is_some()),
            (O::Sync, o.sync.is_some()),
            (O::Embedding, o.embedding.is_some()),
            (O::Jobs, o.jobs.is_some()),
            (O::StaticPermutation, o.static_permutation.is_some()),
            (O::Bundle, o.bundle.is_some()),
            (O::Splittable, o.splittable.is_some()),
            (O::Order, o.order.is_some()),
            (O::Fanout, o.fanout.is_some()),
            (O::Locality, o.locality.is_some()),
        ];
        let takes = kind.options();
        given
            .into_iter()
            .filter(|&(option, given)| given && !takes.contains(&option))
            .map(|(option, _)| option)
            .collect()
    }
}

impl Balancer {
    /// This balancer with the options given in `options` that it takes (the others are
    /// left out: [`BalancerOptions::unused`] names them).
    pub fn with(mut self, options: &BalancerOptions) -> Self {
        self.apply(options, &mut Vec::new());
        self
    }
}

impl BalancerKind {
    /// The options the balancers of this kind take.
    pub fn options(self) -> Vec<BalancerOption> {
        let mut taken = Vec::new();
        Balancer::new(self).apply(&BalancerOptions::default(), &mut taken);
        taken
    }

    /// Whether the balancers of this kind take `option`.
    pub fn takes(self, option: BalancerOption) -> bool {
        self.options().contains(&option)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Adaptive, BundleRule, Embedding, PermutationKind, PhaseSync};
    use crate::config::{PollingOptions, StaticPermutation};
    use crate::topology::Topology;

    /// Every option given with a value other than every balancer's default.
    fn every_option() -> BalancerOptions {
        BalancerOptions {
            polling: Some(PollingOptions {
                trim: Some(3),
                fast_init: true,
                permuted_init: None,
            }),
            round: Some(77),
            neighbourhood: Some(Topology::Hypercube),
            permutation: Some(PermutationKind::Pseudorandom),
            adaptive: Some(Adaptive { c: 2.0, gamma: 0.5 }),
            sync: Some(PhaseSync::Local),
            embedding: Some(Embedding::RowMajor),
            jobs: Some(Jobs::PerPe(3)),
            static_permutation: Some(StaticPermutation::Gf2),
            bundle: Some(BundleRule::Fixed(4)),
            splittable: Some(false),
            order: Some(DealOrder::LargestFirst),
            fanout: Some(3),
            locality: Some(8),
        }
    }

    #[test]
    fn a_balancer_takes_the_options_it_has_a_place_for_and_no_other() {
        let all = every_option();
        for &kind in BalancerKind::ALL {
            let b = all.balancer(kind);
            assert_eq!(b.kind(), kind);
            let takes = kind.options();
            let unused = all.unused(kind);
            assert_eq!(takes.len() + unused.len(), 14, "{kind}");
            assert!(takes.iter().all(|o| !unused.contains(o)), "{kind}");
            assert_eq!(b.polling().is_some(), kind.takes(BalancerOption::Polling));
            assert!(
                b.polling().is_none_or(|p| Some(*p) == all.polling),
                "{kind}"
            );
            assert_eq!(b.round().is_some(), kind.takes(BalancerOption::Round));
            assert!(b.round().is_none_or(|r| r == 77), "{kind}");
            assert_eq!(b.jobs().is_some(), kind.takes(BalancerOption::Jobs));
            assert!(b.jobs().is_none_or(|j| j == Jobs::PerPe(3)), "{kind}");
            let changed = b != Balancer::new(kind);
            assert!(changed, "{kind}");
        }
        assert_eq!(
            all.balancer(BalancerKind::PollAndShuffle),
            Balancer::PollAndShuffle {
                polling: PollingOptions {
                    trim: Some(3),
                    fast_init: true,
                    permuted_init: None,
                },
                round: 77,
                permutation: PermutationKind::Pseudorandom,
                adaptive: all.adaptive,
                sync: PhaseSync::Local,
                embedding: Embedding::RowMajor,
            }
        );
        assert_eq!(
            all.balancer(BalancerKind::NeighbourPolling)
                .polling()
                .copied(),
            Some(PollingOptions {
                trim: Some(3),
                fast_init: true,
                permuted_init: None,
            })
        );
    }

    /// `Balancer::options` reads back what `Balancer::with` put in, for every balancer of
    /// the table, with its defaults and with every option given.
    #[test]
    fn a_balancer_is_its_options_read_back() {
        for &kind in BalancerKind::ALL {
            for b in [Balancer::new(kind), every_option().balancer(kind)] {
                let o = b.options();
                assert_eq!(o.balancer(kind), b, "{kind}");
                assert!(o.unused(kind).is_empty(), "{kind}");
            }
            // The table's static balancers are those that cut a bag of jobs.
            assert_eq!(kind.is_static(), kind.takes(BalancerOption::Jobs), "{kind}");
        }
    }

    #[test]
    fn the_takers_of_each_option() {
        use BalancerOption as O;
        let takers = |option| -> Vec<BalancerKind> {
            BalancerKind::ALL
                .iter()
                .copied()
                .filter(|k| k.takes(option))
                .collect()
        };
        let dynamic: Vec<BalancerKind> = BalancerKind::ALL
            .iter()
            .copied()
            .filter(|k| !k.is_static())
            .collect();
        // Every dynamic balancer polls; every static one cuts a bag of jobs; no balancer both.
        assert_eq!(takers(O::Polling), dynamic);
        assert_eq!(takers(O::Jobs), BalancerKind::STATIC);
        // The options of rounds, neighbours and poll-and-shuffle's permutations are the
        // polling balancers'; those of placing and dealing out jobs the static ones'.
        for option in [
            O::Round,
            O::Neighbourhood,
            O::Permutation,
            O::Adaptive,
            O::Sync,
            O::Embedding,
        ] {
            assert!(!takers(option).is_empty(), "{option:?}");
            assert!(takers(option).iter().all(|k| !k.is_static()), "{option:?}");
        }
        for option in [O::StaticPermutation, O::Bundle, O::Splittable] {
            assert!(!takers(option).is_empty(), "{option:?}");
            assert!(takers(option).iter().all(|k| k.is_static()), "{option:?}");
        }
        // Poll-and-shuffle's options go together.
        assert_eq!(takers(O::Sync), takers(O::Permutation));
        assert_eq!(takers(O::Adaptive), takers(O::Embedding));
    }

    #[test]
    fn local_synchronization_defaults_to_the_pseudorandom_permutation() {
        let local = BalancerOptions {
            sync: Some(PhaseSync::Local),
            ..Default::default()
        };
        let b = local.balancer(BalancerKind::PollAndShuffle);
        assert!(matches!(
            b,
            Balancer::PollAndShuffle {
                permutation: PermutationKind::Pseudorandom,
                sync: PhaseSync::Local,
                ..
            }
        ));
        let messages = BalancerOptions {
            permutation: Some(PermutationKind::Messages),
            ..local
        };
        assert!(matches!(
            messages.balancer(BalancerKind::PollAndShuffle),
            Balancer::PollAndShuffle {
                permutation: PermutationKind::Messages,
                ..
            }
        ));
    }
}
