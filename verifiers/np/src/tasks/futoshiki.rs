//! Futoshiki: a Latin square with inequality signs between neighbouring cells, with a unique
//! solution checked at generation.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::Node;
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::{decode_digit_grid, nested_text};
use crate::violation::Violation;

const MIN_SIZE: usize = 3;
const MAX_SIZE: usize = 9;
const SEARCH_BUDGET: u64 = 2_000_000;

/// A futoshiki puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FutoshikiInstance {
    /// Side length; digits are `1..=size`.
    pub size: usize,
    /// Rows of givens, 0 for empty.
    pub grid: Vec<Vec<u8>>,
    /// Inequalities `[[r1, c1], [r2, c2]]`: the first cell's digit is smaller than the second's.
    pub less: Vec<[[usize; 2]; 2]>,
}

/// The futoshiki task.
#[derive(Debug)]
pub struct Futoshiki;

/// Solutions up to `limit` by backtracking on the cell with fewest candidates (row, column and
/// inequality constraints against assigned cells); `None` if the budget ran out.
pub fn solutions(
    inst: &FutoshikiInstance,
    limit: usize,
    budget: u64,
    rng: Option<&mut Rng>,
) -> Option<(usize, Option<Vec<Vec<u8>>>)> {
    let n = inst.size;
    let mut cells = inst.grid.clone();
    let mut rows = vec![0u16; n];
    let mut cols = vec![0u16; n];
    for r in 0..n {
        for c in 0..n {
            let d = cells[r][c];
            if d != 0 {
                if rows[r] >> d & 1 == 1 || cols[c] >> d & 1 == 1 {
                    return Some((0, None));
                }
                rows[r] |= 1 << d;
                cols[c] |= 1 << d;
            }
        }
    }
    // A cell smaller than some neighbour cannot hold n, a larger one cannot hold 1; longer
    // chains tighten this further, one step per pass until nothing changes.
    let all: u16 = ((1u32 << (n + 1)) - 2) as u16;
    let mut allowed = vec![vec![all; n]; n];
    loop {
        let mut changed = false;
        for &[a, b] in &inst.less {
            let (la, lb) = (allowed[a[0]][a[1]], allowed[b[0]][b[1]]);
            if la == 0 || lb == 0 {
                // A cell with no possible digit: the inequalities are contradictory.
                return Some((0, None));
            }
            // a < b: a below b's largest option, b above a's smallest.
            let b_max = 15 - lb.leading_zeros() as u16;
            let a_min = la.trailing_zeros() as u16;
            let na = la & ((1u16 << b_max.min(15)) - 1);
            let nb = lb & !((1u16 << (a_min + 1).min(15)) - 1);
            if na != la || nb != lb {
                allowed[a[0]][a[1]] = na;
                allowed[b[0]][b[1]] = nb;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut s = FutoshikiSearch { inst, allowed, rows, cols, found: 0, first: None, limit, nodes: 0, budget, rng };
    s.go(&mut cells);
    (s.nodes <= budget).then_some((s.found, s.first))
}

struct FutoshikiSearch<'a> {
    inst: &'a FutoshikiInstance,
    allowed: Vec<Vec<u16>>,
    rows: Vec<u16>,
    cols: Vec<u16>,
    found: usize,
    first: Option<Vec<Vec<u8>>>,
    limit: usize,
    nodes: u64,
    budget: u64,
    rng: Option<&'a mut Rng>,
}

impl FutoshikiSearch<'_> {
    /// Digits allowed at (r, c) given the filled cells.
    fn candidates(&self, cells: &[Vec<u8>], r: usize, c: usize) -> u16 {
        let mut free = self.allowed[r][c] & !(self.rows[r] | self.cols[c]);
        for &[a, b] in &self.inst.less {
            if a == [r, c] && cells[b[0]][b[1]] != 0 {
                // Smaller than the other cell's digit.
                free &= (1u16 << cells[b[0]][b[1]]) - 1;
            }
            if b == [r, c] && cells[a[0]][a[1]] != 0 {
                free &= !((1u16 << (cells[a[0]][a[1]] + 1)) - 1);
            }
        }
        free
    }

    fn go(&mut self, cells: &mut Vec<Vec<u8>>) {
        self.nodes += 1;
        if self.found >= self.limit || self.nodes > self.budget {
            return;
        }
        let n = self.inst.size;
        let mut pick: Option<(usize, usize, u16)> = None;
        for r in 0..n {
            for c in 0..n {
                if cells[r][c] == 0 {
                    let free = self.candidates(cells, r, c);
                    if pick.is_none_or(|(_, _, f)| free.count_ones() < f.count_ones()) {
                        pick = Some((r, c, free));
                    }
                }
            }
        }
        let Some((r, c, free)) = pick else {
            // Full grid: givens may violate an inequality, so check them all once.
            if self.inst.less.iter().all(|&[a, b]| cells[a[0]][a[1]] < cells[b[0]][b[1]]) {
                self.found += 1;
                if self.first.is_none() {
                    self.first = Some(cells.clone());
                }
            }
            return;
        };
        let mut digits: Vec<u8> = (1..=n as u8).filter(|&d| free >> d & 1 == 1).collect();
        if let Some(rng) = self.rng.as_deref_mut() {
            rng.shuffle(&mut digits);
        }
        for d in digits {
            cells[r][c] = d;
            self.rows[r] |= 1 << d;
            self.cols[c] |= 1 << d;
            self.go(cells);
            self.rows[r] &= !(1 << d);
            self.cols[c] &= !(1 << d);
            cells[r][c] = 0;
            if self.found >= self.limit || self.nodes > self.budget {
                return;
            }
        }
    }
}

impl Problem for Futoshiki {
    type Instance = FutoshikiInstance;
    type Solution = Vec<Vec<u8>>;
    const NAME: &'static str = "futoshiki";
    const SUMMARY: &'static str = "Fill an n x n grid with 1..n so each row and column holds each digit once, keeping \
        the givens and every inequality between neighbouring cells. Givens are removed only while the solution stays \
        unique (checked by the solver); binary in effect.";
    const DIRECTION: Direction = Direction::Maximize;
    const ANSWER_FORMAT: &'static str = "the completed grid as a list of rows, e.g. `[[1, 2, 3], [2, 3, 1], [3, 1, 2]]`; \
        all n*n digits in row order as one flat list are also accepted.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "4x4, unique" },
        LevelSpec { level: 2, description: "5x5, unique" },
        LevelSpec { level: 3, description: "6x6, unique" },
        LevelSpec { level: 4, description: "7x7, unique" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (FutoshikiInstance, Option<Vec<Vec<u8>>>) {
        let n = match level {
            1 => 4,
            2 => 5,
            3 => 6,
            _ => 7,
        };
        let empty = FutoshikiInstance { size: n, grid: vec![vec![0; n]; n], less: Vec::new() };
        let solution =
            solutions(&empty, 1, u64::MAX, Some(rng)).and_then(|s| s.1).unwrap_or_else(|| empty.grid.clone());
        // Inequalities on about a third of the neighbouring pairs, oriented by the solution.
        let mut less = Vec::new();
        for r in 0..n {
            for c in 0..n {
                for (r2, c2) in [(r, c + 1), (r + 1, c)] {
                    if r2 < n && c2 < n && rng.chance(0.35) {
                        let (a, b) = ([r, c], [r2, c2]);
                        less.push(if solution[r][c] < solution[r2][c2] { [a, b] } else { [b, a] });
                    }
                }
            }
        }
        let mut inst = FutoshikiInstance { size: n, grid: solution.clone(), less };
        for cell in rng.permutation(n * n) {
            let (r, c) = (cell / n, cell % n);
            let keep = inst.grid[r][c];
            inst.grid[r][c] = 0;
            if solutions(&inst, 2, SEARCH_BUDGET, None).is_none_or(|(count, _)| count != 1) {
                inst.grid[r][c] = keep;
            }
        }
        (inst, Some(solution))
    }

    fn validate(inst: &FutoshikiInstance) -> Result<(), String> {
        let n = inst.size;
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(format!("size must be within {MIN_SIZE}..={MAX_SIZE}"));
        }
        if inst.grid.len() != n || inst.grid.iter().any(|r| r.len() != n || r.iter().any(|&d| d as usize > n)) {
            return Err("grid must be size x size with digits 0..=size".into());
        }
        if inst.less.iter().flatten().any(|&[r, c]| r >= n || c >= n) || inst.less.len() > 4 * n * n {
            return Err("inequalities must name cells of the grid".into());
        }
        match solutions(inst, 1, SEARCH_BUDGET, None) {
            Some((0, _)) => Err("the puzzle has no solution".into()),
            Some(_) => Ok(()),
            None => Err("no solution found within the search budget".into()),
        }
    }

    fn prompt(inst: &FutoshikiInstance) -> String {
        let rows: Vec<String> = inst
            .grid
            .iter()
            .map(|r| {
                r.iter().map(|&d| if d == 0 { ".".to_owned() } else { d.to_string() }).collect::<Vec<_>>().join(" ")
            })
            .collect();
        let less: Vec<String> =
            inst.less.iter().map(|[a, b]| format!("({}, {}) < ({}, {})", a[0], a[1], b[0], b[1])).collect();
        format!(
            "Futoshiki. Fill the {n}x{n} grid (dots are empty; rows and columns numbered from 0) with the digits 1 to {n} \
             so that every row and every column contains each digit exactly once. The given digits must stay, and each \
             inequality (row, column) < (row, column) must hold.\n{}\nInequalities: {}",
            rows.join("\n"),
            if less.is_empty() { "none".to_owned() } else { less.join(", ") },
            n = inst.size
        )
    }

    fn decode(inst: &FutoshikiInstance, answer: &Node) -> Result<Vec<Vec<u8>>, Violation> {
        decode_digit_grid(answer, inst.size)
    }

    fn objective(inst: &FutoshikiInstance, grid: &Vec<Vec<u8>>) -> Result<i64, Violation> {
        let n = inst.size;
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
        for i in 0..n {
            let (mut row, mut col) = (0u16, 0u16);
            for j in 0..n {
                for (seen, d, unit) in [(&mut row, grid[i][j], "row"), (&mut col, grid[j][i], "column")] {
                    if *seen >> d & 1 == 1 {
                        return Err(Violation::constraint(
                            format!("{unit} {i} holds {d} twice"),
                            json!({ "unit": unit, "index": i, "digit": d }),
                        ));
                    }
                    *seen |= 1 << d;
                }
            }
        }
        if let Some(&[a, b]) = inst.less.iter().find(|&&[a, b]| grid[a[0]][a[1]] >= grid[b[0]][b[1]]) {
            return Err(Violation::constraint(
                format!("({}, {}) < ({}, {}) fails", a[0], a[1], b[0], b[1]),
                json!({ "less": [a, b], "digits": [grid[a[0]][a[1]], grid[b[0]][b[1]]] }),
            ));
        }
        Ok((n * n) as i64)
    }

    fn canonical(_: &FutoshikiInstance, grid: &Vec<Vec<u8>>) -> Value {
        json!(grid)
    }

    fn format(_: &FutoshikiInstance, grid: &Vec<Vec<u8>>) -> String {
        nested_text(grid)
    }

    fn solve(inst: &FutoshikiInstance, planted: Option<&Vec<Vec<u8>>>) -> Solved<Vec<Vec<u8>>> {
        if let Some(p) = planted
            && Futoshiki::objective(inst, p).is_ok()
        {
            return Solved { solution: p.clone(), kind: ReferenceKind::PlantedOptimal, bound: None };
        }
        match solutions(inst, 1, SEARCH_BUDGET, None) {
            Some((_, Some(g))) => Solved { solution: g, kind: ReferenceKind::Exact, bound: None },
            _ => Solved { solution: inst.grid.clone(), kind: ReferenceKind::Heuristic, bound: None },
        }
    }

    fn baseline(inst: &FutoshikiInstance) -> Vec<Vec<u8>> {
        // Every solution is optimal; the solver's is the baseline.
        Futoshiki::solve(inst, None).solution
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    /// Completions by trying every digit in every empty cell.
    fn brute_count(inst: &FutoshikiInstance) -> usize {
        let n = inst.size;
        let holes: Vec<(usize, usize)> =
            (0..n * n).map(|i| (i / n, i % n)).filter(|&(r, c)| inst.grid[r][c] == 0).collect();
        let mut count = 0;
        for code in 0..n.pow(holes.len() as u32) {
            let mut g = inst.grid.clone();
            let mut x = code;
            for &(r, c) in &holes {
                g[r][c] = (x % n) as u8 + 1;
                x /= n;
            }
            if Futoshiki::objective(inst, &g).is_ok() {
                count += 1;
            }
        }
        count
    }

    fn random_puzzle(rng: &mut Rng, consistent: bool) -> FutoshikiInstance {
        let n = rng.range_usize(3, 4);
        let empty = FutoshikiInstance { size: n, grid: vec![vec![0; n]; n], less: Vec::new() };
        let solution =
            solutions(&empty, 1, u64::MAX, Some(rng)).and_then(|s| s.1).unwrap_or_else(|| empty.grid.clone());
        let mut less = Vec::new();
        for _ in 0..rng.range_usize(0, 4) {
            let (r, c) = (rng.index(n), rng.index(n - 1));
            let (a, b) = ([r, c], [r, c + 1]);
            let oriented = solution[r][c] < solution[r][c + 1];
            less.push(if oriented == consistent || rng.chance(0.5) { [a, b] } else { [b, a] });
        }
        let mut grid = solution;
        let holes = rng.range_usize(0, 6);
        for cell in &rng.permutation(n * n)[..holes] {
            grid[cell / n][cell % n] = 0;
        }
        let mut inst = FutoshikiInstance { size: n, grid, less };
        if consistent {
            // Re-orient every inequality by one solution so the puzzle stays solvable.
            let sol =
                solutions(&FutoshikiInstance { less: Vec::new(), ..inst.clone() }, 1, u64::MAX, None).and_then(|s| s.1);
            if let Some(sol) = sol {
                for pair in &mut inst.less {
                    let [a, b] = *pair;
                    if sol[a[0]][a[1]] > sol[b[0]][b[1]] {
                        *pair = [b, a];
                    }
                }
            }
        }
        inst
    }

    impl Testable for Futoshiki {
        fn tiny(rng: &mut Rng) -> FutoshikiInstance {
            random_puzzle(rng, true)
        }

        fn brute_force(inst: &FutoshikiInstance) -> i64 {
            if brute_count(inst) > 0 { (inst.size * inst.size) as i64 } else { 0 }
        }

        fn exact(inst: &FutoshikiInstance) -> Vec<Vec<u8>> {
            solutions(inst, 1, u64::MAX, None).and_then(|s| s.1).unwrap_or_default()
        }

        fn heuristic(inst: &FutoshikiInstance) -> Vec<Vec<u8>> {
            Futoshiki::exact(inst)
        }

        fn mutations(inst: &FutoshikiInstance, grid: &Vec<Vec<u8>>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let n = inst.size;
            let mut out_of_range = grid.clone();
            out_of_range[0][0] = n as u8 + 1;
            let mut swapped = grid.clone();
            swapped[0].swap(0, 1);
            vec![
                (nested_text(&grid[1..]), ErrorKind::WrongLength),
                (nested_text(&out_of_range), ErrorKind::OutOfRange),
                ("[1, 2]".to_owned(), ErrorKind::WrongLength),
                // Swapping two digits of a row breaks a column (or a given).
                (nested_text(&swapped), ErrorKind::ConstraintViolation),
            ]
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<Futoshiki>(600, 31);
        let mut rng = Rng::from_seed(32);
        for _ in 0..600 {
            let inst = random_puzzle(&mut rng, false);
            let counted = solutions(&inst, usize::MAX, u64::MAX, None).map(|s| s.0);
            assert_eq!(counted, Some(brute_count(&inst)), "{inst:?}");
        }
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<Futoshiki>(2);
        for level in 1..=4 {
            for seed in 0..3 {
                let (inst, _) = Futoshiki::generate(level, &mut Rng::for_instance("futoshiki", level, seed));
                assert_eq!(solutions(&inst, 2, u64::MAX, None).map(|s| s.0), Some(1), "not unique");
            }
        }
    }
}
