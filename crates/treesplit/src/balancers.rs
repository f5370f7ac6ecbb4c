//! The balancer table: every load balancer in one row — its name, what it is, the state
//! machine that runs it and the options it takes with their defaults — so that adding a
//! balancer means writing its state machine (`protocol/`) and one row here.
//!
//! `balancer_table!(then)` hands the table to the macro `then`, which makes of it what its
//! layer needs; the table itself imports nothing, so both layers can read it without an
//! import running back up:
//!
//! - `config/balancer.rs` (`balancer_config!`): [`crate::BalancerKind`] (the names and their
//!   one-line docs), [`crate::Balancer`] (one variant per row with exactly its options, so a
//!   combination that makes no sense cannot be written), `Balancer::new` (the defaults),
//!   `Balancer::kind`, which option each field is (`Balancer::with`, `Balancer::options`,
//!   and from them `BalancerKind::takes`, the flags of `Balancer::flags` and the CLI's flag
//!   rules), and `BalancerKind::STATIC` (the rows under `static`);
//! - `protocol/any.rs` (`any_protocol!`): the `AnyProtocol` enum (one variant per state
//!   machine, held inline or boxed as written), its static dispatch of every `Protocol`
//!   method, and the choice of state machine for a balancer (`new_pe`).
//!
//! A row reads
//!
//! ```text
//! /// The doc of the `Balancer` variant.
//! Variant {
//!     name: "name-on-the-command-line",
//!     kind: "The one-line doc of the `BalancerKind` variant.",
//!     runs: StateMachine,                 // a row of `state_machines`
//!     options: {
//!         /// The field's doc.
//!         field: Type = default => Option, // a `config::BalancerOption`
//!     },
//! }
//! ```
//!
//! Under `dynamic` stand the balancers that split on demand, under `static` those that work
//! on a bag of jobs cut from the root (each takes `Jobs`). The order of the rows is the order
//! of `BalancerKind::ALL`: lists, `compare` and the command line's help follow it. DST and the
//! golden simulator corpus draw and list balancers by name, so a new row adds their cases and
//! changes no other.

