"""Validation that does not repeat itself: the problems of a state, remembered by content for the states seen last.

A caller that asks about several actions in one position (a bot weighing its
moves, a client checking each candidate) sends the same state again and
again; building it from the request is unavoidable, judging its consistency
again is not. `state_problems` answers from a bounded LRU keyed by the rule set
and the state's content (a GameState is a frozen value: equal states hash
alike), and runs the full `validate_state` for a state it has not seen.
States that come out of the oracle's own transitions are valid by
construction: replay and the live referee pass validate=False, and a state
that check_action made from a validated state by a legal action is vouched
for (`vouch`), so that judging it next (a bot asking about the position its
last move led to, a simulation, a search that expands thousands of positions
and comes back to them) finds it by identity, without hashing it, for as
long as the state object lives.
"""

from __future__ import annotations

import weakref

from oracle.model.errors import FieldProblem
from oracle.model.lru import LRU
from oracle.model.state import GameState
from oracle.rules import rules_memo
from oracle.rules.state_check import validate_state
from oracle.ruleset.compiled import CompiledRules

CAPACITY = 1024  #: states remembered (each entry holds a state the caller built anyway, a few KB)


class Vouched:
    """The states the oracle made, by identity, each for as long as it lives (a weak reference whose callback
    forgets it): no bound on how many a caller holds, and nothing kept alive here but the rule sets they were made
    under. An id is reused only after its object is gone, and the entry is gone by then."""

    def __init__(self) -> None:
        #: by the id of the state: a weak reference to it, and the rule set it is valid under
        self._made: dict[int, tuple[weakref.ref[GameState], CompiledRules]] = {}

    def add(self, rules: CompiledRules, state: GameState) -> None:
        """Remember `state` as valid under `rules` while it lives."""
        key, made = id(state), self._made

        def forget(ref: weakref.ref[GameState]) -> None:  # the state is going: forget it, unless vouched anew
            entry = made.get(key)
            if entry is not None and entry[0] is ref:
                made.pop(key, None)  # (a clear() in another thread may have taken it already)

        made[key] = (weakref.ref(state, forget), rules)

    def valid_under(self, rules: CompiledRules, state: GameState) -> bool:
        """True when `state` itself (not an equal one) was vouched for under `rules` itself."""
        entry = self._made.get(id(state))
        return entry is not None and entry[1] is rules and entry[0]() is state

    def clear(self) -> None:
        """Forget every state."""
        self._made.clear()

    def __len__(self) -> int:
        return len(self._made)


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
        self._vouched = Vouched()  #: the states the oracle made, each while it lives
        self.hits = 0  #: answers from memory (diagnostics)
        self.misses = 0  #: states validated

    def vouch(self, rules: CompiledRules, state: GameState) -> None:
        """Remember `state` as valid under `rules` by identity: the caller made it by the oracle's own transition
        from a state valid under `rules` (check_action after a legal action). A GameState is frozen, so the object
        cannot change while it is remembered, and it is remembered while it lives."""
        self._vouched.add(rules, state)

    def problems(self, rules: CompiledRules, state: GameState, prefix: str = "state") -> list[FieldProblem]:
        """validate_state(rules, state, prefix), from memory when this state was judged under these rules."""
        if prefix != "state":  # problems name their paths; only the common prefix is remembered
            return validate_state(rules, state, prefix)
        if self._vouched.valid_under(rules, state):
            self.hits += 1
            return []
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
        self._vouched.clear()
        rules_memo.clear()

    def __len__(self) -> int:
        return len(self._entries)


MEMO = StateMemo()  #: the process's memo (what check_action and is_legal use)


def state_problems(rules: CompiledRules, state: GameState) -> list[FieldProblem]:
    """The consistency problems of `state` under `rules` (empty: valid), remembered for states seen lately."""
    return MEMO.problems(rules, state)


def vouch(rules: CompiledRules, state: GameState) -> None:
    """Remember a state the oracle made from a valid state by a legal action as valid (StateMemo.vouch)."""
    MEMO.vouch(rules, state)


__all__ = ["CAPACITY", "MEMO", "StateMemo", "Vouched", "state_problems", "vouch"]
