//! Part of the plan layer: the memory this machine has for a run, and an instance's estimate
//! ([`treesplit_apps::instance::Footprint`], which each application makes of its own data)
//! against it, before the instance's data is built: an instance that does not fit is bad
//! input, with both figures and what to change. The memory is `MemAvailable` of
//! /proc/meminfo, or `TREESPLIT_MEMORY_MIB` (MiB) where that is set; no figure (no
//! /proc/meminfo), no check. The simulator's own estimate (`commands::sim_memory`) is
//! compared with the same figure.

use super::{App, Env};
use crate::output::Failure;

/// Memory available to a run, in bytes, and where the figure comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Available {
    /// Bytes.
    pub bytes: u64,
    /// Where the figure comes from, in words.
    pub source: &'static str,
}

/// The variable that sets the memory a run may take (MiB), instead of `MemAvailable`.
pub const MEMORY_VAR: &str = "TREESPLIT_MEMORY_MIB";

/// The memory available to a run on this machine, where it can be told.
pub fn available() -> Result<Option<Available>, Failure> {
    if let Some(v) = std::env::var_os(MEMORY_VAR) {
        let mib = v.to_str().and_then(|v| v.trim().parse::<u64>().ok());
        return match mib.and_then(|mib| mib.checked_mul(1 << 20)) {
            Some(bytes) => Ok(Some(Available {
                bytes,
                source: MEMORY_VAR,
            })),
            None => Err(Failure::input(format!(
                "{MEMORY_VAR}={}: expected the memory a run may take, in MiB (a whole number)",
                v.to_string_lossy()
            ))),
        };
    }
    let Ok(meminfo) = std::fs::read_to_string("/proc/meminfo") else {
        return Ok(None);
    };
    Ok(parse_available(&meminfo).map(|bytes| Available {
        bytes,
        source: "MemAvailable in /proc/meminfo",
    }))
}

/// `MemAvailable` of a /proc/meminfo text, in bytes.
pub fn parse_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Processes of an MPI launcher on this host (each holds its own copy of an instance): the
/// launcher's local size (Open MPI, MPICH), else 1.
pub fn ranks_on_this_host() -> usize {
    let size = |v: &str| std::env::var(v).ok()?.parse::<usize>().ok();
    size("OMPI_COMM_WORLD_LOCAL_SIZE")
        .or_else(|| size("MPI_LOCALNRANKS"))
        .unwrap_or(1)
        .max(1)
}

/// Bytes in words: GiB with one decimal from 1 GiB on, whole MiB below.
pub fn size(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
    } else {
        format!("{} MiB", bytes.div_ceil(1 << 20))
    }
}

/// Refuse `app` when `copies` of it (processes of this host, each with its own) do not fit in
/// the memory `env` has available.
pub fn fit(app: &App, copies: usize, env: &Env) -> Result<(), Failure> {
    let (Some(footprint), Some(available)) = (app.footprint(), env.memory) else {
        return Ok(());
    };
    let copies = copies.max(1) as u64;
    let needed = footprint.bytes.saturating_mul(copies);
    if needed <= available.bytes {
        return Ok(());
    }
    let each = if copies > 1 {
        format!("; {copies} processes on this host, each with its own copy")
    } else {
        String::new()
    };
    Err(Failure::input(format!(
        "{}: the instance needs about {} of memory ({}{each}), more than the {} available ({}); {}",
        app.name(),
        size(needed),
        footprint.what,
        size(available.bytes),
        available.source,
        footprint.smaller
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_is_read_in_bytes() {
        let text = "MemTotal:       24000000 kB\nMemAvailable:   23416260 kB\n";
        assert_eq!(parse_available(text), Some(23_416_260 * 1024));
        assert_eq!(parse_available("MemTotal: 1 kB\n"), None);
    }

    #[test]
    fn sizes_read_in_gib_or_mib() {
        assert_eq!(size(3 << 29), "1.5 GiB");
        assert_eq!(size(1 << 30), "1.0 GiB");
        assert_eq!(size(100 << 20), "100 MiB");
        assert_eq!(size(1), "1 MiB");
    }
}
