"""What a group of cards is as a meld (rank, naturals, wilds, canasta kind) and which meld rules it breaks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from oracle.api.v1 import ruleset_pb2
from oracle.cards import (
    RANK_JOKER,
    describe_rank,
    format_cards,
    is_black_three,
    is_red_three,
    is_wild,
    rank_of,
)
from oracle.ruleset import CompiledRules

# Rank of a meld made only of wild cards (allowed only by melds.wild_only_melds).
WILD_MELD_RANK = RANK_JOKER


@dataclass(frozen=True, slots=True)
class MeldShape:
    """The make-up of a group of cards that is at least shaped like a meld."""

    rank: int  #: rank index of the naturals (or WILD_MELD_RANK for an all-wild meld)
    size: int  #: cards in it
    naturals: int  #: natural cards (black threes in a black-three meld)
    wilds: int  #: jokers and twos
    black_threes: bool  #: a meld of black threes (only legal when going out)

    @property
    def all_wild(self) -> bool:
        """No natural card at all."""
        return self.naturals == 0


class MalformedMeld(ValueError):
    """Cards that cannot be a meld under any rule set (mixed ranks, a red three, empty)."""


def meld_shape(cards: Sequence[int]) -> MeldShape:
    """Classify cards as a meld; MalformedMeld if they are not of one rank (wilds aside) or hold a red three."""
    if not cards:
        raise MalformedMeld("a meld needs cards")
    ranks: set[int] = set()
    wilds = 0
    for card in cards:
        if is_red_three(card):
            raise MalformedMeld(f"a red three ({format_cards([card])}) is a bonus card and never goes in a meld")
        if is_wild(card):
            wilds += 1
        else:
            ranks.add(rank_of(card))
    if len(ranks) > 1:
        names = ", ".join(describe_rank(r) for r in sorted(ranks))
        raise MalformedMeld(f"cards of different ranks ({names}) in one meld: {format_cards(cards)}")
    black = any(is_black_three(c) for c in cards)
    rank = ranks.pop() if ranks else WILD_MELD_RANK
    return MeldShape(rank, len(cards), len(cards) - wilds, wilds, black)


def meld_rule_breaks(shape: MeldShape, rules: CompiledRules, *, going_out: bool) -> list[tuple[str, str]]:
    """Which meld rules a complete meld breaks: (rule-set field, explanation) pairs; empty if legal.

    `going_out` says whether the meld is laid on a turn the player goes out
    (black-three melds are legal only then, where the rule set says so).
    """
    m, t = rules.spec.melds, rules.spec.threes
    breaks: list[tuple[str, str]] = []
    if shape.black_threes:
        if t.black_three_meld_going_out_only and not going_out:
            breaks.append(("threes.black_three_meld_going_out_only",
                           "black threes may be melded only as the last meld when going out"))
        if shape.naturals < t.black_three_meld_min:
            breaks.append(("threes.black_three_meld_min",
                           f"a black-three meld needs at least {t.black_three_meld_min} black threes,"
                           f" not {shape.naturals}"))
        if shape.naturals > t.black_three_meld_max:
            breaks.append(("threes.black_three_meld_max",
                           f"a black-three meld holds at most {t.black_three_meld_max} black threes,"
                           f" not {shape.naturals}"))
        if shape.wilds and not t.black_three_meld_wilds:
            breaks.append(("threes.black_three_meld_wilds", "no wild card may go in a black-three meld"))
        return breaks
    name = describe_rank(shape.rank)
    if shape.all_wild:
        if not m.wild_only_melds:
            breaks.append(("melds.wild_only_melds", "wild cards alone cannot make a meld"))
    elif shape.naturals < m.min_naturals:
        breaks.append(("melds.min_naturals",
                       f"a meld needs at least {m.min_naturals} natural cards; these {name} have {shape.naturals}"))
    if shape.size < m.min_size:
        breaks.append(("melds.min_size", f"a meld needs at least {m.min_size} cards, not {shape.size}"))
    if shape.wilds > m.max_wilds and not shape.all_wild:
        breaks.append(("melds.max_wilds",
                       f"a meld may hold at most {m.max_wilds} wild cards; these {name} have {shape.wilds}"))
    if not shape.all_wild:
        if m.wild_ratio == ruleset_pb2.WILD_RATIO_AT_MOST_NATURALS and shape.wilds > shape.naturals:
            breaks.append(("melds.wild_ratio", f"wild cards ({shape.wilds}) may not outnumber naturals"
                           f" ({shape.naturals})"))
        if m.wild_ratio == ruleset_pb2.WILD_RATIO_FEWER_THAN_NATURALS and shape.wilds >= shape.naturals:
            breaks.append(("melds.wild_ratio", f"naturals ({shape.naturals}) must outnumber wild cards"
                           f" ({shape.wilds})"))
    if m.max_size and shape.size > m.max_size:
        breaks.append(("melds.max_size", f"a meld may hold at most {m.max_size} cards, not {shape.size}"))
    return breaks


def is_canasta(shape: MeldShape, rules: CompiledRules) -> bool:
    """A meld of at least canastas.min_size cards (black-three melds never are)."""
    return not shape.black_threes and shape.size >= rules.spec.canastas.min_size


def is_natural_canasta(shape: MeldShape, rules: CompiledRules) -> bool:
    """A canasta with no wild card."""
    return is_canasta(shape, rules) and shape.wilds == 0
