"""Rule work off the event loop: a bounded pool of worker threads, with its queue depth and busy count for metrics.

Every OracleService call runs its rule work (decoding into the domain model,
judging, replaying, the inline rule-set lint) in one of these threads, so the
asyncio loop that gRPC serves on only moves bytes: health checks and cheap
calls are answered while a long replay runs. A call's work gets a
`StopSignal` with the call's deadline; when the call goes away (cancelled,
or its deadline passed) the signal is cancelled too, so long work stops at
its next checkpoint and the thread is free again.

A stream's messages are the exception (`InlineFirst`): each is small and
bounded work (one action), cheaper to judge on the loop itself than the two
thread hops a pool costs per message, until one of them holds the loop for
longer than a couple of milliseconds; from then on that stream's work goes
to the pool too.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from oracle.model.interrupt import StopSignal

Result = TypeVar("Result")

DEFAULT_WORKERS = 4
"""Threads for ordinary calls: each takes about a millisecond, so a few threads keep them flowing; rule work is
pure Python under one lock (the GIL), so more threads add no speed, only competition with the event loop."""

DEFAULT_LONG_WORKERS = 2
"""Threads for the calls whose work grows with the request (ReplayGame, ListLegalActions): kept apart so that
ordinary calls never queue behind them, and few, so that they leave the event loop its share of the GIL."""


INLINE_SLOW_SECONDS = 0.002
"""How much CPU one piece of a stream's work may take on the event loop: a stream whose message took more sends the
rest of its work to the pool (an action of a shipped game takes tens of microseconds, a deal a few hundred). CPU
time of the loop's thread, not wall time, which on a loaded machine counts the time the process was preempted."""


class WorkerPool:
    """A fixed number of worker threads; `run` awaits one piece of work without blocking the event loop."""

    def __init__(self, workers: int = DEFAULT_WORKERS) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"a worker pool needs at least 1 worker thread, not {workers!r}")
        self.size = workers
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="oracle-worker")
        self._lock = threading.Lock()
        self._waiting = 0
        self._running = 0

    def queued(self) -> int:
        """Pieces of work submitted and not yet started (the metric of a pool too small for its load)."""
        with self._lock:
            return self._waiting

    def busy(self) -> int:
        """Worker threads running a piece of work now."""
        with self._lock:
            return self._running

    async def run(self, work: Callable[[StopSignal], Result], stop: StopSignal | None = None) -> Result:
        """Run `work(stop)` in a worker thread and return (or raise) what it does.

        If the awaiting task is cancelled (the call went away), `stop` is
        cancelled so the work ends at its next checkpoint; work that has not
        started yet never starts.
        """
        signal = stop if stop is not None else StopSignal()

        def job() -> Result:
            with self._lock:
                self._waiting -= 1
                self._running += 1
            try:
                return work(signal)
            finally:
                with self._lock:
                    self._running -= 1

        with self._lock:
            self._waiting += 1
        try:
            future = self._executor.submit(job)
        except BaseException:
            with self._lock:
                self._waiting -= 1
            raise
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            signal.cancel()
            raise
        finally:
            if future.cancel():  # never started (so `job` never counted it out): it leaves the queue here
                with self._lock:
                    self._waiting -= 1

    def close(self) -> None:
        """Start no more work (waiting work is dropped); work already running finishes in its thread."""
        self._executor.shutdown(wait=False, cancel_futures=True)


class InlineFirst:
    """One stream's pieces of work: each small one runs on the event loop itself (no thread hop, no loop round
    trip), until one takes more than `slow_seconds` of CPU; from then on, and for work not marked small, `pool` runs it.

    Only small and bounded work may be marked small (one stream message: one action or one deal, of a size the
    caller checked), so the loop is held for at most one such piece per stream before the stream moves off it.
    """

    def __init__(self, pool: WorkerPool, slow_seconds: float = INLINE_SLOW_SECONDS) -> None:
        self._pool = pool
        self._slow = slow_seconds
        self.inline = True  #: small work still runs on the loop (no piece has been slow yet)

    async def run(self, work: Callable[[StopSignal], Result], stop: StopSignal, *, small: bool) -> Result:
        """`work(stop)`: on the loop if `small` and no piece was slow, else in the pool (see WorkerPool.run)."""
        if not (small and self.inline):
            return await self._pool.run(work, stop)
        began = time.thread_time()  # the work's own CPU: a loaded machine preempting the loop is not its cost
        try:
            return work(stop)
        finally:
            if time.thread_time() - began > self._slow:
                self.inline = False


__all__ = ["DEFAULT_LONG_WORKERS", "DEFAULT_WORKERS", "INLINE_SLOW_SECONDS", "InlineFirst", "WorkerPool"]
