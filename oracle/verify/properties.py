"""The properties every rule set must have, one sentence each, and proving them with Z3 (counterexample otherwise).

A universal property is proved when its negation is unsatisfiable under the
model's constraints; a property that claims something is possible ("a canasta
can be completed") is proved by a witness. Either way a failure reports the
solver's counterexample (or that no witness exists) in words.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import z3

from oracle.verify.hand import ConcreteSide, score_extremes, side_hand
from oracle.verify.model import NATURAL_RANKS, Cond, Expr, MeldCounts, RuleModel, fixed_meld, meld_counts

SOLVER_TIMEOUT_MS = 30_000  #: a proof the solver has not finished by then is reported as not proved


@dataclass(frozen=True)
class Outcome:
    """Whether a property holds for one rule set, and the counterexample, witness or numbers in words."""

    holds: bool
    detail: str = ""


@dataclass(frozen=True)
class Property:
    """A property: a stable id, one sentence, and the check that proves it for a rule set's model."""

    id: str
    sentence: str
    check: Callable[[RuleModel], Outcome]


@dataclass(frozen=True)
class PropertyResult:
    """One property checked against one rule set."""

    property_id: str
    rule_set_id: str
    holds: bool
    detail: str
    ms: float


Shown = Sequence[Expr | Cond | tuple[str, Expr | Cond]]  # terms to report, optionally with a label


def _describe(model: z3.ModelRef, show: Shown) -> str:
    parts = []
    for item in show:
        label, term = item if isinstance(item, tuple) else (str(item), item)
        parts.append(f"{label}={model.eval(term, model_completion=True)}")
    return ", ".join(parts)


def prove(claim: Cond, given: Sequence[Cond] = (), show: Shown = ()) -> Outcome:
    """Proved when `given` and not `claim` is unsatisfiable; otherwise the counterexample, in `show`'s terms."""
    solver = z3.Solver()
    solver.set("timeout", SOLVER_TIMEOUT_MS)
    solver.add(*given)
    solver.add(z3.Not(claim))
    result = solver.check()
    if result == z3.unsat:
        return Outcome(True)
    if result == z3.sat:
        return Outcome(False, "counterexample: " + (_describe(solver.model(), show) or "(no free counts)"))
    return Outcome(False, f"solver gave up: {solver.reason_unknown()}")


def exists(claim: Cond, show: Shown, why_not: str) -> Outcome:
    """Proved by a witness of `claim`; otherwise `why_not`."""
    solver = z3.Solver()
    solver.set("timeout", SOLVER_TIMEOUT_MS)
    solver.add(claim)
    result = solver.check()
    if result == z3.sat:
        return Outcome(True, "e.g. " + _describe(solver.model(), show) if show else "")
    if result == z3.unsat:
        return Outcome(False, f"no example exists: {why_not}")
    return Outcome(False, f"solver gave up: {solver.reason_unknown()}")


def all_of(outcomes: Sequence[tuple[str, Outcome]]) -> Outcome:
    """Holds when every labelled outcome holds; the failures are listed with their labels."""
    failed = [f"{label}: {o.detail}" for label, o in outcomes if not o.holds]
    if failed:
        return Outcome(False, "; ".join(failed))
    return Outcome(True, "; ".join(f"{label}: {o.detail}" for label, o in outcomes if o.detail))


def _show(m: MeldCounts) -> list[Expr]:
    return [m.naturals, m.wilds]


def _values(rm: RuleModel) -> list[int]:
    return sorted({rm.rank_value(r) for r in NATURAL_RANKS})


def _plus(m: MeldCounts, naturals: int = 0, wilds: int = 0) -> MeldCounts:
    return MeldCounts(m.naturals + naturals, m.wilds + wilds, m.jokers)


# ----- melds -------------------------------------------------------------------------------------------------


def _meld_limits(rm: RuleModel) -> Outcome:
    m, s = meld_counts("meld"), rm.spec.melds
    return prove(
        z3.And(m.size >= s.min_size, m.naturals >= s.min_naturals, m.wilds <= s.max_wilds),
        [rm.legal_meld(m), m.naturals >= 1, rm.in_deck(m)],
        _show(m),
    )


def _natural_meld_exists(rm: RuleModel) -> Outcome:
    k = max(rm.spec.melds.min_size, rm.spec.melds.min_naturals)
    m = fixed_meld(k)
    return prove(z3.And(rm.legal_natural_meld(m), rm.in_deck(m)), show=[("naturals", m.naturals)])


