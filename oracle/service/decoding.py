"""Registers the oracle service so that request bytes which do not decode get INVALID_ARGUMENT, not UNKNOWN."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc
from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor, MethodDescriptor
from google.protobuf.message import DecodeError, Message
from google.rpc import code_pb2, status_pb2
from grpc_status import rpc_status

from oracle.api.v1 import oracle_pb2
from oracle.model.errors import FieldProblem

Context = grpc.aio.ServicerContext[Any, Any]
SERVICE = oracle_pb2.DESCRIPTOR.services_by_name["OracleService"]


class Undecodable:
    """What the request deserializer gives for bytes that do not parse as the method's request message.

    gRPC answers UNKNOWN (naming a Python exception) when a deserializer raises, so the deserializer returns this
    instead and the handler ends the call with INVALID_ARGUMENT.
    """

    def __init__(self, message_type: Descriptor, size: int) -> None:
        self.message_type = message_type.full_name
        self.size = size

    def status(self) -> status_pb2.Status:
        """INVALID_ARGUMENT naming the message type the bytes should have been (the whole request is the field)."""
        from oracle.service.bounded import bad_request  # (with the violations registry: not needed to serve)

        text = f"request bytes do not decode as {self.message_type} ({self.size} bytes)"
        status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=text)
        status.details.add().Pack(bad_request([FieldProblem("", text)]))
        return status


def _decoder(message_type: Descriptor) -> Callable[[bytes], Message | Undecodable]:
    message_class = message_factory.GetMessageClass(message_type)

    def decode(data: bytes) -> Message | Undecodable:
        try:
            return message_class.FromString(data)
        except (DecodeError, RecursionError, ValueError):
            return Undecodable(message_type, len(data))

    return decode


async def _refuse(request: Undecodable, context: Context) -> None:
    await context.abort_with_status(rpc_status.to_status(request.status()))


def _unary_request(behaviour: Callable[..., Any]) -> Callable[..., Any]:
    async def handle(request: Any, context: Context) -> Any:
        if isinstance(request, Undecodable):
            await _refuse(request, context)
        return await behaviour(request, context)

    return handle


def _checked(requests: AsyncIterator[Any], context: Context) -> AsyncIterator[Any]:
    async def each() -> AsyncIterator[Any]:
        async for request in requests:
            if isinstance(request, Undecodable):
                await _refuse(request, context)
            yield request

    return each()


def _streamed_requests(behaviour: Callable[..., Any], responses_streamed: bool) -> Callable[..., Any]:
    if responses_streamed:
        # An Undecodable message reaches the handler, which ends the stream with its status itself: aborting here,
        # while the client may still be writing, is what some clients read as INTERNAL. (No wrapper: one more async
        # generator would only add a step per message.)
        return behaviour

    async def unary(requests: AsyncIterator[Any], context: Context) -> Any:
        return await behaviour(_checked(requests, context), context)

    return unary


def _handler(method: MethodDescriptor, behaviour: Callable[..., Any]) -> grpc.RpcMethodHandler[Any, Any]:
    decode = _decoder(method.input_type)
    encode = message_factory.GetMessageClass(method.output_type).SerializeToString
    parts: dict[str, Any] = {"request_deserializer": decode, "response_serializer": encode}
    if method.client_streaming:
        wrapped = _streamed_requests(behaviour, method.server_streaming)
        if method.server_streaming:
            return grpc.stream_stream_rpc_method_handler(wrapped, **parts)
        return grpc.stream_unary_rpc_method_handler(wrapped, **parts)
    if method.server_streaming:

        async def stream(request: Any, context: Context) -> AsyncIterator[Any]:
            if isinstance(request, Undecodable):
                await _refuse(request, context)
            async for response in behaviour(request, context):
                yield response

        return grpc.unary_stream_rpc_method_handler(stream, **parts)
    return grpc.unary_unary_rpc_method_handler(_unary_request(behaviour), **parts)


def add_oracle_service(servicer: object, server: grpc.aio.Server) -> None:
    """Add `servicer` (an OracleServiceServicer) to `server` as the generated code would, but with request
    deserializers that turn undecodable bytes into INVALID_ARGUMENT."""
    handlers = {method.name: _handler(method, getattr(servicer, method.name)) for method in SERVICE.methods}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE.full_name, handlers),))
    server.add_registered_method_handlers(SERVICE.full_name, handlers)


__all__ = ["Undecodable", "add_oracle_service"]
