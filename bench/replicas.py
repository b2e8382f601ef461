"""Replicas sharing one PostgreSQL database: the same large mixed job on 1, 2 and 3 replicas,
then on 2 replicas of which one is killed with SIGKILL at a quarter of the job while a third
joins. For each run: wall time, items/s, each replica's share of the chunks, chunks run more
than once, and whether every item has exactly one result.

Each run gets a fresh database on the local server (created and dropped with psql), replicas
listen on loopback only, and each has its own `jobs.node_id`. Standard library only; prints one
JSON line per run.
"""

import argparse
import json
import os
import signal
import subprocess
import tempfile
import time
import urllib.request

PSQL = ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qAt", "-v", "ON_ERROR_STOP=1"]
PG_ADMIN = PSQL + ["-d", "test"]

PROGRAM = "a, b = map(int, input().split())\nprint(a + b)\n"


def items(total, code):
    """A mixed job: `code` Python programs spread evenly through it, the rest exact-match and
    math items. Every item is distinct, so none is answered from the result cache."""
    rows = []
    every = max(1, total // code) if code else total + 1
    for i in range(total):
        if i % every == 0 and i // every < code:
            tests = [{"stdin": f"{i} 3\n", "expected_stdout": f"{i + 3}\n"},
                     {"stdin": f"-4 {i}\n", "expected_stdout": f"{i - 4}\n"}]
            rows.append({"verifier": "code", "input": {"language": "python", "program": PROGRAM, "tests": tests}})
        elif i % 2:
            rows.append({"verifier": "math", "input": {"response": f"\\boxed{{{i}/4}}", "reference": f"{i / 4}"}})
        else:
            rows.append({"verifier": "exact-match", "input": {"response": f"a{i}", "reference": f"a{i}"}})
    return "".join(json.dumps(row) + "\n" for row in rows).encode()


def sql(database, query):
    command = PSQL + ["-d", database, "-c", query]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip()


class Replica:
    def __init__(self, binary, url, node, scratch, args, env=None):
        self.node = node
        self.log = os.path.join(scratch, f"{node}.log")
        env = dict(os.environ, REFEREE__JOBS__NODE_ID=node, REFEREE__JOBS__LEASE_MS=str(args.lease_ms),
                   REFEREE__JOBS__CHUNK_SIZE=str(args.chunk_size), **(env or {}))
        # A restarted node appends to its log; only what this process writes is read below.
        start = os.path.getsize(self.log) if os.path.exists(self.log) else 0
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(
                [binary, "serve", "--listen", "127.0.0.1:0", "--database-url", url,
                 "--data-dir", os.path.join(scratch, node)],
                stdout=log, stderr=subprocess.STDOUT, env=env)
        self.base = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with open(self.log) as log:
                log.seek(start)
                for line in log:
                    if "listening on http://" in line:
                        self.base = "http://" + line.split("listening on http://")[1].split()[0].rstrip('",')
            if self.base:
                try:
                    urllib.request.urlopen(self.base + "/readyz", timeout=2)
                    return
                except OSError:
                    pass
            time.sleep(0.1)
        raise RuntimeError(f"{node} did not start; see {self.log}")

    def get(self, path):
        return json.load(urllib.request.urlopen(self.base + path, timeout=30))

    def submit(self, body):
        request = urllib.request.Request(self.base + "/v1/jobs", body, {"content-type": "application/x-ndjson"})
        return json.load(urllib.request.urlopen(request, timeout=600))

    def stop(self, kill=False):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            self.process.wait(timeout=60)


def run(args, replicas, kill):
    database = f"referee_replicas_{os.getpid()}_{replicas}_{int(kill)}"
    subprocess.run(PG_ADMIN + ["-c", f"CREATE DATABASE {database}"], check=True)
    url = f"postgres://postgres@127.0.0.1:5432/{database}"
    scratch = tempfile.mkdtemp(prefix="referee-replicas-")
    running = []
    try:
        running = [Replica(args.binary, url, f"replica-{i + 1}", scratch, args) for i in range(replicas)]
        body = items(args.items, args.code)
        started = time.monotonic()
        job = running[0].submit(body)["id"]
        watcher = running[-1]
        killed_at = joined = None
        while True:
            status = watcher.get(f"/v1/jobs/{job}")
            if kill and killed_at is None and status["scored_items"] >= args.items // 4:
                running[0].stop(kill=True)
                killed_at = time.monotonic() - started
                running.append(Replica(args.binary, url, f"replica-{replicas + 1}", scratch, args))
                joined = time.monotonic() - started
            if status["state"] in ("done", "failed", "cancelled"):
                break
            time.sleep(0.2)
        elapsed = time.monotonic() - started
        shares = dict(
            line.split("|") for line in sql(
                database, f"SELECT COALESCE(lease_node, '-'), COUNT(*) FROM job_chunks WHERE job_id = '{job}' "
                          "GROUP BY lease_node ORDER BY lease_node").splitlines())
        results, distinct = sql(
            database, f"SELECT COUNT(*), COUNT(DISTINCT item_index) FROM job_results WHERE job_id = '{job}'").split("|")
        retried = sql(database, f"SELECT COUNT(*) FROM job_chunks WHERE job_id = '{job}' AND attempts > 1")
        return {
            "replicas": replicas,
            "kill_and_join": kill,
            "state": status["state"],
            "items": args.items,
            "code_items": args.code,
            "chunk_size": args.chunk_size,
            "seconds": round(elapsed, 2),
            "items_per_s": round(args.items / elapsed, 1),
            "chunks_by_replica": {node: int(count) for node, count in shares.items()},
            "chunks_run_more_than_once": int(retried),
            "results": int(results),
            "exactly_one_result_each": int(results) == int(distinct) == args.items,
            "killed_at_s": None if killed_at is None else round(killed_at, 2),
            "joined_at_s": None if joined is None else round(joined, 2),
        }
    finally:
        for replica in running:
            replica.stop()
        subprocess.run(PG_ADMIN + ["-c", f"DROP DATABASE IF EXISTS {database} WITH (FORCE)"], check=False)


def job_arguments(description):
    """The options of a run of nodes on one job, shared with bench/faults.py."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--code", type=int, default=10_000, help="how many of the items are Python programs")
    parser.add_argument("--lease-ms", type=int, default=5_000, help="jobs.lease_ms of every node")
    parser.add_argument("--chunk-size", type=int, default=250, help="jobs.chunk_size of every node")
    return parser


def main():
    args = job_arguments(__doc__).parse_args()
    for replicas in (1, 2, 3):
        print(json.dumps(run(args, replicas, kill=False)), flush=True)
    print(json.dumps(run(args, 2, kill=True)), flush=True)


if __name__ == "__main__":
    main()
