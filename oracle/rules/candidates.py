"""The canonical candidate space of actions that legal-move generation enumerates and the rules reuse.

``legal_actions(rules, state)`` lists exactly the actions of the canonical
action space below that ``oracle.rules.referee.check_action`` judges legal (every
candidate is judged by it: the referee is the single source of truth; the
generator only skips candidates that break a rule whatever else happens).
``count_actions`` gives the ActionCounts of a list. The space is a contract:
other implementations are tested against it through the perft files
(``conformance/perft/*.json``, see ``oracle.conformance.perft``).

Canonical groups
----------------
A canonical group is a tuple (rank, n naturals, j jokers, t twos) made
concrete from the mover's hand:

* its cards are the n lowest-numbered hand cards of the rank, then the
  action's next t twos, then j jokers (card numbers as in ``oracle.model.cards``);
* twos are handed out across one action in ascending card number, group by
  group in the action's order (``with`` of a take-pile first, then its melds,
  then the groups of a meld action), so no two groups share a two;
* a natural group has 1 <= n <= the rank's cards in hand (ranks 4..A) and no
  onto_rank; a wild-only group (n = 0, j + t >= 1) names the rank of one of
  the side's melds in onto_rank and adds to it; a black-three group holds
  ``threes.black_three_meld_min``..``_max`` black threes (wilds only where the
  rule set allows them in a black-three meld); where the rule set allows
  wild-only melds, a wild-only group without onto_rank is a new meld (one per
  action, sorted as rank 13);
* the groups of one action have distinct ranks and are sorted by rank index
  (so a black-three group comes before the natural ranks);
* a "new-meld group" is a natural group of a rank the side has no meld of
  (any natural group, if ``melds.one_meld_per_rank`` is off), a black-three
  group, or a wild-only new meld; its points are its card points.

Actions of the space
--------------------
* ``draw``: Draw().
* ``take-pile`` (top card natural): TakePile() with nothing; and TakePile(W, M)
  for every canonical group W of the top card's rank with n >= 1 (the top card
  is not counted in n). M is empty when the side has melds; when it has none,
  M is every MINIMAL extra set: new-meld groups of other ranks (wilds left
  over after W) such that points(top card + W) + points(M) reach the initial
  minimum and removing any one group of M would fall below it (M is empty
  when the top group alone reaches it; the minimum is the one the side's
  running total needs).
* ``meld``, side with melds: Meld((g,)) for every single canonical group g
  (natural, wild-only onto a meld, black-three, or wild-only new meld).
* ``meld``, side without melds: Meld(S) for every set S of new-meld groups
  that is either MINIMAL (points(S) >= minimum and removing any one group
  falls below it; with a minimum <= 0: every single group) or GOING OUT
  (S melds every card of the hand but at most one, whatever its points: the
  only way the concealed-going-out waiver can apply). A set that is both is
  listed once.
* ``discard``: Discard(c) for each distinct card c in hand.
* ``ask``, ``answer yes``, ``answer no``, ``finish``: the single actions.

A listed action is in the space and legal; an action of the space that is
not listed is illegal. Legal actions outside the space exist (several groups
in one action after the initial meld, non-minimal initial melds that do not go
out, melds laid while taking the pile after the initial meld, other choices
among identical cards): the space is a canonical subset that keeps every kind
of move, not every way to write it.

Order: by kind (draw, take-pile, meld, discard, ask, answer, finish as in
ActionCounts), then ascending by the key: take-pile (with_cards, ((cards,
onto), ...)), meld ((cards, onto), ...) over the groups, with onto = -1 when
there is no onto_rank; discard the card; answer yes before no.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from oracle.model.actions import Action, AnswerPartner, AskPartner, Discard, Draw, Finish, Meld, MeldGroup, TakePile
from oracle.model.cards import JOKER, RANK_ACE, RANK_FOUR, RANK_THREE, is_black_three, is_natural, make_card, rank_of
from oracle.model.state import GameState, Phase, SideState, meld_index_of_rank
from oracle.rules.facts import side_of
from oracle.rules.melds import WILD_MELD_RANK, MeldShape, meld_rule_breaks, meld_shape
from oracle.ruleset.compiled import CompiledRules

#: ActionCounts keys, in kind order (``total`` is added by count_actions).
KINDS = ("draw", "take_pile", "meld", "discard", "ask_partner", "answer_partner", "finish")
NATURAL_RANKS = range(RANK_FOUR, RANK_ACE + 1)
_ADDITION_EXEMPT = ("melds.min_size", "melds.min_naturals")  # an addition keeps its meld's size and naturals


@dataclass(frozen=True, slots=True)
class Spec:
    """A canonical group before it gets its cards."""

    rank: int  #: natural rank, RANK_THREE (black threes), WILD_MELD_RANK, or the onto_rank of a wild-only addition
    naturals: int  #: n
    jokers: int  #: j
    twos: int  #: t
    points: int  #: card points of the group
    onto: bool = False  #: a wild-only group joining the side's meld of `rank`


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


class _Gen:
    """Candidate generation for one state (rules, hand, side, points)."""

    def __init__(self, rules: CompiledRules, state: GameState) -> None:
        self.rules = rules
        self.state = state
        self.side: SideState = state.sides[side_of(rules, state.seat_to_move)]
        self.hand = _sort_hand(state.seats[state.seat_to_move].hand)
        points = rules.card_points
        self.joker_points = points[JOKER]
        self.two_points = points[1]
        self.rank_points = {r: points[make_card(r, 0)] for r in range(RANK_THREE, RANK_ACE + 1)}
        self.minimum = rules.minimum_initial_meld(self.side.running_total)[0]

    # --- single groups -----------------------------------------------------------------------------------------

    def spec(self, rank: int, n: int, j: int, t: int, *, onto: bool = False) -> Spec:
        """A Spec with its points."""
        points = n * self.rank_points.get(rank, 0) + j * self.joker_points + t * self.two_points
        return Spec(rank, n, j, t, points, onto)

    def new_ok(self, rank: int, naturals: int, wilds: int) -> bool:
        """A new meld of this make-up breaks no meld rule (black-three melds judged as if going out)."""
        shape = MeldShape(rank, naturals + wilds, naturals, wilds, rank == RANK_THREE)
        return not meld_rule_breaks(shape, self.rules, going_out=True)

    def added_ok(self, old: MeldShape, naturals: int, wilds: int) -> bool:
        """Adding to a meld of shape `old` breaks no meld rule that applies to additions."""
        shape = MeldShape(old.rank, old.size + naturals + wilds, old.naturals + naturals, old.wilds + wilds, False)
        return all(f in _ADDITION_EXEMPT for f, _ in meld_rule_breaks(shape, self.rules, going_out=True))

    def wild_splits(self, jokers: int, twos: int) -> Iterator[tuple[int, int]]:
        """(j, t) pairs within the budgets."""
        return product(range(jokers + 1), range(twos + 1))

    def target_shape(self, rank: int) -> MeldShape | None:
        """Shape of the side's meld a natural group of `rank` joins, or None (a new meld)."""
        if not self.rules.limits.one_per_rank:
            return None
        index = meld_index_of_rank(self.side, rank)
        return None if index is None else meld_shape(self.side.melds[index])

    def new_meld_pool(self, exclude: int = -1) -> list[list[Spec]]:
        """Per rank (ascending), the new-meld groups that break no meld rule on their own."""
        hand, lim = self.hand, self.rules.limits
        pool: list[list[Spec]] = []
        blacks = len(hand.by_rank.get(RANK_THREE, ()))
        if blacks >= lim.black_three_min:
            wild_j, wild_t = (hand.jokers, len(hand.twos)) if lim.black_three_wilds else (0, 0)
            options = [
                self.spec(RANK_THREE, n, j, t)
                for n in range(lim.black_three_min, min(lim.black_three_max, blacks) + 1)
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
        if lim.wild_only:
            options = [
                self.spec(WILD_MELD_RANK, 0, j, t)
                for j, t in self.wild_splits(hand.jokers, len(hand.twos))
                if j + t and self.new_ok(WILD_MELD_RANK, 0, j + t)
            ]
            if options:
                pool.append(options)
        return pool

    def single_groups(self) -> list[Spec]:
        """Every single canonical group that breaks no meld rule (side with melds)."""
        hand = self.hand
        specs = [s for options in self.new_meld_pool() for s in options]
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
            index = meld_index_of_rank(self.side, rank)
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
    ) -> list[tuple[Spec, ...]]:
        """Sets of at most one group per pool entry, within the wild budgets, minimal for reaching the minimum."""
        minimum = self.minimum
        if meld_action and minimum <= 0:  # no set is minimal: a meld action then lists single groups
            return [(s,) for options in pool for s in options if s.jokers <= jokers and s.twos <= twos]
        if base >= minimum:
            return [()]
        best = [max(s.points for s in options) for options in pool]
        rest = [sum(best[k:]) for k in range(len(pool) + 1)]
        found: list[tuple[Spec, ...]] = []

        def walk(start: int, chosen: tuple[Spec, ...], total: int, weakest: int, j: int, t: int) -> None:
            for k in range(start, len(pool)):
                if total + rest[k] < minimum:
                    return
                for spec in pool[k]:
                    if spec.jokers > j or spec.twos > t:
                        continue
                    reached = total + spec.points
                    if reached >= minimum:
                        if reached - min(weakest, spec.points) < minimum:
                            found.append((*chosen, spec))
                    else:
                        walk(k + 1, (*chosen, spec), reached, min(weakest, spec.points), j - spec.jokers, t - spec.twos)

        walk(0, (), base, 1 << 62, jokers, twos)  # no weakest group yet
        return found

    def going_out_sets(self) -> list[tuple[Spec, ...]]:
        """Sets of new-meld groups that meld all the hand but at most one card (side without melds)."""
        hand = self.hand
        counts = {r: len(c) for r, c in hand.by_rank.items()}
        leftovers: list[str | int | None] = [None, *sorted(counts), "two", "joker"]
        found: list[tuple[Spec, ...]] = []
        for leftover in leftovers:
            left = dict(counts)
            jokers, twos = hand.jokers, len(hand.twos)
            if leftover == "two":
                if not twos:
                    continue
                twos -= 1
            elif leftover == "joker":
                if not jokers:
                    continue
                jokers -= 1
            elif isinstance(leftover, int):
                left[leftover] -= 1
            found += self._partitions(left, jokers, twos, cards_left=0 if leftover is None else 1)
        return found

    def _partitions(self, left: dict[int, int], jokers: int, twos: int, cards_left: int) -> list[tuple[Spec, ...]]:
        lim, spec_rules = self.rules.limits, self.rules.spec.going_out
        blacks = left.pop(RANK_THREE, 0)
        if blacks and not lim.black_three_min <= blacks <= lim.black_three_max:
            return []
        ranks = [r for r in sorted(left) if left[r]]
        wild_targets = list(ranks)
        if blacks and lim.black_three_wilds:
            wild_targets.insert(0, RANK_THREE)
        if lim.wild_only:
            wild_targets.append(WILD_MELD_RANK)
        wilds = jokers + twos
        if (not ranks and not blacks and not wilds) or (wilds and not wild_targets):
            return []
        need_canastas = cards_left == 0 or cards_left < spec_rules.min_hand_after_meld_without_canastas
        required = spec_rules.canastas_required if need_canastas else 0
        size = lim.canasta_size
        if (
            sum(1 for r in ranks if left[r] + min(wilds, lim.max_wilds) >= size) + (wilds >= size and lim.wild_only)
            < required
        ):
            return []  # a natural meld holds at most max_wilds wilds, a black-three meld is never a canasta
        room = [lim.max_wilds if r in ranks else wilds for r in wild_targets]  # wilds each target may take
        room_after = [sum(room[k:]) for k in range(len(room) + 1)]
        naturals = {r: left[r] for r in ranks}
        naturals[RANK_THREE] = blacks
        found: list[tuple[Spec, ...]] = []

        def assign(k: int, chosen: dict[int, tuple[int, int]], j: int, t: int) -> None:
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
                if sum(1 for s in specs if s.rank != RANK_THREE and s.naturals + s.jokers + s.twos >= size) >= required:
                    found.append(tuple(specs))
                return
            if j + t > room_after[k]:
                return
            rank = wild_targets[k]
            for jj, tt in self.wild_splits(j, t):
                if (naturals.get(rank, 0) or jj + tt) and not self.new_ok(rank, naturals.get(rank, 0), jj + tt):
                    continue
                assign(k + 1, {**chosen, rank: (jj, tt)} if jj + tt else chosen, j - jj, t - tt)

        assign(0, {}, jokers, twos)
        return found

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


