"""The baselines, run as a process (`python -m oracle.bench.echo [--answers FILE [--floor]]`): an echo gRPC service
whose every answer is the oracle's answer to the same message (so the same size); with --floor, one that also does
the least any CheckAction must do with the wire (parse the request, read every card, serialize the answer); or a
bare grpc.aio server with health."""

from __future__ import annotations

import argparse
import asyncio
import os
import pickle
import signal
import sys
from collections.abc import AsyncIterator

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio

SERVICE = "bench.Echo"
UNARY = f"/{SERVICE}/Unary"
STREAM = f"/{SERVICE}/Stream"
GAME_KEY = "bench-game"  #: stream metadata: which recorded game the stream replays (sent to the oracle too)


class Answers:
    """The oracle's answers, recorded by the client: by request bytes (unary), by game and position (streams)."""

    def __init__(self, unary: dict[bytes, bytes], streams: list[list[bytes]]) -> None:
        self.unary = unary
        self.streams = streams

    async def answer(self, request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
        """A unary answer: the oracle's answer to these bytes (or the bytes themselves)."""
        return self.unary.get(request, request)

    async def answer_stream(
        self, requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext[bytes, bytes]
    ) -> AsyncIterator[bytes]:
        """A stream answer: message k of game g gets the oracle's answer k of game g."""
        game = 0
        for key, value in context.invocation_metadata() or ():
            if key == GAME_KEY:
                game = int(value)
        recorded = self.streams[game] if 0 <= game < len(self.streams) else []
        k = 0
        async for request in requests:
            yield recorded[k] if k < len(recorded) else request
            k += 1


class FloorAnswers(Answers):
    """The echo plus the wire work of a CheckAction: parse the request, read every card, serialize the answer (the
    oracle's recorded answer, parsed once): what no implementation of the method on this transport can skip."""

    def __init__(self, unary: dict[bytes, bytes], streams: list[list[bytes]]) -> None:
        super().__init__(unary, streams)
        from oracle.api.v1 import oracle_pb2

        self._parse = oracle_pb2.CheckActionRequest.FromString
        self._answers = {k: oracle_pb2.CheckActionResponse.FromString(v) for k, v in unary.items()}

    async def answer(self, request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
        """Parse, read every card, serialize the recorded answer."""
        from oracle.bench.measure import read_cards

        read_cards(self._parse(request))
        found = self._answers.get(request)
        return request if found is None else found.SerializeToString()


async def serve(answers: Answers | None) -> None:
    """Serve on 127.0.0.1 port 0 until SIGTERM, SIGINT or the end of stdin; print the port once SERVING."""
    server = grpc.aio.server()
    if answers is not None:
        handlers: dict[str, grpc.RpcMethodHandler[bytes, bytes]] = {
            "Unary": grpc.unary_unary_rpc_method_handler(answers.answer),
            "Stream": grpc.stream_stream_rpc_method_handler(answers.answer_stream),
        }
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    health = health_aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    await health.set("", health_pb2.HealthCheckResponse.SERVING)
    print(f"bench server: serving on 127.0.0.1:{port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)

    def on_stdin() -> None:
        if not os.read(sys.stdin.fileno(), 4096):  # the parent is gone (or closed our stdin): stop
            loop.remove_reader(sys.stdin.fileno())
            stop.set()

    loop.add_reader(sys.stdin.fileno(), on_stdin)
    await stop.wait()
    await server.stop(0)


def main() -> None:
    """Command line: --answers FILE (a pickled {"unary": {...}, "streams": [...]}) for the echo; nothing for bare."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--answers", help="The recorded answers of the oracle (echo mode).")
    parser.add_argument("--floor", action="store_true", help="Also parse, read every card and serialize (unary).")
    args = parser.parse_args()
    answers = None
    if args.answers:
        with open(args.answers, "rb") as f:
            data = pickle.load(f)
        answers = (FloorAnswers if args.floor else Answers)(data["unary"], data["streams"])
    asyncio.run(serve(answers))


if __name__ == "__main__":
    main()
