"""Runs the gRPC server: oracle service, health (SERVING once rule sets load), reflection, graceful stop."""

from __future__ import annotations

import asyncio
import logging
import signal

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio
from grpc_reflection.v1alpha import reflection

from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc
from oracle.ruleset.loader import RuleBook
from oracle.service.servicer import OracleServicer

log = logging.getLogger(__name__)
SERVICE_NAME = oracle_pb2.DESCRIPTOR.services_by_name["OracleService"].full_name
GRACE_SECONDS = 5.0


class OracleServer:
    """A started server and its health servicer; `stop()` drains in-flight calls."""

    def __init__(self, server: grpc.aio.Server, health: health_aio.HealthServicer, port: int) -> None:
        self.server = server
        self.health = health
        self.port = port

    async def stop(self, grace: float = GRACE_SECONDS) -> None:
        """Report NOT_SERVING, then let in-flight calls finish (up to `grace` seconds)."""
        await self.health.enter_graceful_shutdown()
        await self.server.stop(grace)


async def start_server(book: RuleBook, host: str = "127.0.0.1", port: int = 50051) -> OracleServer:
    """Start serving `book` on host:port (port 0 picks a free one); health says SERVING once started."""
    server = grpc.aio.server()
    oracle_pb2_grpc.add_OracleServiceServicer_to_server(OracleServicer(book), server)
    health = health_aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME), server
    )
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        bound = server.add_insecure_port(address)
    except RuntimeError as exc:  # grpc raises RuntimeError("Failed to bind ...")
        raise OSError(f"cannot listen on {address} (is the port in use?)") from exc
    if bound == 0:
        raise OSError(f"cannot listen on {address}")
    await server.start()
    for name in ("", SERVICE_NAME):
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    return OracleServer(server, health, bound)


async def serve(book: RuleBook, host: str, port: int, ready: asyncio.Event | None = None) -> None:
    """Serve until SIGINT or SIGTERM, then stop gracefully."""
    running = await start_server(book, host, port)
    log.info("canasta-oracle serving %d rule sets on %s:%d", len(book.ids()), host, running.port)
    print(f"canasta-oracle: serving {len(book.ids())} rule sets on {host}:{running.port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    if ready is not None:
        ready.set()
    await stop.wait()
    print("canasta-oracle: stopping (health NOT_SERVING, draining calls)", flush=True)
    await running.stop()
