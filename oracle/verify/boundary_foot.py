"""Engine against model on Hand and Foot: the minimum by hand number, the foot taken up, and the book quotas.

* minimum-by-hand: for hands 1 to len(initial_meld.minimum_by_hand) + 1, the
  engine's CompiledRules.minimum_for_hand against model_foot.minimum_for_hand;
  and seat 0, with its side's first melds still to make in that hand, lays
  melds worth exactly the minimum and the most points below it the solver can
  make (RuleModel.melds_at_once, one book of a rank); expected: whether the
  model's minimum refuses them; the engine: INITIAL_MELD_BELOW_MINIMUM;
* foot: seat 0 has drawn, its side has a meld, its foot waits; it melds its
  whole hand, or all but one card and then discards that one; expected: the
  model's foot turn (model_foot.foot_turn: legal, cards in hand and foot
  after, the hand not ended); the engine: the referee's verdicts and next
  state;
* quotas: seat 0 has taken up its foot, holds one card and discards it, its
  side holding n natural and m mixed canastas for n and m around
  going_out.natural_canastas_required and mixed_canastas_required; expected:
  whether model_foot.books_ok refuses it; the engine: GO_OUT_BOOKS_MISSING
  (and GO_OUT_WITHOUT_ASKING exactly under ASK_PARTNER_REQUIRED_BINDING, the
  partner never asked).

A rule set without minimum_by_hand, foot.size or the quotas has none of the
matching cases.
"""

from __future__ import annotations

import dataclasses

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.model.actions import Action, Discard, Meld, MeldGroup
from oracle.model.cards import RANK_TWO
from oracle.model.errors import InvalidInputError
from oracle.model.state import GameState, HandEnd, PartnerAnswer, Phase, SeatState, TurnStart, TurnState
from oracle.rules import referee
from oracle.ruleset.compiled import CompiledRules
from oracle.verify import model_foot as mf
from oracle.verify.boundary_play import STOCK
from oracle.verify.budget import PROOF_BUDGET, check_within
from oracle.verify.cases import Case
from oracle.verify.deck_cards import Cards, whole_state
from oracle.verify.footprint import shared
from oracle.verify.hand import SideHand
from oracle.verify.model import NATURAL_RANKS, RuleModel
from oracle.verify.solver_io import assert_all, int_values
from oracle.verify.terms import simplifies_true

_NATURAL_RANKS_BY_COPIES = tuple(reversed(NATURAL_RANKS))  #: kings first: a plain rank for fillers and melds


def _state(
    rules: CompiledRules,
    cards: Cards,
    hand: tuple[int, ...],
    melds: list[tuple[int, ...]],
    *,
    foot: bool,
    hand_number: int = 1,
) -> GameState:
    """Seat 0 to play after drawing, holding `hand`, its side holding `melds`, its foot waiting when `foot`."""
    foot_cards = cards.plain(rules.foot.size, set()) if foot else ()
    others = [cards.plain(3, set()) for _ in range(rules.seats - 1)]
    side_melds: list[list[tuple[int, ...]]] = [list(melds)] + [[] for _ in range(rules.sides - 1)]
    state = whole_state(cards, [hand, *others], side_melds, STOCK)
    seats = (SeatState(hand, bool(melds), foot_cards), *state.seats[1:])
    turn = TurnState(TurnStart.DREW, melds_before_turn=len(melds))
    state = state.evolve(seats=seats, phase=Phase.PLAY, turn=turn, seat_to_move=0)
    return dataclasses.replace(state, hand_number=hand_number)


def _codes(rules: CompiledRules, state: GameState, action: Action) -> tuple[list[str], GameState | None]:
    verdict = referee.check_action(rules, state, action)
    return sorted({v.code.name for v in verdict.violations}), verdict.next_state


Laid = list[tuple[int, int, int]]  #: (rank, naturals, wilds) of legal melds, one of a rank


