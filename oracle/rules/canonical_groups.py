"""Canonical groups for the candidate space (see oracle.rules.candidates): the mover's hand sorted by rank, the
groups that break no meld rule on their own, minimal sets that reach the initial minimum, going-out sets, and
the concrete cards of each group."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from oracle.model.actions import MeldGroup
from oracle.model.cards import JOKER, RANK_ACE, RANK_FOUR, RANK_THREE, is_black_three, is_natural, make_card, rank_of
from oracle.model.interrupt import Checkpoint
from oracle.model.state import GameState, SideState
from oracle.rules.facts import playing_side, side_of
from oracle.rules.meld_play import default_target, waived_for_addition, wild_meld_index
from oracle.rules.melds import WILD_MELD_RANK, MeldShape, canasta_count, meld_rule_breaks, meld_shape
from oracle.rules.minimum import side_minimum
from oracle.ruleset.compiled import CompiledRules

NATURAL_RANKS = range(RANK_FOUR, RANK_ACE + 1)


@dataclass(frozen=True, slots=True)
class Spec:
    """A canonical group before it gets its cards."""

    rank: int  #: natural rank, RANK_THREE (black threes), WILD_MELD_RANK, or the onto_rank of a wild-only addition
    naturals: int  #: n
    jokers: int  #: j
    twos: int  #: t
    points: int  #: card points of the group
    onto: bool = False  #: a wild-only group joining the side's meld of `rank`

    @property
    def shape(self) -> MeldShape:
        """The group's shape as a meld of its own."""
        wilds = self.jokers + self.twos
        return MeldShape(self.rank, self.naturals + wilds, self.naturals, wilds, self.rank == RANK_THREE)


@dataclass(frozen=True, slots=True)
class _Hand:
    """The mover's hand sorted for canonical groups."""

    by_rank: dict[int, tuple[int, ...]]  #: rank -> naturals (or black threes), ascending
    twos: tuple[int, ...]  #: ascending
    jokers: int


def _sort_hand(hand: tuple[int, ...]) -> _Hand:
    by_rank: dict[int, list[int]] = {}
    twos: list[int] = []
    jokers = 0
    for card in sorted(hand):
        if card == JOKER:
            jokers += 1
        elif rank_of(card) == 0:
            twos.append(card)
        elif is_natural(card) or is_black_three(card):
            by_rank.setdefault(rank_of(card), []).append(card)
    return _Hand({r: tuple(c) for r, c in by_rank.items()}, tuple(twos), jokers)


