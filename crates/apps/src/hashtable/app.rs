//! The command line's face of the distributed hash table: its subcommand's arguments and how they
//! become an instance.

use super::{parse_keys, HashtableSpec, KeySource, MAX_KEYS};
use std::sync::Arc;

/// `treesplit run hashtable (--keys N | --file F) --q Q`.
pub struct App;

/// Paper 003's distributed hash table: N keys into P·q buckets (q: `--q`, keys from
/// `--seed`), X(X+1)/2 key comparisons per bucket; checked against a sequential dedup.
#[derive(Debug, clap::Args)]
struct Args {
    /// Number of keys N, generated from --seed.
    #[arg(long, conflicts_with = "file", required_unless_present = "file")]
    keys: Option<u64>,
    /// A file of keys, one unsigned 64-bit integer per line (`#` comments).
    #[arg(long)]
    file: Option<std::path::PathBuf>,
}

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "hashtable"
    }

    fn command(&self) -> clap::Command {
        crate::app::command::<Args>(self.name())
    }

    /// Not `bench`: its table size comes from `--q`, a balancer option `bench` does not take.
    fn offered(&self, used: crate::app::Use) -> bool {
        used != crate::app::Use::Bench
    }

    fn reads_stdin(&self, args: &clap::ArgMatches) -> bool {
        crate::app::typed::<Args>(args)
            .is_ok_and(|a| a.file.as_deref() == Some(std::path::Path::new("-")))
    }

    /// The keys; q, P and the seed of generated keys are set once the machine is known
    /// (`AppSpec::adapt`).
    fn parse(
        &self,
        args: &clap::ArgMatches,
        _given: &dyn Fn(&str) -> bool,
    ) -> Result<crate::AppSpec, String> {
        let Args { keys, file } = crate::app::typed(args)?;
        let (source, keys) = match (keys, file) {
            (Some(n), None) if n > MAX_KEYS => {
                return Err(format!("hashtable --keys {n}: at most {MAX_KEYS} keys"))
            }
            (Some(n), None) => (KeySource::Generated { n, seed: 0 }, Vec::new()),
            (None, Some(f)) => {
                let (text, name) = if f == std::path::Path::new("-") {
                    let text = std::io::read_to_string(std::io::stdin())
                        .map_err(|e| format!("cannot read standard input: {e}"))?;
                    (text, "<stdin>".to_string())
                } else {
                    let text = std::fs::read_to_string(&f)
                        .map_err(|e| format!("cannot read {}: {e}", f.display()))?;
                    (text, f.display().to_string())
                };
                let keys = parse_keys(&text, &name)?;
                (KeySource::File(f), keys)
            }
            _ => return Err("hashtable needs --keys N or --file F".into()),
        };
        Ok(crate::AppSpec::Hashtable(HashtableSpec {
            source,
            keys: Arc::new(keys),
            q: 0,
            pes: 0,
        }))
    }
}
