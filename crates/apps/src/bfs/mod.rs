//! Parallel breadth-first search, level-synchronous (paper 001 §14.1.3 and §14.5.4): each
//! level is one tree-shaped computation over the edges leaving the frontier, balanced by
//! whichever balancer the run names; the levels run one after another (the command's level
//! loop). A level's work is the concatenation of the frontier vertices' adjacency lists,
//! numbered 0..Σ deg: a piece is a range of these edge numbers, so a vertex's job is its
//! degree and a high-degree vertex's edges are split between PEs like any other range.
//!
//! The graph and a level's frontier and visited set are the same on every PE and are not
//! sent with the pieces: a level registers its [`Level`] in this process under a key (every
//! MPI rank registers the same levels in the same order, so the keys agree) and a piece
//! carries only the key and its range. A piece's output is the unvisited vertices it found
//! (with repetitions); the level loop sorts them into the next frontier.
//!
//! Input: undirected edge lists in SNAP's format (`u v` per line, 0-based, `#` comments;
//! errors name file:line) and a Graph500-style R-MAT generator (A = 0.57, B = C = 0.19).
//! The graph is stored as adjacency arrays (CSR) without self-loops or parallel edges.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use treesplit::{Context, Outcome, Task};

/// The most vertices a graph may have (ids below it): 2^28, about 2 GB of adjacency offsets.
pub const MAX_VERTICES: u64 = 1 << 28;

/// An undirected graph as adjacency arrays.
#[derive(Debug, Clone, PartialEq)]
pub struct Graph {
    /// Vertex v's neighbours are `adj[offsets[v]..offsets[v + 1]]` (sorted).
    pub offsets: Vec<u64>,
    /// The concatenated adjacency lists.
    pub adj: Vec<u32>,
}

impl Graph {
    /// The graph of the undirected `edges` on `n` vertices (self-loops and repeated edges
    /// dropped).
    pub fn from_edges(n: usize, edges: &[(u32, u32)]) -> Graph {
        let mut degree = vec![0u64; n + 1];
        for &(u, v) in edges {
            if u != v {
                degree[u as usize] += 1;
                degree[v as usize] += 1;
            }
        }
        let mut offsets = vec![0u64; n + 1];
        for v in 0..n {
            offsets[v + 1] = offsets[v] + degree[v];
        }
        let mut fill = offsets.clone();
        let mut adj = vec![0u32; offsets[n] as usize];
        for &(u, v) in edges {
            if u != v {
                adj[fill[u as usize] as usize] = v;
                fill[u as usize] += 1;
                adj[fill[v as usize] as usize] = u;
                fill[v as usize] += 1;
            }
        }
        // Sort and deduplicate each list, compacting in place.
        let mut out = 0usize;
        let mut new_offsets = vec![0u64; n + 1];
        for v in 0..n {
            let (a, b) = (offsets[v] as usize, offsets[v + 1] as usize);
            adj[a..b].sort_unstable();
            let start = out;
            for i in a..b {
                if out == start || adj[out - 1] != adj[i] {
                    adj[out] = adj[i];
                    out += 1;
                }
            }
            new_offsets[v + 1] = out as u64;
        }
        adj.truncate(out);
        adj.shrink_to_fit();
        Graph {
            offsets: new_offsets,
            adj,
        }
    }

    /// The number of vertices.
    pub fn vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The number of undirected edges.
    pub fn edges(&self) -> u64 {
        self.adj.len() as u64 / 2
    }

    /// The neighbours of `v`.
    pub fn neighbours(&self, v: u32) -> &[u32] {
        &self.adj[self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize]
    }

    /// The degree of `v`.
    pub fn degree(&self, v: u32) -> u64 {
        self.offsets[v as usize + 1] - self.offsets[v as usize]
    }

