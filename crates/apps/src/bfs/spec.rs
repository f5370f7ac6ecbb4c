//! A BFS instance as the command line names it: where its graph comes from, the source
//! vertex, and the graph itself, built on first use (an R-MAT graph is generated only once the
//! command line has compared its memory estimate, [`Instance::footprint`], with the
//! machine's). A BFS is a sequence of computations, one per level, which it runs by its own
//! loop (`levels.rs`): it refuses what needs a single computation.

use super::Graph;
use crate::app::{AppError, Host, Refusal, RunOption, Session, Use};
use crate::instance::{Footprint, Instance};
use crate::spec::AppVisitor;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use treesplit::Config;

/// Where a BFS graph comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum GraphSource {
    /// A SNAP edge list.
    File(PathBuf),
    /// R-MAT with 2^scale vertices, edge factor and seed.
    Rmat {
        /// log₂ of the vertices.
        scale: u32,
        /// Edges per vertex.
        edge_factor: u64,
        /// The generator's seed.
        seed: u64,
    },
}

/// A BFS instance: the graph (read or generated once, on first use) and the source.
#[derive(Debug, Clone)]
pub struct BfsSpec {
    /// Where the graph comes from.
    pub input: GraphSource,
    /// The graph, once read or generated (shared by the instance's clones).
    graph: Arc<OnceLock<Arc<Graph>>>,
    /// The source vertex.
    pub source: u32,
}

impl PartialEq for BfsSpec {
    fn eq(&self, other: &Self) -> bool {
        self.input == other.input && self.source == other.source
    }
}

impl BfsSpec {
    /// The instance of a graph read already (from a file).
    pub fn read(path: PathBuf, graph: Graph, source: u32) -> Self {
        BfsSpec {
            input: GraphSource::File(path),
            graph: Arc::new(OnceLock::from(Arc::new(graph))),
            source,
        }
    }

    /// The instance of an R-MAT graph, generated on first use; the parameters are checked
    /// here.
    pub fn rmat(scale: u32, edge_factor: u64, seed: u64, source: u32) -> Result<Self, String> {
        Graph::check_rmat(scale, edge_factor)?;
        Ok(BfsSpec {
            input: GraphSource::Rmat {
                scale,
                edge_factor,
                seed,
            },
            graph: Arc::new(OnceLock::new()),
            source,
        })
    }

    /// The graph, generated now if it is an R-MAT graph not generated yet.
    pub fn graph(&self) -> &Arc<Graph> {
        self.graph.get_or_init(|| match self.input {
            GraphSource::Rmat {
                scale,
                edge_factor,
                seed,
            } => Arc::new(Graph::rmat(scale, edge_factor, seed).expect("R-MAT parameters checked")),
            GraphSource::File(_) => unreachable!("a graph file is read when the instance is made"),
        })
    }
}

const LIMITS: &str = "does not apply to bfs: its levels run one after another, each a computation of its own, and every run is checked against a sequential BFS";

const RUN: &[Refusal] = &[
    Refusal {
        options: &[RunOption::Baseline, RunOption::Trace, RunOption::Gantt],
        why: "does not apply to bfs: its levels are one computation each, so there is no single timeline or baseline (time `run bfs --sequential` or use `bench bfs`)",
    },
    Refusal {
        options: RunOption::LIMITS,
        why: LIMITS,
    },
    Refusal {
        options: RunOption::CHECKPOINTS,
        why: "does not apply to bfs: its levels are one computation each (checkpoint an application with one tree search)",
    },
];

const SIM: &[Refusal] = &[
    Refusal {
        options: RunOption::TIMELINE,
        why: "does not apply to bfs: its levels are simulated one after another, so there is no single timeline",
    },
    Refusal {
        options: RunOption::LIMITS,
        why: LIMITS,
    },
];

impl Instance for BfsSpec {
    /// A BFS has no single task: the commands run it by its own loop
    /// ([`Instance::runs_itself`]) and never visit it.
    fn visit<V: AppVisitor>(&self, _visitor: V) -> V::Out {
        unreachable!("bfs runs level by level: the commands run its own loop")
    }

    fn cli_args(&self) -> String {
        match &self.input {
            GraphSource::File(path) => {
                format!("bfs {} --source {}", path.display(), self.source)
            }
            GraphSource::Rmat {
                scale,
                edge_factor,
                seed,
            } => format!(
                "bfs --rmat {scale} --edge-factor {edge_factor} --graph-seed {seed} --source {}",
                self.source
            ),
        }
    }

    /// ~3 ns per edge scanned.
    fn default_delta_t(&self) -> u64 {
        4096
    }

    fn refusals(&self, used: Use) -> &'static [Refusal] {
        match used {
            Use::Run => RUN,
            Use::Sim => SIM,
            _ => &[],
        }
    }

    fn refuses(&self, used: Use) -> Option<&'static str> {
        (used == Use::Fault).then_some("TREESPLIT_FAULT does not apply to bfs (its levels run no injected faults); use another application")
    }

    fn runs_itself(&self) -> bool {
        true
    }

    fn run_sequence<H: Host>(
        &self,
        machine: &H,
        config: &Config,
        session: &dyn Session,
    ) -> Option<Result<(), AppError>> {
        Some(super::levels::run(
            self,
            &self.describe(),
            machine,
            config,
            session,
        ))
    }

    fn run_sequence_sequential(&self, session: &dyn Session) -> Option<Result<(), AppError>> {
        Some(super::levels::run_sequential_bfs(
            self,
            &self.describe(),
            session,
        ))
    }

    fn bench_itself(
        &self,
        config: &Config,
        repeat: usize,
        session: &dyn Session,
    ) -> Option<Result<(), AppError>> {
        Some(super::levels::bench(
            self,
            &self.describe(),
            config,
            repeat,
            session,
        ))
    }

    /// The memory a BFS of this instance takes at its peak, in bytes: generating an R-MAT
    /// graph of n vertices and m edges holds the vertex permutation (4 bytes a vertex), the
    /// edge list (8 bytes an edge), four arrays of 8 bytes a vertex and the adjacency arrays
    /// (2 × 4 bytes an edge); a BFS holds the graph (8 bytes a vertex and an edge), two
    /// distance arrays, the frontier, the visited set and the vertices a level finds (at
    /// most one per adjacency entry, 8 bytes an edge). Every PE of a process shares the
    /// graph and the levels, so P adds nothing.
    fn footprint(&self) -> Option<Footprint> {
        let (n, m, generated) = match self.input {
            GraphSource::Rmat {
                scale, edge_factor, ..
            } => (1u64 << scale, edge_factor << scale, true),
            GraphSource::File(_) => {
                let g = self.graph();
                (g.vertices() as u64, g.edges(), false)
            }
        };
        let search = m.saturating_mul(16).saturating_add(n.saturating_mul(29));
        let generate = m.saturating_mul(16).saturating_add(n.saturating_mul(36));
        Some(Footprint {
            bytes: if generated {
                search.max(generate)
            } else {
                search
            },
            what: format!(
                "{}{n} vertices and {m} edges",
                if generated {
                    "generating and searching "
                } else {
                    "searching "
                }
            ),
            smaller: if generated {
                "use a smaller --rmat SCALE or --edge-factor"
            } else {
                "use a smaller graph"
            },
        })
    }
}