class GroupBuilder:
    """Canonical groups for one state (rules, the mover's sorted hand, side, card points).

    The sets of groups are generated lazily, in a fixed order; `checkpoint` (if any) is called at every step of
    their searches, so a caller can stop a search that finds little (what it raises ends the generation).
    """

    def __init__(self, rules: CompiledRules, state: GameState, checkpoint: Checkpoint | None = None) -> None:
        self.rules = rules
        self.state = state
        self.checkpoint = checkpoint
        self._new_ok: dict[tuple[int, int, int], bool] = {}
        self.side: SideState = state.sides[playing_side(rules, state, state.seat_to_move)]
        self.hand = _sort_hand(state.seats[state.seat_to_move].hand)
        points = rules.card_points
        self.joker_points = points[JOKER]
        self.two_points = points[1]
        self.rank_points = {r: points[make_card(r, 0)] for r in range(RANK_THREE, RANK_ACE + 1)}
        self.minimum = side_minimum(rules, state.sides[side_of(rules, state.seat_to_move)], state.hand_number)

    # --- single groups -----------------------------------------------------------------------------------------

    def spec(self, rank: int, n: int, j: int, t: int, *, onto: bool = False) -> Spec:
        """A Spec with its points."""
        points = n * self.rank_points.get(rank, 0) + j * self.joker_points + t * self.two_points
        return Spec(rank, n, j, t, points, onto)

    def new_ok(self, rank: int, naturals: int, wilds: int) -> bool:
        """A new meld of this make-up breaks no meld rule (black-three melds judged as if going out)."""
        key = (rank, naturals, wilds)
        ok = self._new_ok.get(key)
        if ok is None:  # the searches ask the same few make-ups again and again: each is judged once
            shape = MeldShape(rank, naturals + wilds, naturals, wilds, rank == RANK_THREE)
            ok = self._new_ok[key] = not meld_rule_breaks(shape, self.rules, going_out=True)
        return ok

    def added_ok(self, old: MeldShape, naturals: int, wilds: int) -> bool:
        """Adding to a meld of shape `old` breaks no meld rule that applies to additions."""
        shape = MeldShape(old.rank, old.size + naturals + wilds, old.naturals + naturals, old.wilds + wilds, False)
        return all(waived_for_addition(b.field, wilds) for b in meld_rule_breaks(shape, self.rules, going_out=True))

    def wild_splits(self, jokers: int, twos: int) -> Iterator[tuple[int, int]]:
        """(j, t) pairs within the budgets."""
        return product(range(jokers + 1), range(twos + 1))

    def target_shape(self, rank: int) -> MeldShape | None:
        """Shape of the side's meld a natural group of `rank` joins by default (meld_play.default_target), or None
        (a new meld)."""
        index = default_target(self.rules, self.side.melds, rank)
        return None if index is None else meld_shape(self.side.melds[index])

    def new_meld_pool(self, exclude: int = -1) -> list[list[Spec]]:
        """Per rank (ascending), the new-meld groups that break no meld rule on their own."""
        hand, threes = self.hand, self.rules.threes
        pool: list[list[Spec]] = []
        blacks = len(hand.by_rank.get(RANK_THREE, ()))
        if blacks >= threes.black_three_meld_min:
            wild_j, wild_t = (hand.jokers, len(hand.twos)) if threes.black_three_meld_wilds else (0, 0)
            options = [
                self.spec(RANK_THREE, n, j, t)
                for n in range(threes.black_three_meld_min, min(threes.black_three_meld_max, blacks) + 1)
                for j, t in self.wild_splits(wild_j, wild_t)
                if self.new_ok(RANK_THREE, n, j + t)
            ]
            if options:
                pool.append(options)
        for rank in NATURAL_RANKS:
            held = len(hand.by_rank.get(rank, ()))
            if not held or rank == exclude or self.target_shape(rank) is not None:
                continue
            options = [
                self.spec(rank, n, j, t)
                for n in range(1, held + 1)
                for j, t in self.wild_splits(hand.jokers, len(hand.twos))
                if self.new_ok(rank, n, j + t)
            ]
            if options:
                pool.append(options)
        if self.rules.melds.wild_only_melds and self.wild_meld() is None:
            options = [
                self.spec(WILD_MELD_RANK, 0, j, t)
                for j, t in self.wild_splits(hand.jokers, len(hand.twos))
                if j + t and self.new_ok(WILD_MELD_RANK, 0, j + t)
            ]
            if options:
                pool.append(options)
        return pool

    def wild_meld(self) -> MeldShape | None:
        """Shape of the side's meld of wild cards alone, which more wild cards join (melds.one_meld_per_rank)."""
        if not self.rules.melds.one_meld_per_rank:
            return None
        index = wild_meld_index(self.side.melds)
        return None if index is None else meld_shape(self.side.melds[index])

    def single_groups(self) -> list[Spec]:
        """Every single canonical group that breaks no meld rule (side with melds)."""
        hand = self.hand
        specs = [s for options in self.new_meld_pool() for s in options]
        wild_old = self.wild_meld() if self.rules.melds.wild_only_melds else None
        if wild_old is not None:  # wild cards alone join the side's meld of wild cards
            specs += [
                self.spec(WILD_MELD_RANK, 0, j, t)
                for j, t in self.wild_splits(hand.jokers, len(hand.twos))
                if j + t and self.added_ok(wild_old, 0, j + t)
            ]
        for rank in NATURAL_RANKS:
            old = self.target_shape(rank)
            held = len(hand.by_rank.get(rank, ()))
            if old is not None:
                specs += [
                    self.spec(rank, n, j, t)
                    for n in range(1, held + 1)
                    for j, t in self.wild_splits(hand.jokers, len(hand.twos))
                    if self.added_ok(old, n, j + t)
                ]
            index = default_target(self.rules, self.side.melds, rank)
            if index is not None:
                onto_old = meld_shape(self.side.melds[index])
                specs += [
                    self.spec(rank, 0, j, t, onto=True)
                    for j, t in self.wild_splits(hand.jokers, len(hand.twos))
                    if j + t and self.added_ok(onto_old, 0, j + t)
                ]
        return specs

    # --- sets of new melds ---------------------------------------------------------------------------------------

    def minimal_sets(
        self, pool: list[list[Spec]], base: int, jokers: int, twos: int, *, meld_action: bool = False
    ) -> Iterator[tuple[Spec, ...]]:
        """Sets of at most one group per pool entry, within the wild budgets, minimal for reaching the minimum."""
        minimum = self.minimum
        if meld_action and minimum <= 0:  # no set is minimal: a meld action then lists single groups
            yield from ((s,) for options in pool for s in options if s.jokers <= jokers and s.twos <= twos)
            return
        if base >= minimum:
            yield ()
            return
        best = [max(s.points for s in options) for options in pool]
        rest = [sum(best[k:]) for k in range(len(pool) + 1)]
        checkpoint = self.checkpoint

        def walk(
            start: int, chosen: tuple[Spec, ...], total: int, weakest: int, j: int, t: int
        ) -> Iterator[tuple[Spec, ...]]:
            if checkpoint is not None:
                checkpoint()
            for k in range(start, len(pool)):
                if total + rest[k] < minimum:
                    return
                for spec in pool[k]:
                    if spec.jokers > j or spec.twos > t:
                        continue
                    reached = total + spec.points
                    if reached >= minimum:
                        if reached - min(weakest, spec.points) < minimum:
                            yield (*chosen, spec)
                    else:
                        yield from walk(
                            k + 1, (*chosen, spec), reached, min(weakest, spec.points), j - spec.jokers, t - spec.twos
                        )

        yield from walk(0, (), base, 1 << 62, jokers, twos)  # no weakest group yet

    def going_out_sets(self) -> Iterator[tuple[Spec, ...]]:
        """Sets of new-meld groups that meld all the hand but at most one card (side without melds)."""
        hand = self.hand
        counts = {r: len(c) for r, c in hand.by_rank.items()}
        leftovers: list[Leftover] = [None, *sorted(counts), "two", "joker"]
        for left, jokers, twos, cards_left in without_leftover(counts, hand.jokers, len(hand.twos), leftovers):
            yield from self._partitions(left, jokers, twos, cards_left=cards_left)

    def _partitions(self, left: dict[int, int], jokers: int, twos: int, cards_left: int) -> Iterator[tuple[Spec, ...]]:
        melds, threes, going_out = self.rules.melds, self.rules.threes, self.rules.going_out
        blacks = left.pop(RANK_THREE, 0)
        if blacks and not threes.black_three_meld_min <= blacks <= threes.black_three_meld_max:
            return
        ranks = [r for r in sorted(left) if left[r]]
        wild_targets = list(ranks)
        if blacks and threes.black_three_meld_wilds:
            wild_targets.insert(0, RANK_THREE)
        if melds.wild_only_melds:
            wild_targets.append(WILD_MELD_RANK)
        wilds = jokers + twos
        if (not ranks and not blacks and not wilds) or (wilds and not wild_targets):
            return
        need_canastas = cards_left == 0 or cards_left < going_out.min_hand_after_meld_without_canastas
        required = going_out.canastas_required if need_canastas else 0
        most = min(wilds, melds.max_wilds)  # a natural meld holds at most max_wilds wilds
        largest = [MeldShape(r, left[r] + most, left[r], most, False) for r in ranks]
        if melds.wild_only_melds:
            largest.append(MeldShape(WILD_MELD_RANK, wilds, 0, wilds, False))
        if canasta_count(self.rules, largest) < required:
            return  # not enough canastas even with every wild on each meld (black-three melds never are)
        room = [melds.max_wilds if r in ranks else wilds for r in wild_targets]  # wilds each target may take
        room_after = [sum(room[k:]) for k in range(len(room) + 1)]
        naturals = {r: left[r] for r in ranks}
        naturals[RANK_THREE] = blacks
        checkpoint = self.checkpoint

        def assign(k: int, chosen: dict[int, tuple[int, int]], j: int, t: int) -> Iterator[tuple[Spec, ...]]:
            if checkpoint is not None:
                checkpoint()
            if k == len(wild_targets):
                if j or t:
                    return
                specs = [
                    self.spec(r, naturals.get(r, 0), *chosen.get(r, (0, 0)))
                    for r in sorted({*ranks, *chosen})
                    if r != RANK_THREE
                ]
                if blacks:
                    specs.insert(0, self.spec(RANK_THREE, blacks, *chosen.get(RANK_THREE, (0, 0))))
                specs = [s for s in specs if s.naturals or s.jokers or s.twos]
                if canasta_count(self.rules, (s.shape for s in specs)) >= required:
                    yield tuple(specs)
                return
            if j + t > room_after[k]:
                return
            rank = wild_targets[k]
            for jj, tt in self.wild_splits(j, t):
                if (naturals.get(rank, 0) or jj + tt) and not self.new_ok(rank, naturals.get(rank, 0), jj + tt):
                    continue
                yield from assign(k + 1, {**chosen, rank: (jj, tt)} if jj + tt else chosen, j - jj, t - tt)

        yield from assign(0, {}, jokers, twos)

    # --- cards ----------------------------------------------------------------------------------------------------

    def groups(self, specs: tuple[Spec, ...], first_two: int = 0) -> tuple[MeldGroup, ...]:
        """The concrete groups of specs, twos handed out in order from the hand's `first_two`-th."""
        out = []
        k = first_two
        for s in specs:
            cards = (
                *self.hand.by_rank.get(s.rank, ())[: s.naturals],
                *self.hand.twos[k : k + s.twos],
                *(JOKER,) * s.jokers,
            )
            k += s.twos
            out.append(MeldGroup(cards, s.rank if s.onto else None))
        return tuple(out)


Leftover = int | str | None  #: the card kept back when going out: a rank, "two", "joker", or None (every card)


def without_leftover(
    counts: dict[int, int], jokers: int, twos: int, leftovers: list[Leftover]
) -> Iterator[tuple[dict[int, int], int, int, int]]:
    """For each possible card kept back when going out (a natural of a rank, a two, a joker, or none), the
    naturals by rank, jokers and twos left to meld and how many cards stay in the hand; leftovers the hand
    cannot keep back (no two, no joker) are skipped."""
    for leftover in leftovers:
        left = dict(counts)
        j, t = jokers, twos
        if leftover == "two":
            if not t:
                continue
            t -= 1
        elif leftover == "joker":
            if not j:
                continue
            j -= 1
        elif isinstance(leftover, int):
            left[leftover] -= 1
        yield left, j, t, 0 if leftover is None else 1
