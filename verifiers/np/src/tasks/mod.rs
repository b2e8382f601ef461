//! The tasks, one module each, and the one explicit registry list.

use serde_json::json;

use crate::environment::{Env, Environment};
use crate::parse::Node;
use crate::violation::{ErrorKind, Violation};

mod assign;
pub mod bin_packing;
pub mod countdown;
pub mod cvrp;
pub mod dominating_set;
pub mod exact_cover;
pub mod facility_location;
pub mod futoshiki;
pub mod graph_coloring;
pub mod hamiltonian_cycle;
pub mod independent_set;
pub mod job_shop;
pub mod knapsack;
pub mod max_clique;
pub mod max_cut;
pub mod max_sat;
pub mod meeting_schedule;
pub mod min_bisection;
pub mod n_queens;
pub mod number_partition;
pub mod parallel_machines;
pub mod set_cover;
pub mod steiner_tree;
pub mod subset_sum;
pub mod sudoku;
pub mod tsp;

/// Every task in catalogue order. Adding a task means adding its module and one line here.
pub(crate) static ALL: &[&dyn Environment] = &[
    &Env::<tsp::Tsp>::NEW,
    &Env::<hamiltonian_cycle::HamiltonianCycle>::NEW,
    &Env::<knapsack::Knapsack>::NEW,
    &Env::<independent_set::MaxIndependentSet>::NEW,
    &Env::<max_clique::MaxClique>::NEW,
    &Env::<graph_coloring::GraphColoring>::NEW,
    &Env::<independent_set::MinVertexCover>::NEW,
    &Env::<max_cut::MaxCut>::NEW,
    &Env::<min_bisection::MinBisection>::NEW,
    &Env::<subset_sum::SubsetSum>::NEW,
    &Env::<number_partition::NumberPartition>::NEW,
    &Env::<bin_packing::BinPacking>::NEW,
    &Env::<parallel_machines::ParallelMachines>::NEW,
    &Env::<set_cover::SetCover>::NEW,
    &Env::<dominating_set::DominatingSet>::NEW,
    &Env::<exact_cover::ExactCover>::NEW,
    &Env::<max_sat::MaxSat>::NEW,
    &Env::<max_sat::Sat>::NEW,
    &Env::<job_shop::JobShop>::NEW,
    &Env::<cvrp::Cvrp>::NEW,
    &Env::<steiner_tree::SteinerTree>::NEW,
    &Env::<facility_location::FacilityLocation>::NEW,
    &Env::<meeting_schedule::MeetingSchedule>::NEW,
    &Env::<n_queens::NQueens>::NEW,
    &Env::<sudoku::Sudoku>::NEW,
    &Env::<futoshiki::Futoshiki>::NEW,
    &Env::<countdown::Countdown>::NEW,
];

/// `[a, b, c]`.
pub(crate) fn list_text<T: std::fmt::Display>(items: &[T]) -> String {
    let mut s = String::with_capacity(items.len() * 4 + 2);
    s.push('[');
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&x.to_string());
    }
    s.push(']');
    s
}

/// `[[a, b], [c]]`.
pub(crate) fn nested_text<T: std::fmt::Display>(lists: &[Vec<T>]) -> String {
    let inner: Vec<String> = lists.iter().map(|l| list_text(l)).collect();
    format!("[{}]", inner.join(", "))
}

/// An `n`×`n` grid of digits 1..=n, given as nested rows or as `n * n` digits in row order.
pub(crate) fn decode_digit_grid(answer: &Node, n: usize) -> Result<Vec<Vec<u8>>, Violation> {
    let rows: Vec<Vec<i64>> = if answer.is_nested() {
        answer.nested()?
    } else {
        let flat = answer.ints()?;
        if flat.len() != n * n {
            return Err(Violation::wrong_length("digits", n * n, flat.len()));
        }
        flat.chunks(n).map(<[i64]>::to_vec).collect()
    };
    if rows.len() != n {
        return Err(Violation::wrong_length("rows", n, rows.len()));
    }
    rows.iter()
        .enumerate()
        .map(|(r, row)| {
            if row.len() != n {
                return Err(Violation::wrong_length(&format!("digits in row {r}"), n, row.len()));
            }
            row.iter()
                .map(|&d| {
                    if (1..=n as i64).contains(&d) {
                        Ok(d as u8)
                    } else {
                        Err(Violation::new(ErrorKind::OutOfRange, format!("digit {d} is outside 1..={n}"))
                            .witness(json!({ "value": d })))
                    }
                })
                .collect()
        })
        .collect()
}
