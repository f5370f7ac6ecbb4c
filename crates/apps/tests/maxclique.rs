//! Maximum clique against an independent solver: ω of G(n, p) graphs (n up to 200, p up to
//! 0.9) from a Bron–Kerbosch enumeration of maximal cliques written here, compared with the
//! searches run sequentially (the hand-written task with and without Re-NUMBER, the skeleton
//! version, the MCQ peer) and with the task and the skeleton version on every balancer on
//! threads and in the simulator; and ω of the DIMACS graphs of the shared data set (where the
//! checkout has it) against the clique numbers its index.tsv publishes, on every balancer. The
//! witness is checked to be a clique of the graph every time.

use std::time::Duration;
use treesplit::machine::sim::Topology;
use treesplit::task::shared::Shared;
use treesplit::{run, run_sequential, simulate, BalancerKind, Config, Jobs, SimConfig, Task};
use treesplit_apps::maxclique::{app::published_omega, mcq, search, Clique, Graph, MaxClique};
use treesplit_testkit::support::within;

/// ω by Bron–Kerbosch with Tomita's pivot (the pivot of P ∪ X with most neighbours in P),
/// on adjacency sets of the graph's DIMACS form: independent of the search's bitsets,
/// colouring and vertex order.
fn bron_kerbosch_omega(graph: &Graph) -> usize {
    let n = graph.len();
    let mut adj = vec![std::collections::BTreeSet::new(); n + 1];
    for line in graph.to_dimacs().lines().filter(|l| l.starts_with("e ")) {
        let w: Vec<usize> = line[2..].split(' ').map(|x| x.parse().unwrap()).collect();
        adj[w[0]].insert(w[1]);
        adj[w[1]].insert(w[0]);
    }
    fn expand(
        adj: &[std::collections::BTreeSet<usize>],
        r: usize,
        p: Vec<usize>,
        mut x: Vec<usize>,
        best: &mut usize,
    ) {
        if p.is_empty() {
            if x.is_empty() {
                *best = (*best).max(r);
            }
            return;
        }
        if r + p.len() <= *best {
            return;
        }
        let pivot = *p
            .iter()
            .chain(&x)
            .max_by_key(|&&u| p.iter().filter(|&&v| adj[u].contains(&v)).count())
            .unwrap();
        let candidates: Vec<usize> = p
            .iter()
            .copied()
            .filter(|v| !adj[pivot].contains(v))
            .collect();
        let mut p = p;
        for v in candidates {
            let np = p.iter().copied().filter(|u| adj[v].contains(u)).collect();
            let nx = x.iter().copied().filter(|u| adj[v].contains(u)).collect();
            expand(adj, r + 1, np, nx, best);
            p.retain(|&u| u != v);
            x.push(v);
        }
    }
    let mut best = 0;
    expand(&adj, 0, (1..=n).collect(), vec![], &mut best);
    best
}

/// The graphs: sparse to dense, up to 200 vertices, small enough for Bron–Kerbosch in a
/// test build.
const GRAPHS: &[(usize, f64, u64)] = &[
    (200, 0.1, 1),
    (200, 0.3, 2),
    (120, 0.5, 3),
    (60, 0.7, 4),
    (40, 0.9, 5),
];

fn check(graph: &Graph, found: &Clique, omega: usize, what: &str) {
    assert_eq!(found.omega as usize, omega, "{what}: {found}");
    assert_eq!(found.clique.len(), omega, "{what}: {found}");
    assert!(
        graph.is_clique(&found.clique),
        "{what}: not a clique: {found}"
    );
}

#[test]
fn omega_matches_bron_kerbosch_sequentially() {
    for &(n, p, seed) in GRAPHS {
        let graph = Shared::new(Graph::random(n, p, seed).unwrap());
        let omega = bron_kerbosch_omega(&graph);
        let found = run_sequential(search(graph.clone())).output;
        check(&graph, &found, omega, &format!("G({n}, {p}) seed {seed}"));
        let by_hand = run_sequential(MaxClique::new(graph.clone())).output;
        check(
            &graph,
            &by_hand,
            omega,
            &format!("G({n}, {p}) seed {seed}, hand-written"),
        );
        let greedy = run_sequential(MaxClique::with_renumber(graph.clone(), false)).output;
        check(
            &graph,
            &greedy,
            omega,
            &format!("G({n}, {p}) seed {seed}, without Re-NUMBER"),
        );
        let (peer, _) = mcq::solve(&graph);
        check(
            &graph,
            &peer,
            omega,
            &format!("G({n}, {p}) seed {seed}, MCQ"),
        );
    }
}

