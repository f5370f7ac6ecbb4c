//! Which balancer takes which option, and a balancer built from options gathered before the
//! balancer is chosen. A [`Balancer`] carries exactly the options of its algorithm; a front
//! end that offers every balancer's options at once (a command line, a harness that draws
//! random configurations) gathers them in [`BalancerOptions`] and builds the balancer it
//! chooses from them. What each balancer has a place for is read off the balancer table
//! (`crate::balancers`: each field of a row names its [`BalancerOption`]), in one match
//! written from it (`Balancer::apply`), which both builds the balancer and says which options
//! it takes ([`BalancerKind::options`], [`BalancerKind::takes`], [`BalancerOptions::unused`]),
//! so the two cannot disagree; its inverse (`Balancer::options`) reads a balancer's options
//! back. A new balancer with the options of this file needs nothing here; a new option adds
//! its [`BalancerOption`], its field of [`BalancerOptions`] and its lines in `given!` and
//! `record!`.
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

use super::balancer::{
    Adaptive, Balancer, BalancerKind, BundleRule, Embedding, Jobs, PermutationKind, PhaseSync,
    PollingOptions, StaticPermutation,
};
use crate::topology::Topology;

/// An option that only some balancers take: a field of some [`Balancer`] variants
/// ([`BalancerKind::takes`] says which).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BalancerOption {
    /// Trimming and fast initialization ([`PollingOptions`]).
    Polling,
    /// The round (phase) length Δ.
    Round,
    /// Whose neighbours are asked.
    Neighbourhood,
    /// How poll-and-shuffle permutes the pieces ([`PermutationKind`]).
    Permutation,
    /// Adaptive triggering of permutations ([`Adaptive`]).
    Adaptive,
    /// How phases are synchronized ([`PhaseSync`]).
    Sync,
    /// How a hypercube is laid onto the network ([`Embedding`]).
    Embedding,
    /// The number of jobs cut from the root ([`Jobs`]).
    Jobs,
    /// The permutation that places jobs ([`StaticPermutation`]).
    StaticPermutation,
    /// The bundle rule ([`BundleRule`]).
    Bundle,
    /// Whether jobs may be cut between PEs.
    Splittable,
}

/// Options for a balancer not chosen yet, each `None` where not given.
/// [`BalancerOptions::balancer`] builds the balancer of a kind with the options it takes and
/// its defaults ([`Balancer::new`]) for the rest; [`BalancerOptions::unused`] names the
/// options given that it does not take.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BalancerOptions {
    /// [`BalancerOption::Polling`].
    pub polling: Option<PollingOptions>,
    /// [`BalancerOption::Round`].
    pub round: Option<u64>,
    /// [`BalancerOption::Neighbourhood`].
    pub neighbourhood: Option<Topology>,
    /// [`BalancerOption::Permutation`]; not given, it is the pseudorandom one under local
    /// synchronization ([`PhaseSync::Local`] needs it).
    pub permutation: Option<PermutationKind>,
    /// [`BalancerOption::Adaptive`]: adaptive triggering with these constants.
    pub adaptive: Option<Adaptive>,
    /// [`BalancerOption::Sync`].
    pub sync: Option<PhaseSync>,
    /// [`BalancerOption::Embedding`].
    pub embedding: Option<Embedding>,
    /// [`BalancerOption::Jobs`].
    pub jobs: Option<Jobs>,
    /// [`BalancerOption::StaticPermutation`].
    pub static_permutation: Option<StaticPermutation>,
    /// [`BalancerOption::Bundle`].
    pub bundle: Option<BundleRule>,
    /// [`BalancerOption::Splittable`].
    pub splittable: Option<bool>,
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
        ];
        let takes = kind.options();
        given
            .into_iter()
            .filter(|&(option, given)| given && !takes.contains(&option))
            .map(|(option, _)| option)
            .collect()
    }
}

/// Put `value`, where given, in `place`, and count `option` as taken (`Balancer::apply`,
/// written from the balancer table).
pub(super) fn put<T>(
    place: &mut T,
    value: Option<T>,
    option: BalancerOption,
    taken: &mut Vec<BalancerOption>,
) {
    taken.push(option);
    if let Some(value) = value {
        *place = value;
    }
}

