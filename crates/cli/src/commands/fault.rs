//! Fault injection for testing failure handling end to end (documented in docs/cli.md and docs/mpi.md):
//! `TREESPLIT_FAULT=panic:PE` makes the task panic on PE `PE` once it has done some work;
//! `TREESPLIT_FAULT=exit:PE` makes that PE's process exit at once (a rank that dies).

use serde::{Deserialize, Serialize};
use treesplit::{Context, Task};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    Panic(usize),
    Exit(usize),
}

impl Fault {
    /// The PE it strikes.
    pub fn pe(self) -> usize {
        match self {
            Fault::Panic(pe) | Fault::Exit(pe) => pe,
        }
    }
}

/// The text of a panic's payload (a `&str` or a `String`, as `panic!` makes them).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

/// The fault the environment asks for, if any.
pub fn from_env() -> Result<Option<Fault>, String> {
    let Ok(spec) = std::env::var("TREESPLIT_FAULT") else {
        return Ok(None);
    };
    let bad = || format!("TREESPLIT_FAULT='{spec}': use panic:PE or exit:PE");
    let (kind, pe) = spec.split_once(':').ok_or_else(bad)?;
    let pe = pe.parse().map_err(|_| bad())?;
    match kind {
        "panic" => Ok(Some(Fault::Panic(pe))),
        "exit" => Ok(Some(Fault::Exit(pe))),
        _ => Err(bad()),
    }
}

/// A task that misbehaves on one PE.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Faulty<T: Task> {
    inner: T,
    fault: Fault,
}

impl<T: Task> Faulty<T> {
    pub fn new(inner: T, fault: Fault) -> Self {
        Faulty { inner, fault }
    }
}

impl<T: Task> Task for Faulty<T> {
    type Output = T::Output;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, T::Output>) -> u64 {
        let units = self.inner.work(budget, ctx);
        match self.fault {
            Fault::Panic(pe) if pe == ctx.pe() => {
                panic!("injected fault: the task panics on PE {pe}")
            }
            Fault::Exit(pe) if pe == ctx.pe() => {
                eprintln!("injected fault: PE {pe} exits");
                std::process::exit(99)
            }
            _ => units,
        }
    }

    fn split(&mut self) -> Option<Self> {
        let part = self.inner.split()?;
        Some(Faulty {
            inner: part,
            fault: self.fault,
        })
    }

    fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }
}
