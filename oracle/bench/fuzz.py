"""The long fuzz (issue 12), outside CI: mutated requests of every RPC against a real server, in parallel client
processes, with a report of the answers by code, the slowest requests and every finding (minimised and saved).

From a clean clone, with the venv (`pip install -e '.[test]'`):

    .venv/bin/python -m oracle.bench.fuzz --requests 1000000 --seed 1 --workers 2
    .venv/bin/python -m oracle.bench.fuzz --requests 20000 --target 127.0.0.1:50051
    .venv/bin/python -m oracle.bench.fuzz --replay fuzz-findings/findings/<file>.json

Without --target it starts `canasta-oracle serve` on a free 127.0.0.1 port (its defaults, no request log) and stops
it at the end. A finding is an answer a client cannot act on: INTERNAL, UNKNOWN or any code but OK,
INVALID_ARGUMENT, FAILED_PRECONDITION, NOT_FOUND and DEADLINE_EXCEEDED; an INVALID_ARGUMENT or FAILED_PRECONDITION
without a field path in its google.rpc detail; trailers a default client cannot read. docs/robustness.md describes
the report. The run is bounded: --requests, --max-seconds, and a deadline on every call.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import queue
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import grpc

from oracle.bench import procs
from oracle.bench.fuzz_seeds import RPCS, STREAM_RPC
from oracle.bench.fuzz_worker import Case as FuzzCase
from oracle.bench.fuzz_worker import Job, Kept, WorkerReport, run, save, send

CODE_ORDER = ("OK", "INVALID_ARGUMENT", "FAILED_PRECONDITION", "NOT_FOUND", "DEADLINE_EXCEEDED")


def _worker_main(job: Job, progress: object, results: multiprocessing.Queue[WorkerReport | str]) -> None:
    try:
        results.put(run(job, progress))
    except BaseException as exc:  # reported by the parent: a worker that dies says why
        results.put(f"worker {job.worker}: {type(exc).__name__}: {exc}")


def run_workers(jobs: Sequence[Job], progress_seconds: float, limit: float) -> tuple[list[WorkerReport], list[str]]:
    """Run the jobs in parallel processes; print a progress line every `progress_seconds` to stderr."""
    context = multiprocessing.get_context("spawn")  # no fork: the parent may hold gRPC state
    progress = context.Array("q", len(jobs), lock=False)
    results: multiprocessing.Queue[WorkerReport | str] = context.Queue()
    workers = [context.Process(target=_worker_main, args=(job, progress, results), daemon=True) for job in jobs]
    for worker in workers:
        worker.start()
    reports: list[WorkerReport] = []
    errors: list[str] = []
    started = time.monotonic()
    ends = started + limit + 600  # the workers stop themselves at `limit`; this is the backstop
    try:
        while len(reports) + len(errors) < len(jobs) and time.monotonic() < ends:
            try:
                got = results.get(timeout=progress_seconds)
            except queue.Empty:
                done = sum(progress)
                elapsed = time.monotonic() - started
                print(f"[{elapsed:7.0f} s] {done:,} requests ({done / elapsed:,.0f}/s)", file=sys.stderr, flush=True)
                if not any(w.is_alive() for w in workers) and results.empty():
                    errors.append("every worker ended without a report")
                    break
                continue
            (reports if isinstance(got, WorkerReport) else errors).append(got)  # type: ignore[arg-type]
    finally:
        for worker in workers:
            worker.join(timeout=10)
            if worker.is_alive():
                worker.terminate()
    return reports, errors


def format_report(
    reports: list[WorkerReport], errors: list[str], header: str, seconds: float, server_notes: list[str]
) -> str:
    """The fuzz report: requests and rate, answers by RPC and code, the slowest requests, findings, the server."""
    requests = sum(r.requests for r in reports)
    codes: Counter[tuple[str, str]] = Counter()
    modes: Counter[str] = Counter()
    for r in reports:
        codes.update(r.codes)
        modes.update(r.modes)
    rate = requests / seconds if seconds else 0.0
    lines = [header, f"{requests:,} requests in {seconds:,.0f} s ({rate:,.0f} requests/s)"]
    lines.append("made by: " + ", ".join(f"{m} {n:,}" for m, n in modes.most_common()))
    streams = sum(r.stream_messages for r in reports)
    lines.append(
        f"{STREAM_RPC} streams: {sum(n for (rpc, _), n in codes.items() if rpc == STREAM_RPC):,} ({streams:,} messages)"
    )
    seen = {code for _, code in codes}
    columns = [c for c in CODE_ORDER if c in seen] + sorted(seen - set(CODE_ORDER))
    width = max(len(r) for r in RPCS) + 2
    lines += ["", "answers by code:", " " * width + "".join(f"{c:>21}" for c in columns) + f"{'total':>10}"]
    for rpc in (*RPCS, "all"):
        row = [sum(n for (r, c), n in codes.items() if c == code and rpc in (r, "all")) for code in columns]
        lines.append(f"{rpc:<{width}}" + "".join(f"{n:>21,}" for n in row) + f"{sum(row):>10,}")
    slowest = sorted((k for r in reports for k, _ in r.slowest), key=lambda k: -k.seconds)[:10]
    lines += ["", "slowest requests:"]
    lines += [
        f"  {k.seconds:8.3f} s  {k.rpc:<22} {k.code:<20} {k.mode:<10} {k.size:>8,} bytes  {k.saved}" for k in slowest
    ]
    counts: Counter[tuple[str, str]] = Counter()
    for r in reports:
        counts.update(r.finding_counts)
    lines += [
        "",
        f"findings: {sum(counts.values()):,}" + ("" if counts else " (no INTERNAL, UNKNOWN or unreadable answer)"),
    ]
    for (rpc, kind), n in counts.most_common():
        lines.append(f"  {n:>8,}  {rpc}: {kind}")
    for k in (f for r in reports for f in r.findings):
        lines.append(f"    {k.rpc} {k.code}: {'; '.join(k.faults)[:200]}")
        lines.append(f"      minimised from {k.original_size:,} to {k.size:,} bytes: {k.saved or '(not saved)'}")
    stopped = [f"worker {r.worker}: {r.stopped}" for r in reports if r.stopped]
    lines += ["", *server_notes, *(f"stopped early: {s}" for s in stopped), *(f"error: {e}" for e in errors)]
    return "\n".join(lines)


def _save_slowest(reports: list[WorkerReport], directory: Path, count: int) -> None:
    """Save the slowest requests of the run (they may be replayed) and note the file in each."""
    ranked = sorted(((k, p) for r in reports for k, p in r.slowest), key=lambda e: -e[0].seconds)[:count]
    saved = {}
    for n, (kept, payloads) in enumerate(ranked):
        name = f"{n:02d}-{kept.rpc}-w{kept.worker}-{kept.index}"
        saved[id(kept)] = save(directory / "slowest", name, kept, [bytes.fromhex(p) for p in payloads])
    for r in reports:
        r.slowest = [(Kept(**{**asdict(k), "saved": saved.get(id(k), "")}), p) for k, p in r.slowest]


def server_rss_kib(pid: int) -> int:
    """Resident memory of a process and its children, KiB (/proc/PID/status VmRSS)."""
    total = 0
    for each in procs.process_tree(pid):
        try:
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def replay(path: Path, address: str, deadline: float) -> int:
    """Send a saved request again; print the answer; 1 if it is still a finding."""
    record = json.loads(path.read_text(encoding="utf-8"))
    case = FuzzCase(record["rpc"], record["mode"], [bytes.fromhex(h) for h in record["messages_hex"]], None)
    with grpc.insecure_channel(address) as channel:
        answer = send(channel, case, deadline)
    print(f"{case.rpc}: {answer.code.name} in {answer.seconds:.3f} s: {answer.message[:500]}")
    for fault in answer.faults:
        print(f"  finding: {fault[:500]}")
    return 1 if answer.faults else 0


def _options(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m oracle.bench.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=10_000, help="requests in all (default 10,000)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed: the same seed sends the same requests")
    parser.add_argument("--workers", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--target", help="HOST:PORT of a running server (default: start one on 127.0.0.1)")
    parser.add_argument("--deadline", type=float, default=10.0, help="seconds each call may take (default 10)")
    parser.add_argument("--max-seconds", type=float, default=12 * 3600.0, help="stop after this long (default 12 h)")
    parser.add_argument("--save-dir", type=Path, default=Path("fuzz-findings"), help="where requests are saved")
    parser.add_argument("--records", type=int, default=20, help="shipped records in the seed corpus (1 to 20)")
    parser.add_argument("--slowest", type=int, default=10, help="slowest requests reported and saved (default 10)")
    parser.add_argument("--progress", type=float, default=30.0, help="seconds between progress lines on stderr")
    parser.add_argument("--json", type=Path, help="also write the report's numbers as JSON to this file")
    parser.add_argument("--replay", type=Path, help="send one saved request (a .json file) again and print the answer")
    options = parser.parse_args(argv)
    if options.requests < 1 or options.workers < 1 or not 1 <= options.records <= 20:
        parser.error("--requests and --workers must be at least 1, --records 1 to 20")
    return options


def main(argv: Sequence[str] | None = None) -> int:
    """Run the fuzz (or replay a saved request) and print the report; 1 if there was any finding."""
    options = _options(argv)
    server = None
    with procs.stop_on_sigterm():
        try:
            if options.target is None:
                server = procs.Server(procs.oracle_command("serve", "--port", "0", "--no-request-log"))
                procs.wait_serving(server.port)
            address = options.target or f"127.0.0.1:{server.port}"  # type: ignore[union-attr]
            if options.replay is not None:
                return replay(options.replay, address, options.deadline)
            rss_before = server_rss_kib(server.pid) if server is not None else 0
            share, extra = divmod(options.requests, options.workers)
            jobs = [_job(options, w, address, share + (w < extra)) for w in range(options.workers)]
            started = time.monotonic()
            reports, errors = run_workers([j for j in jobs if j.requests], options.progress, options.max_seconds)
            seconds = time.monotonic() - started
            notes = _server_notes(server, address, rss_before)
        finally:
            if server is not None:
                server.stop()
    _save_slowest(reports, options.save_dir, options.slowest)
    header = f"fuzz: seed {options.seed}, {options.workers} workers, deadline {options.deadline:g} s per call"
    print(format_report(reports, errors, header, seconds, notes))
    if options.json is not None:
        numbers = report_numbers(reports, errors, seconds, notes)
        options.json.write_text(json.dumps(numbers, default=str, indent=1) + "\n", encoding="utf-8")
    return 1 if errors or any(r.finding_counts for r in reports) else 0


def _server_notes(server: procs.Server | None, address: str, rss_before: int) -> list[str]:
    """What the report says about the server: where, its memory, whether it still runs, tracebacks it logged."""
    if server is None:
        return [f"server: {address} (given by --target)"]
    after = server_rss_kib(server.pid) / 1024
    notes = [f"server: {address} (started by the fuzz); RSS {rss_before / 1024:,.0f} MiB before, {after:,.0f} after"]
    code = server.process.poll()
    notes.append("server process: running at the end" if code is None else f"server process: EXITED ({code})")
    output = server.output()
    tracebacks = output.count("Traceback")
    notes.append(f"server log: {tracebacks} traceback(s)" + (", the first:" if tracebacks else ""))
    if tracebacks:
        notes.append(first_traceback(output))
    return notes


def first_traceback(output: str) -> str:
    """The first traceback in a log: from its "Traceback" line to the exception's line (the first not indented)."""
    lines = output[output.index("Traceback") :].splitlines()
    end = next((i for i, line in enumerate(lines[1:], 1) if line and not line[0].isspace()), len(lines) - 1)
    return "\n".join(lines[: end + 1][-60:])


