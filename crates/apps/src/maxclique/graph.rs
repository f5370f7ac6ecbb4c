//! The graph of a maximum-clique search: read from a DIMACS `.clq` file (an `END` line may
//! close it) or an edge list without a header (`u v` lines, 1-based), or drawn as G(n, p),
//! and held as bitset rows in the search's vertex order.
//!
//! The search colours candidate sets greedily in index order, so the vertices are renumbered
//! once, by a minimum-width (degeneracy) order: the vertex removed last when repeatedly
//! removing one of smallest degree gets index 0 (San Segundo's BBMC initial order). Rows are
//! bitsets over the new indices; `original` maps them back to the file's vertices, so every
//! clique the search reports is in DIMACS numbering (1-based).

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use treesplit::task::shared::Content;

/// The most vertices a graph may have. Not a limit of the bitsets' width (vertices are u32):
/// a graph is held as n bitset rows of n bits (n²/8 bytes, twice while it is renumbered: 64
/// MiB here), ordered in O(n²) time, and G(n, p) is drawn as an edge list first (8 bytes an
/// edge: about 0.5 GiB and 6 s for G(16384, 0.5)); the search colours n-bit sets at every
/// node, which suits dense graphs of up to a few thousand vertices. A larger, sparse graph
/// needs adjacency lists, not this representation.
pub const MAX_VERTICES: usize = 16_384;

/// Why [`MAX_VERTICES`] is the limit, for the error messages.
pub const WHY_MAX_VERTICES: &str = "a graph is held as n × n adjacency bits (n²/8 bytes, 32 MiB at 16384 vertices, twice while it is built) and built in O(n²) time; its search suits dense graphs of up to a few thousand vertices";

/// A set of vertices as a bitset over `words` 64-bit words.
pub type Bits = Vec<u64>;

/// Whether `v` is in `set`.
pub fn has(set: &[u64], v: u32) -> bool {
    set[(v / 64) as usize] >> (v % 64) & 1 == 1
}

/// Add `v` to `set`.
pub fn insert(set: &mut [u64], v: u32) {
    set[(v / 64) as usize] |= 1 << (v % 64);
}

/// Remove `v` from `set`.
pub fn remove(set: &mut [u64], v: u32) {
    set[(v / 64) as usize] &= !(1 << (v % 64));
}

/// An undirected simple graph in the search's vertex order.
#[derive(Debug, Serialize, Deserialize)]
pub struct Graph {
    /// Its digest (computed once).
    #[serde(skip)]
    id: std::sync::OnceLock<u64>,
    n: usize,
    words: usize,
    edges: u64,
    /// Row i (words i·words..(i+1)·words): the neighbours of search vertex i.
    rows: Vec<u64>,
    /// The file's vertex (0-based) of each search vertex.
    original: Vec<u32>,
}

/// Pieces name the graph by [`Graph::id`].
impl Content for Graph {
    fn digest(&self) -> u64 {
        self.id()
    }
}

impl Graph {
    /// The graph on `n` vertices (0-based) with `edges` (each pair once or more; no loops).
    pub fn new(n: usize, edges: &[(u32, u32)]) -> Result<Self, String> {
        if n > MAX_VERTICES {
            return Err(format!(
                "{n} vertices is more than the supported {MAX_VERTICES}: {WHY_MAX_VERTICES}"
            ));
        }
        let words = n.div_ceil(64).max(1);
        let mut adj = vec![0u64; n * words];
        for &(u, v) in edges {
            let (u, v) = (u as usize, v as usize);
            if u >= n || v >= n || u == v {
                return Err(format!(
                    "edge {{{u}, {v}}} is not one of {n} vertices without loops"
                ));
            }
            adj[u * words + v / 64] |= 1 << (v % 64);
            adj[v * words + u / 64] |= 1 << (u % 64);
        }
        let degree = |row: usize| -> u32 {
            adj[row * words..(row + 1) * words]
                .iter()
                .map(|w| w.count_ones())
                .sum()
        };
        let mut deg: Vec<u32> = (0..n).map(degree).collect();
        let edge_count = deg.iter().map(|&d| u64::from(d)).sum::<u64>() / 2;
        // Minimum width: remove a vertex of smallest remaining degree (lowest index on ties),
        // placing it last; the vertex removed last is search vertex 0.
        let mut removed = vec![false; n];
        let mut original = vec![0u32; n];
        for slot in (0..n).rev() {
            let v = (0..n)
                .filter(|&v| !removed[v])
                .min_by_key(|&v| (deg[v], v))
                .expect("a vertex left");
            removed[v] = true;
            original[slot] = v as u32;
            for (u, d) in deg.iter_mut().enumerate() {
                if !removed[u] && adj[v * words + u / 64] >> (u % 64) & 1 == 1 {
                    *d -= 1;
                }
            }
        }
        let mut rank = vec![0u32; n];
        for (i, &v) in original.iter().enumerate() {
            rank[v as usize] = i as u32;
        }
        let mut rows = vec![0u64; n * words];
        for (i, &v) in original.iter().enumerate() {
            let v = v as usize;
            for u in 0..n {
                if adj[v * words + u / 64] >> (u % 64) & 1 == 1 {
                    insert(&mut rows[i * words..(i + 1) * words], rank[u]);
                }
            }
        }
        Ok(Graph {
            id: std::sync::OnceLock::new(),
            n,
            words,
            edges: edge_count,
            rows,
            original,
        })
    }

