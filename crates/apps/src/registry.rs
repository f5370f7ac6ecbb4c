//! The applications the command line offers, one line each, in the order `--help` lists them.
//!
//! An application lives in its own module: its task (`mod.rs`), its [`App`] and [`Parse`]
//! (`app.rs`: its parameters as plain data and how their values become its own instance type) and its instance
//! type, which implements
//! [`Instance`] (the task it runs, its published answer, its default Δt, its refusals, …).
//! (A single-number application writes all of `app.rs` but its published values and peers
//! with one `number_app!`, see [`crate::number`].) Adding an application means adding that
//! module and one line to `apps!` below:
//!
//! ```text
//! apps! {
//!     …
//!     sudoku => Sudoku(SudokuSpec),   // crate::sudoku::app::App and crate::sudoku::SudokuSpec
//! }
//! ```
//!
//! From the lines, the macro makes [`APPS`] (every application's [`App`], with its parsing
//! turned into an [`AppSpec`]: an [`Entry`]), the enum [`AppSpec`] with one variant per
//! instance type, its `From` impls, and the methods that answer for whichever instance an `AppSpec`
//! holds: the generic ones ([`AppSpec::visit`], [`AppSpec::visit_peer`],
//! [`AppSpec::run_sequence`]) match on the variant and call the instance's own method, so
//! every run reaches its concrete task type by static dispatch; the others go through
//! `&dyn Instance` (`AppSpec` derefs to it), as the command line asks them a few times per
//! command. An application whose computation the command line plans from its own arguments
//! (a task DAG, [`Computation::Dag`](crate::app::Computation)) has no instance type: its line
//! is its module alone.

use crate::app::{App, AppError, Host, Parse, RunOption, Session};
use crate::instance::{Instance, PeerVisitor};
use crate::params::Values;
use crate::spec::AppVisitor;
use treesplit::Config;

/// An application's parsing ([`Parse::parse`]) with its instance turned into an [`AppSpec`].
type ParseSpec = fn(&Values, &dyn Fn(RunOption) -> bool) -> Result<AppSpec, AppError>;

/// One application of the registry: its [`App`] (it derefs to it) and its parsing, which
/// turns the application's own instance into an [`AppSpec`].
pub struct Entry {
    app: &'static dyn App,
    parse: ParseSpec,
}

impl Entry {
    /// The instance the values name, checked, as an [`AppSpec`] ([`Parse::parse`]).
    pub fn parse(
        &self,
        values: &Values,
        given: &dyn Fn(RunOption) -> bool,
    ) -> Result<AppSpec, AppError> {
        (self.parse)(values, given)
    }

    /// The instance `words` (the application's arguments, without its name) name, read
    /// without the command line ([`Values::from_words`]), as an [`AppSpec`]; no run option is
    /// given beside it.
    pub fn parse_words<S: AsRef<str>>(&self, words: &[S]) -> Result<AppSpec, AppError> {
        let values = Values::from_words(self.params(), words)?;
        self.parse(&values, &|_| false)
    }
}

impl std::ops::Deref for Entry {
    type Target = dyn App;

    fn deref(&self) -> &Self::Target {
        self.app
    }
}

/// An application's instance as an [`AppSpec`]: its variant's `From`, or, for an application
/// without an instance type (its parsing never makes one), nothing.
macro_rules! into_spec {
    () => {
        |never: std::convert::Infallible| -> AppSpec { match never {} }
    };
    ($variant:ident) => {
        AppSpec::from
    };
}