/// `given!(o.Option)`: the value that [`BalancerOptions`] `o` gives for a balancer's field of
/// that [`BalancerOption`], if any — the field's own type (the balancer table names each
/// field's option; `Balancer::apply` reads them here).
macro_rules! given {
    ($o:ident.Polling) => {
        $o.polling
    };
    ($o:ident.Round) => {
        $o.round
    };
    ($o:ident.Neighbourhood) => {
        $o.neighbourhood
    };
    // Local synchronization needs the pseudorandom permutation: it is the default there.
    ($o:ident.Permutation) => {
        $o.permutation.or(
            ($o.sync == Some($crate::config::PhaseSync::Local))
                .then_some($crate::config::PermutationKind::Pseudorandom),
        )
    };
    // Given: adaptive triggering with these constants; not given: the balancer's default.
    ($o:ident.Adaptive) => {
        $o.adaptive.map(Some)
    };
    ($o:ident.Sync) => {
        $o.sync
    };
    ($o:ident.Embedding) => {
        $o.embedding
    };
    ($o:ident.Jobs) => {
        $o.jobs
    };
    ($o:ident.StaticPermutation) => {
        $o.static_permutation
    };
    ($o:ident.Bundle) => {
        $o.bundle
    };
    ($o:ident.Splittable) => {
        $o.splittable
    };
}

/// `record!(o.Option = value)`: write a balancer's field of that [`BalancerOption`] into
/// [`BalancerOptions`] `o`, the inverse of [`given!`] (`Balancer::options`).
macro_rules! record {
    ($o:ident.Adaptive = $value:expr) => {
        $o.adaptive = $value
    };
    ($o:ident.Polling = $value:expr) => {
        $o.polling = Some($value)
    };
    ($o:ident.Round = $value:expr) => {
        $o.round = Some($value)
    };
    ($o:ident.Neighbourhood = $value:expr) => {
        $o.neighbourhood = Some($value)
    };
    ($o:ident.Permutation = $value:expr) => {
        $o.permutation = Some($value)
    };
    ($o:ident.Sync = $value:expr) => {
        $o.sync = Some($value)
    };
    ($o:ident.Embedding = $value:expr) => {
        $o.embedding = Some($value)
    };
    ($o:ident.Jobs = $value:expr) => {
        $o.jobs = Some($value)
    };
    ($o:ident.StaticPermutation = $value:expr) => {
        $o.static_permutation = Some($value)
    };
    ($o:ident.Bundle = $value:expr) => {
        $o.bundle = Some($value)
    };
    ($o:ident.Splittable = $value:expr) => {
        $o.splittable = Some($value)
    };
}

pub(super) use {given, record};

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

    /// Every option given with a value other than every balancer's default.
    fn every_option() -> BalancerOptions {
        BalancerOptions {
            polling: Some(PollingOptions {
                trim: Some(3),
                fast_init: true,
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
            assert_eq!(takes.len() + unused.len(), 11, "{kind}");
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
                    fast_init: true
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
                fast_init: true
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
        let takers = |option| -> Vec<&str> {
            BalancerKind::ALL
                .iter()
                .filter(|k| k.takes(option))
                .map(|k| k.name())
                .collect()
        };
        assert_eq!(
            takers(BalancerOption::Polling),
            [
                "random-polling",
                "neighbour-polling",
                "global-round-robin",
                "random-shift",
                "poll-and-shuffle"
            ]
        );
        assert_eq!(
            takers(BalancerOption::Round),
            ["random-shift", "poll-and-shuffle"]
        );
        assert_eq!(takers(BalancerOption::Neighbourhood), ["neighbour-polling"]);
        assert_eq!(takers(BalancerOption::Sync), ["poll-and-shuffle"]);
        assert_eq!(
            takers(BalancerOption::Jobs),
            [
                "random-static",
                "block",
                "round-robin",
                "random",
                "master-worker",
                "prefix-sum"
            ]
        );
        assert_eq!(takers(BalancerOption::StaticPermutation), ["random-static"]);
        assert_eq!(takers(BalancerOption::Bundle), ["master-worker"]);
        assert_eq!(takers(BalancerOption::Splittable), ["prefix-sum"]);
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
