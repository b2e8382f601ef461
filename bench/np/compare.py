"""Plain-Python parse-and-verify for the NP environments, timed on the cases the Rust benchmark
writes, plus reasoning-gym's graph_color scorer on instances of similar size.

Usage: python compare.py CASES.jsonl [--rust-ns TASK=NS ...]

The Python side implements the same policy as the Rust crate for every task (region after the
last </think>, last <answer> block or last "Answer:" line, first bracketed structure; countdown reads
the expression with a recursive-descent parser over exact fractions, never eval), so the comparison
is the same work in each language. The run fails if a Python verdict (feasible + objective)
differs from the Rust one on any reference answer, or if a task has no Python verifier. NP-Engine's own verifiers are Python of this
kind (see docs/benchmarks.md for its published TSP figure).
"""

import json
import re
import sys
import time
from fractions import Fraction

ANSWER_LINE = re.compile(r"answer[*_ ]*:[*_]*", re.IGNORECASE)
TOKEN = re.compile(r"\s*(?:(->|→|[,;])|([\[\](){}:])|(-?\d+)|(\"-?\d+\"|'-?\d+')|(\S))")


def region(response):
    text = response[-256 * 1024 :]
    i = text.rfind("</think>")
    if i >= 0:
        text = text[i + len("</think>") :]
    lower = text.lower()
    close = lower.rfind("</answer>")
    if close >= 0:
        open_ = lower.rfind("<answer>", 0, close)
        if open_ >= 0:
            return text[open_ + len("<answer>") : close]
    open_ = lower.rfind("<answer>")
    if open_ >= 0:
        return text[open_ + len("<answer>") :]
    matches = list(ANSWER_LINE.finditer(text))
    if matches:
        rest = text[matches[-1].end() :]
        end = rest.find("\n\n")
        return rest if end < 0 else rest[:end]
    return text


class ParseError(Exception):
    pass


def tokens(text):
    out = []
    for m in TOKEN.finditer(text):
        sep, bracket, num, quoted, other = m.groups()
        if sep:
            continue
        if bracket:
            out.append(bracket)
        elif num:
            out.append(int(num))
        elif quoted:
            out.append(int(quoted[1:-1]))
        else:
            out.append(other)
    return out


def parse_value(toks, i, depth=0):
    if depth > 4:
        raise ParseError("too deep")
    t = toks[i]
    if isinstance(t, int):
        return t, i + 1
    if t in "[({":
        close = {"[": "]", "(": ")", "{": "}"}[t]
        items, i = [], i + 1
        mapping = None
        while i < len(toks) and toks[i] != close:
            v, i = parse_value(toks, i, depth + 1)
            if i < len(toks) and toks[i] == ":":
                w, i = parse_value(toks, i + 1, depth + 1)
                mapping = mapping or {}
                mapping[v] = w
            else:
                items.append(v)
        if i >= len(toks):
            raise ParseError("unclosed")
        return (mapping if mapping is not None else items), i + 1
    raise ParseError(f"unexpected {t!r}")


def parse_answer(text):
    toks = tokens(text)
    for i, t in enumerate(toks):
        if t in ("[", "(", "{"):
            try:
                return parse_value(toks, i)[0]
            except (ParseError, IndexError, TypeError):
                continue
    ints = [t for t in toks if isinstance(t, int)]
    if ints:
        return ints
    raise ParseError("no answer")


def distinct(values, n):
    seen = [False] * n
    for v in values:
        if not isinstance(v, int) or v < 0 or v >= n:
            raise ValueError("out_of_range")
        if seen[v]:
            raise ValueError("duplicate")
        seen[v] = True
    return values


def v_tsp(inst, ans):
    n = inst["n"]
    if len(ans) == n + 1 and ans[0] == ans[-1]:
        ans = ans[:-1]
    if len(ans) != n:
        raise ValueError("wrong_length")
    distinct(ans, n)
    d = inst["distances"]
    return sum(d[ans[k]][ans[(k + 1) % n]] for k in range(n))


def v_knapsack(inst, ans):
    items = inst["items"]
    distinct(ans, len(items))
    if sum(items[i]["weight"] for i in ans) > inst["capacity"]:
        raise ValueError("constraint_violation")
    return sum(items[i]["value"] for i in ans)


