//! [`SmallQueue`]: a FIFO queue that holds its first `N` items inside its owner's state and
//! gives its heap memory back whenever it runs empty.
//!
//! A PE's outgoing messages wait in such a queue from the protocol's decision to the driver's
//! flush, which empties it: mostly one message, rarely a few. The protocol's components
//! (four-counter termination, the response tree, poll-and-shuffle's waves) queue their
//! signals the same way: a leaf of the reduction tree sends one report per wave, an inner PE
//! one message per child. As a `VecDeque` each was a heap block per PE that stayed allocated
//! after its first message (four messages' room), and with a million simulated PEs those
//! blocks were a tenth of the PEs' memory. Here the usual message stays inline; a burst
//! spills to the heap only while it lasts.

use smallvec::SmallVec;

/// A FIFO queue of `T`s (module comment).
#[derive(Debug)]
pub(crate) struct SmallQueue<T, const N: usize> {
    /// The items from `head` on are queued; those before it have left (None).
    items: SmallVec<[Option<T>; N]>,
    head: usize,
}

impl<T, const N: usize> Default for SmallQueue<T, N> {
    fn default() -> Self {
        SmallQueue {
            items: SmallVec::new(),
            head: 0,
        }
    }
}

impl<T, const N: usize> SmallQueue<T, N> {
    /// An empty queue.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Queue `item` last.
    #[inline]
    pub(crate) fn push_back(&mut self, item: T) {
        if self.head > 0 && self.items.len() == self.items.capacity() {
            // Reuse the room of the items that have left before growing.
            self.items.drain(..self.head);
            self.head = 0;
        }
        self.items.push(Some(item));
    }

    /// The first item, taken out.
    #[inline]
    pub(crate) fn pop_front(&mut self) -> Option<T> {
        let item = self.items.get_mut(self.head)?.take();
        self.head += 1;
        if self.head == self.items.len() {
            self.head = 0;
            self.items.clear();
            if self.items.spilled() {
                // Back inline: the heap block goes back now.
                self.items.shrink_to_fit();
            }
        }
        item
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::VecDeque;

    proptest! {
        /// Any sequence of pushes and pops gives what a `VecDeque` gives.
        #[test]
        fn behaves_as_a_fifo(ops in prop::collection::vec(prop::option::of(any::<u32>()), 0..300)) {
            let mut queue = SmallQueue::<u32, 2>::new();
            let mut model = VecDeque::new();
            for op in ops {
                match op {
                    Some(x) => {
                        queue.push_back(x);
                        model.push_back(x);
                    }
                    None => prop_assert_eq!(queue.pop_front(), model.pop_front()),
                }
                prop_assert_eq!(queue.items.len() - queue.head, model.len());
            }
            while let Some(x) = model.pop_front() {
                prop_assert_eq!(queue.pop_front(), Some(x));
            }
            prop_assert!(queue.items.is_empty());
            prop_assert_eq!(queue.pop_front(), None);
        }
    }

    #[test]
    fn an_emptied_queue_is_inline_again() {
        let mut queue = SmallQueue::<String, 1>::new();
        for i in 0..5 {
            queue.push_back(i.to_string());
        }
        assert!(queue.items.spilled());
        for i in 0..5 {
            assert_eq!(queue.pop_front(), Some(i.to_string()));
        }
        assert!(!queue.items.spilled());
        assert!(queue.items.is_empty());
    }
}
