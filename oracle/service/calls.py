"""Layers around every call: one server interceptor runs each layer's admit before the handler and finish after.

The interceptor is on the path of every call, so it does per method what it can once: the wrapped handler of a
method is made on its first call and kept, and the service and method names are split then. Sizes are the bytes on
the wire: for a handler that has a request deserializer and a response serializer (every gRPC method), the wrapped
handler takes the request's bytes and gives the response's bytes, decoding and encoding them itself, so a message is
never encoded once more only to be measured (a handler without them, as over HTTP, counts each message's ByteSize).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from typing import Any, Protocol

import grpc

Context = grpc.aio.ServicerContext[Any, Any]
Codec = Callable[[Any], Any]


class Call:
    """One call as the layers see it: which method, how much came and went (sizes in bytes), when it began."""

    __slots__ = (
        "context",
        "method",
        "name",
        "peer",
        "request_bytes",
        "requests",
        "response_bytes",
        "responses",
        "service",
        "started",
        "streaming",
    )

    def __init__(self, method: str, streaming: bool, context: Context) -> None:
        self.method = method  #: the full gRPC method, "/package.Service/Method"
        self.service, self.name = _split(method)  #: e.g. "oracle.api.v1.OracleService" and "CheckAction"
        self.streaming = streaming  #: requests or responses (or both) stream
        self.context = context
        self.started = time.monotonic()
        self.peer: str = context.peer()  #: the client's address (read at once: a cancelled call no longer knows it)
        self.requests = 0
        self.request_bytes = 0
        self.responses = 0
        self.response_bytes = 0

    def received(self, message: object) -> None:
        """Count one request message (its ByteSize)."""
        self.requests += 1
        self.request_bytes += _size(message)

    def sent(self, message: object) -> None:
        """Count one response message (its ByteSize)."""
        self.responses += 1
        self.response_bytes += _size(message)


_NAMES: dict[str, tuple[str, str]] = {}


def _split(method: str) -> tuple[str, str]:
    """(service, method name) of "/package.Service/Method", remembered (a server has a handful of methods)."""
    names = _NAMES.get(method)
    if names is None:
        names = _NAMES[method] = (method.lstrip("/").partition("/")[0], method.rpartition("/")[2])
    return names


def _size(message: object) -> int:
    byte_size = getattr(message, "ByteSize", None)  # a protobuf message: its serialized size
    return int(byte_size()) if callable(byte_size) else 0


def _wire_size(data: bytes, message: object) -> int:
    """The bytes a request came as, if they decoded as a protobuf message (undecodable bytes count 0, as ever)."""
    return len(data) if hasattr(message, "ByteSize") else 0


class CallLayer(Protocol):
    """One concern around every call (authentication, admission control, logging, metrics)."""

    def admit(self, call: Call) -> Awaitable[None] | None:
        """Let the call in (return None), or end it now: return `call.context.abort(...)` (which the interceptor
        awaits; abort raises, so the call ends there). Most calls are let in without awaiting anything."""

    def finish(self, call: Call, code: grpc.StatusCode) -> None:
        """The call this layer admitted has ended with `code` (never raises)."""


def final_code(context: Context, error: BaseException | None) -> grpc.StatusCode:
    """The status a finished handler gave its call: the one set by abort, else from how it ended."""
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code
    if error is None and not context.cancelled():
        return grpc.StatusCode.OK
    if error is None or isinstance(error, asyncio.CancelledError | GeneratorExit):
        remaining = context.time_remaining()
        expired = remaining is not None and remaining <= 0
        return grpc.StatusCode.DEADLINE_EXCEEDED if expired else grpc.StatusCode.CANCELLED
    return grpc.StatusCode.UNKNOWN  # what gRPC answers for an exception a handler let out


class LayeredInterceptor(grpc.aio.ServerInterceptor):
    """Wraps every method handler so that `layers` admit each call in order and finish it in reverse.

    A layer that aborts in admit ends the call: the layers before it still see it finish, those after never see it.
    Handlers may be coroutines or async generators (as grpc.aio calls them).
    """

    def __init__(self, layers: Sequence[CallLayer]) -> None:
        self._layers = tuple(layers)
        #: method -> (the handler gRPC found, its wrapped handler): the wrapping is done once per method
        self._wrapped: dict[str, tuple[grpc.RpcMethodHandler[Any, Any], grpc.RpcMethodHandler[Any, Any]]] = {}

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any] | None]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        handler = await continuation(handler_call_details)
        if handler is None or not self._layers:
            return handler
        method = handler_call_details.method
        known = self._wrapped.get(method)
        if known is not None and known[0] is handler:
            return known[1]
        wrapped = self._wrap(handler, method)
        self._wrapped[method] = (handler, wrapped)
        return wrapped

    async def _enter(self, call: Call) -> int:
        """Admit `call` through each layer in order: how many admitted it (all of them, unless one aborts, when the
        ones before it are finished here and the abort propagates)."""
        admitted = 0
        try:
            for layer in self._layers:
                refusal = layer.admit(call)
                if refusal is not None:
                    await refusal
                admitted += 1
        except BaseException as exc:
            self._leave(call, admitted, exc)
            raise
        return admitted

    def _leave(self, call: Call, admitted: int, error: BaseException | None) -> None:
        """Finish `call` in the first `admitted` layers, in reverse."""
        code = final_code(call.context, error)
        layers = self._layers
        for i in range(admitted - 1, -1, -1):
            layers[i].finish(call, code)

    def _wrap(self, handler: grpc.RpcMethodHandler[Any, Any], method: str) -> grpc.RpcMethodHandler[Any, Any]:
        streaming = handler.request_streaming or handler.response_streaming
        decode, encode = handler.request_deserializer, handler.response_serializer
        if handler.unary_unary is not None:
            return self._unary(handler.unary_unary, method, False, decode, encode, grpc.unary_unary_rpc_method_handler)
        if handler.stream_unary is not None:
            return self._unary(handler.stream_unary, method, True, decode, encode, grpc.stream_unary_rpc_method_handler)
        if handler.unary_stream is not None:
            return self._stream(
                handler.unary_stream, method, False, decode, encode, grpc.unary_stream_rpc_method_handler
            )
        if handler.stream_stream is not None:
            return self._stream(
                handler.stream_stream, method, True, decode, encode, grpc.stream_stream_rpc_method_handler
            )
        raise TypeError(f"{method}: a method handler without behaviour (streaming={streaming})")

    def _requests(self, request: Any, call: Call, streamed: bool, decode: Codec | None) -> Any:
        """The request (counted), or the request stream wrapped so that each message is counted as it is read;
        with `decode`, the request (or each streamed one) comes as bytes and is decoded here."""
        if not streamed:
            if decode is None:
                call.received(request)
                return request
            message = decode(request)
            call.requests += 1
            call.request_bytes += _wire_size(request, message)
            return message

        async def counted() -> AsyncIterator[Any]:
            async for message in request:
                call.received(message)
                yield message

        async def decoded() -> AsyncIterator[Any]:
            assert decode is not None
            async for data in request:
                message = decode(data)
                call.requests += 1
                call.request_bytes += _wire_size(data, message)
                yield message

        return counted() if decode is None else decoded()

    def _unary(
        self,
        behaviour: Callable[..., Any],
        method: str,
        streamed: bool,
        decode: Codec | None,
        encode: Codec | None,
        make: Callable[..., grpc.RpcMethodHandler[Any, Any]],
    ) -> grpc.RpcMethodHandler[Any, Any]:
        raw = decode is not None and encode is not None  # bytes in and out: sizes from the bytes themselves
        coroutine = inspect.iscoroutinefunction(behaviour)

        async def unary(request: Any, context: Context) -> Any:
            call = Call(method, streamed, context)
            requests = self._requests(request, call, streamed, decode if raw else None)
            admitted = await self._enter(call)
            error: BaseException | None = None
            try:
                response = behaviour(requests, context)
                if coroutine or inspect.isawaitable(response):
                    response = await response
                if raw:
                    assert encode is not None
                    response = encode(response)
                    call.responses += 1
                    call.response_bytes += len(response)
                else:
                    call.sent(response)
            except BaseException as exc:
                error = exc
                raise
            finally:
                self._leave(call, admitted, error)
            return response

        if raw:
            return make(unary)
        return make(unary, request_deserializer=decode, response_serializer=encode)

    def _stream(
        self,
        behaviour: Callable[..., Any],
        method: str,
        streamed: bool,
        decode: Codec | None,
        encode: Codec | None,
        make: Callable[..., grpc.RpcMethodHandler[Any, Any]],
    ) -> grpc.RpcMethodHandler[Any, Any]:
        if not inspect.isasyncgenfunction(behaviour):
            writer = self._writer_stream(behaviour, method, streamed)
            return make(writer, request_deserializer=decode, response_serializer=encode)
        raw = decode is not None and encode is not None

        async def stream(request: Any, context: Context) -> AsyncIterator[Any]:
            call = Call(method, True, context)
            responses = behaviour(self._requests(request, call, streamed, decode if raw else None), context)
            admitted = 0
            error: BaseException | None = None
            try:
                admitted = await self._enter(call)
                async for response in responses:
                    if raw:
                        assert encode is not None
                        data = encode(response)
                        call.responses += 1
                        call.response_bytes += len(data)
                        yield data
                    else:
                        call.sent(response)
                        yield response
            except BaseException as exc:
                error = exc
                raise
            finally:
                try:
                    await responses.aclose()
                finally:
                    if admitted:
                        self._leave(call, admitted, error)

        if raw:
            return make(stream)
        return make(stream, request_deserializer=decode, response_serializer=encode)

    def _writer_stream(self, behaviour: Callable[..., Any], method: str, streamed: bool) -> Callable[..., Any]:
        """A streaming handler that writes with context.write (its responses are not counted) or is a generator."""

        async def stream(request: Any, context: Context) -> None:
            call = Call(method, True, context)
            requests = self._requests(request, call, streamed, None)
            admitted = await self._enter(call)
            error: BaseException | None = None
            try:
                result = behaviour(requests, context)
                if inspect.isawaitable(result):
                    await result
                elif isinstance(result, Iterable):
                    for response in result:
                        call.sent(response)
                        await context.write(response)
            except BaseException as exc:
                error = exc
                raise
            finally:
                self._leave(call, admitted, error)

        return stream


__all__ = ["Call", "CallLayer", "Context", "LayeredInterceptor", "final_code"]
