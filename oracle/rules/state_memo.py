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

from oracle.model.errors import FieldProblem
from oracle.model.lru import LRU
from oracle.model.state import GameState
from oracle.rules import rules_memo
from oracle.rules.state_check import validate_state
from oracle.ruleset.compiled import CompiledRules

CAPACITY = 1024  #: states remembered (each entry holds a state the caller built anyway, a few KB)


class StateMemo:
    """A bounded, thread-safe LRU of validation results by (rule set, state content).

    Entries are found by (id of the rule set, hash of the state) and hold the rule set and the state themselves:
    the id cannot be reused while the entry lives, and a hit compares the states (identical, or equal in content),
    so two states whose hashes collide share a slot, one at a time, and never an answer.
    """

    def __init__(self, capacity: int = CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"a state memo needs room for at least 1 state, not {capacity}")
        self.capacity = capacity
        self._entries: LRU[tuple[int, int], tuple[CompiledRules, GameState, tuple[FieldProblem, ...]]]
        self._entries = LRU(capacity)
        self.hits = 0  #: answers from memory (diagnostics)
        self.misses = 0  #: states validated

    def problems(self, rules: CompiledRules, state: GameState, prefix: str = "state") -> list[FieldProblem]:
        """validate_state(rules, state, prefix), from memory when this state was judged under these rules."""
        if prefix != "state":  # problems name their paths; only the common prefix is remembered
            return validate_state(rules, state, prefix)
        try:
            key = (id(rules), hash(state))
        except TypeError:  # a state built by hand with a list somewhere: judged, not remembered
            return validate_state(rules, state, prefix)
        entry = self._entries.get(key)
        if entry is not None and entry[0] is rules and (entry[1] is state or entry[1] == state):
            self.hits += 1
            return list(entry[2])
        self.misses += 1
        found = validate_state(rules, state, prefix)
        self._entries.put(key, (rules, state, tuple(found)))
        return found

    def clear(self) -> None:
        """Forget every state, and what the checks remembered of their parts (oracle.rules.rules_memo)."""
        self._entries.clear()
        rules_memo.clear()

    def __len__(self) -> int:
        return len(self._entries)


MEMO = StateMemo()  #: the process's memo (what check_action and is_legal use)


def state_problems(rules: CompiledRules, state: GameState) -> list[FieldProblem]:
    """The consistency problems of `state` under `rules` (empty: valid), remembered for states seen lately."""
    return MEMO.problems(rules, state)


__all__ = ["CAPACITY", "MEMO", "StateMemo", "state_problems"]
