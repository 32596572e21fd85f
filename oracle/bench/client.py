"""The load client, run as its own process (`python -m oracle.bench.client PAYLOADS`): takes JSON commands on stdin
(record the oracle's answers, unary calls with N in flight, replay streams) and answers each with one JSON line
holding the counts, the wall time and the server's CPU seconds over exactly the timed window."""

from __future__ import annotations

import asyncio
import json
import pickle
import sys
import time
from collections.abc import Sequence
from typing import Any

import grpc

from oracle.bench.echo import GAME_KEY
from oracle.bench.http_client import http_unary_load
from oracle.bench.procs import cpu_seconds, process_tree
from oracle.bench.window import load_window

CALL_TIMEOUT = 30.0
STREAM_TIMEOUT = 600.0


class Client:
    """Channels kept open across rounds (connection setup is never timed), over raw bytes on both targets."""

    def __init__(self, unary: list[bytes], streams: list[list[bytes]]) -> None:
        self.unary = unary
        self.streams = streams
        self._channels: dict[tuple[int, int], list[grpc.aio.Channel]] = {}

    def channels(self, port: int, count: int) -> list[grpc.aio.Channel]:
        """`count` channels to 127.0.0.1:port, each its own connection."""
        key = (port, count)
        if key not in self._channels:
            options = [("grpc.use_local_subchannel_pool", 1)]
            self._channels[key] = [
                grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=options) for _ in range(count)
            ]
        return self._channels[key]

    async def record(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """Ask the oracle every unary payload and stream once; pickle its answers to cmd["out"] for the echo."""
        (channel,) = self.channels(cmd["port"], 1)
        unary_call: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(cmd["unary_method"])
        answers: dict[bytes, bytes] = {}
        errors = 0
        for payload in self.unary:
            try:
                answers[payload] = await unary_call(payload, timeout=CALL_TIMEOUT)
            except grpc.RpcError:
                answers[payload] = b""
                errors += 1
        streams = []
        for g in range(len(self.streams)):
            _, got, failed = await self._one_stream(channel, cmd["stream_method"], g, None, keep=True)
            streams.append(got)
            errors += failed
        with open(cmd["out"], "wb") as f:
            pickle.dump({"unary": answers, "streams": streams}, f)
        return {"errors": errors}

    async def unary_load(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """`inflight` callers looping over the payloads for `seconds`; CPU of the server tree over the window."""
        calls: list[grpc.aio.UnaryUnaryMultiCallable[bytes, bytes]] = [
            c.unary_unary(cmd["method"]) for c in self.channels(cmd["port"], cmd.get("channels", 1))
        ]
        payloads = self.unary
        inflight = int(cmd["inflight"])
        for k in range(min(len(payloads), 2 * inflight)):  # warm-up, untimed
            await _quiet(calls[k % len(calls)](payloads[k], timeout=CALL_TIMEOUT))
        pids = [p for pid in cmd["pids"] for p in process_tree(pid)]
        if cmd.get("start_at"):
            await asyncio.sleep(max(0.0, cmd["start_at"] - time.time()))

        async def one(i: int, k: int) -> int:  # a refused call (e.g. RESOURCE_EXHAUSTED) is an error, not throughput
            return await _quiet(calls[i % len(calls)](payloads[k % len(payloads)], timeout=CALL_TIMEOUT))

        return await load_window(pids, inflight, float(cmd["seconds"]), len(payloads), one)

    async def stream_load(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """Recorded games replayed one stream after another for `seconds` (pipelined up to `window` messages)."""
        (channel,) = self.channels(cmd["port"], 1)
        await self._one_stream(channel, cmd["method"], 0, time.perf_counter() + 0.2, keep=False)  # warm-up
        pids = [p for pid in cmd["pids"] for p in process_tree(pid)]
        server0, mine0, start = cpu_seconds(pids), time.process_time(), time.perf_counter()
        deadline = start + float(cmd["seconds"])
        count, errors, g = 0, 0, 0
        while time.perf_counter() < deadline:
            answered, _, failed = await self._one_stream(
                channel, cmd["method"], g % len(self.streams), deadline, keep=False, window=int(cmd["window"])
            )
            count += answered
            errors += failed
            g += 1
        wall = time.perf_counter() - start
        return {
            "count": count,
            "errors": errors,
            "wall": wall,
            "server_cpu": cpu_seconds(pids) - server0,
            "client_cpu": time.process_time() - mine0,
        }

    async def _one_stream(
        self,
        channel: grpc.aio.Channel,
        method: str,
        game: int,
        deadline: float | None,
        *,
        keep: bool,
        window: int = 32,
    ) -> tuple[int, list[bytes], int]:
        """One game over one stream: how many answers came, the answers (when `keep`), 1 if the stream failed."""
        messages = self.streams[game]
        start: grpc.aio.StreamStreamMultiCallable[bytes, bytes] = channel.stream_stream(method)
        call = start(metadata=((GAME_KEY, str(game)),), timeout=STREAM_TIMEOUT)
        room = asyncio.Semaphore(window)

        async def writer() -> None:
            for message in messages:
                if deadline is not None and time.perf_counter() >= deadline:
                    break
                await room.acquire()
                await call.write(message)
            await call.done_writing()

        sending = asyncio.create_task(writer())
        got: list[bytes] = []
        answered, failed = 0, 0
        try:
            async for answer in call:
                room.release()
                answered += 1
                if keep:
                    got.append(answer)
            await sending
        except Exception:  # the stream failed (a status, or a write after the end): counted, not fatal
            failed = 1
            sending.cancel()
        return answered, got, failed


async def _quiet(call: Any) -> int:
    """Await a call; 1 if it failed, else 0."""
    try:
        await call
    except grpc.RpcError:
        return 1
    return 0


async def serve_commands(client: Client) -> None:
    """One JSON command per stdin line, one JSON answer per stdout line, until "quit" or the end of stdin."""
    loop = asyncio.get_running_loop()

    async def http_unary(cmd: dict[str, Any]) -> dict[str, Any]:
        return await http_unary_load(cmd, client.unary)  # CheckAction over HTTP/JSON (oracle.bench.http_rows)

    handlers = {
        "record": client.record,
        "unary": client.unary_load,
        "stream": client.stream_load,
        "http_unary": http_unary,
    }
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line or not line.strip():
            break
        cmd = json.loads(line)
        if cmd["op"] == "quit":
            break
        try:
            answer = await handlers[cmd["op"]](cmd)
        except Exception as exc:
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(answer), flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: PAYLOADS, a pickled {"unary": [bytes], "streams": [[bytes]]}."""
    args = list(sys.argv[1:] if argv is None else argv)
    with open(args[0], "rb") as f:
        data = pickle.load(f)
    asyncio.run(serve_commands(Client(data["unary"], data["streams"])))


if __name__ == "__main__":
    main()
