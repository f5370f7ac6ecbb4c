//! Paper 001 (Sanders, Mehlhorn, Dietzfelbinger, Dementiev, ch. 14 "Load Balancing"): the catalogue
//! of its claims. Table 14.1's four rows (the smallest total work reaching T_par ≤ (1+ε)·T/p, swept
//! over p and ε, exponents fitted: [`table`]); prefix sums (§14.2: Exercise 14.3; Exercise 14.2 and
//! Fig. 14.3, exact, as unit tests: [`prefix`]); master–worker (§14.3: the √(αm/t̂) bundle rule,
//! Exercise 14.4's adaptive bundles answered, its balancing quality: [`master`]; large tasks
//! first against Graham's 4/3: [`lpt`]; the hierarchical scheme: [`variants`]); work stealing
//! within a constant factor of prefix sum (the two rows' ratio: [`table`]); random mapping
//! and random shift (Theorems 14.1 and 14.2: [`random`]); Fig. 14.5's decompositions of the
//! Mandelbrot grid ([`mandel`]); task DAGs (§14.6: Theorem 14.3 and 2 −
//! 1/p on the idealized greedy schedule; Fig. 14.7's optima, exact, as a unit test: [`dag`]).
//! Remarks on when a scheme works (randomized static for fine tasks, master–worker's startup,
//! Exercise 14.7's fast initialization: [`schemes`]); the random-permutation mapping and
//! Exercise 14.3 (d) ([`mapping`]); the prefix sum's and double counting's O(α log p)
//! ([`overheads`]).
//! Independent jobs are [`jobs::JobList`] (m jobs of known sizes) and [`jobs::SizedJobs`] (sizes
//! given one by one). Every simulated experiment sets its machine in full ([`table::table_sim`],
//! [`table::latency_sim`], [`table::overhead_free_sim`]).

mod dag;
mod jobs;
mod lpt;
mod mandel;
mod mapping;
mod master;
mod overheads;
mod prefix;
mod random;
mod schemes;
mod table;
mod variants;

use super::Experiment;
use table::{ratio_experiment, table_experiment, Algo, BundleKind};

/// Master–worker with the √(αm/t̂) bundle rule.
const MW: Algo = Algo::MasterWorker(BundleKind::Sqrt);

/// Paper 001's experiments.
pub(super) fn experiments() -> Vec<Experiment> {
    let mut all = table_rows();
    all.extend(sections());
    all.extend(dags());
    all
}

fn table_rows() -> Vec<Experiment> {
    vec![
        claim!("p001", "001-table-prefix-sum", |c| table_experiment(
            c,
            Algo::PrefixSum,
            MW
        )),
        claim!("p001", "001-table-master-worker", |c| table_experiment(
            c,
            MW,
            Algo::PrefixSum
        )),
        claim!("p001", "001-table-random-static", |c| table_experiment(
            c,
            Algo::RandomStatic,
            Algo::PrefixSum
        )),
        claim!("p001", "001-table-work-stealing", |c| table_experiment(
            c,
            Algo::WorkStealing,
            MW
        )),
        claim!("p001", "001-ws-vs-prefix-sum", |c| ratio_experiment(
            c,
            Algo::WorkStealing,
            MW
        )),
    ]
}

fn sections() -> Vec<Experiment> {
    vec![
        claim!("p001", "001-thm14.1", random::thm14_1),
        claim!("p001", "001-thm14.1-eps", random::thm14_1_eps),
        claim!("p001", "001-fig14.5", mandel::fig14_5),
        claim!("p001", "001-thm14.2", random::thm14_2),
        claim!("p001", "001-ex14.3", prefix::ex14_3),
        claim!("p001", "001-ex14.3d", mapping::ex14_3d),
        claim!("p001", "001-prefix-time", overheads::prefix_time),
        claim!(
            "p001",
            "001-random-permutation",
            mapping::random_permutation
        ),
        claim!("p001", "001-rs-fine-grained", schemes::rs_fine),
        claim!("p001", "001-mw-startup", schemes::mw_startup),
        claim!("p001", "001-ex14.7", schemes::ex14_7),
        claim!("p001", "001-double-counting", overheads::double_counting),
        claim!("p001", "001-mw-quality", master::mw_quality),
        claim!("p001", "001-mw-bundle", master::mw_bundle),
        claim!("p001", "001-ex14.4", master::ex14_4),
        claim!("p001", "001-mw-largest-first", lpt::largest_first),
        claim!("p001", "001-mw-hierarchical", variants::hierarchical),
    ]
}

fn dags() -> Vec<Experiment> {
    vec![
        claim!("p001", "001-thm14.3", dag::thm14_3),
        claim!("p001", "001-thm14.3-ratio", dag::thm14_3_ratio),
    ]
}
