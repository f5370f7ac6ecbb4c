//! Paper 001 (Sanders, Mehlhorn, Dietzfelbinger, Dementiev, ch. 14 "Load Balancing"): the
//! catalogue of its claims. Table 14.1's four rows (the smallest total work reaching
//! T_par ≤ (1+ε)·T/p, swept over p and ε, exponents fitted: [`table`]); prefix sums (§14.2:
//! Exercises 14.2 and 14.3, Fig. 14.3 exactly: [`prefix`]); master–worker (§14.3: the
//! √(αm/t̂) bundle rule, Exercise 14.4's adaptive bundles answered, its balancing quality:
//! [`master`]); random mapping and random shift (Theorems 14.1 and 14.2: [`random`]); task
//! DAGs (§14.6: Theorem 14.3 and 2 − 1/p on the idealized greedy schedule, Fig. 14.7's
//! optima: [`dag`]). Independent jobs are [`jobs::JobList`] (m jobs of known sizes) and
//! [`jobs::SizedJobs`] (sizes given one by one). Every simulated experiment sets its machine
//! in full ([`table::table_sim`], [`table::latency_sim`], [`table::overhead_free_sim`]).

mod dag;
mod jobs;
mod master;
mod prefix;
mod random;
mod table;

use super::Experiment;
use table::{table_experiment, Algo, BundleKind};

/// Table 14.1's premises, shared by its four rows.
const TABLE_PREMISES: &str = "§14.1: identical PEs; m independent tasks \"fully characterized by their ID number\"; the distributed-memory model with a startup overhead α per message (\"treated as a variable\"); \"we also ignore the cost for collecting the result\"; T = Ω(…) is an asymptotic order with unknown constants (Exercise 14.1 derives it from §§14.2–14.5).";
/// The machine of the job experiments (`table::table_sim`).
const TABLE_MODEL: &str = "simulator: crossbar, latency T_rout = 10, sender and receiver each busy 5 per message (t_send + t_recv = T_rout: paper 000 §1.1's blocking messages; startup α = 20), T_split = 0, no random delay, message lengths not charged; jobs of 1..16 units (t̂ = 16, t̄ = 8.5); T_par read at the end of the last work unit.";
const TABLE_FAIL: &str = "Table 14.1 gives asymptotic orders with unknown constants and lower-order terms; over the p swept a log p factor and the t̂ term shift the local exponent, and the simulator's job sizes are uniform (t̂/t̄ < 2), far from the worst case the table covers.";

/// Paper 001's experiments.
pub(super) fn experiments() -> Vec<Experiment> {
    let mut all = table_rows();
    all.extend(sections());
    all.extend(dags());
    all
}