# --- the candidates of each kind -----------------------------------------------------------------------------------


def _take_pile_candidates(gen: _Gen) -> list[Action]:
    pile = gen.state.discard_pile
    if not pile or not is_natural(pile[-1]):
        return []  # an empty pile, or a wild or three on top, is never taken
    rank = rank_of(pile[-1])
    hand = gen.hand
    held = len(hand.by_rank.get(rank, ()))
    old = gen.target_shape(rank)
    candidates: list[Action] = [TakePile()]
    pool = None if gen.side.melds else gen.new_meld_pool(exclude=rank)
    for n in range(1, held + 1):
        for j, t in gen.wild_splits(hand.jokers, len(hand.twos)):
            ok = gen.new_ok(rank, n + 1, j + t) if old is None else gen.added_ok(old, n + 1, j + t)
            if not ok:
                continue
            top = gen.spec(rank, n, j, t)
            with_cards = gen.groups((top,))[0].cards
            if pool is None:
                candidates.append(TakePile(with_cards))
                continue
            base = top.points + gen.rank_points[rank]
            for extra in gen.minimal_sets(pool, base, hand.jokers - j, len(hand.twos) - t):
                candidates.append(TakePile(with_cards, gen.groups(extra, first_two=t)))
    return candidates


def take_pile_candidates(rules: CompiledRules, state: GameState) -> list[TakePile]:
    """The canonical ways to take the pile in this state, not yet judged (the duty to take it uses them)."""
    return [c for c in _take_pile_candidates(_Gen(rules, state)) if isinstance(c, TakePile)]


def _meld_candidates(gen: _Gen) -> list[Action]:
    if gen.side.melds:
        return [Meld(gen.groups((s,))) for s in gen.single_groups()]
    pool = gen.new_meld_pool()
    sets = gen.minimal_sets(pool, 0, gen.hand.jokers, len(gen.hand.twos), meld_action=True) if pool else []
    sets += gen.going_out_sets()
    return [Meld(gen.groups(s)) for s in dict.fromkeys(sets) if s]


def candidates(rules: CompiledRules, state: GameState) -> list[Action]:
    """Every candidate of the space the phase allows (the referee still judges each)."""
    phase = state.phase
    if phase == Phase.DRAW:
        return [Draw(), *_take_pile_candidates(_Gen(rules, state))]
    if phase == Phase.PLAY:
        hand = state.seats[state.seat_to_move].hand
        return [*_meld_candidates(_Gen(rules, state)), *(Discard(c) for c in sorted(set(hand))), AskPartner()]
    if phase == Phase.AWAIT_ANSWER:
        return [AnswerPartner(True), AnswerPartner(False)]
    if phase == Phase.FINAL_MELDS:
        return [*_meld_candidates(_Gen(rules, state)), Finish()]
    return []
