"""The four parts of the load test, each against a server of its own: latency under the heaviest calls, overload
at twice the capacity, SIGTERM under 64 clients, and memory over a soak. Each returns its report lines."""

from __future__ import annotations

import asyncio
import math
import os
import signal
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context

from oracle.api.v1 import oracle_pb2
from oracle.bench import procs
from oracle.bench.fuzz import server_rss_kib
from oracle.bench.load_calls import (
    Summary,
    Timed,
    answered_rate,
    channel,
    closed_loop,
    open_loop,
    probe,
    repeat,
    sent_rate,
    stream,
    summarize,
)
from oracle.bench.load_inputs import (
    Call,
    check_action_calls,
    health_call,
    heaviest_legal_actions,
    heaviest_replay,
    soak_mix,
    stream_method,
    unary,
)
from oracle.bench.states import shipped_records
from oracle.ruleset.loader import RuleBook

PROBE_INTERVAL = 0.05  #: a cheap call every 50 ms, as in the issue's measurement
PROBE_TIMEOUT = 60.0
CALL_TIMEOUT = 10.0


@dataclass(frozen=True)
class LoadOptions:
    """How long and how hard each part runs."""

    latency_seconds: float = 30.0
    baseline_seconds: float = 10.0
    heavy_deadline: float = 120.0
    start_rate: float = 50.0
    max_rate: float = 6400.0
    step_seconds: float = 5.0
    overload_seconds: float = 20.0
    load_clients: int = 1
    sigterm_clients: int = 64
    sigterm_warmup: float = 3.0
    soak_seconds: float = 600.0
    soak_clients: int = 8


def start_server(*args: str) -> procs.Server:
    """`canasta-oracle serve` on a free 127.0.0.1 port (no request log), serving once it answers health."""
    server = procs.Server(procs.oracle_command("serve", "--port", "0", "--no-request-log", *args))
    try:
        procs.wait_serving(server.port)
    except BaseException:
        server.stop()
        raise
    return server


def _ms(seconds: float) -> str:
    return "-" if math.isnan(seconds) else f"{seconds * 1000:,.1f} ms"


# --------------------------------------------------------------------------- latency under the heaviest calls


def latency(book: RuleBook, options: LoadOptions) -> list[str]:
    """p50/p99 of health and CheckAction (one each every 50 ms), first alone, then while the heaviest allowed
    ReplayGame and ListLegalActions run again and again."""
    replay, legal = heaviest_replay(book), heaviest_legal_actions(book)
    checks = check_action_calls(book)
    health = health_call()

    def ticks(tick: int) -> list[Call]:
        return [health, checks[tick % len(checks)]]

    async def measure(address: str) -> tuple[list[Timed], list[Timed], list[Timed], int]:
        probes, heavy = channel(address), [channel(address), channel(address)]
        try:
            base = await probe(probes, ticks, options.baseline_seconds, PROBE_INTERVAL, PROBE_TIMEOUT)
            ends = time.monotonic() + options.latency_seconds + 1.0
            heavy_done: list[Timed] = []
            workers = [
                asyncio.create_task(repeat(c, call, ends, options.heavy_deadline, heavy_done))
                for c, call in zip(heavy, (replay, legal), strict=True)
            ]
            await asyncio.sleep(1.0)  # the heavy calls are running
            loaded = await probe(probes, ticks, options.latency_seconds, PROBE_INTERVAL, PROBE_TIMEOUT)
            running = sum(not w.done() for w in workers)
            for worker in workers:
                worker.cancel()  # cancels the call in flight: the server stops its work
            await asyncio.gather(*workers, return_exceptions=True)
            return base, loaded, heavy_done, running
        finally:
            for c in (probes, *heavy):
                await c.close()

    with start_server() as server:
        base, loaded, heavy_done, running = asyncio.run(measure(f"127.0.0.1:{server.port}"))
    lines = [f"latency: a health check and a CheckAction every {PROBE_INTERVAL * 1000:.0f} ms"]
    for label, calls in (("alone", base), ("while the heaviest ReplayGame and ListLegalActions run", loaded)):
        lines.append(f"  {label}:")
        for name in ("Health.Check", "CheckAction"):
            lines.append(f"    {name:<14} {summarize([c for c in calls if c.name == name]).line()}")
    for call in (replay, legal):
        done = summarize([c for c in heavy_done if c.name == call.name])
        lines.append(f"  heaviest {call.name} ({len(call.payload):,} bytes) finished in the window: {done.line()}")
    lines.append(f"  heavy calls still running at the end of the window (then cancelled): {running}")
    return lines


# --------------------------------------------------------------------------- overload