    /// G(n, p): each of the n(n−1)/2 pairs is an edge with probability p, drawn from `seed`
    /// (xoshiro256++, pairs in the order (0,1), (0,2), …, (1,2), …).
    pub fn random(n: usize, p: f64, seed: u64) -> Result<Self, String> {
        if !(0.0..=1.0).contains(&p) {
            return Err(format!("the edge probability must be in [0, 1], got {p}"));
        }
        if n > MAX_VERTICES {
            return Err(format!(
                "{n} vertices is more than the supported {MAX_VERTICES}: {WHY_MAX_VERTICES}"
            ));
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut edges = Vec::new();
        for u in 0..n as u32 {
            for v in u + 1..n as u32 {
                if rng.random::<f64>() < p {
                    edges.push((u, v));
                }
            }
        }
        Graph::new(n, &edges)
    }

    /// Parse a graph file: DIMACS ([`Graph::parse_dimacs`]) or, where the first line that is
    /// not blank or a comment (`c`, `#`, `%`) starts with a number, an edge list
    /// ([`Graph::parse_edge_list`]).
    pub fn parse(text: &str, file: &str) -> Result<Self, String> {
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !is_comment(l));
        match first.and_then(|l| l.split_whitespace().next()) {
            Some(f) if f.starts_with(|c: char| c.is_ascii_digit()) => {
                Graph::parse_edge_list(text, file)
            }
            _ => Graph::parse_dimacs(text, file),
        }
    }