def report_numbers(reports: list[WorkerReport], errors: list[str], seconds: float, notes: list[str]) -> dict[str, Any]:
    """The report's numbers for --json: answers by RPC and code, findings by RPC and kind, the slowest and the
    saved findings, per worker."""
    workers = []
    for r in reports:
        codes: dict[str, dict[str, int]] = {}
        for (rpc, code), n in sorted(r.codes.items()):
            codes.setdefault(rpc, {})[code] = n
        workers.append(
            {
                "worker": r.worker,
                "requests": r.requests,
                "stream_messages": r.stream_messages,
                "seconds": r.seconds,
                "modes": dict(r.modes),
                "codes": codes,
                "finding_counts": {f"{rpc}: {kind}": n for (rpc, kind), n in r.finding_counts.items()},
                "findings": [asdict(k) for k in r.findings],
                "slowest": [asdict(k) for k, _ in r.slowest],
                "stopped": r.stopped,
            }
        )
    return {"seconds": seconds, "workers": workers, "errors": errors, "notes": notes}


def _job(options: argparse.Namespace, worker: int, address: str, requests: int) -> Job:
    return Job(
        worker=worker,
        address=address,
        requests=requests,
        seed=options.seed,
        deadline=options.deadline,
        seconds=options.max_seconds,
        save_dir=str(options.save_dir),
        records=options.records,
        slowest=options.slowest,
    )


if __name__ == "__main__":
    sys.exit(main())