    /// Parse a SNAP edge list (`name` in errors, as name:line).
    pub fn parse(text: &str, name: &str) -> Result<Graph, String> {
        let mut edges = Vec::new();
        let mut n = 0u64;
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let at = |m: String| format!("{name}:{}: {m}", i + 1);
            let fields: Vec<&str> = t.split_whitespace().collect();
            if fields.len() != 2 {
                return Err(at(format!(
                    "expected two vertex ids `u v`, found {} field{}: '{t}'",
                    fields.len(),
                    if fields.len() == 1 { "" } else { "s" }
                )));
            }
            let mut id = |s: &str| -> Result<u32, String> {
                let digits = s.strip_prefix('+').unwrap_or(s);
                if let Some(rest) = s.strip_prefix('-') {
                    if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(at(format!("negative vertex id {s} (ids are 0-based)")));
                    }
                }
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(at(format!("'{s}' is not a vertex id (a whole number ≥ 0)")));
                }
                match digits.parse::<u64>() {
                    Ok(v) if v < MAX_VERTICES => {
                        n = n.max(v + 1);
                        Ok(v as u32)
                    }
                    _ => Err(at(format!(
                        "vertex id {s} is too large (at most {})",
                        MAX_VERTICES - 1
                    ))),
                }
            };
            let (u, v) = (id(fields[0])?, id(fields[1])?);
            edges.push((u, v));
        }
        if n == 0 {
            return Err(format!(
                "{name}: no edges (every line is blank or a # comment)"
            ));
        }
        Ok(Graph::from_edges(n as usize, &edges))
    }

    /// Read a SNAP edge list from `path` (`-`: standard input).
    pub fn read(path: &std::path::Path) -> Result<Graph, String> {
        let (text, name) = crate::input::read_text(path)?;
        Graph::parse(&text, &name)
    }

    /// Check R-MAT parameters (as [`Graph::rmat`] takes them): the number of edges.
    pub fn check_rmat(scale: u32, edge_factor: u64) -> Result<u64, String> {
        if !(1..=28).contains(&scale) {
            return Err(format!("bfs --rmat SCALE must be in 1..=28, got {scale}"));
        }
        if !(1..=1024).contains(&edge_factor) {
            return Err(format!(
                "bfs --edge-factor must be in 1..=1024, got {edge_factor}"
            ));
        }
        edge_factor
            .checked_mul(1 << scale)
            .filter(|&m| m <= 1 << 31)
            .ok_or_else(|| {
                format!("bfs: R-MAT with 2^{scale} vertices and edge factor {edge_factor} has more than 2^31 edges")
            })
    }

    /// A Graph500-style R-MAT graph: 2^scale vertices, edge_factor·2^scale edges, each
    /// placed by recursive quadrant choice with A = 0.57, B = C = 0.19, D = 0.05, then the
    /// vertex ids permuted at random (as Graph500 does), all from `seed`.
    pub fn rmat(scale: u32, edge_factor: u64, seed: u64) -> Result<Graph, String> {
        let m = Graph::check_rmat(scale, edge_factor)?;
        let n = 1u64 << scale;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut perm: Vec<u32> = (0..n as u32).collect();
        for i in (1..perm.len()).rev() {
            perm.swap(i, rng.random_range(0..=i));
        }
        let (a, b, c) = (0.57, 0.19, 0.19);
        let edges: Vec<(u32, u32)> = (0..m)
            .map(|_| {
                let (mut u, mut v) = (0u32, 0u32);
                for bit in (0..scale).rev() {
                    let r: f64 = rng.random();
                    let (du, dv) = if r < a {
                        (0, 0)
                    } else if r < a + b {
                        (0, 1)
                    } else if r < a + b + c {
                        (1, 0)
                    } else {
                        (1, 1)
                    };
                    u |= du << bit;
                    v |= dv << bit;
                }
                (perm[u as usize], perm[v as usize])
            })
            .collect();
        Ok(Graph::from_edges(n as usize, &edges))
    }
}

/// What a BFS reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BfsSummary {
    /// Vertices reached from the source (the source included).
    pub reached: u64,
    /// The sum of the reached vertices' distances.
    pub distance_sum: u64,
    /// The largest distance.
    pub depth: u32,
    /// Adjacency entries of the reached vertices (each undirected edge of the reached
    /// component twice): the edges a BFS scans.
    pub scanned: u64,
}

/// Unreached.
pub const UNREACHED: u32 = u32::MAX;

/// Every vertex's distance from `source` by a plain sequential queue BFS.
pub fn sequential_bfs(g: &Graph, source: u32) -> Vec<u32> {
    let mut dist = vec![UNREACHED; g.vertices()];
    let mut queue = std::collections::VecDeque::from([source]);
    dist[source as usize] = 0;
    while let Some(v) = queue.pop_front() {
        for &w in g.neighbours(v) {
            if dist[w as usize] == UNREACHED {
                dist[w as usize] = dist[v as usize] + 1;
                queue.push_back(w);
            }
        }
    }
    dist
}

/// The summary of the distances `dist`.
pub fn summarize(g: &Graph, dist: &[u32]) -> BfsSummary {
    let mut s = BfsSummary::default();
    for (v, &d) in dist.iter().enumerate() {
        if d != UNREACHED {
            s.reached += 1;
            s.distance_sum += u64::from(d);
            s.depth = s.depth.max(d);
            s.scanned += g.degree(v as u32);
        }
    }
    s
}

