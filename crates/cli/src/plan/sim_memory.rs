//! The simulator's memory against the machine's, decided before a simulation starts: the
//! library estimates what a run will hold (`treesplit::machine::sim::estimate_memory`), the
//! application what its instance holds (`AppSpec::footprint`), and this compares their sum
//! with what the machine has available (`plan::memory`, the figure planning uses). A run
//! whose PEs alone do not fit is bad input (exit 2); one whose trace (its rings, and what the
//! writer keeps of every event) does not fit records fewer events per PE, and says so; a
//! large run that fits says what it may take. A ring holds only the events its PE recorded,
//! so these figures count every ring full: a bound on what the run may take, not a forecast.

use crate::output::{Failure, Notes};
use crate::plan::memory::size;
use treesplit::machine::sim::{estimate_memory, memory::BYTES_PER_PE};
use treesplit::Config;

/// Estimates above this are said before the run.
const SAY_ABOVE: u64 = 1 << 30;

/// Memory the trace writer (`output::trace`) holds per recorded event while it writes the
/// Chrome trace, at most: it pairs each message's ends (16 bytes per receive) and keeps both
/// ends of each paired message (24 bytes each) while it writes one PE's track at a time; its
/// vectors grow by doubling, so twice that. (Counted at 32 bytes, a simulation of 65,536 PEs
/// keeping 2,048 events each ran out of a 7.4 GiB `ulimit -v` while writing its trace.)
const WRITE_BYTES_PER_EVENT: u64 = 64;

/// `config` for a simulation that fits in `available` bytes (what the machine has beside the
/// instance's data; `source`: the limit that set the figure, as `plan::memory` names it): its
/// trace rings scaled down where they would not fit, or an error where its PEs would not.
pub fn fit_within(
    config: Config,
    available: u64,
    source: &str,
    notes: &Notes,
) -> Result<Config, Failure> {
    let estimate = estimate_memory(&config);
    let pes = config.pes;
    let pes_words = treesplit::words::count(pes, "PE", "PEs");
    if estimate.state > available {
        return Err(Failure::input(format!(
            "--pes {pes}: simulating {pes_words} needs about {} ({} KiB per PE), more than the {} available ({source}); simulate fewer PEs",
            size(estimate.state),
            BYTES_PER_PE / 1024,
            size(available)
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
                "sim: {pes_words} take at most about {} of memory ({} available, {source})",
                size(total),
                size(available)
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
            "--trace: {pes_words} leave no room for a trace in the {} available ({source})",
            size(available)
        )));
    };
    notes.note(format_args!(
        "--trace: {pes_words} recording {} events each would take up to {} to record and write, more than the {} available ({source}): each PE keeps its last {events} events",
        config.trace.unwrap_or(0),
        size(total),
        size(available)
    ));
    Ok(config.trace(events))
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUIET: Notes = Notes { quiet: true };

    #[test]
    fn too_many_pes_are_refused_and_long_traces_scaled_down() {
        let eight_gib = 8u64 << 30;
        let e = fit_within(
            Config::new(10_000_000),
            eight_gib,
            "a test's figure",
            &QUIET,
        )
        .unwrap_err();
        assert_eq!(e.code, crate::output::BAD_INPUT);
        assert!(e.message.contains("--pes 10000000"), "{}", e.message);
        assert!(
            e.message
                .contains("more than the 8.0 GiB available (a test's figure)"),
            "{}",
            e.message
        );
        let traced = Config::new(65_536).trace(1 << 16);
        let fitted = fit_within(traced, eight_gib, "a test's figure", &QUIET).unwrap();
        let events = fitted.trace.unwrap();
        assert!(events.is_power_of_two() && (1 << 7..1 << 16).contains(&events));
        assert!(
            estimate_memory(&fitted).total() + (65_536 * events as u64) * WRITE_BYTES_PER_EVENT
                <= eight_gib
        );
        let small = Config::new(64).trace(1 << 16);
        assert_eq!(
            fit_within(small.clone(), eight_gib, "a test's figure", &QUIET).unwrap(),
            small
        );
    }
}
