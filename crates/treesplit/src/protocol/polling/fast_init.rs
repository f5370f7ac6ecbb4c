//! Fast initialization (`Config::fast_init`, exercise 14.7 of paper 001).
//!
//! Instead of letting idle PEs steal the root piece by piece (which takes Ω(log P) steals
//! along a path from PE 0), PE 0 sends copies of the root down the binary tree of PEs and
//! every PE cuts its own share: ⌊log₂ P⌋ splits of its copy, keeping at level j the part that
//! bit j of its number selects. The pieces of PEs 0..2^⌊log₂ P⌋ partition the root — this
//! needs `Task::split` to be deterministic — and the other PEs start idle. The copies are
//! counted as work messages, so termination cannot be declared while one travels, and a PE
//! does not ask for work before its copy has arrived (otherwise the root and an answer could
//! both bring it work; the simulation tests caught exactly this).

use super::Polling;
use crate::piece::Piece;

impl Polling {
    /// The copy of the root kept under `record` is here: pass copies to the children, then
    /// cut this PE's piece from it.
    pub(super) fn init_from_root(&mut self, root: Piece, record: u64) {
        if let Some(init) = self.permuted_init {
            return self.init_permuted(init, root, record);
        }
        self.pe.broadcast_root(&root, record);
        let (me, p) = (self.pe.me(), self.pe.p());
        let levels = usize::BITS - 1 - p.leading_zeros(); // ⌊log₂ P⌋
        if me >= 1 << levels {
            self.pe.finish_piece(record);
            return;
        }
        let mut task = root;
        let mut generation = 0;
        for level in 0..levels {
            let Some(other) = task.split() else {
                if me >> level & 1 == 1 {
                    // The other side of an atomic task is empty.
                    self.pe.finish_piece(record);
                    return;
                }
                continue;
            };
            generation += 1;
            self.pe.count_splits(1);
            if me >> level & 1 == 1 {
                task = other;
            }
        }
        self.take_piece(task, generation, record);
    }
}
