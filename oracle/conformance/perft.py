"""Perft-style conformance data: fixed states with the counts of their canonical legal actions (oracle.games.movegen).

Each case is one JSON file in ``conformance/perft/`` (shipped as
``oracle.conformance/perft``)::

    {"id": "...", "description": "...", "ruleSetId": "classic-2p",
     "state": {GameStateNotation in its proto3 JSON form, usually with fillStock},
     "counts": {ActionCounts in its proto3 JSON form, every field written}}

An implementation conforms when, for every file, the number of actions of
each kind in its list of legal actions over the canonical action space (see
the oracle.games.movegen module docstring) equals ``counts``. A single miscount of
one kind points at a rule or at the space's definition.

The states below (CASES) are the source of truth; ``regenerate`` rewrites the
files from them with freshly computed counts, so the shipped files must equal
its output byte for byte.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from google.protobuf import json_format

from oracle.api.v1 import notation_pb2
from oracle.games.movegen import KINDS, count_actions, legal_actions
from oracle.model.cards import deck, format_cards, is_red_three, is_wild, parse_cards
from oracle.model.state import GameState
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import state_from_notation

PERFT_DIR = "perft"
#: ActionCounts fields in their proto3 JSON names, in field order.
COUNT_FIELDS = ("draw", "takePile", "meld", "discard", "askPartner", "answerPartner", "finish", "combine", "total")


@dataclass(frozen=True)
class PerftCase:
    """One perft case as stored in its file."""

    id: str  #: stable id, also the file name without .json
    description: str  #: what the state exercises
    rule_set_id: str  #: the rule set it is judged under
    state: dict[str, Any]  #: GameStateNotation, proto3 JSON form
    counts: dict[str, int]  #: ActionCounts, proto3 JSON names (COUNT_FIELDS); empty before computing


def _seat(hand: str, melded_before: bool = False) -> dict[str, Any]:
    return {"hand": hand, "meldedBefore": True} if melded_before else {"hand": hand}


def _side(melds: list[str] | None = None, red_threes: str = "", total: int = 0) -> dict[str, Any]:
    side: dict[str, Any] = {"melds": melds or []}
    if red_threes:
        side["redThrees"] = red_threes
    side["runningTotal"] = total
    return side


def _empty_stock(rule_set_id: str, doc: dict[str, Any], *, reds_to_side: int, wilds_to_seat: int) -> dict[str, Any]:
    """The state with every card it does not place put somewhere other than the stock (which stays empty).

    Red threes go to a side's red threes, wild cards to a seat's hand, the rest
    under the discard pile (so the pile is frozen only by what the case shows).
    """
    rules = default_rule_book().get(rule_set_id).rules
    placed = Counter(c for s in doc["seats"] for c in parse_cards(s["hand"]))
    for side in doc["sides"]:
        placed.update(c for m in side["melds"] for c in parse_cards(m))
        placed.update(parse_cards(side.get("redThrees", "")))
    placed.update(parse_cards(doc["discardPile"]))
    rest = []
    for card in deck(rules.spec.deck.packs, rules.spec.deck.jokers):
        if placed[card]:
            placed[card] -= 1
        else:
            rest.append(card)
    seats = [dict(s) for s in doc["seats"]]
    sides = [dict(s) for s in doc["sides"]]
    reds = [c for c in rest if is_red_three(c)]
    wilds = [c for c in rest if is_wild(c)]
    others = [c for c in rest if not is_red_three(c) and not is_wild(c)]
    sides[reds_to_side]["redThrees"] = " ".join(
        filter(None, [sides[reds_to_side].get("redThrees", ""), format_cards(reds)])
    )
    seats[wilds_to_seat]["hand"] = " ".join(filter(None, [seats[wilds_to_seat]["hand"], format_cards(wilds)]))
    pile = " ".join(filter(None, [format_cards(others), doc["discardPile"]]))
    return {**doc, "seats": seats, "sides": sides, "discardPile": pile, "fillStock": False}


_DREW = {"start": "TURN_START_DREW"}

#: (id, description, rule-set id, state, None or (side given the red threes, seat given the wild cards) to
#: empty the stock with _empty_stock).
CASES: tuple[tuple[str, str, str, dict[str, Any], tuple[int, int] | None], ...] = (
    (
        "2p-draw-unfrozen",
        "Draw phase, side with melds, unfrozen pile: a natural pair, a natural and a wild, or"
        " both with a wild; the top card fits no meld.",
        "classic-2p",
        {
            "seats": [_seat("9H 9D JK 2C AH AD 5C 6C 7C KH", True), _seat("QH QD QS 4H 4D 8C 8D TC TD TS JC JD")],
            "sides": [_side(["KC KD KS"], total=1200), _side(["6H 6D 6S"], total=900)],
            "discardPile": "5D 8H 9S",
            "phase": "PHASE_DRAW",
            "fillStock": True,
        },
        None,
    ),
    (
        "2p-draw-initial-meld-from-pile",
        "Draw phase, no melds yet (the pile is frozen to the side), running total"
        " 1500 (minimum 90): a natural pair of the top card's rank plus minimal extra melds.",
        "classic-2p",
        {
            "seats": [_seat("KH KD QC QD QS AH AD JK 2H 5C 6C 7C 8C 9C"), _seat("QH 4H 4D 8D TC TD TS JC JD")],
            "sides": [_side(total=1500), _side(["6H 6D 6S"], total=900)],
            "discardPile": "5D 8H KS",
            "phase": "PHASE_DRAW",
            "fillStock": True,
        },
        None,
    ),
    (
        "2p-draw-stock-empty-must-take",
        "Draw phase, empty stock, unfrozen pile whose top card fits the side's meld:"
        " declining (draw) is illegal, the pile must be taken.",
        "classic-2p",
        {
            "seats": [_seat("9H 4C 5C", True), _seat("QH QD QS 4H", True)],
            "sides": [_side(["9C 9D 9S"], total=400), _side(["6H 6D 6S"], total=900)],
            "discardPile": "TS 9D",
            "phase": "PHASE_DRAW",
        },
        (1, 1),
    ),
    (
        "2p-play-initial-meld",
        "Play phase after drawing, no melds yet, minimum 50: minimal sets of new melds;"
        " black threes cannot be melded yet.",
        "classic-2p",
        {
            "seats": [
                _seat("KH KD KS AH AD JK 2C 4C 4D 7D 7S TC 6S 3C 3S 3C 9H"),
                _seat("QH QD QS 4H 8C 8D TD TS JC JD"),
            ],
            "sides": [_side(), _side(["6H 6D 6C"])],
            "discardPile": "5D 8H 9S",
            "phase": "PHASE_PLAY",
            "turn": _DREW,
            "fillStock": True,
        },
        None,
    ),
    (
        "2p-final-melds",
        "A last-card red three (stock empty): the player may meld, then finish; no discard.",
        "classic-2p",
        {
            "seats": [_seat("7C 7H 9S 9D JK QC QD", True), _seat("QH QS 4H", True)],
            "sides": [_side(["7D 7D 7S", "KC KD KS KH"], "3H"), _side(["6H 6D 6S"])],
            "discardPile": "5D 8H",
            "phase": "PHASE_FINAL_MELDS",
            "turn": {"start": "TURN_START_DREW", "meldsBeforeTurn": 2},
        },
        (0, 1),
    ),
    (
        "4p-draw-onto-meld",
        "Draw phase, four players, unfrozen pile: the top card may go onto the side's meld, with"
        " a natural, or with a natural and a wild.",
        "classic-4p",
        {
            "seats": [
                _seat("7C 7H 2C JK 4H 4D 9S", True),
                _seat("QH QD QS 4S"),
                _seat("TC TD JS 5S", True),
                _seat("8C 8D 6S 5H"),
            ],
            "sides": [_side(["7D 7D 7S", "KC KD KS"], total=2100), _side(["AC AD AS"], total=1800)],
            "discardPile": "5D 8H 7S",
            "phase": "PHASE_DRAW",
            "fillStock": True,
        },
        None,
    ),
    (
        "4p-draw-frozen-upcard",
        "Draw phase, four players: the deal turned up a wild card (covered by a seven), so"
        " the pile is frozen for everyone; the top card is a ten.",
        "classic-4p",
        {
            "seats": [
                _seat("TH TS 2C JK 4H 4D 9S", True),
                _seat("QH QD QS 4S"),
                _seat("TC TD JS 5S", True),
                _seat("8C 8D 6S 5H"),
            ],
            "sides": [_side(["7D 7D 7S", "TC TD TS"], total=300), _side(["AC AD AS"], total=-200)],
            "discardPile": "2H 7C 5D TH",
            "pileUpcards": 2,
            "phase": "PHASE_DRAW",
            "fillStock": True,
        },
        None,
    ),
    (
        "4p-play-initial-meld-1500",
        "Play phase, four players, no melds yet, running total 1500 (minimum 90):"
        " single groups with the joker and minimal pairs of groups.",
        "classic-4p",
        {
            "seats": [
                _seat("KH KD KS AH AD AS JK 5C 5D 2H 9C"),
                _seat("QH QD QS 4S"),
                _seat("TC TD JS 5S"),
                _seat("8C 8D 6S 5H"),
            ],
            "sides": [_side(total=1500), _side(["AC AD AS"], total=1800)],
            "discardPile": "5H 8H 9S",
            "phase": "PHASE_PLAY",
            "turn": _DREW,
            "fillStock": True,
        },
        None,
    ),
    (
        "4p-play-concealed-going-out",
        "Play phase, four players, no melds yet: seven fours (35 points) make a"
        " canasta and leave one card, so the minimum is waived for going out concealed.",
        "classic-4p",
        {
            "seats": [
                _seat("4C 4C 4D 4D 4H 4H 4S 5C"),
                _seat("QH QD QS 4S"),
                _seat("TC TD JS 5S"),
                _seat("8C 8D 6S 5H"),
            ],
            "sides": [_side(), _side(["AC AD AS"])],
            "discardPile": "5H 8H 9S",
            "phase": "PHASE_PLAY",
            "turn": _DREW,
            "fillStock": True,
        },
        None,
    ),
    (
        "4p-play-after-initial-meld",
        "Play phase, four players, the side has melds: one group per action, new"
        " melds, additions and wild cards alone onto a meld; asking the partner is legal.",
        "classic-4p",
        {
            "seats": [
                _seat("7C 7H 2C JK 4H 4D 9S KH", True),
                _seat("QH QD QS 4S"),
                _seat("TC TD JS 5S"),
                _seat("8C 8D 6S 5H"),
            ],
            "sides": [_side(["7D 7D 7S", "KC KD KS"]), _side(["AC AD AS"])],
            "discardPile": "5H 8H 9S",
            "phase": "PHASE_PLAY",
            "turn": {"start": "TURN_START_DREW", "meldsBeforeTurn": 2},
            "fillStock": True,
        },
        None,
    ),
    (
        "4p-play-black-threes-going-out",
        "Play phase, four players, the side has a canasta: black threes are melded only as the last meld going out.",
        "classic-4p",
        {
            "seats": [_seat("3C 3C 3S QH", True), _seat("QD QS 4S"), _seat("TC TD JS 5S"), _seat("8C 8D 6S 5H")],
            "sides": [_side(["KC KD KS KH KC KD KS", "QC QC QD"]), _side(["AC AD AS"])],
            "discardPile": "5H 8H 9S",
            "phase": "PHASE_PLAY",
            "turn": {"start": "TURN_START_DREW", "meldsBeforeTurn": 2},
            "fillStock": True,
        },
        None,
    ),
    (
        "4p-await-answer",
        "The partner answers 'may I go out?': yes or no, nothing else.",
        "classic-4p",
        {
            "seats": [_seat("7C 7H 9S", True), _seat("QH QD QS 4S"), _seat("TC TD JS 5S"), _seat("8C 8D 6S 5H")],
            "sides": [_side(["7D 7D 7S", "KC KD KS KH KC KD KS"]), _side(["AC AD AS"])],
            "discardPile": "5H 8H 9H",
            "phase": "PHASE_AWAIT_ANSWER",
            "turn": {"start": "TURN_START_DREW", "partnerAnswer": "PARTNER_ANSWER_PENDING", "meldsBeforeTurn": 2},
            "fillStock": True,
        },
        None,
    ),
)


def rules_and_state(case: PerftCase) -> tuple[CompiledRules, GameState]:
    """The compiled rule set and the domain state of a case."""
    rules = default_rule_book().get(case.rule_set_id).rules
    message = json_format.ParseDict(case.state, notation_pb2.GameStateNotation())
    return rules, state_from_notation(message, rules)


def compute_counts(case: PerftCase) -> dict[str, int]:
    """The ActionCounts of the case's state (proto3 JSON names, every field)."""
    rules, state = rules_and_state(case)
    counts = count_actions(legal_actions(rules, state))
    return dict(zip(COUNT_FIELDS, (counts[k] for k in (*KINDS, "total")), strict=True))


