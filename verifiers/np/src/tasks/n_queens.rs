//! N-queens completion: finish a board whose given queens admit exactly one completion.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::{Node, distinct_indices};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::violation::Violation;

const MIN_N: usize = 4;
const MAX_N: usize = 24;
/// Search nodes for counting completions of a caller-supplied board.
const SEARCH_BUDGET: u64 = 5_000_000;

/// An n-queens completion puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueensInstance {
    /// Board size.
    pub n: usize,
    /// Given queens as `[row, column]`, at most one per row.
    pub placed: Vec<[usize; 2]>,
}

/// The n-queens completion task.
#[derive(Debug)]
pub struct NQueens;

/// Completions of the given queens, up to `limit`, by bitmask backtracking; `None` when the
/// node budget runs out first. Also returns the first completion found.
pub fn completions(inst: &QueensInstance, limit: usize, budget: u64) -> Option<(usize, Option<Vec<usize>>)> {
    let mut fixed = vec![None; inst.n];
    for &[r, c] in &inst.placed {
        fixed[r] = Some(c);
    }
    let mut s =
        QueenSearch { n: inst.n, fixed, columns: vec![0; inst.n], found: 0, first: None, limit, nodes: 0, budget };
    s.go(0, 0, 0, 0);
    (s.nodes <= budget).then_some((s.found, s.first))
}

struct QueenSearch {
    n: usize,
    fixed: Vec<Option<usize>>,
    columns: Vec<usize>,
    found: usize,
    first: Option<Vec<usize>>,
    limit: usize,
    nodes: u64,
    budget: u64,
}

impl QueenSearch {
    /// `cols`, `diag` (row + col) and `anti` (row - col + n) hold the attacked lines as bits.
    fn go(&mut self, row: usize, cols: u64, diag: u64, anti: u64) {
        self.nodes += 1;
        if self.found >= self.limit || self.nodes > self.budget {
            return;
        }
        if row == self.n {
            self.found += 1;
            if self.first.is_none() {
                self.first = Some(self.columns.clone());
            }
            return;
        }
        let options: Vec<usize> = match self.fixed[row] {
            Some(c) => vec![c],
            None => (0..self.n).collect(),
        };
        for c in options {
            let (d, a) = (row + c, row + self.n - c);
            if cols >> c & 1 == 1 || diag >> d & 1 == 1 || anti >> a & 1 == 1 {
                continue;
            }
            self.columns[row] = c;
            self.go(row + 1, cols | 1 << c, diag | 1 << d, anti | 1 << a);
        }
    }
}

fn random_solution(n: usize, rng: &mut Rng) -> Vec<usize> {
    fn go(n: usize, row: usize, cols: &mut Vec<usize>, rng: &mut Rng) -> bool {
        if row == n {
            return true;
        }
        for c in rng.permutation(n) {
            if cols.iter().enumerate().all(|(r, &x)| x != c && x.abs_diff(c) != row - r) {
                cols.push(c);
                if go(n, row + 1, cols, rng) {
                    return true;
                }
                cols.pop();
            }
        }
        false
    }
    let mut cols = Vec::with_capacity(n);
    go(n, 0, &mut cols, rng);
    cols
}

