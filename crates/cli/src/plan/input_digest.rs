//! The input files a checkpointed computation read, by SHA-1, kept in its checkpoint after the
//! application's words (one word `#input SHA1 PATH` each). Pieces of a computation hold what
//! they took from their input (a hash table's keys, a graph's bitsets), so a resumed run whose
//! input changed would finish the old computation and then judge it against the new input's
//! checks (a wrong answer, exit 3, and the checkpoint removed). With the digests, `resume` and
//! a rerun of `run --checkpoint` compare each input file with what the checkpoint read and
//! refuse a changed one before the run (exit 2), leaving the checkpoint as it was. Standard
//! input and other streams have no digest; a checkpoint written without digests is taken as
//! it is.

use crate::output::{paths, Failure};
use sha1::{Digest, Sha1};
use std::io::Read;
use std::path::Path;

/// The start of a word that records an input's digest.
const MARK: &str = "#input ";

/// The application's words of checkpoint `words` (without the input digests).
pub fn app_words(words: &[String]) -> Vec<String> {
    words
        .iter()
        .filter(|w| !w.starts_with(MARK))
        .cloned()
        .collect()
}

/// `app` (the application's checkpoint words), each word that names a file made absolute (a
/// resume may run from another folder), followed by one digest word for each regular file
/// among the paths they name, as the files are now.
pub fn stamped(app: &[String]) -> Result<Vec<String>, Failure> {
    let mut words: Vec<String> = app
        .iter()
        .map(|w| {
            // A number or a flag is no path, even where a file of that name happens to exist.
            let path = Path::new(w);
            let plain = w.parse::<f64>().is_err() && !w.starts_with('-');
            match std::fs::canonicalize(path) {
                Ok(full) if plain && path.is_relative() && full.is_file() => {
                    full.display().to_string()
                }
                _ => w.clone(),
            }
        })
        .collect();
    for path in paths::words_as_paths(&words.clone()) {
        if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            continue;
        }
        words.push(format!("{MARK}{} {}", digest(&path)?, path.display()));
    }
    Ok(words)
}

/// Refuse when an input that checkpoint `file`'s words (`stored`) recorded has another digest
/// in `now` (the words this run would store), naming the file; inputs recorded on one side
/// only (a checkpoint written without digests) are not compared.
pub fn check_unchanged(stored: &[String], now: &[String], file: &Path) -> Result<(), Failure> {
    let recorded = |words: &[String]| -> Vec<(String, String)> {
        words
            .iter()
            .filter_map(|w| w.strip_prefix(MARK))
            .filter_map(|w| w.split_once(' '))
            .map(|(sha, path)| (path.to_string(), sha.to_string()))
            .collect()
    };
    let now = recorded(now);
    for (path, sha) in recorded(stored) {
        if let Some((_, current)) = now.iter().find(|(p, _)| *p == path) {
            if *current != sha {
                return Err(Failure::input(format!(
                    "{}: the input {path} changed since the checkpoint was written (its SHA-1 was {sha}, it is {current}); the checkpoint holds work of the old input and was left as it was: restore that input to go on, or remove the checkpoint to start over",
                    file.display()
                )));
            }
        }
    }
    Ok(())
}

/// The SHA-1 of `path`'s contents, in hex.
fn digest(path: &Path) -> Result<String, Failure> {
    let fail = |e: std::io::Error| Failure::input(format!("cannot read {}: {e}", path.display()));
    let mut file = std::fs::File::open(path).map_err(fail)?;
    let mut hasher = Sha1::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buffer).map_err(fail)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_input_is_refused_and_app_words_come_back() {
        let dir = std::env::temp_dir().join(format!("treesplit-digest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let keys = dir.join("keys.txt");
        std::fs::write(&keys, "1\n2\n").unwrap();
        let app = vec![
            "hashtable".to_string(),
            "--file".to_string(),
            keys.display().to_string(),
        ];
        let before = stamped(&app).unwrap();
        assert_eq!(before.len(), 4, "{before:?}");
        assert_eq!(app_words(&before), app, "an absolute path stays as it is");
        assert!(check_unchanged(&before, &stamped(&app).unwrap(), &dir).is_ok());
        std::fs::write(&keys, "1\n3\n").unwrap();
        let e = check_unchanged(&before, &stamped(&app).unwrap(), &dir).unwrap_err();
        assert_eq!(e.code, crate::output::BAD_INPUT);
        assert!(
            e.message.contains("changed since the checkpoint"),
            "{}",
            e.message
        );
        // A checkpoint written without digests is taken as it is.
        assert!(check_unchanged(&app, &stamped(&app).unwrap(), &dir).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