/// One level of a BFS: the graph, the frontier and the vertices visited before it.
pub struct Level {
    /// The graph.
    pub graph: Arc<Graph>,
    /// The frontier (distance d).
    pub frontier: Vec<u32>,
    /// `prefix[i]`: the frontier's edges before frontier vertex i (length |frontier| + 1).
    pub prefix: Vec<u64>,
    /// Visited vertices (distance ≤ d) as a bit set.
    pub visited: Vec<u64>,
}

impl fmt::Debug for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Level {{ frontier: {} vertices, {} edges }}",
            self.frontier.len(),
            self.edges()
        )
    }
}

impl Level {
    /// The level of `frontier` with the visited set `visited`.
    pub fn new(graph: Arc<Graph>, frontier: Vec<u32>, visited: Vec<u64>) -> Level {
        let mut prefix = Vec::with_capacity(frontier.len() + 1);
        prefix.push(0);
        for &v in &frontier {
            prefix.push(prefix.last().unwrap() + graph.degree(v));
        }
        Level {
            graph,
            frontier,
            prefix,
            visited,
        }
    }

    /// The edges leaving the frontier.
    pub fn edges(&self) -> u64 {
        *self.prefix.last().unwrap()
    }

    fn is_visited(&self, w: u32) -> bool {
        self.visited[w as usize / 64] >> (w % 64) & 1 == 1
    }
}

/// The levels registered in this process, by key.
static LEVELS: Mutex<Option<HashMap<u64, Arc<Level>>>> = Mutex::new(None);

/// Register `level` under `key` (the same key on every process of a run); unregister it
/// when the returned guard drops.
pub fn register(key: u64, level: Level) -> Registered {
    let mut map = LEVELS.lock().unwrap_or_else(|e| e.into_inner());
    map.get_or_insert_with(HashMap::new)
        .insert(key, Arc::new(level));
    Registered(key)
}

/// A registered level; dropping it unregisters the level.
pub struct Registered(u64);

impl Drop for Registered {
    fn drop(&mut self) {
        let mut map = LEVELS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(m) = map.as_mut() {
            m.remove(&self.0);
        }
    }
}

fn lookup(key: u64) -> Arc<Level> {
    let map = LEVELS.lock().unwrap_or_else(|e| e.into_inner());
    map.as_ref()
        .and_then(|m| m.get(&key))
        .cloned()
        .unwrap_or_else(|| panic!("BFS level {key} is not registered in this process"))
}

/// The vertices a piece of a level found unvisited (with repetitions).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Found {
    /// The vertices.
    pub vertices: Vec<u32>,
}

impl Outcome for Found {
    fn merge(&mut self, mut other: Self) {
        if self.vertices.len() < other.vertices.len() {
            std::mem::swap(self, &mut other);
        }
        self.vertices.extend(other.vertices);
    }
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let found = treesplit::words::count(self.vertices.len(), "vertex", "vertices");
        write!(f, "{found} found")
    }
}

/// A piece of one level: the frontier's edges `lo..hi`.
#[derive(Clone, Serialize, Deserialize)]
pub struct LevelPiece {
    key: u64,
    lo: u64,
    hi: u64,
    #[serde(skip)]
    level: Option<Arc<Level>>,
}

impl fmt::Debug for LevelPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LevelPiece {{ key: {}, edges {}..{} }}",
            self.key, self.lo, self.hi
        )
    }
}

impl LevelPiece {
    /// All edges of the level registered under `key`.
    pub fn root(key: u64) -> LevelPiece {
        let level = lookup(key);
        LevelPiece {
            key,
            lo: 0,
            hi: level.edges(),
            level: Some(level),
        }
    }
}

impl Task for LevelPiece {
    type Output = Found;

