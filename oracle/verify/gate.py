"""The solver lint as a gate for loading rule sets: contradictions only, cached by the rule set's content hash.

The rule-set layer never imports this package; a caller that wants loading to
refuse contradictory rule sets hands `contradictions` to the loader as its
`checker` (``RuleBook.from_directory(path, checker=contradictions)``). The
server does so for the rule sets it serves and for inline rule sets; the CLI
does so for a user's ``--specs`` directory and for ``rules lint``.

A lint costs tens of milliseconds of Z3 per rule set, so results are kept by
the SHA-256 of the rule set's deterministic serialisation: in memory (least
recently used first out) and, where the directory is writable, on disk under
``$CANASTA_ORACLE_CACHE`` (default ``$XDG_CACHE_HOME/canasta-oracle`` or
``~/.cache/canasta-oracle``), so a restarted server lints an unchanged rule
set for free. The cache stores only (field, message) pairs and is keyed by the
oracle's version too, so a new lint never reads an old answer.

A lint whose solver runs out of its budget (LintBudgetExceeded) refuses the
rule set with a message naming the lint rule and the limit: a rule set the
lint could not check is never loaded as if it had passed. Such a refusal is
not cached (a less loaded machine may finish within the time limit).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from typing import TYPE_CHECKING

from oracle._version import __version__
from oracle.model.lru import LRU
from oracle.ruleset.cache import cache_dir  # the oracle's one cache directory; lint results under lint/
from oracle.ruleset.compiled import CompiledRules

if TYPE_CHECKING:
    from oracle.verify.budget import Budget

MEMORY_ENTRIES = 1024  #: lint results kept in memory
_memory: LRU[str, list[tuple[str, str]]] = LRU(MEMORY_ENTRIES)


def content_hash(rules: CompiledRules) -> str:
    """The SHA-256 (hex) of the resolved rule set's deterministic serialisation and the oracle version."""
    digest = hashlib.sha256(__version__.encode())
    digest.update(rules.spec.SerializeToString(deterministic=True))
    return digest.hexdigest()


def _read_disk(key: str) -> list[tuple[str, str]] | None:
    path = cache_dir() / "lint" / f"{key}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, list) or not all(isinstance(p, list) and len(p) == 2 for p in data):
        return None
    return [(str(field), str(message)) for field, message in data]


def _write_disk(key: str, found: list[tuple[str, str]]) -> None:
    directory = cache_dir() / "lint"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=directory, suffix=".tmp", delete=False, encoding="utf-8") as out:
            json.dump([list(p) for p in found], out)
        os.replace(out.name, directory / f"{key}.json")
    except OSError:
        return  # a read-only home is fine: the memory cache still holds the result


def _remember(key: str, found: list[tuple[str, str]]) -> None:
    _memory.put(key, found)


def contradictions(rules: CompiledRules, budget: Budget | None = None) -> list[tuple[str, str]]:
    """The lint's errors as (field, message) pairs: the loader's `checker` (empty: nothing contradicts).

    `budget` limits each solver query (default budget.LINT_BUDGET); a lint that runs out of it gives one
    refusal naming the rule and the limit.
    """
    key = content_hash(rules) if budget is None else f"{content_hash(rules)}-{budget.rlimit}-{budget.timeout_ms}"
    found = _memory.get(key)
    if found is None:
        found = _read_disk(key)
        if found is None:
            from oracle.verify.budget import LINT_BUDGET  # z3 is imported only when a lint really runs
            from oracle.verify.lint import ERROR, LintBudgetExceeded, lint

            try:
                findings = lint(rules, budget or LINT_BUDGET)
            except LintBudgetExceeded as exc:
                return [(exc.field, f"{exc}; the rule set is refused rather than loaded unchecked (solver lint)")]
            found = [
                (f.field, f"{f.message} (solver lint: contradictory setting)") for f in findings if f.severity == ERROR
            ]
            _write_disk(key, found)
    _remember(key, found)
    return list(found)
