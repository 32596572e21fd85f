"""The load client's HTTP command: CheckAction over the Connect protocol with JSON bodies, N calls in flight, counted
and timed as oracle.bench.client times its gRPC calls (the server's CPU over exactly the timed window)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from google.protobuf import json_format
from pyqwest import Client

from oracle.api.v1 import oracle_pb2
from oracle.bench.procs import cpu_seconds, process_tree

JSON_HEADERS = {"Content-Type": "application/json"}
_bodies: dict[int, list[bytes]] = {}  #: the JSON bodies of a payload list (by its id), made once per process


def json_bodies(payloads: list[bytes]) -> list[bytes]:
    """The CheckActionRequest payloads (binary) in the protobuf JSON mapping, as an HTTP client sends them."""
    key = id(payloads)
    if key not in _bodies:
        _bodies[key] = [
            json_format.MessageToJson(oracle_pb2.CheckActionRequest.FromString(p), indent=None).encode()
            for p in payloads
        ]
    return _bodies[key]


async def http_unary_load(cmd: dict[str, Any], payloads: list[bytes], client: Client | None = None) -> dict[str, Any]:
    """`inflight` callers POSTing the payloads as JSON to cmd["url"] for `seconds` (kept-alive HTTP/1.1
    connections, warmed up untimed); a reply other than 200 is an error, not throughput."""
    client = client or Client()
    bodies = json_bodies(payloads)
    url = cmd["url"]
    inflight = int(cmd["inflight"])

    async def one(body: bytes) -> int:
        try:
            answer = await client.post(url, headers=JSON_HEADERS, content=body)
        except (ConnectionError, TimeoutError, OSError):
            return 1
        return 0 if answer.status == 200 else 1

    await asyncio.gather(*(one(bodies[k % len(bodies)]) for k in range(2 * inflight)))  # warm-up: connections
    pids = [p for pid in cmd["pids"] for p in process_tree(pid)]
    server0, mine0, start = cpu_seconds(pids), time.process_time(), time.perf_counter()
    deadline = start + float(cmd["seconds"])
    step = max(1, len(bodies) // inflight)

    async def caller(i: int) -> tuple[int, int]:
        k, done, errors = i * step, 0, 0
        while time.perf_counter() < deadline:
            failed = await one(bodies[k % len(bodies)])
            done += 1 - failed
            errors += failed
            k += 1
        return done, errors

    results = await asyncio.gather(*(caller(i) for i in range(inflight)))
    wall = time.perf_counter() - start
    return {
        "count": sum(r[0] for r in results),
        "errors": sum(r[1] for r in results),
        "wall": wall,
        "server_cpu": cpu_seconds(pids) - server0,
        "client_cpu": time.process_time() - mine0,
    }


__all__ = ["http_unary_load", "json_bodies"]
