"""One timed load window: callers in flight looping over their inputs until a deadline, with the server tree's
CPU and the client's own CPU over exactly that window (shared by the gRPC and the HTTP clients)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from oracle.bench.procs import cpu_seconds


async def load_window(
    pids: Sequence[int], inflight: int, seconds: float, inputs: int, one: Callable[[int, int], Awaitable[int]]
) -> dict[str, Any]:
    """`inflight` callers, caller i sending input k, k+1, ... (each starting at its own offset) by `one(i, k)`,
    which returns 1 for a failed call (an error, not throughput) and 0 for an answered one, until `seconds` pass;
    the answered calls, errors, wall time and the CPU of the server processes `pids` and of this process."""
    server0, mine0, start = cpu_seconds(pids), time.process_time(), time.perf_counter()
    deadline = start + seconds
    step = max(1, inputs // inflight)

    async def caller(i: int) -> tuple[int, int]:
        k, done, errors = i * step, 0, 0
        while time.perf_counter() < deadline:
            failed = await one(i, k)
            done += 1 - failed
            errors += failed
            k += 1
        return done, errors

    results = await asyncio.gather(*(caller(i) for i in range(inflight)))
    return {
        "count": sum(r[0] for r in results),
        "errors": sum(r[1] for r in results),
        "wall": time.perf_counter() - start,
        "server_cpu": cpu_seconds(pids) - server0,
        "client_cpu": time.process_time() - mine0,
    }


__all__ = ["load_window"]
