"""The command line for the front-end tests: run it in-process, write positions to files, read `explain`'s answers."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from click.testing import CliRunner

from oracle.cli.main import main


def run(*args: str) -> tuple[int, str]:
    """The exit code and standard output of `canasta-oracle ARGS` (an exception other than an exit fails the test)."""
    result = CliRunner().invoke(main, list(args), prog_name="canasta-oracle")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout


def json_files(folder: Path, contents: Mapping[str, object]) -> dict[str, str]:
    """Each of `contents` written as JSON to `folder`/NAME.json: the paths by name."""
    out = {}
    for name, content in contents.items():
        path = folder / f"{name}.json"
        path.write_text(json.dumps(content), encoding="utf-8")
        out[name] = str(path)
    return out


def check_refused(state_path: str, action: str, expected: str) -> None:
    """`check --state STATE_PATH --action ACTION` exits 1, says the action is illegal and lists a violation line
    starting with `expected` (CODE (field): words)."""
    code, out = run("check", "--state", state_path, "--action", action)
    assert code == 1, out
    assert out.splitlines()[0] == f"illegal: {action}"
    assert any(line.startswith(f"  {expected}") for line in out.splitlines()), out


def explained_field(path: str, comment_longer_than: int) -> tuple[str, list[str], str]:
    """`explain PATH` succeeds and opens with the field's comment in the proto (more than `comment_longer_than`
    characters past the path): its output, its lines and the line of the field's values by rule set."""
    code, out = run("explain", path)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"{path}: ") and len(lines[0]) > len(path) + comment_longer_than
    values = next(line for line in lines if line.startswith(f"  {path} = "))
    return out, lines, values


def explained_code(code_name: str, field: str, sentence_longer_than: int) -> str:
    """`explain CODE` succeeds, says the rule in a sentence (more than `sentence_longer_than` characters past the
    code) and names its rule-set field `field`: its output."""
    code, out = run("explain", code_name)
    assert code == 0
    first, second = out.splitlines()[:2]
    assert first.startswith(f"{code_name}: ") and len(first) > len(code_name) + sentence_longer_than  # a sentence
    assert second == f"rule-set field: {field}"
    return out


__all__ = ["check_refused", "explained_code", "explained_field", "json_files", "run"]
