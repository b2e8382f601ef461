"""Overload and slow-client checks of a running Referee server, over raw HTTP/1.1 sockets.

Two scenarios (standard library only, so a refusal, a reset and a timeout are told apart
exactly as a client's socket sees them):

  overload   CONCURRENCY clients each send large batches back to back for DURATION seconds.
             Every answer is classified: 200 (with how many items came back `timeout`), a
             429/503 refusal with `Retry-After`, a refusal without it, another status, or a
             broken connection (reset or closed before a complete response). Meanwhile
             `/healthz` is probed every 20 ms on its own connection, from a process of
             its own. Broken connections are also counted by stage and error.
  slowloris  SLOW connections trickle a request (headers, then a body) one byte per second
             while ordinary small requests are timed on fresh connections; at the end it
             counts how many slow connections the server closed.
  slowbody   SLOW connections (4 in the probe that found the lock-out) each declare a
             DECLARED-byte body (64 MiB) on `/v1/score` or `/get_reward` and send it a byte a
             second, reconnecting whenever the server ends one, while small `/v1/score` and
             `/get_reward` requests are timed and their statuses counted: declared sizes must
             not take the body budget from them.
  uploads    UPLOADS connections (128) each start a job upload (`POST /v1/jobs`, one line, then
             a byte a second), reconnecting whenever the server ends one, while small
             `/v1/score` requests are timed and their statuses counted: uploads must not hold
             the request slots, and each trickled upload must be cut off (408).

Prints one JSON object per scenario. The server's peak RSS is read from /proc when --pid is
given (the caller runs the server on this machine).
"""

import argparse
import asyncio
import json
import multiprocessing
import resource
import statistics
import time


def percentile(values, q):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def read_response(reader):
    """Reads one HTTP/1.1 response; returns (status, headers, body)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            size = int((await reader.readuntil(b"\r\n")).strip(), 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                break
            body += chunk[:-2]
    else:
        body = await reader.read()
    return status, headers, body


def request_bytes(host, path, body, key=None):
    auth = f"Authorization: Bearer {key}\r\n" if key else ""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"{auth}Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


class Tally:
    def __init__(self):
        self.counts = {}
        self.accepted_latencies = []
        self.timeout_items = 0
        self.scored_items = 0
        self.broken = {}

    def add(self, outcome):
        self.counts[outcome] = self.counts.get(outcome, 0) + 1


async def overload_client(host, port, payload, deadline, tally, stop_at):
    reader = writer = None
    while time.monotonic() < stop_at:
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection(host, port)
            started = time.monotonic()
            writer.write(payload)
            await writer.drain()
            status, headers, body = await read_response(reader)
        except (ConnectionError, asyncio.IncompleteReadError, OSError) as error:
            tally.add("broken_connection")
            kind = f"{'connect' if writer is None else 'exchange'}: {type(error).__name__}"
            tally.broken[kind] = tally.broken.get(kind, 0) + 1
            if writer is not None:
                writer.close()
            reader = writer = None
            await asyncio.sleep(0.05)
            continue
        elapsed = time.monotonic() - started
        if status == 200:
            tally.add("200")
            tally.accepted_latencies.append(elapsed)
            results = json.loads(body).get("results", [])
            tally.scored_items += len(results)
            tally.timeout_items += sum(1 for r in results if r.get("status") == "timeout")
            if elapsed > deadline + 1.0:
                tally.add("200_past_deadline")
        elif status in (429, 503):
            tally.add(f"{status}_retry_after" if "retry-after" in headers else f"{status}_without_retry_after")
            await asyncio.sleep(float(headers.get("retry-after", "1")))
        else:
            tally.add(str(status))
        if headers.get("connection", "").lower() == "close":
            writer.close()
            reader = writer = None


async def probe_health(host, port, stop_at, latencies, failures):
    reader, writer = await asyncio.open_connection(host, port)
    request = f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
    while time.monotonic() < stop_at:
        started = time.monotonic()
        try:
            writer.write(request)
            await writer.drain()
            status, _, _ = await read_response(reader)
            latencies.append(time.monotonic() - started)
            if status != 200:
                failures.append(status)
        except (ConnectionError, asyncio.IncompleteReadError, OSError):
            failures.append("broken_connection")
            reader, writer = await asyncio.open_connection(host, port)
        await asyncio.sleep(0.02)
    writer.close()


def batch(items, verifier):
    if verifier == "exact-match":
        rows = [{"verifier": "exact-match", "input": {"response": f"answer {i}", "reference": f"answer {i}"}}
                for i in range(items)]
    else:
        rows = [{"verifier": "math", "input": {"response": f"\\boxed{{{i}/2}}", "reference": f"{i / 2}"}}
                for i in range(items)]
    return json.dumps({"items": rows}).encode()


def peak_rss_mib(pid):
    if pid is None:
        return None
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    return None


def probe_process(host, port, duration, results):
    """The /healthz probe in a process of its own, so that its timings are the server's and not
    the load generator's event loop, which 1,000 clients keep busy."""
    latencies, failures = [], []
    asyncio.run(probe_health(host, port, time.monotonic() + duration, latencies, failures))
    results.put((latencies, failures))