impl Problem for NQueens {
    type Instance = QueensInstance;
    type Solution = Vec<usize>;
    const NAME: &'static str = "n_queens";
    const SUMMARY: &'static str = "Complete an n-queens board: one queen per row and column, no two on a diagonal, \
        keeping the given queens. The givens are chosen so that exactly one completion exists (checked at \
        generation); binary in effect.";
    const DIRECTION: Direction = Direction::Maximize;
    const ANSWER_FORMAT: &'static str = "the column (0 to n-1) of the queen in each row, rows in order, e.g. \
        `[1, 3, 0, 2]` for n = 4; the given queens must keep their columns.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "6x6 board, unique completion" },
        LevelSpec { level: 2, description: "8x8 board, unique completion" },
        LevelSpec { level: 3, description: "10x10 board, unique completion" },
        LevelSpec { level: 4, description: "12x12 board, unique completion" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (QueensInstance, Option<Vec<usize>>) {
        let n = match level {
            1 => 6,
            2 => 8,
            3 => 10,
            _ => 12,
        };
        let solution = random_solution(n, rng);
        let mut inst = QueensInstance { n, placed: Vec::new() };
        // Reveal queens of the solution in random order until the completion is unique.
        for r in rng.permutation(n) {
            if completions(&inst, 2, u64::MAX).is_some_and(|(count, _)| count == 1) {
                break;
            }
            inst.placed.push([r, solution[r]]);
        }
        inst.placed.sort_unstable();
        (inst, Some(solution))
    }

    fn validate(inst: &QueensInstance) -> Result<(), String> {
        if !(MIN_N..=MAX_N).contains(&inst.n) {
            return Err(format!("n must be within {MIN_N}..={MAX_N}"));
        }
        let mut rows = vec![false; inst.n];
        for &[r, c] in &inst.placed {
            if r >= inst.n || c >= inst.n || std::mem::replace(&mut rows[r], true) {
                return Err("given queens must be on the board, at most one per row".into());
            }
        }
        match completions(inst, 1, SEARCH_BUDGET) {
            Some((0, _)) => Err("the given queens admit no completion".into()),
            Some(_) => Ok(()),
            None => Err("no completion found within the search budget".into()),
        }
    }

    fn prompt(inst: &QueensInstance) -> String {
        let mut board = String::new();
        for r in 0..inst.n {
            let given = inst.placed.iter().find(|p| p[0] == r).map(|p| p[1]);
            let row: String = (0..inst.n).map(|c| if given == Some(c) { 'Q' } else { '.' }).collect();
            board.push_str(&row);
            board.push('\n');
        }
        let givens: Vec<String> = inst.placed.iter().map(|[r, c]| format!("row {r} column {c}")).collect();
        format!(
            "N-queens completion. Place {} queens on a {}x{} board (rows and columns numbered from 0) so that no two \
             share a row, a column or a diagonal. These queens are already placed and must stay: {}.\n{}",
            inst.n,
            inst.n,
            inst.n,
            givens.join(", "),
            board
        )
    }

    fn decode(inst: &QueensInstance, answer: &Node) -> Result<Vec<usize>, Violation> {
        let values = answer.ints()?;
        if values.len() != inst.n {
            return Err(Violation::wrong_length("rows", inst.n, values.len()));
        }
        distinct_indices(&values, inst.n, "column")
    }

    fn objective(inst: &QueensInstance, cols: &Vec<usize>) -> Result<i64, Violation> {
        if let Some(&[r, c]) = inst.placed.iter().find(|&&[r, c]| cols[r] != c) {
            return Err(Violation::constraint(
                format!("the given queen in row {r} is in column {c}, not {}", cols[r]),
                json!({ "row": r, "given": c, "answer": cols[r] }),
            ));
        }
        for r in 0..inst.n {
            for s in r + 1..inst.n {
                if cols[r].abs_diff(cols[s]) == s - r {
                    return Err(Violation::constraint(
                        format!("the queens in rows {r} and {s} share a diagonal"),
                        json!({ "queens": [[r, cols[r]], [s, cols[s]]] }),
                    ));
                }
            }
        }
        Ok(inst.n as i64)
    }

    fn canonical(_: &QueensInstance, cols: &Vec<usize>) -> Value {
        json!(cols)
    }

    fn format(_: &QueensInstance, cols: &Vec<usize>) -> String {
        list_text(cols)
    }

    fn solve(inst: &QueensInstance, planted: Option<&Vec<usize>>) -> Solved<Vec<usize>> {
        if let Some(p) = planted
            && NQueens::objective(inst, p).is_ok()
        {
            return Solved { solution: p.clone(), kind: ReferenceKind::PlantedOptimal, bound: None };
        }
        match completions(inst, 1, SEARCH_BUDGET) {
            Some((_, Some(cols))) => Solved { solution: cols, kind: ReferenceKind::Exact, bound: None },
            _ => Solved { solution: (0..inst.n).collect(), kind: ReferenceKind::Heuristic, bound: None },
        }
    }

    fn baseline(inst: &QueensInstance) -> Vec<usize> {
        // Every completion is optimal; the search's first one is the baseline.
        completions(inst, 1, SEARCH_BUDGET).and_then(|(_, first)| first).unwrap_or_else(|| (0..inst.n).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in permutations(n - 1) {
            for pos in 0..=p.len() {
                let mut q = p.clone();
                q.insert(pos, n - 1);
                out.push(q);
            }
        }
        out
    }

    fn brute_count(inst: &QueensInstance) -> usize {
        permutations(inst.n).into_iter().filter(|p| NQueens::objective(inst, p).is_ok()).count()
    }

    fn random_clues(rng: &mut Rng) -> QueensInstance {
        let n = rng.range_usize(MIN_N, 7);
        let k = rng.range_usize(0, 3);
        let placed = rng.permutation(n)[..k].iter().map(|&r| [r, rng.index(n)]).collect();
        QueensInstance { n, placed }
    }

    impl Testable for NQueens {
        fn tiny(rng: &mut Rng) -> QueensInstance {
            loop {
                let inst = random_clues(rng);
                if brute_count(&inst) > 0 {
                    return inst;
                }
            }
        }

        fn brute_force(inst: &QueensInstance) -> i64 {
            if brute_count(inst) > 0 { inst.n as i64 } else { 0 }
        }

        fn exact(inst: &QueensInstance) -> Vec<usize> {
            completions(inst, 1, u64::MAX).and_then(|(_, first)| first).unwrap_or_default()
        }

        fn heuristic(inst: &QueensInstance) -> Vec<usize> {
            NQueens::exact(inst)
        }

        fn mutations(inst: &QueensInstance, cols: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let n = inst.n;
            let mut dup = cols.clone();
            dup[1] = dup[0];
            let mut out = vec![
                (list_text(&dup), ErrorKind::Duplicate),
                (list_text(&cols[1..]), ErrorKind::WrongLength),
                (list_text(&[vec![n], cols[1..].to_vec()].concat()), ErrorKind::OutOfRange),
            ];
            // Another permutation that keeps the givens cannot be a solution (it is unique).
            if let Some(&[r, _]) = inst.placed.first() {
                let other = (0..n).find(|&s| s != r && !inst.placed.iter().any(|p| p[0] == s));
                if let Some(s) = other {
                    let mut moved = cols.clone();
                    moved.swap(r, s);
                    out.push((list_text(&moved), ErrorKind::ConstraintViolation));
                }
            }
            let mut swapped = cols.clone();
            let free: Vec<usize> = (0..n).filter(|&r| !inst.placed.iter().any(|p| p[0] == r)).collect();
            if free.len() >= 2 {
                swapped.swap(free[0], free[1]);
                out.push((list_text(&swapped), ErrorKind::ConstraintViolation));
            }
            out
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<NQueens>(1000, 25);
        let mut rng = Rng::from_seed(26);
        for _ in 0..1000 {
            let inst = random_clues(&mut rng);
            let counted = completions(&inst, usize::MAX, u64::MAX).map(|c| c.0);
            assert_eq!(counted, Some(brute_count(&inst)), "{inst:?}");
        }
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<NQueens>(3);
        for level in 1..=4 {
            for seed in 0..5 {
                let (inst, _) = NQueens::generate(level, &mut Rng::for_instance("n_queens", level, seed));
                assert_eq!(completions(&inst, 2, u64::MAX).map(|c| c.0), Some(1), "not unique: {inst:?}");
            }
        }
    }
}