def adjacency(inst):
    adj = [set() for _ in range(inst["n"])]
    for u, v in inst["edges"]:
        adj[u].add(v)
        adj[v].add(u)
    return adj


def v_mis(inst, ans):
    distinct(ans, inst["n"])
    adj = adjacency(inst)
    for i, u in enumerate(ans):
        for v in ans[i + 1 :]:
            if v in adj[u]:
                raise ValueError("constraint_violation")
    return len(ans)


def v_clique(inst, ans):
    distinct(ans, inst["n"])
    adj = adjacency(inst)
    for i, u in enumerate(ans):
        for v in ans[i + 1 :]:
            if v not in adj[u]:
                raise ValueError("constraint_violation")
    return len(ans)


def v_cover(inst, ans):
    distinct(ans, inst["n"])
    chosen = set(ans)
    for u, v in inst["edges"]:
        if u not in chosen and v not in chosen:
            raise ValueError("constraint_violation")
    return len(ans)


def v_coloring(inst, ans):
    n = inst["n"]
    if isinstance(ans, dict):
        ans = [ans[i] for i in range(n)]
    if len(ans) != n:
        raise ValueError("wrong_length")
    for u, v in inst["edges"]:
        if ans[u] == ans[v]:
            raise ValueError("constraint_violation")
    return len(set(ans))


def v_subset_sum(inst, ans):
    distinct(ans, len(inst["numbers"]))
    if sum(inst["numbers"][i] for i in ans) != inst["target"]:
        raise ValueError("constraint_violation")
    return len(ans)


def v_partition(inst, ans):
    nums = inst["numbers"]
    if len(ans) != len(nums) or any(s not in (0, 1) for s in ans):
        raise ValueError("wrong_length")
    a = sum(x for x, s in zip(nums, ans) if s == 0)
    return abs(2 * a - sum(nums))


def v_set_cover(inst, ans):
    distinct(ans, len(inst["sets"]))
    covered = set()
    for i in ans:
        covered.update(inst["sets"][i])
    if len(covered) != inst["universe"]:
        raise ValueError("missing_element")
    return len(ans)


def v_bin_packing(inst, ans):
    n = len(inst["sizes"])
    label = [None] * n
    for b, items in enumerate(ans):
        for i in items:
            if not 0 <= i < n:
                raise ValueError("out_of_range")
            if label[i] is not None:
                raise ValueError("duplicate")
            label[i] = b
    if None in label:
        raise ValueError("missing_element")
    loads = {}
    for i, b in enumerate(label):
        loads[b] = loads.get(b, 0) + inst["sizes"][i]
    if any(l > inst["capacity"] for l in loads.values()):
        raise ValueError("constraint_violation")
    return len(loads)


def v_machines(inst, ans):
    m = inst["machines"]
    if len(ans) != len(inst["times"]) or any(not 0 <= x < m for x in ans):
        raise ValueError("out_of_range")
    loads = [0] * m
    for t, x in zip(inst["times"], ans):
        loads[x] += t
    return max(loads)


def v_max_cut(inst, ans):
    if len(ans) != inst["n"] or any(s not in (0, 1) for s in ans):
        raise ValueError("wrong_length")
    return sum(w for u, v, w in inst["edges"] if ans[u] != ans[v])


def ints(ans):
    if not isinstance(ans, list) or any(not isinstance(x, int) for x in ans):
        raise ValueError("parse")
    return ans


def nested(ans):
    if not isinstance(ans, list) or any(not isinstance(x, list) for x in ans):
        raise ValueError("parse")
    return [ints(x) for x in ans]


def v_hamiltonian(inst, ans):
    n = inst["n"]
    ans = list(ints(ans))
    if len(ans) == n + 1 and ans[0] == ans[-1]:
        ans = ans[:-1]
    if len(ans) != n:
        raise ValueError("wrong_length")
    distinct(ans, n)
    adj = adjacency(inst)
    for k in range(n):
        if ans[(k + 1) % n] not in adj[ans[k]]:
            raise ValueError("constraint_violation")
    return n


