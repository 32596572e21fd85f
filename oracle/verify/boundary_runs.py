"""Engine against model on Samba's runs and the pile's top card onto a run (runs.*), for rule sets with runs.

* run: a run of one suit from runs.lowest_rank of each size from runs.min_size - 1 to runs.max_size + 1 (or
  canasta_size + 1 without a cap), and a run with a gap, one of two suits and one holding a wild card; expected:
  model_runs.legal_run and is_run_canasta; the engine: oracle.rules.melds.meld_rule_breaks and is_canasta;
* pile-run: the side holds a run from runs.lowest_rank of each size from runs.min_size to runs.max_size, and a
  player takes the pile whose top card is the next card of the run, alone or with the following card from the
  hand; expected: whether model_runs.take_onto_run refuses it (the pile not frozen); the engine: whether the
  referee names a run or pile-onto-run code (frozen-pile codes aside).

A rule set without runs (runs.min_size 0) has no such case.
"""

from __future__ import annotations

import z3

from oracle.model.actions import TakePile
from oracle.model.cards import RANK_TWO, format_cards
from oracle.rules import melds
from oracle.ruleset.compiled import CompiledRules
from oracle.verify import model_runs as mr
from oracle.verify.boundary_play import _codes
from oracle.verify.cases import Case
from oracle.verify.deck_cards import Cards
from oracle.verify.model import RuleModel
from oracle.verify.terms import NATURAL_RANKS

#: the codes that refuse a take of the top card onto a run for the run's or the take's sake
RUN_TAKE_CODES = frozenset(
    {
        "PILE_TOP_RUN_WITH_HAND_CARDS",
        "PILE_TOP_ONTO_RUN_NOT_ALLOWED",
        "PILE_ONTO_CANASTA_NOT_ALLOWED",
        "RUN_TOO_LARGE",
        "RUN_NOT_CONSECUTIVE",
        "RUN_RANK_OUT_OF_RANGE",
        "RUN_MIXED_SUITS",
    }
)


def _true(condition: z3.BoolRef) -> bool:
    return bool(z3.is_true(z3.simplify(condition)))


def _counts(ranks: list[int], suits: int = 1, wilds: int = 0) -> mr.RunCounts:
    return mr.RunCounts({r: z3.IntVal(ranks.count(r)) for r in NATURAL_RANKS}, z3.IntVal(suits), z3.IntVal(wilds))


def _run_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    r, spec = rules.runs, rm.spec
    top = r.max_size or r.canasta_size
    shapes: list[tuple[str, list[int], int, int]] = []  # slug, ranks, suits (1 or 2), wilds
    for size in range(max(1, r.min_size - 1), top + 2):
        ranks = list(range(r.lowest_rank, r.lowest_rank + size))
        if ranks[-1] <= NATURAL_RANKS[-1] and size >= 2:
            shapes.append((f"size{size}", ranks, 1, 0))
    base = list(range(r.lowest_rank, r.lowest_rank + r.min_size))
    if base and base[-1] + 1 <= NATURAL_RANKS[-1]:
        shapes.append(("gap", [*base[:-1], base[-1] + 1], 1, 0))
    shapes += [("two-suits", base, 2, 0), ("wild", base, 1, 1)]
    cases = []
    for slug, ranks, suits, wilds in shapes:
        cards = Cards(rules)
        laid = [cards.take(k, 1, suits=((1 if suits == 2 and i == 0 else 0),))[0] for i, k in enumerate(ranks)]
        laid += list(cards.take(RANK_TWO, wilds))
        run = _counts(ranks, suits, wilds)
        expected: dict[str, object] = {
            "legal": _true(mr.legal_run(spec, run)),
            "canasta": _true(z3.And(mr.legal_run(spec, run), mr.is_run_canasta(spec, run))),
        }
        shape = melds.meld_shape(laid)
        breaks = [b.field for b in melds.meld_rule_breaks(shape, rules, going_out=False)]
        engine = {"legal": not breaks, "canasta": not breaks and melds.is_canasta(shape, rules), "breaks": breaks}
        cases.append(
            Case(
                f"{rm.id}-run-{slug}",
                f"a run {format_cards(laid)}: legal, a canasta",
                rm.id,
                "run",
                {"cards": format_cards(laid), "goingOut": False},
                expected,
                engine,
            )
        )
    return cases


def _pile_run_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    r, spec = rules.runs, rm.spec
    cases = []
    for size in range(r.min_size, (r.max_size or r.canasta_size) + 1):
        for hand_cards in (0, 1):
            ranks = list(range(r.lowest_rank, r.lowest_rank + size))
            if ranks[-1] + 1 + hand_cards > NATURAL_RANKS[-1]:
                continue
            cards = Cards(rules)
            run = tuple(cards.take(k, 1, suits=(0,))[0] for k in ranks)
            top = cards.take(ranks[-1] + 1, 1, suits=(0,))[0]
            extra = tuple(cards.take(ranks[-1] + 2, 1, suits=(0,))) if hand_cards else ()
            side_melds: list[list[tuple[int, ...]]] = [[run]] + [[] for _ in range(rules.sides - 1)]
            answer = _codes(rules, cards, side_melds, 0, TakePile(with_cards=extra, onto=1), extra, top=top)
            codes = answer.get("codes")
            refused_engine: object = bool(RUN_TAKE_CODES & set(codes)) if isinstance(codes, list) else answer
            take = mr.take_onto_run(spec, _counts(ranks), ranks[-1] + 1, z3.IntVal(hand_cards), z3.BoolVal(False))
            cases.append(
                Case(
                    f"{rm.id}-play-pile-run{size}-hand{hand_cards}",
                    f"the pile's top card onto the side's run of {size} with {hand_cards} hand card(s): refused",
                    rm.id,
                    "play",
                    {"slug": f"pile-run{size}-hand{hand_cards}"},
                    {"refused": not _true(take)},
                    {"refused": refused_engine, **answer},
                )
            )
    return cases


def run_engine_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    """Every run and pile-onto-run case of the rule set (none without runs)."""
    if not rules.runs.min_size:
        return []
    return _run_cases(rm, rules) + _pile_run_cases(rm, rules)


__all__ = ["RUN_TAKE_CODES", "run_engine_cases"]