def _max_wilds_reachable(rm: RuleModel) -> Outcome:
    m = meld_counts("meld")
    return exists(
        z3.And(rm.legal_natural_meld(m), rm.in_deck(m), m.wilds == rm.spec.melds.max_wilds),
        _show(m),
        f"no legal meld holds {rm.spec.melds.max_wilds} wild cards",
    )


def _natural_keeps_legal(rm: RuleModel) -> Outcome:
    m, cap = meld_counts("meld"), rm.spec.melds.max_size
    grown = _plus(m, naturals=1)
    return prove(
        rm.legal_meld(grown),
        [rm.legal_natural_meld(m), rm.in_deck(grown), z3.BoolVal(True) if not cap else grown.size <= cap],
        _show(m),
    )


def _fewer_wilds_keep_legal(rm: RuleModel) -> Outcome:
    m = meld_counts("meld")
    smaller = MeldCounts(m.naturals, m.wilds - 1, z3.IntVal(0))
    return prove(
        rm.legal_meld(smaller),
        [rm.legal_natural_meld(m), m.wilds >= 1, smaller.size >= rm.spec.melds.min_size],
        _show(m),
    )


# ----- canastas ----------------------------------------------------------------------------------------------


def _canasta_naturals(rm: RuleModel) -> Outcome:
    m = meld_counts("canasta")
    return prove(
        m.naturals >= rm.canasta_size - rm.spec.melds.max_wilds,
        [rm.legal_natural_meld(m), rm.is_canasta(m), rm.in_deck(m)],
        _show(m),
    )


def _canasta_mostly_natural(rm: RuleModel) -> Outcome:
    m = meld_counts("canasta")
    return prove(m.naturals > m.wilds, [rm.legal_natural_meld(m), rm.is_canasta(m), rm.in_deck(m)], _show(m))


def _canasta_reachable(rm: RuleModel) -> Outcome:
    m = meld_counts("canasta")
    return exists(
        z3.And(rm.legal_natural_meld(m), rm.is_canasta(m), rm.in_deck(m)),
        _show(m),
        f"no legal meld of one rank reaches {rm.canasta_size} cards within the deck",
    )


def _natural_canasta_reachable(rm: RuleModel) -> Outcome:
    m = fixed_meld(rm.canasta_size)
    return prove(z3.And(rm.legal_natural_meld(m), rm.in_deck(m)), show=[("naturals", m.naturals)])


def _natural_beats_mixed(rm: RuleModel) -> Outcome:
    natural, mixed = meld_counts("natural"), meld_counts("mixed")
    given = [
        rm.legal_natural_meld(natural),
        rm.is_natural_canasta(natural),
        rm.in_deck(natural),
        rm.legal_natural_meld(mixed),
        rm.is_canasta(mixed),
        mixed.wilds >= 1,
        rm.in_deck(mixed),
        mixed.size == natural.size,
    ]
    return all_of(
        [
            (
                f"rank worth {v}",
                prove(
                    rm.meld_points(natural, z3.IntVal(v)) + rm.canasta_bonus(natural)
                    > rm.meld_points(mixed, z3.IntVal(v)) + rm.canasta_bonus(mixed),
                    given,
                    [natural.naturals, mixed.naturals, mixed.wilds, mixed.jokers],
                ),
            )
            for v in _values(rm)
        ]
    )


def _canasta_growth(rm: RuleModel) -> Outcome:
    m, cap = meld_counts("canasta"), rm.spec.melds.max_size
    grown = _plus(m, naturals=1)
    given = [
        rm.legal_natural_meld(m),
        rm.is_canasta(m),
        rm.in_deck(m),
        rm.in_deck(grown),
        z3.BoolVal(True) if not cap else grown.size <= cap,
    ]
    return all_of(
        [
            (
                f"rank worth {v}",
                prove(
                    z3.And(
                        rm.legal_meld(grown),
                        rm.is_canasta(grown),
                        rm.is_natural_canasta(grown) == rm.is_natural_canasta(m),
                        rm.meld_points(grown, z3.IntVal(v)) + rm.canasta_bonus(grown)
                        >= rm.meld_points(m, z3.IntVal(v)) + rm.canasta_bonus(m),
                    ),
                    given,
                    _show(m),
                ),
            )
            for v in _values(rm)
        ]
    )


def _black_threes_not_canasta(rm: RuleModel) -> Outcome:
    m = meld_counts("black_meld")
    return prove(
        z3.Not(rm.is_canasta(m)),
        [rm.legal_black_meld(m, z3.BoolVal(True)), rm.in_deck(MeldCounts(z3.IntVal(0), m.wilds, m.jokers))],
        [m.naturals, m.wilds],
    )


