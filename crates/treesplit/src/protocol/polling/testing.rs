//! What the polling state machines' unit tests drive them with: a task of n units that a
//! split halves, and a PE of it.

use super::Polling;
use crate::config::Config;
use crate::piece::{Fresh, Piece};
use crate::protocol::PeId;
use crate::task::{Context, Task};
use serde::{Deserialize, Serialize};

/// n units of work, halved by a split.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Countdown(pub u64);

impl Task for Countdown {
    type Output = u64;
    fn work(&mut self, budget: u64, _: &mut Context<'_, u64>) -> u64 {
        let n = budget.min(self.0);
        self.0 -= n;
        n
    }
    fn split(&mut self) -> Option<Self> {
        let half = self.0 / 2;
        self.0 -= half;
        Some(Countdown(half))
    }
    fn is_empty(&self) -> bool {
        self.0 == 0
    }
}

/// PE `me` of `config`, starting with a countdown of `units` (None: idle).
pub(super) fn pe(me: PeId, config: &Config, units: Option<u64>) -> Polling {
    let root = units.map(|n| Piece::new(Countdown(n)));
    Polling::new(me, config, &Default::default(), 1, Fresh::of::<u64>(), root)
}

/// The units left in a piece of a countdown.
pub(super) fn units(piece: &Piece) -> u64 {
    piece.downcast_ref::<Countdown>().expect("a countdown").0
}
