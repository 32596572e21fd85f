"""The compiled, immutable form of a resolved RuleSet that the rules engine reads (compile once, use per request)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from oracle.api.v1 import ruleset_pb2
from oracle.model.cards import (
    ALL_CARDS,
    JOKER,
    RANK_ACE,
    RANK_EIGHT,
    RANK_FOUR,
    RANK_SEVEN,
    RANK_TWO,
    deck,
    is_black_three,
    is_red_three,
    rank_of,
)


@dataclass(frozen=True, slots=True)
class MeldLimits:
    """The meld and canasta numbers as plain values (read on every check; proto access is slower)."""

    min_size: int
    min_naturals: int
    max_wilds: int
    wild_ratio: int  #: a ruleset_pb2.WildRatio value
    max_size: int  #: 0 = no limit
    wild_only: bool
    one_per_rank: bool
    black_three_going_out_only: bool
    black_three_min: int
    black_three_max: int
    black_three_wilds: bool
    canasta_size: int


@dataclass(frozen=True, slots=True)
class CompiledRules:
    """A resolved rule set plus the tables derived from it. Never mutate `spec`."""

    spec: ruleset_pb2.RuleSet  #: the resolved message (every field set)
    id: str  #: rule-set id
    seats: int  #: players at the table
    side_size: int  #: players per side
    sides: int  #: number of sides
    deck_size: int  #: cards in the whole deck
    card_points: tuple[int, ...]  #: points of each card number (index 0 unused; red threes 0)
    thresholds: tuple[tuple[int, int], ...]  #: (from_score, minimum) rows, ascending
    minimum_below_table: int  #: minimum for totals below the first row
    cites: dict[str, tuple[tuple[str, str], ...]]  #: field or section path -> (source, section) citations
    deck_counts: Counter[int]  #: copies of each card in the deck (read only)
    sorted_deck: tuple[int, ...]  #: every card of the deck, sorted (for the conservation check)
    limits: MeldLimits  #: meld and canasta numbers

    def seats_of_side(self, side: int) -> list[int]:
        """The seats of one side, in seat order."""
        return list(range(side, self.seats, self.sides))

    def copies_of(self, card: int) -> int:
        """How many copies of a card the deck holds."""
        return self.spec.deck.jokers if card == JOKER else self.spec.deck.packs

    def minimum_initial_meld(self, running_total: int) -> tuple[int, int | None]:
        """The minimum for a running total, and the from_score of the row used (None: below the table)."""
        minimum, row = self.minimum_below_table, None
        for from_score, row_minimum in self.thresholds:
            if running_total < from_score:
                break
            minimum, row = row_minimum, from_score
        return minimum, row


def _card_points(values: ruleset_pb2.CardValues) -> tuple[int, ...]:
    points = [0] * (max(ALL_CARDS) + 1)
    for card in ALL_CARDS:
        rank = rank_of(card)
        if card == JOKER:
            points[card] = values.joker
        elif rank == RANK_TWO:
            points[card] = values.two
        elif rank == RANK_ACE:
            points[card] = values.ace
        elif RANK_EIGHT <= rank < RANK_ACE:
            points[card] = values.eight_to_king
        elif RANK_FOUR <= rank <= RANK_SEVEN:
            points[card] = values.four_to_seven
        elif is_black_three(card):
            points[card] = values.black_three
        elif is_red_three(card):
            points[card] = 0  # bonus cards, scored under `threes`, never melded or held
    return tuple(points)


def compile_rules(spec: ruleset_pb2.RuleSet) -> CompiledRules:
    """Derive the engine's tables from a resolved, validated rule set."""
    frozen = ruleset_pb2.RuleSet()
    frozen.CopyFrom(spec)
    seats, side_size = frozen.players.seats, frozen.players.side_size
    m, t = frozen.melds, frozen.threes
    return CompiledRules(
        spec=frozen,
        id=frozen.id,
        seats=seats,
        side_size=side_size,
        sides=seats // side_size,
        deck_size=52 * frozen.deck.packs + frozen.deck.jokers,
        card_points=_card_points(frozen.card_values),
        thresholds=tuple((t.from_score, t.minimum) for t in frozen.initial_meld.thresholds),
        minimum_below_table=frozen.initial_meld.minimum_below_table,
        cites=_citations(frozen),
        deck_counts=Counter(deck(frozen.deck.packs, frozen.deck.jokers)),
        sorted_deck=tuple(sorted(deck(frozen.deck.packs, frozen.deck.jokers))),
        limits=MeldLimits(
            min_size=m.min_size,
            min_naturals=m.min_naturals,
            max_wilds=m.max_wilds,
            wild_ratio=m.wild_ratio,
            max_size=m.max_size,
            wild_only=m.wild_only_melds,
            one_per_rank=m.one_meld_per_rank,
            black_three_going_out_only=t.black_three_meld_going_out_only,
            black_three_min=t.black_three_meld_min,
            black_three_max=t.black_three_meld_max,
            black_three_wilds=t.black_three_meld_wilds,
            canasta_size=frozen.canastas.min_size,
        ),
    )


def _citations(spec: ruleset_pb2.RuleSet) -> dict[str, tuple[tuple[str, str], ...]]:
    """For every field and section path, the citations of the note that covers it.

    A field uses its own note, else its section's; a section without a note of
    its own uses the first note on one of its fields.
    """
    notes = {n.field: tuple((c.source, c.section) for c in n.cite) for n in spec.rules}
    table: dict[str, tuple[tuple[str, str], ...]] = {}
    for section in spec.DESCRIPTOR.fields:
        if section.message_type is None or section.name == "rules":
            continue
        fields = [f"{section.name}.{f.name}" for f in section.message_type.fields]
        own = notes.get(section.name) or next((notes[f] for f in fields if f in notes), ())
        table[section.name] = own
        for path in fields:
            table[path] = notes.get(path) or notes.get(section.name) or own
    return table