# ----- card points and a hand's score ------------------------------------------------------------------------


def _wilds_worth_most(rm: RuleModel) -> Outcome:
    value, v = z3.Int("natural_value"), rm.spec.card_values
    return prove(z3.And(value <= v.two, v.two <= v.joker, value > 0), [rm.natural_value_choice(value)], [value])


def _meld_points_positive(rm: RuleModel) -> Outcome:
    m = meld_counts("meld")
    return all_of(
        [
            (
                f"rank worth {v}",
                prove(
                    rm.meld_points(m, z3.IntVal(v)) > 0,
                    [rm.legal_meld(m), rm.in_deck(m)],
                    [m.naturals, m.wilds, m.jokers],
                ),
            )
            for v in _values(rm)
        ]
    )


def _red_three_score(rm: RuleModel) -> Outcome:
    hand, t = side_hand(rm, "side"), rm.spec.threes
    count, melded = hand.red_threes, hand.meld_count >= 1
    base = z3.If(count == rm.red_three_copies, t.all_red_threes_bonus, count * t.red_three_bonus)
    expected = base if not t.red_threes_negative_without_meld else z3.If(melded, base, -base)
    return prove(
        hand.items["red_threes"] == expected,
        hand.constraints,
        [("red_threes", count), ("melds", hand.meld_count), ("score", hand.items["red_threes"])],
    )


def _red_three_monotone(rm: RuleModel) -> Outcome:
    r = z3.Int("red_threes")
    up = rm.red_three_score(r + 1, z3.BoolVal(True)) > rm.red_three_score(r, z3.BoolVal(True))
    down = rm.red_three_score(r + 1, z3.BoolVal(False)) < rm.red_three_score(r, z3.BoolVal(False))
    claim = z3.And(up, down) if rm.spec.threes.red_threes_negative_without_meld else up
    return prove(claim, [r >= 0, r + 1 <= rm.red_three_copies], [r])


def _score_is_sum(rm: RuleModel) -> Outcome:
    hand = side_hand(rm, "side")
    i = hand.items
    claim = z3.And(
        hand.total == i["melded"] + i["canastas"] + i["red_threes"] + i["going_out"] + i["in_hand"],
        i["melded"] >= 0,
        i["canastas"] >= 0,
        i["going_out"] >= 0,
        i["in_hand"] <= 0,
    )
    return prove(claim, hand.constraints, [(k, e) for k, e in i.items()])


def _going_out_pays(rm: RuleModel) -> Outcome:
    a, b = z3.Ints("went_out_a went_out_b")
    return prove(rm.going_out_bonus(a) <= rm.going_out_bonus(b), [a >= 0, a <= b, b <= 2], [a, b])


def _side_text(side: ConcreteSide) -> str:
    parts = [f"{len(side.melds) + (1 if side.black_meld else 0)} meld(s)", f"{side.red_threes} red three(s)"]
    held = sum(side.hand.values()) + side.hand_twos + side.hand_jokers + side.hand_black_threes
    parts.append(f"{held} card(s) in hand")
    parts.append(["did not go out", "went out", "went out concealed"][side.went_out])
    return ", ".join(parts)


def _score_bounds(rm: RuleModel) -> Outcome:
    extremes = score_extremes(rm)
    if extremes is None:
        return Outcome(False, "z3.Optimize gave up before finding the lowest and highest scores")
    low, high = extremes.low.total, extremes.high.total
    return Outcome(True, f"lowest {low} ({_side_text(extremes.low)}), highest {high} ({_side_text(extremes.high)})")


# ----- the minimum initial meld ------------------------------------------------------------------------------


def _minimum_monotone(rm: RuleModel) -> Outcome:
    a, b = z3.Ints("running_total_a running_total_b")
    return prove(
        rm.minimum(a) <= rm.minimum(b), [a <= b], [a, b, ("minimum_a", rm.minimum(a)), ("minimum_b", rm.minimum(b))]
    )


def _rows_apply(rm: RuleModel) -> Outcome:
    total, target = z3.Int("running_total"), rm.spec.game.target_score
    return all_of(
        [
            (
                f"thresholds[{i}]",
                exists(
                    z3.And(total < target, rm.row_of(total) == i),
                    [total],
                    f"a running total below game.target_score {target} never reaches from_score {from_score}",
                ),
            )
            for i, (from_score, _) in enumerate(rm.thresholds)
        ]
    )


