//! UTS tree parameters, the standard named trees and their published node counts.
//!
//! Flags follow the UTS reference code: `-t` type (0 binomial, 1 geometric, 2 hybrid),
//! `-a` shape (0 linear, 1 expdec, 2 cyclic, 3 fixed), `-d` depth parameter, `-b` root
//! branching factor, `-q`/`-m` binomial probability and child count, `-r` root seed,
//! `-f` hybrid shift depth.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How the number of children is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TreeType {
    /// Root has b0 children; every other node m children with probability q, else none.
    Binomial,
    /// Geometric distribution with mean given by the shape function of the depth.
    Geometric,
    /// Geometric above depth f·d, binomial below.
    Hybrid,
}

/// The shape function of geometric trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shape {
    /// b0 · (1 − depth/d).
    Linear,
    /// b0 · depth^(−ln b0 / ln d).
    ExpDec,
    /// b0^sin(2π·depth/d), none below depth 5d.
    Cyclic,
    /// b0 above depth d, none below.
    Fixed,
}

/// The parameters of one UTS tree.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct UtsParams {
    /// `-t`.
    pub tree: TreeType,
    /// `-a`.
    pub shape: Shape,
    /// `-d`: the depth parameter (gen_mx).
    pub depth: u32,
    /// `-b`: the root branching factor b0.
    pub b0: f64,
    /// `-q`: probability that a binomial node has children.
    pub q: f64,
    /// `-m`: children of a binomial node that has any.
    pub m: u32,
    /// `-r`: the root seed.
    pub seed: u32,
    /// `-f`: the hybrid shift depth, as a fraction of d.
    pub shift: f64,
}

impl Default for UtsParams {
    /// The UTS reference code's defaults: `-t 1 -a 0 -d 6 -b 4 -r 0` (1,732 nodes).
    fn default() -> Self {
        UtsParams {
            tree: TreeType::Geometric,
            shape: Shape::Linear,
            depth: 6,
            b0: 4.0,
            q: 15.0 / 64.0,
            m: 4,
            seed: 0,
            shift: 0.5,
        }
    }
}

/// A standard tree: name, parameters as UTS flags, and the published node count if known.
pub struct NamedTree {
    /// The name (T1, T3L, …).
    pub name: &'static str,
    /// The parameters as UTS command-line flags.
    pub flags: &'static str,
    /// Total nodes, as published with the UTS distribution.
    pub nodes: Option<u64>,
}

/// The standard sample trees of the UTS distribution (`sample_trees.sh`) and two small ones.
/// Node counts: T1, T3, T1L and the small trees from the project's toolchain notes; T2, T4
/// and T5 as documented with the UTS distribution, reproduced exactly by this implementation
/// (and checked by the tests); the larger trees' counts are left out until checked here.
pub const NAMED_TREES: &[NamedTree] = &[
    NamedTree {
        name: "default",
        flags: "-t 1 -a 0 -d 6 -b 4 -r 0",
        nodes: Some(1_732),
    },
    NamedTree {
        name: "T1-mini",
        flags: "-t 1 -a 3 -d 7 -b 4 -r 19",
        nodes: Some(63_914),
    },
    NamedTree {
        name: "T3-mini",
        flags: "-t 0 -b 20 -q 0.124875 -m 8 -r 42",
        nodes: Some(6_213),
    },
    NamedTree {
        name: "T1",
        flags: "-t 1 -a 3 -d 10 -b 4 -r 19",
        nodes: Some(4_130_071),
    },
    NamedTree {
        name: "T2",
        flags: "-t 1 -a 2 -d 16 -b 6 -r 502",
        nodes: Some(4_117_769),
    },
    NamedTree {
        name: "T3",
        flags: "-t 0 -b 2000 -q 0.124875 -m 8 -r 42",
        nodes: Some(4_112_897),
    },
    NamedTree {
        name: "T4",
        flags: "-t 2 -a 0 -d 16 -b 6 -r 1 -q 0.234375 -m 4",
        nodes: Some(4_132_453),
    },
    NamedTree {
        name: "T5",
        flags: "-t 1 -a 0 -d 20 -b 4 -r 34",
        nodes: Some(4_147_582),
    },
    NamedTree {
        name: "T1L",
        flags: "-t 1 -a 3 -d 13 -b 4 -r 29",
        nodes: Some(102_181_082),
    },
    NamedTree {
        name: "T2L",
        flags: "-t 1 -a 2 -d 23 -b 7 -r 220",
        nodes: None,
    },
    NamedTree {
        name: "T3L",
        flags: "-t 0 -b 2000 -q 0.200014 -m 5 -r 7",
        nodes: None,
    },
    NamedTree {
        name: "T1XL",
        flags: "-t 1 -a 3 -d 15 -b 4 -r 29",
        nodes: None,
    },
    NamedTree {
        name: "T1XXL",
        flags: "-t 1 -a 3 -d 15 -b 4 -r 19",
        nodes: None,
    },
    NamedTree {
        name: "T3XXL",
        flags: "-t 0 -b 2000 -q 0.499995 -m 2 -r 316",
        nodes: None,
    },
];