def sides(ans, n):
    if ans and all(isinstance(x, list) for x in ans):
        if len(ans) != 2:
            raise ValueError("wrong_length")
        side = [None] * n
        for s, group in enumerate(nested(ans)):
            for v in group:
                if not 0 <= v < n:
                    raise ValueError("out_of_range")
                if side[v] is not None:
                    raise ValueError("duplicate")
                side[v] = s
        if None in side:
            raise ValueError("missing_element")
        return side
    if len(ints(ans)) != n or any(s not in (0, 1) for s in ans):
        raise ValueError("wrong_length")
    return ans


def v_bisection(inst, ans):
    side = sides(ans, inst["n"])
    a = side.count(0)
    if abs(2 * a - len(side)) > 1:
        raise ValueError("constraint_violation")
    return sum(w for u, v, w in inst["edges"] if side[u] != side[v])


def v_exact_cover(inst, ans):
    distinct(ints(ans), len(inst["sets"]))
    owner = [None] * inst["universe"]
    for i in ans:
        for e in inst["sets"][i]:
            if owner[e] is not None:
                raise ValueError("constraint_violation")
            owner[e] = i
    if None in owner:
        raise ValueError("missing_element")
    return inst["universe"]


def v_dominating(inst, ans):
    n = inst["n"]
    distinct(ints(ans), n)
    dominated = [False] * n
    adj = adjacency(inst)
    for v in ans:
        dominated[v] = True
        for u in adj[v]:
            dominated[u] = True
    if not all(dominated):
        raise ValueError("missing_element")
    return len(ans)


def assignment(inst, ans):
    n = inst["variables"]
    values = ints(ans)
    if len(values) == n and all(v in (0, 1) for v in values) and not (n == 1 and values[0] == 1):
        return [v == 1 for v in values]
    a = [None] * n
    for l in values:
        if l == 0 or abs(l) > n:
            raise ValueError("out_of_range")
        if a[abs(l) - 1] is not None:
            raise ValueError("duplicate")
        a[abs(l) - 1] = l > 0
    if None in a:
        raise ValueError("missing_element")
    return a


def v_max_sat(inst, ans):
    a = assignment(inst, ans)
    return sum(1 for c in inst["clauses"] if any(a[abs(l) - 1] == (l > 0) for l in c))


def v_sat(inst, ans):
    a = assignment(inst, ans)
    for c in inst["clauses"]:
        if not any(a[abs(l) - 1] == (l > 0) for l in c):
            raise ValueError("constraint_violation")
    return len(inst["clauses"])


def v_job_shop(inst, ans):
    machines, jobs = inst["machines"], inst["jobs"]
    n = len(jobs)
    orders = nested(ans)
    if len(orders) != machines:
        raise ValueError("wrong_length")
    for order in orders:
        distinct(order, n)
        if len(order) != n:
            raise ValueError("missing_element")
    step = [[None] * machines for _ in range(n)]
    for j, ops in enumerate(jobs):
        for k, (m, _) in enumerate(ops):
            step[j][m] = k
    job_next, machine_next = [0] * n, [0] * machines
    job_end, machine_end = [0] * n, [0] * machines
    total, done = sum(len(ops) for ops in jobs), 0
    while True:
        progressed = False
        for m in range(machines):
            order = orders[m]
            while machine_next[m] < len(order):
                j = order[machine_next[m]]
                if step[j][m] != job_next[j]:
                    break
                end = max(job_end[j], machine_end[m]) + jobs[j][job_next[j]][1]
                job_end[j] = machine_end[m] = end
                job_next[j] += 1
                machine_next[m] += 1
                done += 1
                progressed = True
        if done == total:
            return max(machine_end, default=0)
        if not progressed:
            raise ValueError("constraint_violation")


def v_cvrp(inst, ans):
    demands, d = inst["demands"], inst["distances"]
    n = len(demands)
    lists = nested(ans) if ans and all(isinstance(x, list) for x in ans) else [ints(ans)]
    seen = [False] * n
    routes = []
    for lst in lists:
        route = []
        for v in lst + [0]:
            if v == 0:
                if route:
                    routes.append(route)
                route = []
                continue
            if not 0 <= v < n:
                raise ValueError("out_of_range")
            if seen[v]:
                raise ValueError("duplicate")
            seen[v] = True
            route.append(v)
    if not all(seen[1:]):
        raise ValueError("missing_element")
    total = 0
    for r in routes:
        if sum(demands[c] for c in r) > inst["capacity"]:
            raise ValueError("constraint_violation")
        total += d[0][r[0]] + sum(d[a][b] for a, b in zip(r, r[1:])) + d[r[-1]][0]
    return total


