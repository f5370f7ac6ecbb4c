//! The chapter's examples (paper 001 §14.1.2, §14.1.3, §14.5.4; paper 000 §1) on every
//! balancer, on threads and in the simulator: Mandelbrot counts equal hard-coded values
//! computed independently (Python, same f64 arithmetic) and a plain double loop written
//! here; integrals lie within the tolerance of their closed forms and are bit-identical to
//! the sequential run; BFS distances equal an independent queue BFS written here.

use std::collections::VecDeque;
use std::sync::Arc;
use treesplit::{run, run_sequential, simulate, Balancer, BalancerKind, Config, Jobs, SimConfig};
use treesplit_apps::bfs::{level_bfs, Graph, LevelPiece, UNREACHED};
use treesplit_apps::integrate::{Integrand, Integrate, IntegrateParams};
use treesplit_apps::mandelbrot::{MandelParams, Mandelbrot};

/// Every balancer, static ones with 2^h jobs.
fn configs(p: usize, h: u32) -> Vec<Config> {
    BalancerKind::ALL
        .iter()
        .map(|&b| {
            Config::new(p)
                .balancer(Balancer::new(b).with_jobs(Jobs::Depth(h)))
                .delta_t(64)
                .seed(p as u64 + 7)
        })
        .collect()
}

fn mandel(n: u64, z0_re: f64, z0_im: f64, a0: f64, max_iter: u64) -> MandelParams {
    MandelParams {
        n,
        z0_re,
        z0_im,
        a0,
        max_iter,
    }
}

/// (params, in_set, iterations) computed by a Python loop with the same arithmetic order.
fn known() -> Vec<(MandelParams, u64, u64)> {
    vec![
        (mandel(64, -2.0, -1.25, 2.5, 200), 1008, 220_736),
        (mandel(50, -0.75, 0.1, 0.05, 500), 2006, 1_054_079),
        (mandel(7, -2.0, -2.0, 4.0, 1), 32, 49),
        (mandel(100, -1.5, -1.0, 2.0, 1000), 3769, 3_838_632),
    ]
}

/// The straightforward loop, written here independently of the application.
fn mandel_loop(p: &MandelParams) -> (u64, u64) {
    let (mut in_set, mut iterations) = (0, 0);
    for k in 0..p.n {
        for j in 0..p.n {
            let cr = p.z0_re + (j as f64 * p.a0) / p.n as f64;
            let ci = p.z0_im + (k as f64 * p.a0) / p.n as f64;
            let (mut x, mut y, mut t) = (0.0f64, 0.0f64, 0);
            let mut escaped = false;
            while t < p.max_iter {
                t += 1;
                let xn = x * x - y * y + cr;
                y = 2.0 * x * y + ci;
                x = xn;
                if x * x + y * y > 4.0 {
                    escaped = true;
                    break;
                }
            }
            iterations += t;
            in_set += u64::from(!escaped);
        }
    }
    (in_set, iterations)
}

#[test]
fn mandelbrot_counts_on_every_balancer_threads_and_sim() {
    for (params, in_set, iterations) in known() {
        assert_eq!(mandel_loop(&params), (in_set, iterations), "{params:?}");
        let root = || Mandelbrot::new(params).unwrap();
        let s = run_sequential(root());
        assert_eq!((s.output.in_set, s.output.iterations), (in_set, iterations));
        assert_eq!(s.work_units, iterations, "a step is a unit");
        for p in [3, 8] {
            for cfg in configs(p, 5) {
                let r = run(root(), &cfg)
                    .unwrap_or_else(|e| panic!("{cfg:?}: {e}"))
                    .into_report();
                assert_eq!(r.output, s.output, "threads {:?}", cfg.balancer);
                assert_eq!(r.totals.work_units, iterations);
            }
        }
        for p in [8, 64] {
            for cfg in configs(p, 8) {
                let r = simulate(root(), &cfg, &SimConfig::default())
                    .unwrap()
                    .into_report();
                assert_eq!(r.report.output, s.output, "sim P = {p} {:?}", cfg.balancer);
                assert_eq!(r.report.totals.work_units, iterations);
            }
        }
    }
}

