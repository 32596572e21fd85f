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
* Samba (runs, several melds of a rank, combining melds): the candidates of
  ``oracle.rules.candidates_runs``, after the ones above of the same kind.
* phase MELD_PILE_TOP (the first step of a two-step take made): the second
  step of every take-pile candidate, Meld((top + W, *M)). The first step,
  ``pick-up-pile``, is not listed in the draw phase: the space keeps the
  combined form of a take, and pick-up-pile is legal exactly when one of the
  listed take-pile actions is.

A listed action is in the space and legal; an action of the space that is
not listed is illegal. Legal actions outside the space exist (several groups
in one action after the initial meld, non-minimal initial melds that do not go
out, melds laid while taking the pile after the initial meld, other choices
among identical cards): the space is a canonical subset that keeps every kind
of move, not every way to write it.

Order: by kind (draw, take-pile, meld, discard, ask, answer, finish, combine
as in ActionCounts), then ascending by the key: take-pile (with_cards, ((cards,
onto), ...)), meld ((cards, onto), ...) over the groups, with onto = -1 when
there is no onto_rank; discard the card; answer yes before no; combine
(first, second); ties (a group named by number or new) by (onto, new) of the
take and of each group.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

from oracle.model.actions import (
    Action,
    AnswerPartner,
    AskPartner,
    Discard,
    Draw,
    Finish,
    Meld,
    TakePile,
    second_step_meld,
)
from oracle.model.cards import RANK_THREE, is_natural, rank_of
from oracle.model.interrupt import Checkpoint
from oracle.model.state import GameState, Phase
from oracle.rules.candidates_runs import combines, extra_melds, extra_takes, has_samba_space
from oracle.rules.canonical_groups import GroupBuilder, Spec
from oracle.rules.minimum import needs_initial_meld
from oracle.ruleset.compiled import CompiledRules

#: ActionCounts keys, in kind order (``total`` is added by count_actions).
KINDS = ("draw", "take_pile", "meld", "discard", "ask_partner", "answer_partner", "finish", "combine")


# --- the candidates of each kind -----------------------------------------------------------------------------------


def _take_pile_candidates(gen: GroupBuilder) -> Iterator[TakePile]:
    pile = gen.state.discard_pile
    if not pile or not is_natural(pile[-1]):
        return  # an empty pile, or a wild or three on top, is never taken
    rank = rank_of(pile[-1])
    hand = gen.hand
    held = len(hand.by_rank.get(rank, ()))
    old = gen.target_shape(rank)
    yield TakePile()
    pool = gen.new_meld_pool(exclude=rank) if needs_initial_meld(gen.side) else None
    for n in range(1, held + 1):
        for j, t in gen.wild_splits(hand.jokers, len(hand.twos)):
            ok = gen.new_ok(rank, n + 1, j + t) if old is None else gen.added_ok(old, n + 1, j + t)
            if not ok:
                continue
            top = gen.spec(rank, n, j, t)
            with_cards = gen.groups((top,))[0].cards
            if pool is None:
                yield TakePile(with_cards)
                continue
            counts_top = gen.rules.initial_meld.pile_top_counts  # the top card's points toward the minimum
            base = top.points + (gen.rank_points[rank] if counts_top else 0)
            natural = not (j or t) and n + (1 if counts_top else 0) >= gen.rules.initial_meld.natural_meld_required
            for extra in _with_natural_meld(gen, pool, base, hand.jokers - j, len(hand.twos) - t, natural):
                yield TakePile(with_cards, gen.groups(extra, first_two=t))


