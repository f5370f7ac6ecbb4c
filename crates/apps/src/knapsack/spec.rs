//! A knapsack instance as the command line names it: the file it was read from (instances
//! compare by path and pick), its contents, and the optimum its answer is checked against:
//! `--optimum V`, else the one the file states (Pisinger's `z`, YewPar's second line) or the
//! one `index.tsv` beside the file lists (both must agree), none with `--no-published`.

use super::Instance;
use std::path::{Path, PathBuf};
use treesplit::task::shared::Shared;

/// How the command line asks the answer to be checked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Check {
    /// `--optimum V`: the known optimum, instead of a published one.
    pub optimum: Option<u64>,
    /// `--no-published`: no optimum from `index.tsv` or the file.
    pub no_published: bool,
}

/// A knapsack instance read from a file (compared by path and pick).
#[derive(Debug, Clone)]
pub struct KnapsackFile {
    /// The file.
    pub path: PathBuf,
    /// The instance picked from a file of several (`FILE#K` or `FILE#NAME`).
    pub pick: Option<String>,
    /// Its contents, held in this process's table of shared instances while the file's
    /// `KnapsackFile` lives, so that pieces naming it by digest can arrive here.
    pub instance: Shared<Instance>,
    /// The optimum the answer is checked against, where there is one.
    pub optimum: Option<u64>,
    /// Where that optimum comes from.
    pub optimum_source: String,
    /// The command line's check options.
    pub check: Check,
}

impl PartialEq for KnapsackFile {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path && self.pick == other.pick
    }
}

/// Lines of an `index.tsv` read at most (a table, not an endless source).
const MAX_INDEX_LINES: u64 = 1 << 20;

/// `FILE` or `FILE#PICK`: a path that exists (or `-`) is the file; otherwise the part after
/// its last `#` picks an instance of the file before it.
pub fn split_pick(arg: &Path) -> Result<(PathBuf, Option<String>), String> {
    if arg == Path::new("-") || std::fs::symlink_metadata(arg).is_ok() {
        return Ok((arg.to_path_buf(), None));
    }
    match arg.to_str().and_then(|s| s.rsplit_once('#')) {
        Some((file, "")) => Err(format!(
            "{file}#: nothing after '#' (FILE#K picks the K-th instance, FILE#NAME the one named NAME)"
        )),
        Some((file, pick)) if !file.is_empty() => Ok((PathBuf::from(file), Some(pick.into()))),
        _ => Ok((arg.to_path_buf(), None)),
    }
}

impl KnapsackFile {
    /// Read `path` (`-`: standard input) with the default check: the optimum the file states
    /// or `index.tsv` beside it lists.
    pub fn read(path: &Path) -> Result<Self, String> {
        Self::open(path, &Check::default())
    }

    /// Read `arg` (`FILE`, `FILE#PICK`, `-`) and find the optimum `check` asks for.
    pub fn open(arg: &Path, check: &Check) -> Result<Self, String> {
        let (path, pick) = split_pick(arg)?;
        let (text, file) = crate::input::read_text(&path)?;
        let parsed = super::format::parse(&text, &file, pick.as_deref())?;
        let instance = parsed.instance;
        let (optimum, optimum_source) = if let Some(v) = check.optimum {
            (Some(v), "given by --optimum".to_string())
        } else if check.no_published {
            (None, String::new())
        } else {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let name = parsed.name.as_deref().unwrap_or(stem);
            let listed = if path == Path::new("-") {
                None
            } else {
                let index = path.with_file_name("index.tsv");
                read_index(&index, name, &instance).map_err(|e| {
                    format!("{e} (--no-published runs without index.tsv; --optimum V gives the optimum)")
                })?
            };
            match (parsed.stated, listed) {
                (Some((z, from)), Some((o, index))) if z != o => {
                    return Err(format!(
                        "{from} is {z}, but {index} lists {o} for {name} (--optimum V gives the optimum; --no-published checks none)"
                    ))
                }
                (Some((z, from)), _) => (Some(z), from),
                (None, Some((o, index))) => (Some(o), format!("published optimum of {name} ({index})")),
                (None, None) => (None, String::new()),
            }
        };
        Ok(KnapsackFile {
            path,
            pick,
            instance: Shared::new(instance),
            optimum,
            optimum_source,
            check: check.clone(),
        })
    }