def _offer(address: str, calls: Sequence[Call], rate: float, seconds: float, clients: int) -> list[Timed]:
    """Offer `rate` calls/s for `seconds` from `clients` processes; every call, timed."""
    with ProcessPoolExecutor(clients, mp_context=get_context("spawn")) as pool:
        parts = [
            pool.submit(open_loop, address, list(calls), rate / clients, seconds, CALL_TIMEOUT) for _ in range(clients)
        ]
        return [t for part in parts for t in part.result(timeout=seconds + CALL_TIMEOUT + 120)]


@dataclass(frozen=True)
class Step:
    """One rate offered: what was answered, and how."""

    offered: float
    sent: float  #: calls per second the client really started (below `offered` when the client falls behind)
    answered: float  #: OK calls per second
    summary: Summary


def _step(address: str, calls: Sequence[Call], rate: float, options: LoadOptions) -> Step:
    timed = _offer(address, calls, rate, options.step_seconds, options.load_clients)
    return Step(rate, sent_rate(timed), answered_rate(timed), summarize(timed))


def _climbed(base: Step, step: Step) -> bool:
    """The server is past its capacity: p99 more than three times the first step's (and 100 ms more) with the
    median twice the first's (a queue, not one pause of a busy machine), under 90 % of the calls answered, or
    some refused."""
    refused = step.summary.count - step.summary.codes["OK"]
    slow = step.summary.p99 > max(3 * base.summary.p99, base.summary.p99 + 0.1)
    queued = step.summary.p50 > 2 * base.summary.p50
    return bool(refused) or (slow and queued) or step.answered < 0.9 * step.offered


def overload(book: RuleBook, options: LoadOptions) -> list[str]:
    """Find the capacity (offered CheckAction calls/s at which p99 starts to climb, or calls are refused: rates
    doubling, then two bisection steps), then offer twice as many and say what happens: calls/s answered, codes,
    latency."""
    calls = check_action_calls(book)
    lines = ["overload: CheckAction, open loop (calls start on time whatever the answers), deadline 10 s"]
    with start_server() as server:
        address = f"127.0.0.1:{server.port}"
        _offer(address, calls, options.start_rate, 1.0, options.load_clients)  # warm-up
        base = good = _step(address, calls, options.start_rate, options)
        steps, bad = [base], None
        while good.offered * 2 <= options.max_rate and bad is None:
            step = _step(address, calls, good.offered * 2, options)
            steps.append(step)
            good, bad = (good, step) if _climbed(base, step) else (step, None)
        for _ in range(2 if bad is not None else 0):
            step = _step(address, calls, (good.offered + bad.offered) / 2, options)  # type: ignore[union-attr]
            steps.append(step)
            good, bad = (good, step) if _climbed(base, step) else (step, bad)
        for step in sorted(steps, key=lambda s: s.offered):
            lines.append(
                f"  offered {step.offered:7,.0f}/s (sent {step.sent:7,.0f}/s): answered {step.answered:7,.0f}/s;"
                f" {step.summary.line()}"
            )
        capacity = good.answered
        lines.append(f"  capacity: {capacity:,.0f} calls/s (answered at the highest rate before p99 climbed)")
        timed = _offer(address, calls, 2 * capacity, options.overload_seconds, options.load_clients)
        summary = summarize(timed)
        lines.append(
            f"  at 2x capacity, {2 * capacity:,.0f} calls/s offered (sent {sent_rate(timed):,.0f}/s) for"
            f" {options.overload_seconds:g} s: {answered_rate(timed):,.0f} calls/s answered OK"
        )
        lines.append(f"    {summary.line()}")
    return lines


# --------------------------------------------------------------------------- SIGTERM under load


