"""Validation that does not repeat itself: the problems of a state, remembered by content for the states seen last.

A caller that asks about several actions in one position (a bot weighing its
moves, a client checking each candidate) sends the same state again and
again; building it from the request is unavoidable, judging its consistency
again is not. `state_problems` answers from a bounded LRU keyed by the rule set
and the state's content (a GameState is a frozen value: equal states hash
alike), and runs the full `validate_state` for a state it has not seen.
States that come out of the oracle's own transitions are valid by
construction and are never validated at all (replay and the live referee
pass validate=False).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from oracle.model.errors import FieldProblem
from oracle.model.state import GameState
from oracle.rules import rules_memo
from oracle.rules.state_check import validate_state
from oracle.ruleset.compiled import CompiledRules

CAPACITY = 1024  #: states remembered (each entry holds a state the caller built anyway, a few KB)


class _Key:
    """(rule set, state) with the state's hash computed once (a GameState does not cache its own)."""

    __slots__ = ("hash", "rules", "state")

    def __init__(self, rules: int, state: GameState, state_hash: int) -> None:
        self.rules = rules
        self.state = state
        self.hash = hash((rules, state_hash))

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Key)
            and self.hash == other.hash
            and self.rules == other.rules
            and (self.state is other.state or self.state == other.state)
        )


class StateMemo:
    """A bounded, thread-safe LRU of validation results by (rule set, state content)."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"a state memo needs room for at least 1 state, not {capacity}")
        self.capacity = capacity
        # Keyed by id(rules): the entry holds the rules themselves, so the id cannot be reused while it lives.
        self._entries: OrderedDict[_Key, tuple[CompiledRules, tuple[FieldProblem, ...]]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def problems(self, rules: CompiledRules, state: GameState, prefix: str = "state") -> list[FieldProblem]:
        """validate_state(rules, state, prefix), from memory when this state was judged under these rules."""
        if prefix != "state":  # problems name their paths; only the common prefix is remembered
            return validate_state(rules, state, prefix)
        try:
            key = _Key(id(rules), state, hash(state))
        except TypeError:  # a state built by hand with a list somewhere: judged, not remembered
            return validate_state(rules, state, prefix)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return list(entry[1])
            self.misses += 1
        found = validate_state(rules, state, prefix)
        with self._lock:
            self._entries[key] = (rules, tuple(found))
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)
        return found

    def clear(self) -> None:
        """Forget every state, and what the checks remembered of their parts (oracle.rules.rules_memo)."""
        with self._lock:
            self._entries.clear()
        rules_memo.clear()

    def __len__(self) -> int:
        return len(self._entries)


MEMO = StateMemo()  #: the process's memo (what check_action and is_legal use)


def state_problems(rules: CompiledRules, state: GameState) -> list[FieldProblem]:
    """The consistency problems of `state` under `rules` (empty: valid), remembered for states seen lately."""
    return MEMO.problems(rules, state)


__all__ = ["CAPACITY", "MEMO", "StateMemo", "state_problems"]
