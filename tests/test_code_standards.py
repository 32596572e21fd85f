"""Project standards that a reviewer would otherwise check by hand: ruff, module headers, module size."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(
    p for p in (ROOT / "oracle").rglob("*.py") if not p.name.endswith(("_pb2.py", "_pb2_grpc.py", "_connect.py"))
)


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", str(ROOT)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_module_starts_with_one_line_saying_its_job(path: Path) -> None:
    docstring = ast.get_docstring(ast.parse(path.read_text()))
    assert docstring, f"{path.name} has no module docstring"
    assert docstring.splitlines()[0].strip(), f"{path.name}: the first docstring line is empty"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_module_is_under_600_lines(path: Path) -> None:
    assert len(path.read_text().splitlines()) <= 600