def defined_cases() -> list[PerftCase]:
    """The cases as defined in this module (counts not yet computed)."""
    return [
        PerftCase(
            case_id,
            description,
            rule_set_id,
            state if empty is None else _empty_stock(rule_set_id, state, reds_to_side=empty[0], wilds_to_seat=empty[1]),
            {},
        )
        for case_id, description, rule_set_id, state, empty in CASES
    ]


def case_json(case: PerftCase) -> str:
    """The file text of a case."""
    doc = {
        "id": case.id,
        "description": case.description,
        "ruleSetId": case.rule_set_id,
        "state": case.state,
        "counts": case.counts,
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def load_perft_cases() -> list[PerftCase]:
    """Every shipped perft file (oracle.conformance/perft/*.json), in file-name order."""
    directory = resources.files("oracle.conformance.data") / PERFT_DIR
    cases = []
    for entry in sorted(directory.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            doc = json.loads(entry.read_text(encoding="utf-8"))
            cases.append(PerftCase(doc["id"], doc["description"], doc["ruleSetId"], doc["state"], dict(doc["counts"])))
    return cases


def regenerate(directory: Path | str) -> list[Path]:
    """Write every case of CASES to `directory` as <id>.json with freshly computed counts; the paths written."""
    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for case in defined_cases():
        path = target / f"{case.id}.json"
        full = PerftCase(case.id, case.description, case.rule_set_id, case.state, compute_counts(case))
        path.write_text(case_json(full), encoding="utf-8")
        written.append(path)
    return written


def mismatches(cases: list[PerftCase]) -> list[tuple[str, dict[str, int], dict[str, int]]]:
    """(id, expected counts, computed counts) for every case whose counts differ."""
    out = []
    for case in cases:
        got = compute_counts(case)
        if got != case.counts:
            out.append((case.id, case.counts, got))
    return out
