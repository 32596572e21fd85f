"""What a group of cards is as a meld (rank, naturals, wilds, canasta kind) and which meld rules it breaks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from oracle.api.v1 import ruleset_pb2
from oracle.model.cards import RANK_JOKER, RANK_THREE, describe_rank, format_cards, is_red_three, is_wild, rank_of
from oracle.ruleset.compiled import CompiledRules

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


# Lookup tables by card number (0 unused): the rank group a card melds in (-1 for wilds, -2 for red threes).
_MELD_KEY: tuple[int, ...] = (-3, *(-1 if is_wild(c) else -2 if is_red_three(c) else rank_of(c) for c in range(1, 54)))


def meld_shape(cards: Sequence[int]) -> MeldShape:
    """Classify cards as a meld; MalformedMeld if they are not of one rank (wilds aside) or hold a red three."""
    if not cards:
        raise MalformedMeld("a meld needs cards")
    rank = -1
    wilds = 0
    for card in cards:
        key = _MELD_KEY[card]
        if key == -1:
            wilds += 1
        elif key >= 0 and (rank == -1 or key == rank):
            rank = key
        else:
            _raise_malformed(cards)
    black = rank == RANK_THREE
    return MeldShape(WILD_MELD_RANK if rank == -1 else rank, len(cards), len(cards) - wilds, wilds, black)


def _raise_malformed(cards: Sequence[int]) -> None:
    for card in cards:
        if is_red_three(card):
            raise MalformedMeld(f"a red three ({format_cards([card])}) is a bonus card and never goes in a meld")
    ranks = sorted({rank_of(c) for c in cards if not is_wild(c)})
    names = ", ".join(describe_rank(r) for r in ranks)
    raise MalformedMeld(f"cards of different ranks ({names}) in one meld: {format_cards(cards)}")


def meld_rule_breaks(shape: MeldShape, rules: CompiledRules, *, going_out: bool) -> list[tuple[str, str]]:
    """Which meld rules a complete meld breaks: (rule-set field, explanation) pairs; empty if legal.

    `going_out` says whether the meld is laid on a turn the player goes out
    (black-three melds are legal only then, where the rule set says so).
    """
    lim = rules.limits
    breaks: list[tuple[str, str]] = []
    if shape.black_threes:
        if lim.black_three_going_out_only and not going_out:
            breaks.append(
                (
                    "threes.black_three_meld_going_out_only",
                    "black threes may be melded only as the last meld when going out",
                )
            )
        if shape.naturals < lim.black_three_min:
            breaks.append(
                (
                    "threes.black_three_meld_min",
                    f"a black-three meld needs at least {lim.black_three_min} black threes, not {shape.naturals}",
                )
            )
        if shape.naturals > lim.black_three_max:
            breaks.append(
                (
                    "threes.black_three_meld_max",
                    f"a black-three meld holds at most {lim.black_three_max} black threes, not {shape.naturals}",
                )
            )
        if shape.wilds and not lim.black_three_wilds:
            breaks.append(("threes.black_three_meld_wilds", "no wild card may go in a black-three meld"))
        return breaks
    if (
        shape.size >= lim.min_size
        and shape.naturals >= lim.min_naturals
        and shape.wilds <= lim.max_wilds
        and lim.wild_ratio == ruleset_pb2.WILD_RATIO_ANY
        and not lim.max_size
    ):
        return breaks  # the common case: nothing to explain
    name = describe_rank(shape.rank)
    if shape.all_wild:
        if not lim.wild_only:
            breaks.append(("melds.wild_only_melds", "wild cards alone cannot make a meld"))
    elif shape.naturals < lim.min_naturals:
        breaks.append(
            (
                "melds.min_naturals",
                f"a meld needs at least {lim.min_naturals} natural cards; these {name} have {shape.naturals}",
            )
        )
    if shape.size < lim.min_size:
        breaks.append(("melds.min_size", f"a meld needs at least {lim.min_size} cards, not {shape.size}"))
    if shape.wilds > lim.max_wilds and not shape.all_wild:
        breaks.append(
            ("melds.max_wilds", f"a meld may hold at most {lim.max_wilds} wild cards; these {name} have {shape.wilds}")
        )
    if not shape.all_wild:
        if lim.wild_ratio == ruleset_pb2.WILD_RATIO_AT_MOST_NATURALS and shape.wilds > shape.naturals:
            breaks.append(
                ("melds.wild_ratio", f"wild cards ({shape.wilds}) may not outnumber naturals ({shape.naturals})")
            )
        if lim.wild_ratio == ruleset_pb2.WILD_RATIO_FEWER_THAN_NATURALS and shape.wilds >= shape.naturals:
            breaks.append(
                ("melds.wild_ratio", f"naturals ({shape.naturals}) must outnumber wild cards ({shape.wilds})")
            )
    if lim.max_size and shape.size > lim.max_size:
        breaks.append(("melds.max_size", f"a meld may hold at most {lim.max_size} cards, not {shape.size}"))
    return breaks


def is_canasta(shape: MeldShape, rules: CompiledRules) -> bool:
    """A meld of at least canastas.min_size cards (black-three melds never are)."""
    return not shape.black_threes and shape.size >= rules.limits.canasta_size
