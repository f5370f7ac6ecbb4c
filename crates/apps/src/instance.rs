//! What an application instance tells the command line about itself, asked of every instance
//! alike through one trait, [`Instance`]: the task it runs and the published answer it is
//! checked against ([`Instance::visit`]), its command-line words, its default Δt, whether it is
//! an optimisation, the run options it refuses in each use and why, the ones it takes as its own, what it adapts to the machine,
//! the memory it takes, the words that recreate it in a checkpoint, its peers for `bench`,
//! its picture, its scattered data and, for the applications that run as a sequence of
//! computations, their own loop. Each application implements [`Instance`] for its instance
//! type in its own module; the questions it has nothing to say about keep their defaults. The
//! registry gathers the instance types into one enum, which answers for whichever instance it
//! holds. Nothing here names an application.

use crate::app::{AppError, Host, Refusal, RunOption, Session, Use};
use crate::peers::Peers;
use crate::spec::AppVisitor;
use treesplit::{Config, Task};

/// An application's picture of its result: RGB pixels, row-major from the top left, made
/// when it is drawn (so that its path can be checked before the run).
pub struct Picture {
    /// Where it goes.
    pub path: std::path::PathBuf,
    /// Pixels per side (the picture is square).
    pub side: u32,
    /// Make the pixels, `side × side`.
    pub pixels: Box<dyn Fn() -> Vec<[u8; 3]> + Send + Sync>,
}

/// Randomly scattered data the instance holds (items in P·q subproblems), for paper 003's
/// predictions beside the measured efficiency.
pub struct Scattered {
    /// The items.
    pub items: usize,
    /// Subproblems per PE.
    pub q: u64,
    /// The load factor α = items / (P·q).
    pub alpha: f64,
}

/// The memory an instance takes at its peak in one process, estimated from its parameters
/// before its data is built ([`Instance::footprint`]), so that the command line can refuse an
/// instance the machine cannot hold instead of running out of memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Footprint {
    /// Bytes.
    pub bytes: u64,
    /// What takes them, in words ("generating and searching 1024 vertices and 16384 edges").
    pub what: String,
    /// What to change for a smaller instance, in the command line's words.
    pub smaller: &'static str,
}

/// Something done with an application that has hand-written peers (see
/// [`Instance::visit_peer`] and [`Peers`]).
pub trait PeerVisitor {
    /// What the visit returns.
    type Out;
    /// Work with the task built by `make_root` and its `peers`, whose results are the task's
    /// output.
    fn visit<T: Task, P: Peers<Output = T::Output>>(
        self,
        make_root: impl Fn() -> T,
        peers: P,
    ) -> Self::Out
    where
        T::Output: PartialEq + std::fmt::Debug + Send;
}

/// One application's instance, as the command line asks about it. The generic methods
/// (`visit`, `visit_peer`, `run_sequence`) are reached through the registry's enum of
/// instances, whose own methods match on the instance it holds; the others also through
/// `&dyn Instance` (the enum derefs to its instance).
pub trait Instance {
    /// Hand the instance's task constructor and published-answer check to `visitor`. The
    /// instance must be valid (as its application's parsing makes it).
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out
    where
        Self: Sized;

    /// The application's arguments on the `treesplit` command line, its name first.
    fn cli_args(&self) -> String;

    /// Δt in work units for about 10–25 µs of real work per slice on a current core: short
    /// enough that requests are answered quickly, long enough that polling costs about 1 %.
    fn default_delta_t(&self) -> u64;

    /// A short description (by default its command-line arguments).
    fn describe(&self) -> String {
        self.cli_args()
    }

    /// True for the searches whose parallel runs explore more or fewer nodes than a
    /// sequential one (search overhead) and may find another solution as good. Their answers
    /// are judged by the published optimum or the objective (a valid solution of the same
    /// value), not by equality with the sequential run.
    fn is_optimization(&self) -> bool {
        false
    }

    /// The run options the instance refuses in `used`, and why.
    fn refusals(&self, _used: Use) -> &'static [Refusal] {
        &[]
    }

    /// Why the instance cannot be used so at all, if it cannot.
    fn refuses(&self, _used: Use) -> Option<&'static str> {
        None
    }

    /// Whether `option` is the instance's own parameter rather than the machine's or the
    /// balancer's (q: the instance's subproblem size, whatever the balancer; the seed: it
    /// draws the instance's data), so that a sequential run takes it too.
    fn takes(&self, _option: RunOption) -> bool {
        false
    }

    /// Whether the instance is drawn at random (from `--instance-seed`, else `--seed`).
    fn draws_instance(&self) -> bool {
        false
    }

    /// Adapt the instance to the machine: `q` (`--q`), P and the instance's seed
    /// (`--instance-seed`, else `--seed`).
    fn adapt(&mut self, _q: Option<u64>, _pes: usize, _seed: Option<u64>) -> Result<(), String> {
        Ok(())
    }

    /// The memory the instance takes (data, the copies its run makes on this process's PEs,
    /// the sequential check of its answer), for the instances whose data can be large. Their
    /// data is built on first use, after this.
    fn footprint(&self) -> Option<Footprint> {
        None
    }

    /// Adapt the instance to the simulator, where time is virtual (`spin_given`: the user set
    /// the instance's CPU cost per unit).
    fn for_simulator(&mut self, _spin_given: bool) {}

    /// The words that recreate the instance as the arguments of `treesplit run` (a
    /// checkpoint's): files are named by their absolute paths.
    fn checkpoint_words(&self) -> Vec<String> {
        self.cli_args()
            .split_whitespace()
            .map(str::to_string)
            .collect()
    }

    /// Hand the task and its hand-written peers (sequential, rayon, chili) to `visitor`;
    /// `None` when the application has none.
    fn visit_peer<V: PeerVisitor>(&self, _visitor: V) -> Option<V::Out>
    where
        Self: Sized,
    {
        None
    }

    /// What `bench` times of the instance's search.
    fn bench_measured(&self) -> String {
        "the whole search".into()
    }

    /// The picture the user asked for, computed again.
    fn picture(&self) -> Option<Picture> {
        None
    }

    /// The instance's randomly scattered data, where it has some.
    fn scattered(&self) -> Option<Scattered> {
        None
    }

    /// Whether the instance runs as a sequence of computations by its own loop
    /// ([`Instance::run_sequence`]) rather than as one task.
    fn runs_itself(&self) -> bool {
        false
    }

    /// Run the instance's own loop on `machine` with `config`; `None` for an instance that
    /// runs as one task.
    fn run_sequence<H: Host>(
        &self,
        _machine: &H,
        _config: &Config,
        _session: &dyn Session,
    ) -> Option<Result<(), AppError>>
    where
        Self: Sized,
    {
        None
    }

    /// Run the instance's own loop sequentially (`run --sequential`); `None` for an instance
    /// that runs as one task.
    fn run_sequence_sequential(&self, _session: &dyn Session) -> Option<Result<(), AppError>> {
        None
    }

    /// `bench` of an application with its own benchmark loop (its sequential peer against its
    /// loop on `config`'s P threads), `repeat` times; `None` for the others.
    fn bench_itself(
        &self,
        _config: &Config,
        _repeat: usize,
        _session: &dyn Session,
    ) -> Option<Result<(), AppError>> {
        None
    }
}
