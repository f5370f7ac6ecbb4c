//! Part of the plan layer: what planning needs to know about the process, read once at the
//! edge ([`Env::read`], from `plan::plan`) so that planning itself reads no environment and
//! prints nothing: the cores, the MPI launcher's job size and its processes on this host, the
//! memory available (`plan::memory`) and fault injection's variable. The
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
    /// Processes of the MPI launcher on this host (1 outside a launcher).
    pub ranks_here: usize,
    /// The memory available to a run, where it can be told.
    pub memory: Option<super::memory::Available>,
    /// The address space left under `ulimit -v`, where there is such a limit (threads'
    /// stacks count against it, `plan::memory::fit_threads`).
    pub address_space: Option<u64>,
    /// `TREESPLIT_FAULT`, if set (fault injection, for `treesplit run` only).
    pub fault: Option<String>,
    /// Notes planning has to say on stderr (silenced by `--quiet` already).
    pub notes: RefCell<Vec<String>>,
}

impl Env {
    /// This process's environment (a malformed memory figure is bad input).
    pub fn read() -> Result<Env, crate::output::Failure> {
        Ok(Env {
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            launcher_size: crate::output::launcher_size(),
            ranks_here: super::memory::ranks_on_this_host(),
            memory: super::memory::available()?,
            address_space: super::memory::address_space(),
            fault: std::env::var_os("TREESPLIT_FAULT").map(|v| v.to_string_lossy().into_owned()),
            notes: RefCell::default(),
        })
    }

    /// A fixed environment (tests): `cores` cores, no launcher, no fault, no memory figure, no
    /// address-space limit.
    pub fn fixed(cores: usize) -> Env {
        Env {
            cores,
            launcher_size: 1,
            ranks_here: 1,
            ..Env::default()
        }
    }

    /// Say `text` after planning (the caller prints it).
    pub fn note(&self, text: String) {
        self.notes.borrow_mut().push(text);
    }
}
