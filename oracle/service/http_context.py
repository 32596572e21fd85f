"""A Connect request seen as a gRPC servicer context, so one servicer and one set of call layers serve both transports.

The HTTP side runs the very handlers the gRPC server runs (the call layers of
oracle.service.calls around OracleServicer's methods); they read the caller's
metadata, deadline and peer from their context and end a call through it.
`HttpContext` answers those questions from the Connect request, records the
status a handler ends with, and `connect_error` turns that status (code,
message and google.rpc details) into the ConnectError the client reads.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NoReturn

import grpc
from connectrpc.code import Code
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.request import RequestContext
from google.rpc import status_pb2
from protobuf.wkt import Any as WireAny

Metadata = grpc.aio.Metadata | Sequence[tuple[str, str | bytes]]
DETAILS_KEY = "grpc-status-details-bin"  #: the trailer grpc_status puts a google.rpc.Status in

# The gRPC codes and the Connect codes are the same set (Connect spells CANCELLED with one L).
CONNECT_CODES: Mapping[grpc.StatusCode, Code] = {
    grpc.StatusCode.CANCELLED: Code.CANCELED,
    **{code: Code[code.name] for code in grpc.StatusCode if code.name not in ("OK", "CANCELLED")},
}
_BY_NUMBER = {code.value[0]: code for code in grpc.StatusCode}


class HttpAbort(Exception):
    """Raised by HttpContext.abort (as grpc's context raises): the call ends with the status recorded."""


class HttpContext(grpc.aio.ServicerContext[Any, Any]):
    """The parts of a grpc.aio.ServicerContext the call layers and the servicer use, for one Connect request.

    Metadata are the HTTP request headers (lower-case names); the deadline is the request's Connect-Timeout-Ms;
    the peer is `http:HOST:PORT` (so the request log tells the transports apart). Streaming writes and
    compression belong to the Connect library, so those methods refuse to be called.
    """

    def __init__(self, request: RequestContext[Any, Any]) -> None:
        self._request = request
        timeout_ms = request.timeout_ms
        self._deadline = None if timeout_ms is None else time.monotonic() + timeout_ms / 1000
        self._code: grpc.StatusCode | None = None
        self._details = ""
        self._trailing: tuple[tuple[str, str | bytes], ...] = ()

    def peer(self) -> str:
        """`http:` and the client's address (or `http:unknown`)."""
        return f"http:{self._request.client_address or 'unknown'}"

    def invocation_metadata(self) -> grpc.aio.Metadata:
        """The request's HTTP headers as (lower-case name, value) pairs, in order."""
        headers = self._request.request_headers
        return grpc.aio.Metadata(*((name.lower(), value) for name, value in headers.allitems()))

    def time_remaining(self) -> float | None:  # type: ignore[override]  # grpc returns None without a deadline
        """Seconds left before the request's Connect-Timeout-Ms passes (None: no deadline)."""
        return None if self._deadline is None else self._deadline - time.monotonic()

    def cancelled(self) -> bool:
        """False: a client that goes away (or a Connect-Timeout-Ms that passes) cancels the handler's task instead,
        and the call layers read the CancelledError (CANCELLED, or DEADLINE_EXCEEDED once time_remaining is out)."""
        return False

    def code(self) -> grpc.StatusCode | None:  # type: ignore[override]  # grpc returns None before a code is set
        """The status code set by abort or set_code, or None."""
        return self._code

    def details(self) -> str:
        """The status message set with the code."""
        return self._details

    def set_code(self, code: grpc.StatusCode) -> None:
        """Record the code the call ends with."""
        self._code = code

    def set_details(self, details: str) -> None:
        """Record the message the call ends with."""
        self._details = details

    def set_trailing_metadata(self, trailing_metadata: Metadata) -> None:
        """Record trailers (the google.rpc.Status details travel there)."""
        self._trailing = tuple(trailing_metadata)

    def trailing_metadata(self) -> grpc.aio.Metadata:
        """The trailers recorded."""
        return grpc.aio.Metadata(*self._trailing)

    async def abort(self, code: grpc.StatusCode, details: str = "", trailing_metadata: Metadata = ()) -> NoReturn:
        """Record the status and end the handler (HttpAbort)."""
        self._code = code
        self._details = details
        self._trailing = tuple(trailing_metadata)
        raise HttpAbort(details)

    async def abort_with_status(self, status: grpc.Status) -> NoReturn:
        """Record a grpc_status status (its details in the trailers) and end the handler."""
        await self.abort(status.code, status.details, status.trailing_metadata)

    def status(self) -> status_pb2.Status | None:
        """The google.rpc.Status the call ended with (None: it did not set one)."""
        if self._code is None or self._code == grpc.StatusCode.OK:
            return None
        for key, value in self._trailing:
            if key == DETAILS_KEY and isinstance(value, bytes):
                return status_pb2.Status.FromString(value)
        return status_pb2.Status(code=self._code.value[0], message=self._details)

    def auth_context(self) -> Mapping[str, Iterable[bytes]]:
        """No gRPC auth context over HTTP (TLS is the HTTP server's)."""
        return {}

    def peer_identities(self) -> Iterable[bytes] | None:
        """None: client certificates are checked by the HTTP server's TLS."""
        return None

    def peer_identity_key(self) -> str | None:
        """None, as peer_identities."""
        return None

    async def read(self) -> NoReturn:
        """Not used: request streams reach the handler as an iterator."""
        raise NotImplementedError("HttpContext.read: the Connect library reads the request stream")

    async def write(self, message: Any) -> NoReturn:
        """Not used: the handlers yield their responses."""
        raise NotImplementedError("HttpContext.write: the Connect library writes the response stream")

    async def send_initial_metadata(self, initial_metadata: Metadata) -> NoReturn:
        """Not used by the oracle's handlers."""
        raise NotImplementedError("HttpContext.send_initial_metadata: not used over HTTP")

    def set_compression(self, compression: grpc.Compression) -> NoReturn:
        """Not used: the Connect library negotiates compression."""
        raise NotImplementedError("HttpContext.set_compression: the Connect library negotiates compression")

    def disable_next_message_compression(self) -> NoReturn:
        """Not used, as set_compression."""
        raise NotImplementedError("HttpContext.disable_next_message_compression: not used over HTTP")


def connect_error(status: status_pb2.Status) -> ConnectError:
    """The ConnectError of a google.rpc.Status: the same code, message and details (each a google.protobuf.Any)."""
    grpc_code = _BY_NUMBER.get(status.code, grpc.StatusCode.UNKNOWN)
    code = CONNECT_CODES.get(grpc_code, Code.UNKNOWN)
    details = [ErrorDetail(WireAny(type_url=d.type_url, value=d.value)) for d in status.details]
    return ConnectError(code, status.message, details)


__all__ = ["CONNECT_CODES", "HttpAbort", "HttpContext", "connect_error"]
