"""Engine against model on the Modern American Canasta meld rules: a rank rule's wild limit, the rule of five and
dead ranks, judged by the referee on whole positions.

Each case puts one rule on its boundary and compares one answer, so that the
other rules the action may break do not blur it:

* wild-limit: a player lays three naturals of a ruled rank with 0 .. melds.max_wilds + 1 wild cards, in the
  side's initial meld or after it; expected: whether the meld breaks a wild limit (the rank rule's, or
  melds.max_wilds), as model_family.rank_wilds_ok and the general limit say; the engine: whether the referee
  names MELD_TOO_MANY_WILDS;
* rule-of-five: after the opening a wild card joins the side's meld of kings holding base - 1 or base naturals
  (melds.wilds_after_opening_min_naturals), or joins with the base-th natural; expected: whether the base is
  missing; the engine: MELD_WILDS_NEED_BASE;
* dead-rank: the other side's meld of queens is one card short of a canasta or a canasta (5 naturals and 1 or
  2 wild cards); a player of either side melds three of the rank, or takes the pile with two of it under one of it;
  expected: whether the rank is dead (model_family.rank_dead); the engine: MELD_RANK_DEAD or PILE_TOP_DEAD;
* pile-top-initial: under initial_meld.pile_top_counts false, an initial meld taking the pile whose hand cards
  fall short of the minimum without the top card, and one that does not; expected: below the minimum
  (model_family.initial_count); the engine: INITIAL_MELD_BELOW_MINIMUM.

A rule set that sets none of these fields has no such case.
"""

from __future__ import annotations

import z3

from oracle.model.actions import Action, Meld, MeldGroup, TakePile
from oracle.model.cards import RANK_ACE, RANK_FOUR, RANK_KING, RANK_QUEEN
from oracle.model.errors import InvalidInputError
from oracle.model.state import GameState, Phase, TurnStart, TurnState
from oracle.rules import referee
from oracle.ruleset.compiled import CompiledRules
from oracle.verify import model_family as fam
from oracle.verify.cases import Case
from oracle.verify.deck_cards import Cards, seat_hands, whole_state
from oracle.verify.model import RuleModel, fixed_meld
from oracle.verify.terms import simplifies_true

STOCK = 30  #: stock cards in every position (far above bonus_cards.none_when_stock_at_most)


def _codes(
    rules: CompiledRules,
    cards: Cards,
    melds: list[list[tuple[int, ...]]],
    mover: int,
    action: Action,
    hand: tuple[int, ...],
    top: int | None = None,
) -> dict[str, object]:
    """The violation codes the referee names for `action` by seat `mover` holding `hand` (+ fillers)."""
    state = whole_state(cards, seat_hands(rules, cards, mover, hand), melds, STOCK)
    side = mover % rules.sides
    if top is not None:
        state = state.evolve(discard_pile=(*state.discard_pile, top), seat_to_move=mover)
    else:
        turn = TurnState(TurnStart.DREW, melds_before_turn=len(melds[side]))
        state = state.evolve(phase=Phase.PLAY, turn=turn, seat_to_move=mover)
    return verdict_codes(rules, state, action)


def verdict_codes(rules: CompiledRules, state: GameState, action: Action) -> dict[str, object]:
    """{"codes": the violation codes the referee names for `action`}, or {"error": why} where it refuses the input."""
    try:
        verdict = referee.check_action(rules, state, action)
    except (InvalidInputError, ValueError) as exc:
        return {"error": str(exc)}
    return {"codes": sorted({v.code.name for v in verdict.violations})}


def _has(answer: dict[str, object], code: str) -> object:
    codes = answer.get("codes")
    return code in codes if isinstance(codes, list) else answer


def _case(rm: RuleModel, slug: str, what: str, expected: bool, key: str, answer: dict[str, object], code: str) -> Case:
    engine = {key: _has(answer, code), **answer}
    return Case(f"{rm.id}-play-{slug}", what, rm.id, "play", {"slug": slug}, {key: expected}, engine)


def _wild_limit_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    spec, cases = rm.spec, []
    for rank in fam.ruled_ranks(spec):
        row = fam.rank_rule(spec, rank)
        assert row is not None
        for opening in (True, False):
            for wilds in range(spec.melds.max_wilds + 2):
                m = fixed_meld(3, wilds)
                ok = z3.And(m.wilds <= spec.melds.max_wilds, fam.rank_wilds_ok(spec, m, rank, opening))
                cards = Cards(rules)
                melds: list[list[tuple[int, ...]]] = [[] for _ in range(rules.sides)]
                if not opening:
                    melds[0].append(cards.take(RANK_KING, 3))
                group = cards.take(rank, 3) + cards.wilds(wilds, 0)
                answer = _codes(rules, cards, melds, 0, Meld((MeldGroup(group),)), group)
                when = "in the side's initial meld" if opening else "after the side's initial meld"
                cases.append(
                    _case(
                        rm,
                        f"wild-limit-r{row.rank}-w{wilds}-{'opening' if opening else 'later'}",
                        f"three naturals of rank {row.rank} and {wilds} wild card(s) laid {when}: a wild limit broken",
                        not simplifies_true(ok),
                        "tooManyWilds",
                        answer,
                        "MELD_TOO_MANY_WILDS",
                    )
                )
    return cases


