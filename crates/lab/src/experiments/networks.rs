//! Paper 002 §4: poll-and-shuffle on meshes, hypercubes and fat trees against
//! random polling, in the simulator with T_rout = T_hop = 10, T_split = 5, Δt = 10 (the
//! `treesplit sim` defaults). One [`Row`] per (network, P, algorithm, application): T_par,
//! T_seq/P and the lower-order term T_par − T_seq/P that Theorems 1, 3 and 4 bound
//! (Õ(h), Õ(h·P^{1/r}/log P), Õ(h·√log P); random polling Õ(h·log P) on a hypercube).
//! [`fit_exponent`] fits y ∝ x^e on a log-log scale.

use std::fmt::{Debug, Display};
use treesplit::config::PermutationKind;
use treesplit::machine::sim::embedding::{self, Embedding, DEFAULT_PHASE_C};
use treesplit::machine::sim::{MessageModel, Topology};
use treesplit::{simulate, Balancer, BalancerKind, Config, PollingOptions, SimConfig, Task};
use treesplit_apps::spec::{AppVisitor, Objective, Published};
use treesplit_apps::AppSpec;

/// T_rout = T_hop of the sweeps.
pub const T_ROUT: u64 = 10;
/// T_split of the sweeps.
pub const T_SPLIT: u64 = 5;
/// Δt of the sweeps (the simulator's default, T_rout).
pub const DELTA_T: u64 = 10;

/// The algorithms compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    /// Poll-and-shuffle with the network's embedding and its default phase (paper 002 §4).
    PollAndShuffle,
    /// Poll-and-shuffle without the network's embedding: row-major labels, every phase, a
    /// round of 2·T_rout + T_split + Δt.
    RowMajor,
    /// Asynchronous random polling (paper 000).
    RandomPolling,
}

impl Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Algorithm::PollAndShuffle => "poll-and-shuffle",
            Algorithm::RowMajor => "p&s-row-major",
            Algorithm::RandomPolling => "random-polling",
        })
    }
}

/// One measured run.
#[derive(Debug, Clone)]
pub struct Row {
    /// The network.
    pub network: Topology,
    /// P.
    pub pes: usize,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The application's name.
    pub app: String,
    /// The phase length (poll-and-shuffle) used.
    pub round: Option<u64>,
    /// Phases per cycle (poll-and-shuffle).
    pub phases: Option<u64>,
    /// Virtual T_par.
    pub t_par: u64,
    /// T_seq / P.
    pub t_seq_over_p: f64,
    /// T_par − T_seq/P.
    pub lower_order: f64,
    /// Efficiency T_seq / (P·T_par).
    pub efficiency: f64,
    /// The splitting depth h reached.
    pub h: u32,
    /// Real seconds the simulation took.
    pub wall_seconds: f64,
}

impl Row {
    /// A tab-separated line (network, P, algorithm, app, round, phases, T_par, T_seq/P,
    /// lower-order, efficiency, h).
    pub fn tsv(&self) -> String {
        let opt = |o: Option<u64>| o.map_or("-".to_string(), |v| v.to_string());
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.0}\t{:.0}\t{:.4}\t{}",
            self.network,
            self.pes,
            self.algorithm,
            self.app,
            opt(self.round),
            opt(self.phases),
            self.t_par,
            self.t_seq_over_p,
            self.lower_order,
            self.efficiency,
            self.h
        )
    }
}

/// The phase constant c of the sweeps' poll-and-shuffle (T_phase = c·(2·H·T_hop + T_split +
/// Δt)); the environment variable PHASE_C overrides it.
pub fn phase_c() -> f64 {
    std::env::var("PHASE_C")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(DEFAULT_PHASE_C)
}

/// The configuration of `algorithm` on `pes` PEs of `network` (seed fixed). Poll-and-shuffle
/// permutes by the pseudorandom bijection (§3.2's practical choice: by messages, the
/// collective's log P waves across the mesh cost more than the phases they serve).
pub fn config(network: Topology, pes: usize, algorithm: Algorithm, seed: u64) -> Config {
    let balancer = match algorithm {
        Algorithm::RandomPolling => Balancer::new(BalancerKind::RandomPolling),
        Algorithm::PollAndShuffle | Algorithm::RowMajor => {
            let embedding = if algorithm == Algorithm::RowMajor {
                Embedding::RowMajor
            } else {
                Embedding::Network
            };
            let round = match embedding {
                Embedding::RowMajor => 2 * T_ROUT + T_SPLIT + DELTA_T,
                Embedding::Network => embedding::default_round(
                    network,
                    pes,
                    embedding,
                    (T_ROUT, T_SPLIT, DELTA_T),
                    phase_c(),
                ),
            };
            Balancer::PollAndShuffle {
                polling: PollingOptions::default(),
                round,
                permutation: PermutationKind::Pseudorandom,
                adaptive: None,
                sync: Default::default(),
                embedding,
            }
        }
    };
    Config::new(pes)
        .balancer(balancer)
        .delta_t(DELTA_T)
        .seed(seed)
}

