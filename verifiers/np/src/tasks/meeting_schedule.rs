//! Meeting scheduling (NP-Engine compatible, with the verl port's fixes): place as many meetings
//! as possible into rooms and time slots.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::{Node, index};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::nested_text;
use crate::violation::{ErrorKind, Violation};

const MAX_MEETINGS: usize = 30;
const MAX_ROOMS: usize = 20;
const MAX_PEOPLE: usize = 64;
/// Time slots are bits of a `u64`.
const MAX_HORIZON: usize = 64;
const SEARCH_BUDGET: u64 = 2_000_000;

/// One meeting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meeting {
    /// The people who must all attend.
    pub attendees: Vec<usize>,
    /// Length in slots.
    pub duration: usize,
}

/// A meeting-scheduling instance over time slots `0..horizon`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeetingInstance {
    /// Number of time slots.
    pub horizon: usize,
    /// Capacity of each room.
    pub rooms: Vec<usize>,
    /// The meetings, labelled by position.
    pub meetings: Vec<Meeting>,
    /// Per person, the slots they are available in.
    pub availability: Vec<Vec<usize>>,
}

/// One scheduled meeting.
pub type Booking = (usize, usize, usize);

/// The meeting-scheduling task.
#[derive(Debug)]
pub struct MeetingSchedule;

fn span(start: usize, duration: usize) -> u64 {
    if duration >= 64 { u64::MAX << start } else { ((1u64 << duration) - 1) << start }
}

fn available(inst: &MeetingInstance) -> Vec<u64> {
    inst.availability
        .iter()
        .map(|slots| slots.iter().filter(|&&s| s < MAX_HORIZON).fold(0, |m, &s| m | 1 << s))
        .collect()
}

/// Everything a booking needs besides the other bookings: capacity, horizon, availability.
fn fits_alone(inst: &MeetingInstance, free: &[u64], (m, r, start): Booking) -> bool {
    let meeting = &inst.meetings[m];
    start + meeting.duration <= inst.horizon
        && inst.rooms[r] >= meeting.attendees.len()
        && meeting.attendees.iter().all(|&p| free[p] & span(start, meeting.duration) == span(start, meeting.duration))
}

