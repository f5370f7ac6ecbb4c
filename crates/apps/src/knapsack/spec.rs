//! A knapsack instance as the command line names it: the file it was read from (instances
//! compare by path), its contents, and the published optimum that `index.tsv` beside the file
//! lists for it.

use super::Instance;
use std::path::PathBuf;
use treesplit::task::shared::Shared;

/// A knapsack instance read from a file (compared by path).
#[derive(Debug, Clone)]
pub struct KnapsackFile {
    /// The file.
    pub path: PathBuf,
    /// Its contents, held in this process's table of shared instances while the file's
    /// `KnapsackFile` lives, so that pieces naming it by digest can arrive here.
    pub instance: Shared<Instance>,
    /// The published optimum, from `index.tsv` beside the file, where listed.
    pub optimum: Option<u64>,
}

impl PartialEq for KnapsackFile {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
    }
}

impl KnapsackFile {
    /// Read `path` (`-`: standard input, without a published optimum) and look its published
    /// optimum up in `index.tsv` in the same folder, if there is one; a malformed `index.tsv`
    /// is an error, not silently no optimum.
    pub fn read(path: &std::path::Path) -> Result<Self, String> {
        if path == std::path::Path::new("-") {
            let (text, name) = crate::input::read_text(path)?;
            return Ok(KnapsackFile {
                path: path.to_path_buf(),
                instance: Shared::new(Instance::parse(&text, &name)?),
                optimum: None,
            });
        }
        let instance = Instance::read(path)?;
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let index = path.with_file_name("index.tsv");
        let optimum = match std::fs::read_to_string(&index) {
            Ok(text) => index_optimum(&text, &index.display().to_string(), name, &instance)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(format!("cannot read {}: {e}", index.display())),
        };
        let instance = Shared::new(instance);
        Ok(KnapsackFile {
            path: path.to_path_buf(),
            instance,
            optimum,
        })
    }
}

/// The optimum `index.tsv` (its text, named `file` in errors) lists for instance `name`:
/// every line but `#` comments and blank ones is `name n capacity optimum …`, tab-separated;
/// the entry of `name` must agree with the instance's n and capacity.
pub fn index_optimum(
    text: &str,
    file: &str,
    name: &str,
    instance: &Instance,
) -> Result<Option<u64>, String> {
    let mut found = None;
    for (k, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let at = |m: String| format!("{file}:{}: {m}", k + 1);
        let f: Vec<&str> = line.split('\t').map(str::trim).collect();
        let num = |i: usize, what: &str| -> Result<u64, String> {
            f.get(i)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| at(format!("expected name, n, capacity and optimum separated by tabs; the {what} is missing or not a whole number")))
        };
        let (n, capacity, optimum) = (num(1, "n")?, num(2, "capacity")?, num(3, "optimum")?);
        if f[0] == name {
            if n != instance.len() as u64 || capacity != instance.capacity {
                return Err(at(format!(
                    "{name} is listed with n = {n}, capacity {capacity}, but the file has n = {}, capacity {}",
                    instance.len(),
                    instance.capacity
                )));
            }
            found = Some(optimum);
        }
    }
    Ok(found)
}
