"""Regenerates the committed protobuf/gRPC Python code from proto/ (never edit the output by hand)."""

from __future__ import annotations

import shutil
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
CONNECT_FILES = GRPC_FILES  #: *_connect.py: the Connect (HTTP) application and clients, by protoc-gen-connectrpc
CONNECT_PLUGIN = "protoc-gen-connectrpc"  #: from the PyPI package of that name (test extra, pinned)


def generate(proto_root: Path, out_dir: Path) -> None:
    """Run protoc (from grpcio-tools) over PROTO_FILES, writing *_pb2.py, .pyi, *_pb2_grpc.py and *_connect.py into
    out_dir."""
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
    plugin = f"--plugin={CONNECT_PLUGIN}={_connect_plugin()}"
    args = [*base, plugin, f"--connectrpc_out={out_dir}", "--connectrpc_opt=protobuf=google", *CONNECT_FILES]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed: {' '.join(args)}")


def _connect_plugin() -> str:
    """The Connect plugin's executable: beside this Python's (a virtual environment's bin/), else on PATH."""
    beside = Path(sys.executable).parent / CONNECT_PLUGIN
    found = str(beside) if beside.exists() else shutil.which(CONNECT_PLUGIN)
    if found is None:
        raise RuntimeError(f"{CONNECT_PLUGIN} not found: install the test extra (pip install -e '.[test]')")
    return found


def main() -> int:
    """Regenerate into the source tree (run from the repository root)."""
    root = Path(__file__).resolve().parent.parent
    generate(root / "proto", root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
