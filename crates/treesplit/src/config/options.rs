//! Which balancer takes which option, and a balancer built from options gathered before the
//! balancer is chosen. A [`Balancer`] carries exactly the options of its algorithm; a front
//! end that offers every balancer's options at once (a command line, a harness that draws
//! random configurations) gathers them in [`BalancerOptions`] and builds the balancer it
//! chooses from them. What each balancer has a place for is read off the [`Balancer`] type in
//! one match (`Balancer::apply`), which both builds the balancer and says which options it
//! takes ([`BalancerKind::options`], [`BalancerKind::takes`], [`BalancerOptions::unused`]), so
//! the two cannot disagree.
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

/// Put `value`, where given, in `place`, and count `option` as taken.
fn put<T>(
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

impl Balancer {
    /// Put the options given in `o` that this balancer takes into it, and every option it
    /// takes into `taken`: the one table of which balancer takes which option.
    fn apply(&mut self, o: &BalancerOptions, taken: &mut Vec<BalancerOption>) {
        use BalancerOption as O;
        match self {
            Balancer::RandomPolling { polling } | Balancer::GlobalRoundRobin { polling } => {
                put(polling, o.polling, O::Polling, taken)
            }
            Balancer::NeighbourPolling {
                polling,
                neighbourhood,
            } => {
                put(polling, o.polling, O::Polling, taken);
                put(neighbourhood, o.neighbourhood, O::Neighbourhood, taken);
            }
            Balancer::RandomShift { polling, round } => {
                put(polling, o.polling, O::Polling, taken);
                put(round, o.round, O::Round, taken);
            }
            Balancer::PollAndShuffle {
                polling,
                round,
                permutation,
                adaptive,
                sync,
                embedding,
            } => {
                put(polling, o.polling, O::Polling, taken);
                put(round, o.round, O::Round, taken);
                // Local synchronization needs the pseudorandom permutation.
                let local = o.sync == Some(PhaseSync::Local);
                let default = local.then_some(PermutationKind::Pseudorandom);
                put(
                    permutation,
                    o.permutation.or(default),
                    O::Permutation,
                    taken,
                );
                put(adaptive, o.adaptive.map(Some), O::Adaptive, taken);
                put(sync, o.sync, O::Sync, taken);
                put(embedding, o.embedding, O::Embedding, taken);
            }
            Balancer::RandomStatic { jobs, permutation } => {
                put(jobs, o.jobs, O::Jobs, taken);
                put(
                    permutation,
                    o.static_permutation,
                    O::StaticPermutation,
                    taken,
                );
            }
            Balancer::Block { jobs }
            | Balancer::RoundRobin { jobs }
            | Balancer::RandomAssignment { jobs } => put(jobs, o.jobs, O::Jobs, taken),
            Balancer::MasterWorker { jobs, bundle } => {
                put(jobs, o.jobs, O::Jobs, taken);
                put(bundle, o.bundle, O::Bundle, taken);
            }
            Balancer::PrefixSum { jobs, splittable } => {
                put(jobs, o.jobs, O::Jobs, taken);
                put(splittable, o.splittable, O::Splittable, taken);
            }
        }
    }

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