def v_steiner(inst, ans):
    n = inst["n"]
    index_of = {}
    for e, (u, v, _) in enumerate(inst["edges"]):
        index_of[(min(u, v), max(u, v))] = e
    pairs = [] if ans == [] else nested(ans)
    used = [False] * len(inst["edges"])
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    total = 0
    for pair in pairs:
        if len(pair) != 2:
            raise ParseError("an edge is two vertices")
        u, v = pair
        if not (0 <= u < n and 0 <= v < n):
            raise ValueError("out_of_range")
        e = index_of.get((min(u, v), max(u, v)))
        if e is None:
            raise ValueError("constraint_violation")
        if used[e]:
            raise ValueError("duplicate")
        used[e] = True
        parent[find(u)] = find(v)
        total += inst["edges"][e][2]
    terminals = inst["terminals"]
    root = find(terminals[0])
    if any(find(t) != root for t in terminals):
        raise ValueError("constraint_violation")
    return total



def v_facility(inst, ans):
    distinct(ints(ans), len(inst["opening_costs"]))
    if not ans:
        raise ValueError("constraint_violation")
    return sum(inst["opening_costs"][f] for f in ans) + sum(min(row[f] for f in ans) for row in inst["costs"])


def v_meetings(inst, ans):
    meetings, rooms, horizon = inst["meetings"], inst["rooms"], inst["horizon"]
    triples = [] if ans == [] else nested(ans)
    seen = [False] * len(meetings)
    bookings = []
    for t in triples:
        if len(t) != 3:
            raise ParseError("a booking is [meeting, room, start]")
        m, r, start = t
        if not (0 <= m < len(meetings) and 0 <= r < len(rooms) and 0 <= start < horizon):
            raise ValueError("out_of_range")
        if seen[m]:
            raise ValueError("duplicate")
        seen[m] = True
        bookings.append((m, r, start))
    free = [sum(1 << s for s in set(slots) if s < 64) for slots in inst["availability"]]
    room_busy = [0] * len(rooms)
    person_busy = [0] * len(free)
    for m, r, start in bookings:
        meeting = meetings[m]
        if start + meeting["duration"] > horizon:
            raise ValueError("out_of_range")
        if rooms[r] < len(meeting["attendees"]):
            raise ValueError("constraint_violation")
        span = ((1 << meeting["duration"]) - 1) << start
        if room_busy[r] & span:
            raise ValueError("constraint_violation")
        room_busy[r] |= span
        for p in meeting["attendees"]:
            if free[p] & span != span or person_busy[p] & span:
                raise ValueError("constraint_violation")
            person_busy[p] |= span
    return len(bookings)


def v_queens(inst, ans):
    n = inst["n"]
    cols = ints(ans)
    if len(cols) != n:
        raise ValueError("wrong_length")
    distinct(cols, n)
    for r, c in inst["placed"]:
        if cols[r] != c:
            raise ValueError("constraint_violation")
    for r in range(n):
        for s in range(r + 1, n):
            if abs(cols[r] - cols[s]) == s - r:
                raise ValueError("constraint_violation")
    return n


def digit_grid(inst, ans):
    n = inst["size"]
    if ans and all(isinstance(x, list) for x in ans):
        rows = nested(ans)
    else:
        flat = ints(ans)
        if len(flat) != n * n:
            raise ValueError("wrong_length")
        rows = [flat[i : i + n] for i in range(0, n * n, n)]
    if len(rows) != n or any(len(row) != n for row in rows):
        raise ValueError("wrong_length")
    if any(not 1 <= d <= n for row in rows for d in row):
        raise ValueError("out_of_range")
    for r in range(n):
        for c in range(n):
            given = inst["grid"][r][c]
            if given and rows[r][c] != given:
                raise ValueError("constraint_violation")
    for i in range(n):
        if len(set(rows[i])) != n or len({rows[j][i] for j in range(n)}) != n:
            raise ValueError("constraint_violation")
    return rows


