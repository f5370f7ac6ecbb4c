//! Fuzz the SNAP edge-list reader of BFS (`Graph::parse`) and the hash table's key files
//! (`hashtable::read_keys`, any bytes); a parsed graph is searched from vertex 0.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treesplit_apps::bfs::{sequential_bfs, Graph};

fuzz_target!(|data: &[u8]| {
    let _ = treesplit_apps::hashtable::read_keys(data, "fuzz.keys");
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(g) = Graph::parse(text, "fuzz.txt") {
        if g.vertices() > 0 && g.vertices() < 1 << 16 {
            let _ = sequential_bfs(&g, 0);
        }
    }
});