def _minimum_reachable(rm: RuleModel) -> Outcome:
    rows = [("minimum_below_table", rm.spec.initial_meld.minimum_below_table)]
    rows += [(f"thresholds[{i}]", minimum) for i, (_, minimum) in enumerate(rm.thresholds)]
    melds = rm.melds_at_once("initial")
    solver = z3.Solver()
    solver.add(*melds.constraints, rm.first_turn_meld_ok(melds))
    outcomes = []
    for label, minimum in rows:
        solver.push()
        solver.add(melds.points >= minimum)
        result = solver.check()
        solver.pop()
        outcomes.append(
            (
                label,
                Outcome(True)
                if result == z3.sat
                else Outcome(
                    False,
                    f"no legal initial meld from {rm.spec.deal.hand_size} + {rm.spec.turn.draw_count} cards reaches"
                    f" {minimum} points ({result})",
                ),
            )
        )
    return all_of(outcomes)


# ----- the pile and going out --------------------------------------------------------------------------------


def _frozen_pair_takes(rm: RuleModel) -> Outcome:
    return prove(
        rm.take_pile(z3.BoolVal(True), z3.IntVal(2), z3.IntVal(0), z3.BoolVal(False)),
        show=[("naturals_with_top_card", z3.IntVal(3))],
    )


def _frozen_needs_pair(rm: RuleModel) -> Outcome:
    k, w, onto = z3.Int("naturals_from_hand"), z3.Int("wilds_from_hand"), z3.Bool("onto_meld")
    return prove(z3.And(k >= 2, k + 1 >= 3), [rm.take_pile(z3.BoolVal(True), k, w, onto)], [k, w, onto])


def _natural_and_wild(rm: RuleModel) -> Outcome:
    w = z3.Int("wilds_from_hand")
    flag = rm.spec.discard_pile.unfrozen_natural_and_wild
    one_natural = rm.take_pile(z3.BoolVal(False), z3.IntVal(1), w, z3.BoolVal(False))
    claim = one_natural if flag else z3.Not(one_natural)
    return prove(claim, [w == 1] if flag else [w >= 1], [w])


def _go_out_needs_canastas(rm: RuleModel) -> Outcome:
    after, canastas, discards = z3.Int("cards_after_melding"), z3.Int("canastas"), z3.Bool("discards")
    final = after - z3.If(discards, 1, 0)
    given = [
        canastas >= 0,
        rm.turn_end_ok(after, canastas),
        z3.Implies(discards, rm.discard_ok(after, canastas)),
        final == 0,
    ]
    return prove(canastas >= rm.required, given, [after, canastas, discards])


def _go_out_reachable(rm: RuleModel) -> Outcome:
    melds = rm.melds_at_once("side")
    return exists(
        z3.And(*melds.constraints, melds.canastas >= rm.required),
        [("canastas", melds.canastas), ("cards_melded", melds.cards)],
        f"the deck cannot hold {rm.required} legal canastas at once",
    )


def _keep_allows_discard(rm: RuleModel) -> Outcome:
    after, canastas = z3.Int("cards_after_melding"), z3.Int("canastas")
    given = [canastas >= 0, canastas < rm.required, rm.turn_end_ok(after, canastas)]
    return prove(z3.And(rm.discard_ok(after, canastas), after - 1 >= 1), given, [after, canastas])


