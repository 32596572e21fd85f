"""The bodies of Connect calls: the protobuf JSON mapping and the binary format (else Undecodable).

A body that does not parse is handed to the handler (not refused by the Connect library), so that the call layers
(token, admission, log, metrics) see it first and it is answered INVALID_ARGUMENT exactly as undecodable bytes
are over gRPC (oracle.service.decoding).
"""

from __future__ import annotations

from typing import cast

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor
from google.protobuf.message import DecodeError, Message
from google.rpc import code_pb2, status_pb2

from oracle.model.errors import FieldProblem
from oracle.service.bounded import bad_request
from oracle.service.decoding import Undecodable


class UndecodableJson(Undecodable):
    """A request body that does not parse as the method's message in the protobuf JSON mapping."""

    def __init__(self, message_type: str, size: int, reason: str) -> None:
        self.message_type = message_type
        self.size = size
        self.reason = reason

    def status(self) -> status_pb2.Status:
        """INVALID_ARGUMENT naming the message type and what the JSON parser found wrong."""
        text = f"request JSON does not parse as {self.message_type} ({self.size} bytes): {self.reason}"
        status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=text)
        status.details.add().Pack(bad_request([FieldProblem("", text)]))
        return status


class JsonCodec:
    """The protobuf JSON mapping (field names in lowerCamelCase; unknown fields refused, never dropped).

    A body that does not parse is handed to the handler as UndecodableJson, which answers INVALID_ARGUMENT after
    the call layers ran, exactly as undecodable bytes are answered over gRPC.
    """

    def name(self) -> str:
        """The codec's name in the content type (application/json)."""
        return "json"

    def encode(self, message: Message) -> bytes:
        """The message in the JSON mapping, on one line (indenting costs a third more server time per call)."""
        return json_format.MessageToJson(message, indent=None).encode()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message | Undecodable:
        """The parsed message, or UndecodableJson saying why it does not parse."""
        message = message_class()
        try:
            json_format.Parse(bytes(data), message, ignore_unknown_fields=False)
        except (json_format.ParseError, UnicodeDecodeError, RecursionError, ValueError) as exc:
            return UndecodableJson(message.DESCRIPTOR.full_name, len(data), str(exc))
        return message


class BinaryCodec:
    """The protobuf binary format (application/proto); bytes that do not parse become Undecodable, as on gRPC."""

    def name(self) -> str:
        """The codec's name in the content type (application/proto)."""
        return "proto"

    def encode(self, message: Message) -> bytes:
        """The message's bytes."""
        return message.SerializeToString()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message | Undecodable:
        """The parsed message, or Undecodable."""
        try:
            return message_class.FromString(bytes(data))
        except (DecodeError, RecursionError, ValueError):
            return Undecodable(cast(Descriptor, message_class.DESCRIPTOR), len(data))


__all__ = ["BinaryCodec", "JsonCodec", "UndecodableJson"]
