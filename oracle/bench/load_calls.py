"""The load test's clients: timed calls over grpc.aio as bytes, probes at a fixed interval, callers in a loop,
open-loop load at a fixed rate (in its own process), and percentiles of what they measured."""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import grpc

from oracle.bench.load_inputs import Call

OPTIONS = [("grpc.use_local_subchannel_pool", 1)]  #: each channel its own connection


@dataclass(frozen=True)
class Timed:
    """One call: what it was, when it started (time.monotonic), how long it took, how it ended."""

    name: str
    started: float
    seconds: float
    code: str


@dataclass
class Summary:
    """Calls by code, and latency percentiles of the answered (OK) ones, in seconds."""

    count: int = 0
    codes: Counter[str] = field(default_factory=Counter)
    p50: float = math.nan
    p99: float = math.nan
    max: float = math.nan

    def line(self) -> str:
        """`N calls: p50 x ms, p99 y ms, max z ms; codes`."""
        codes = ", ".join(f"{code} {n:,}" for code, n in self.codes.most_common())
        return (
            f"{self.count:,} calls: p50 {self.p50 * 1000:,.1f} ms, p99 {self.p99 * 1000:,.1f} ms,"
            f" max {self.max * 1000:,.1f} ms ({codes})"
        )


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0 to 100, nearest rank) of `values`; NaN when there are none."""
    if not values:
        return math.nan
    ranked = sorted(values)
    return ranked[min(len(ranked) - 1, max(0, math.ceil(q / 100 * len(ranked)) - 1))]


def answered_rate(calls: Sequence[Timed]) -> float:
    """OK calls per second over the span from the first call's start to the last call's end."""
    if not calls:
        return 0.0
    span = max(c.started + c.seconds for c in calls) - min(c.started for c in calls)
    return sum(c.code == "OK" for c in calls) / span if span > 0 else 0.0


def sent_rate(calls: Sequence[Timed]) -> float:
    """Calls started per second, from the first start to the last."""
    starts = [c.started for c in calls]
    span = max(starts, default=0.0) - min(starts, default=0.0)
    return (len(starts) - 1) / span if span > 0 else 0.0


def summarize(calls: Sequence[Timed]) -> Summary:
    """Codes and the latency percentiles of the OK calls."""
    answered = [c.seconds for c in calls if c.code == "OK"]
    return Summary(
        len(calls),
        Counter(c.code for c in calls),
        percentile(answered, 50),
        percentile(answered, 99),
        max(answered, default=math.nan),
    )


def channel(address: str) -> grpc.aio.Channel:
    """A channel of its own connection to `address`."""
    return grpc.aio.insecure_channel(address, options=OPTIONS)


async def timed(chan: grpc.aio.Channel, call: Call, timeout: float) -> Timed:
    """Make one call and time it."""
    method: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = chan.unary_unary(call.method)
    started = time.monotonic()
    try:
        await method(call.payload, timeout=timeout)
        code = "OK"
    except grpc.aio.AioRpcError as error:
        code = error.code().name
    return Timed(call.name, started, time.monotonic() - started, code)


async def probe(
    chan: grpc.aio.Channel, calls: Callable[[int], Sequence[Call]], seconds: float, interval: float, timeout: float
) -> list[Timed]:
    """Every `interval` s for `seconds` s, start the calls of that tick (not waiting for the ones before): what a
    client sending a cheap call every 50 ms would see."""
    tasks = []
    loop = asyncio.get_running_loop()
    start = loop.time()
    for tick in range(max(1, int(seconds / interval))):
        await asyncio.sleep(max(0.0, start + tick * interval - loop.time()))
        tasks += [asyncio.create_task(timed(chan, call, timeout)) for call in calls(tick)]
    return list(await asyncio.gather(*tasks))


async def stream(chan: grpc.aio.Channel, method: str, messages: Sequence[bytes], timeout: float) -> Timed:
    """One RefereeGame stream: every message sent, every answer read; timed as one call."""
    start_call: grpc.aio.StreamStreamMultiCallable[bytes, bytes] = chan.stream_stream(method)
    started = time.monotonic()
    try:
        async for _ in start_call(iter(messages), timeout=timeout):
            pass
        code = "OK"
    except grpc.aio.AioRpcError as error:
        code = error.code().name
    return Timed("RefereeGame", started, time.monotonic() - started, code)


async def repeat(chan: grpc.aio.Channel, call: Call, ends: float, timeout: float, done: list[Timed]) -> None:
    """`call` again and again until time.monotonic() passes `ends` (the last one may run past it), each finished
    call added to `done` (so a caller that cancels this still has them)."""
    while time.monotonic() < ends:
        done.append(await timed(chan, call, timeout))


async def _open_loop(address: str, calls: Sequence[Call], rate: float, seconds: float, timeout: float) -> list[Timed]:
    chans = [channel(address) for _ in range(4)]
    try:
        for chan in chans:  # connect first: connection setup is not part of the load
            await chan.channel_ready()
        loop = asyncio.get_running_loop()
        start = loop.time()
        tasks = []
        for i in range(max(1, int(rate * seconds))):
            await asyncio.sleep(max(0.0, start + i / rate - loop.time()))
            tasks.append(asyncio.create_task(timed(chans[i % len(chans)], calls[i % len(calls)], timeout)))
        return list(await asyncio.gather(*tasks))
    finally:
        for chan in chans:
            await chan.close()


def open_loop(address: str, calls: Sequence[Call], rate: float, seconds: float, timeout: float) -> list[Timed]:
    """Start `rate` calls per second for `seconds` s whatever the answers (open loop), and time each: run in a
    process of its own so the client's CPU is not the server's."""
    return asyncio.run(_open_loop(address, calls, rate, seconds, timeout))


async def closed_loop(
    chans: Sequence[grpc.aio.Channel],
    calls: Sequence[Call],
    clients: int,
    keep_going: Callable[[], bool],
    timeout: float,
    pause_after: frozenset[str] = frozenset(),
) -> list[Timed]:
    """`clients` callers, each making one call after another from `calls` while keep_going(); a caller whose call
    ended with a code in `pause_after` waits 50 ms before the next."""

    async def caller(n: int) -> list[Timed]:
        done: list[Timed] = []
        k = n * 7
        while keep_going():
            result = await timed(chans[n % len(chans)], calls[k % len(calls)], timeout)
            done.append(result)
            k += 1
            if result.code in pause_after:
                await asyncio.sleep(0.05)
        return done

    results = await asyncio.gather(*(caller(n) for n in range(clients)))
    return [t for r in results for t in r]


__all__ = [
    "Summary",
    "Timed",
    "answered_rate",
    "channel",
    "closed_loop",
    "open_loop",
    "percentile",
    "probe",
    "repeat",
    "sent_rate",
    "stream",
    "summarize",
    "timed",
]
