"""Faults during jobs: processes killed with SIGKILL and restarted while a large mixed job runs,
on SQLite (one node) and on PostgreSQL (two replicas, then the database server itself
restarted under load). After each run, from the database: every item has exactly one result,
and the scoring log holds exactly one row per item (no row lost to a kill, none written twice
by a chunk scored again).

Measured per fault: the time until the restarted process answers /readyz, and until the chunks
the killed process held are done (a restarted node takes back its own dead worker's leases at
once; the job also moves on on the other replica meanwhile). For the database restart: how long
the job made no progress.

Each PostgreSQL run gets a fresh database (created and dropped with psql) on 127.0.0.1:5432;
restarting the server needs `pg_ctlcluster` and the right to run it (root here); without it
that part is skipped and the output says so. Standard library only; one JSON line per run.
"""

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time

from replicas import PG_ADMIN, Replica, items, job_arguments, sql

LOG_ALL = {"REFEREE__SCORING_LOG__MODE": "all"}


class Database:
    """The job's tables, read from outside the servers."""

    def __init__(self, backend, scratch):
        self.backend = backend
        if backend == "sqlite":
            self.path = os.path.join(scratch, "referee.db")
            self.url = f"sqlite://{self.path}?mode=rwc"
        else:
            self.name = f"referee_faults_{os.getpid()}"
            subprocess.run(PG_ADMIN + ["-c", f"CREATE DATABASE {self.name}"], check=True)
            self.url = f"postgres://postgres@127.0.0.1:5432/{self.name}"

    def rows(self, query):
        if self.backend == "sqlite":
            with contextlib.closing(sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=30)) as connection:
                return [tuple(str(v) for v in row) for row in connection.execute(query)]
        return [tuple(line.split("|")) for line in sql(self.name, query).splitlines()]

    def drop(self):
        if self.backend == "postgres":
            subprocess.run(PG_ADMIN + ["-c", f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)"], check=False)


def scored(replicas, job):
    """The job's scored items, from the first replica that answers."""
    for replica in replicas:
        try:
            status = replica.get(f"/v1/jobs/{job}")
            return status["scored_items"], status["state"]
        except OSError:
            continue
    return None, None


def wait_until(predicate, timeout, step=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return False


def postgres_cluster():
    """The local PostgreSQL cluster's version, if pg_ctlcluster can restart it."""
    if shutil.which("pg_ctlcluster") is None or not os.path.isdir("/etc/postgresql"):
        return None
    versions = sorted(os.listdir("/etc/postgresql"), key=lambda v: [int(p) for p in v.split(".") if p.isdigit()])
    return versions[-1] if versions else None


def run(args, backend):
    scratch = tempfile.mkdtemp(prefix=f"referee-faults-{backend}-")
    database = Database(backend, scratch)
    nodes = 1 if backend == "sqlite" else 2
    running = []
    faults = []
    try:
        running = [Replica(args.binary, database.url, f"node-{i + 1}", scratch, args, LOG_ALL) for i in range(nodes)]
        job = running[0].submit(items(args.items, args.code))["id"]
        started = time.monotonic()
        marks = [args.items * (k + 1) // (args.kills + 2) for k in range(args.kills)]
        for k, mark in enumerate(marks):
            wait_until(lambda: (scored(running, job)[0] or 0) >= mark, 600)
            victim = running[k % nodes]
            held = database.rows(
                f"SELECT chunk_index FROM job_chunks WHERE job_id = '{job}' AND state = 'running' "
                f"AND lease_node = '{victim.node}'")
            killed = time.monotonic()
            victim.stop(kill=True)
            running[k % nodes] = Replica(args.binary, database.url, victim.node, scratch, args, LOG_ALL)
            ready = time.monotonic() - killed
            chunks = ",".join(index for (index,) in held) or "-1"
            wait_until(lambda: database.rows(
                f"SELECT COUNT(*) FROM job_chunks WHERE job_id = '{job}' AND chunk_index IN ({chunks}) "
                "AND state <> 'done'") == [("0",)], 600, step=0.02)
            faults.append({"fault": "sigkill", "node": victim.node, "at_item": mark, "chunks_held": len(held),
                           "ready_s": round(ready, 2), "held_chunks_done_s": round(time.monotonic() - killed, 2)})
        cluster = postgres_cluster() if backend == "postgres" and not args.no_database_restart else None
        if backend == "postgres" and cluster is None:
            faults.append({"fault": "database_restart", "skipped": "no pg_ctlcluster, or --no-database-restart"})
        elif cluster is not None:
            mark = args.items * (args.kills + 1) // (args.kills + 2)
            wait_until(lambda: (scored(running, job)[0] or 0) >= mark, 600)
            before, state = scored(running, job)
            if state not in ("queued", "running"):
                faults.append({"fault": "database_restart", "skipped": f"the job was {state} already"})
            else:
                restarted = time.monotonic()
                subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", cluster, "main", "restart"],
                               check=True, capture_output=True)
                back = time.monotonic() - restarted
                wait_until(lambda: (scored(running, job)[0] or 0) > before or scored(running, job)[1] == "done", 600)
                faults.append({"fault": "database_restart", "at_item": before, "restart_s": round(back, 2),
                               "progress_resumed_s": round(time.monotonic() - restarted, 2)})
        wait_until(lambda: scored(running, job)[1] in ("done", "failed", "cancelled"), 1800, step=0.2)
        elapsed = time.monotonic() - started
        state = scored(running, job)[1]
        # A graceful stop writes what the scoring-log queue still holds.
        for replica in running:
            replica.stop()
        (results, distinct), = database.rows(
            f"SELECT COUNT(*), COUNT(DISTINCT item_index) FROM job_results WHERE job_id = '{job}'")
        (log_rows, log_keys), = database.rows(
            f"SELECT COUNT(*), COUNT(DISTINCT row_key) FROM scoring_log WHERE request_id LIKE '{job}:%'")
        (retried,), = database.rows(f"SELECT COUNT(*) FROM job_chunks WHERE job_id = '{job}' AND attempts > 1")
        return {
            "backend": backend,
            "nodes": nodes,
            "state": state,
            "items": args.items,
            "code_items": args.code,
            "seconds": round(elapsed, 2),
            "faults": faults,
            "chunks_run_more_than_once": int(retried),
            "results": int(results),
            "exactly_one_result_each": int(results) == int(distinct) == args.items,
            "scoring_log_rows": int(log_rows),
            "scoring_log_complete": int(log_rows) == int(log_keys) == args.items,
        }
    finally:
        for replica in running:
            replica.stop()
        database.drop()
        shutil.rmtree(scratch, ignore_errors=True)


def main():
    parser = job_arguments(__doc__)
    parser.add_argument("--kills", type=int, default=3, help="SIGKILL and restart cycles per run")
    parser.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--no-database-restart", action="store_true", help="leave the PostgreSQL server running")
    args = parser.parse_args()
    for backend in ("sqlite", "postgres") if args.backend == "both" else (args.backend,):
        print(json.dumps(run(args, backend)), flush=True)


if __name__ == "__main__":
    main()