/// Look up a named tree (case-insensitive).
pub fn named(name: &str) -> Option<&'static NamedTree> {
    NAMED_TREES
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case(name))
}

impl UtsParams {
    /// Parse a tree given by an optional name followed by UTS flags that override it,
    /// e.g. `["T1"]`, `["-t", "1", "-a", "3", "-d", "10", "-b", "4", "-r", "19"]`.
    pub fn parse(args: &[String]) -> Result<Self, String> {
        let mut p = UtsParams::default();
        let mut rest = args;
        if let Some(first) = args.first().filter(|a| !a.starts_with('-')) {
            let tree = named(first).ok_or_else(|| {
                let names: Vec<_> = NAMED_TREES.iter().map(|t| t.name).collect();
                format!("unknown UTS tree '{first}' (known: {})", names.join(", "))
            })?;
            let flags: Vec<String> = tree.flags.split_whitespace().map(String::from).collect();
            p.apply_flags(&flags)?;
            rest = &args[1..];
        }
        p.apply_flags(rest)?;
        p.validate()?;
        Ok(p)
    }

    fn apply_flags(&mut self, args: &[String]) -> Result<(), String> {
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let value = it
                .next()
                .ok_or_else(|| format!("UTS flag '{flag}' needs a value"))?;
            let bad = |what: &str| format!("UTS flag {flag}: '{value}' is not {what}");
            match flag.as_str() {
                "-t" => {
                    self.tree = match value.as_str() {
                        "0" => TreeType::Binomial,
                        "1" => TreeType::Geometric,
                        "2" => TreeType::Hybrid,
                        _ => return Err(bad("a tree type (0 binomial, 1 geometric, 2 hybrid)")),
                    }
                }
                "-a" => {
                    self.shape = match value.as_str() {
                        "0" => Shape::Linear,
                        "1" => Shape::ExpDec,
                        "2" => Shape::Cyclic,
                        "3" => Shape::Fixed,
                        _ => return Err(bad("a shape (0 linear, 1 expdec, 2 cyclic, 3 fixed)")),
                    }
                }
                "-d" => {
                    self.depth = value
                        .parse()
                        .map_err(|_| bad("a depth (a non-negative integer)"))?
                }
                "-b" => self.b0 = value.parse().map_err(|_| bad("a branching factor"))?,
                "-q" => self.q = value.parse().map_err(|_| bad("a probability"))?,
                "-m" => self.m = value.parse().map_err(|_| bad("a child count"))?,
                "-r" => self.seed = value.parse().map_err(|_| bad("a root seed (0..2^32)"))?,
                "-f" => self.shift = value.parse().map_err(|_| bad("a shift depth fraction"))?,
                _ => {
                    return Err(format!(
                        "unknown UTS flag '{flag}' (known: -t -a -d -b -q -m -r -f)"
                    ))
                }
            }
        }
        Ok(())
    }

    /// Reject parameters that make no tree.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.b0.is_finite() && self.b0 >= 0.0) {
            return Err(format!(
                "UTS -b must be a finite number ≥ 0, got {}",
                self.b0
            ));
        }
        // Beyond this, a binomial root's floor(b0) children do not fit the 32-bit count and a
        // geometric node's 1/(1 + b0) vanishes in rounding (it gave a tree of 1 node).
        if self.b0 > f64::from(u32::MAX) {
            return Err(format!(
                "UTS -b must be at most 2^32 − 1 = {} (the root's number of children is a 32-bit count), got {}",
                u32::MAX,
                self.b0
            ));
        }
        if !(0.0..=1.0).contains(&self.q) {
            return Err(format!(
                "UTS -q must be a probability in [0, 1], got {}",
                self.q
            ));
        }
        if !(self.shift.is_finite() && self.shift >= 0.0) {
            return Err(format!("UTS -f must be ≥ 0, got {}", self.shift));
        }
        if self.tree != TreeType::Binomial && self.depth == 0 {
            return Err("UTS -d must be at least 1 for geometric and hybrid trees".into());
        }
        Ok(())
    }

    /// The published node count, when these parameters are those of a named tree.
    pub fn published_nodes(&self) -> Option<(&'static str, u64)> {
        NAMED_TREES.iter().find_map(|t| {
            let flags: Vec<String> = t.flags.split_whitespace().map(String::from).collect();
            let mut p = UtsParams::default();
            p.apply_flags(&flags).ok()?;
            (p == *self).then_some((t.name, t.nodes?))
        })
    }
}

impl fmt::Display for UtsParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = match self.tree {
            TreeType::Binomial => 0,
            TreeType::Geometric => 1,
            TreeType::Hybrid => 2,
        };
        let a = self.shape as u8;
        write!(
            f,
            "-t {t} -a {a} -d {} -b {} -q {} -m {} -r {}",
            self.depth, self.b0, self.q, self.m, self.seed
        )?;
        if self.tree == TreeType::Hybrid {
            write!(f, " -f {}", self.shift)?;
        }
        Ok(())
    }
}