/// The registry: `module => Variant(InstanceType)` for an application with an instance (its
/// `App` and `Parse` are `crate::module::app::App`, its instance type
/// `crate::module::InstanceType`), or `module` alone for one without (its `Parse::Instance`
/// is `Infallible`).
macro_rules! apps {
    ($( $module:ident $( => $variant:ident($spec:ident) )? ),* $(,)?) => {
        /// Every application, in the order `--help` lists them.
        pub static APPS: &[Entry] = &[$(
            Entry {
                app: &crate::$module::app::App,
                parse: |values, given| {
                    Parse::parse(&crate::$module::app::App, values, given)
                        .map(into_spec!($($variant)?))
                },
            },
        )*];

        /// One application instance, as the command line and the lab name it: the instance
        /// type of one application of the registry.
        #[derive(Debug, Clone, PartialEq)]
        pub enum AppSpec {
            $( $(
                #[doc = concat!("An instance of `", stringify!($module), "`.")]
                $variant(crate::$module::$spec),
            )? )*
        }

        $( $(
            impl From<crate::$module::$spec> for AppSpec {
                fn from(spec: crate::$module::$spec) -> Self {
                    AppSpec::$variant(spec)
                }
            }
        )? )*

        impl AppSpec {
            /// The application the instance belongs to.
            pub fn app(&self) -> &'static dyn App {
                match self {
                    $( $( AppSpec::$variant(_) => &crate::$module::app::App, )? )*
                }
            }

            /// The instance.
            pub fn instance(&self) -> &(dyn Instance + 'static) {
                match self {
                    $( $( AppSpec::$variant(spec) => spec, )? )*
                }
            }

            /// The instance, to adapt it.
            pub fn instance_mut(&mut self) -> &mut (dyn Instance + 'static) {
                match self {
                    $( $( AppSpec::$variant(spec) => spec, )? )*
                }
            }

            /// Hand the instance's task constructor and published-answer check to `visitor`
            /// ([`Instance::visit`]).
            pub fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
                match self {
                    $( $( AppSpec::$variant(spec) => spec.visit(visitor), )? )*
                }
            }

            /// Hand the task and its hand-written peers to `visitor`; `None` when the
            /// application has none.
            pub fn visit_peer<V: PeerVisitor>(&self, visitor: V) -> Option<V::Out> {
                match self {
                    $( $( AppSpec::$variant(spec) => spec.visit_peer(visitor), )? )*
                }
            }

            /// Run the instance's own loop on `machine` with `config` (see
            /// [`Instance::runs_itself`]).
            pub fn run_sequence<H: Host>(
                &self,
                machine: &H,
                config: &Config,
                session: &dyn Session,
            ) -> Result<(), AppError> {
                let ran = match self {
                    $( $( AppSpec::$variant(spec) => spec.run_sequence(machine, config, session), )? )*
                };
                ran.unwrap_or_else(|| self.one_task())
            }
        }
    };
}

apps! {
    nqueens => NQueens(NQueensSpec),
    uts => Uts(UtsParams),
    knapsack => Knapsack(KnapsackFile),
    golomb => Golomb(GolombSpec),
    maxclique => MaxClique(MaxCliqueSpec),
    tsp => Tsp(TspSpec),
    puzzle15 => Puzzle15(PuzzleSpec),
    semigroups => Semigroups(SemigroupsSpec),
    hashtable => Hashtable(HashtableSpec),
    mandelbrot => Mandelbrot(MandelSpec),
    integrate => Integrate(IntegrateParams),
    bfs => Bfs(BfsSpec),
    dag,
    synthetic => Synthetic(SyntheticParams),
    treesum => TreeSum(TreeSumSpec),
    fib => Fib(FibSpec),
}

impl AppSpec {
    /// The application's name on the command line.
    pub fn name(&self) -> &'static str {
        self.app().name()
    }

    /// The rayon peer's default depth cut-off (`--rayon-depth`), where it has one.
    pub fn rayon_depth(&self) -> Option<u32> {
        self.app().rayon_depth()
    }

    /// Run the instance's own loop sequentially (`run --sequential`; see
    /// [`Instance::runs_itself`]).
    pub fn run_sequence_sequential(&self, session: &dyn Session) -> Result<(), AppError> {
        self.instance()
            .run_sequence_sequential(session)
            .unwrap_or_else(|| self.one_task())
    }

    /// The error of asking an instance that runs as one task to run its own loop.
    fn one_task(&self) -> Result<(), AppError> {
        Err(AppError::RunFailed(format!(
            "{} runs as one task",
            self.name()
        )))
    }
}

/// An `AppSpec` answers the questions of [`Instance`] for the instance it holds.
impl std::ops::Deref for AppSpec {
    type Target = dyn Instance;

    fn deref(&self) -> &Self::Target {
        self.instance()
    }
}

impl std::ops::DerefMut for AppSpec {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.instance_mut()
    }
}

/// The application named `name`.
pub fn find(name: &str) -> Option<&'static Entry> {
    APPS.iter().find(|a| a.name() == name)
}

/// Why `--rayon-depth` is refused for applications whose rayon peer has no depth cut-off:
/// it names those that have one.
pub fn rayon_depth_why() -> String {
    let names: Vec<&str> = APPS
        .iter()
        .filter(|a| a.rayon_depth().is_some())
        .map(|a| a.name())
        .collect();
    format!(
        "applies only to {} (the rayon peers with a depth cut-off)",
        join_and(&names)
    )
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