#[test]
fn integrals_within_tolerance_and_bit_identical_everywhere() {
    for f in [Integrand::Pi, Integrand::Osc, Integrand::Sing] {
        for (tol, pieces) in [(1e-8, 1), (1e-11, 64)] {
            let params = IntegrateParams { f, tol, pieces };
            let root = || Integrate::new(params).unwrap();
            let s = run_sequential(root());
            let v = s.output.value();
            assert!((v - f.exact()).abs() <= tol, "{f:?} {tol}: {v}");
            assert!(s.output.leaves > 1);
            for cfg in configs(4, 6) {
                let r = run(root(), &cfg).unwrap().into_report();
                assert_eq!(r.output, s.output, "threads {:?}", cfg.balancer);
                assert_eq!(r.output.value().to_bits(), v.to_bits());
                assert_eq!(r.totals.work_units, s.work_units);
            }
            for p in [8, 64] {
                for cfg in configs(p, 8) {
                    let r = simulate(root(), &cfg, &SimConfig::default())
                        .unwrap()
                        .into_report();
                    assert_eq!(r.report.output.value().to_bits(), v.to_bits());
                    assert_eq!(r.report.output.leaves, s.output.leaves);
                    assert_eq!(r.report.totals.work_units, s.work_units);
                }
            }
        }
    }
}

/// An independent queue BFS over an adjacency built here from the edge list.
fn reference_bfs(n: usize, edges: &[(u32, u32)], source: u32) -> Vec<u32> {
    let mut adj = vec![vec![]; n];
    for &(u, v) in edges {
        adj[u as usize].push(v);
        adj[v as usize].push(u);
    }
    let mut dist = vec![UNREACHED; n];
    dist[source as usize] = 0;
    let mut q = VecDeque::from([source]);
    while let Some(u) = q.pop_front() {
        for &w in &adj[u as usize] {
            if dist[w as usize] == UNREACHED {
                dist[w as usize] = dist[u as usize] + 1;
                q.push_back(w);
            }
        }
    }
    dist
}

#[test]
fn bfs_distances_equal_a_queue_bfs_on_every_balancer() {
    // A star (one vertex of degree 3000, split between PEs), a path, a grid and a cycle.
    let mut edges = vec![];
    for i in 1..3000 {
        edges.push((0, i));
    }
    for i in 3000..3400 {
        edges.push((i - 1, i));
    }
    for r in 0..30u32 {
        for c in 0..30u32 {
            let v = 3400 + r * 30 + c;
            if c > 0 {
                edges.push((v - 1, v));
            }
            if r > 0 {
                edges.push((v - 30, v));
            }
        }
    }
    edges.push((3399, 3400));
    edges.push((4299, 17));
    edges.push((4400, 4401)); // unreachable
    let text: String = edges.iter().map(|(u, v)| format!("{u}\t{v}\n")).collect();
    let g = Arc::new(Graph::parse(&format!("# test\n{text}"), "test").unwrap());
    let rmat = Arc::new(Graph::rmat(11, 8, 5).unwrap());
    let rmat_edges: Vec<(u32, u32)> = (0..rmat.vertices() as u32)
        .flat_map(|v| rmat.neighbours(v).iter().map(move |&w| (v, w)))
        .collect();
    for (graph, edges, source) in [(&g, &edges, 3100), (&rmat, &rmat_edges, 1)] {
        let want = reference_bfs(graph.vertices(), edges, source);
        for (p, sim) in [(3, false), (8, true), (64, true)] {
            for cfg in configs(p, 7) {
                let got = level_bfs::<String>(
                    graph,
                    source,
                    (p as u64) << 40,
                    |key| {
                        let root = LevelPiece::root(key);
                        let out = if sim {
                            simulate(root, &cfg, &SimConfig::default())
                                .map_err(|e| e.to_string())?
                                .into_report()
                                .report
                                .output
                        } else {
                            run(root, &cfg)
                                .map_err(|e| e.to_string())?
                                .into_report()
                                .output
                        };
                        Ok(Some(out))
                    },
                    |_| {},
                )
                .unwrap();
                assert_eq!(got, want, "P = {p} sim {sim} {:?}", cfg.balancer);
            }
        }
    }
}
