"""Regenerates the committed protobuf/gRPC Python code from proto/ (never edit the output by hand)."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

PROTO_FILES = (
    "oracle/api/v1/cards.proto",
    "oracle/api/v1/ruleset.proto",
    "oracle/api/v1/scoring.proto",
    "oracle/api/v1/game.proto",
    "oracle/api/v1/record.proto",
    "oracle/api/v1/conformance.proto",
    "oracle/api/v1/notation.proto",
    "oracle/api/v1/oracle.proto",
)
GRPC_FILES = ("oracle/api/v1/oracle.proto",)


def generate(proto_root: Path, out_dir: Path) -> None:
    """Run protoc (from grpcio-tools) over PROTO_FILES, writing *_pb2.py, .pyi and *_pb2_grpc.py into out_dir."""
    from grpc_tools import protoc  # test/dev dependency only

    include = str(resources.files("grpc_tools") / "_proto")
    base = ["protoc", f"-I{proto_root}", f"-I{include}"]
    out_dir.mkdir(parents=True, exist_ok=True)
    args = [*base, f"--python_out={out_dir}", f"--pyi_out={out_dir}", *PROTO_FILES]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed: {' '.join(args)}")
    args = [*base, f"--grpc_python_out={out_dir}", *GRPC_FILES]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed: {' '.join(args)}")


def main() -> int:
    """Regenerate into the source tree (run from the repository root)."""
    root = Path(__file__).resolve().parent.parent
    generate(root / "proto", root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
