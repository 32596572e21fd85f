"""The built wheel carries the rule sets and generated code, and works without the source tree."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)], check=True, timeout=300
    )
    (built,) = out.glob("canasta_oracle-*.whl")
    return built


@pytest.mark.slow
def test_wheel_contains_specs_and_generated_code(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for spec in (ROOT / "specs").glob("*.textproto"):
        assert f"oracle/specs/{spec.name}" in names
    for generated in (ROOT / "oracle" / "api" / "v1").glob("*_pb2*.py"):
        assert f"oracle/api/v1/{generated.name}" in names
    assert "oracle/cli/main.py" in names
    source_modules = {f"oracle/{p.relative_to(ROOT / 'oracle').as_posix()}" for p in (ROOT / "oracle").rglob("*.py")}
    assert source_modules <= names, f"modules missing from the wheel: {sorted(source_modules - names)}"
    assert any(n.startswith("oracle/conformance/data/perft/") and n.endswith(".json") for n in names)
    assert "oracle/conformance/data/records/classic-2p/game-0.json" in names
    assert "oracle/conformance/data/cases/melds.json" in names
    assert not any(n.startswith(("specs/", "tests/", "conformance/")) for n in names), "stray top-level package"


@pytest.mark.slow
def test_rule_sets_load_from_the_installed_wheel(wheel: Path, tmp_path: Path) -> None:
    code = (
        "import oracle, oracle.api.v1.oracle_pb2_grpc, oracle.verify.lint\n"
        "assert oracle.verify.lint.__file__.startswith(" + repr(str(wheel)) + "), oracle.verify.lint.__file__\n"
        "from oracle.ruleset.loader import default_rule_book\n"
        "assert oracle.__file__.startswith(" + repr(str(wheel)) + "), oracle.__file__\n"
        "print(default_rule_book().ids())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(wheel)}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    ids = ast.literal_eval(result.stdout.strip())  # a printed list of ids
    assert {"classic-2p", "classic-4p"} <= set(ids) and len(ids) >= 10


@pytest.mark.slow
def test_wheel_contains_the_web_page(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    page = {f"oracle/service/web/{p.name}" for p in (ROOT / "oracle" / "service" / "web").iterdir() if p.is_file()}
    assert "oracle/service/web/index.html" in page
    assert page <= names, f"web files missing from the wheel: {sorted(page - names)}"
