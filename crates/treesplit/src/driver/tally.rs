//! A PE's histograms while it runs, kept inline: [`Log2Tally`] and [`SplitTally`].
//!
//! The report's histograms ([`Log2Histogram`], [`SplitSizes`]) are vectors as long as the
//! largest bucket used. Kept per PE during a run, each was a heap block of its own (three per
//! PE, a few hundred bytes with the allocator's rounding), and with a million simulated PEs
//! that was a third of the PEs' memory. A PE's values of one kind mostly fall into a few
//! neighbouring buckets, so a tally counts a window of `W` consecutive buckets in 16-bit
//! counters, placed where its first value falls, inside the PE's own state; a value outside
//! the window, or a count past `u16::MAX`, goes to a full histogram on the heap, made only
//! then. The tally becomes the report's histogram at the PE's end, exactly the one counting
//! every value there would have made.

use crate::stats::{Log2Histogram, SplitSizes};

/// Log2 bucket counts of one kind of value (module comment): buckets `first..first + W`
/// inline, everything else in `spill`.
#[derive(Debug, Clone)]
pub(crate) struct Log2Tally<const W: usize> {
    counts: [u16; W],
    /// The window's first bucket ([`UNPLACED`] until the first value).
    first: u8,
    spill: Option<Box<Log2Histogram>>,
}

/// The window of a tally that has counted nothing yet.
const UNPLACED: u8 = u8::MAX;

impl<const W: usize> Default for Log2Tally<W> {
    fn default() -> Self {
        Log2Tally {
            counts: [0; W],
            first: UNPLACED,
            spill: None,
        }
    }
}

impl<const W: usize> Log2Tally<W> {
    /// Count `value`.
    #[inline]
    pub(crate) fn add(&mut self, value: u64) {
        let k = Log2Histogram::bucket(value);
        if self.first == UNPLACED {
            // A quarter of the window below the first value, the rest above it.
            self.first = k.saturating_sub(W / 4) as u8;
        }
        match self.counts.get_mut(k.wrapping_sub(self.first as usize)) {
            Some(c) if *c < u16::MAX => *c += 1,
            _ => self.spill(value),
        }
    }

    #[cold]
    #[inline(never)]
    fn spill(&mut self, value: u64) {
        self.spill.get_or_insert_with(Box::default).add(value);
    }

    /// The histogram of every value counted.
    pub(crate) fn histogram(&self) -> Log2Histogram {
        let mut h = self.spill.as_deref().cloned().unwrap_or_default();
        let first = self.first as usize;
        if let Some(last) = self.counts.iter().rposition(|&c| c > 0) {
            if h.counts.len() <= first + last {
                h.counts.resize(first + last + 1, 0);
            }
            for (i, &c) in self.counts[..=last].iter().enumerate() {
                h.counts[first + i] += u64::from(c);
            }
        }
        h
    }
}

/// [`SplitSizes`] of one PE while it runs, its histograms as [`Log2Tally`]s.
#[derive(Debug, Clone, Default)]
pub(crate) struct SplitTally {
    pieces: u64,
    estimated: u64,
    units: u64,
    max_units: u64,
    sizes: Log2Tally<24>,
    generations: Log2Tally<12>,
}

impl SplitTally {
    /// Count a piece of generation `generation` with estimated size `estimate`
    /// (as [`SplitSizes::add`]).
    pub(crate) fn add(&mut self, estimate: Option<u64>, generation: u32) {
        self.pieces += 1;
        self.generations.add(u64::from(generation));
        if let Some(units) = estimate {
            self.estimated += 1;
            self.units = self.units.saturating_add(units);
            self.max_units = self.max_units.max(units);
            self.sizes.add(units);
        }
    }

    /// The pieces counted, as the report has them.
    pub(crate) fn sizes(&self) -> SplitSizes {
        SplitSizes {
            pieces: self.pieces,
            estimated: self.estimated,
            units: self.units,
            max_units: self.max_units,
            sizes: self.sizes.histogram(),
            generations: self.generations.histogram(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn histogram_of(values: &[u64]) -> Log2Histogram {
        let mut h = Log2Histogram::default();
        values.iter().for_each(|&v| h.add(v));
        h
    }

    proptest! {
        /// Whatever the values (in the window, below it, above it, at the extremes), the
        /// tally's histogram is the one counting them all directly.
        #[test]
        fn a_tally_is_the_histogram_of_its_values(
            values in prop::collection::vec(
                prop_oneof![0u64..4, 20u64..300, any::<u64>(), Just(u64::MAX)], 0..200),
        ) {
            let mut tally = Log2Tally::<4>::default();
            values.iter().for_each(|&v| tally.add(v));
            prop_assert_eq!(tally.histogram(), histogram_of(&values));
        }

        #[test]
        fn split_tallies_are_split_sizes(
            pieces in prop::collection::vec((prop::option::of(any::<u64>()), any::<u32>()), 0..100),
        ) {
            let mut tally = SplitTally::default();
            let mut sizes = SplitSizes::default();
            for &(estimate, generation) in &pieces {
                tally.add(estimate, generation);
                sizes.add(estimate, generation);
            }
            prop_assert_eq!(tally.sizes(), sizes);
        }
    }

    #[test]
    fn counts_past_sixteen_bits_are_kept() {
        let mut tally = Log2Tally::<2>::default();
        let n = u64::from(u16::MAX) + 10;
        (0..n).for_each(|_| tally.add(5));
        tally.add(0);
        assert_eq!(tally.histogram().counts, vec![1, 0, 0, n]);
        assert_eq!(
            Log2Tally::<3>::default().histogram(),
            Log2Histogram::default()
        );
    }
}
