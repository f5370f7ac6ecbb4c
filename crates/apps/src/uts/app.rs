//! The command line's face of UTS: its subcommand's arguments, how they become an instance,
//! and what the instance tells the commands (its task, the published node counts of the named
//! trees, its peers: the sequential search, rayon, chili).

use super::{num_children, Node, Uts, UtsCount, UtsParams};
use crate::app::{AppError, RunOption};
use crate::instance::{Instance, PeerVisitor};
use crate::params::{Form, Param, Type, Values};
use crate::peers::{chili, Peers, EVERY_NODE};
use crate::spec::{AppVisitor, Published};
use rayon::prelude::*;

/// `treesplit run uts [TREE] [-t …]`.
pub struct App;

/// A named tree and the UTS flags, which UTS's own reader takes as its words.
const PARAMS: &[Param] = &[
    Param::positional(
        "tree",
        Type::Text,
        "A named tree (see `treesplit trees`); flags given beside it override its values",
    ),
    Param::short(
        "t",
        Type::Text,
        "Tree type: 0 binomial, 1 geometric, 2 hybrid",
    ),
    Param::short(
        "a",
        Type::Text,
        "Shape of geometric trees: 0 linear, 1 expdec, 2 cyclic, 3 fixed",
    ),
    Param::short("d", Type::Text, "Depth parameter d"),
    Param::short("b", Type::Text, "Root branching factor b0"),
    Param::short(
        "q",
        Type::Text,
        "Binomial: probability that a node has children",
    ),
    Param::short(
        "m",
        Type::Text,
        "Binomial: number of children of a node that has any",
    ),
    Param::short("r", Type::Text, "Root seed"),
    Param::short(
        "f",
        Type::Text,
        "Hybrid: depth fraction where geometric turns binomial",
    ),
];

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "uts"
    }

    fn about(&self) -> &'static str {
        "UTS, Unbalanced Tree Search: a named tree (T1, T3, T1L, …) and/or UTS flags"
    }

    fn params(&self) -> &'static [Param] {
        PARAMS
    }

    /// Every node parallel.
    fn rayon_depth(&self) -> Option<u32> {
        Some(EVERY_NODE)
    }

    fn example(&self) -> &'static [&'static str] {
        &["T1-mini"]
    }
}

impl crate::app::Parse for App {
    type Instance = UtsParams;

    /// The tree, checked to be small enough to run to the end unless a run limit was given.
    fn parse(
        &self,
        values: &Values,
        given: &dyn Fn(RunOption) -> bool,
    ) -> Result<Self::Instance, AppError> {
        let mut flags = Vec::new();
        for p in PARAMS {
            if let Some(v) = values.get::<String>(p.name)? {
                if p.form == Form::Short {
                    flags.push(p.shown());
                }
                flags.push(v);
            }
        }
        let params = UtsParams::parse(&flags).map_err(AppError::BadInput)?;
        params
            .check_size(given(RunOption::MaxUnits) || given(RunOption::TimeLimit))
            .map_err(AppError::BadInput)?;
        Ok(params)
    }
}

/// The published node count of a named UTS tree, against `nodes`.
pub fn published_uts(p: &UtsParams, nodes: u64) -> Option<Published> {
    let (name, expected) = p.published_nodes()?;
    Some(Published {
        source: format!("UTS published node count of {name}"),
        value: format!("{expected} nodes"),
        matches: expected == nodes,
    })
}

impl Instance for UtsParams {
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        let p = *self;
        visitor.visit(move || Uts::new(p), move |c| published_uts(&p, c.nodes))
    }

    fn cli_args(&self) -> String {
        format!("uts {self}")
    }

    /// Names the trees that have a name.
    fn describe(&self) -> String {
        match self.published_nodes() {
            Some((name, _)) => format!("uts {name} ({self})"),
            None => format!("uts {self}"),
        }
    }

    /// ~55 ns per node (one SHA-1).
    fn default_delta_t(&self) -> u64 {
        256
    }

    fn visit_peer<V: PeerVisitor>(&self, visitor: V) -> Option<V::Out> {
        let p = *self;
        Some(visitor.visit(move || Uts::new(p), UtsPeers(p)))
    }
}

/// UTS's peers: forks over the children of the nodes above a height cut-off (rayon: parallel
/// iteration; chili: `join`s halving the children), an explicit-stack search below.
struct UtsPeers(UtsParams);

