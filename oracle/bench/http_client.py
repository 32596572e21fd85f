"""The load client's HTTP command: CheckAction over the Connect protocol with JSON bodies, N calls in flight, counted
and timed as oracle.bench.client times its gRPC calls (the server's CPU over exactly the timed window)."""

from __future__ import annotations

import asyncio
from typing import Any

from google.protobuf import json_format
from pyqwest import Client

from oracle.api.v1 import oracle_pb2
from oracle.bench.procs import process_tree
from oracle.bench.window import load_window

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
    return await load_window(
        pids, inflight, float(cmd["seconds"]), len(bodies), lambda i, k: one(bodies[k % len(bodies)])
    )


__all__ = ["http_unary_load", "json_bodies"]
