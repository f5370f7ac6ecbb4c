//! Inputs for the task-DAG schedulers (paper 001 §14.6): the Standard Task Graph format of
//! Tobita and Kasahara, random layered DAGs, and the DAG of the recursive multiplication
//! algorithm (the chapter's Sect. 1.4, Fig. 14.7).
//!
//! **STG** ([`parse_stg`]): the first line is n, the number of real tasks; then n + 2 lines
//! `id cost npred pred…` for tasks 0..=n+1 in order, task 0 the dummy entry and task n + 1 the
//! dummy exit (both usually of cost 0). Lines starting with `#` (the published sets end
//! with such a block) and blank lines are skipped; anything else after the last task is
//! trailing junk. Every error names the file and the line: a wrong task count, a task out of
//! order, a field count that does not match npred, an unknown predecessor, a task that is its
//! own predecessor or names one twice, a number that does not fit in 64 bits, total work that
//! does not, and a cycle (naming a task on it and the line that defines that task).
//!
//! **Recursive multiplication** ([`multiply`]): multiplying two 2^K-digit numbers recursively
//! (school method, a·b = a₁b₁·B^{2k} + (a₁b₀ + a₀b₁)·B^k + a₀b₀): a *recursive call* task
//! (cost 2) splits the operands and spawns the four half-size products; one-digit products
//! are *multiplications* (cost 3); three *add/shift* tasks (cost 2 each) combine the four
//! products in a chain — (a₁b₀ + a₀b₁), then + a₁b₁·B^k, then + a₀b₀. For K = 1 (two digits,
//! Fig. 14.7) that is 8 tasks, W = 20 and the critical path call → product → three adds has
//! length 2 + 3 + 2 + 2 + 2 = 11; in general n(K) = 4·n(K−1) + 4, W(K) = 4·W(K−1) + 8 and
//! critical path 8K + 3.
//!
//! **Random layered** ([`random_layered`]): n tasks in about √n layers (seeded); a task of a
//! layer > 0 gets 1 to 3 distinct predecessors among the tasks of the layer before it and,
//! with probability 1/4, one more from any earlier layer; costs uniform in 1..=10.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use treesplit::dag::{Dag, DagError, TaskId};

/// The largest K of [`multiply`] (2^10 digits: 1,398,100 tasks).
pub const MAX_MULTIPLY_K: u32 = 10;

/// The largest n of [`random_layered`].
pub const MAX_RANDOM_TASKS: u64 = 1 << 24;

/// Read a DAG in Standard Task Graph format from `text`; errors name `file` and the line.
pub fn parse_stg(text: &str, file: &str) -> Result<Dag, String> {
    let mut header: Option<(u64, usize)> = None;
    let mut costs: Vec<u64> = Vec::new();
    let mut preds: Vec<Vec<TaskId>> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    let mut last_line = 0;
    let number = |s: &str, what: &str, line: usize| -> Result<u64, String> {
        s.parse::<u64>().map_err(|e| {
            if matches!(e.kind(), std::num::IntErrorKind::PosOverflow) {
                format!("{file}:{line}: {what} '{s}' does not fit in 64 bits")
            } else {
                format!("{file}:{line}: {what} '{s}' is not a non-negative integer")
            }
        })
    };
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        last_line = line_no;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let Some((n, _)) = header else {
            if fields.len() != 1 {
                return Err(format!(
                    "{file}:{line_no}: expected the number of tasks alone on the first line, found {} fields",
                    fields.len()
                ));
            }
            let n = number(fields[0], "the number of tasks", line_no)?;
            if n > treesplit::dag::MAX_TASKS as u64 - 2 {
                return Err(format!(
                    "{file}:{line_no}: {n} tasks are more than supported"
                ));
            }
            header = Some((n, line_no));
            continue;
        };
        let total = n + 2;
        let id = costs.len() as u64;
        if id >= total {
            return Err(format!(
                "{file}:{line_no}: trailing junk after the {total} task lines (n = {n} plus the dummy entry and exit): '{line}'"
            ));
        }
        if fields.len() < 3 {
            return Err(format!(
                "{file}:{line_no}: expected 'id cost npred pred…', found {} field{}",
                fields.len(),
                if fields.len() == 1 { "" } else { "s" }
            ));
        }
        let given = number(fields[0], "the task id", line_no)?;
        if given != id {
            return Err(format!(
                "{file}:{line_no}: expected task {id} here (tasks come in order 0..={}), found task {given}",
                total - 1
            ));
        }
        let cost = number(fields[1], "the cost", line_no)?;
        let npred = number(fields[2], "the number of predecessors", line_no)?;
        if npred != (fields.len() - 3) as u64 {
            return Err(format!(
                "{file}:{line_no}: task {id} announces {npred} predecessor{} but lists {}",
                if npred == 1 { "" } else { "s" },
                fields.len() - 3
            ));
        }
        let mut ps = Vec::with_capacity(fields.len() - 3);
        for f in &fields[3..] {
            let u = number(f, "the predecessor", line_no)?;
            if u >= total {
                return Err(format!(
                    "{file}:{line_no}: task {id} names predecessor {u}, which does not exist (tasks 0..={})",
                    total - 1
                ));
            }
            if u == id {
                return Err(format!(
                    "{file}:{line_no}: task {id} is its own predecessor"
                ));
            }
            if ps.contains(&(u as TaskId)) {
                return Err(format!(
                    "{file}:{line_no}: task {id} names predecessor {u} twice"
                ));
            }
            ps.push(u as TaskId);
        }
        costs.push(cost);
        preds.push(ps);
        lines.push(line_no);
    }
    let Some((n, header_line)) = header else {
        return Err(if last_line == 0 {
            format!("{file}: the file is empty (expected the number of tasks on the first line)")
        } else {
            format!("{file}:{last_line}: no line with the number of tasks")
        });
    };
    if (costs.len() as u64) < n + 2 {
        return Err(format!(
            "{file}:{last_line}: the header (line {header_line}) announces {n} tasks, {} lines with the dummy entry and exit, the file has {}",
            n + 2,
            costs.len()
        ));
    }
    Dag::new(costs, preds).map_err(|e| match e {
        DagError::Cycle { task, .. } => format!("{file}:{}: {e}", lines[task as usize]),
        DagError::Overflow => format!("{file}: {e}"),
        other => format!("{file}: {other}"),
    })
}