def sigterm(book: RuleBook, options: LoadOptions) -> list[str]:
    """64 clients calling in a loop (CheckAction, and a replay of a shipped record one call in eight); SIGTERM;
    how every call in flight at the signal ended, what was answered during the drain, how the server exited."""
    checks = check_action_calls(book, 56)
    replays = [
        unary("ReplayGame", oracle_pb2.ReplayGameRequest(record=r, summary_only=True).SerializeToString())
        for r in shipped_records()[:8]
    ]
    mix = [call for i in range(8) for call in (*checks[i * 7 : i * 7 + 7], replays[i])]
    server = start_server()
    signalled: list[float] = []
    try:
        ends_by = time.monotonic() + options.sigterm_warmup + 60.0

        def keep_going() -> bool:
            return server.process.poll() is None and time.monotonic() < ends_by

        async def run() -> list[Timed]:
            chans = [channel(f"127.0.0.1:{server.port}") for _ in range(8)]
            try:
                load = asyncio.create_task(
                    closed_loop(chans, mix, options.sigterm_clients, keep_going, 30.0, frozenset({"UNAVAILABLE"}))
                )
                await asyncio.sleep(options.sigterm_warmup)
                signalled.append(time.monotonic())
                os.kill(server.pid, signal.SIGTERM)
                return await load
            finally:
                for c in chans:
                    await c.close()

        calls = asyncio.run(run())
        exit_code = server.process.wait(30)
        exited = time.monotonic() - signalled[0]
        output = server.output()
    finally:
        server.stop()
    sent = signalled[0]
    in_flight = [c for c in calls if c.started < sent < c.started + c.seconds]
    lost = [c for c in in_flight if c.code != "OK"]
    after = [c for c in calls if c.started >= sent]
    odd = [c for c in after if c.code not in ("OK", "UNAVAILABLE")]
    lines = [
        f"SIGTERM under {options.sigterm_clients}-client load (CheckAction, one summary replay in eight; the server's"
        " defaults: drain 2 s, grace 10 s):",
        f"  calls before the signal: {summarize([c for c in calls if c.started + c.seconds <= sent]).line()}",
        f"  in flight at SIGTERM: {len(in_flight)}; answered OK {len(in_flight) - len(lost)}; lost {len(lost)}"
        + (f" ({', '.join(f'{k} {n}' for k, n in summarize(lost).codes.items())})" if lost else ""),
        f"  started after SIGTERM: {summarize(after).line()}",
        *(
            f"    {c.name} started {c.started - sent:+.2f} s after the signal, ended {c.code} after {c.seconds:.2f} s"
            for c in odd[:5]
        ),
        f"  server exited {exited:.1f} s after the signal with status {exit_code};"
        f" tracebacks in its log: {output.count('Traceback')}",
    ]
    if "Traceback" in output:
        lines += ["    " + line for line in output[output.index("Traceback") :].splitlines()[:30]]
    return lines


# --------------------------------------------------------------------------- soak


def soak(book: RuleBook, options: LoadOptions) -> list[str]:
    """The mixed workload (every RPC, inline rule sets, error paths, streams) for soak_seconds; the server's RSS
    before (after a warm-up pass) and after, sampled every 10 s in between."""
    calls, streams = soak_mix(book)
    method = stream_method()
    samples: list[int] = []
    with start_server() as server:
        address = f"127.0.0.1:{server.port}"

        async def run() -> tuple[list[Timed], list[Timed], int]:
            chans = [channel(address) for _ in range(4)]
            try:
                await closed_loop(chans, calls[:300], 4, _count_down(300), CALL_TIMEOUT)  # warm-up
                await stream(chans[0], method, streams[0], 120.0)
                before = server_rss_kib(server.pid)
                ends = time.monotonic() + options.soak_seconds

                def running() -> bool:
                    return time.monotonic() < ends

                async def sampler() -> None:
                    while running():
                        samples.append(server_rss_kib(server.pid))
                        await asyncio.sleep(min(10.0, max(0.0, ends - time.monotonic())))

                async def streamer() -> list[Timed]:
                    done, n = [], 0
                    while running():
                        done.append(await stream(chans[n % 4], method, streams[n % len(streams)], 120.0))
                        n += 1
                    return done

                unary_task = closed_loop(chans, calls, options.soak_clients, running, CALL_TIMEOUT)
                done_unary, done_streams, _ = await asyncio.gather(unary_task, streamer(), sampler())
                return done_unary, done_streams, before
            finally:
                for c in chans:
                    await c.close()

        done_unary, done_streams, before = asyncio.run(run())
        after = server_rss_kib(server.pid)
        time.sleep(10.0)
        idle = server_rss_kib(server.pid)
    mib = 1024
    return [
        f"soak: {options.soak_seconds:g} s of mixed calls ({options.soak_clients} clients) and RefereeGame streams",
        f"  unary: {summarize(done_unary).line()}; {len(done_unary) / options.soak_seconds:,.0f} calls/s",
        f"  streams: {summarize(done_streams).line()}",
        f"  server RSS: {before / mib:,.1f} MiB before, {after / mib:,.1f} MiB after ({(after - before) / mib:+,.1f}),"
        f" {idle / mib:,.1f} MiB after 10 s idle; sampled min {min(samples, default=0) / mib:,.1f},"
        f" max {max(samples, default=0) / mib:,.1f} MiB",
        # Every sixth sample (about a minute apart): growth that levels off is caches filling; a steady climb, a leak.
        "  server RSS by minute (MiB): " + " ".join(f"{kib / mib:,.0f}" for kib in samples[::6]),
    ]


def _count_down(n: int) -> Callable[[], bool]:
    """True `n` times, then False: a closed loop of about `n` calls."""
    left = [n]

    def more() -> bool:
        left[0] -= 1
        return left[0] >= 0

    return more


PARTS = {"latency": latency, "overload": overload, "sigterm": sigterm, "soak": soak}

__all__ = ["PARTS", "LoadOptions", "latency", "overload", "sigterm", "soak", "start_server"]