def _rule_of_five_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    base = rm.spec.melds.wilds_after_opening_min_naturals
    if not base or base > rm.rank_copies:
        return []
    cases = []
    for before, naturals in ((base - 1, 0), (base, 0), (base - 1, 1)):
        cards = Cards(rules)
        meld = cards.take(RANK_KING, before)
        melds: list[list[tuple[int, ...]]] = [[meld] if before else []] + [[] for _ in range(rules.sides - 1)]
        if not before:
            melds[0].append(cards.take(RANK_QUEEN, 3))
        group = cards.take(RANK_KING, naturals) + cards.wilds(1, 0)
        joins = MeldGroup(group, onto_rank=None if naturals else RANK_KING)  # a wild card alone names its meld
        answer = _codes(rules, cards, melds, 0, Meld((joins,)), group)
        cases.append(
            _case(
                rm,
                f"rule-of-five-n{before}-plus{naturals}",
                f"after the opening a wild card joins a meld of {before} kings with {naturals} more natural(s)",
                before + naturals < base,
                "needsBase",
                answer,
                "MELD_WILDS_NEED_BASE",
            )
        )
    return cases


def _dead_rank_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    spec = rm.spec
    if not spec.discard_pile.closed_rank_dead or rm.rank_copies < 8 or rules.sides < 2:
        return []
    cases = []
    for wilds in (1, 2):
        dead = simplifies_true(fam.rank_dead(spec, rm.is_canasta(fixed_meld(5, wilds))))
        for kind, mover in (("meld", 0), ("take", 0), ("take", 1)):
            # side 1 holds a meld of 5 queens and `wilds` wild cards; seat `mover` plays for side mover % sides
            cards = Cards(rules)
            melds: list[list[tuple[int, ...]]] = [[] for _ in range(rules.sides)]
            melds[0].append(cards.take(RANK_KING, 3))
            melds[1].append(cards.take(RANK_QUEEN, 5) + cards.wilds(wilds, 0))
            whose = "the side holding them" if mover % rules.sides == 1 else "the other side"
            if kind == "meld":
                group = cards.take(RANK_QUEEN, 3)
                answer = _codes(rules, cards, melds, mover, Meld((MeldGroup(group),)), group)
                what, code = f"a player of {whose} melds three queens", "MELD_RANK_DEAD"
            else:
                pair = cards.take(RANK_QUEEN, 2)
                top = cards.take(RANK_QUEEN, 1)[0]
                answer = _codes(rules, cards, melds, mover, TakePile(with_cards=pair), pair, top=top)
                what, code = f"a player of {whose} takes the pile with two queens under a queen", "PILE_TOP_DEAD"
            cases.append(
                _case(
                    rm,
                    f"dead-rank-w{wilds}-{kind}-seat{mover}",
                    f"{what}, beside 5 queens and {wilds} wild card(s) on side 1: the rank is dead",
                    dead,
                    "rankDead",
                    answer,
                    code,
                )
            )
    return cases


def _pile_top_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    """An initial meld made by taking the pile with a pair of aces under an ace, with melds of kings, queens and
    fours (and fives) from the hand: short of the minimum without the top card, enough with it (or not)."""
    spec = rm.spec
    if spec.initial_meld.pile_top_counts or rules.sides < 2:
        return []
    cases = []
    for extra in (0, 1):
        cards = Cards(rules)
        pair, top = cards.take(RANK_ACE, 2), cards.take(RANK_ACE, 1)[0]
        ranks = [RANK_KING, RANK_QUEEN, RANK_FOUR] + ([RANK_FOUR + 1] if extra else [])
        groups = [cards.take(rank, 3) for rank in ranks]
        hand_points = 2 * rm.rank_value(RANK_ACE) + sum(3 * rm.rank_value(rank) for rank in ranks)
        counted = fam.initial_count(spec, z3.IntVal(hand_points), z3.IntVal(rm.rank_value(RANK_ACE)))
        below = simplifies_true(counted < rm.minimum(z3.IntVal(0)))
        melds: list[list[tuple[int, ...]]] = [[] for _ in range(rules.sides)]
        action = TakePile(with_cards=pair, melds=tuple(MeldGroup(g) for g in groups))
        answer = _codes(rules, cards, melds, 0, action, pair + sum(groups, ()), top=top)
        cases.append(
            _case(
                rm,
                f"pile-top-initial-{hand_points}",
                f"an initial meld taking the pile under an ace with {hand_points} points from the hand"
                " (initial_meld.pile_top_counts false): below the minimum",
                below,
                "belowMinimum",
                answer,
                "INITIAL_MELD_BELOW_MINIMUM",
            )
        )
    return cases


def play_engine_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    """Every play case of the rule set (none when it sets no rank rule, rule of five, dead ranks, or a pile top
    that does not count toward the minimum)."""
    return (
        _wild_limit_cases(rm, rules)
        + _rule_of_five_cases(rm, rules)
        + _dead_rank_cases(rm, rules)
        + _pile_top_cases(rm, rules)
    )


__all__ = ["play_engine_cases"]
