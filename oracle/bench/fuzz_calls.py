"""One fuzz call over the wire and the judging of its answer: the codes allowed, the error details, the trailers.

Requests go as bytes (an identity serializer), so a structure-aware mutation
and a byte-level one are sent the same way, through a default client channel:
an answer whose trailers a default client cannot read shows up here as the
code that client reports.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf.message import DecodeError, Message
from google.rpc import error_details_pb2, status_pb2

from oracle.api.v1 import oracle_pb2
from oracle.bench.fuzz_seeds import SERVICE, STREAM_RPC
from oracle.service.limits import DEFAULT_LIMITS

ALLOWED = frozenset(
    {
        grpc.StatusCode.OK,
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.DEADLINE_EXCEEDED,  # documented: long work stops at the call's deadline
    }
)
"""The codes a fuzzed request may get: anything else (INTERNAL, UNKNOWN, RESOURCE_EXHAUSTED from trailers a
client cannot read, ...) is a finding."""
DETAILED = frozenset({grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION})
DEFAULT_CLIENT_TRAILERS = 8 * 1024  #: bytes of trailers a default client reads (half its 16 KiB of metadata)
HEADER_OVERHEAD = 32  #: bytes HTTP/2 counts per header besides its name and value
STATUS_DETAILS_KEY = "grpc-status-details-bin"
UNDECODABLE = "request bytes do not decode as"  #: how the server's answer to undecodable bytes begins


@dataclass(frozen=True)
class Answer:
    """How the server answered one fuzzed call: its code, how long it took, what is wrong with it (if anything)."""

    code: grpc.StatusCode
    seconds: float
    message: str
    faults: tuple[str, ...] = ()
    trailer_bytes: int = 0


def method_path(rpc: str) -> str:
    """The HTTP/2 path of an OracleService method."""
    return f"/{SERVICE.full_name}/{rpc}"


def _response_class(rpc: str) -> type[Message]:
    return getattr(oracle_pb2, SERVICE.methods_by_name[rpc].output_type.name)  # type: ignore[no-any-return]


def trailer_size(details: str, metadata: Iterable[tuple[str, str | bytes]]) -> int:
    """Bytes of the trailers as sent: grpc-status, grpc-message (percent-encoded) and every trailing entry
    (binary values base64), each with HTTP/2's per-header overhead."""
    message = details.encode("utf-8")
    total = len("grpc-status") + 2 + HEADER_OVERHEAD
    total += len("grpc-message") + HEADER_OVERHEAD + sum(1 if 0x20 <= b <= 0x7E and b != 0x25 else 3 for b in message)
    for key, value in metadata:
        size = len(base64.b64encode(value)) if isinstance(value, bytes) else len(value.encode("utf-8"))
        total += len(key) + size + HEADER_OVERHEAD
    return total


def _status_details(metadata: Iterable[tuple[str, str | bytes]]) -> status_pb2.Status | None:
    for key, value in metadata:
        if key == STATUS_DETAILS_KEY and isinstance(value, bytes):
            return status_pb2.Status.FromString(value)
    return None


def judge(
    code: grpc.StatusCode,
    details: str,
    metadata: Iterable[tuple[str, str | bytes]],
    *,
    field_paths: bool = True,
    request_bytes: int = 0,
) -> tuple[tuple[str, ...], int]:
    """What is wrong with an answer (nothing: an empty tuple) and the size of its trailers.

    The code must be one of ALLOWED; INVALID_ARGUMENT and FAILED_PRECONDITION must carry a google.rpc.BadRequest
    or PreconditionFailure naming at least one problem, at a non-empty field path when `field_paths` (except for
    bytes that do not decode at all: they name the whole request, the empty path); the trailers must fit a default
    client. RESOURCE_EXHAUSTED is expected for a request message (`request_bytes`) larger than gRPC receives.
    """
    entries = list(metadata)
    size = trailer_size(details or "", entries)
    faults = []
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED and request_bytes > DEFAULT_LIMITS.max_message_bytes:
        pass  # documented (docs/limits.md): gRPC refuses a message past max_message_bytes before the oracle sees it
    elif code not in ALLOWED:
        faults.append(f"code {code.name}: {details}")
    if size >= DEFAULT_CLIENT_TRAILERS:
        faults.append(f"trailers of {size} bytes (a default client reads {DEFAULT_CLIENT_TRAILERS})")
    if code in DETAILED:
        status = _status_details(entries)
        paths = _field_paths(status) if status is not None else None
        if paths is None:
            faults.append(f"{code.name} without a BadRequest or PreconditionFailure detail: {details}")
        elif not paths:
            faults.append(f"{code.name} whose detail names no problem: {details}")
        elif field_paths and not any(paths) and not details.startswith(UNDECODABLE):
            faults.append(f"{code.name} with no field path: {details}")
    return tuple(faults), size


def _field_paths(status: status_pb2.Status) -> list[str] | None:
    """The field paths of the status's BadRequest or PreconditionFailure (None: it has neither)."""
    for detail in status.details:
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            return [v.field for v in bad.field_violations]
        failure = error_details_pb2.PreconditionFailure()
        if detail.Unpack(failure):
            return [v.subject for v in failure.violations]
    return None


def _answer(
    started: float,
    code: grpc.StatusCode,
    details: str,
    call: Any,
    field_paths: bool,
    largest: int,
    extra: tuple[str, ...] = (),
) -> Answer:
    metadata = call.trailing_metadata() if call is not None else None
    faults, size = judge(code, details, metadata or (), field_paths=field_paths, request_bytes=largest)
    return Answer(code, time.perf_counter() - started, details, faults + extra, size)


def call_unary(channel: grpc.Channel, rpc: str, payload: bytes, timeout: float, *, field_paths: bool = True) -> Answer:
    """Send `payload` (request bytes, well formed or not) to a unary RPC and judge the answer."""
    method: grpc.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(method_path(rpc))
    started = time.perf_counter()
    try:
        response, call = method.with_call(payload, timeout=timeout)
    except grpc.RpcError as error:
        return _answer(started, error.code(), error.details() or "", error, field_paths, len(payload))
    extra: tuple[str, ...] = ()
    try:
        _response_class(rpc).FromString(response)
    except DecodeError:
        extra = (f"the answer ({len(response)} bytes) does not decode",)
    return _answer(started, grpc.StatusCode.OK, "", call, field_paths, len(payload), extra)


def call_stream(channel: grpc.Channel, payloads: list[bytes], timeout: float, *, field_paths: bool = True) -> Answer:
    """Send `payloads` over one RefereeGame stream (then half-close), read every answer and judge the end."""
    method: grpc.StreamStreamMultiCallable[bytes, bytes] = channel.stream_stream(method_path(STREAM_RPC))
    largest = max((len(p) for p in payloads), default=0)
    started = time.perf_counter()
    call = method(iter(payloads), timeout=timeout)
    extra: list[str] = []
    try:
        for response in call:
            try:
                oracle_pb2.RefereeGameResponse.FromString(response)
            except DecodeError:
                extra.append(f"an answer ({len(response)} bytes) does not decode")
    except grpc.RpcError as error:
        return _answer(started, error.code(), error.details() or "", error, field_paths, largest, tuple(extra[:1]))
    return _answer(started, call.code(), call.details() or "", call, field_paths, largest, tuple(extra[:1]))


__all__ = [
    "ALLOWED",
    "DEFAULT_CLIENT_TRAILERS",
    "UNDECODABLE",
    "Answer",
    "call_stream",
    "call_unary",
    "judge",
    "method_path",
    "trailer_size",
]