/// Write `dag` in Standard Task Graph format (tasks 0 and n−1 taken as the dummies: the
/// header says n − 2).
pub fn to_stg(dag: &Dag) -> String {
    let mut s = format!("{}\n", dag.len().saturating_sub(2));
    for v in 0..dag.len() as TaskId {
        s += &format!("{} {} {}", v, dag.cost(v), dag.preds(v).len());
        for u in dag.preds(v) {
            s += &format!(" {u}");
        }
        s.push('\n');
    }
    s
}

/// The DAG of recursive multiplication of two 2^k-digit numbers (module comment); `None` for
/// k > [`MAX_MULTIPLY_K`].
pub fn multiply(k: u32) -> Option<Dag> {
    if k > MAX_MULTIPLY_K {
        return None;
    }
    let mut costs = Vec::new();
    let mut preds: Vec<Vec<TaskId>> = Vec::new();
    fn add(
        costs: &mut Vec<u64>,
        preds: &mut Vec<Vec<TaskId>>,
        cost: u64,
        p: Vec<TaskId>,
    ) -> TaskId {
        costs.push(cost);
        preds.push(p);
        (costs.len() - 1) as TaskId
    }
    /// Returns (entry, exit) of the sub-DAG, the entry depending on `after`.
    fn build(
        k: u32,
        after: Option<TaskId>,
        costs: &mut Vec<u64>,
        preds: &mut Vec<Vec<TaskId>>,
    ) -> (TaskId, TaskId) {
        let dep: Vec<TaskId> = after.into_iter().collect();
        if k == 0 {
            let m = add(costs, preds, 3, dep);
            return (m, m);
        }
        let call = add(costs, preds, 2, dep);
        // The products a₁b₁, a₁b₀, a₀b₁, a₀b₀.
        let products: Vec<TaskId> = (0..4)
            .map(|_| build(k - 1, Some(call), costs, preds).1)
            .collect();
        let add1 = add(costs, preds, 2, vec![products[1], products[2]]);
        let add2 = add(costs, preds, 2, vec![add1, products[0]]);
        let add3 = add(costs, preds, 2, vec![add2, products[3]]);
        (call, add3)
    }
    build(k, None, &mut costs, &mut preds);
    Some(Dag::new(costs, preds).expect("the multiplication DAG is acyclic"))
}

