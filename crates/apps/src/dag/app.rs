//! The command line's face of task DAGs: its subcommand's arguments and how they
//! become an instance.

use crate::app::{AppError, RunOption};
use crate::params::{Param, Type, Values};

/// `treesplit run|sim dag`: a task DAG, run by a DAG scheduler rather than a tree balancer
/// (the command line plans it itself from [`DagArgs`]).
pub struct App;

/// The DAG's source (a file, `--multiply K` or `--random N`), its unit of cost and whether
/// an optimal schedule is found beside the run.
const PARAMS: &[Param] = &[
    Param::positional("file", Type::Path, "A DAG in Standard Task Graph format (Tobita–Kasahara; `-`: standard input)")
        .required_unless(&["multiply", "random"])
        .conflicts(&["multiply", "random"]),
    Param::long("multiply", Type::U32, "The DAG of recursive multiplication of two 2^K-digit numbers (Fig. 14.7 is K = 1)")
        .value_name("K")
        .conflicts(&["random"]),
    Param::long("random", Type::U64, "A random layered DAG of N tasks (drawn from --instance-seed, else --seed)").value_name("N"),
    Param::long("unit", Type::Text, "Threads and MPI: the busy work per unit of cost (e.g. 10us, 500ns, 1ms); the simulator takes a unit of cost as a unit of virtual time").value_name("TIME"),
    Param::switch("optimal", "Also find an optimal schedule on the same PEs (branch-and-bound run on treesplit's threads; exponential, so for DAGs of at most 32 tasks) and report the ratio to it"),
];

/// A task DAG's arguments, read from its values: the command line plans the DAG from them.
#[derive(Debug, Clone, PartialEq)]
pub struct DagArgs {
    /// A DAG in Standard Task Graph format (`-`: standard input).
    pub file: Option<std::path::PathBuf>,
    /// The DAG of recursive multiplication of two 2^K-digit numbers.
    pub multiply: Option<u32>,
    /// A random layered DAG of N tasks.
    pub random: Option<u64>,
    /// The busy work per unit of cost, as given (e.g. 10us).
    pub unit: Option<String>,
    /// Also find an optimal schedule on the same PEs.
    pub optimal: bool,
}

impl DagArgs {
    /// The arguments `values` give.
    pub fn read(values: &Values) -> Result<DagArgs, AppError> {
        Ok(DagArgs {
            file: values.path("file"),
            multiply: values.get("multiply")?,
            random: values.get("random")?,
            unit: values.get("unit")?,
            optimal: values.switch("optimal"),
        })
    }
}

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "dag"
    }

    fn about(&self) -> &'static str {
        "A task DAG (paper 001 §14.6) run by a DAG scheduler (--balancer master-worker, random-static or work-stealing): a Standard Task Graph file, --multiply K or --random N"
    }

    fn long_about(&self) -> Option<&'static str> {
        Some("A task DAG (paper 001 §14.6) run by a DAG scheduler (--balancer master-worker, random-static or work-stealing): a Standard Task Graph file, --multiply K or --random N.\n\nEvery run checks its schedule. Of the options below, the tree balancers' options, --check, --sequential, --baseline, --trace, --checkpoint and --empty-splits do not apply (an error names the one given); --max-units, --time-limit and a signal stop the run with the tasks finished so far.")
    }

    fn params(&self) -> &'static [Param] {
        PARAMS
    }

    fn computation(&self) -> crate::app::Computation {
        crate::app::Computation::Dag
    }

    /// `run` and `sim` only: its schedulers are not tree balancers.
    fn offered(&self, used: crate::app::Use) -> bool {
        matches!(used, crate::app::Use::Run | crate::app::Use::Sim)
    }

    fn reads_stdin(&self, values: &Values) -> bool {
        values.path("file").as_deref() == Some(std::path::Path::new("-"))
    }

    fn example(&self) -> &'static [&'static str] {
        &["--multiply", "2"]
    }
}

impl crate::app::Parse for App {
    type Instance = std::convert::Infallible;

    /// A task DAG is no tree-shaped instance: `run|sim dag` plan it from [`DagArgs`].
    fn parse(
        &self,
        _values: &Values,
        _given: &dyn Fn(RunOption) -> bool,
    ) -> Result<Self::Instance, AppError> {
        Err(AppError::BadInput("a task DAG runs with `treesplit run dag` or `treesplit sim dag` only (its schedulers are not tree balancers)".into()))
    }
}