    /// The file with its pick, as the command line names it.
    pub fn arg(&self) -> String {
        match &self.pick {
            Some(p) => format!("{}#{p}", self.path.display()),
            None => self.path.display().to_string(),
        }
    }
}

/// The optimum `index` (if it exists) lists for `name`, and the table's name; see
/// [`index_optimum`].
fn read_index(
    index: &Path,
    name: &str,
    instance: &Instance,
) -> Result<Option<(u64, String)>, String> {
    if std::fs::symlink_metadata(index).is_err() {
        return Ok(None);
    }
    let (bytes, shown) = crate::input::read_bytes(index, MAX_INDEX_LINES)?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(index_optimum(&text, &shown, name, instance)?.map(|o| (o, shown)))
}

/// The optimum `index.tsv` (its text, named `file` in errors) lists for instance `name`: a
/// line `name n capacity optimum …`, tab-separated, whose n and capacity must be the
/// instance's. Lines that do not list `name` are not read further, so a table of another
/// kind (another application's, a foreign one) lists nothing; a line that lists `name` but is
/// malformed or disagrees with the instance is an error, and so is `name` listed twice with
/// different optima.
pub fn index_optimum(
    text: &str,
    file: &str,
    name: &str,
    instance: &Instance,
) -> Result<Option<u64>, String> {
    let mut found: Option<(u64, usize)> = None;
    for (k, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split('\t').map(str::trim).collect();
        if line.starts_with('#') || f[0] != name {
            continue;
        }
        let at = |m: String| format!("{file}:{}: {m}", k + 1);
        let num = |i: usize, what: &str| -> Result<u64, String> {
            f.get(i)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| at(format!("{name} is listed, but not as name, n, capacity and optimum separated by tabs: the {what} is missing or not a whole number")))
        };
        let (n, capacity, optimum) = (num(1, "n")?, num(2, "capacity")?, num(3, "optimum")?);
        if n != instance.len() as u64 || capacity != instance.capacity {
            return Err(at(format!(
                "{name} is listed with n = {n}, capacity {capacity}, but the file has n = {}, capacity {}",
                instance.len(),
                instance.capacity
            )));
        }
        if let Some((other, line)) = found.filter(|&(o, _)| o != optimum) {
            return Err(at(format!(
                "{name} is listed with optimum {optimum}, and with {other} on line {line}"
            )));
        }
        found = Some((optimum, k + 1));
    }
    Ok(found.map(|(o, _)| o))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pick_follows_the_last_hash_of_a_path_that_does_not_exist() {
        let d = std::env::temp_dir().join(format!("treesplit-pick-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let odd = d.join("a#1.csv");
        std::fs::write(&odd, "1 1\n1 1\n").unwrap();
        assert_eq!(split_pick(&odd).unwrap(), (odd.clone(), None));
        let picked = PathBuf::from(format!("{}#2", odd.display()));
        assert_eq!(
            split_pick(&picked).unwrap(),
            (odd.clone(), Some("2".into()))
        );
        assert_eq!(
            split_pick(Path::new("-#k")).unwrap(),
            (PathBuf::from("-"), Some("k".into()))
        );
        assert!(split_pick(Path::new("x.csv#"))
            .unwrap_err()
            .contains("nothing after '#'"));
        assert_eq!(
            split_pick(Path::new("#3")).unwrap(),
            (PathBuf::from("#3"), None)
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn only_the_lines_that_list_the_instance_are_read() {
        let inst = Instance::new(10, &[(3, 4), (5, 6)]).unwrap();
        let foreign = "file\tn\tm\tomega\nc5.clq\t5\t6\t3\nnot a table at all\n\t\n";
        assert_eq!(index_optimum(foreign, "i", "inst", &inst), Ok(None));
        let ours = format!("{foreign}# inst\t9\t9\t9\ninst\t2\t10\t8\ninst\t2\t10\t8\n");
        assert_eq!(index_optimum(&ours, "i", "inst", &inst), Ok(Some(8)));
        for (text, want) in [
            (
                "inst\t2\t10\n",
                "i:1: inst is listed, but not as name, n, capacity and optimum",
            ),
            (
                "x\ninst\t3\t10\t8\n",
                "i:2: inst is listed with n = 3, capacity 10",
            ),
            (
                "inst\t2\t10\t8\ninst\t2\t10\t9\n",
                "i:2: inst is listed with optimum 9, and with 8 on line 1",
            ),
        ] {
            let e = index_optimum(text, "i", "inst", &inst).unwrap_err();
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
    }
}
