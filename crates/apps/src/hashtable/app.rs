//! The command line's face of the distributed hash table: its subcommand's arguments and how they
//! become an instance.

use super::{read_keys, HashtableSpec, MAX_KEYS};
use crate::app::{AppError, RunOption};
use crate::params::{Param, Type, Values};

/// `treesplit run hashtable (--keys N | --file F) --q Q`.
pub struct App;

/// The keys: generated, or read from a file.
const PARAMS: &[Param] = &[
    Param::long("keys", Type::U64, "Number of keys N, generated from --instance-seed, else --seed")
        .conflicts(&["file"])
        .required_unless(&["file"]),
    Param::long("file", Type::Path, "A file of keys, one key per line: any string (UTF-8 or not), an empty line the empty key; `-`: standard input"),
];

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "hashtable"
    }

    fn about(&self) -> &'static str {
        "Paper 003's distributed hash table: N keys into P·q buckets (q: `--q`, keys from `--instance-seed`, else `--seed`), X(X+1)/2 key comparisons per bucket; checked against a sequential dedup"
    }

    fn params(&self) -> &'static [Param] {
        PARAMS
    }

    /// Not `bench`: its table size comes from `--q`, a balancer option `bench` does not take.
    fn offered(&self, used: crate::app::Use) -> bool {
        used != crate::app::Use::Bench
    }

    fn reads_stdin(&self, values: &Values) -> bool {
        values.path("file").as_deref() == Some(std::path::Path::new("-"))
    }

    fn example(&self) -> &'static [&'static str] {
        &["--keys", "1000"]
    }
}

impl crate::app::Parse for App {
    type Instance = HashtableSpec;

    /// The keys; q, P and the seed of generated keys are set once the machine is known
    /// ([`crate::instance::Instance::adapt`]).
    fn parse(
        &self,
        values: &Values,
        _given: &dyn Fn(RunOption) -> bool,
    ) -> Result<Self::Instance, AppError> {
        let keys: Option<u64> = values.get("keys")?;
        Self::instance(keys, values.path("file")).map_err(AppError::BadInput)
    }
}

impl App {
    /// The instance of `--keys N` or `--file F`.
    fn instance(
        keys: Option<u64>,
        file: Option<std::path::PathBuf>,
    ) -> Result<HashtableSpec, String> {
        match (keys, file) {
            (Some(n), None) if n > MAX_KEYS => {
                Err(format!("hashtable --keys {n}: at most {MAX_KEYS} keys"))
            }
            // Generated once the command line has checked its memory estimate (`adapt` sets
            // the seed).
            (Some(n), None) => Ok(HashtableSpec::generated(n, 0, 0, 0)),
            (None, Some(f)) => {
                // A key a line (the last may lack its newline).
                let (bytes, name) = crate::input::read_bytes(&f, MAX_KEYS)?;
                let keys = read_keys(&bytes, &name)?;
                Ok(HashtableSpec::read(f, keys))
            }
            _ => Err("hashtable needs --keys N or --file F".into()),
        }
    }
}