impl Problem for MeetingSchedule {
    type Instance = MeetingInstance;
    type Solution = Vec<Booking>;
    const NAME: &'static str = "meeting_schedule";
    const SUMMARY: &'static str = "Schedule as many meetings as possible: each at most once, in a room large enough, \
        within every attendee's availability, with no room or attendee double-booked (the objective of the verl port of \
        NP-Engine). A planted schedule of every meeting makes the optimum provable.";
    const DIRECTION: Direction = Direction::Maximize;
    const ANSWER_FORMAT: &'static str = "a list of `[meeting, room, start_slot]` triples, one per scheduled meeting, \
        e.g. `[[0, 1, 2], [2, 0, 0]]`; meetings left out are not scheduled.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "4-5 meetings, 3-5 people, 3-4 rooms, 8 slots, planted optimal" },
        LevelSpec { level: 2, description: "5-6 meetings, 4-6 people, 4-5 rooms, 8 slots, planted optimal" },
        LevelSpec { level: 3, description: "6-7 meetings, 5-7 people, 5-6 rooms, 10 slots, planted optimal" },
        LevelSpec { level: 4, description: "8-10 meetings, 7-9 people, 6-7 rooms, 12 slots, planted optimal" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (MeetingInstance, Option<Vec<Booking>>) {
        let ((mlo, mhi), (plo, phi), (rlo, rhi), horizon) = match level {
            1 => ((4, 5), (3, 5), (3, 4), 8),
            2 => ((5, 6), (4, 6), (4, 5), 8),
            3 => ((6, 7), (5, 7), (5, 6), 10),
            _ => ((8, 10), (7, 9), (6, 7), 12),
        };
        let (count, people, room_count) =
            (rng.range_usize(mlo, mhi), rng.range_usize(plo, phi), rng.range_usize(rlo, rhi));
        let rooms: Vec<usize> = (0..room_count).map(|_| rng.range_usize(2, people.min(5))).collect();
        let mut busy_room = vec![0u64; room_count];
        let mut busy_person = vec![0u64; people];
        let mut meetings = Vec::new();
        let mut planted = Vec::new();
        // Plant a conflict-free schedule of every meeting, then make attendees available for
        // their meetings plus random other slots.
        // Random draws that clash are retried; the attempt cap keeps generation finite when the
        // slots fill up (the instance then has fewer meetings than drawn).
        let mut attempts = 0;
        while meetings.len() < count && attempts < 2000 {
            attempts += 1;
            let duration = rng.range_usize(1, 3);
            let r = rng.index(room_count);
            let size = rng.range_usize(2, rooms[r].min(people));
            let attendees = {
                let mut a = rng.permutation(people)[..size].to_vec();
                a.sort_unstable();
                a
            };
            let start = rng.index(horizon - duration + 1);
            let s = span(start, duration);
            if busy_room[r] & s != 0 || attendees.iter().any(|&p| busy_person[p] & s != 0) {
                continue;
            }
            busy_room[r] |= s;
            for &p in &attendees {
                busy_person[p] |= s;
            }
            planted.push((meetings.len(), r, start));
            meetings.push(Meeting { attendees, duration });
        }
        let availability = busy_person
            .iter()
            .map(|&busy| (0..horizon).filter(|&t| busy >> t & 1 == 1 || rng.chance(0.4)).collect())
            .collect();
        (MeetingInstance { horizon, rooms, meetings, availability }, Some(planted))
    }

    fn validate(inst: &MeetingInstance) -> Result<(), String> {
        if !(1..=MAX_HORIZON).contains(&inst.horizon)
            || inst.rooms.is_empty()
            || inst.rooms.len() > MAX_ROOMS
            || inst.meetings.is_empty()
            || inst.meetings.len() > MAX_MEETINGS
            || inst.availability.is_empty()
            || inst.availability.len() > MAX_PEOPLE
        {
            return Err(format!(
                "1..={MAX_HORIZON} slots, 1..={MAX_ROOMS} rooms, 1..={MAX_MEETINGS} meetings, 1..={MAX_PEOPLE} people"
            ));
        }
        let people = inst.availability.len();
        for m in &inst.meetings {
            let mut a = m.attendees.clone();
            a.sort_unstable();
            a.dedup();
            if m.duration == 0 || a.len() != m.attendees.len() || a.iter().any(|&p| p >= people) {
                return Err("meetings need a positive duration and distinct attendees who exist".into());
            }
        }
        if inst.availability.iter().flatten().any(|&t| t >= inst.horizon) {
            return Err("availability slots must lie within the horizon".into());
        }
        Ok(())
    }

    fn prompt(inst: &MeetingInstance) -> String {
        let rooms: Vec<String> =
            inst.rooms.iter().enumerate().map(|(r, c)| format!("room {r}: capacity {c}")).collect();
        let meetings: Vec<String> = inst
            .meetings
            .iter()
            .enumerate()
            .map(|(m, x)| format!("meeting {m}: attendees {:?}, duration {} slot(s)", x.attendees, x.duration))
            .collect();
        let people: Vec<String> =
            inst.availability.iter().enumerate().map(|(p, s)| format!("person {p}: free in slots {s:?}")).collect();
        format!(
            "Meeting scheduling. Time is divided into slots 0 to {}; a meeting of duration d starting at slot s occupies \
             slots s to s+d-1 and must end by the last slot.\nRooms:\n{}\nMeetings:\n{}\nAvailability:\n{}\n\nSchedule as \
             many meetings as possible. Each meeting is held at most once, in a room whose capacity is at least its number \
             of attendees, at a time when all its attendees are free. A room holds one meeting at a time and a person \
             attends one meeting at a time.",
            inst.horizon - 1,
            rooms.join("\n"),
            meetings.join("\n"),
            people.join("\n")
        )
    }

    fn decode(inst: &MeetingInstance, answer: &Node) -> Result<Vec<Booking>, Violation> {
        let triples = if matches!(answer, Node::Ints(v) if v.is_empty()) { Vec::new() } else { answer.nested()? };
        let mut seen = vec![false; inst.meetings.len()];
        triples
            .iter()
            .map(|t| {
                let [m, r, s] = t[..] else {
                    return Err(Violation::parse(format!(
                        "a booking is [meeting, room, start], found {} values",
                        t.len()
                    )));
                };
                let m = index(m, inst.meetings.len(), "meeting")?;
                let r = index(r, inst.rooms.len(), "room")?;
                let s = index(s, inst.horizon, "start slot")?;
                if std::mem::replace(&mut seen[m], true) {
                    return Err(Violation::duplicate("meeting", m));
                }
                Ok((m, r, s))
            })
            .collect()
    }

    fn objective(inst: &MeetingInstance, bookings: &Vec<Booking>) -> Result<i64, Violation> {
        let free = available(inst);
        let mut room_busy = vec![0u64; inst.rooms.len()];
        let mut person_busy = vec![0u64; inst.availability.len()];
        for &(m, r, start) in bookings {
            let meeting = &inst.meetings[m];
            if start + meeting.duration > inst.horizon {
                return Err(Violation::new(
                    ErrorKind::OutOfRange,
                    format!("meeting {m} would run past slot {}", inst.horizon - 1),
                )
                .witness(json!({ "meeting": m, "start": start, "duration": meeting.duration })));
            }
            if inst.rooms[r] < meeting.attendees.len() {
                return Err(Violation::constraint(
                    format!(
                        "room {r} holds {} but meeting {m} has {} attendees",
                        inst.rooms[r],
                        meeting.attendees.len()
                    ),
                    json!({ "meeting": m, "room": r }),
                ));
            }
            let s = span(start, meeting.duration);
            if room_busy[r] & s != 0 {
                return Err(Violation::constraint(
                    format!("room {r} is double-booked at meeting {m}"),
                    json!({ "meeting": m, "room": r }),
                ));
            }
            room_busy[r] |= s;
            for &p in &meeting.attendees {
                if free[p] & s != s {
                    return Err(Violation::constraint(
                        format!("person {p} is not free for meeting {m}"),
                        json!({ "meeting": m, "person": p, "start": start }),
                    ));
                }
                if person_busy[p] & s != 0 {
                    return Err(Violation::constraint(
                        format!("person {p} is double-booked at meeting {m}"),
                        json!({ "meeting": m, "person": p, "start": start }),
                    ));
                }
                person_busy[p] |= s;
            }
        }
        Ok(bookings.len() as i64)
    }

    fn canonical(_: &MeetingInstance, bookings: &Vec<Booking>) -> Value {
        let mut sorted = bookings.clone();
        sorted.sort_unstable();
        json!(sorted.iter().map(|&(m, r, s)| [m, r, s]).collect::<Vec<_>>())
    }

    fn format(_: &MeetingInstance, bookings: &Vec<Booking>) -> String {
        let mut sorted = bookings.clone();
        sorted.sort_unstable();
        nested_text(&sorted.iter().map(|&(m, r, s)| vec![m, r, s]).collect::<Vec<_>>())
    }

    fn solve(inst: &MeetingInstance, planted: Option<&Vec<Booking>>) -> Solved<Vec<Booking>> {
        if let Some(p) = planted
            && MeetingSchedule::objective(inst, p).is_ok_and(|k| k as usize == inst.meetings.len())
        {
            return Solved { solution: p.clone(), kind: ReferenceKind::PlantedOptimal, bound: None };
        }
        let (bookings, finished) = exact(inst, SEARCH_BUDGET);
        let kind = if finished || bookings.len() == inst.meetings.len() {
            ReferenceKind::Exact
        } else {
            ReferenceKind::Heuristic
        };
        Solved { solution: bookings, kind, bound: Some(inst.meetings.len() as i64) }
    }

    fn baseline(inst: &MeetingInstance) -> Vec<Booking> {
        greedy(inst, &(0..inst.meetings.len()).collect::<Vec<_>>())
    }
}

/// Each meeting in `order` at its first feasible (slot, room), or skipped.
pub fn greedy(inst: &MeetingInstance, order: &[usize]) -> Vec<Booking> {
    let free = available(inst);
    let mut room_busy = vec![0u64; inst.rooms.len()];
    let mut person_busy = vec![0u64; inst.availability.len()];
    let mut bookings = Vec::new();
    for &m in order {
        let meeting = &inst.meetings[m];
        'search: for start in 0..inst.horizon {
            for r in 0..inst.rooms.len() {
                let s = span(start, meeting.duration);
                if fits_alone(inst, &free, (m, r, start))
                    && room_busy[r] & s == 0
                    && meeting.attendees.iter().all(|&p| person_busy[p] & s == 0)
                {
                    room_busy[r] |= s;
                    for &p in &meeting.attendees {
                        person_busy[p] |= s;
                    }
                    bookings.push((m, r, start));
                    break 'search;
                }
            }
        }
    }
    bookings
}

