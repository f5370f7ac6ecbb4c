//! `treesplit trees`: the named trees of the applications' catalogue
//! (`treesplit_apps::NAMED_TREES`), their flags and published node counts.

use crate::output::{self, Failure};
use crate::plan::Output;
use serde::Serialize;

#[derive(Serialize)]
struct Tree {
    name: &'static str,
    flags: &'static str,
    nodes: Option<u64>,
}

pub fn trees(out: &Output) -> Result<(), Failure> {
    if out.json {
        let trees: Vec<Tree> = treesplit_apps::NAMED_TREES
            .iter()
            .map(|t| Tree {
                name: t.name,
                flags: t.flags,
                nodes: t.nodes,
            })
            .collect();
        return output::print_json(&trees);
    }
    println!("{:<8} {:<45} {:>14}", "name", "UTS flags", "nodes");
    for t in treesplit_apps::NAMED_TREES {
        let nodes = t.nodes.map_or("-".to_string(), |n| n.to_string());
        println!("{:<8} {:<45} {:>14}", t.name, t.flags, nodes);
    }
    Ok(())
}
