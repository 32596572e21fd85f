"""Which core a process runs (oracle.build), as `--version` and the bench report it, and setup.py's refusal of a
CANASTA_ORACLE_COMPILE value it does not know. The compiled build itself is compared with the pure one by
scripts/check-compiled (run by .ci/run)."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.machinery import ModuleSpec
from pathlib import Path

import pytest
from click.testing import CliRunner

from oracle import build
from oracle._version import __version__
from oracle.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def test_the_source_tree_runs_the_pure_core() -> None:
    assert build.core_build() == "pure Python"


@pytest.mark.parametrize(
    ("suffixes", "expected"),
    [((".so", ".so"), "compiled (mypyc)"), ((".py", ".so"), "mixed"), ((".py", ".py"), "pure Python")],
)
def test_the_build_is_told_by_where_the_probes_are_found(
    monkeypatch: pytest.MonkeyPatch, suffixes: tuple[str, str], expected: str
) -> None:
    origins = {
        name: f"/site/{name.replace('.', '/')}" + (".cpython-311-x86_64-linux-gnu.so" if s == ".so" else ".py")
        for name, s in zip(build.PROBES, suffixes, strict=True)
    }
    monkeypatch.setattr(build, "find_spec", lambda name: ModuleSpec(name, None, origin=origins[name]))
    monkeypatch.setattr(build, "EXTENSION_SUFFIXES", [".cpython-311-x86_64-linux-gnu.so", ".abi3.so", ".so"])
    assert build.core_build() == expected


def test_version_names_the_core() -> None:
    result = CliRunner().invoke(main, ["--version"], prog_name="canasta-oracle")
    assert result.exit_code == 0
    assert result.output.strip() == f"canasta-oracle, version {__version__} (core: pure Python)"


def test_setup_refuses_an_unknown_compile_setting() -> None:
    env = {**os.environ, "CANASTA_ORACLE_COMPILE": "yes"}
    done = subprocess.run(
        [sys.executable, "setup.py", "--name"], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode != 0
    assert "CANASTA_ORACLE_COMPILE must be 1 (compile the core with mypyc) or 0 (pure Python), not 'yes'" in done.stderr


def test_setup_refuses_to_compile_an_editable_install() -> None:
    env = {**os.environ, "CANASTA_ORACLE_COMPILE": "1"}
    done = subprocess.run(
        [sys.executable, "setup.py", "editable_wheel"], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode != 0 and "is for wheel builds" in done.stderr


def test_the_server_says_which_core_it_runs() -> None:
    from oracle.service.config import ServeConfig
    from oracle.service.server import describe

    assert describe(ServeConfig()).endswith("; core: pure Python")
