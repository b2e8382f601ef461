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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", choices=["overload", "slowloris"])
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
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    run = overload if args.scenario == "overload" else slowloris
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