    /// Scans edges from the front, one unit each.
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Found>) -> u64 {
        let key = self.key;
        let level = self.level.get_or_insert_with(|| lookup(key)).clone();
        let end = self.hi.min(self.lo.saturating_add(budget));
        let out = &mut ctx.output().vertices;
        // The frontier vertex holding edge `lo`.
        let mut i = level.prefix.partition_point(|&p| p <= self.lo) - 1;
        let mut pos = self.lo;
        while pos < end {
            let v = level.frontier[i];
            let first = level.graph.offsets[v as usize];
            let upto = end.min(level.prefix[i + 1]);
            let from = first + (pos - level.prefix[i]);
            for &w in &level.graph.adj[from as usize..(from + upto - pos) as usize] {
                if !level.is_visited(w) && out.last() != Some(&w) {
                    out.push(w);
                }
            }
            pos = upto;
            i += 1;
        }
        let units = end - self.lo;
        self.lo = end;
        units
    }

    fn split(&mut self) -> Option<Self> {
        if self.hi.saturating_sub(self.lo) < 2 {
            return None;
        }
        let mid = self.lo + (self.hi - self.lo) / 2;
        let upper = LevelPiece {
            key: self.key,
            lo: mid,
            hi: self.hi,
            level: self.level.clone(),
        };
        self.hi = mid;
        Some(upper)
    }

    fn is_empty(&self) -> bool {
        self.lo >= self.hi
    }

    /// Exact: one unit per edge.
    fn estimate(&self) -> Option<u64> {
        Some(self.hi - self.lo)
    }

    fn split_at(&mut self, units: u64) -> Option<Self> {
        let cut = self.lo.checked_add(units.max(1)).filter(|&c| c < self.hi)?;
        let rest = LevelPiece {
            key: self.key,
            lo: cut,
            hi: self.hi,
            level: self.level.clone(),
        };
        self.hi = cut;
        Some(rest)
    }
}

/// A level-synchronous BFS from `source` whose levels are run by `run_level` (given the key
/// of the registered level, it returns the vertices found, on the process that holds the
/// result) and whose next frontier `share` makes known to every process (MPI). Returns the
/// distances (on every process). `key_base` makes the keys of one BFS distinct.
pub fn level_bfs<E>(
    graph: &Arc<Graph>,
    source: u32,
    key_base: u64,
    mut run_level: impl FnMut(u64) -> Result<Option<Found>, E>,
    share: impl Fn(&mut Vec<u32>),
) -> Result<Vec<u32>, E> {
    let n = graph.vertices();
    let mut dist = vec![UNREACHED; n];
    let mut visited = vec![0u64; n.div_ceil(64)];
    let mut frontier = vec![source];
    dist[source as usize] = 0;
    visited[source as usize / 64] |= 1 << (source % 64);
    let mut d = 0u32;
    loop {
        let level = Level::new(Arc::clone(graph), frontier, visited.clone());
        if level.edges() == 0 {
            break;
        }
        let key = key_base.wrapping_add(u64::from(d));
        let guard = register(key, level);
        let found = run_level(key)?;
        drop(guard);
        let mut next = match found {
            Some(f) => {
                let mut v = f.vertices;
                v.sort_unstable();
                v.dedup();
                v
            }
            None => Vec::new(),
        };
        share(&mut next);
        if next.is_empty() {
            break;
        }
        d += 1;
        for &w in &next {
            dist[w as usize] = d;
            visited[w as usize / 64] |= 1 << (w % 64);
        }
        frontier = next;
    }
    Ok(dist)
}

#[cfg(test)]
mod tests {
    use super::*;
    use treesplit::run_sequential;

    #[test]
    fn levels_equal_the_queue_bfs() {
        let g = Arc::new(Graph::rmat(10, 8, 3).unwrap());
        let src = (0..g.vertices() as u32)
            .max_by_key(|&v| g.degree(v))
            .unwrap();
        let want = sequential_bfs(&g, src);
        let got = level_bfs::<()>(
            &g,
            src,
            1 << 40,
            |key| Ok(Some(run_sequential(LevelPiece::root(key)).output)),
            |_| {},
        )
        .unwrap();
        assert_eq!(got, want);
        assert!(summarize(&g, &want).reached > 500);
    }

    #[test]
    fn snap_errors_name_the_line() {
        let e = Graph::parse("# c\n0 1\n1 -2\n", "g.txt").unwrap_err();
        assert!(e.starts_with("g.txt:3: negative vertex id -2"), "{e}");
        let e = Graph::parse("0 1\n1 2 3\n", "g.txt").unwrap_err();
        assert!(e.starts_with("g.txt:2: expected two"), "{e}");
        let e = Graph::parse("0 99999999999999999999999\n", "g").unwrap_err();
        assert!(e.contains("too large"), "{e}");
        let g = Graph::parse("0 1\n1 0\n1 1\n2 1\n", "g").unwrap();
        assert_eq!((g.vertices(), g.edges()), (3, 2));
    }
}

pub mod app;
pub mod levels;
pub mod spec;

pub use spec::{BfsSpec, GraphSource};