/// Most meetings first by size, then index: the greedy heuristic.
pub fn largest_first(inst: &MeetingInstance) -> Vec<Booking> {
    let mut order: Vec<usize> = (0..inst.meetings.len()).collect();
    order.sort_by_key(|&m| (std::cmp::Reverse(inst.meetings[m].attendees.len() * inst.meetings[m].duration), m));
    greedy(inst, &order)
}

/// Exact depth-first search: each meeting skipped or placed at any feasible (room, start),
/// pruned when the scheduled count plus the meetings left cannot beat the best.
pub fn exact(inst: &MeetingInstance, budget: u64) -> (Vec<Booking>, bool) {
    let best = largest_first(inst);
    let mut s = MeetingSearch {
        inst,
        free: available(inst),
        room_busy: vec![0; inst.rooms.len()],
        person_busy: vec![0; inst.availability.len()],
        current: Vec::new(),
        best,
        nodes: 0,
        budget,
    };
    s.go(0);
    let finished = s.nodes <= budget;
    (s.best, finished)
}

struct MeetingSearch<'a> {
    inst: &'a MeetingInstance,
    free: Vec<u64>,
    room_busy: Vec<u64>,
    person_busy: Vec<u64>,
    current: Vec<Booking>,
    best: Vec<Booking>,
    nodes: u64,
    budget: u64,
}

