"""The numbers a rule set's model takes from its spec (the deck's copies, the canasta size, the minimum table), read
when asked.

They are read when asked, not when the model is made, so that a computation that reads a model through a recording
view of the spec (footprint.shared) notes only the fields it uses.
"""

from __future__ import annotations

from oracle.api.v1 import ruleset_pb2


class SpecNumbers:
    """The spec's numbers of a RuleModel, as properties."""

    spec: ruleset_pb2.RuleSet

    @property
    def id(self) -> str:
        """The rule set's id."""
        return self.spec.id

    def _per_pack(self, suits: int) -> int:
        """Cards of one kind in the deck, when each pack holds one per suit of `suits` suits."""
        return suits * self.spec.deck.packs

    @property
    def rank_copies(self) -> int:
        """Cards of one natural rank in the deck."""
        return self._per_pack(4)

    @property
    def two_copies(self) -> int:
        """Twos in the deck."""
        return self._per_pack(4)

    @property
    def joker_copies(self) -> int:
        """Jokers in the deck."""
        return self.spec.deck.jokers

    @property
    def wild_copies(self) -> int:
        """Wild cards (twos and jokers) in the deck."""
        return self.two_copies + self.joker_copies

    @property
    def black_three_copies(self) -> int:
        """Black threes in the deck."""
        return self._per_pack(2)

    @property
    def red_three_copies(self) -> int:
        """Red threes in the deck."""
        return self._per_pack(2)

    @property
    def canasta_size(self) -> int:
        """canastas.min_size."""
        return self.spec.canastas.min_size

    @property
    def required(self) -> int:
        """going_out.canastas_required."""
        return self.spec.going_out.canastas_required

    @property
    def thresholds(self) -> tuple[tuple[int, int], ...]:
        """initial_meld.thresholds as (from_score, minimum) rows."""
        return tuple((row.from_score, row.minimum) for row in self.spec.initial_meld.thresholds)


__all__ = ["SpecNumbers"]
