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

Small unary calls are the other exception (one `InlineFirst` per server with
a pause, see OracleServicer): a CheckAction, ValidateState, ScoreHand or
GetMinimumInitialMeld whose request names its rule set by id (an inline rule
set is linted, which is long work) and is at most INLINE_REQUEST_BYTES long
is one action judged in one state of a real game's size: tens to hundreds of
microseconds, less than the thread hop and the loop wake-up it would cost.
Such a call runs on the loop unless a small call was slow (more than
INLINE_SLOW_SECONDS of CPU) within the last INLINE_PAUSE_SECONDS; then small
calls go to the pool until the pause is over. So the loop runs at most one
slow piece of rule work per pause, and that piece is bounded by the size of
its request; health checks and the other calls are answered between calls
as before. Work on the loop runs until it ends: a call's deadline or its
cancellation cannot stop it midway, which for such short work changes
nothing (a call whose client left gets no answer either way). Until the
rules engine has loaded (see OracleServicer.warm_up) every call goes to the
pool, so the loop never waits for the engine.
"""

from __future__ import annotations

import asyncio
import gc
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
"""How much CPU one piece of small work (a stream's message, a small call) may take on the event loop: a stream whose
message took more sends the rest of its work to the pool, a small call that took more sends small calls there for
INLINE_PAUSE_SECONDS (an action of a shipped game takes tens of microseconds, a deal a few hundred). CPU time of the
loop's thread, not wall time, which on a loaded machine counts the time the process was preempted, and without a
garbage collection that happened to run during the piece (a full one takes milliseconds, wherever it runs)."""

INLINE_REQUEST_BYTES = 1024
"""The largest request of a small unary call that may run on the event loop: a CheckAction of a real game's state
is about 200 bytes; a larger request, whatever it holds, goes to the worker pool."""

INLINE_PAUSE_SECONDS = 1.0
"""After a small unary call proved slow on the loop, how long small calls go to the pool before the loop takes them
again (at most one slow piece per pause holds the loop)."""


class _CollectorClock:
    """Seconds each thread spent collecting garbage (a gc callback): a collection that happens to run during a
    piece of work on the loop (a full one can take milliseconds) is not that work's cost."""

    def __init__(self) -> None:
        self.spent: dict[int, float] = {}  #: thread ident -> seconds collecting
        self._began = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:  # "stop" (collections never overlap: the collecting thread holds the GIL)
            ident = threading.get_ident()
            self.spent[ident] = self.spent.get(ident, 0.0) + time.perf_counter() - self._began


_COLLECTING = _CollectorClock()


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
    """Pieces of work of one stream (or of one kind of small call): each small one runs on the event loop itself (no
    thread hop, no loop round trip), until one takes more than `slow_seconds` of CPU; from then on, and for work not
    marked small, `pool` runs it. With `pause_seconds`, small work returns to the loop that long after the slow piece
    (a server's small unary calls); without, never (a stream's messages).

    Only small and bounded work may be marked small (one stream message or one small call: one action or one deal,
    of a size the caller checked), so the loop is held for at most one such piece per stream, or per pause, before
    that work moves off it.
    """

    def __init__(
        self, pool: WorkerPool, slow_seconds: float = INLINE_SLOW_SECONDS, pause_seconds: float | None = None
    ) -> None:
        self._pool = pool
        self._slow = slow_seconds
        self._pause = pause_seconds
        self._resume = 0.0  #: (with a pause) the monotonic time from which small work may run on the loop again
        self.inline = True  #: small work runs on the loop now (no piece has been slow, or the pause is over)

    def on_loop(self, small: bool) -> bool:
        """Whether a piece of work marked `small` runs on the loop now (if so, run it with `run_here`)."""
        if small and not self.inline and self._pause is not None and time.monotonic() >= self._resume:
            self.inline = True
        return small and self.inline

    def run_here(self, work: Callable[[], Result]) -> Result:
        """`work()` on the loop, now; if it took more than `slow_seconds` of CPU, small work goes to the pool."""
        # The work's own CPU: a loaded machine preempting the loop is not its cost, nor is a garbage collection. (The
        # wall time is read first: CPU time never exceeds it, so only work that took long asks the clock of CPU time.)
        ident = threading.get_ident()
        collected = _COLLECTING.spent.get(ident, 0.0)
        began, cpu = time.perf_counter(), time.thread_time()
        try:
            return work()
        finally:
            if time.perf_counter() - began > self._slow:
                took = time.thread_time() - cpu - (_COLLECTING.spent.get(ident, 0.0) - collected)
                if took > self._slow:
                    self.inline = False
                    if self._pause is not None:
                        self._resume = time.monotonic() + self._pause

    async def run(self, work: Callable[[StopSignal], Result], stop: StopSignal, *, small: bool) -> Result:
        """`work(stop)`: on the loop if `small` and no piece was slow, else in the pool (see WorkerPool.run)."""
        if not self.on_loop(small):
            return await self._pool.run(work, stop)
        return self.run_here(lambda: work(stop))


__all__ = [
    "DEFAULT_LONG_WORKERS",
    "DEFAULT_WORKERS",
    "INLINE_PAUSE_SECONDS",
    "INLINE_REQUEST_BYTES",
    "INLINE_SLOW_SECONDS",
    "InlineFirst",
    "WorkerPool",
]
