//! The simulator's memory against the machine's, decided before a simulation starts: the
//! library estimates what a run will hold (`treesplit::machine::sim::estimate_memory`), and
//! this compares it with what the machine has available (`MemAvailable` of /proc/meminfo).
//! A run whose PEs alone do not fit is bad input (exit 2); one whose trace (its rings, and the
//! writer's copy of every event) does not fit records fewer events per PE, and says so; a
//! large run that fits says what it may take.

use crate::output::{Failure, Notes};
use treesplit::machine::sim::{estimate_memory, memory::BYTES_PER_PE};
use treesplit::Config;

/// Estimates above this are said before the run.
const SAY_ABOVE: u64 = 1 << 30;

/// Memory the trace writer (`output::trace`) holds per recorded event while it writes the
/// Chrome trace (each event a record of its own before the file is written): about 250 bytes,
/// measured as the peak resident memory of `sim nqueens 10 --pes 65536 --trace FILE`, 7.2 GB,
/// less the PEs' state, over its ≈ 27 million events.
const WRITE_BYTES_PER_EVENT: u64 = 256;

/// `config` for a simulation that fits in the memory available: its trace rings scaled down
/// where they would not fit, or an error where its PEs would not.
pub fn fit(config: Config, notes: &Notes) -> Result<Config, Failure> {
    let Some(available) = available_bytes() else {
        return Ok(config); // no /proc/meminfo: nothing to compare with
    };
    fit_within(config, available, notes)
}

/// [`fit`] for a machine with `available` bytes.
pub fn fit_within(config: Config, available: u64, notes: &Notes) -> Result<Config, Failure> {
    let estimate = estimate_memory(&config);
    let pes = config.pes;
    if estimate.state > available {
        return Err(Failure::input(format!(
            "--pes {pes}: simulating {pes} PEs needs about {} ({} KiB per PE), more than the {} this machine has available; simulate fewer PEs",
            gib(estimate.state),
            BYTES_PER_PE / 1024,
            gib(available)
        )));
    }
    // A full trace, as recorded and as written out.
    let events = (config.pes as u64).saturating_mul(config.trace.unwrap_or(0) as u64);
    let total = estimate
        .total()
        .saturating_add(events.saturating_mul(WRITE_BYTES_PER_EVENT));
    if total <= available {
        if total > SAY_ABOVE {
            notes.note(format_args!(
                "sim: {pes} PEs take at most about {} of memory ({} available)",
                gib(total),
                gib(available)
            ));
        }
        return Ok(config);
    }
    // The trace is what does not fit: keep fewer events per PE (a power of two).
    let fits = estimate
        .trace_capacity_within(available, WRITE_BYTES_PER_EVENT)
        .map(|events| 1usize << events.ilog2());
    let Some(events) = fits else {
        return Err(Failure::input(format!(
            "--trace: {pes} PEs leave no room for a trace in the {} this machine has available",
            gib(available)
        )));
    };
    notes.note(format_args!(
        "--trace: {pes} PEs recording {} events each would take up to {} to record and write, more than the {} available: each PE keeps its last {events} events",
        config.trace.unwrap_or(0),
        gib(total),
        gib(available)
    ));
    Ok(config.trace(events))
}

/// Bytes as GiB, one decimal.
fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
}

/// `MemAvailable` of /proc/meminfo, in bytes.
fn available_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_available(&meminfo)
}

fn parse_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUIET: Notes = Notes { quiet: true };

    #[test]
    fn meminfo_is_read_in_bytes() {
        let text = "MemTotal:       24000000 kB\nMemAvailable:   23416260 kB\n";
        assert_eq!(parse_available(text), Some(23_416_260 * 1024));
        assert_eq!(parse_available("MemTotal: 1 kB\n"), None);
    }

    #[test]
    fn too_many_pes_are_refused_and_long_traces_scaled_down() {
        let eight_gib = 8u64 << 30;
        let e = fit_within(Config::new(10_000_000), eight_gib, &QUIET).unwrap_err();
        assert_eq!(e.code, crate::output::BAD_INPUT);
        assert!(e.message.contains("--pes 10000000"), "{}", e.message);
        let traced = Config::new(65_536).trace(1 << 16);
        let fitted = fit_within(traced, eight_gib, &QUIET).unwrap();
        let events = fitted.trace.unwrap();
        assert!(events.is_power_of_two() && (1 << 7..1 << 16).contains(&events));
        assert!(estimate_memory(&fitted).total() + (65_536 * events as u64) * 256 <= eight_gib);
        let small = Config::new(64).trace(1 << 16);
        assert_eq!(fit_within(small.clone(), eight_gib, &QUIET).unwrap(), small);
    }
}
