"""Plain-Python rule criteria for the rubric benchmark, timed on the cases the Rust benchmark
writes (`rubric_bench rules CASES.jsonl`).

Usage: python compare.py CASES.jsonl

Each rule kind of the benchmark rubric is implemented here the way referee-rubric implements
it (regex search, whole-word keywords, lengths in chars/words/tokens, JSON and the JSON Schema
keywords used, function-word language detection, section headings, Markdown formats, BLEU-4,
ROUGE-L, the Indel fuzzy ratio), then aggregated by weighted mean with the veto. The run fails
if any item's score differs from Rust's by more than 1e-9, so both sides do the same work.
Prints one JSON line: items, seconds (best of 5), items/s.
"""

import json
import math
import re
import sys
import time
from collections import Counter

FUNCTION_WORDS = {
    "en": "the and of to is in that it was for with as are this be not have you they on".split(),
    "de": "der die und das ist nicht ein eine zu den mit sich auf ich es dem auch wir sie wird".split(),
    "fr": "le la les et des est un une du que qui dans pour pas sur au avec il nous ce".split(),
    "es": "el la los las y que es un una del por con para se no lo como pero su al".split(),
    "it": "il la che di e un una non per con sono gli della del le è questo anche come lo".split(),
    "pt": "o a os as que não um uma do da em para com por se é dos mais como mas".split(),
    "nl": "de het een en van is niet dat op te zijn met voor ik je ook maar er wij dit".split(),
}


def script(c):
    o = ord(c)
    if 0x41 <= o <= 0x5A or 0x61 <= o <= 0x7A or 0xC0 <= o <= 0x24F:
        return "latin"
    if 0x400 <= o <= 0x4FF:
        return "cyrillic"
    if 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF:
        return "han"
    if 0x3040 <= o <= 0x30FF:
        return "kana"
    return None


def detect(text):
    counts = Counter(s for s in map(script, text) if s)
    if not counts:
        return None
    best = max(counts.items(), key=lambda kv: kv[1])[0]
    if best != "latin":
        return best  # the benchmark's texts are Latin-script; other scripts never match "en"
    words = [w for w in re.split(r"[^\w]|_", text.lower()) if w]
    winner, most = None, 0
    for code, lst in FUNCTION_WORDS.items():
        hits = sum(1 for w in words if w in lst)
        if hits > most:
            winner, most = code, hits
    return winner


def tokens(text):
    count, in_word = 0, False
    for c in text:
        if c.isalnum() or c == "_":
            if not in_word:
                count += 1
            in_word = True
        else:
            in_word = False
            if not c.isspace():
                count += 1
    return count


def parse_json(response):
    t = response.strip()
    try:
        return True, json.loads(t)
    except ValueError:
        pass
    if t.startswith("```") and t.endswith("```") and len(t) >= 6:
        inner = t[3:-3]
        body = inner.split("\n", 1)[1] if "\n" in inner else ""
        try:
            return True, json.loads(body.strip())
        except ValueError:
            pass
    return False, None


def valid(schema, value):
    """The JSON Schema keywords of the benchmark's schema."""
    t = schema.get("type")
    if t == "object" and not isinstance(value, dict):
        return False
    if t == "string" and not isinstance(value, str):
        return False
    if t == "integer":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or float(value) != int(value):
            return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            return False
        if "maximum" in schema and value > schema["maximum"]:
            return False
    if isinstance(value, str) and "maxLength" in schema and len(value) > schema["maxLength"]:
        return False
    if isinstance(value, dict):
        if any(k not in value for k in schema.get("required", [])):
            return False
        props = schema.get("properties", {})
        for k, v in value.items():
            if k in props:
                if not valid(props[k], v):
                    return False
            elif schema.get("additionalProperties") is False:
                return False
    return True


def normalise_heading(text):
    text = text.strip().lstrip("#").strip()
    text = text.strip("*_").strip()
    text = text.rstrip(":").strip()
    return text.strip("*_").strip().lower()


def is_heading_line(line, heading):
    t = line.strip()
    marked = (
        t.startswith("#")
        or (t.startswith("**") and len(t) > 4)
        or (t.startswith("__") and len(t) > 4)
        or t.endswith(":")
        or t.rstrip("*_").endswith(":")
    )
    return marked and normalise_heading(t) == heading


def has_heading(lines):
    for l in lines:
        hashes = len(l) - len(l.lstrip("#"))
        if 1 <= hashes <= 6 and l[hashes:].startswith(" ") and l[hashes:].strip():
            return True
    return False


def bullets(lines):
    return sum(1 for l in lines if l.lstrip()[:2] in ("- ", "* ", "+ ") and len(l.lstrip()) > 2) >= 2


def words(text):
    out, cur = [], []
    for c in text:
        if c.isalnum():
            cur.append(c.lower())
        else:
            if cur:
                out.append("".join(cur))
                cur = []
            if not c.isspace():
                out.append(c)
    if cur:
        out.append("".join(cur))
    return out


