//! Sudoku (4x4 and 9x9) with a unique solution checked at generation.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::Node;
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::{decode_digit_grid, nested_text};
use crate::violation::Violation;

const SEARCH_BUDGET: u64 = 2_000_000;

/// A sudoku puzzle: `size` is 4 or 9; 0 marks an empty cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SudokuInstance {
    /// Side length (4 or 9).
    pub size: usize,
    /// Rows of digits, 0 for empty.
    pub grid: Vec<Vec<u8>>,
}

/// The sudoku task.
#[derive(Debug)]
pub struct Sudoku;

fn box_side(size: usize) -> usize {
    if size == 4 { 2 } else { 3 }
}

/// Solutions of a grid up to `limit` by bitmask backtracking on the most constrained cell;
/// `None` if the budget ran out. Also returns the first solution.
pub fn solutions(
    size: usize,
    grid: &[Vec<u8>],
    limit: usize,
    budget: u64,
    rng: Option<&mut Rng>,
) -> Option<(usize, Option<Vec<Vec<u8>>>)> {
    let b = box_side(size);
    let mut rows = vec![0u16; size];
    let mut cols = vec![0u16; size];
    let mut boxes = vec![0u16; size];
    let mut cells = grid.to_vec();
    for r in 0..size {
        for c in 0..size {
            let d = cells[r][c];
            if d != 0 {
                let bit = 1u16 << d;
                let k = (r / b) * b + c / b;
                if rows[r] & bit != 0 || cols[c] & bit != 0 || boxes[k] & bit != 0 {
                    return Some((0, None));
                }
                rows[r] |= bit;
                cols[c] |= bit;
                boxes[k] |= bit;
            }
        }
    }
    let mut s = SudokuSearch { size, b, rows, cols, boxes, found: 0, first: None, limit, nodes: 0, budget, rng };
    s.go(&mut cells);
    (s.nodes <= budget).then_some((s.found, s.first))
}

struct SudokuSearch<'a> {
    size: usize,
    b: usize,
    rows: Vec<u16>,
    cols: Vec<u16>,
    boxes: Vec<u16>,
    found: usize,
    first: Option<Vec<Vec<u8>>>,
    limit: usize,
    nodes: u64,
    budget: u64,
    rng: Option<&'a mut Rng>,
}

impl SudokuSearch<'_> {
    fn go(&mut self, cells: &mut Vec<Vec<u8>>) {
        self.nodes += 1;
        if self.found >= self.limit || self.nodes > self.budget {
            return;
        }
        let all: u16 = ((1u32 << (self.size + 1)) - 2) as u16;
        let mut pick: Option<(usize, usize, u16)> = None;
        for r in 0..self.size {
            for c in 0..self.size {
                if cells[r][c] == 0 {
                    let k = (r / self.b) * self.b + c / self.b;
                    let free = all & !(self.rows[r] | self.cols[c] | self.boxes[k]);
                    if pick.is_none_or(|(_, _, f)| free.count_ones() < f.count_ones()) {
                        pick = Some((r, c, free));
                    }
                }
            }
        }
        let Some((r, c, free)) = pick else {
            self.found += 1;
            if self.first.is_none() {
                self.first = Some(cells.clone());
            }
            return;
        };
        let mut digits: Vec<u8> = (1..=self.size as u8).filter(|&d| free >> d & 1 == 1).collect();
        if let Some(rng) = self.rng.as_deref_mut() {
            rng.shuffle(&mut digits);
        }
        let k = (r / self.b) * self.b + c / self.b;
        for d in digits {
            let bit = 1u16 << d;
            cells[r][c] = d;
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[k] |= bit;
            self.go(cells);
            self.rows[r] &= !bit;
            self.cols[c] &= !bit;
            self.boxes[k] &= !bit;
            cells[r][c] = 0;
            if self.found >= self.limit || self.nodes > self.budget {
                return;
            }
        }
    }
}