def _minimum_melds(rm: RuleModel) -> list[tuple[int, int, list[tuple[int, Laid]]]]:
    """For each hand number (one past initial_meld.minimum_by_hand too): the model's minimum, and melds from at
    most deal.hand_size - 1 cards worth exactly the minimum and the most points below it (within 30) that any
    reach, where they exist. One solver; each worth is asked as an assumption."""
    melds = rm.melds_at_once("minimum_case")
    solver = PROOF_BUDGET.solver()
    assert_all(solver, [*melds.constraints, melds.cards <= rm.spec.deal.hand_size - 1])
    seen: set[int] = set()
    for rank, m in melds.melds:
        if rank in seen:  # a second book of a rank stays empty (one open book at a time)
            solver.add(m.naturals == 0)
        seen.add(rank)
    solver.add(melds.jokers == 0)  # twos only: the cards are then plain to lay out

    def worth(points: int) -> Laid | None:
        if not check_within(solver, PROOF_BUDGET, f"melds worth {points}", melds.points == points):
            return None
        model = solver.model()

        def num(e: z3.ArithRef) -> int:
            return int_values(model, [e])[0]

        return [(rank, num(m.naturals), num(m.wilds)) for rank, m in melds.melds if num(m.naturals)]

    found = []
    for hand_number in range(1, len(rm.spec.initial_meld.minimum_by_hand) + 2):
        expected = mf.minimum_for_hand(rm.spec, hand_number)
        reached = [] if (at := worth(expected)) is None else [(expected, at)]
        for points in range(expected - 1, max(0, expected - 30), -1):  # down to the first that is met
            if (under := worth(points)) is not None:
                reached.insert(0, (points, under))
                break
        found.append((hand_number, expected, reached))
    return found


def _minimum_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    cases = []
    # the solver's part is shared by the rule sets agreeing on every field it reads (footprint); the engine's own
    for hand_number, expected, reached in shared(
        "minimum-by-hand-melds", rm.spec, lambda s: _minimum_melds(RuleModel(s))
    ):
        cases.append(
            Case(
                f"{rm.id}-minimum-hand{hand_number}",
                f"the minimum initial meld in hand {hand_number} (initial_meld.minimum_by_hand)",
                rm.id,
                "minimum-by-hand",
                {"handNumber": hand_number},
                {"minimum": expected},
                {"minimum": rules.minimum_for_hand(hand_number)},
            )
        )
        for points, laid in reached:
            cards = Cards(rules)
            groups = [cards.take(rank, n) + cards.take(RANK_TWO, w) for rank, n, w in laid]
            filler = cards.plain(2, {rank for rank, _, _ in laid})
            hand = tuple(c for g in groups for c in g) + filler
            try:
                state = _state(rules, cards, hand, [], foot=bool(rm.spec.foot.size), hand_number=hand_number)
                codes, _ = _codes(rules, state, Meld(tuple(MeldGroup(g) for g in groups)))
                engine: dict[str, object] = {"belowMinimum": "INITIAL_MELD_BELOW_MINIMUM" in codes, "codes": codes}
            except (InvalidInputError, ValueError) as exc:
                engine = {"error": str(exc)}
            cases.append(
                Case(
                    f"{rm.id}-minimum-hand{hand_number}-p{points}",
                    f"an initial meld worth {points} in hand {hand_number}: below the minimum",
                    rm.id,
                    "minimum-by-hand",
                    {"handNumber": hand_number, "melds": [list(g) for g in laid]},
                    {"belowMinimum": points < expected},
                    engine,
                )
            )
    return cases


def _foot_expected(rm: RuleModel, hand: int, melded: int, discards: bool) -> dict[str, object]:
    """What model_foot.foot_turn says of seat 0 holding `hand` after drawing, its foot waiting, melding `melded`
    cards and then discarding or not (the side has no canasta)."""
    t = mf.foot_turn(rm.spec, rm.required, "foot_case")
    draw = rm.spec.turn.draw_count
    fixed = [
        t.hand == hand - draw,
        t.foot == rm.spec.foot.size,
        t.stock == STOCK,
        t.melded == melded,
        t.discards == discards,
        t.canastas == 0,
    ]
    solver = z3.Solver()
    assert_all(solver, [*t.constraints, *fixed])
    if solver.check() != z3.sat:
        return {"legal": False}
    model = solver.model()
    return {
        "legal": True,
        "hand": model.eval(t.hand_after, model_completion=True).as_long(),
        "foot": model.eval(t.foot_after, model_completion=True).as_long(),
        "ended": z3.is_true(model.eval(t.went_out, model_completion=True)),
    }


