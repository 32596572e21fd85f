"""Memory that belongs to one compiled rule set: a bounded dict per CompiledRules object, found by identity.

A compiled rule set is immutable, so whatever the rules derive from a value
(a side's melds judged under them, say) can be remembered beside it. The
entry holds the rules object itself, so its id cannot be reused while the
entry lives; the number of tables (so of rule sets held) and the entries per table
are both bounded (inline rule sets come and go).
"""

from __future__ import annotations

from typing import Any

from oracle.ruleset.compiled import CompiledRules

TABLES = 32  #: tables remembered at once, over all rule sets (the shipped ones and the inline ones in use)
ENTRIES = 2048  #: entries per table before it is emptied (at most TABLES * ENTRIES values held: a few tens of MB)

_TABLES: dict[tuple[int, str], tuple[CompiledRules, dict[Any, Any]]] = {}


def table(rules: CompiledRules, name: str) -> dict[Any, Any]:
    """The memo table `name` of `rules` (created empty; emptied when it reaches ENTRIES)."""
    key = (id(rules), name)
    found = _TABLES.get(key)
    if found is None or found[0] is not rules:
        if len(_TABLES) >= TABLES:
            _TABLES.clear()
        found = _TABLES[key] = (rules, {})
    elif len(found[1]) >= ENTRIES:
        found[1].clear()
    return found[1]


def clear() -> None:
    """Forget everything (for tests)."""
    _TABLES.clear()
