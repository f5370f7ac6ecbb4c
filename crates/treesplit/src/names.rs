//! One source for the names of plain option enums (balancer kinds, termination protocols,
//! permutations, topologies): the `named!` macro writes the enum, its list of values, its
//! name, `Display`, `FromStr` and serde from one table of `Variant = "name"` rows, so the
//! names on the command line, in reports and in JSON cannot drift apart.

use std::fmt;

/// A name that matches no value of an option enum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    /// What was being named ("balancer", "topology", ...).
    pub what: &'static str,
    /// The name given.
    pub given: String,
    /// The names known.
    pub known: Vec<&'static str>,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} '{}' (known: {})",
            self.what,
            self.given,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownName {}

/// A value of an option with parameters (`fixed:B`, `uniform:MAX`, …) that does not parse:
/// what was being given, the text given, and the forms it may take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadValue {
    /// What was being given ("delay", "bundle rule", ...).
    pub what: &'static str,
    /// The text given.
    pub given: String,
    /// The forms it may take, as the message says them.
    pub expected: &'static str,
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad {} '{}' ({})", self.what, self.given, self.expected)
    }
}

impl std::error::Error for BadValue {}

/// `named! { /// doc  pub enum Name("what") { /// doc  Variant = "name", ... } }`
macro_rules! named {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident($what:literal) {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        $vis enum $name {
            $( $(#[$vmeta])* #[serde(rename = $text)] $variant, )+
        }

        impl $name {
            /// Every value, in the order of the table.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The name used on the command line, in reports and in JSON.
            pub fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::names::UnknownName;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $name::ALL
                    .iter()
                    .copied()
                    .find(|v| v.name() == s)
                    .ok_or_else(|| $crate::names::UnknownName {
                        what: $what,
                        given: s.to_string(),
                        known: $name::ALL.iter().map(|v| v.name()).collect(),
                    })
            }
        }
    };
}

pub(crate) use named;
