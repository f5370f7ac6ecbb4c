//! Decision on the search skeletons: place n queens on an n×n board, none attacking another,
//! and stop every PE at the first placement found.
//!
//! Run: `cargo run --release -p treesplit --example search_decide -- 28 2`  (28 queens, 2 PEs)

use serde::{Deserialize, Serialize};
use treesplit::search::{Decide, Decision, Space};
use treesplit::{run, Config};

#[derive(Serialize, Deserialize)]
struct Queens {
    n: usize,
}

/// Queens placed row by row: `cols[r]` is the column of the queen in row r.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Board {
    cols: Vec<usize>,
}

impl Board {
    fn free(&self, c: usize) -> bool {
        let r = self.cols.len();
        self.cols
            .iter()
            .enumerate()
            .all(|(i, &q)| q != c && q + r != c + i && q + i != c + r)
    }
}

impl Space for Queens {
    type Node = Board;
    /// The next column to try in the next row.
    type Children = usize;
    fn root(&self) -> Board {
        Board { cols: Vec::new() }
    }
    fn children(&self, _: &Board) -> usize {
        0
    }
    fn next_child(&self, b: &Board, next: &mut usize) -> Option<Board> {
        if b.cols.len() == self.n {
            return None;
        }
        // Try the middle columns first: solutions are found sooner there.
        while *next < self.n {
            let k = *next;
            *next += 1;
            let c = if k % 2 == 0 {
                (self.n + k) / 2
            } else {
                (self.n - 1 - k) / 2
            };
            if b.free(c) {
                let mut cols = b.cols.clone();
                cols.push(c);
                return Some(Board { cols });
            }
        }
        None
    }
}

impl Decide for Queens {
    fn is_goal(&self, b: &Board) -> bool {
        b.cols.len() == self.n
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map_or(28, |a| a.parse().expect("number of queens"));
    let pes: usize = args.next().map_or(2, |a| a.parse().expect("number of PEs"));
    let report = run(Decision::new(Queens { n }), &Config::new(pes))
        .expect("run failed")
        .into_report();
    match report.output.node() {
        Some(board) => {
            let queens = Board { cols: Vec::new() };
            assert!(board.cols.len() == n, "a whole board");
            // Every queen is free of those above it.
            let mut b = queens;
            for &c in &board.cols {
                assert!(b.free(c), "queens attack each other");
                b.cols.push(c);
            }
            println!("{n} queens: columns {:?}", board.cols);
        }
        None => println!("{n} queens: no placement"),
    }
    print!("{}", report.summary());
}
