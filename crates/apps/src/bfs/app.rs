//! `treesplit run bfs (FILE | --rmat SCALE)`: the application's command-line face.

use super::{BfsSpec, Graph};

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

    fn example(&self) -> &'static [&'static str] {
        &["--rmat", "6", "--source", "3"]
    }
}

impl crate::app::Parse for App {
    type Instance = BfsSpec;

    fn parse(
        &self,
        args: &clap::ArgMatches,
        _given: &dyn Fn(&str) -> bool,
    ) -> Result<Self::Instance, String> {
        let a: Args = crate::app::typed(args)?;
        let source = a.source;
        let check = |n: u64| {
            if source < 0 || source as u64 >= n {
                Err(format!(
                    "bfs --source {source}: the graph has only {}",
                    treesplit::words::first(n, "vertex", "vertices")
                ))
            } else {
                Ok(source as u32)
            }
        };
        let spec = match (a.file, a.rmat) {
            (Some(path), None) => {
                let graph = Graph::read(&path)?;
                let source = check(graph.vertices() as u64)?;
                BfsSpec::read(path, graph, source)
            }
            // Generated once the command line has checked its memory estimate.
            (None, Some(scale)) => {
                Graph::check_rmat(scale, a.edge_factor)?;
                BfsSpec::rmat(scale, a.edge_factor, a.graph_seed, check(1 << scale)?)?
            }
            _ => return Err("bfs needs an edge-list FILE or --rmat SCALE".into()),
        };
        Ok(spec)
    }
}
