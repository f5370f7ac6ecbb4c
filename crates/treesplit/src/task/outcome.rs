//! [`Outcome`] for the common result types, so that a task can count, sum, collect or keep
//! the best without a type of its own: every integer type and `f32`/`f64` (sums), tuples of
//! up to four outcomes (component-wise), `Vec<T>` (concatenation, in no particular order),
//! `Option<O>` (merges what is there) and the [`Min`]/[`Max`] wrappers (keep the smaller or
//! larger value).
//!
//! Floating-point sums depend on the order the PEs' results are merged in, which changes
//! from run to run: expect the last bits to differ.

use super::Outcome;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

macro_rules! sum {
    ($($t:ty),*) => {$(
        /// A sum.
        impl Outcome for $t {
            fn merge(&mut self, other: Self) {
                *self += other;
            }
        }
    )*};
}

sum!(u8, u16, u32, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64);

macro_rules! tuple {
    ($($name:ident $i:tt),+) => {
        /// Component-wise.
        impl<$($name: Outcome),+> Outcome for ($($name,)+) {
            fn merge(&mut self, other: Self) {
                $(self.$i.merge(other.$i);)+
            }
        }
    };
}

tuple!(A 0);
tuple!(A 0, B 1);
tuple!(A 0, B 1, C 2);
tuple!(A 0, B 1, C 2, D 3);

/// Concatenation (the order of the PEs' parts is unspecified).
impl<T: Clone + Debug + Send + Serialize + DeserializeOwned + 'static> Outcome for Vec<T> {
    fn merge(&mut self, other: Self) {
        self.extend(other);
    }
}

/// `None` until some PE has a value; values merge as `O` does.
impl<O: Outcome> Outcome for Option<O> {
    fn merge(&mut self, other: Self) {
        match (self.as_mut(), other) {
            (Some(mine), Some(theirs)) => mine.merge(theirs),
            (None, theirs) => *self = theirs,
            (Some(_), None) => {}
        }
    }
}

/// The smallest value offered (`None`, the default, until one is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Min<T>(pub Option<T>);

/// The largest value offered (`None`, the default, until one is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Max<T>(pub Option<T>);

macro_rules! extreme {
    ($name:ident, $better:tt) => {
        impl<T> Default for $name<T> {
            fn default() -> Self {
                $name(None)
            }
        }

        impl<T: PartialOrd> $name<T> {
            /// Keep `value` if it is better than the value held.
            pub fn offer(&mut self, value: T) {
                if self.0.as_ref().is_none_or(|held| value $better *held) {
                    self.0 = Some(value);
                }
            }

            /// The value held.
            pub fn get(&self) -> Option<&T> {
                self.0.as_ref()
            }
        }

        impl<T> Outcome for $name<T>
        where
            T: PartialOrd + Clone + Debug + Send + Serialize + DeserializeOwned + 'static,
        {
            fn merge(&mut self, other: Self) {
                if let Some(value) = other.0 {
                    self.offer(value);
                }
            }
        }
    };
}

extreme!(Min, <);
extreme!(Max, >);

#[cfg(test)]
mod tests {
    use super::*;

    fn merged<O: Outcome>(parts: Vec<O>) -> O {
        parts.into_iter().fold(O::default(), |mut a, b| {
            a.merge(b);
            a
        })
    }

    #[test]
    fn common_types_merge_as_documented() {
        assert_eq!(merged(vec![3u8, 4]), 7);
        assert_eq!(merged(vec![-3i32, 4, 10]), 11);
        assert_eq!(merged(vec![1usize, 2]), 3);
        assert_eq!(merged(vec![1u128 << 100, 1]), (1u128 << 100) + 1);
        assert_eq!(merged(vec![0.5f64, 0.25]), 0.75);
        assert_eq!(merged(vec![1.5f32, 1.0]), 2.5);
        assert_eq!(merged(vec![(1u64, 2.0f64), (3, 4.0)]), (4, 6.0));
        assert_eq!(
            merged(vec![(1u64, 2i64, 3u32, 4u8), (1, 1, 1, 1)]),
            (2, 3, 4, 5)
        );
        let mut v = merged(vec![vec![1, 2], vec![3]]);
        v.sort();
        assert_eq!(v, vec![1, 2, 3]);
        assert_eq!(merged(vec![None, Some(2u64), Some(5)]), Some(7));
        assert_eq!(merged::<Option<u64>>(vec![None, None]), None);
        assert_eq!(
            merged(vec![Min(Some(4)), Min(None), Min(Some(-2))]),
            Min(Some(-2))
        );
        assert_eq!(merged(vec![Max(Some(4.5)), Max(Some(1.0))]), Max(Some(4.5)));
        assert_eq!(Max::<i32>::default(), Max(None));
        let mut m = Min::default();
        m.offer(3);
        m.offer(7);
        assert_eq!(m.get(), Some(&3));
    }
}