    /// Parse a DIMACS graph: `c` comment lines, one `p edge n m` (or `p col n m`) line before
    /// the edges, then `e u v` lines with 1-based vertices; blank lines are skipped, and an
    /// `END` line ends the graph (only blank lines may follow it). `m` must count the `e` lines
    /// or the distinct edges among them. Errors name `file` and the line.
    pub fn parse_dimacs(text: &str, file: &str) -> Result<Self, String> {
        let mut header: Option<(usize, u64, usize)> = None;
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let mut last_line = 0;
        let mut ended: Option<usize> = None;
        for (k, raw) in text.lines().enumerate() {
            let line_no = k + 1;
            last_line = line_no;
            let line = raw.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(end) = ended {
                return Err(format!("{file}:{line_no}: a line after END (line {end})"));
            }
            if line == "END" {
                ended = Some(line_no);
                continue;
            }
            let at = |msg: String| format!("{file}:{line_no}: {msg}");
            let fields: Vec<&str> = line.split_whitespace().collect();
            let number = |i: usize, what: &str| -> Result<u64, String> {
                let f = fields.get(i).ok_or_else(|| at(format!("missing {what}")))?;
                f.parse::<u64>()
                    .map_err(|_| at(format!("{what} is not a whole number ≥ 0: '{f}'")))
            };
            match fields[0] {
                "c" => {}
                "p" => {
                    if let Some((_, _, first)) = header {
                        return Err(at(format!(
                            "a second problem line (the first is line {first})"
                        )));
                    }
                    if !matches!(fields.get(1), Some(&"edge") | Some(&"col")) {
                        return Err(at(format!("expected 'p edge n m', found '{line}'")));
                    }
                    if fields.len() != 4 {
                        return Err(at(format!(
                            "expected 'p edge n m' (four fields), found {}",
                            fields.len()
                        )));
                    }
                    let n = number(2, "the number of vertices n")?;
                    let m = number(3, "the number of edges m")?;
                    if n > MAX_VERTICES as u64 {
                        return Err(at(format!(
                            "{n} vertices is more than the supported {MAX_VERTICES}: {WHY_MAX_VERTICES}"
                        )));
                    }
                    header = Some((n as usize, m, line_no));
                }
                "e" => {
                    let Some((n, _, _)) = header else {
                        return Err(at("an edge before the problem line 'p edge n m'".into()));
                    };
                    if fields.len() != 3 {
                        return Err(at(format!(
                            "expected 'e u v' (three fields), found {}",
                            fields.len()
                        )));
                    }
                    let u = number(1, "the first vertex")?;
                    let v = number(2, "the second vertex")?;
                    for w in [u, v] {
                        if w == 0 || w > n as u64 {
                            return Err(at(format!(
                                "vertex {w} is not in 1..={n} (vertices are numbered from 1)"
                            )));
                        }
                    }
                    if u == v {
                        return Err(at(format!("a loop at vertex {u}")));
                    }
                    edges.push((u as u32 - 1, v as u32 - 1));
                }
                other => {
                    return Err(at(format!(
                        "unknown line type '{other}' (expected c, p or e)"
                    )))
                }
            }
        }
        let (n, m, header_line) = header.ok_or_else(|| {
            if last_line == 0 {
                format!("{file}: the file is empty (expected a problem line 'p edge n m')")
            } else {
                format!("{file}:{last_line}: no problem line 'p edge n m'")
            }
        })?;
        let graph = Graph::new(n, &edges).map_err(|e| format!("{file}: {e}"))?;
        if m != edges.len() as u64 && m != graph.edges {
            return Err(format!(
                "{file}:{header_line}: the problem line announces {m} edges, the file has {} edge lines ({} distinct edges)",
                edges.len(),
                graph.edges
            ));
        }
        Ok(graph)
    }

