"""The verify command's results on disk, keyed by the rule set's content and the code that verifies it.

A rule set that verified cleanly (every property proved, no lint error, no
engine-against-model disagreement) is stored as JSON under
``<oracle.ruleset.cache.cache_dir()>/verify/<key>.json``; a later run with the same key reads
it back instead of asking the solver anything. The key is the SHA-256 of

* gate.content_hash: the resolved rule set's deterministic serialisation and
  the oracle version;
* code_hash: the z3 version and the source of every module verify's answer
  depends on (oracle.api, model, ruleset, rules and verify), so a change to a
  property, the model, the lint or the engine misses the cache.

Only documents are read and written here; report.py turns them into results
and back. A failure is never stored (report.py stores only clean results) and
a document that does not parse, or that is not a clean result, is a miss. An
unwritable cache directory only means no cache.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path

import z3

from oracle.ruleset.cache import cache_dir, source_digest
from oracle.ruleset.compiled import CompiledRules
from oracle.verify.gate import content_hash

#: The subpackages of oracle whose source decides what verify reports (the layers it reads, and itself).
CODE_PACKAGES = ("api", "model", "ruleset", "rules", "verify")

#: Bumped when the document's layout changes.
FORMAT = 2


@functools.cache
def code_hash() -> str:
    """The SHA-256 (hex) of the z3 version and the source files of CODE_PACKAGES and oracle/_version.py."""
    return source_digest(f"format {FORMAT}; z3 {z3.get_version_string()}", CODE_PACKAGES)


def result_key(rules: CompiledRules) -> str:
    """The cache key of one rule set's verification (see the module docstring)."""
    return hashlib.sha256(f"{content_hash(rules)}:{code_hash()}".encode()).hexdigest()


def _path(key: str) -> Path:
    return cache_dir() / "verify" / f"{key}.json"


def read(rules: CompiledRules) -> dict[str, object] | None:
    """The stored document for this rule set and code, or None (a miss)."""
    try:
        data = json.loads(_path(result_key(rules)).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write(rules: CompiledRules, document: dict[str, object]) -> None:
    """Store a clean result's document atomically; nothing happens where the cache directory is not writable."""
    target = _path(result_key(rules))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(document, out, sort_keys=True)
        os.replace(temporary, target)
    except OSError:
        Path(temporary).unlink(missing_ok=True)


__all__ = ["CODE_PACKAGES", "code_hash", "read", "result_key", "write"]
