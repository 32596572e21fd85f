"""Turns a boundary disagreement into a conformance case (ConformanceSuite JSON) that any implementation can run."""

from __future__ import annotations

from oracle.model.cards import RANK_FOUR, RANK_KING, RANK_QUEEN, RANKS, parse_cards, rank_of
from oracle.ruleset.compiled import CompiledRules
from oracle.verify.cases import Case


def _cite(rules: CompiledRules, field: str) -> list[dict[str, str]]:
    return [{"source": source, "section": section} for source, section in rules.cites.get(field, ())]


def _spare_ranks(used: set[int]) -> list[int]:
    """Natural ranks not in `used`, kings and queens first (they make a plain existing meld)."""
    order = [RANK_KING, RANK_QUEEN, *range(RANK_FOUR, RANK_QUEEN)]
    return [r for r in order if r not in used]


def conformance_case(case: Case, rules: CompiledRules) -> dict[str, object] | None:
    """The ConformanceCase (proto3 JSON) for a minimum (by running total or by hand number) or meld boundary case;
    None for kinds it cannot express.

    A meld case becomes a CheckAction: seat 0 has drawn, holds the meld's cards
    and two more, and its side already has a meld of another rank (so the
    initial minimum and the keep-cards rule do not interfere); illegal is
    expected with any violation code (the model says legal or not, not why).
    """
    base = {
        "id": f"verify.{case.id}",
        "description": f"Found by the solver: {case.description}.",
        "ruleSetId": case.rule_set_id,
    }
    if case.kind == "minimum":
        total = int(case.input["runningTotal"])  # type: ignore[call-overload]
        return {
            **base,
            "cite": _cite(rules, "initial_meld.thresholds"),
            "fields": ["initial_meld.thresholds", "initial_meld.minimum_below_table"],
            "minimum": {"runningTotal": total},
            "expect": {"minimum": case.expected["minimum"]},
        }
    if case.kind == "minimum-by-hand" and "melds" not in case.input:  # the lookup by the hand's number
        return {
            **base,
            "cite": _cite(rules, "initial_meld.minimum_by_hand"),
            "fields": ["initial_meld.minimum_by_hand"],
            "minimum": {"handNumber": int(case.input["handNumber"])},  # type: ignore[call-overload]
            "expect": {"minimum": case.expected["minimum"]},
        }
    if case.kind != "meld" or case.input.get("goingOut"):
        return None
    cards = parse_cards(str(case.input["cards"]))
    used = {rank_of(c) for c in cards}
    meld_rank, filler_rank, other_rank = _spare_ranks(used)[:3]
    existing = " ".join(f"{RANKS[meld_rank]}{s}" for s in "CDH")
    fillers = f"{RANKS[filler_rank]}C {RANKS[filler_rank]}D"
    others = [{"hand": f"{RANKS[other_rank]}{'CDHS'[i % 4]}"} for i in range(rules.seats - 1)]
    state = {
        "seats": [{"hand": f"{case.input['cards']} {fillers}", "meldedBefore": True}, *others],
        "sides": [{"melds": [existing]}] + [{"melds": []} for _ in range(rules.sides - 1)],
        "phase": "PHASE_PLAY",
        "turn": {"start": "TURN_START_DREW", "meldsBeforeTurn": 1},
        "fillStock": True,
    }
    expect: dict[str, object] = {"legal": {}} if case.expected["legal"] else {"illegal": {"codes": []}}
    return {
        **base,
        "cite": _cite(rules, "melds"),
        "fields": ["melds.min_size", "melds.max_wilds"],
        "check": {"state": state, "action": f"meld {case.input['cards']}"},
        "expect": expect,
    }