/// `make()`'s search on every balancer, on 2 and 3 threads and in the simulator, each checked
/// to find a clique of `omega` vertices.
fn on_every_balancer<T: Task<Output = Clique>>(
    graph: &Graph,
    make: impl Fn() -> T,
    omega: usize,
    seed: u64,
    what: &str,
) {
    for &balancer in BalancerKind::ALL {
        for pes in [2, 3] {
            let cfg = Config::new(pes)
                .balancer(treesplit::Balancer::new(balancer).with_jobs(Jobs::Depth(4)))
                .delta_t(8)
                .seed(seed + pes as u64);
            let root = make();
            let r = within(Duration::from_secs(120), move || {
                run(root, &cfg).expect("thread run").into_report()
            });
            check(
                graph,
                &r.output,
                omega,
                &format!("{what} {balancer} threads P={pes}"),
            );
        }
        let (pes, topology) = if balancer == BalancerKind::PollAndShuffle {
            (16, Topology::Hypercube)
        } else {
            (24, Topology::Mesh2d)
        };
        let cfg = Config::new(pes)
            .balancer(treesplit::Balancer::new(balancer).with_jobs(Jobs::Depth(5)))
            .delta_t(4)
            .seed(seed);
        let sim = SimConfig {
            topology,
            ..SimConfig::default()
        };
        let s = simulate(make(), &cfg, &sim)
            .expect("simulation")
            .into_report();
        check(
            graph,
            &s.report.output,
            omega,
            &format!("{what} {balancer} sim P={pes}"),
        );
    }
}

#[test]
fn dimacs_graphs_have_their_published_clique_numbers_on_every_balancer() {
    let dir = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/dimacs"
    ));
    if !dir.join("index.tsv").exists() {
        eprintln!("{}: no DIMACS set here, skipped", dir.display());
        return;
    }
    // The graphs of the set that a test build searches in well under a second.
    for name in ["brock200_2", "keller4", "san200_0.7_2", "p_hat300-1"] {
        let path = dir.join(format!("{name}.clq"));
        let graph = Shared::new(Graph::read(&path).unwrap());
        let (omega, _) = published_omega(&path, &graph)
            .unwrap()
            .unwrap_or_else(|| panic!("index.tsv lists {name}"));
        let omega = omega as usize;
        let seq = run_sequential(MaxClique::new(graph.clone())).output;
        check(&graph, &seq, omega, &format!("{name} sequential"));
        let (peer, _) = mcq::solve(&graph);
        check(&graph, &peer, omega, &format!("{name} MCQ"));
        on_every_balancer(&graph, || MaxClique::new(graph.clone()), omega, 1, name);
    }
}

#[test]
fn omega_matches_bron_kerbosch_on_every_balancer_on_threads_and_in_the_simulator() {
    for &(n, p, seed) in GRAPHS {
        let graph = Shared::new(Graph::random(n, p, seed).unwrap());
        let omega = bron_kerbosch_omega(&graph);
        let what = format!("G({n}, {p})");
        on_every_balancer(&graph, || search(graph.clone()), omega, seed, &what);
        let what = format!("G({n}, {p}) hand-written");
        on_every_balancer(&graph, || MaxClique::new(graph.clone()), omega, seed, &what);
    }
}

#[test]
fn bron_kerbosch_knows_small_clique_numbers() {
    // The test's own solver on graphs whose ω is known by construction.
    assert_eq!(bron_kerbosch_omega(&Graph::random(15, 1.0, 1).unwrap()), 15);
    assert_eq!(bron_kerbosch_omega(&Graph::random(15, 0.0, 1).unwrap()), 1);
    let g = Graph::parse_dimacs(
        "p edge 6 7\ne 1 2\ne 2 3\ne 3 1\ne 3 4\ne 4 5\ne 5 6\ne 6 4\n",
        "t",
    )
    .unwrap();
    assert_eq!(bron_kerbosch_omega(&g), 3);
}
