//! `treesplit run bfs (FILE | --rmat SCALE)`: the application's command-line face.

use super::{BfsSpec, Graph};
use crate::app::{AppError, RunOption};
use crate::params::{Param, Type, Values};

/// `treesplit run bfs`.
pub struct App;

/// The graph (a file or R-MAT) and the source vertex.
const PARAMS: &[Param] = &[
    Param::positional(
        "file",
        Type::Path,
        "A SNAP edge list (`u v` per line, 0-based, `#` comments)",
    )
    .conflicts(&["rmat"]),
    Param::long(
        "rmat",
        Type::U32,
        "Generate a Graph500-style R-MAT graph with 2^SCALE vertices instead",
    )
    .value_name("SCALE"),
    Param::long("edge-factor", Type::U64, "R-MAT: edges per vertex").default("16"),
    Param::long(
        "graph-seed",
        Type::U64,
        "R-MAT: the generator's seed (independent of --seed)",
    )
    .default("1"),
    Param::long("source", Type::I64, "The source vertex")
        .default("0")
        .negative(),
];

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "bfs"
    }

    fn about(&self) -> &'static str {
        "Level-synchronous parallel BFS (paper 001 §14.1.3, §14.5.4) on a SNAP edge list or an R-MAT graph; each level is one balanced computation over the frontier's edges"
    }

    fn params(&self) -> &'static [Param] {
        PARAMS
    }

    /// Not `compare`: a BFS is a sequence of level computations, not one run per balancer.
    fn offered(&self, used: crate::app::Use) -> bool {
        used != crate::app::Use::Compare
    }

    fn reads_stdin(&self, values: &Values) -> bool {
        values.path("file").as_deref() == Some(std::path::Path::new("-"))
    }

    fn example(&self) -> &'static [&'static str] {
        &["--rmat", "6", "--source", "3"]
    }
}

impl crate::app::Parse for App {
    type Instance = BfsSpec;

    fn parse(
        &self,
        values: &Values,
        _given: &dyn Fn(RunOption) -> bool,
    ) -> Result<Self::Instance, AppError> {
        let (rmat, edge_factor, graph_seed, source): (Option<u32>, u64, u64, i64) = (
            values.get("rmat")?,
            values.value("edge-factor")?,
            values.value("graph-seed")?,
            values.value("source")?,
        );
        Self::instance(values.path("file"), rmat, edge_factor, graph_seed, source)
            .map_err(AppError::BadInput)
    }
}

impl App {
    /// The instance of these values, checked.
    fn instance(
        file: Option<std::path::PathBuf>,
        rmat: Option<u32>,
        edge_factor: u64,
        graph_seed: u64,
        source: i64,
    ) -> Result<BfsSpec, String> {
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
        let spec = match (file, rmat) {
            (Some(path), None) => {
                let graph = Graph::read(&path)?;
                let source = check(graph.vertices() as u64)?;
                BfsSpec::read(path, graph, source)
            }
            // Generated once the command line has checked its memory estimate.
            (None, Some(scale)) => {
                Graph::check_rmat(scale, edge_factor)?;
                BfsSpec::rmat(scale, edge_factor, graph_seed, check(1 << scale)?)?
            }
            _ => return Err("bfs needs an edge-list FILE or --rmat SCALE".into()),
        };
        Ok(spec)
    }
}
