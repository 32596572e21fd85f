"""Serves the HTTP application (Connect calls and the web page) with Hypercorn, in the gRPC server's event loop.

Hypercorn is the ASGI server because it speaks HTTP/1.1 and HTTP/2 (cleartext with prior knowledge, or by ALPN
over TLS), the transport the Connect protocol specifies for a bidirectional stream (RefereeGame), carries a
stream full duplex over HTTP/1.1 too, and can be started and stopped from inside a running event loop without
taking over the process's signals. The listening socket is bound here, so a busy port is the same one-line
error as for the gRPC port, and SO_REUSEPORT follows the server's option (`serve --workers N` shares the HTTP
port between its processes as it shares the gRPC port).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
from collections.abc import Sequence

from hypercorn.asyncio import serve as hypercorn_serve
from hypercorn.config import Config as HypercornConfig

from oracle.service.calls import CallLayer
from oracle.service.config import ServeConfig
from oracle.service.health import HealthService
from oracle.service.http_app import OracleHttpApp
from oracle.service.servicer import OracleServicer

log = logging.getLogger(__name__)
KEEP_ALIVE_SECONDS = 75.0  #: an idle HTTP connection is closed after this long


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def listen(host: str, port: int, *, reuse_port: bool) -> socket.socket:
    """A listening TCP socket on host:port (port 0: a free one); OSError naming the address and why otherwise."""
    try:
        family, _, _, _, sockaddr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise OSError(f"cannot listen for HTTP on {_address(host, port)}: cannot resolve the host ({exc})") from None
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(sockaddr)
        sock.listen(1024)
    except OSError as exc:
        sock.close()
        reason = (exc.strerror or str(exc)).lower()
        if "in use" in reason:
            reason += " (another process is listening there)"
        raise OSError(f"cannot listen for HTTP on {_address(host, port)}: {reason}") from None
    return sock


def hypercorn_config(config: ServeConfig, sock: socket.socket) -> HypercornConfig:
    """Hypercorn's settings from the server's: the socket, TLS (and client certificates), the grace period."""
    settings = HypercornConfig()
    settings.bind = [f"fd://{sock.fileno()}"]
    settings.accesslog = None  # the request log of the call layers covers Connect calls
    settings.errorlog = log  # Python logging (its "Running on" line is INFO; problems are warnings and errors)
    settings.graceful_timeout = config.grace_seconds
    settings.keep_alive_timeout = KEEP_ALIVE_SECONDS
    settings.include_server_header = False
    if config.tls_cert is not None and config.tls_key is not None:
        settings.certfile = str(config.tls_cert)
        settings.keyfile = str(config.tls_key)
        if config.tls_client_ca is not None:
            settings.ca_certs = str(config.tls_client_ca)
            settings.verify_mode = ssl.CERT_REQUIRED
    return settings


class HttpServer:
    """The HTTP port of a running server: its port, its URL; `stop()` ends it (connections get the grace period)."""

    def __init__(self, task: asyncio.Task[None], stopping: asyncio.Event, host: str, port: int, tls: bool) -> None:
        self._task = task
        self._stopping = stopping
        self.port = port
        self.url = f"{'https' if tls else 'http'}://{_address(host, port)}/"

    async def stop(self) -> None:
        """Stop accepting, let requests in flight finish (up to the grace period), then return."""
        self._stopping.set()
        await self._task


async def start_http(
    servicer: OracleServicer, health: HealthService, layers: Sequence[CallLayer], config: ServeConfig
) -> HttpServer:
    """Serve `servicer` and `health` behind `layers` over HTTP on config.host:config.http_port until `stop()`."""
    assert config.http_port is not None
    sock = listen(config.host, config.http_port, reuse_port=config.reuse_port)
    port = sock.getsockname()[1]
    settings = hypercorn_config(config, sock)
    sock.detach()  # the descriptor is Hypercorn's now (it closes it when it stops)
    app = OracleHttpApp(servicer, health, layers, config.limits.max_message_bytes)
    stopping = asyncio.Event()
    task = asyncio.create_task(hypercorn_serve(app, settings, shutdown_trigger=stopping.wait, mode="asgi"))  # type: ignore[arg-type]
    await asyncio.sleep(0)  # let it start (connections meanwhile wait in the listen backlog)
    if task.done():
        task.result()  # raises what stopped it
    return HttpServer(task, stopping, config.host, port, config.tls)


__all__ = ["HttpServer", "hypercorn_config", "listen", "start_http"]
