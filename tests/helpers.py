"""Shared test helpers: game states (card notation, JSON, simulated hands), changed rule sets, verdicts and scores."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf import json_format

from oracle.api.v1 import game_pb2, notation_pb2, ruleset_pb2
from oracle.games.deal import deal
from oracle.games.match import dealer_of_hand, deck_order, start_standing
from oracle.games.simulate import simulate_game
from oracle.model.actions import Action, parse_action
from oracle.model.cards import parse_cards
from oracle.model.score import ScoreItem, SideScore
from oracle.model.state import GameState
from oracle.model.table import SideTable, WentOut
from oracle.rules.referee import Verdict, check_action
from oracle.rules.state_check import validate_state
from oracle.ruleset.compiled import CompiledRules, compile_rules
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


def next_state(rule_set_id: str, state: GameState, action: str) -> GameState:
    """The state after a legal action written in notation (asserts it is legal)."""
    verdict = judge(rule_set_id, state, action)
    assert verdict.next_state is not None, verdict.violations
    return verdict.next_state


def card_list(text: str) -> list[int]:
    """Cards written in notation, as the wire's card numbers."""
    return list(parse_cards(text))


@dataclass(frozen=True)
class Hand:
    """The states of one simulated hand (before each action, then its end) and the actions between them."""

    first_dealer: int
    seed: int  #: the hand's deck seed (DeckSource.seed)
    states: tuple[GameState, ...]
    actions: tuple[Action, ...]


@functools.cache
def simulated_hand(rule_set_id: str, seed: int) -> Hand:
    """The first hand of the game of the shipped rule set simulated from `seed`, every action judged on the way."""
    r = rules(rule_set_id)
    game = simulate_game(r, seed, max_hands=1)
    hand = game.record.hands[0]
    dealer = dealer_of_hand(r, game.record.first_dealer, 0)
    state = deal(r, deck_order(r, hand.deck), dealer=dealer, running_totals=start_standing(r).totals)
    states = [state]
    for i, action in enumerate(hand.actions):
        verdict = check_action(r, state, action)
        assert verdict.next_state is not None, (rule_set_id, seed, i, verdict.violations)
        state = verdict.next_state
        states.append(state)
    assert hand.deck.seed is not None
    return Hand(game.record.first_dealer, hand.deck.seed, tuple(states), hand.actions)


def four_seat_position(
    rule_set_id: str,
    hand: str,
    melds: Sequence[str],
    *,
    others: Sequence[str],
    opponents: Sequence[str] = (),
    pile: str = "9D",
    stock: str = "4C 5C 6C 8C",
    melded_before: bool | None = None,
    asks: tuple[int, int] = (0, 0),
    draw: bool = False,
) -> GameState:
    """A four-seat position in card notation: seat 0 to move holding `hand`, seats 1-3 holding `others`; side 0 has
    `melds` (all there when the turn began), side 1 `opponents` (seats 1 and 3 melded before when it has any); the
    play phase of a turn begun by drawing, or (`draw`) the start of the turn; `stock` lies on top of the cards the
    position does not place (its last card drawn first); `asks` are the sides' questions this hand."""
    phase = game_pb2.PHASE_DRAW if draw else game_pb2.PHASE_PLAY
    msg = notation_pb2.GameStateNotation(stock=stock, discard_pile=pile, phase=phase, seat_to_move=0, fill_stock=True)
    msg.seats.add(hand=hand, melded_before=bool(melds) if melded_before is None else melded_before)
    for seat, other in enumerate(others, start=1):
        msg.seats.add(hand=other, melded_before=seat % 2 == 1 and bool(opponents))  # seats 1 and 3: side 1
    msg.sides.add(melds=melds, asks=asks[0])
    msg.sides.add(melds=opponents, asks=asks[1])
    if not draw:
        msg.turn.start = game_pb2.TURN_START_DREW
        msg.turn.melds_before_turn = len(melds)
    return state_from_notation(msg, default_rule_book().get(rule_set_id).rules)


def foot_position(
    hand: str,
    melds: Sequence[str],
    *,
    foot: str = "",
    partner_foot: str = "",
    partner_hand: str = "6D 8C",
    turn: dict[str, str] | None = None,
    phase: str = "PHASE_PLAY",
    hand_number: int = 0,
    pile: str = "5S",
) -> dict[str, Any]:
    """A four-seat Hand and Foot position as GameStateNotation JSON: seat 0 to move (seat 2 its partner) holding
    `hand`, with `foot` not yet taken up; side 0 has `melds`, all there when the turn began (a turn begun by drawing
    unless `turn` says otherwise; none in the draw phase); every card not placed is in the stock."""
    return {
        "seats": [
            {"hand": hand, "foot": foot, "meldedBefore": bool(melds)},
            {"hand": "6C 8D"},
            {"hand": partner_hand, "foot": partner_foot},
            {"hand": "6H 8H"},
        ],
        "sides": [{"melds": list(melds)}, {}],
        "discardPile": pile,
        "seatToMove": 0,
        "phase": phase,
        "turn": {}
        if phase == "PHASE_DRAW"
        else {**({"start": "TURN_START_DREW"} if turn is None else turn), "meldsBeforeTurn": len(melds)},
        "fillStock": True,
        "handNumber": hand_number,
    }


def state_from_json(doc: dict[str, Any], compiled: CompiledRules) -> GameState:
    """The state a GameStateNotation JSON document writes, under `compiled`."""
    return state_from_notation(json_format.ParseDict(doc, notation_pb2.GameStateNotation()), compiled)


def changed_spec(rule_set_id: str, edit: Callable[[ruleset_pb2.RuleSet], None] | None = None) -> ruleset_pb2.RuleSet:
    """A copy of a shipped rule set's resolved spec, changed in place by `edit` (past the loader's checks)."""
    spec = ruleset_pb2.RuleSet()
    spec.CopyFrom(default_rule_book().get(rule_set_id).spec)
    if edit is not None:
        edit(spec)
    return spec


def changed_rules(rule_set_id: str, edit: Callable[[ruleset_pb2.RuleSet], None]) -> CompiledRules:
    """A shipped rule set with its spec copied, changed by `edit` and compiled."""
    return compile_rules(changed_spec(rule_set_id, edit))


def judge_valid(compiled: CompiledRules, state: GameState, action: str) -> Verdict:
    """Judge an action written in notation on a state that must be valid under `compiled`."""
    assert validate_state(compiled, state) == []
    return check_action(compiled, state, parse_action(action))


def code_fields(verdict: Verdict) -> list[tuple[str, str]]:
    """(code, field) of each violation of a verdict, in order."""
    return [(v.code, v.field) for v in verdict.violations]


def side_table(
    melds: tuple[str, ...] = (), threes: str = "", hands: tuple[str, str] = ("", ""), out: bool = False
) -> SideTable:
    """A side at a hand's end: its melds, red threes, two players' hands, and whether it went out."""
    return SideTable(
        melds=tuple(tuple(parse_cards(m)) for m in melds),
        red_threes=tuple(parse_cards(threes)),
        hands=tuple(tuple(parse_cards(h)) for h in hands),
        went_out=WentOut.NORMAL if out else WentOut.NO,
    )


def score_points(score: SideScore, item: ScoreItem) -> list[int]:
    """The points of a side's score lines of `item`."""
    return [line.points for line in score.lines if line.item == item]
