"""The oracle service alone (no serving layers), with its own Limits, on a free port, for tests that look inside it.

The servicer is kept (`server.servicer`), so a test can read its worker pools (busy threads, queued work); the
server runs on its own asyncio loop in a daemon thread.
"""

from __future__ import annotations

import asyncio
import threading

import grpc

from oracle.ruleset.loader import RuleBook, default_rule_book
from oracle.service.decoding import add_oracle_service
from oracle.service.limits import DEFAULT_LIMITS, Limits
from oracle.service.servicer import OracleServicer

TIMEOUT = 30.0


class ServicerServer:
    """An OracleServicer served on 127.0.0.1 (a free port) by a grpc.aio server on a loop in a daemon thread."""

    def __init__(self, limits: Limits = DEFAULT_LIMITS, book: RuleBook | None = None) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="servicer-test-server", daemon=True).start()
        self.servicer = OracleServicer(book or default_rule_book(), limits)

        async def start() -> tuple[grpc.aio.Server, int]:
            server = grpc.aio.server()
            add_oracle_service(self.servicer, server)
            port = server.add_insecure_port("127.0.0.1:0")
            await server.start()
            return server, port

        self.server, port = asyncio.run_coroutine_threadsafe(start(), self.loop).result(TIMEOUT)
        self.address = f"127.0.0.1:{port}"

    def close(self) -> None:
        """Stop the server at once, then its worker pools and its loop."""
        asyncio.run_coroutine_threadsafe(self.server.stop(0), self.loop).result(TIMEOUT)
        self.servicer.close()
        self.loop.call_soon_threadsafe(self.loop.stop)
