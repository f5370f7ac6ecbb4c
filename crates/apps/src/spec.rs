//! An application instance as plain data (what the command line names) and the generic
//! machinery to work with its task: [`AppVisitor`], which an instance hands its concrete task
//! type and the check of a result against its [`Published`] answer, and [`Objective`], how two
//! results compare. Each application's instance type lives in its own module and implements
//! [`Instance`](crate::instance::Instance); the registry's enum of instances holds any of
//! them.

pub use crate::objective::Objective;
use serde::Serialize;
use std::fmt::{Debug, Display};
use treesplit::Task;

/// A published answer and whether a result reproduced it.
#[derive(Debug, Clone, Serialize)]
pub struct Published {
    /// Where the answer comes from.
    pub source: String,
    /// The answer.
    pub value: String,
    /// The result equals it.
    pub matches: bool,
}

impl Published {
    /// The line comparing a result with the published value.
    pub fn line(&self) -> String {
        let mark = if self.matches {
            "matches"
        } else {
            "DOES NOT MATCH"
        };
        format!("published ({}): {} — {mark}", self.source, self.value)
    }

    /// `found` against the `expected` value from `source`: it matches when they are equal.
    pub fn equal<T: PartialEq + Display>(source: &str, expected: T, found: &T) -> Published {
        Published {
            source: source.into(),
            value: expected.to_string(),
            matches: expected == *found,
        }
    }

    /// The wrong answer, when the result does not match.
    pub fn mismatch(&self) -> Option<String> {
        (!self.matches).then(|| {
            format!(
                "the result does not match the published {} ({})",
                self.value, self.source
            )
        })
    }
}

/// Something done with an application's task, whatever its type (an instance hands it its task in [`Instance::visit`](crate::instance::Instance::visit)).
pub trait AppVisitor {
    /// What the visit returns.
    type Out;
    /// Work with the task built by `make_root`; `published` checks a result against the
    /// published answer, where there is one.
    fn visit<T>(
        self,
        make_root: impl Fn() -> T,
        published: impl Fn(&T::Output) -> Option<Published>,
    ) -> Self::Out
    where
        T: Task,
        T::Output: Display + PartialEq + Debug + Objective;
}