fn table_rows() -> Vec<Experiment> {
    vec![
        Experiment {
            id: "001-table-prefix-sum",
            source: "paper 001, Table 14.1 (prefix sum, §14.2)",
            claim: "Table 14.1: \"The second column shows the minimum required total work T = Σ_j t_j for the algorithm to guarantee T_par ≤ (1 + ε)T/p\"; prefix sum: T = Ω((p/ε)(t̂ + α log p)), \"known task sizes\".",
            premises: TABLE_PREMISES,
            model: TABLE_MODEL,
            inside: "Inside for the algorithm: sizes known exactly (exact estimates), jobs split anywhere (splittable assignment), the result's collection not counted, every PE's jobs for one destination in one message. Only partly for the order: p = 8…64 (quick) or 8…256 (full), ε = 0.5, 0.25 (quick) or down to 0.125 (full), t̂/t̄ fixed near 1.9: local exponents, not asymptotic ones.",
            criterion: "PASS iff the log-log exponent of p in the smallest T reaching the target is within ±0.5 of the exponent of the table's formula over the same p, AND the exponent of 1/ε at the largest p that reached every ε is within ±0.5 of the formula's (1); INCONCLUSIVE with fewer than 3 values of p reached or no p reaching every ε.",
            if_fail: TABLE_FAIL,
            run: |c| table_experiment(c, Algo::PrefixSum, true),
        },
        Experiment {
            id: "001-table-master-worker",
            source: "paper 001, Table 14.1 (master–worker, §14.3)",
            claim: "Table 14.1, master–worker: T = Ω((p/ε)·(αp/ε)·(t̂/t̄)), \"bundle size √(mα/t̂)\"; §14.1: \"It needs work quadratic in p\".",
            premises: TABLE_PREMISES,
            model: TABLE_MODEL,
            inside: "Inside with one reading: §14.3's master is \"dedicated\" and works no jobs, so no schedule beats T/(p−1); the target is therefore T_par ≤ (1+ε)·T/(p−1) (the table's T/p is out of reach for ε ≤ 1/(p−1)). Bundles √(αm/t̂) with α = 20, t̂ = 16. Only partly for the order: p ≤ 64 (quick) or 256 (full).",
            criterion: "PASS iff the exponent of p in the smallest T reaching T_par ≤ (1+ε)·T/(p−1) is within ±0.5 of the formula's; INCONCLUSIVE with fewer than 3 values of p reached.",
            if_fail: "The master's sending time grows as m/b·t_send while the table charges α per bundle; at small p the workers' round trips dominate. Besides, Table 14.1 gives orders with unknown constants and lower-order terms.",
            run: |c| table_experiment(c, Algo::MasterWorker(BundleKind::Sqrt), false),
        },
        Experiment {
            id: "001-table-random-static",
            source: "paper 001, Table 14.1 (randomized static, §14.4)",
            claim: "Table 14.1, randomized static: T = Ω((p/ε)·(log p/ε)·t̂), \"randomized\".",
            premises: TABLE_PREMISES,
            model: TABLE_MODEL,
            inside: "Inside for the algorithm: jobs placed by a pseudorandom (Feistel) permutation, as §14.4.1 implements it, not by independent random choices; T_par ≤ (1+ε)T/p required for every seed (2 quick, 4 full), a proxy for \"with high probability\". Only partly for the order: p ≤ 64/256; the exponent of 1/ε is measured, not judged.",
            criterion: "PASS iff the exponent of p in the smallest T reaching the target for every seed is within ±0.5 of the formula's; INCONCLUSIVE with fewer than 3 values of p reached.",
            if_fail: TABLE_FAIL,
            run: |c| table_experiment(c, Algo::RandomStatic, false),
        },
        Experiment {
            id: "001-table-work-stealing",
            source: "paper 001, Table 14.1 (work stealing, §14.5)",
            claim: "Table 14.1, work stealing: T = Ω((p/ε)(t̂ + α log p)), \"randomized\"; \"Work stealing comes within a constant factor of the gold standard in expectation\".",
            premises: TABLE_PREMISES,
            model: TABLE_MODEL,
            inside: "Partly: the table's entry comes from the synchronous random shift analysis (Theorem 14.2) applied to independent jobs; the experiment runs the asynchronous random polling of §14.5.2 on the job list (split by halving the job range), every seed (2 quick, 4 full) required to reach the target. The exponent of 1/ε is measured, not judged.",
            criterion: "PASS iff the exponent of p in the smallest T reaching the target for every seed is within ±0.5 of the formula's; INCONCLUSIVE with fewer than 3 values of p reached.",
            if_fail: TABLE_FAIL,
            run: |c| table_experiment(c, Algo::WorkStealing, false),
        },
    ]
}