async def overload(args):
    payload = request_bytes(args.host, "/v1/score", batch(args.items, args.verifier), args.key)
    tally = Tally()
    probe_results = multiprocessing.Queue()
    probe = multiprocessing.Process(target=probe_process, args=(args.host, args.port, args.duration, probe_results))
    probe.start()
    stop_at = time.monotonic() + args.duration
    tasks = []
    for _ in range(args.concurrency):
        tasks.append(asyncio.create_task(
            overload_client(args.host, args.port, payload, args.deadline, tally, stop_at)))
    await asyncio.gather(*tasks)
    health, health_failures = await asyncio.to_thread(probe_results.get)
    probe.join()
    return {
        "scenario": "overload",
        "concurrency": args.concurrency,
        "items_per_request": args.items,
        "body_bytes": len(payload),
        "duration_s": args.duration,
        "outcomes": dict(sorted(tally.counts.items())),
        "broken_connections_by_error": dict(sorted(tally.broken.items())),
        "items_scored": tally.scored_items,
        "items_timeout": tally.timeout_items,
        "accepted_p50_s": percentile(tally.accepted_latencies, 0.5),
        "accepted_p99_s": percentile(tally.accepted_latencies, 0.99),
        "healthz_probes": len(health),
        "healthz_p99_ms": round(1000 * percentile(health, 0.99), 2) if health else None,
        "healthz_failures": len(health_failures),
        "server_peak_rss_mib": peak_rss_mib(args.pid),
    }


async def trickle(host, port, stop_at, closed, key):
    """Sends a request one byte a second: headers first, then a body that never completes."""
    body = b'{"items": []}' * 1000
    data = request_bytes(host, "/v1/score", body, key)
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError:
        closed["refused"] += 1
        return
    sent = 0
    while time.monotonic() < stop_at and sent < len(data):
        try:
            writer.write(data[sent:sent + 1])
            await writer.drain()
            sent += 1
            # A closed connection shows as readable EOF (or a response, e.g. 408) at once.
            await asyncio.wait_for(reader.read(4096), timeout=1.0)
            closed["by_server"] += 1
            writer.close()
            return
        except asyncio.TimeoutError:
            continue
        except (ConnectionError, OSError):
            closed["by_server"] += 1
            return
    closed["open_at_end"] += 1
    writer.close()


async def timed_requests(host, port, stop_at, latencies, failures, key):
    payload = request_bytes(host, "/v1/score", batch(1, "exact-match"), key)
    while time.monotonic() < stop_at:
        started = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(payload)
            await writer.drain()
            status, _, _ = await read_response(reader)
            writer.close()
            latencies.append(time.monotonic() - started)
            if status != 200:
                failures.append(status)
        except (ConnectionError, asyncio.IncompleteReadError, OSError) as error:
            failures.append(type(error).__name__)
        await asyncio.sleep(0.05)


async def slowloris(args):
    stop_at = time.monotonic() + args.duration
    closed = {"by_server": 0, "open_at_end": 0, "refused": 0}
    latencies, failures = [], []
    slow = []
    for _ in range(args.slow):
        slow.append(asyncio.create_task(trickle(args.host, args.port, stop_at, closed, args.key)))
    await asyncio.sleep(1.0)
    await timed_requests(args.host, args.port, stop_at, latencies, failures, args.key)
    await asyncio.gather(*slow)
    return {
        "scenario": "slowloris",
        "slow_connections": args.slow,
        "duration_s": args.duration,
        "slow_closed_by_server": closed["by_server"],
        "slow_open_at_end": closed["open_at_end"],
        "slow_refused_at_connect": closed["refused"],
        "normal_requests": len(latencies),
        "normal_p50_ms": round(1000 * statistics.median(latencies), 2) if latencies else None,
        "normal_p99_ms": round(1000 * percentile(latencies, 0.99), 2) if latencies else None,
        "normal_failures": len(failures),
        "server_peak_rss_mib": peak_rss_mib(args.pid),
    }


