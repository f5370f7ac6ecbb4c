//! `treesplit run puzzle15 (--korf K | --tiles …)`: the application's command-line face, and
//! what its instance tells the commands: its last iteration as a task with Korf's published
//! answer, what it refuses (IDA* runs one computation per threshold), and its own loop.

use super::{manhattan, solves, Puzzle15, PuzzleSpec};
use crate::app::{AppError, Host, Refusal, RunOption, Session, Use};
use crate::instance::Instance;
use crate::params::{Param, Type, Values};
use crate::spec::{AppVisitor, Published};
use treesplit::Config;

/// `treesplit run puzzle15`.
pub struct App;

/// The board (Korf's instance K or the tiles) and how IDA* searches it.
const PARAMS: &[Param] = &[
    Param::long("korf", Type::Usize, "Korf's instance K (1..=100) from the data file").conflicts(&["tiles"]),
    Param::long("tiles", Type::Text, "A board: 16 numbers by position, 0 the blank"),
    Param::long("korf-file", Type::Path, "A file of Korf's instances in the korf100.tsv format (default: the copy built into the program; `-`: standard input)"),
    Param::switch("complete-last-iteration", "Explore the last iteration completely (a deterministic node count) instead of stopping everywhere at the first solution"),
    Param::long("random-order", Type::U64, "Randomized IDA* (paper 002 §6.2): every node tries its moves in a pseudorandom order drawn from this seed, so the last iteration works on randomly chosen subproblems until the first solution (default: Korf's order)"),
];

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "puzzle15"
    }

    fn about(&self) -> &'static str {
        "The 15-puzzle by IDA* with the Manhattan distance (goal: blank first, 0 1 2 … 15)"
    }

    fn params(&self) -> &'static [Param] {
        PARAMS
    }

    fn reads_stdin(&self, values: &Values) -> bool {
        values.path("korf-file").as_deref() == Some(std::path::Path::new("-"))
    }

    fn example(&self) -> &'static [&'static str] {
        &["--korf", "79"]
    }
}

impl crate::app::Parse for App {
    type Instance = PuzzleSpec;

    fn parse(
        &self,
        values: &Values,
        _given: &dyn Fn(RunOption) -> bool,
    ) -> Result<Self::Instance, AppError> {
        let tiles: Option<String> = values.get("tiles")?;
        if tiles.is_some() && values.given("korf-file") {
            return Err(AppError::BadInput(
                "--korf-file applies only with --korf (a board given by --tiles needs no data file)"
                    .into(),
            ));
        }
        let korf: Option<usize> = values.get("korf")?;
        let mut spec = match (korf, &tiles) {
            (Some(k), None) => match values.path("korf-file") {
                Some(path) => PuzzleSpec::korf(&path, k).map_err(AppError::BadInput)?,
                None => PuzzleSpec::korf_built_in(k).map_err(AppError::BadInput)?,
            },
            (None, Some(t)) => {
                let numbers: Vec<u8> = t
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|s| !s.is_empty())
                    .map(|s| {
                        s.parse()
                            .map_err(|_| format!("--tiles: '{s}' is not a tile number"))
                    })
                    .collect::<Result<_, _>>()
                    .map_err(AppError::BadInput)?;
                PuzzleSpec {
                    tiles: super::check_tiles(&numbers)
                        .map_err(|e| AppError::BadInput(format!("--tiles: {e}")))?,
                    korf: None,
                    optimal: None,
                    nodes: None,
                    complete_last_iteration: false,
                    random_order: None,
                }
            }
            _ => {
                return Err(AppError::BadInput(
                    "puzzle15 needs --korf K or --tiles \"…\"".into(),
                ))
            }
        };
        spec.complete_last_iteration = values.switch("complete-last-iteration");
        spec.random_order = values.get("random-order")?;
        Ok(spec)
    }
}

const RUN: &[Refusal] = &[
    Refusal {
        options: &[RunOption::Baseline],
        why: "does not apply to puzzle15 (IDA* runs one computation per threshold; time `run puzzle15 --sequential` separately)",
    },
    Refusal {
        options: RunOption::TIMELINE,
        why: "does not apply to puzzle15: IDA* runs one computation per threshold, so there is no single timeline",
    },
    Refusal {
        options: RunOption::CHECKPOINTS,
        why: "does not apply to puzzle15: IDA* runs one computation per threshold (checkpoint an application with one tree search)",
    },
];

const SIM: &[Refusal] = &[
    Refusal {
        options: &[RunOption::Gantt],
        why: "does not apply to puzzle15: IDA* simulates one computation per threshold, so there is no single timeline to draw",
    },
    Refusal {
        options: &[RunOption::Trace],
        why: "does not apply to puzzle15: IDA* simulates one computation per threshold, so there is no single timeline",
    },
];

/// The instance is visited as its last iteration; `run` and `sim` run them all.
impl Instance for PuzzleSpec {
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        let s = self.clone();
        let threshold = s.optimal.unwrap_or_else(|| manhattan(&s.tiles));
        visitor.visit(
            move || {
                let root = Puzzle15::new(&s.tiles, threshold, !s.complete_last_iteration);
                match s.random_order {
                    Some(seed) => root.randomized(seed),
                    None => root,
                }
            },
            move |it| {
                // The moves must solve the instance, in exactly the threshold's number of
                // moves when the threshold is the published optimum.
                let optimal = s.optimal?;
                let value = it.solution.as_ref().map_or(0, |m| m.len());
                Some(Published {
                    source: "Korf (1985), the moves replayed on the instance".into(),
                    value: format!("{optimal} moves"),
                    matches: it
                        .solution
                        .as_ref()
                        .is_some_and(|m| solves(&s.tiles, m) && value == optimal as usize),
                })
            },
        )
    }

    fn cli_args(&self) -> String {
        match self.korf {
            Some(k) => format!("puzzle15 --korf {k}"),
            None => format!(
                "puzzle15 --tiles \"{}\"",
                self.tiles
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        }
    }

    /// ~10 ns per node generated.
    fn default_delta_t(&self) -> u64 {
        1024
    }

    /// An iteration that stops at its first solution may find another one as good.
    fn is_optimization(&self) -> bool {
        !self.complete_last_iteration
    }

    fn refusals(&self, used: Use) -> &'static [Refusal] {
        match used {
            Use::Run => RUN,
            Use::Sim => SIM,
            _ => &[],
        }
    }

    fn refuses(&self, used: Use) -> Option<&'static str> {
        (used == Use::Fault).then_some("TREESPLIT_FAULT does not apply to puzzle15 (IDA* runs no injected faults); use another application")
    }

    fn bench_measured(&self) -> String {
        match self.optimal {
            Some(o) => format!("the last IDA* iteration only (threshold {o}, the optimal length), not the iterations before it; `treesplit run puzzle15` times them all"),
            None => format!("one IDA* iteration only, at threshold {} (the Manhattan distance; the optimal length of a --tiles board is not known in advance); `treesplit run puzzle15` times all iterations", manhattan(&self.tiles)),
        }
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
        Some(super::search::run(self, machine, config, session))
    }

    fn run_sequence_sequential(&self, session: &dyn Session) -> Option<Result<(), AppError>> {
        Some(super::search::run_sequential_ida(self, session))
    }
}
