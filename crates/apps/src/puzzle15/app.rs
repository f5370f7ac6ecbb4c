//! `treesplit run puzzle15 (--korf K | --tiles …)`: the application's command-line face.

use crate::spec::PuzzleSpec;

/// `treesplit run puzzle15`.
pub struct App;

/// The 15-puzzle by IDA* with the Manhattan distance (goal: blank first, 0 1 2 … 15).
#[derive(Debug, clap::Args)]
struct Args {
    /// Korf's instance K (1..=100) from the data file.
    #[arg(long, conflicts_with = "tiles")]
    korf: Option<usize>,
    /// A board: 16 numbers by position, 0 the blank.
    #[arg(long)]
    tiles: Option<String>,
    /// A file of Korf's instances in the korf100.tsv format (default: the copy built into
    /// the program; `-`: standard input).
    #[arg(long = "korf-file")]
    korf_file: Option<std::path::PathBuf>,
    /// Explore the last iteration completely (a deterministic node count) instead of
    /// stopping everywhere at the first solution.
    #[arg(long = "complete-last-iteration")]
    complete_last_iteration: bool,
    /// Randomized IDA* (paper 002 §6.2): every node tries its moves in a pseudorandom
    /// order drawn from this seed, so the last iteration works on randomly chosen
    /// subproblems until the first solution (default: Korf's order).
    #[arg(long = "random-order")]
    random_order: Option<u64>,
}

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "puzzle15"
    }

    fn command(&self) -> clap::Command {
        crate::app::command::<Args>(self.name())
    }

    fn reads_stdin(&self, args: &clap::ArgMatches) -> bool {
        crate::app::typed::<Args>(args)
            .is_ok_and(|a| a.korf_file.as_deref() == Some(std::path::Path::new("-")))
    }

    fn parse(
        &self,
        args: &clap::ArgMatches,
        given: &dyn Fn(&str) -> bool,
    ) -> Result<crate::AppSpec, String> {
        let a: Args = crate::app::typed(args)?;
        if a.tiles.is_some() && given("korf_file") {
            return Err(
                "--korf-file applies only with --korf (a board given by --tiles needs no data file)"
                    .into(),
            );
        }
        let mut spec = match (a.korf, &a.tiles) {
            (Some(k), None) => match &a.korf_file {
                Some(path) => PuzzleSpec::korf(path, k)?,
                None => PuzzleSpec::korf_built_in(k)?,
            },
            (None, Some(t)) => {
                let numbers: Vec<u8> = t
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|s| !s.is_empty())
                    .map(|s| {
                        s.parse()
                            .map_err(|_| format!("--tiles: '{s}' is not a tile number"))
                    })
                    .collect::<Result<_, _>>()?;
                PuzzleSpec {
                    tiles: super::check_tiles(&numbers).map_err(|e| format!("--tiles: {e}"))?,
                    korf: None,
                    optimal: None,
                    nodes: None,
                    complete_last_iteration: false,
                    random_order: None,
                }
            }
            _ => return Err("puzzle15 needs --korf K or --tiles \"…\"".into()),
        };
        spec.complete_last_iteration = a.complete_last_iteration;
        spec.random_order = a.random_order;
        Ok(crate::AppSpec::Puzzle15(spec))
    }
}