impl Peers for UtsPeers {
    type Output = UtsCount;

    fn sequential(&self) -> UtsCount {
        count_below(&self.0, Node::root(self.0.seed))
    }

    fn rayon(&self, cut: u32) -> UtsCount {
        rayon_peer(&self.0, cut)
    }

    fn chili(&self, scope: &mut chili::Scope<'_>, cut: u32) -> Option<UtsCount> {
        Some(chili_visit(scope, &self.0, Node::root(self.0.seed), cut))
    }

    fn cuts(&self) -> Vec<u32> {
        vec![2, 3, 4, 5, 6, 8, EVERY_NODE]
    }

    /// Binomial trees are thousands of levels deep: chili recurses only above a height.
    fn chili_cuts(&self) -> Vec<u32> {
        vec![2, 3, 4, 5, 6, 8, 12]
    }
}

/// The subtree of `node`, searched sequentially with an explicit stack.
fn count_below(params: &UtsParams, node: Node) -> UtsCount {
    let mut stack = vec![node];
    let mut count = UtsCount::default();
    while let Some(node) = stack.pop() {
        let n = num_children(params, &node);
        count.nodes += 1;
        count.leaves += u64::from(n == 0);
        count.max_height = count.max_height.max(node.height());
        stack.extend((0..n).map(|i| node.child(i)));
    }
    count
}

/// UTS with chili: the children of nodes above height `par_depth` in `join`s that halve
/// them; subtrees below searched sequentially.
fn chili_visit(
    s: &mut chili::Scope<'_>,
    params: &UtsParams,
    node: Node,
    par_depth: u32,
) -> UtsCount {
    if node.height() >= par_depth {
        return count_below(params, node);
    }
    let n = num_children(params, &node);
    let mut own = UtsCount {
        nodes: 1,
        leaves: u64::from(n == 0),
        max_height: node.height(),
    };
    treesplit::Outcome::merge(&mut own, chili_children(s, params, &node, 0, n, par_depth));
    own
}

/// The children `lo..hi` of `node`, halved by `join`s.
fn chili_children(
    s: &mut chili::Scope<'_>,
    params: &UtsParams,
    node: &Node,
    lo: u32,
    hi: u32,
    par_depth: u32,
) -> UtsCount {
    match hi - lo {
        0 => UtsCount::default(),
        1 => chili_visit(s, params, node.child(lo), par_depth),
        k => {
            let mid = lo + k / 2;
            let (mut a, b) = s.join(
                |s| chili_children(s, params, node, lo, mid, par_depth),
                |s| chili_children(s, params, node, mid, hi, par_depth),
            );
            treesplit::Outcome::merge(&mut a, b);
            a
        }
    }
}

/// UTS with rayon: the children of nodes above height `par_depth` are parallel iterators
/// (rayon's adaptive splitting decides what actually runs in parallel); subtrees below are
/// searched sequentially with an explicit stack. `par_depth = u32::MAX` makes every node
/// parallel.
pub fn rayon_peer(params: &UtsParams, par_depth: u32) -> UtsCount {
    rayon_visit(params, Node::root(params.seed), par_depth)
}

fn rayon_visit(params: &UtsParams, node: Node, par_depth: u32) -> UtsCount {
    if node.height() >= par_depth {
        return count_below(params, node);
    }
    let n = num_children(params, &node);
    let mut own = UtsCount {
        nodes: 1,
        leaves: u64::from(n == 0),
        max_height: node.height(),
    };
    if n > 0 {
        let sub = (0..n)
            .into_par_iter()
            .map(|i| rayon_visit(params, node.child(i), par_depth))
            .reduce(UtsCount::default, |mut a, b| {
                treesplit::Outcome::merge(&mut a, b);
                a
            });
        treesplit::Outcome::merge(&mut own, sub);
    }
    own
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peers_count_the_published_nodes_at_every_cut() {
        let params = UtsParams::parse(&["T1-mini".to_string()]).unwrap();
        let peers = UtsPeers(params);
        let pool = crate::peers::chili_pool(2);
        assert_eq!(peers.sequential().nodes, 63_914);
        for cut in peers.cuts() {
            assert_eq!(peers.rayon(cut).nodes, 63_914, "rayon at {cut}");
        }
        for cut in peers.chili_cuts() {
            let got = peers.chili(&mut pool.scope(), cut).unwrap();
            assert_eq!(got, peers.sequential(), "chili at {cut}");
        }
    }
}