PROPERTIES: list[Property] = [
    Property(
        "meld-limits",
        "Every legal meld of a natural rank holds at least melds.min_size cards, at least"
        " melds.min_naturals naturals and at most melds.max_wilds wild cards.",
        _meld_limits,
    ),
    Property(
        "natural-meld-exists",
        "A meld of max(melds.min_size, melds.min_naturals) naturals of one rank and no"
        " wild card is legal and fits in the deck.",
        _natural_meld_exists,
    ),
    Property(
        "max-wilds-reachable",
        "Some legal meld holds exactly melds.max_wilds wild cards, so the limit is"
        " reachable under melds.wild_ratio, melds.max_size and the deck.",
        _max_wilds_reachable,
    ),
    Property(
        "natural-keeps-legal",
        "Adding a natural card to a legal meld keeps it legal unless it would pass melds.max_size.",
        _natural_keeps_legal,
    ),
    Property(
        "fewer-wilds-keep-legal",
        "Taking a wild card out of a legal meld keeps it legal while it still has melds.min_size cards.",
        _fewer_wilds_keep_legal,
    ),
    Property(
        "canasta-naturals",
        "Every canasta holds at least canastas.min_size - melds.max_wilds natural cards.",
        _canasta_naturals,
    ),
    Property(
        "canasta-mostly-natural",
        "In every canasta the natural cards outnumber the wild cards (the rule books'"
        " 'at least four naturals' under the classic limits).",
        _canasta_mostly_natural,
    ),
    Property(
        "canasta-reachable",
        "A legal meld of one rank can reach canastas.min_size cards within the deck's copies.",
        _canasta_reachable,
    ),
    Property(
        "natural-canasta-reachable",
        "canastas.min_size naturals of one rank, with no wild card, are a legal"
        " meld that the deck's copies of one rank can make.",
        _natural_canasta_reachable,
    ),
    Property(
        "natural-beats-mixed",
        "A natural canasta always scores more (bonus plus card points) than a mixed canasta of the same rank and size.",
        _natural_beats_mixed,
    ),
    Property(
        "canasta-growth",
        "Adding a natural card to a canasta keeps it a legal canasta of the same kind and"
        " never lowers its bonus plus card points, unless it would pass melds.max_size.",
        _canasta_growth,
    ),
    Property(
        "black-threes-not-canasta",
        "A legal black-three meld never reaches canastas.min_size cards.",
        _black_threes_not_canasta,
    ),
    Property(
        "wilds-worth-most",
        "Every natural card is worth more than 0 and no more than a two, and a two no more than a joker.",
        _wilds_worth_most,
    ),
    Property("meld-points-positive", "Every legal meld is worth more than 0 card points.", _meld_points_positive),
    Property(
        "red-three-score",
        "A side's r red threes score r x threes.red_three_bonus, or"
        " threes.all_red_threes_bonus when r is every red three of the deck, negated for a side without a meld"
        " when threes.red_threes_negative_without_meld is set.",
        _red_three_score,
    ),
    Property(
        "red-three-monotone",
        "Each further red three raises the score of a side that has melded, and lowers"
        " it for a side that has not when red threes are then negative.",
        _red_three_monotone,
    ),
    Property(
        "score-is-sum",
        "A side's hand score is the sum of its items: melded card points, canasta bonuses and"
        " the going-out bonus (never negative), the red-three score, and minus the points left in hand.",
        _score_is_sum,
    ),
    Property(
        "going-out-pays",
        "Going out concealed earns at least as much as going out, which earns at least as much as not going out.",
        _going_out_pays,
    ),
    Property(
        "score-bounds",
        "Every side's hand score lies between the lowest and highest totals z3.Optimize finds"
        " over the deck's counts (reported).",
        _score_bounds,
    ),
    Property(
        "minimum-monotone",
        "The minimum-meld table gives one minimum for every running total, and it never"
        " decreases as the running total rises.",
        _minimum_monotone,
    ),
    Property(
        "threshold-rows-apply",
        "Every row of initial_meld.thresholds is the row in force for some running total below game.target_score.",
        _rows_apply,
    ),
    Property(
        "minimum-reachable",
        "At every threshold the minimum can be met by a legal initial meld from one"
        " turn's cards (deal.hand_size + turn.draw_count) within the deck, ending the turn legally.",
        _minimum_reachable,
    ),
    Property(
        "frozen-pair-takes",
        "A frozen pile whose top card is a natural can always be taken with a natural"
        " pair of its rank: the three naturals form a legal meld.",
        _frozen_pair_takes,
    ),
    Property(
        "frozen-needs-pair",
        "Every legal take of a frozen pile melds its top card with at least two natural"
        " cards of its rank from the hand.",
        _frozen_needs_pair,
    ),
    Property(
        "natural-and-wild",
        "One natural and one wild from the hand take an unfrozen pile exactly when"
        " discard_pile.unfrozen_natural_and_wild is set.",
        _natural_and_wild,
    ),
    Property(
        "go-out-needs-canastas",
        "No legal meld-and-discard leaves a player without cards while the side has"
        " fewer than going_out.canastas_required canastas.",
        _go_out_needs_canastas,
    ),
    Property(
        "go-out-reachable",
        "A side can hold going_out.canastas_required legal canastas at once within the deck, so going out is possible.",
        _go_out_reachable,
    ),
    Property(
        "keep-allows-discard",
        "A player without the side's canastas who melds as far as"
        " going_out.min_hand_after_meld_without_canastas allows can still discard without going out.",
        _keep_allows_discard,
    ),
]


def check_properties(rm: RuleModel, properties: Sequence[Property] = PROPERTIES) -> list[PropertyResult]:
    """Check every property against one rule set's model, timing each."""
    results = []
    for prop in properties:
        start = time.perf_counter()
        outcome = prop.check(rm)
        results.append(
            PropertyResult(prop.id, rm.id, outcome.holds, outcome.detail, (time.perf_counter() - start) * 1000)
        )
    return results
