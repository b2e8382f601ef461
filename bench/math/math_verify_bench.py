"""Scores a labelled JSONL file with HuggingFace Math-Verify, one pair at a time.

Each pair runs in a worker process so a pair that hangs (Math-Verify's signal timeout does not
stop every parse) can be killed: it then counts as wrong and as `--timeout` seconds of work.
Prints one JSON object with accuracy, pairs per second and the slowest pair.
"""

import argparse
import json
import multiprocessing as mp
import time


def worker(conn):
    from math_verify import parse, verify

    while True:
        msg = conn.recv()
        if msg is None:
            return
        gold, pred = msg
        start = time.perf_counter()
        try:
            ok = bool(verify(parse(gold), parse(pred)))
        except Exception:  # a crash on one pair is a wrong verdict, as in training
            ok = False
        conn.send((ok, time.perf_counter() - start))


class Worker:
    def __init__(self):
        self.conn, child = mp.Pipe()
        self.proc = mp.Process(target=worker, args=(child,), daemon=True)
        self.proc.start()
        # Warm up imports (sympy, antlr) outside the timed pairs.
        self.conn.send(("1", "1"))
        self.conn.recv()

    def run(self, gold, pred, timeout):
        self.conn.send((gold, pred))
        if self.conn.poll(timeout):
            return self.conn.recv()
        self.proc.kill()
        self.proc.join()
        return None

    def close(self):
        if self.proc.is_alive():
            self.conn.send(None)
            self.proc.join(5)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--timeout", type=float, default=10.0)
    args = ap.parse_args()
    rows = [json.loads(line) for line in open(args.file, encoding="utf-8") if line.strip()]
    w = Worker()
    right = false_accepts = timeouts = 0
    total = 0.0
    worst = (0.0, 0)
    for i, row in enumerate(rows, 1):
        result = w.run(row["gold"], row["pred"], args.timeout)
        if result is None:
            timeouts += 1
            ok, took = False, args.timeout
            w = Worker()
        else:
            ok, took = result
        total += took
        if took > worst[0]:
            worst = (took, i)
        right += ok == row["expected"]
        false_accepts += ok and not row["expected"]
    w.close()
    print(json.dumps({
        "pairs": len(rows),
        "accuracy": right / len(rows),
        "false_accepts": false_accepts,
        "timeouts": timeouts,
        "timeout_s": args.timeout,
        "pairs_per_second": len(rows) / total,
        "worst_pair_ms": worst[0] * 1e3,
        "worst_pair_row": worst[1],
    }))


if __name__ == "__main__":
    main()
