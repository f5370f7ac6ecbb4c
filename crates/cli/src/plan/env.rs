//! Part of the plan layer: what planning needs to know about the process, read once at the
//! edge ([`Env::read`], from `plan::plan`) so that planning itself reads no environment and
//! prints nothing: the cores, the MPI launcher's job size and fault injection's variable. The
//! notes planning has to say (an oversubscription warning) are collected in [`Env::notes`]
//! and printed by the caller.

use std::cell::RefCell;

/// The process's environment as planning sees it.
#[derive(Debug, Clone, Default)]
pub struct Env {
    /// Cores available to this process (the thread machine's default P).
    pub cores: usize,
    /// Processes the MPI launcher started (1 outside a launcher).
    pub launcher_size: usize,
    /// `TREESPLIT_FAULT`, if set (fault injection, for `treesplit run` only).
    pub fault: Option<String>,
    /// Notes planning has to say on stderr (silenced by `--quiet` already).
    pub notes: RefCell<Vec<String>>,
}

impl Env {
    /// This process's environment.
    pub fn read() -> Env {
        Env {
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            launcher_size: crate::output::launcher_size(),
            fault: std::env::var_os("TREESPLIT_FAULT").map(|v| v.to_string_lossy().into_owned()),
            notes: RefCell::default(),
        }
    }

    /// A fixed environment (tests): `cores` cores, no launcher, no fault.
    pub fn fixed(cores: usize) -> Env {
        Env {
            cores,
            launcher_size: 1,
            ..Env::default()
        }
    }

    /// Say `text` after planning (the caller prints it).
    pub fn note(&self, text: String) {
        self.notes.borrow_mut().push(text);
    }
}
