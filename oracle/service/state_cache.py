"""Request states remembered by their wire bytes: the same bytes again give the same GameState object at once.

A bot weighing its moves sends one position again and again (ListLegalActions,
then a CheckAction per candidate, then the one it plays). Reading a state from
its bytes costs tens of microseconds and validating it more; remembering the
value read by its exact bytes makes the repeat a dictionary lookup, and the
same object then finds its validation in the state memo by identity
(oracle.rules.state_memo). The bytes are the whole key: the value read from
them does not depend on the rule set (the size limits are checked on the value
each time, by the caller). Each entry keeps the wire pieces of its seats and
sides (oracle.service.wire.Pieces), so an answer's next state still copies
their bytes. Bounded and thread-safe; a GameState is immutable, so sharing one
between calls is sharing a value.
"""

from __future__ import annotations

from oracle.model.lru import LRU
from oracle.model.state import GameState
from oracle.service.wire import Pieces

CAPACITY = 256  #: states remembered (the positions in play lately; a few KB each)
MAX_BYTES = 4096  #: longer state bytes are not remembered (a real state is a few hundred bytes)


class DecodedStates:
    """A bounded LRU of the GameState read from each state's bytes, with its seats' and sides' wire pieces."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"a state cache needs room for at least 1 state, not {capacity}")
        self._entries: LRU[bytes, tuple[GameState, tuple[tuple[int, tuple[object, bytes]], ...] | None]]
        self._entries = LRU(capacity)
        self.hits = 0  #: states given from memory (diagnostics)

    def get(self, data: bytes, pieces: Pieces | None) -> GameState | None:
        """The state read from `data` before, its pieces added to `pieces` (when asked for and kept); else None."""
        entry = self._entries.get(data)
        if entry is None or (pieces is not None and entry[1] is None):  # kept without them: read again
            return None
        self.hits += 1
        if pieces is not None and entry[1] is not None:
            pieces.update(entry[1])
        return entry[0]

    def put(self, data: bytes, state: GameState, pieces: Pieces | None) -> None:
        """Remember `state` as what `data` reads as, with the pieces recorded while reading it (None: none)."""
        if len(data) <= MAX_BYTES:
            self._entries.put(data, (state, None if pieces is None else tuple(pieces.items())))

    def __len__(self) -> int:
        return len(self._entries)


__all__ = ["CAPACITY", "DecodedStates"]