impl Problem for Sudoku {
    type Instance = SudokuInstance;
    type Solution = Vec<Vec<u8>>;
    const NAME: &'static str = "sudoku";
    const SUMMARY: &'static str = "Fill the grid so every row, column and box holds each digit once, keeping the givens. \
        Givens are removed from a random solution only while the solution stays unique (checked by a bitmask \
        solver); binary in effect.";
    const DIRECTION: Direction = Direction::Maximize;
    const ANSWER_FORMAT: &'static str = "the completed grid as a list of rows, e.g. `[[1, 2, 3, 4], [3, 4, 1, 2], \
        [2, 1, 4, 3], [4, 3, 2, 1]]` for 4x4; all n*n digits in row order as one flat list are also accepted.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "4x4, as few givens as uniqueness allows" },
        LevelSpec { level: 2, description: "9x9, 40 givens, unique" },
        LevelSpec { level: 3, description: "9x9, 32 givens, unique" },
        LevelSpec { level: 4, description: "9x9, down to 26 givens (fewer only if no more can go), unique" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (SudokuInstance, Option<Vec<Vec<u8>>>) {
        let (size, target) = match level {
            1 => (4, 0),
            2 => (9, 40),
            3 => (9, 32),
            _ => (9, 26),
        };
        let empty = vec![vec![0u8; size]; size];
        let solution = solutions(size, &empty, 1, u64::MAX, Some(rng)).and_then(|(_, s)| s).unwrap_or(empty);
        let mut grid = solution.clone();
        let mut givens = size * size;
        for cell in rng.permutation(size * size) {
            if givens <= target {
                break;
            }
            let (r, c) = (cell / size, cell % size);
            let keep = grid[r][c];
            grid[r][c] = 0;
            if solutions(size, &grid, 2, u64::MAX, None).is_some_and(|(count, _)| count == 1) {
                givens -= 1;
            } else {
                grid[r][c] = keep;
            }
        }
        (SudokuInstance { size, grid }, Some(solution))
    }

    fn validate(inst: &SudokuInstance) -> Result<(), String> {
        if inst.size != 4 && inst.size != 9 {
            return Err("size must be 4 or 9".into());
        }
        if inst.grid.len() != inst.size
            || inst.grid.iter().any(|r| r.len() != inst.size || r.iter().any(|&d| d as usize > inst.size))
        {
            return Err("grid must be size x size with digits 0..=size".into());
        }
        match solutions(inst.size, &inst.grid, 1, SEARCH_BUDGET, None) {
            Some((0, _)) => Err("the puzzle has no solution".into()),
            Some(_) => Ok(()),
            None => Err("no solution found within the search budget".into()),
        }
    }

    fn prompt(inst: &SudokuInstance) -> String {
        let rows: Vec<String> = inst
            .grid
            .iter()
            .map(|r| {
                r.iter().map(|&d| if d == 0 { ".".to_owned() } else { d.to_string() }).collect::<Vec<_>>().join(" ")
            })
            .collect();
        let b = box_side(inst.size);
        format!(
            "Sudoku. Fill the {n}x{n} grid (dots are empty) with the digits 1 to {n} so that every row, every column and \
             every {b}x{b} box contains each digit exactly once. The given digits must stay.\n{}",
            rows.join("\n"),
            n = inst.size
        )
    }

    fn decode(inst: &SudokuInstance, answer: &Node) -> Result<Vec<Vec<u8>>, Violation> {
        decode_digit_grid(answer, inst.size)
    }

    fn objective(inst: &SudokuInstance, grid: &Vec<Vec<u8>>) -> Result<i64, Violation> {
        let n = inst.size;
        let b = box_side(n);
        for r in 0..n {
            for c in 0..n {
                let given = inst.grid[r][c];
                if given != 0 && grid[r][c] != given {
                    return Err(Violation::constraint(
                        format!("cell ({r}, {c}) must keep its given {given}"),
                        json!({ "cell": [r, c], "given": given, "answer": grid[r][c] }),
                    ));
                }
            }
        }
        for unit in 0..3 {
            for i in 0..n {
                let mut seen = 0u16;
                for j in 0..n {
                    let (r, c) = match unit {
                        0 => (i, j),
                        1 => (j, i),
                        _ => ((i / b) * b + j / b, (i % b) * b + j % b),
                    };
                    let bit = 1u16 << grid[r][c];
                    if seen & bit != 0 {
                        let name = ["row", "column", "box"][unit];
                        return Err(Violation::constraint(
                            format!("{name} {i} holds {} twice", grid[r][c]),
                            json!({ "unit": name, "index": i, "digit": grid[r][c] }),
                        ));
                    }
                    seen |= bit;
                }
            }
        }
        Ok((n * n) as i64)
    }

    fn canonical(_: &SudokuInstance, grid: &Vec<Vec<u8>>) -> Value {
        json!(grid)
    }

    fn format(_: &SudokuInstance, grid: &Vec<Vec<u8>>) -> String {
        nested_text(grid)
    }

    fn solve(inst: &SudokuInstance, planted: Option<&Vec<Vec<u8>>>) -> Solved<Vec<Vec<u8>>> {
        if let Some(p) = planted
            && Sudoku::objective(inst, p).is_ok()
        {
            return Solved { solution: p.clone(), kind: ReferenceKind::PlantedOptimal, bound: None };
        }
        match solutions(inst.size, &inst.grid, 1, SEARCH_BUDGET, None) {
            Some((_, Some(g))) => Solved { solution: g, kind: ReferenceKind::Exact, bound: None },
            _ => Solved { solution: inst.grid.clone(), kind: ReferenceKind::Heuristic, bound: None },
        }
    }

    fn baseline(inst: &SudokuInstance) -> Vec<Vec<u8>> {
        // Every solution is optimal; the solver's is the baseline.
        Sudoku::solve(inst, None).solution
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    /// Completions by trying every digit in every empty cell (4x4, few holes).
    fn brute_count(inst: &SudokuInstance) -> usize {
        let holes: Vec<(usize, usize)> =
            (0..16).map(|i| (i / 4, i % 4)).filter(|&(r, c)| inst.grid[r][c] == 0).collect();
        let mut count = 0;
        for code in 0..4usize.pow(holes.len() as u32) {
            let mut g = inst.grid.clone();
            let mut x = code;
            for &(r, c) in &holes {
                g[r][c] = (x % 4) as u8 + 1;
                x /= 4;
            }
            if Sudoku::objective(inst, &g).is_ok() {
                count += 1;
            }
        }
        count
    }

    fn random_puzzle(rng: &mut Rng, consistent: bool) -> SudokuInstance {
        let empty = vec![vec![0u8; 4]; 4];
        let solution = solutions(4, &empty, 1, u64::MAX, Some(rng)).and_then(|s| s.1).unwrap_or(empty);
        let mut grid = solution;
        let holes = rng.range_usize(0, 6);
        for cell in &rng.permutation(16)[..holes] {
            grid[cell / 4][cell % 4] = 0;
        }
        if !consistent && rng.chance(0.5) {
            let cell = rng.index(16);
            grid[cell / 4][cell % 4] = rng.range(1, 4) as u8;
        }
        SudokuInstance { size: 4, grid }
    }

    impl Testable for Sudoku {
        fn tiny(rng: &mut Rng) -> SudokuInstance {
            random_puzzle(rng, true)
        }

        fn brute_force(inst: &SudokuInstance) -> i64 {
            if brute_count(inst) > 0 { 16 } else { 0 }
        }

        fn exact(inst: &SudokuInstance) -> Vec<Vec<u8>> {
            solutions(inst.size, &inst.grid, 1, u64::MAX, None).and_then(|s| s.1).unwrap_or_default()
        }

        fn heuristic(inst: &SudokuInstance) -> Vec<Vec<u8>> {
            Sudoku::exact(inst)
        }

        fn mutations(inst: &SudokuInstance, grid: &Vec<Vec<u8>>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let n = inst.size;
            let mut out_of_range = grid.clone();
            out_of_range[0][0] = n as u8 + 1;
            let mut out = vec![
                (nested_text(&grid[1..]), ErrorKind::WrongLength),
                (nested_text(&out_of_range), ErrorKind::OutOfRange),
                ("[1, 2, 3]".to_owned(), ErrorKind::WrongLength),
            ];
            // Swapping two digits in a row breaks a column (and may move a given).
            let mut swapped = grid.clone();
            swapped[0].swap(0, 1);
            out.push((nested_text(&swapped), ErrorKind::ConstraintViolation));
            out
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<Sudoku>(600, 27);
        let mut rng = Rng::from_seed(28);
        for _ in 0..600 {
            let inst = random_puzzle(&mut rng, false);
            let counted = solutions(4, &inst.grid, usize::MAX, u64::MAX, None).map(|s| s.0);
            assert_eq!(counted, Some(brute_count(&inst)), "{inst:?}");
        }
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<Sudoku>(2);
        for level in 1..=4 {
            for seed in 0..3 {
                let (inst, _) = Sudoku::generate(level, &mut Rng::for_instance("sudoku", level, seed));
                assert_eq!(solutions(inst.size, &inst.grid, 2, u64::MAX, None).map(|s| s.0), Some(1), "not unique");
            }
        }
    }
}