async def squat(host, port, path, content_type, length, first, stop_at, ends, key):
    """Holds requests open as an attacker would: a head declaring `length` bytes, `first`, then
    a byte a second; when the server ends one (an answer, a close, a reset), counts how in
    `ends` and starts another at once."""
    auth = f"Authorization: Bearer {key}\r\n" if key else ""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: {content_type}\r\n"
        f"{auth}Content-Length: {length}\r\n\r\n"
    ).encode()
    while time.monotonic() < stop_at:
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            ends["refused_at_connect"] = ends.get("refused_at_connect", 0) + 1
            await asyncio.sleep(0.1)
            continue
        try:
            writer.write(head + first)
            await writer.drain()
            while time.monotonic() < stop_at:
                try:
                    data = await asyncio.wait_for(reader.read(4096), timeout=1.0)
                except asyncio.TimeoutError:
                    writer.write(b" ")
                    await writer.drain()
                    continue
                end = data[9:12].decode("latin-1") if data.startswith(b"HTTP/1.1 ") else "closed"
                ends[end] = ends.get(end, 0) + 1
                break
        except (ConnectionError, OSError):
            ends["reset"] = ends.get("reset", 0) + 1
        writer.close()


async def timed_statuses(host, port, path, body, stop_at, statuses, latencies, key):
    """Small requests one after another on fresh connections: each status counted."""
    payload = request_bytes(host, path, body, key)
    while time.monotonic() < stop_at:
        started = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(payload)
            await writer.drain()
            status, _, _ = await read_response(reader)
            writer.close()
            latencies.append(time.monotonic() - started)
            statuses[str(status)] = statuses.get(str(status), 0) + 1
        except (ConnectionError, asyncio.IncompleteReadError, OSError) as error:
            statuses[type(error).__name__] = statuses.get(type(error).__name__, 0) + 1
        await asyncio.sleep(0.05)


def latency_ms(latencies, q):
    return round(1000 * percentile(latencies, q), 2) if latencies else None


async def slowbody(args):
    stop_at = time.monotonic() + args.duration
    ends = {}
    paths = ["/v1/score", "/get_reward"]
    squatters = [
        asyncio.create_task(squat(args.host, args.port, paths[n % 2], "application/json", args.declared, b"{",
                                  stop_at, ends, args.key))
        for n in range(args.slow)
    ]
    await asyncio.sleep(1.0)
    score, reward, score_latencies, reward_latencies = {}, {}, [], []
    reward_body = json.dumps({"query": ["\\boxed{42}"], "labels": ["42"]}).encode()
    await asyncio.gather(
        timed_statuses(args.host, args.port, "/v1/score", batch(1, "exact-match"), stop_at, score, score_latencies,
                       args.key),
        timed_statuses(args.host, args.port, "/get_reward", reward_body, stop_at, reward, reward_latencies, args.key),
    )
    await asyncio.gather(*squatters)
    return {
        "scenario": "slowbody",
        "slow_connections": args.slow,
        "declared_bytes": args.declared,
        "duration_s": args.duration,
        "slow_requests_ended": dict(sorted(ends.items())),
        "score_statuses": dict(sorted(score.items())),
        "score_p50_ms": latency_ms(score_latencies, 0.5),
        "get_reward_statuses": dict(sorted(reward.items())),
        "get_reward_p50_ms": latency_ms(reward_latencies, 0.5),
        "server_peak_rss_mib": peak_rss_mib(args.pid),
    }


async def uploads(args):
    stop_at = time.monotonic() + args.duration
    ends = {}
    line = json.dumps({"verifier": "exact-match", "input": {"response": "a", "reference": "a"}}).encode() + b"\n"
    squatters = [
        asyncio.create_task(squat(args.host, args.port, "/v1/jobs", "application/x-ndjson", 1 << 20, line,
                                  stop_at, ends, args.key))
        for _ in range(args.uploads)
    ]
    await asyncio.sleep(1.0)
    score, latencies = {}, []
    await timed_statuses(args.host, args.port, "/v1/score", batch(1, "exact-match"), stop_at, score, latencies,
                         args.key)
    await asyncio.gather(*squatters)
    return {
        "scenario": "uploads",
        "trickled_uploads": args.uploads,
        "duration_s": args.duration,
        "uploads_ended": dict(sorted(ends.items())),
        "score_statuses": dict(sorted(score.items())),
        "score_p50_ms": latency_ms(latencies, 0.5),
        "score_p99_ms": latency_ms(latencies, 0.99),
        "server_peak_rss_mib": peak_rss_mib(args.pid),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", choices=["overload", "slowloris", "slowbody", "uploads"])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--key", default=None, help="API key, when the server requires one")
    parser.add_argument("--pid", type=int, default=None, help="server process id, for its peak RSS")
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--concurrency", type=int, default=1000)
    parser.add_argument("--items", type=int, default=4096)
    parser.add_argument("--verifier", choices=["exact-match", "math"], default="math")
    parser.add_argument("--deadline", type=float, default=30.0, help="the server's request deadline, s")
    parser.add_argument("--slow", type=int, default=2000)
    parser.add_argument("--declared", type=int, default=64 << 20, help="slowbody: the length each body declares")
    parser.add_argument("--uploads", type=int, default=128)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    run = {"overload": overload, "slowloris": slowloris, "slowbody": slowbody, "uploads": uploads}[args.scenario]
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
