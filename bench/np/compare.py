"""Plain-Python parse-and-verify for the NP environments, timed on the cases the Rust benchmark
writes, plus reasoning-gym's graph_color scorer on instances of similar size.

Usage: python compare.py CASES.jsonl [--rust-ns TASK=NS ...]

The Python side implements the same policy as the Rust crate for the tasks below (region after
the last </think>, last <answer> block or last "Answer:" line, first bracketed structure, no eval),
so the comparison is the same work in each language. NP-Engine's own verifiers are Python of this
kind (see docs/benchmarks.md for its published TSP figure).
"""

import json
import re
import sys
import time

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
}


def check(task, inst, response):
    try:
        return VERIFIERS[task](inst, parse_answer(region(response)))
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
    rows = reasoning_gym_rows()
    if rows:
        print()
        print("| reasoning-gym scorer | µs per call |")
        print("|---|---|")
        for name, t in rows:
            print(f"| {name} | {t * 1e6:.1f} |")


if __name__ == "__main__":
    main()