fn sections() -> Vec<Experiment> {
    vec![
        Experiment {
            id: "001-thm14.1",
            source: "paper 001, Theorem 14.1 (first part)",
            claim: "Theorem 14.1: \"Suppose m independent tasks of size t_1, …, t_m are mapped to random PEs. […] Then the expected maximum load E[ℓ̂] of a PE is no worse than for the case where we randomly map ⌈T/t̂⌉ tasks of size t̂.\"",
            premises: "m independent tasks, each mapped to a PE chosen uniformly and independently at random; any task sizes; p identical PEs.",
            model: "scatter model (crates/lab/src/scatter/adversary.rs): the placement itself, loads counted exactly, no machine; Monte Carlo over 400 (quick) or 4000 (full) placements; sizes uniform from a hash.",
            inside: "Inside: random placement of independent tasks exactly as stated; E[ℓ̂] is estimated, so the comparison carries a sampling slack of 0.01.",
            criterion: "PASS iff the Monte Carlo mean of ℓ̂/(T/p) for uniform sizes is ≤ that of ⌈T/t̂⌉ unit jobs + 0.01 (sampling slack) for p ∈ {16, 64, 256} and T/t̂ ≈ 4p, 16p, 64p.",
            if_fail: "Monte Carlo noise beyond the slack of 0.01.",
            run: random::thm14_1,
        },
        Experiment {
            id: "001-thm14.1-eps",
            source: "paper 001, Theorem 14.1 (second part)",
            claim: "Theorem 14.1: \"In particular, for any constant ε > 0, E[ℓ̂] ≤ (1 + ε)T/p if T/t̂ ≥ (c/ε²)·p·log p for some appropriate constant c.\"",
            premises: "As the first part; ε a constant; c one constant for all ε.",
            model: "scatter model (the placement itself), Monte Carlo over 300 (quick) or 3000 (full) placements; unit jobs.",
            inside: "Inside: unit jobs are the worst case of the first part (T/t̂ = m); p = 64 and ε = 0.4, 0.2, 0.1. \"One constant\" is judged as a spread of at most 2.5 between the constants read off a √2 grid.",
            criterion: "PASS iff the smallest c on a √2 grid meeting E[ℓ̂] ≤ (1+ε)T/p (p = 64, unit jobs) differs by at most a factor 2.5 between ε = 0.4, 0.2 and 0.1.",
            if_fail: "At ε = 0.4 the needed T/t̂ is small and the Chernoff regime behind 1/ε² is not yet reached; the grid's √2 steps add rounding.",
            run: random::thm14_1_eps,
        },
        Experiment {
            id: "001-thm14.2",
            source: "paper 001, Theorem 14.2",
            claim: "Theorem 14.2: \"For h ≥ log p and any constant d > 0, the random shift algorithm has an execution time bounded by T_seq/p + (3ch + 3)Δ + t_atomic with probability at least 1 − p^(−d). Here, c = 2 + 2(d+1) ln 2.\"",
            premises: "§14.5.2: synchronized rounds of duration Δ \"large enough to allow sending a request, splitting a subproblem, and sending one piece back\"; an idle PE asks PE (i + k mod p) + 1 with one random k per round for all PEs; \"busy PEs that do not receive a request in a round are in no way delayed\"; a task tree of depth h ≥ log p whose atomic tasks take ≤ t_atomic.",
            model: "simulator, latency only: crossbar, T_rout = 10, no sender or receiver overhead, T_split = 5, no delay; synthetic α = 0.5 random-split tree of W = 2048·P units; Δ = 50, Δt = 8.",
            inside: "Mostly inside: Δ = 50 covers a request (10), a split (5) and the answer (10); h = log₂ W ≥ log p; d = 1. Outside in one point: a PE that serves a request spends T_split inside its round, which the theorem's busy PEs do not.",
            criterion: "PASS iff the number of runs above the bound (d = 1) is at most ⌊Σ runs/P⌋, the number the probability allows (simulator, seeds 1…8 quick, 1…40 full).",
            if_fail: "The theorem assumes busy PEs are not delayed by requests and that Δ covers request, split and answer; the simulator charges T_split and message latencies inside rounds.",
            run: random::thm14_2,
        },
        Experiment {
            id: "001-ex14.2",
            source: "paper 001, Exercise 14.2",
            claim: "Exercise 14.2: \"Show that task j is split into at most ⌈t_j/s⌉ + 1 pieces.\"",
            premises: "§14.2: splittable tasks with known integer sizes t_j, split at integer positions; s = ⌈T/p⌉; PE i responsible for the unit intervals (i−1)s+1 … is.",
            model: TABLE_MODEL,
            inside: "Inside: exact sizes, the splittable prefix-sum assignment; pieces counted as the PEs worked them (5 instances, p 4…64, t̂ 3…1000).",
            criterion: "PASS iff no job of any instance (5 instances, p 4…64) is worked in more pieces than ⌈t_j/s⌉ + 1.",
            if_fail: "A bug in the splittable prefix-sum protocol.",
            run: prefix::ex14_2,
        },
        Experiment {
            id: "001-ex14.3",
            source: "paper 001, Exercise 14.3 and §14.2 (atomic tasks)",
            claim: "§14.2: \"prefix-sum-based assignment represents a two-approximation algorithm for the problem of assigning tasks to identical PEs\"; Exercise 14.3 (a): \"ℓ̂ ≤ s + t̂ for the prefix-sum-based algorithm\".",
            premises: "Atomic tasks with known sizes; task j goes whole to PE ⌊T_j/s⌋ + 1; identical PEs; (b) ℓ̂ ≥ t̂ and (c) ℓ̂ ≥ s for any schedule make s + t̂ ≤ 2·optimum.",
            model: TABLE_MODEL,
            inside: "Inside: exact sizes, the atomic prefix-sum assignment run by the simulator's balancer; loads are the PEs' work units.",
            criterion: "PASS iff ℓ̂ ≤ ⌈T/p⌉ + t̂ in every instance.",
            if_fail: "A bug in the atomic prefix-sum protocol.",
            run: prefix::ex14_3,
        },
        Experiment {
            id: "001-fig14.3",
            source: "paper 001, Fig. 14.3 (§14.2)",
            claim: "Fig. 14.3: \"Assigning 9 tasks to 4 PEs. We have T = 28 and s = 28/4 = 7. […] Top: optimal, with ℓ̂ = 7. Middle: using prefix sums assuming jobs can be split, ℓ̂ = 7. Bottom: using prefix sums and rounding, ℓ̂ = 9. Note that the first three jobs are assigned to PE 1 since ⌊T_3/s⌋ + 1 = ⌊5/7⌋ + 1 = 1.\"",
            premises: "Nine tasks of known integer sizes summing to 28, four identical PEs, s = ⌈T/p⌉; splittable and atomic prefix-sum assignment as §14.2 defines them.",
            model: "exact: the optimum by exhaustive search over the 4^9 assignments; the two prefix-sum assignments run by the simulator's prefix-sum balancer on the table's machine (loads are work units, independent of the costs); the rule ⌊T_j/s⌋ + 1 by hand beside them.",
            inside: "Inside, with one assumption: the sizes are drawn in the figure and not printed; the experiment uses (2, 3, 2, 3, 4, 5, 4, 1, 4), which satisfy every number the caption states (T = 28, T_3 = 5, the three ℓ̂).",
            criterion: "PASS iff T = 28, s = 7, T_3 = 5, jobs 1–3 go to PE 1 and job 4 to PE 2, the optimum is 7, the splittable run's ℓ̂ is 7 and the atomic run's ℓ̂ is 9 with exactly the per-PE loads of the rule ⌊T_j/s⌋ + 1.",
            if_fail: "A bug in the prefix-sum protocol (the numbers are exact).",
            run: prefix::fig14_3,
        },
        Experiment {
            id: "001-mw-quality",
            source: "paper 001, §14.3 (master–worker's balance)",
            claim: "§14.3: \"even without knowing the task sizes, good load balance is achieved – disregarding the scheduling overhead, one will get the same balancing quality as with the prefix-sum-based algorithm presented in the previous section.\"",
            premises: "A dedicated master deals out one task per request to idle workers; task sizes unknown to it; the scheduling overhead disregarded.",
            model: "simulator with (almost) no scheduling overhead: crossbar, T_rout = 1 (the least allowed), no sender or receiver overhead, T_split = 0; master–worker with bundles of one job; jobs of 1..t̂ units.",
            inside: "Inside as far as the simulator allows: the overhead is one unit of latency per message, not zero, so the jobs are made large against it (t̂ = 100 or 1000, a round trip of 2 against a mean job of 50 or 500). With jobs of 1..16 units a round trip is a quarter of a job and the claim's premise fails: at p = 256, m = 2^16, t̂ = 16 a worker's load reached 2,235 against s + t̂ = 2,205, because workers with smaller jobs spend more of their time on requests. \"The same quality\" is read as Exercise 14.3 (a)'s bound ℓ̂ ≤ s + t̂ for the p − 1 PEs that work; the atomic prefix-sum assignment on p − 1 PEs is shown beside it.",
            criterion: "PASS iff the workers' largest load is ≤ ⌈T/(p−1)⌉ + t̂ in every instance (4 quick, 7 full; p 4…256).",
            if_fail: "Latency lets a worker that asked later be served first; over many jobs that can shift a load beyond the bound.",
            run: master::mw_quality,
        },
        Experiment {
            id: "001-mw-bundle",
            source: "paper 001, §14.3 (bundle size)",
            claim: "§14.3: \"The master has to spend time ≥ αm/b on sending out task bundles. The last bundle sent out might incur work b·t̂. Hence the parallel execution time is at least αm/b + b·t̂. Using calculus, we can determine the optimal bundle size as b = √(αm/t̂).\"",
            premises: "A fixed bundle size b, small task descriptions, a dedicated master; the execution time modelled as αm/b + b·t̂ (a lower bound that ignores everything else).",
            model: TABLE_MODEL,
            inside: "Partly: the simulated master is busy t_send = 5 per bundle, not α = 20 (the latency overlaps with its other sends), so αm/b overstates its time; the claim is judged on T_par, of which αm/b + b·t̂ is the model's bound, at p = 16.",
            criterion: "PASS iff T_par with the √ rule is at most 1.2× the best of the fixed sizes 1, 2, 4, …, 1024 (p = 16).",
            if_fail: "The model αm/b + bt̂ ignores that workers overlap receiving with working; the best fixed size can then be far from √(αm/t̂).",
            run: master::mw_bundle,
        },
        Experiment {
            id: "001-ex14.4",
            source: "paper 001, Exercise 14.4",
            claim: "Exercise 14.4: \"Investigate whether using this strategy can improve the scalability of the master–worker scheme shown in Table 14.1 so that the factor 1/ε² is replaced by (1/ε) log(1/ε).\" The strategy (§14.3): \"try constructing a bundle involving total work W/(pC) + W_min where W is an estimate of the total work not yet handed out\".",
            premises: "Master–worker with a dedicated master and Table 14.1's target T_par ≤ (1+ε)·T/p; work estimates available (here exact); C and W_min tuning parameters.",
            model: TABLE_MODEL,
            inside: "Inside with the master–worker reading of the target, T_par ≤ (1+ε)·T/(p−1) (the master works no jobs); p = 16; ε = 0.4, 0.2, 0.1 (quick) and 0.05 (full); C = 2, W_min = 16 (= t̂).",
            criterion: "ANSWER (a question, not a pass or a fail): the smallest T over ε for the √ rule and the adaptive rule, the exponent of 1/ε, and the RMS of the log residuals of the fits T = a/ε² and T = a·(1/ε)·ln(1/ε). The answer is \"yes\" iff for the adaptive rule (1/ε)·ln(1/ε) fits better than 1/ε² and its exponent is at least 0.3 below the √ rule's; else \"no\". INCONCLUSIVE if a rule reaches the target for fewer than three ε.",
            if_fail: "—",
            run: master::ex14_4,
        },
    ]
}

