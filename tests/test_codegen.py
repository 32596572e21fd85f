"""The committed generated code matches proto/, and every proto element carries a comment (buf style)."""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2

from oracle.codegen import CONNECT_FILES, GRPC_FILES, PROTO_FILES, generate

ROOT = Path(__file__).resolve().parent.parent


def _generated_names() -> list[str]:
    names = []
    for proto in PROTO_FILES:
        stem = proto.removesuffix(".proto")
        names += [f"{stem}_pb2.py", f"{stem}_pb2.pyi"]
    names += [p.removesuffix(".proto") + "_pb2_grpc.py" for p in GRPC_FILES]
    names += [p.removesuffix(".proto") + "_connect.py" for p in CONNECT_FILES]
    return names


def test_regenerating_changes_nothing(tmp_path: Path) -> None:
    generate(ROOT / "proto", tmp_path)
    for name in _generated_names():
        fresh = (tmp_path / name).read_bytes()
        committed = (ROOT / name).read_bytes()
        assert fresh == committed, f"{name} differs from protoc's output: run python -m oracle.codegen"
    produced = {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.py*")}
    assert produced == set(_generated_names()), "codegen's file lists and the committed files disagree"


def _descriptor_set(tmp_path: Path) -> descriptor_pb2.FileDescriptorSet:
    out = tmp_path / "set.pb"
    include = str(resources.files("grpc_tools") / "_proto")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "grpc_tools.protoc",
            f"-I{ROOT / 'proto'}",
            f"-I{include}",
            "--include_source_info",
            f"--descriptor_set_out={out}",
            *PROTO_FILES,
        ],
        check=True,
    )
    return descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())


def _element_paths(file: descriptor_pb2.FileDescriptorProto) -> dict[tuple[int, ...], str]:
    """Source-info paths of every message, field, enum, enum value, service and RPC, with a name each."""
    paths: dict[tuple[int, ...], str] = {}

    def message(msg: descriptor_pb2.DescriptorProto, path: tuple[int, ...], name: str) -> None:
        paths[path] = name
        for i, field in enumerate(msg.field):
            paths[(*path, 2, i)] = f"{name}.{field.name}"
        for i, nested in enumerate(msg.nested_type):
            message(nested, (*path, 3, i), f"{name}.{nested.name}")
        for i, enum_type in enumerate(msg.enum_type):
            enum(enum_type, (*path, 4, i), f"{name}.{enum_type.name}")

    def enum(e: descriptor_pb2.EnumDescriptorProto, path: tuple[int, ...], name: str) -> None:
        paths[path] = name
        for i, value in enumerate(e.value):
            paths[(*path, 2, i)] = f"{name}.{value.name}"

    for i, msg in enumerate(file.message_type):
        message(msg, (4, i), msg.name)
    for i, e in enumerate(file.enum_type):
        enum(e, (5, i), e.name)
    for i, service in enumerate(file.service):
        paths[(6, i)] = service.name
        for j, method in enumerate(service.method):
            paths[(6, i, 2, j)] = f"{service.name}.{method.name}"
    return paths


def test_every_message_field_enum_and_rpc_has_a_comment(tmp_path: Path) -> None:
    uncommented = []
    for file in _descriptor_set(tmp_path).file:
        comments = {tuple(loc.path): loc.leading_comments.strip() for loc in file.source_code_info.location}
        for path, name in _element_paths(file).items():
            if not comments.get(path):
                uncommented.append(f"{file.name}: {name}")
    assert not uncommented, "elements without a leading comment:\n" + "\n".join(uncommented)


@pytest.mark.parametrize("proto", PROTO_FILES)
def test_buf_style_enums_start_unspecified(proto: str, tmp_path: Path) -> None:
    files = {f.name: f for f in _descriptor_set(tmp_path).file}
    for enum in files[proto].enum_type:
        first = enum.value[0]
        assert first.number == 0 and first.name.endswith("_UNSPECIFIED"), enum.name
        prefix = "".join("_" + c if c.isupper() else c.upper() for c in enum.name).lstrip("_")
        assert all(v.name.startswith(prefix + "_") for v in enum.value), enum.name
