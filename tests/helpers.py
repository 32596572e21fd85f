"""Shared test helpers: build game states from card notation and judge actions written in action notation."""

from __future__ import annotations

from google.protobuf import json_format

from oracle.api.v1 import notation_pb2
from oracle.model.actions import parse_action
from oracle.model.state import GameState
from oracle.rules.referee import Verdict, check_action
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import state_from_notation


def rules(rule_set_id: str) -> CompiledRules:
    """The compiled shipped rule set."""
    return default_rule_book().get(rule_set_id).rules


def make_state(
    rule_set_id: str,
    *,
    hands: list[str],
    melds: list[list[str]] | None = None,
    red_threes: list[str] | None = None,
    pile: str = "",
    stock_top: str = "",
    upcards: int = 0,
    seat: int = 0,
    phase: str = "PHASE_DRAW",
    turn: dict | None = None,
    totals: list[int] | None = None,
    melded_before: list[bool] | None = None,
) -> GameState:
    """A consistent state: the given hands, melds and pile; every other card in the stock (stock_top on top)."""
    r = rules(rule_set_id)
    sides = r.sides
    melds = melds or [[] for _ in range(sides)]
    red_threes = red_threes or ["" for _ in range(sides)]
    totals = totals or [0] * sides
    melded_before = melded_before or [False] * len(hands)
    turn = dict(turn or {})
    if phase in ("PHASE_PLAY", "PHASE_AWAIT_ANSWER", "PHASE_FINAL_MELDS") and "meldsBeforeTurn" not in turn:
        # nothing said about this turn's melds: those of the mover's side were all there when it began (a turn
        # that laid some must say how many were there before, as the state check requires)
        laid = turn.get("melded") or turn.get("start") == "TURN_START_TOOK_PILE"
        turn["meldsBeforeTurn"] = 0 if laid else len(melds[seat % sides])
    doc = {
        "seats": [{"hand": h, "meldedBefore": m} for h, m in zip(hands, melded_before, strict=True)],
        "sides": [
            {"melds": m, "redThrees": t, "runningTotal": total}
            for m, t, total in zip(melds, red_threes, totals, strict=True)
        ],
        "stock": stock_top,
        "discardPile": pile,
        "pileUpcards": upcards,
        "seatToMove": seat,
        "phase": phase,
        "turn": turn,
        "fillStock": True,
    }
    msg = json_format.ParseDict(doc, notation_pb2.GameStateNotation())
    return state_from_notation(msg, r)


def judge(rule_set_id: str, state: GameState, action: str) -> Verdict:
    """Judge an action written in notation (the state is validated first)."""
    return check_action(rules(rule_set_id), state, parse_action(action))


def codes(verdict: Verdict) -> list[str]:
    """The violation codes of a verdict, in order."""
    return [v.code for v in verdict.violations]