/// The table; `balancer_table!(then)` expands to `then! { …the table… }` (module comment).
macro_rules! balancer_table {
    ($then:ident) => {
        $then! {
            state_machines {
                // The polling family: one state machine, a victim rule per balancer.
                Polling(polling::Polling),
                Share(Box<assignment::share::Share>),
                MasterWorker(Box<assignment::master_worker::MasterWorker>),
                SharedCounter(Box<assignment::shared_counter::SharedCounter>),
                PrefixSum(Box<assignment::prefix_sum::PrefixSum>),
            }
            dynamic {
                /// Asynchronous random polling (randomized work stealing), paper 000 Fig. 1: an idle
                /// PE asks a uniformly random other PE.
                RandomPolling {
                    name: "random-polling",
                    kind: "Asynchronous random polling (randomized work stealing), paper 000 Fig. 1.",
                    runs: Polling,
                    options: {
                        /// Trimming and fast initialization.
                        polling: PollingOptions = PollingOptions::default() => Polling,
                        /// Local polling (paper 004 §5.1): victims are drawn from the PE's
                        /// block of this many PEs, consecutive in the network's hypercube
                        /// labels (a submesh on a mesh, a subtree on a fat tree); 0: all PEs.
                        #[serde(default, skip_serializing_if = "crate::config::is_zero")]
                        locality: u64 = 0 => Locality,
                    },
                }
                /// Polling of random neighbours in a topology (paper 002 §1.1): a baseline.
                NeighbourPolling {
                    name: "neighbour-polling",
                    kind: "Polling of random neighbours (paper 002 §1.1): a baseline.",
                    runs: Polling,
                    options: {
                        /// Trimming and fast initialization.
                        polling: PollingOptions = PollingOptions::default() => Polling,
                        /// Whose neighbours are asked (ring, mesh, hypercube, …).
                        neighbourhood: Topology = Topology::Ring => Neighbourhood,
                    },
                }
                /// Polling of the PE named by a global counter at PE 0 (paper 000 §1.3): a baseline.
                GlobalRoundRobin {
                    name: "global-round-robin",
                    kind: "Polling of the PE named by a global counter at PE 0 (paper 000 §1.3): a baseline.",
                    runs: Polling,
                    options: {
                        /// Trimming and fast initialization.
                        polling: PollingOptions = PollingOptions::default() => Polling,
                    },
                }
                /// The synchronous random shift of paper 001 §14.5.2: in rounds of length Δ, idle PE i
                /// asks PE (i + k) mod P, with one random k per round shared by all PEs.
                RandomShift {
                    name: "random-shift",
                    kind: "The synchronous random shift of paper 001 §14.5.2.",
                    runs: Polling,
                    options: {
                        /// Trimming and fast initialization.
                        polling: PollingOptions = PollingOptions::default() => Polling,
                        /// The round length Δ: virtual time units in the simulator, µs on threads and MPI.
                        round: u64 = DEFAULT_ROUND => Round,
                    },
                }
                /// Hypercube poll-and-shuffle (paper 002 §3, §5): phases of length Δ; after phase i idle
                /// PEs ask their partner along hypercube dimension i; after a cycle of ⌈log₂ P⌉ phases
                /// (or, adaptively, when PE 0 estimates at least γ·P idle PEs) all pieces are permuted.
                PollAndShuffle {
                    name: "poll-and-shuffle",
                    kind: "Hypercube poll-and-shuffle (paper 002 §3, §5).",
                    runs: Polling,
                    options: {
                        /// Trimming and fast initialization.
                        polling: PollingOptions = PollingOptions::default() => Polling,
                        /// The phase length Δ: virtual time units in the simulator, µs on threads and MPI.
                        round: u64 = DEFAULT_ROUND => Round,
                        /// How the pieces are permuted.
                        permutation: PermutationKind = PermutationKind::Pseudorandom => Permutation,
                        /// Adaptive triggering (None: a permutation after every cycle).
                        adaptive: Option<Adaptive> = None => Adaptive,
                        /// Global phases (rounds of Δ) or local synchronization (§6.3, needs the
                        /// pseudorandom permutation; Δ is then work units per phase).
                        #[serde(default, skip_serializing_if = "PhaseSync::is_global")]
                        sync: PhaseSync = PhaseSync::Global => Sync,
                        /// How the hypercube is laid onto the network (paper 002 §4; the network the machine runs on).
                        #[serde(default, skip_serializing_if = "Embedding::is_network")]
                        embedding: Embedding = Embedding::Network => Embedding,
                    },
                }
            }
            static {
                /// Randomized static load balancing (paper 004 Fig. 1): the root split into 2^h jobs, PE
                /// i derives its share through a pseudorandom permutation.
                RandomStatic {
                    name: "random-static",
                    kind: "Randomized static load balancing with pseudorandom permutations (paper 004 Fig. 1).",
                    runs: Share,
                    options: {
                        /// The number of jobs.
                        jobs: Jobs = Jobs::FromEstimates => Jobs,
                        /// The permutation family.
                        permutation: StaticPermutation = StaticPermutation::Feistel => StaticPermutation,
                    },
                }
                /// Static block assignment of m jobs: PE i takes jobs ⌊im/P⌋..⌊(i+1)m/P⌋.
                Block {
                    name: "block",
                    kind: "Static block assignment (paper 001 Fig. 14.5).",
                    runs: Share,
                    options: {
                        /// The number of jobs.
                        jobs: Jobs = Jobs::FromEstimates => Jobs,
                    },
                }
                /// Static round-robin assignment: job j to PE j mod P.
                RoundRobin {
                    name: "round-robin",
                    kind: "Static round-robin assignment: job j to PE j mod P.",
                    runs: Share,
                    options: {
                        /// The number of jobs.
                        jobs: Jobs = Jobs::FromEstimates => Jobs,
                    },
                }
                /// Static random placement: job j to a pseudorandom PE (q jobs per PE on average).
                RandomAssignment {
                    name: "random",
                    kind: "Static random placement: job j to a pseudorandom PE.",
                    runs: Share,
                    options: {
                        /// The number of jobs.
                        jobs: Jobs = Jobs::FromEstimates => Jobs,
                    },
                }
                /// Master–worker (paper 001 §14.3): PE 0 deals out bundles of jobs to idle workers,
                /// in bag order or, given estimates, large tasks first (LPT).
                MasterWorker {
                    name: "master-worker",
                    kind: "Master–worker (paper 001 §14.3).",
                    runs: MasterWorker,
                    options: {
                        /// The number of jobs.
                        jobs: Jobs = Jobs::FromEstimates => Jobs,
                        /// The bundle rule.
                        bundle: BundleRule = BundleRule::Fixed(1) => Bundle,
                        /// The order the master deals in (largest-first: Graham's LPT).
                        #[serde(default, skip_serializing_if = "DealOrder::is_in_order")]
                        order: DealOrder = DealOrder::InOrder => Order,
                    },
                }
                /// Hierarchical master–worker (paper 001 §14.3): the PEs in groups of `fanout`
                /// (0: ⌈√P⌉); PE 0, the overall master, deals bundles sized for a whole group to the
                /// first PE of every other group, a submaster, which deals them on in the bundles
                /// of the bundle rule to the workers of its group; PE 0 serves the workers of its
                /// own group directly.
                HierarchicalMasterWorker {
                    name: "hierarchical-master-worker",
                    kind: "Hierarchical master–worker: a master deals to submasters (paper 001 §14.3).",
                    runs: MasterWorker,
                    options: {
                        /// The number of jobs.
                        jobs: Jobs = Jobs::FromEstimates => Jobs,
                        /// The bundle rule of a worker's bundle (a submaster's is its group's).
                        bundle: BundleRule = BundleRule::Fixed(1) => Bundle,
                        /// The order the master deals in (largest-first: Graham's LPT).
                        order: DealOrder = DealOrder::InOrder => Order,
                        /// PEs per group, the submaster included (0: ⌈√P⌉).
                        fanout: u64 = 0 => Fanout,
                    },
                }
                /// Shared-memory master–worker (paper 001 §14.3): no master PE; an idle PE takes
                /// the job that a shared counter names and increments it (threads: one atomic
                /// fetch-and-add; simulator and MPI: a counter kept by PE 0, read over messages,
                /// T_count per increment in the simulator).
                SharedMemoryMasterWorker {
                    name: "shared-memory-master-worker",
                    kind: "Shared-memory master–worker: a shared counter names the next job (paper 001 §14.3).",
                    runs: SharedCounter,
                    options: {
                        /// The number of jobs.
                        jobs: Jobs = Jobs::FromEstimates => Jobs,
                    },
                }
                /// Prefix-sum assignment of jobs with estimated sizes (paper 001 §14.2).
                PrefixSum {
                    name: "prefix-sum",
                    kind: "Prefix-sum assignment of jobs with estimated sizes (paper 001 §14.2).",
                    runs: PrefixSum,
                    options: {
                        /// The number of jobs.
                        jobs: Jobs = Jobs::FromEstimates => Jobs,
                        /// Cut jobs between PEs (true) or keep them whole (false, the atomic
                        /// 2-approximation).
                        splittable: bool = true => Splittable,
                    },
                }
            }
        }
    };
}

pub(crate) use balancer_table;