def _with_natural_meld(
    gen: GroupBuilder, pool: list[list[Spec]], base: int, jokers: int, twos: int, has_natural: bool
) -> Iterator[tuple[Spec, ...]]:
    """The extra groups of an initial meld (sorted by rank): minimal for the minimum, and, where
    initial_meld.natural_meld_required is set and the groups so far hold no such meld (`has_natural`), one natural
    group of that many cards or more from the pool with a set minimal over the other ranks."""
    if has_natural or not gen.rules.initial_meld.natural_meld_required:
        yield from gen.minimal_sets(pool, base, jokers, twos)
        return
    need = gen.rules.initial_meld.natural_meld_required
    for k, options in enumerate(pool):
        for clean in options:
            if clean.jokers or clean.twos or clean.naturals < need or clean.rank == RANK_THREE:
                continue
            others = pool[:k] + pool[k + 1 :]
            for extra in gen.minimal_sets(others, base + clean.points, jokers, twos):
                yield tuple(sorted((clean, *extra), key=_rank_order))


def _rank_order(spec: Spec) -> int:
    """Groups of one action in the space's order: by rank index (a black-three group first, wild cards last)."""
    return spec.rank


def take_pile_candidates(rules: CompiledRules, state: GameState) -> list[TakePile]:
    """The canonical ways to take the pile in this state, not yet judged (the duty to take it uses them)."""
    return list(_take_pile_candidates(GroupBuilder(rules, state)))


def _meld_candidates(gen: GroupBuilder) -> Iterator[Meld]:
    if not needs_initial_meld(gen.side):
        yield from (Meld(gen.groups((s,))) for s in gen.single_groups())
        return
    pool = gen.new_meld_pool()
    hand = gen.hand
    if not pool:
        minimal: Iterator[tuple[Spec, ...]] = iter(())
    elif gen.rules.initial_meld.natural_meld_required:
        minimal = _with_natural_meld(gen, pool, 0, hand.jokers, len(hand.twos), False)
    else:
        minimal = gen.minimal_sets(pool, 0, hand.jokers, len(hand.twos), meld_action=True)
    seen: set[tuple[Spec, ...]] = set()  # a set both minimal and going out is listed once, where first found
    for specs in chain(minimal, gen.going_out_sets()):
        if specs and specs not in seen:
            seen.add(specs)
            yield Meld(gen.groups(specs))


def iter_candidates(rules: CompiledRules, state: GameState, checkpoint: Checkpoint | None = None) -> Iterator[Action]:
    """Every candidate of the space the phase allows, one at a time in a fixed order (the referee still judges
    each); `checkpoint` is called as the searches for sets of groups go (what it raises ends the generation)."""
    phase = state.phase
    if phase == Phase.DRAW:
        yield Draw()
        gen = GroupBuilder(rules, state, checkpoint)
        yield from _take_pile_candidates(gen)
        if has_samba_space(gen):
            yield from extra_takes(gen)
    elif phase == Phase.PLAY:
        hand = state.seats[state.seat_to_move].hand
        gen = GroupBuilder(rules, state, checkpoint)
        yield from _meld_candidates(gen)
        if has_samba_space(gen):
            yield from extra_melds(gen)
            yield from combines(gen)
        yield from (Discard(c) for c in sorted(set(hand)))
        yield AskPartner()
    elif phase == Phase.AWAIT_ANSWER:
        yield from (AnswerPartner(True), AnswerPartner(False))
    elif phase == Phase.FINAL_MELDS:
        gen = GroupBuilder(rules, state, checkpoint)
        yield from _meld_candidates(gen)
        if has_samba_space(gen):
            yield from extra_melds(gen)
            yield from combines(gen)
        yield Finish()
    elif phase == Phase.MELD_PILE_TOP:  # the second step of a two-step take: each take-pile candidate as a meld
        top = state.discard_pile[-1]
        gen = GroupBuilder(rules, state, checkpoint)
        takes = chain(_take_pile_candidates(gen), extra_takes(gen) if has_samba_space(gen) else ())
        yield from (second_step_meld(top, take) for take in takes)


def candidates(rules: CompiledRules, state: GameState) -> list[Action]:
    """Every candidate of the space the phase allows, in a fixed order (the referee still judges each)."""
    return list(iter_candidates(rules, state))
