//! The command line's face of task DAGs: its subcommand's arguments and how they
//! become an instance.

/// `treesplit run|sim dag`: a task DAG, run by a DAG scheduler rather than a tree balancer
/// (the command line plans it itself from [`DagArgs`]).
pub struct App;

/// A task DAG (paper 001 §14.6) run by a DAG scheduler (--balancer master-worker,
/// random-static or work-stealing): a Standard Task Graph file, --multiply K or --random N.
///
/// Every run checks its schedule. Of the options below, the tree balancers' options,
/// --check, --sequential, --baseline, --trace, --checkpoint and --empty-splits do not apply
/// (an error names the one given); --max-units, --time-limit and a signal stop the run with
/// the tasks finished so far.
#[derive(Debug, clap::Args)]
pub struct DagArgs {
    /// A DAG in Standard Task Graph format (Tobita–Kasahara; `-`: standard input).
    #[arg(required_unless_present_any = ["multiply", "random"], conflicts_with_all = ["multiply", "random"])]
    pub file: Option<std::path::PathBuf>,
    /// The DAG of recursive multiplication of two 2^K-digit numbers (Fig. 14.7 is K = 1).
    #[arg(long, value_name = "K", conflicts_with = "random")]
    pub multiply: Option<u32>,
    /// A random layered DAG of N tasks (drawn from --instance-seed, else --seed).
    #[arg(long, value_name = "N")]
    pub random: Option<u64>,
    /// Threads and MPI: the busy work per unit of cost (e.g. 10us, 500ns, 1ms); the
    /// simulator takes a unit of cost as a unit of virtual time.
    #[arg(long, value_name = "TIME")]
    pub unit: Option<String>,
    /// Also find an optimal schedule on the same PEs (branch-and-bound run on treesplit's
    /// threads; exponential, so for DAGs of at most 32 tasks) and report the ratio to it.
    #[arg(long)]
    pub optimal: bool,
}

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "dag"
    }

    fn command(&self) -> clap::Command {
        crate::app::command::<DagArgs>(self.name())
    }

    fn computation(&self) -> crate::app::Computation {
        crate::app::Computation::Dag
    }

    /// `run` and `sim` only: its schedulers are not tree balancers.
    fn offered(&self, used: crate::app::Use) -> bool {
        matches!(used, crate::app::Use::Run | crate::app::Use::Sim)
    }

    fn reads_stdin(&self, args: &clap::ArgMatches) -> bool {
        crate::app::typed::<DagArgs>(args)
            .is_ok_and(|a| a.file.as_deref() == Some(std::path::Path::new("-")))
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
        _args: &clap::ArgMatches,
        _given: &dyn Fn(&str) -> bool,
    ) -> Result<Self::Instance, String> {
        Err("a task DAG runs with `treesplit run dag` or `treesplit sim dag` only (its schedulers are not tree balancers)".into())
    }
}