    /// Parse an edge list: one edge `u v` a line (1-based vertices), comment lines starting
    /// with `c`, `#` or `%`, blank lines skipped, an `END` line as in DIMACS. The graph has as
    /// many vertices as the largest number named; an edge may be listed more than once (in
    /// either direction), a loop is an error. Errors name `file` and the line.
    pub fn parse_edge_list(text: &str, file: &str) -> Result<Self, String> {
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let mut n = 0u64;
        let mut ended: Option<usize> = None;
        let mut last_line = 0;
        for (k, raw) in text.lines().enumerate() {
            let line_no = k + 1;
            last_line = line_no;
            let line = raw.trim();
            if line.is_empty() || is_comment(line) {
                continue;
            }
            let at = |msg: String| format!("{file}:{line_no}: {msg}");
            if let Some(end) = ended {
                return Err(at(format!("a line after END (line {end})")));
            }
            if line == "END" {
                ended = Some(line_no);
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() != 2 {
                return Err(at(format!(
                    "expected an edge 'u v' (an edge list without a 'p' line: two vertex numbers a line), found '{line}'"
                )));
            }
            let mut uv = [0u64; 2];
            for (slot, f) in uv.iter_mut().zip(&fields) {
                *slot = f.parse::<u64>().map_err(|_| {
                    at(format!(
                        "vertex '{f}' is not a whole number ≥ 1 (an edge list: 'u v' a line)"
                    ))
                })?;
                if *slot == 0 {
                    return Err(at(
                        "vertex 0: the vertices of an edge list are numbered from 1".into(),
                    ));
                }
                if *slot > MAX_VERTICES as u64 {
                    return Err(at(format!(
                        "vertex {slot} is more than the supported {MAX_VERTICES} vertices: {WHY_MAX_VERTICES}"
                    )));
                }
            }
            let [u, v] = uv;
            if u == v {
                return Err(at(format!("a loop at vertex {u}")));
            }
            n = n.max(u).max(v);
            edges.push((u as u32 - 1, v as u32 - 1));
        }
        if edges.is_empty() {
            return Err(if last_line == 0 {
                format!("{file}: the file is empty (expected a DIMACS 'p edge n m' line or edges 'u v')")
            } else {
                format!("{file}:{last_line}: no edges")
            });
        }
        Graph::new(n as usize, &edges).map_err(|e| format!("{file}: {e}"))
    }

    /// Read and parse a graph file, DIMACS or an edge list (`-`: standard input).
    pub fn read(path: &std::path::Path) -> Result<Self, String> {
        let (text, name) = crate::input::read_text(path)?;
        Graph::parse(&text, &name)
    }

    /// The graph in DIMACS form (the file's vertex numbers, each edge once).
    pub fn to_dimacs(&self) -> String {
        let mut out = format!("p edge {} {}\n", self.n, self.edges);
        let mut edges = Vec::new();
        for i in 0..self.n as u32 {
            for j in i + 1..self.n as u32 {
                if has(self.row(i), j) {
                    let (a, b) = (self.original[i as usize], self.original[j as usize]);
                    edges.push((a.min(b) + 1, a.max(b) + 1));
                }
            }
        }
        edges.sort_unstable();
        for (a, b) in edges {
            out.push_str(&format!("e {a} {b}\n"));
        }
        out
    }

    /// The digest of the graph (n and its rows), under which pieces name it.
    pub fn id(&self) -> u64 {
        *self.id.get_or_init(|| {
            treesplit::task::shared::digest(
                [self.n as u64]
                    .into_iter()
                    .chain(self.original.iter().map(|&v| u64::from(v)))
                    .chain(self.rows.iter().copied()),
            )
        })
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True without vertices.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The number of edges.
    pub fn edges(&self) -> u64 {
        self.edges
    }

    /// Words per bitset.
    pub fn words(&self) -> usize {
        self.words
    }

    /// The neighbours of search vertex `v`.
    pub fn row(&self, v: u32) -> &[u64] {
        let v = v as usize;
        &self.rows[v * self.words..(v + 1) * self.words]
    }

    /// The DIMACS number (1-based, the file's) of search vertex `v`.
    pub fn dimacs(&self, v: u32) -> u32 {
        self.original[v as usize] + 1
    }

    /// Whether `vertices` (DIMACS numbers) are distinct vertices of the graph, pairwise
    /// adjacent.
    pub fn is_clique(&self, vertices: &[u32]) -> bool {
        let mut rank = vec![u32::MAX; self.n];
        for (i, &v) in self.original.iter().enumerate() {
            rank[v as usize] = i as u32;
        }
        let Some(search): Option<Vec<u32>> = vertices
            .iter()
            .map(|&v| (v >= 1 && v as usize <= self.n).then(|| rank[v as usize - 1]))
            .collect()
        else {
            return false;
        };
        search.iter().enumerate().all(|(i, &a)| {
            search[i + 1..]
                .iter()
                .all(|&b| a != b && has(self.row(a), b))
        })
    }
}

/// A comment line of an edge list: `#` or `%`, or `c` as a word of its own (DIMACS's).
fn is_comment(line: &str) -> bool {
    line.starts_with('#')
        || line.starts_with('%')
        || line == "c"
        || line.starts_with("c ")
        || line.starts_with("c\t")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimacs_round_trips_and_keeps_the_files_numbers() {
        let g = Graph::parse_dimacs(
            "c a triangle and a pendant\np edge 4 4\ne 1 2\ne 2 3\ne 1 3\ne 3 4\n",
            "t",
        )
        .unwrap();
        assert_eq!((g.len(), g.edges()), (4, 4));
        assert!(g.is_clique(&[1, 2, 3]) && g.is_clique(&[3, 4]) && g.is_clique(&[]));
        assert!(!g.is_clique(&[1, 4]) && !g.is_clique(&[1, 1]) && !g.is_clique(&[0, 1]));
        let again = Graph::parse_dimacs(&g.to_dimacs(), "again").unwrap();
        assert_eq!(again.to_dimacs(), g.to_dimacs());
        // Search vertex 0 is in the triangle (the 2-core), the pendant vertex 4 comes last.
        assert_eq!(g.dimacs(3), 4);
    }

    #[test]
    fn malformed_files_name_the_line() {
        for (text, want) in [
            ("", "t: the file is empty"),
            ("c only\n", "t:1: no problem line"),
            ("e 1 2\n", "t:1: an edge before the problem line"),
            ("p edge 3 1\ne 1 4\n", "t:2: vertex 4 is not in 1..=3"),
            ("p edge 3 1\ne 0 1\n", "t:2: vertex 0 is not in 1..=3"),
            ("p edge 3 1\ne 2 2\n", "t:2: a loop at vertex 2"),
            (
                "p edge 3 1\ne 1 x\n",
                "t:2: the second vertex is not a whole number",
            ),
            ("p edge 3 1\ne 1\n", "t:2: expected 'e u v'"),
            ("p edge 3\n", "t:1: expected 'p edge n m' (four fields)"),
            ("p cnf 3 1\n", "t:1: expected 'p edge n m'"),
            ("p edge 3 1\np edge 3 1\n", "t:2: a second problem line"),
            (
                "p edge 3 2\ne 1 2\n",
                "t:1: the problem line announces 2 edges",
            ),
            ("p edge 3 1\nx 1 2\n", "t:2: unknown line type 'x'"),
            ("p edge 99999 0\n", "t:1: 99999 vertices is more than"),
        ] {
            let e = Graph::parse_dimacs(text, "t").unwrap_err();
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
        // Edges listed in both directions count as the distinct edges.
        assert!(Graph::parse_dimacs("p edge 2 1\ne 1 2\ne 2 1\n", "t").is_ok());
        assert!(Graph::parse_dimacs("p edge 2 2\ne 1 2\ne 2 1\n", "t").is_ok());
    }

    #[test]
    fn an_end_line_closes_a_dimacs_file_and_edge_lists_need_no_header() {
        let dimacs = "c t\np edge 4 4\ne 1 2\ne 2 3\ne 1 3\ne 3 4\n";
        let g = Graph::parse(dimacs, "t").unwrap();
        let ended = Graph::parse(&format!("{dimacs}END\n\n"), "t").unwrap();
        assert_eq!(ended.to_dimacs(), g.to_dimacs());
        let list = "# a triangle and a pendant\n% x\nc y\n1 2\n2 3\n3 1\n1 2\n3 4\nEND\n";
        let from_list = Graph::parse(list, "l").unwrap();
        assert_eq!(from_list.to_dimacs(), g.to_dimacs());
        for (text, want) in [
            (
                "p edge 4 1\ne 1 2\nEND\ne 2 3\n",
                "t:4: a line after END (line 3)",
            ),
            ("1 2\nEND\n2 3\n", "t:3: a line after END (line 2)"),
            ("1 2\n2 2\n", "t:2: a loop at vertex 2"),
            ("1 2\n0 2\n", "t:2: vertex 0: the vertices of an edge list"),
            ("1 2\n2 x\n", "t:2: vertex 'x' is not a whole number"),
            ("1 2\n2 3 1\n", "t:2: expected an edge 'u v'"),
            ("1 2\np edge 3 1\n", "t:2: expected an edge 'u v'"),
            ("1 2\ne 2 3\n", "t:2: expected an edge 'u v'"),
            ("1 99999\n", "t:1: vertex 99999 is more than the supported"),
            ("p edge 3 1\ne 1 2\n2 3\n", "t:3: unknown line type '2'"),
        ] {
            let e = Graph::parse(text, "t").unwrap_err();
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
    }

    #[test]
    fn random_graphs_follow_their_seed_and_density() {
        let a = Graph::random(100, 0.3, 5).unwrap();
        assert_eq!(
            a.to_dimacs(),
            Graph::random(100, 0.3, 5).unwrap().to_dimacs()
        );
        assert_ne!(
            a.to_dimacs(),
            Graph::random(100, 0.3, 6).unwrap().to_dimacs()
        );
        let density = a.edges() as f64 / 4950.0;
        assert!((0.25..0.35).contains(&density), "{density}");
        assert_eq!(Graph::random(30, 1.0, 1).unwrap().edges(), 435);
        assert_eq!(Graph::random(30, 0.0, 1).unwrap().edges(), 0);
        assert!(Graph::random(3, 1.5, 1).is_err());
    }
}
