"""Server reflection under both names clients use: grpc.reflection.v1 and the older grpc.reflection.v1alpha.

grpcio-reflection (1.85) ships only v1alpha. The v1 protocol is the same messages, field for field, under the package
grpc.reflection.v1, so one servicer answers both: v1 calls are decoded and encoded with the v1alpha classes, and the
v1 file descriptor (v1alpha's, renamed) is added to the descriptor pool so that reflection can describe itself.
"""

from __future__ import annotations

from collections.abc import Iterable

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection_pb2
from grpc_reflection.v1alpha.reflection import aio as reflection_aio

V1ALPHA_PACKAGE = reflection_pb2.DESCRIPTOR.package  # "grpc.reflection.v1alpha"
V1_PACKAGE = "grpc.reflection.v1"
V1ALPHA_SERVICE = f"{V1ALPHA_PACKAGE}.ServerReflection"
V1_SERVICE = f"{V1_PACKAGE}.ServerReflection"
V1_FILE = "grpc/reflection/v1/reflection.proto"
SERVICES = (V1_SERVICE, V1ALPHA_SERVICE)


def _v1_file() -> descriptor_pb2.FileDescriptorProto:
    """grpc/reflection/v1/reflection.proto, made from the v1alpha file by renaming its package."""
    file = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(file)
    file.name = V1_FILE
    file.package = V1_PACKAGE
    file.options.Clear()
    file.options.java_package = "io.grpc.reflection.v1"
    file.options.java_outer_classname = "ServerReflectionProto"
    file.options.java_multiple_files = True
    file.options.go_package = "google.golang.org/grpc/reflection/grpc_reflection_v1"
    old, new = f".{V1ALPHA_PACKAGE}.", f".{V1_PACKAGE}."
    for message in file.message_type:
        for field in message.field:
            if field.HasField("type_name"):
                field.type_name = field.type_name.replace(old, new)
    for service in file.service:
        for method in service.method:
            method.input_type = method.input_type.replace(old, new)
            method.output_type = method.output_type.replace(old, new)
    return file


def _ensure_v1_descriptor() -> None:
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName(V1_FILE)
    except KeyError:
        pool.Add(_v1_file())


def enable_reflection(server: grpc.aio.Server, service_names: Iterable[str]) -> None:
    """Serve reflection on `server` for `service_names` (and for itself), as v1 and as v1alpha."""
    _ensure_v1_descriptor()
    servicer = reflection_aio.ReflectionServicer((*service_names, *SERVICES))
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        [grpc.method_handlers_generic_handler(name, {"ServerReflectionInfo": handler}) for name in SERVICES]
    )


__all__ = ["V1ALPHA_SERVICE", "V1_SERVICE", "enable_reflection"]
