//! A 15-puzzle instance as the command line names it: the board, and for Korf's instances
//! (read from `korf100.tsv`, built into the program or given as a file) the published optimal
//! length and node count; with the options of the search (complete last iteration, randomized
//! move order).

use super::Tiles;

/// A 15-puzzle instance for IDA*.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleSpec {
    /// The start board (blank-first goal).
    pub tiles: Tiles,
    /// Korf's instance number, when it is one.
    pub korf: Option<usize>,
    /// Published optimal length and node count (Korf's convention), when known.
    pub optimal: Option<u32>,
    /// Nodes generated as recomputed in the data file (stop at the first solution).
    pub nodes: Option<u64>,
    /// Explore the last iteration completely (deterministic node count) instead of stopping
    /// at the first solution.
    pub complete_last_iteration: bool,
    /// Randomized move order with this seed (paper 002 §6.2; None: Korf's order).
    pub random_order: Option<u64>,
}

/// Korf's 100 instances with their optimal lengths and node counts (R. E. Korf, 1985; the
/// file's header names its sources).
const KORF100: &str = include_str!("../../data/korf100.tsv");

impl PuzzleSpec {
    /// Korf's instance `k` (1..=100) from the data file `path` (`-`: standard input).
    pub fn korf(path: &std::path::Path, k: usize) -> Result<Self, String> {
        let (text, name) = crate::input::read_text(path)?;
        Self::korf_in(&name, &text, k)
    }

    /// Korf's instance `k` from the copy of `korf100.tsv` built into the program (the file
    /// `crates/apps/data/korf100.tsv`), so that no default path points outside
    /// the repository or depends on the working directory.
    pub fn korf_built_in(k: usize) -> Result<Self, String> {
        Self::korf_in("korf100.tsv (built in)", KORF100, k)
    }

    /// Korf's instance `k` from the text of a `korf100.tsv` named `name` in errors.
    pub fn korf_in(name: &str, text: &str, k: usize) -> Result<Self, String> {
        for (i, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let at = |m: &str| format!("{name}:{}: {m}", i + 1);
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() < 6 {
                return Err(at(
                    "expected id, h0, optimal length, two node counts and 16 tiles",
                ));
            }
            let id: usize = f[0].trim().parse().map_err(|_| at("bad instance id"))?;
            if id != k {
                continue;
            }
            let tiles: Vec<u8> = f[5]
                .split_whitespace()
                .map(|t| t.parse().map_err(|_| at(&format!("bad tile '{t}'"))))
                .collect::<Result<_, _>>()?;
            let tiles = super::check_tiles(&tiles).map_err(|e| at(&e))?;
            return Ok(PuzzleSpec {
                tiles,
                korf: Some(k),
                optimal: Some(f[2].trim().parse().map_err(|_| at("bad optimal length"))?),
                nodes: Some(f[4].trim().parse().map_err(|_| at("bad node count"))?),
                complete_last_iteration: false,
                random_order: None,
            });
        }
        Err(format!(
            "{name}: no instance {k} (Korf's instances are 1..=100)"
        ))
    }
}