impl MeetingSearch<'_> {
    fn go(&mut self, m: usize) {
        self.nodes += 1;
        let total = self.inst.meetings.len();
        if self.nodes > self.budget || self.best.len() == total || self.current.len() + (total - m) <= self.best.len() {
            return;
        }
        if m == total {
            self.best.clone_from(&self.current);
            return;
        }
        let meeting = &self.inst.meetings[m];
        for start in 0..self.inst.horizon {
            let s = span(start, meeting.duration);
            if !fits_alone(self.inst, &self.free, (m, 0, start))
                && self.inst.rooms.iter().all(|&c| c >= meeting.attendees.len())
            {
                continue;
            }
            if meeting.attendees.iter().any(|&p| self.person_busy[p] & s != 0) {
                continue;
            }
            for r in 0..self.inst.rooms.len() {
                if !fits_alone(self.inst, &self.free, (m, r, start)) || self.room_busy[r] & s != 0 {
                    continue;
                }
                self.room_busy[r] |= s;
                for &p in &meeting.attendees {
                    self.person_busy[p] |= s;
                }
                self.current.push((m, r, start));
                self.go(m + 1);
                self.current.pop();
                for &p in &meeting.attendees {
                    self.person_busy[p] &= !s;
                }
                self.room_busy[r] &= !s;
                if self.nodes > self.budget || self.best.len() == total {
                    return;
                }
            }
        }
        self.go(m + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};

    impl Testable for MeetingSchedule {
        fn tiny(rng: &mut Rng) -> MeetingInstance {
            let horizon = rng.range_usize(2, 4);
            let people = rng.range_usize(2, 4);
            let rooms = (0..rng.range_usize(1, 2)).map(|_| rng.range_usize(1, 3)).collect();
            let meetings = (0..rng.range_usize(1, 4))
                .map(|_| {
                    let size = rng.range_usize(1, people);
                    let mut attendees = rng.permutation(people)[..size].to_vec();
                    attendees.sort_unstable();
                    Meeting { attendees, duration: rng.range_usize(1, 2) }
                })
                .collect();
            let availability = (0..people).map(|_| (0..horizon).filter(|_| rng.chance(0.7)).collect()).collect();
            MeetingInstance { horizon, rooms, meetings, availability }
        }

        fn brute_force(inst: &MeetingInstance) -> i64 {
            // Every meeting: skipped, or any (room, start).
            let options: Vec<Option<(usize, usize)>> = std::iter::once(None)
                .chain((0..inst.rooms.len()).flat_map(|r| (0..inst.horizon).map(move |s| Some((r, s)))))
                .collect();
            let k = inst.meetings.len();
            (0..options.len().pow(k as u32))
                .filter_map(|mut code| {
                    let bookings: Vec<Booking> = (0..k)
                        .filter_map(|m| {
                            let o = options[code % options.len()];
                            code /= options.len();
                            o.map(|(r, s)| (m, r, s))
                        })
                        .collect();
                    MeetingSchedule::objective(inst, &bookings).ok()
                })
                .max()
                .unwrap_or(0)
        }

        fn exact(inst: &MeetingInstance) -> Vec<Booking> {
            exact(inst, u64::MAX).0
        }

        fn heuristic(inst: &MeetingInstance) -> Vec<Booking> {
            largest_first(inst)
        }

        fn mutations(inst: &MeetingInstance, bookings: &Vec<Booking>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let triples = |b: &[Booking]| nested_text(&b.iter().map(|&(m, r, s)| vec![m, r, s]).collect::<Vec<_>>());
            let (m, r, s) = bookings[0];
            let mut twice = bookings.clone();
            twice.push((m, (r + 1) % inst.rooms.len(), s));
            let mut out = vec![
                (triples(&twice), ErrorKind::Duplicate),
                (format!("[[{}, 0, 0]]", inst.meetings.len()), ErrorKind::OutOfRange),
                (format!("[[0, {}, 0]]", inst.rooms.len()), ErrorKind::OutOfRange),
                ("[[0, 0]]".to_owned(), ErrorKind::ParseError),
            ];
            // Two meetings sharing an attendee at the same time, in different rooms.
            let shared = (0..inst.meetings.len())
                .flat_map(|a| (a + 1..inst.meetings.len()).map(move |b| (a, b)))
                .find(|&(a, b)| inst.meetings[a].attendees.iter().any(|p| inst.meetings[b].attendees.contains(p)));
            if let Some((a, b)) = shared {
                let clash = vec![(a, 0, 0), (b, 1 % inst.rooms.len(), 0)];
                out.push((triples(&clash), ErrorKind::ConstraintViolation));
            }
            out
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<MeetingSchedule>(1000, 29);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<MeetingSchedule>(3);
    }
}
