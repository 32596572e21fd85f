"""What a group of cards is as a meld (rank, naturals, wilds), which meld rules it breaks, and what a canasta is."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from oracle.model.cards import (
    RANK_FOUR,
    RANK_JOKER,
    RANK_THREE,
    describe_rank,
    format_cards,
    is_red_three,
    is_wild,
    rank_of,
)
from oracle.model.fast_init import fast_init
from oracle.model.state import index_of_rank
from oracle.rules.violations import RULES, Code, Violation, violation
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.sections import BlackThreeRole, WildRatio

# Rank of a meld made only of wild cards (allowed only by melds.wild_only_melds).
WILD_MELD_RANK = RANK_JOKER
# Rank of a run (cards of one suit in sequence, runs.*): past every rank index, so no per-rank table reads it.
RUN_RANK = RANK_JOKER + 1


@fast_init
@dataclass(frozen=True, slots=True)
class MeldShape:
    """The make-up of a group of cards that is at least shaped like a meld."""

    rank: int  #: rank index of the naturals (or WILD_MELD_RANK for an all-wild meld)
    size: int  #: cards in it
    naturals: int  #: natural cards (black threes in a black-three meld)
    wilds: int  #: jokers and twos
    black_threes: bool  #: a meld of black threes (only legal when going out)
    run: bool = False  #: natural cards of several ranks: a run, or an attempt at one (rank is RUN_RANK)
    low: int = 0  #: a run's lowest natural rank index
    high: int = 0  #: a run's highest natural rank index
    one_suit: bool = True  #: a run's naturals are all of one suit
    consecutive: bool = True  #: a run's naturals are of distinct ranks with no gap between low and high

    @property
    def all_wild(self) -> bool:
        """No natural card at all."""
        return self.naturals == 0


class MalformedMeld(ValueError):
    """Cards that cannot be a meld under any rule set (a red three, empty; mixed ranks are a run's shape)."""


#: By card number (0 unused): the rank group a card melds in (-1 for wilds, -2 for red threes).
MELD_KEY: tuple[int, ...] = (-3, *(-1 if is_wild(c) else -2 if is_red_three(c) else rank_of(c) for c in range(1, 54)))


def meld_shape(cards: Sequence[int]) -> MeldShape:
    """Classify cards as a meld; MalformedMeld if they hold a red three or nothing. Natural cards of several ranks
    are a run's shape (`run`), legal or not: where the rule set has no runs they are no meld (is_run_shape_allowed).

    A tuple's shape is remembered (the melds of a hand come back in every state and every action of it)."""
    if type(cards) is tuple:
        return _tuple_shape(cards)
    return _classify(cards)


@lru_cache(maxsize=1 << 16)
def _tuple_shape(cards: tuple[int, ...]) -> MeldShape:
    return _classify(cards)  # what raises is not remembered: it raises again next time


def _classify(cards: Sequence[int]) -> MeldShape:
    if not cards:
        raise MalformedMeld("a meld needs cards")
    counted = rank_and_wilds(cards)
    if counted is None:
        return _run_shape(cards)
    rank, wilds = counted
    black = rank == RANK_THREE
    return MeldShape(WILD_MELD_RANK if rank == -1 else rank, len(cards), len(cards) - wilds, wilds, black)


def rank_and_wilds(cards: Iterable[int]) -> tuple[int, int] | None:
    """The rank of the naturals (-1 when there is none) and the number of wild cards of cards that are card
    numbers (1..53); None when they are no meld (mixed ranks, a red three)."""
    rank = -1
    wilds = 0
    for card in cards:
        key = MELD_KEY[card]
        if key == -1:
            wilds += 1
        elif key >= 0 and (rank == -1 or key == rank):
            rank = key
        else:
            return None
    return rank, wilds


def plain_ranks(rules: CompiledRules, melds: Iterable[Sequence[int]]) -> list[int] | None:
    """The ranks of `melds` (card numbers known to be cards) when every one is plain: of one natural rank, not
    black threes, not all wild, and breaking no meld rule (the common case meld_rule_breaks answers with nothing,
    decided without building shapes); None when any is not."""
    m = rules.melds
    if m.wild_ratio != _ANY_RATIO or m.max_size:
        return None  # rules whose meld checks need the shape
    min_size, min_naturals, max_wilds = m.min_size, m.min_naturals, m.max_wilds
    ranks = []
    for meld in melds:
        counted = rank_and_wilds(meld)
        if counted is None:
            return None
        rank, wilds = counted
        size = len(meld)
        if rank < 0 or rank == RANK_THREE or size < min_size or size - wilds < min_naturals or wilds > max_wilds:
            return None
        ranks.append(rank)
    return ranks


_ANY_RATIO = WildRatio.ANY


def _run_shape(cards: Sequence[int]) -> MeldShape:
    """The shape of cards with natural cards of several ranks (and no red three): a run's, judged by run_breaks."""
    for card in cards:
        if is_red_three(card):
            raise MalformedMeld(f"a red three ({format_cards([card])}) never goes in a meld")
    naturals = [c for c in cards if not is_wild(c)]
    ranks = sorted(rank_of(c) for c in naturals)
    suits = {(c - 1) % 4 for c in naturals}
    consecutive = all(b == a + 1 for a, b in pairwise(ranks))
    wilds = len(cards) - len(naturals)
    return MeldShape(
        RUN_RANK, len(cards), len(naturals), wilds, False, True, ranks[0], ranks[-1], len(suits) == 1, consecutive
    )


def is_proper_run(shape: MeldShape) -> bool:
    """A run's shape that some rule set melds: natural cards of one suit in consecutive ranks from the four up (a
    run never holds a three: runs.lowest_rank is a NaturalRank), no wild card."""
    return shape.run and shape.one_suit and shape.consecutive and not shape.wilds and shape.low >= RANK_FOUR


def mixed_ranks_problem(cards: Sequence[int]) -> str:
    """Why cards of several ranks are no meld where the rule set has no runs (the shape layer's words)."""
    ranks = sorted({rank_of(c) for c in cards if not is_wild(c)})
    names = ", ".join(describe_rank(r) for r in ranks)
    return f"cards of different ranks ({names}) in one meld: {format_cards(cards)}"


def run_breaks(shape: MeldShape, rules: CompiledRules, *, new: bool) -> list[MeldBreak]:
    """Which run rules a run (shape.run) breaks; empty if legal. `new`: a run laid now (runs.min_size applies)."""
    r = rules.runs
    if not r.min_size:
        return [MeldBreak(Code.RUNS_NOT_ALLOWED, "runs.min_size")]
    breaks: list[MeldBreak] = []
    if shape.wilds:
        breaks.append(MeldBreak(Code.RUN_WILD_CARD, "runs", (("wilds", shape.wilds),)))
    if not shape.one_suit:
        breaks.append(MeldBreak(Code.RUN_MIXED_SUITS, "runs.min_size"))
    if not shape.consecutive:
        breaks.append(MeldBreak(Code.RUN_NOT_CONSECUTIVE, "runs.min_size"))
    if shape.low < r.lowest_rank:
        params = (
            ("rank", describe_rank(shape.low, plural=False)),
            ("lowest", describe_rank(r.lowest_rank, plural=False)),
        )
        breaks.append(MeldBreak(Code.RUN_RANK_OUT_OF_RANGE, "runs.lowest_rank", params))
    if shape.high > r.highest_rank:
        params = (
            ("rank", describe_rank(shape.high, plural=False)),
            ("highest", describe_rank(r.highest_rank, plural=False)),
        )
        breaks.append(MeldBreak(Code.RUN_RANK_OUT_OF_RANGE, "runs.highest_rank", params, "high"))
    if new and shape.size < r.min_size:
        breaks.append(MeldBreak(Code.RUN_TOO_SMALL, "runs.min_size", (("min_size", r.min_size), ("size", shape.size))))
    if r.max_size and shape.size > r.max_size:
        breaks.append(MeldBreak(Code.RUN_TOO_LARGE, "runs.max_size", (("max_size", r.max_size), ("size", shape.size))))
    return breaks


@dataclass(frozen=True, slots=True)
class MeldBreak:
    """One meld rule a meld breaks: the registry code, the rule-set field, and the template's parameters."""

    code: Code
    field: str  #: the rule-set field broken (a more specific one than the registry's, for a black-three maximum)
    params: tuple[tuple[str, object], ...] = ()  #: the template's parameters but `meld`
    variant: str = ""  #: the registry template variant

    @property
    def why(self) -> str:
        """The reason in words, without the meld."""
        return RULES[self.code].reason(self.variant, **dict(self.params))

    def violation(self, rules: CompiledRules, meld: str) -> Violation:
        """The violation of laying `meld` (its description: 'new meld 9H 9S', ...)."""
        return violation(rules, self.code, variant=self.variant, field=self.field, meld=meld, **dict(self.params))


def meld_rule_breaks(
    shape: MeldShape, rules: CompiledRules, *, going_out: bool, last_cards: bool = True
) -> list[MeldBreak]:
    """Which meld rules a complete meld breaks; empty if legal.

    `going_out` says whether the meld is laid on a turn the player goes out
    (black-three melds are legal only then, where the rule set says so);
    `last_cards` whether no card is left to discard after it (with
    threes.black_three_meld_last_cards, black threes must be the last cards).
    """
    if shape.run:
        return run_breaks(shape, rules, new=True)
    m, t = rules.melds, rules.threes
    breaks: list[MeldBreak] = []
    params: tuple[tuple[str, object], ...]
    if shape.black_threes:
        if t.black_three_meld_going_out_only and not going_out:
            breaks.append(MeldBreak(Code.BLACK_THREES_NOT_GOING_OUT, "threes.black_three_meld_going_out_only"))
        elif t.black_three_meld_going_out_only and t.black_three_meld_last_cards and not last_cards:
            field = "threes.black_three_meld_last_cards"
            breaks.append(MeldBreak(Code.BLACK_THREES_NOT_GOING_OUT, field, variant="last_cards"))
        count = shape.naturals
        if not t.black_three_meld_max:  # black threes are never melded
            breaks.append(MeldBreak(Code.BLACK_THREE_MELD_SIZE, "threes.black_three_meld_max", (), "never"))
            return breaks
        if count < t.black_three_meld_min:
            params = (("min", t.black_three_meld_min), ("count", count))
            breaks.append(MeldBreak(Code.BLACK_THREE_MELD_SIZE, "threes.black_three_meld_min", params))
        if count > t.black_three_meld_max:
            params = (("max", t.black_three_meld_max), ("count", count))
            breaks.append(MeldBreak(Code.BLACK_THREE_MELD_SIZE, "threes.black_three_meld_max", params, "too_many"))
        if shape.wilds and not t.black_three_meld_wilds:
            breaks.append(MeldBreak(Code.BLACK_THREE_MELD_WILDS, "threes.black_three_meld_wilds"))
        return breaks
    if (
        shape.size >= m.min_size
        and shape.naturals >= m.min_naturals
        and shape.wilds <= m.max_wilds
        and m.wild_ratio == _ANY_RATIO
        and not m.max_size
    ):
        return breaks  # the common case: nothing to explain
    name = describe_rank(shape.rank)
    if shape.all_wild:
        if not m.wild_only_melds:
            breaks.append(MeldBreak(Code.MELD_ALL_WILD, "melds.wild_only_melds"))
    elif shape.naturals < m.min_naturals:
        params = (("min_naturals", m.min_naturals), ("rank", name), ("naturals", shape.naturals))
        breaks.append(MeldBreak(Code.MELD_TOO_FEW_NATURALS, "melds.min_naturals", params))
    if shape.size < m.min_size:
        breaks.append(
            MeldBreak(Code.MELD_TOO_SMALL, "melds.min_size", (("min_size", m.min_size), ("size", shape.size)))
        )
    if shape.wilds > m.max_wilds and not shape.all_wild:
        params = (("max_wilds", m.max_wilds), ("rank", name), ("wilds", shape.wilds))
        breaks.append(MeldBreak(Code.MELD_TOO_MANY_WILDS, "melds.max_wilds", params))
    if not shape.all_wild:
        ratio = (("wilds", shape.wilds), ("naturals", shape.naturals))
        if m.wild_ratio == WildRatio.AT_MOST_NATURALS and shape.wilds > shape.naturals:
            breaks.append(MeldBreak(Code.MELD_WILDS_OUTNUMBER_NATURALS, "melds.wild_ratio", ratio))
        if m.wild_ratio == WildRatio.FEWER_THAN_NATURALS and shape.wilds >= shape.naturals:
            breaks.append(MeldBreak(Code.MELD_WILDS_OUTNUMBER_NATURALS, "melds.wild_ratio", ratio, "fewer"))
    if m.max_size and shape.size > m.max_size:
        breaks.append(
            MeldBreak(Code.MELD_TOO_LARGE, "melds.max_size", (("max_size", m.max_size), ("size", shape.size)))
        )
    return breaks


def is_canasta(shape: MeldShape, rules: CompiledRules) -> bool:
    """A meld of at least canastas.min_size cards (black-three melds never are), or a run of runs.canasta_size
    where the rule set has runs: the one definition of a canasta."""
    if shape.run:
        return rules.runs.min_size > 0 and shape.size >= rules.runs.canasta_size
    return not shape.black_threes and shape.size >= rules.canastas.min_size


def open_meld_index(rules: CompiledRules, melds: Sequence[Sequence[int]], rank: int) -> int | None:
    """Index of the first meld of a natural rank among `melds` that is not yet a canasta (runs aside), or None."""
    for i, meld in enumerate(melds):
        if len(meld) < rules.canastas.min_size and index_of_rank((tuple(meld),), rank) == 0:
            return i
    return None


def shapes_of(melds: Iterable[Sequence[int]]) -> list[MeldShape]:
    """The shapes of the well-formed melds among `melds` (malformed ones are skipped: the state check names them)."""
    shapes: list[MeldShape] = []
    for meld in melds:
        try:
            shapes.append(meld_shape(meld))
        except MalformedMeld:
            continue
    return shapes


def canasta_count(rules: CompiledRules, shapes: Iterable[MeldShape]) -> int:
    """How many of these melds are canastas (the one place canastas are counted)."""
    return sum(1 for shape in shapes if is_canasta(shape, rules))


def count_canastas(rules: CompiledRules, melds: Iterable[Sequence[int]]) -> int:
    """How many of these melds are canastas: canasta_count of their shapes, shaping only the melds long enough to
    be one (malformed ones are skipped, as shapes_of does)."""
    size = min(rules.canastas.min_size, rules.runs.canasta_size) if rules.runs.min_size else rules.canastas.min_size
    count = 0
    for meld in melds:
        if len(meld) >= size:
            try:
                shape = meld_shape(meld)
            except MalformedMeld:
                continue
            if is_canasta(shape, rules):
                count += 1
    return count


def standing_meld_problem(rules: CompiledRules, shape: MeldShape) -> str | None:
    """What a meld already on the table breaks that no meld-shape rule says: a rank rule's wild limit (a meld of
    a rank whose rule lets wilds into the initial meld may hold them), black threes melded where they are bonus
    cards (threes.black_three_role); None if nothing."""
    if shape.run:
        return None
    if shape.black_threes:
        if rules.threes.black_three_role == BlackThreeRole.BONUS:
            return (
                "black threes are bonus cards here, laid at once and never melded"
                " (rule-set field threes.black_three_role)"
            )
        return None
    rule = rules.rank_rule_at[shape.rank] if not shape.all_wild else None
    if rule is not None and shape.wilds > rule.max_wilds and not rule.wilds_in_initial_meld:
        return (
            f"a meld of {describe_rank(shape.rank)} holds at most {rule.max_wilds} wild cards, not {shape.wilds}"
            " (rule-set field melds.rank_rules)"
        )
    return None
