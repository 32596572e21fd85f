"""Conformance targets: this engine in process or any server of the API over gRPC, answering a reply or CallError."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import grpc
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from oracle.api.v1 import oracle_pb2_grpc
from oracle.ruleset.loader import RuleBook, default_rule_book
from oracle.service.api import OracleApi, status_of


@dataclass(frozen=True)
class CallError:
    """A call that failed with a status: its code name and the field paths it named."""

    code: str
    fields: tuple[str, ...]
    message: str


Reply = Message | CallError


class Target(Protocol):
    """Something that answers the API's unary calls: `call(rpc_name, request) -> response or CallError`."""

    def call(self, rpc: str, request: Message) -> Reply:
        """Make one call."""
        ...


def _fields_of(status: status_pb2.Status) -> tuple[str, ...]:
    """The field paths a status's BadRequest and PreconditionFailure details name."""
    fields: list[str] = []
    for detail in status.details:
        bad = error_details_pb2.BadRequest()
        failure = error_details_pb2.PreconditionFailure()
        if detail.Unpack(bad):  # False (nothing unpacked) when the detail is of another type
            fields += [v.field for v in bad.field_violations]
        elif detail.Unpack(failure):
            fields += [v.subject for v in failure.violations]
    return tuple(fields)


class InProcessTarget:
    """This engine, called directly (the default target)."""

    def __init__(self, book: RuleBook | None = None) -> None:
        self.api = OracleApi(book or default_rule_book())

    def call(self, rpc: str, request: Message) -> Reply:
        """Call OracleApi.<rpc>; expected errors become CallError exactly as the server would send them."""
        method: Callable[[Message], Message] = getattr(self.api, rpc)
        try:
            return method(request)
        except Exception as exc:
            status = status_of(exc)
            if status is None:
                raise
            return CallError(code_pb2.Code.Name(status.code), _fields_of(status), status.message)


class TargetUnreachable(ConnectionError):
    """The target cannot be reached (before the run, or it stopped answering during it)."""


class GrpcTarget:
    """Any server implementing oracle.api.v1.OracleService."""

    def __init__(self, address: str, timeout: float = 30.0, connect_timeout: float = 10.0) -> None:
        self.address = address
        self.channel = grpc.insecure_channel(address)
        self.stub = oracle_pb2_grpc.OracleServiceStub(self.channel)
        self.timeout = timeout
        self.connect_timeout = connect_timeout

    def connect(self) -> None:
        """Wait until the channel is connected; TargetUnreachable after connect_timeout seconds."""
        try:
            grpc.channel_ready_future(self.channel).result(timeout=self.connect_timeout)
        except grpc.FutureTimeoutError:
            raise TargetUnreachable(
                f"cannot reach the target {self.address}: no connection within {self.connect_timeout:g} s"
                " (is a server of oracle.api.v1.OracleService listening there?)"
            ) from None

    def call(self, rpc: str, request: Message) -> Reply:
        """Call the RPC; a status error becomes CallError with the BadRequest/PreconditionFailure field paths.

        UNAVAILABLE from a target that then cannot be reached again within
        connect_timeout raises TargetUnreachable (the server went away: every
        case after it would fail the same way); from a target still reachable
        it is an answer like any other.
        """
        method: Callable[..., Message] = getattr(self.stub, rpc)
        try:
            return method(request, timeout=self.timeout)
        except grpc.RpcError as exc:
            if not isinstance(exc, grpc.Call):  # a stub's errors are calls too (they carry the status)
                raise
            if exc.code() == grpc.StatusCode.UNAVAILABLE:
                try:
                    self.connect()
                except TargetUnreachable as gone:
                    raise TargetUnreachable(f"{gone} (it answered {rpc} with UNAVAILABLE: {exc.details()})") from None
            status = rpc_status.from_call(exc)
            fields = _fields_of(status) if status is not None else ()
            return CallError(exc.code().name, fields, exc.details() or "")

    def close(self) -> None:
        """Close the channel."""
        self.channel.close()


__all__ = ["CallError", "GrpcTarget", "InProcessTarget", "Reply", "Target", "TargetUnreachable"]