fn dags() -> Vec<Experiment> {
    const PREMISES: &str = "§14.6: a task DAG with execution times t_v; a feasible schedule runs no two tasks at once on a PE and no task before its predecessors finish; data flow and communication disregarded; identical PEs.";
    const MODEL: &str = "the idealized greedy list schedule, computed exactly (integer event times, crates/lab/src/reproduce/p001/dag.rs): no latency, no scheduling cost; a free PE takes a ready task in one of four orders (FIFO, critical path first, shortest path first, random).";
    vec![
        Experiment {
            id: "001-thm14.3",
            source: "paper 001, Theorem 14.3",
            claim: "Theorem 14.3: \"Consider any schedule that never leaves a PE idle when a task is ready for execution. Then its makespan is at most the average work plus the critical path length. This is a two-approximation of the optimal schedule.\"",
            premises: PREMISES,
            model: MODEL,
            inside: "Inside: every schedule judged never leaves a PE idle while a task is ready (by construction) and pays no communication, as the theorem assumes. DAGs: recursive multiplication K = 1…3 (quick) or 1…5 (full), random layered DAGs of 2,000 (quick) or 20,000 (full) tasks, Graham's instance; p = 2…64. The simulator's DAG schedulers, which pay message latencies, lie outside the premises and are not judged here.",
            criterion: "PASS iff every greedy schedule (4 orders × every DAG × p ∈ {2, 3, 4, 8, 16, 64}) has makespan ≤ W/p + critical path.",
            if_fail: "A bug in the greedy schedule (the theorem is exact under its premises).",
            run: dag::thm14_3,
        },
        Experiment {
            id: "001-thm14.3-ratio",
            source: "paper 001, §14.6 (after Theorem 14.3)",
            claim: "§14.6: \"A more careful analysis yields an approximation ratio of 2 − 1/p. Improving upon this seems difficult.\"",
            premises: PREMISES,
            model: "as Theorem 14.3's experiment; optima of small DAGs by exhaustive branch and bound (treesplit_apps::optimal_schedule).",
            inside: "Inside: idealized greedy schedules only. Ratios to the exact optimum on small random DAGs (8–12 tasks, p = 2, 3); on the large DAGs, whose optimum is unknown, Graham's bound W/p + (1 − 1/p)·critical path, which gives 2 − 1/p against the lower bound max(W/p, critical path); Graham's instance (p(p−1) unit tasks and one of length p) shows the ratio is attained.",
            criterion: "PASS iff (i) every greedy makespan on the large DAGs is ≤ W/p + (1 − 1/p)·critical path, (ii) every greedy makespan on the small DAGs is ≤ (2 − 1/p)·optimum, and (iii) on Graham's instance for p = 2, 3, 4, 8 the greedy order that runs the long task last attains exactly (2 − 1/p)·optimum.",
            if_fail: "A bug in the greedy schedule or the optimum (the bound is exact).",
            run: dag::thm14_3_ratio,
        },
        Experiment {
            id: "001-fig14.7",
            source: "paper 001, Fig. 14.7 (§14.6)",
            claim: "Fig. 14.7: \"Two optimal schedules for the recursive multiplication algorithm of Sect. 1.4 for two-digit numbers. One schedule is for two PEs and the other for three PEs. It is assumed that a recursive call and an addition/shift cost 2 units of time while a multiplication costs 3 units. The thick edges indicate the critical paths (of length 11).\"",
            premises: "The DAG of Sect. 1.4's recursive multiplication of two-digit numbers; costs 2 (call, add/shift) and 3 (one-digit product); no communication.",
            model: "exact: the optimum by exhaustive branch and bound (treesplit_apps::optimal_schedule), the idealized greedy schedule beside it.",
            inside: "Inside, with one assumption: the DAG's shape — a call, four one-digit products, a chain of three add/shifts (a₁b₀ + a₀b₁, then + a₁b₁·B, then + a₀b₀) — is our reading of Sect. 1.4 (not in this chapter's text); it gives the caption's critical path 11. The figure draws its two schedules; the text prints no makespan for them.",
            criterion: "PASS iff the DAG has 8 tasks, W = 20 and critical path 11, the optimum on 3 PEs is 11 (the critical path), the optimum on 2 PEs is 12, and the critical-path-first greedy schedule attains both optima.",
            if_fail: "A bug in the DAG or the search (the numbers are exact).",
            run: dag::fig14_7,
        },
    ]
}