def v_sudoku(inst, ans):
    n = inst["size"]
    grid = digit_grid(inst, ans)
    b = round(n**0.5)
    for i in range(n):
        box = {grid[(i // b) * b + j // b][(i % b) * b + j % b] for j in range(n)}
        if len(box) != n:
            raise ValueError("constraint_violation")
    return n * n


def v_futoshiki(inst, ans):
    grid = digit_grid(inst, ans)
    for (r1, c1), (r2, c2) in inst["less"]:
        if grid[r1][c1] >= grid[r2][c2]:
            raise ValueError("constraint_violation")
    return inst["size"] ** 2


OPERATORS = [("+", "+"), ("-", "-"), ("\u2212", "-"), ("*", "*"), ("\u00d7", "*"), ("\u00b7", "*"), ("\\times", "*"),
             ("\\cdot", "*"), ("/", "/"), ("\u00f7", "/"), ("\\div", "/")]


def bounded(v):
    # The Rust reader rejects any intermediate value beyond 2^60 in numerator or denominator.
    if abs(v.numerator) > 1 << 60 or v.denominator > 1 << 60:
        raise ValueError("too_large")
    return v


class Expr:
    """Recursive-descent reader over exact fractions: literals, + - * / and parentheses only."""

    def __init__(self, text):
        self.s, self.pos, self.used = text, 0, []

    def space(self):
        while self.pos < len(self.s) and self.s[self.pos] in " \t":
            self.pos += 1

    def operator(self, ops):
        self.space()
        for text, op in OPERATORS:
            if op in ops and self.s.startswith(text, self.pos):
                self.pos += len(text)
                return op
        return None

    def expression(self, depth):
        value = self.term(depth)
        while (op := self.operator("+-")) is not None:
            rhs = self.term(depth)
            value = bounded(value + rhs if op == "+" else value - rhs)
        return value

    def term(self, depth):
        value = self.factor(depth)
        while (op := self.operator("*/")) is not None:
            rhs = self.factor(depth)
            if op == "*":
                value = bounded(value * rhs)
            elif rhs == 0:
                raise ValueError("constraint_violation")
            else:
                value = bounded(value / rhs)
        return value

    def factor(self, depth):
        if depth > 32:
            raise ValueError("too_large")
        self.space()
        if self.pos >= len(self.s):
            raise ParseError("the expression ends early")
        c = self.s[self.pos]
        if c == "(":
            self.pos += 1
            v = self.expression(depth + 1)
            self.space()
            if self.pos >= len(self.s) or self.s[self.pos] != ")":
                raise ParseError("unclosed parenthesis")
            self.pos += 1
            return v
        if "0" <= c <= "9":
            start = self.pos
            while self.pos < len(self.s) and "0" <= self.s[self.pos] <= "9":
                self.pos += 1
            if self.pos < len(self.s) and (self.s[self.pos] in ".eE_" or self.s[self.pos].isascii() and self.s[self.pos].isalpha()):
                raise ParseError("only whole numbers")
            v = int(self.s[start : self.pos])
            if v > 1_000_000_000:
                raise ValueError("too_large")
            self.used.append(v)
            return Fraction(v)
        raise ParseError(f"unexpected character {c!r}")


def expression_text(region_text):
    lines = [l.strip() for l in region_text.splitlines() if l.strip()]
    line = (lines[-1] if lines else "").rstrip(".").strip().lstrip("$").rstrip("$").strip()
    i = line.find("=")
    return line[:i].strip() if i >= 0 else line


def v_countdown(inst, text):
    text = expression_text(text)
    if len(text.encode()) > 512:
        raise ValueError("too_large")
    if not text:
        raise ParseError("no expression found")
    p = Expr(text)
    value = p.expression(0)
    p.space()
    if p.pos != len(text):
        raise ParseError("unexpected text after the expression")
    left = list(inst["numbers"])
    for u in p.used:
        if u not in left:
            raise ValueError("duplicate" if u in inst["numbers"] else "out_of_range")
        left.remove(u)
    return -(-abs(value - inst["target"]) // 1)


VERIFIERS = {
    "tsp": v_tsp,
    "knapsack": v_knapsack,
    "max_independent_set": v_mis,
    "max_clique": v_clique,
    "min_vertex_cover": v_cover,
    "graph_coloring": v_coloring,
    "subset_sum": v_subset_sum,
    "number_partition": v_partition,
    "set_cover": v_set_cover,
    "bin_packing": v_bin_packing,
    "parallel_machines": v_machines,
    "max_cut": v_max_cut,
    "hamiltonian_cycle": v_hamiltonian,
    "min_bisection": v_bisection,
    "exact_cover": v_exact_cover,
    "dominating_set": v_dominating,
    "max_sat": v_max_sat,
    "sat": v_sat,
    "job_shop": v_job_shop,
    "cvrp": v_cvrp,
    "steiner_tree": v_steiner,
    "facility_location": v_facility,
    "meeting_schedule": v_meetings,
    "n_queens": v_queens,
    "sudoku": v_sudoku,
    "futoshiki": v_futoshiki,
    "countdown": v_countdown,
}

# Tasks whose answer is read as text rather than as a bracketed structure.
TEXT_TASKS = {"countdown"}


def check(task, inst, response):
    try:
        text = region(response)
        return VERIFIERS[task](inst, text if task in TEXT_TASKS else parse_answer(text))
    except (ParseError, ValueError, KeyError, IndexError, TypeError) as e:
        return e


def time_per_call(fn, min_seconds=0.3):
    fn()
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < min_seconds:
        for _ in range(32):
            fn()
        calls += 32
    return (time.perf_counter() - start) / calls


def reasoning_gym_rows():
    try:
        import reasoning_gym
        from reasoning_gym.utils import extract_answer
    except ImportError:
        return []
    rows = []
    for vertices in (10, 20):
        ds = reasoning_gym.create_dataset("graph_color", size=16, seed=7, min_num_vertices=vertices, max_num_vertices=vertices, num_colors=3)
        cases = []
        for entry in ds:
            answer = json.dumps({str(k): v for k, v in entry["metadata"]["possible_answer"].items()})
            completion = "<think>" + "Let me compare a few candidate solutions and check the constraints again. " * 14 + "</think>\n<answer>" + answer + "</answer>"
            cases.append((completion, entry))
        assert all(ds.score_answer(extract_answer(c), e) == 1.0 for c, e in cases)
        k = [0]

        def one():
            c, e = cases[k[0] % len(cases)]
            k[0] += 1
            ds.score_answer(extract_answer(c), e)

        rows.append((f"reasoning-gym graph_color, {vertices} vertices (extract_answer + score_answer)", time_per_call(one)))
    return rows


def main():
    path = sys.argv[1]
    by_task = {}
    with open(path) as f:
        for line in f:
            case = json.loads(line)
            by_task.setdefault((case["task"], case["level"]), []).append(case)
    disagreements = []
    print("| task | level | plain Python parse+verify µs | objective = reference |")
    print("|---|---|---|---|")
    for (task, level), cases in by_task.items():
        if task not in VERIFIERS:
            continue
        ok = all(check(task, c["instance"], c["response"]) == c["objective"] for c in cases)
        k = [0]

        def one():
            c = cases[k[0] % len(cases)]
            k[0] += 1
            check(task, c["instance"], c["response"])

        print(f"| {task} | {level} | {time_per_call(one) * 1e6:.1f} | {'yes' if ok else 'NO'} |")
        if not ok:
            disagreements.append(f"{task} level {level}")
    missing = sorted({task for task, _ in by_task} - set(VERIFIERS))
    # The Python verdict (feasible + objective) must match the Rust one on every reference answer,
    # and every task the Rust benchmark wrote must have a Python counterpart.
    assert not disagreements, f"plain Python disagrees with the Rust verdict on: {', '.join(disagreements)}"
    assert not missing, f"no plain-Python verifier for: {', '.join(missing)}"
    rows = reasoning_gym_rows()
    if rows:
        print()
        print("| reasoning-gym scorer | µs per call |")
        print("|---|---|")
        for name, t in rows:
            print(f"| {name} | {t * 1e6:.1f} |")


if __name__ == "__main__":
    main()
