//! Random shift (paper 001 §14.5.2), a synchronous victim rule.
//!
//! Round r starts every Δ (the PE's timer deadlines, `Polling::start_round`). A PE idle then asks
//! PE (i + k_r) mod P, where k_r ∈ 1..P is a hash of the run's seed and r — the same on every
//! PE without communication, so each PE receives at most one request per round. A rejected PE
//! waits for the next round. On real machines rounds are only approximately simultaneous;
//! correctness never depends on it (the request/answer protocol is random polling's), only
//! the bound of Theorem 14.2 does.

use super::Polling;
use crate::protocol::hash;

/// The shift k ∈ 1..P of round `round`: the same on every PE, from the run's seed alone.
pub(crate) fn round_shift(seed: u64, round: u64, p: usize) -> usize {
    let x = hash::indexed(seed, round, 0x5851_F42D_4C95_7F2D);
    1 + (x % (p as u64 - 1)) as usize
}

impl Polling {
    /// Round `round` starts: an idle PE asks PE (i + k_round) mod P.
    pub(super) fn random_shift_round(&mut self, round: u64) {
        if self.may_ask() {
            let p = self.pe.p();
            let victim = (self.pe.me() + round_shift(self.seed, round, p)) % p;
            self.ask_pe(victim);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::round_shift;

    #[test]
    fn round_shifts_stay_in_range_and_vary() {
        for p in [2, 3, 17, 1024] {
            let shifts: Vec<usize> = (0..200).map(|r| round_shift(3, r, p)).collect();
            assert!(shifts.iter().all(|&k| (1..p).contains(&k)));
            if p > 2 {
                assert!(
                    shifts.iter().any(|&k| k != shifts[0]),
                    "the shift never changes for P={p}"
                );
            }
        }
    }

    #[test]
    fn round_shifts_keep_their_values() {
        // Pinned: replays of recorded simulations depend on these.
        let shifts: Vec<usize> = (0..4).map(|r| round_shift(3, r, 1000)).collect();
        assert_eq!(shifts, PINNED);
    }

    const PINNED: [usize; 4] = [3, 9, 972, 146];
}