def _foot_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    cases = []
    for discards in (False, True):
        cards = Cards(rules)
        existing = cards.take(_NATURAL_RANKS_BY_COPIES[1], 3)
        book = cards.take(_NATURAL_RANKS_BY_COPIES[0], 3)
        last = cards.take(_NATURAL_RANKS_BY_COPIES[2], 1) if discards else ()
        hand = book + last
        expected = _foot_expected(rm, len(hand), len(book), discards)
        engine: dict[str, object]
        try:
            state = _state(rules, cards, hand, [existing], foot=True)
            codes, after = _codes(rules, state, Meld((MeldGroup(book),)))
            if after is not None and discards:
                codes, after = _codes(rules, after, Discard(last[0]))
            engine = {"legal": after is not None, "codes": codes}
            if after is not None:
                engine |= {
                    "hand": len(after.seats[0].hand),
                    "foot": len(after.seats[0].foot),
                    "ended": after.hand_end == HandEnd.WENT_OUT,
                }
        except (InvalidInputError, ValueError) as exc:
            engine = {"error": str(exc)}
        how = "melds all but one card and discards it" if discards else "melds its whole hand"
        cases.append(
            Case(
                f"{rm.id}-foot-{'discard' if discards else 'meld'}-out",
                f"seat 0, its foot waiting, {how}: legal, cards in hand and foot after, the hand not ended",
                rm.id,
                "foot",
                {"hand": len(hand), "melded": len(book), "discards": discards},
                expected,
                engine,
            )
        )
    return cases


def _quota_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    g, size = rm.spec.going_out, rm.canasta_size
    cases = []
    asked = g.ask_partner == ruleset_pb2.ASK_PARTNER_REQUIRED_BINDING
    for natural in sorted({max(0, g.natural_canastas_required - 1), g.natural_canastas_required}):
        for mixed in sorted(
            {max(0, g.mixed_canastas_required - 1), g.mixed_canastas_required, g.mixed_canastas_required + 1}
        ):
            cards = Cards(rules)
            ranks = iter(_NATURAL_RANKS_BY_COPIES)
            melds = [cards.take(next(ranks), size) for _ in range(natural)]
            melds += [cards.take(next(ranks), size - 1) + cards.take(RANK_TWO, 1) for _ in range(mixed)]
            last = cards.take(next(ranks), 1)
            n, m = z3.IntVal(natural), z3.IntVal(mixed)
            ok = z3.And(n + m >= rm.required, mf.books_ok(rm.spec, n, m))
            expected: dict[str, object] = {
                "booksMissing": not simplifies_true(mf.books_ok(rm.spec, n, m)),
                "mustAsk": asked,
                "wentOut": simplifies_true(ok),
            }
            engine: dict[str, object]
            try:
                state = _state(rules, cards, last, melds, foot=False)
                codes, _ = _codes(rules, state, Discard(last[0]))
                # the same discard after the partner's yes: the hand ends exactly when the quotas are met
                said_yes = state.evolve(turn=dataclasses.replace(state.turn, partner_answer=PartnerAnswer.YES))
                _, after = _codes(rules, said_yes, Discard(last[0]))
                engine = {
                    "booksMissing": "GO_OUT_BOOKS_MISSING" in codes,
                    "mustAsk": "GO_OUT_WITHOUT_ASKING" in codes,
                    "wentOut": after is not None and after.hand_end == HandEnd.WENT_OUT,
                    "codes": codes,
                }
            except (InvalidInputError, ValueError) as exc:
                engine = {"error": str(exc)}
            cases.append(
                Case(
                    f"{rm.id}-quota-n{natural}-m{mixed}",
                    f"seat 0 goes out by discarding its last card, its side holding {natural} natural and {mixed}"
                    f" mixed canasta(s) (going out {'allowed' if expected['wentOut'] else 'refused'} by the model's"
                    " quotas)",
                    rm.id,
                    "quota",
                    {"natural": natural, "mixed": mixed},
                    expected,
                    engine,
                )
            )
    return cases


def held_red_targets(rm: RuleModel, hand: SideHand) -> list[tuple[str, str, list[z3.BoolRef]]]:
    """Score boundaries under threes.red_three_held: one and three red threes held, with and without a meld."""
    if not mf.red_threes_held(rm.spec):
        return []
    return [
        (
            f"held-red{count}-{'meld' if melded else 'nomeld'}",
            f"{count} red three(s) held, {'with' if melded else 'without'} a meld",
            [hand.hand_red_threes == count, hand.has_meld == melded, hand.went_out == 0],
        )
        for count in (1, 3)
        for melded in (True, False)
    ]


def foot_engine_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    """The minimum-by-hand, foot and quota cases of a rule set (none where it has none of these rules)."""
    cases: list[Case] = []
    if rm.spec.initial_meld.minimum_by_hand:
        cases += _minimum_cases(rm, rules)
    if rm.spec.foot.size:
        cases += _foot_cases(rm, rules)
    if mf.has_quotas(rm.spec):
        cases += _quota_cases(rm, rules)
    return cases


__all__ = ["foot_engine_cases", "held_red_targets"]
