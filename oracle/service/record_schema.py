"""Derives the JSON Schema of game-record files (docs/record.schema.json) from the protos and their comments."""

from __future__ import annotations

import json
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

from google.protobuf import descriptor_pb2

ROOT = "oracle.api.v1.GameRecord"
SCHEMA_PATH = "docs/record.schema.json"
_INTEGERS = {
    descriptor_pb2.FieldDescriptorProto.TYPE_INT32,
    descriptor_pb2.FieldDescriptorProto.TYPE_SINT32,
    descriptor_pb2.FieldDescriptorProto.TYPE_SFIXED32,
    descriptor_pb2.FieldDescriptorProto.TYPE_UINT32,
    descriptor_pb2.FieldDescriptorProto.TYPE_FIXED32,
    descriptor_pb2.FieldDescriptorProto.TYPE_INT64,
    descriptor_pb2.FieldDescriptorProto.TYPE_SINT64,
    descriptor_pb2.FieldDescriptorProto.TYPE_SFIXED64,
    descriptor_pb2.FieldDescriptorProto.TYPE_UINT64,
    descriptor_pb2.FieldDescriptorProto.TYPE_FIXED64,
}


def descriptor_set(proto_root: Path) -> descriptor_pb2.FileDescriptorSet:
    """The record proto and its imports, compiled by protoc (grpcio-tools, a dev dependency) with comments."""
    from grpc_tools import protoc

    include = str(resources.files("grpc_tools") / "_proto")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "set.binpb"
        args = ["protoc", f"-I{proto_root}", f"-I{include}", f"--descriptor_set_out={out}"]
        args += ["--include_source_info", "--include_imports", "oracle/api/v1/record.proto"]
        if protoc.main(args) != 0:
            raise RuntimeError(f"protoc failed: {' '.join(args)}")
        files = descriptor_pb2.FileDescriptorSet()
        files.ParseFromString(out.read_bytes())
    return files


class _Index:
    """Every message and enum by full name, with the comments on messages and fields."""

    def __init__(self, files: descriptor_pb2.FileDescriptorSet) -> None:
        self.messages: dict[str, descriptor_pb2.DescriptorProto] = {}
        self.enums: dict[str, descriptor_pb2.EnumDescriptorProto] = {}
        self.comments: dict[str, str] = {}
        for file in files.file:
            notes = {tuple(loc.path): loc.leading_comments.strip() for loc in file.source_code_info.location}
            for i, msg in enumerate(file.message_type):
                self._message(msg, f"{file.package}.{msg.name}", (4, i), notes)
            for i, enum in enumerate(file.enum_type):
                self.enums[f"{file.package}.{enum.name}"] = enum
                self.comments[f"{file.package}.{enum.name}"] = notes.get((5, i), "")

    def _message(
        self, msg: descriptor_pb2.DescriptorProto, name: str, path: tuple[int, ...], notes: dict[tuple[int, ...], str]
    ) -> None:
        self.messages[name] = msg
        self.comments[name] = notes.get(path, "")
        for i, field in enumerate(msg.field):
            self.comments[f"{name}.{field.name}"] = notes.get((*path, 2, i), "")
        for i, nested in enumerate(msg.nested_type):
            self._message(nested, f"{name}.{nested.name}", (*path, 3, i), notes)


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _value_schema(field: descriptor_pb2.FieldDescriptorProto, wanted: list[str]) -> dict[str, Any]:
    kind = field.type
    if kind in _INTEGERS:
        return {"type": ["integer", "string"], "pattern": "^-?[0-9]+$"}  # a pattern constrains strings only
    if kind == descriptor_pb2.FieldDescriptorProto.TYPE_BOOL:
        return {"type": "boolean"}
    if kind in (descriptor_pb2.FieldDescriptorProto.TYPE_STRING, descriptor_pb2.FieldDescriptorProto.TYPE_BYTES):
        return {"type": "string"}
    if kind in (descriptor_pb2.FieldDescriptorProto.TYPE_FLOAT, descriptor_pb2.FieldDescriptorProto.TYPE_DOUBLE):
        return {"type": "number"}
    target = field.type_name.lstrip(".")
    wanted.append(target)
    return {"$ref": f"#/$defs/{_short(target)}"}


def _message_schema(index: _Index, name: str, wanted: list[str]) -> dict[str, Any]:
    msg = index.messages[name]
    properties: dict[str, Any] = {}
    for field in msg.field:
        value = _value_schema(field, wanted)
        if field.label == descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED:
            value = {"type": "array", "items": value}
        described = {"description": index.comments.get(f"{name}.{field.name}", ""), **value}
        properties[field.json_name] = described
        if field.name != field.json_name:
            properties[field.name] = {"description": f"Same as {field.json_name}.", **value}
    schema: dict[str, Any] = {"type": "object", "description": index.comments.get(name, "")}
    schema["properties"] = properties
    schema["additionalProperties"] = False
    oneofs: dict[int, list[str]] = {}
    for field in msg.field:
        if field.HasField("oneof_index") and not field.proto3_optional:
            oneofs.setdefault(field.oneof_index, []).append(field.json_name)
    for k, names in sorted(oneofs.items()):
        schema.setdefault("allOf", []).append(
            {
                "description": f"At most one of {', '.join(names)} ({msg.oneof_decl[k].name}).",
                "not": {"anyOf": [{"required": [a, b]} for a in names for b in names if a < b]},
            }
        )
    return schema


def _enum_schema(index: _Index, name: str) -> dict[str, Any]:
    names = [value.name for value in index.enums[name].value]
    return {
        "description": index.comments.get(name, "") + " (by name, or by number)",
        "anyOf": [{"type": "string", "enum": names}, {"type": "integer"}],
    }


def record_schema(files: descriptor_pb2.FileDescriptorSet) -> dict[str, Any]:
    """The JSON Schema (2020-12) of a GameRecord in proto3 JSON, one definition per message and enum it uses."""
    index = _Index(files)
    definitions: dict[str, Any] = {}
    wanted = [ROOT]
    while wanted:
        name = wanted.pop()
        if _short(name) in definitions:
            continue
        if name in index.enums:
            definitions[_short(name)] = _enum_schema(index, name)
        else:
            definitions[_short(name)] = _message_schema(index, name, wanted)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://github.com/canasta-oracle/canasta-oracle/docs/record.schema.json",
        "title": "canasta-oracle game record",
        "description": "A GameRecord (proto/oracle/api/v1/record.proto) in proto3 JSON: one such object per .json"
        " file, or one per line of a .jsonl file. Generated by python -m oracle.service.record_schema; do not edit.",
        "$ref": f"#/$defs/{_short(ROOT)}",
        "$defs": dict(sorted(definitions.items())),
    }


def schema_text(proto_root: Path) -> str:
    """The schema file's text."""
    return json.dumps(record_schema(descriptor_set(proto_root)), indent=2, sort_keys=False) + "\n"


def main() -> int:
    """Write docs/record.schema.json (run from the repository root)."""
    root = Path.cwd()
    (root / SCHEMA_PATH).write_text(schema_text(root / "proto"), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
