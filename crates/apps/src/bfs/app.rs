//! `treesplit run bfs (FILE | --rmat SCALE)`: the application's command-line face.

use super::Graph;
use crate::spec::{BfsSpec, GraphSource};

/// `treesplit run bfs`.
pub struct App;

/// Level-synchronous parallel BFS (paper 001 §14.1.3, §14.5.4) on a SNAP edge list or an
/// R-MAT graph; each level is one balanced computation over the frontier's edges.
#[derive(Debug, clap::Args)]
struct Args {
    /// A SNAP edge list (`u v` per line, 0-based, `#` comments).
    #[arg(conflicts_with = "rmat")]
    file: Option<std::path::PathBuf>,
    /// Generate a Graph500-style R-MAT graph with 2^SCALE vertices instead.
    #[arg(long, value_name = "SCALE")]
    rmat: Option<u32>,
    /// R-MAT: edges per vertex.
    #[arg(long = "edge-factor", default_value_t = 16)]
    edge_factor: u64,
    /// R-MAT: the generator's seed (independent of --seed).
    #[arg(long = "graph-seed", default_value_t = 1)]
    graph_seed: u64,
    /// The source vertex.
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    source: i64,
}

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "bfs"
    }

    fn command(&self) -> clap::Command {
        crate::app::command::<Args>(self.name())
    }

    /// Not `compare`: a BFS is a sequence of level computations, not one run per balancer.
    fn offered(&self, used: crate::app::Use) -> bool {
        used != crate::app::Use::Compare
    }

    fn reads_stdin(&self, args: &clap::ArgMatches) -> bool {
        crate::app::typed::<Args>(args)
            .is_ok_and(|a| a.file.as_deref() == Some(std::path::Path::new("-")))
    }

    fn parse(
        &self,
        args: &clap::ArgMatches,
        _given: &dyn Fn(&str) -> bool,
    ) -> Result<crate::AppSpec, String> {
        let a: Args = crate::app::typed(args)?;
        let (input, graph) = match (a.file, a.rmat) {
            (Some(path), None) => {
                let graph = Graph::read(&path)?;
                (GraphSource::File(path), graph)
            }
            (None, Some(scale)) => (
                GraphSource::Rmat {
                    scale,
                    edge_factor: a.edge_factor,
                    seed: a.graph_seed,
                },
                Graph::rmat(scale, a.edge_factor, a.graph_seed)?,
            ),
            _ => return Err("bfs needs an edge-list FILE or --rmat SCALE".into()),
        };
        let n = graph.vertices();
        let source = a.source;
        if source < 0 || source as u64 >= n as u64 {
            return Err(format!(
                "bfs --source {source}: the graph's vertices are 0..{n}"
            ));
        }
        Ok(crate::AppSpec::Bfs(BfsSpec {
            input,
            graph: std::sync::Arc::new(graph),
            source: source as u32,
        }))
    }
}