/// A random layered DAG of `n` tasks from `seed` (module comment); `None` for n = 0 or
/// n > [`MAX_RANDOM_TASKS`].
pub fn random_layered(n: u64, seed: u64) -> Option<Dag> {
    if n == 0 || n > MAX_RANDOM_TASKS {
        return None;
    }
    let n = n as usize;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let layers = (n as f64).sqrt().ceil().max(1.0) as usize;
    // Layer boundaries: tasks [start[l], start[l+1]).
    let start: Vec<usize> = (0..=layers).map(|l| l * n / layers).collect();
    let mut costs = Vec::with_capacity(n);
    let mut preds: Vec<Vec<TaskId>> = Vec::with_capacity(n);
    for l in 0..layers {
        for _ in start[l]..start[l + 1] {
            costs.push(rng.random_range(1..=10u64));
            let mut ps: Vec<TaskId> = Vec::new();
            if l > 0 {
                let (lo, hi) = (start[l - 1], start[l]);
                let want = rng.random_range(1..=3usize).min(hi - lo);
                while ps.len() < want {
                    let u = rng.random_range(lo..hi) as TaskId;
                    if !ps.contains(&u) {
                        ps.push(u);
                    }
                }
                if lo > 0 && rng.random_range(0..4u32) == 0 {
                    let u = rng.random_range(0..lo) as TaskId;
                    ps.push(u);
                }
            }
            preds.push(ps);
        }
    }
    Some(Dag::new(costs, preds).expect("edges go to later layers only"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_digit_multiplication_is_fig_14_7() {
        let d = multiply(1).unwrap();
        assert_eq!(d.len(), 8);
        assert_eq!(d.work(), 20);
        assert_eq!(d.critical_path(), 11);
        assert_eq!(d.lower_bound(2), 11.0);
        assert_eq!(d.theorem_14_3_bound(2), 21.0);
        let costs: Vec<u64> = d.critical_path_tasks().iter().map(|&v| d.cost(v)).collect();
        assert_eq!(costs, vec![2, 3, 2, 2, 2]);
        for k in 0..=5 {
            let d = multiply(k).unwrap();
            assert_eq!(d.critical_path(), 8 * k as u64 + 3, "k = {k}");
            let n = if k == 0 {
                1
            } else {
                (4 * multiply(k - 1).unwrap().len() + 4) as u64
            };
            assert_eq!(d.len() as u64, n);
        }
        assert!(multiply(MAX_MULTIPLY_K + 1).is_none());
    }

    #[test]
    fn random_layered_is_seeded() {
        let a = random_layered(500, 7).unwrap();
        assert_eq!(a, random_layered(500, 7).unwrap());
        assert_ne!(a, random_layered(500, 8).unwrap());
        assert_eq!(a.len(), 500);
        assert!(a.critical_path() >= 22, "about √n layers deep");
    }

    #[test]
    fn stg_round_trip() {
        let d = multiply(2).unwrap();
        // Add the dummies: entry before every source, exit after every sink.
        let text = to_stg(&d);
        let back = parse_stg(&text, "m.stg").unwrap();
        assert_eq!(back, d);
    }

    #[test]
    fn stg_errors_name_the_file_and_line() {
        let ok = "2\n0 0 0\n1 5 1 0\n2 4 1 0\n3 0 2 1 2\n# a comment block\n# more\n";
        let d = parse_stg(ok, "f").unwrap();
        assert_eq!((d.len(), d.work(), d.critical_path()), (4, 9, 5));
        for (text, want) in [
            ("", "f: the file is empty"),
            ("# only\n", "f:1: no line with the number of tasks"),
            (
                "3\n0 0 0\n1 5 1 0\n2 4 1 0\n3 0 2 1 2\n",
                "f:5: the header (line 1) announces 3 tasks, 5 lines",
            ),
            (
                "2\n0 0 0\n1 5 2 0\n",
                "f:3: task 1 announces 2 predecessors but lists 1",
            ),
            (
                "2\n0 0 0\n1 5 1 7\n",
                "f:3: task 1 names predecessor 7, which does not exist",
            ),
            ("2\n0 0 0\n1 5 1 1\n", "f:3: task 1 is its own predecessor"),
            (
                "2\n0 0 0\n1 5 2 0 0\n",
                "f:3: task 1 names predecessor 0 twice",
            ),
            (
                "2\n0 0 0\n1 99999999999999999999 1 0\n",
                "f:3: the cost '99999999999999999999' does not fit in 64 bits",
            ),
            (
                "2\n0 0 0\n1 -5 1 0\n",
                "f:3: the cost '-5' is not a non-negative integer",
            ),
            ("2\n0 0 0\n2 5 1 0\n", "f:3: expected task 1 here"),
            (
                "2\n0 0 0\n1 5 1 0\n2 4 1 0\n3 0 2 1 2\n4 1 0\n",
                "f:6: trailing junk",
            ),
            (
                "2\n0 0 0\n1 5\n",
                "f:3: expected 'id cost npred pred…', found 2 fields",
            ),
            (
                "2\n0 0 0\n1 18446744073709551615 1 0\n2 1 1 0\n3 0 2 1 2\n",
                "f: the total work does not fit in 64 bits",
            ),
        ] {
            let err = parse_stg(text, "f").unwrap_err();
            assert!(err.starts_with(want), "{text:?}: got {err}, want {want}");
        }
        // 1 → 2 → 1: a cycle, named with the line of a task on it.
        let err = parse_stg("2\n0 0 0\n1 5 2 0 2\n2 4 1 1\n3 0 2 1 2\n", "f").unwrap_err();
        assert!(
            err.starts_with("f:3: the dependencies form a cycle through task 1")
                || err.starts_with("f:4: the dependencies form a cycle through task 2"),
            "{err}"
        );
    }
}

pub mod app;