/// Run one case.
pub fn measure(
    network: Topology,
    pes: usize,
    algorithm: Algorithm,
    app: &AppSpec,
    seed: u64,
) -> Result<Row, String> {
    struct Visit<'a> {
        config: Config,
        sim: SimConfig,
        network: Topology,
        algorithm: Algorithm,
        app: &'a AppSpec,
    }
    impl AppVisitor for Visit<'_> {
        type Out = Result<Row, String>;
        fn visit<T>(
            self,
            make_root: impl Fn() -> T,
            _: impl Fn(&T::Output) -> Option<Published>,
        ) -> Self::Out
        where
            T: Task,
            T::Output: Display + PartialEq + Debug + Objective,
        {
            let r = simulate(make_root(), &self.config, &self.sim)
                .map_err(|e| e.to_string())?
                .into_report();
            let embedding = match self.config.balancer {
                Balancer::PollAndShuffle { embedding, .. } => Some(embedding),
                _ => None,
            };
            Ok(Row {
                network: self.network,
                pes: self.config.pes,
                algorithm: self.algorithm,
                app: self.app.cli_args(),
                round: self.config.balancer.round(),
                phases: embedding
                    .map(|e| embedding::plan(Some(self.network), self.config.pes, e).phases()),
                t_par: r.report.t_par as u64,
                t_seq_over_p: r.theorem1.t_seq_over_p,
                lower_order: r.theorem1.lower_order,
                efficiency: r.report.efficiency().unwrap_or(0.0),
                h: r.theorem1.h,
                wall_seconds: r.wall_seconds,
            })
        }
    }
    // Paper 002 §2.1's machine: latency only, messages cost the PEs no time of their own.
    let sim = SimConfig {
        topology: network,
        model: MessageModel::LatencyOnly,
        t_rout: T_ROUT,
        t_split: T_SPLIT,
        ..SimConfig::default()
    };
    app.visit(Visit {
        config: config(network, pes, algorithm, seed),
        sim,
        network,
        algorithm,
        app,
    })
}

/// Every combination, in order (network, P, algorithm, app); `progress` sees each row.
pub fn sweep(
    cases: &[(Topology, &[usize])],
    algorithms: &[Algorithm],
    apps: &[AppSpec],
    seed: u64,
    mut progress: impl FnMut(&Row),
) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for &(network, sizes) in cases {
        for &pes in sizes {
            for app in apps {
                for &algorithm in algorithms {
                    let row = measure(network, pes, algorithm, app, seed)?;
                    progress(&row);
                    rows.push(row);
                }
            }
        }
    }
    Ok(rows)
}

/// The least-squares exponent e of y ≈ a·x^e (points with x, y > 0).
pub fn fit_exponent(points: &[(f64, f64)]) -> f64 {
    let pts: Vec<(f64, f64)> = points
        .iter()
        .filter(|(x, y)| *x > 0.0 && *y > 0.0)
        .map(|(x, y)| (x.ln(), y.ln()))
        .collect();
    let n = pts.len() as f64;
    let (sx, sy) = pts.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let cov: f64 = pts.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let var: f64 = pts.iter().map(|(x, _)| (x - mx) * (x - mx)).sum();
    cov / var
}

#[cfg(test)]
mod tests {
    use super::*;
    use treesplit_apps::synthetic::{SplitRule, SyntheticParams};

    #[test]
    fn exponents_are_fitted() {
        let pts: Vec<(f64, f64)> = (1..6)
            .map(|i| (f64::from(i), 3.0 * f64::from(i).powf(0.5)))
            .collect();
        assert!((fit_exponent(&pts) - 0.5).abs() < 1e-9);
    }

    /// A small sweep runs to the exact answer (simulate checks it against the work done).
    #[test]
    fn a_small_sweep_runs() {
        let app = AppSpec::Synthetic(SyntheticParams {
            work: 200_000,
            alpha: 0.3,
            atomic: 8,
            rule: SplitRule::Random,
            spin: 1,
            seed: 7,
        });
        let sizes = [64usize];
        let rows = sweep(
            &[(Topology::Mesh2d, &sizes), (Topology::FatTree, &sizes)],
            &[
                Algorithm::PollAndShuffle,
                Algorithm::RowMajor,
                Algorithm::RandomPolling,
            ],
            &[app],
            1,
            |_| {},
        )
        .unwrap();
        assert_eq!(rows.len(), 6);
        for r in &rows {
            assert!(r.t_par as f64 >= r.t_seq_over_p, "{}", r.tsv());
            assert!(r.efficiency > 0.0 && r.efficiency <= 1.0);
        }
        assert_eq!(
            rows[0].phases,
            Some(1),
            "2-D mesh of 64: 6 − ⌊2·log₂ 6⌋ = 1 phase"
        );
        assert_eq!(rows[1].phases, Some(6));
    }
}
