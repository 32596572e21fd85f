"""Engine against model: Z3 finds the boundary cases where a rule flips, and the Python engine must agree on each.

For each rule set the solver enumerates every pair of neighbouring count
vectors (one natural more, one wild more, going out or not, a running total
one higher) on which a model predicate changes value: meld legality, being a
canasta, being a natural canasta, black-three meld legality, the minimum
initial meld and its threshold row. Both sides of every flip become a case.
Score cases (boundary_score) are side tables the solver builds to sit on score boundaries
(0, 1, all-but-one and all red threes, with and without a meld; a meld one
card short of a canasta; natural and mixed canastas of exactly
canastas.min_size; going out with exactly the canastas required; black-three
melds of the smallest and largest size; the lowest and highest scoring tables;
one red three with one canasta fewer than threes.canastas_for_red_threes and
with that many; and, where a rule set sets them, the Modern American Canasta score rules'
boundaries of boundary_family).
The end of the stock (boundary_stock) and, under players.side_formation
LONE_HAND, merged melds and each seat's score (boundary_formation) add theirs; under runs, runs and the pile's
top card onto a run (boundary_runs); under Hand and Foot's rules, the minimum by hand number, the foot and the
book quotas (boundary_foot), and score tables with red threes held.

Each case's counts become concrete cards, and the engine answers with
oracle.rules.melds (meld_shape, meld_rule_breaks, is_canasta),
CompiledRules.minimum_initial_meld and oracle.rules.scoring.score_hand. A
disagreement is kept and, given a directory, written there as a conformance
case: one JSON file `<id>.json` holding one object:

    {
      "id": "classic-4p-meld-n2-w4",      stable: rule set, kind, inputs
      "description": "...",               what is checked, in words
      "ruleSetId": "classic-4p",
      "kind": "meld" | "black-three-meld" | "minimum" | "score",
      "input":    meld kinds: {"cards": "9C 9D 2C JK", "goingOut": false}
                  minimum:    {"runningTotal": 1499}
                  score:      {"table": {"sides": [{"melds": ["9C 9D 9H"], "redThrees": "3D",
                                                    "hands": ["4C", ""], "wentOut": "NO"}, ...]}}
      "expected": the model's answer
                  meld kinds: {"legal": bool, "canasta": bool, "naturalCanasta": bool}
                  minimum:    {"minimum": 50, "rowFromScore": 0}   (null: below the table)
                  score:      side 0's {"melded", "canastas", "redThrees", "goingOut", "inHand",
                              "unfinished", "heldRanks", "total"} (redThrees: the threes' score)
      "engine":   the engine's answer in the same shape, plus "breaks" (the rule-set fields a meld
                  breaks) for meld kinds, or {"error": "..."} when the engine refused the input
    }

Cards are written in the project's notation (oracle.model.cards); wentOut is NO,
NORMAL or CONCEALED.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import z3

from oracle.model.cards import RANK_THREE, format_cards
from oracle.rules import melds
from oracle.ruleset.compiled import CompiledRules
from oracle.verify.boundary_foot import foot_engine_cases
from oracle.verify.boundary_formation import formation_engine_cases
from oracle.verify.boundary_play import play_engine_cases
from oracle.verify.boundary_runs import run_engine_cases
from oracle.verify.boundary_score import score_cases
from oracle.verify.budget import PROOF_BUDGET, check_within, fresh_z3_context
from oracle.verify.cases import Case
from oracle.verify.deck_cards import Cards
from oracle.verify.footprint import shared
from oracle.verify.model import NATURAL_RANKS, Cond, MeldCounts, RuleModel
from oracle.verify.model_family import rank_rule
from oracle.verify.side_cards import wild_cards
from oracle.verify.solver_io import int_values
from oracle.verify.terms import simplifies_true

MAX_FLIPS = 200  # per predicate and direction: a guard, far above what real rule sets produce


@dataclass
class EngineReport:
    """The engine-against-model result for one rule set."""

    rule_set_id: str
    cases: list[Case] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)  #: case files written for disagreements

    @property
    def disagreements(self) -> list[Case]:
        """The cases where the engine and the model differ."""
        return [c for c in self.cases if not c.agrees]

    def by_kind(self) -> dict[str, int]:
        """How many cases of each kind."""
        return dict(Counter(c.kind for c in self.cases))


def _flips(
    variables: list[z3.ArithRef],
    domain: Callable[..., Cond],
    predicate: Callable[..., Cond],
    steps: list[tuple[int, ...]],
) -> Iterator[tuple[int, ...]]:
    """Every point p in the domain where predicate(p) != predicate(p + step), and p + step, for each step."""
    for step in steps:
        moved = [v + d for v, d in zip(variables, step, strict=True)]
        solver = PROOF_BUDGET.simple_solver()
        solver.add(domain(*variables), domain(*moved), predicate(*variables) != predicate(*moved))
        for _ in range(MAX_FLIPS):
            if not check_within(solver, PROOF_BUDGET, f"the boundary search along {step}"):
                break
            point = tuple(int_values(solver.model(), variables))
            yield point
            yield tuple(p + d for p, d in zip(point, step, strict=True))
            solver.add(z3.Or([v != p for v, p in zip(variables, point, strict=True)]))


def _meld_answer(rules: CompiledRules, cards: Sequence[int], going_out: bool) -> dict[str, object]:
    shape = melds.meld_shape(cards)
    breaks = [b.field for b in melds.meld_rule_breaks(shape, rules, going_out=going_out)]
    canasta = melds.is_canasta(shape, rules)
    return {"legal": not breaks, "canasta": canasta, "naturalCanasta": canasta and shape.wilds == 0, "breaks": breaks}


def _meld_points(rm: RuleModel) -> list[tuple[int, int, dict[str, object]]]:
    """(naturals, wilds, the model's answer) on each side of every meld flip."""
    n, w = z3.Ints("naturals wilds")

    def domain(a: z3.ArithRef, b: z3.ArithRef) -> Cond:
        return z3.And(a >= 0, a <= rm.rank_copies, b >= 0, b <= rm.wild_copies, a + b >= 1)

    def at(a: z3.ArithRef, b: z3.ArithRef) -> MeldCounts:
        return MeldCounts(a, b, z3.IntVal(0))

    predicates: list[Callable[..., Cond]] = [
        lambda a, b: rm.legal_meld(at(a, b)),
        lambda a, b: z3.And(rm.legal_meld(at(a, b)), rm.is_canasta(at(a, b))),
        lambda a, b: z3.And(rm.legal_meld(at(a, b)), rm.is_natural_canasta(at(a, b))),
    ]
    points = sorted({p for pred in predicates for p in _flips([n, w], domain, pred, [(1, 0), (0, 1)])})
    # the model's answers, built once over the counts and given each point's numbers (z3.substitute: one call,
    # where building the terms again at each point was most of this search's time)
    answers = {"legal": rm.legal_meld(at(n, w)), "canasta": rm.is_canasta(at(n, w))}
    answers["naturalCanasta"] = rm.is_natural_canasta(at(n, w))
    found = []
    for naturals, wilds in points:
        numbers = [(n, z3.IntVal(naturals)), (w, z3.IntVal(wilds))]
        expected: dict[str, object] = {k: simplifies_true(z3.substitute(t, *numbers)) for k, t in answers.items()}
        found.append((naturals, wilds, expected))
    return found


def _meld_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    # the flips, shared by the rule sets that agree on every field they read (footprint); the engine's answers own
    points = shared("meld-points", rm.spec, lambda spec: _meld_points(RuleModel(spec)))
    # ranks no rank rule names (melds.rank_rules' limits are the play cases' business): the model's meld rules here
    # are the general ones
    plain = [r for r in NATURAL_RANKS if rank_rule(rm.spec, r) is None] or list(NATURAL_RANKS)
    cases = []
    for i, (naturals, wilds, expected) in enumerate(points):
        deck = Cards(rules)
        rank = plain[i % len(plain)]
        cards = deck.take(rank, naturals) + wild_cards(rm, deck, wilds)
        cases.append(
            Case(
                f"{rm.id}-meld-n{naturals}-w{wilds}",
                f"a meld of {naturals} natural(s) and {wilds} wild card(s): legal, canasta, natural canasta",
                rm.id,
                "meld",
                {"cards": format_cards(cards), "goingOut": False},
                dict(expected),
                _meld_answer(rules, cards, False),
            )
        )
    return cases


def _black_three_points(rm: RuleModel) -> list[tuple[int, int, int, bool]]:
    """(black threes, wilds, going out 0 or 1, the model's legality) on each side of every black-three meld flip."""
    b, w, g = z3.Ints("black_threes wilds going_out")

    def domain(x: z3.ArithRef, y: z3.ArithRef, z: z3.ArithRef) -> Cond:
        return z3.And(x >= 1, x <= rm.black_three_copies, y >= 0, y <= rm.wild_copies, z >= 0, z <= 1)

    def legal(x: z3.ArithRef, y: z3.ArithRef, z: z3.ArithRef) -> Cond:
        return rm.legal_black_meld(MeldCounts(x, y, z3.IntVal(0)), z == 1)

    points = sorted(set(_flips([b, w, g], domain, legal, [(1, 0, 0), (0, 1, 0), (0, 0, 1)])))
    found = []
    for threes, wilds, out in points:
        m = MeldCounts(z3.IntVal(threes), z3.IntVal(wilds), z3.IntVal(0))
        found.append((threes, wilds, out, simplifies_true(rm.legal_black_meld(m, z3.BoolVal(out == 1)))))
    return found


def _black_three_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    cases = []
    for threes, wilds, out, legal in shared("black-three-points", rm.spec, lambda s: _black_three_points(RuleModel(s))):
        deck = Cards(rules)
        cards = deck.take(RANK_THREE, threes, suits=(0, 3)) + wild_cards(rm, deck, wilds)
        expected: dict[str, object] = {"legal": legal, "canasta": False, "naturalCanasta": False}
        cases.append(
            Case(
                f"{rm.id}-black-three-meld-b{threes}-w{wilds}-{'out' if out else 'in'}",
                f"a meld of {threes} black three(s) and {wilds} wild card(s),"
                f" {'going out' if out else 'not going out'}: legal, never a canasta",
                rm.id,
                "black-three-meld",
                {"cards": format_cards(cards), "goingOut": out == 1},
                expected,
                _meld_answer(rules, cards, out == 1),
            )
        )
    return cases


def _minimum_points(rm: RuleModel) -> list[tuple[int, int, int | None]]:
    """(running total, the model's minimum, its row's from_score or None) on each side of every row change."""
    t = z3.Int("running_total")

    def domain(x: z3.ArithRef) -> Cond:
        return z3.And(x >= -10_000_000, x <= 10_000_000)

    def same(x: z3.ArithRef) -> z3.ArithRef:
        return rm.row_of(x)  # the row decides the minimum; the row flips wherever the minimum may

    found = []
    for (total,) in sorted(set(_flips([t], domain, same, [(1,)]))):
        row = z3.simplify(rm.row_of(z3.IntVal(total))).as_long()
        minimum = z3.simplify(rm.minimum(z3.IntVal(total))).as_long()
        found.append((total, minimum, rm.thresholds[row][0] if row >= 0 else None))
    return found


def _minimum_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    if rm.spec.initial_meld.minimum_by_hand:  # the hand's number decides, not the running total (boundary_foot)
        return []
    cases = []
    for total, minimum, from_score in shared("minimum-points", rm.spec, lambda s: _minimum_points(RuleModel(s))):
        engine_minimum, engine_from = rules.minimum_initial_meld(total)
        cases.append(
            Case(
                f"{rm.id}-minimum-t{total}",
                f"the minimum initial meld for a running total of {total}",
                rm.id,
                "minimum",
                {"runningTotal": total},
                {"minimum": minimum, "rowFromScore": from_score},
                {"minimum": engine_minimum, "rowFromScore": engine_from},
            )
        )
    return cases


def check_engine(rules: CompiledRules, case_dir: Path | None = None) -> EngineReport:
    """Run every boundary case of one rule set through the engine; write disagreements into `case_dir`."""
    fresh_z3_context()  # the same cases whatever this process asked Z3 before
    rm = RuleModel(rules.spec)
    report = EngineReport(rm.id)
    for make in (
        _meld_cases,
        _black_three_cases,
        _minimum_cases,
        score_cases,
        formation_engine_cases,
        play_engine_cases,
        run_engine_cases,
        foot_engine_cases,
    ):
        report.cases.extend(make(rm, rules))
    if case_dir is not None and report.disagreements:
        case_dir.mkdir(parents=True, exist_ok=True)
        from oracle.verify.as_case import conformance_case

        for case in report.disagreements:
            path = case_dir / f"{case.id}.json"
            path.write_text(json.dumps(case.to_json(), indent=2) + "\n", encoding="utf-8")
            report.written.append(path)
            runnable = conformance_case(case, rules)
            if runnable is not None:  # also as a suite file the conformance runner reads (load_cases)
                suite_dir = case_dir / "conformance"
                suite_dir.mkdir(exist_ok=True)
                suite = {"description": "Engine-against-model disagreements found by the solver.", "cases": [runnable]}
                (suite_dir / f"{case.id}.json").write_text(json.dumps(suite, indent=2) + "\n", encoding="utf-8")
    return report