def ngrams(toks, n):
    return Counter(tuple(toks[i : i + n]) for i in range(len(toks) - n + 1))


def bleu(c, r):
    c, r = words(c), words(r)
    if not c or not r:
        return 1.0 if not c and not r else 0.0
    log_sum = 0.0
    for n in range(1, 5):
        cand, refs = ngrams(c, n), ngrams(r, n)
        total = sum(cand.values())
        matched = sum(min(k, refs.get(g, 0)) for g, k in cand.items())
        if n > 1:
            matched, total = matched + 1, total + 1
        if matched == 0 or total == 0:
            return 0.0
        log_sum += math.log(matched / total) / 4
    bp = 1.0 if len(c) >= len(r) else math.exp(1 - len(r) / len(c))
    return min(max(bp * math.exp(log_sum), 0.0), 1.0)


def lcs(a, b):
    row = [0] * (len(b) + 1)
    for x in a:
        diag = 0
        for j, y in enumerate(b):
            above = row[j + 1]
            row[j + 1] = diag + 1 if x == y else max(above, row[j])
            diag = above
    return row[len(b)]


def rouge_l(c, r):
    c, r = words(c), words(r)
    if not c or not r:
        return 1.0 if not c and not r else 0.0
    common = lcs(c, r)
    if common == 0:
        return 0.0
    p, q = common / len(c), common / len(r)
    return 2 * p * q / (p + q)


def fuzzy(a, b):
    if not a and not b:
        return 1.0
    return 2 * lcs(a, b) / (len(a) + len(b))


def compile_rubric(rubric):
    """One function per criterion: (response, reference) -> score."""
    fns = []
    for c in rubric["criteria"]:
        k = c["kind"]
        t = k["type"]
        if t == "format":
            fn = {"heading": lambda s, r: float(has_heading(s.splitlines())),
                  "bullet_list": lambda s, r: float(bullets(s.splitlines()))}[k["format"]]
        elif t == "section":
            h = normalise_heading(k["heading"])
            fn = lambda s, r, h=h: float(any(is_heading_line(l, h) for l in s.splitlines()))
        elif t == "regex":
            rx = re.compile(k["pattern"])
            absent = k.get("absent", False)
            fn = lambda s, r, rx=rx, absent=absent: float((rx.search(s) is not None) != absent)
        elif t == "keywords":
            pats = [re.compile(r"(?:^|[^\w])" + re.escape(w.strip()) + r"(?:[^\w]|$)", re.IGNORECASE) for w in k["keywords"]]
            fn = lambda s, r, pats=pats: sum(1 for p in pats if p.search(s)) / len(pats)
        elif t == "length":
            unit, lo, hi = k["unit"], k.get("min"), k.get("max")
            measure = {"chars": len, "words": lambda s: len(s.split()), "tokens": tokens}[unit]
            fn = lambda s, r, m=measure, lo=lo, hi=hi: float((lo is None or m(s) >= lo) and (hi is None or m(s) <= hi))
        elif t == "language":
            fn = lambda s, r, code=k["language"]: float(detect(s) == code)
        elif t == "valid_json":
            fn = lambda s, r: float(parse_json(s)[0])
        elif t == "json_schema":
            fn = lambda s, r, sc=k["schema"]: float((lambda ok_v: ok_v[0] and valid(sc, ok_v[1]))(parse_json(s)))
        elif t == "similarity":
            metric = {"bleu": bleu, "rouge_l": rouge_l, "fuzzy_ratio": fuzzy}[k["metric"]]
            own = k.get("reference")
            fn = lambda s, r, m=metric, own=own: m(s, own if own is not None else r)
        else:
            raise SystemExit(f"no Python implementation of {t}")
        fns.append((c["name"], c.get("weight", 1.0), c.get("veto", False), c.get("pass_threshold", 0.5), fn))
    return fns


def score(fns, response, reference):
    total = sum(w for _, w, _, _, _ in fns)
    acc, vetoed, per = 0.0, False, []
    for name, w, veto, threshold, fn in fns:
        s = fn(response, reference)
        per.append((name, s))
        acc += w * s
        vetoed |= veto and s < threshold
    return (0.0 if vetoed else acc / total), per


def main():
    with open(sys.argv[1]) as f:
        rubric = json.loads(f.readline())["rubric"]
        cases = [json.loads(line) for line in f]
    fns = compile_rubric(rubric)
    for case in cases:
        got, per = score(fns, case["response"], case["reference"])
        if abs(got - case["score"]) > 1e-9:
            rust = dict((n, s) for n, s in case["criteria"])
            diff = [(n, s, rust.get(n)) for n, s in per if abs(s - (rust.get(n) or 0)) > 1e-9]
            raise SystemExit(f"Python {got} != Rust {case['score']} on {case['response']!r}: {diff}")
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for case in cases:
            score(fns, case["response"], case["reference"])
        best = min(best, time.perf_counter() - start)
    print(json.dumps({"bench": "rules-python", "items": len(cases), "seconds": best, "items_per_s": len(cases) / best}))


if __name__ == "__main__":
    main()
