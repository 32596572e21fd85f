"""A game record's parsed JSON read into its message directly for the usual shapes, json_format.ParseDict otherwise.

json_format.ParseDict walks every field in Python through descriptors (about 15 µs per recorded action). A record
as the oracle and most engines write it (camelCase field names, card names, seeds, actions and claims) is read
here field by field; anything else (another spelling of a field, a number where a name is usual, a deck order, an
explicit deal, moves, checkpoints, a value out of range, a field this reader does not know) goes to ParseDict,
which builds the message or raises its own error. What this reader accepts, it builds exactly as ParseDict would.
"""

from __future__ import annotations

import re
from typing import Any

from google.protobuf import json_format

from oracle.api.v1 import cards_pb2, game_pb2, record_pb2

_CARDS: dict[str, int] = dict(cards_pb2.Card.items())
_INT32 = (-(1 << 31), (1 << 31) - 1)
_UINT32_MAX = (1 << 32) - 1
_UINT64_MAX = (1 << 64) - 1
_DIGITS = re.compile(r"[0-9]+", re.ASCII)
_EMPTY_ACTIONS = frozenset({"draw", "askPartner", "finish", "pickUpPile"})


class _Unusual(Exception):
    """A shape this reader leaves to ParseDict."""


def record_from_json(data: dict[str, Any]) -> record_pb2.GameRecord:
    """The GameRecord of a parsed JSON object: `json_format.ParseDict(data, GameRecord())`, its result or error."""
    message = record_pb2.GameRecord()
    try:
        _record(data, message)
    except Exception:  # _Unusual, or a value the message refuses: ParseDict builds it or says what is wrong
        return json_format.ParseDict(data, record_pb2.GameRecord())
    return message


def _int32(value: Any) -> int:
    if type(value) is not int or not _INT32[0] <= value <= _INT32[1]:
        raise _Unusual
    return value


def _int32s(values: Any) -> list[int]:
    if type(values) is not list:
        raise _Unusual
    return [_int32(v) for v in values]


def _cards(values: Any) -> list[int]:
    if type(values) is not list:
        raise _Unusual
    try:
        return [_CARDS[v] for v in values]
    except (KeyError, TypeError):  # not a card's name (a number, say): ParseDict's
        raise _Unusual from None


def _card(value: Any) -> int:
    number = _CARDS.get(value) if type(value) is str else None
    if number is None:
        raise _Unusual
    return number


def _fields(value: Any, allowed: frozenset[str]) -> dict[str, Any]:
    if type(value) is not dict or not value.keys() <= allowed:
        raise _Unusual
    return value


def _uint32(value: Any) -> int:
    if type(value) is not int or not 0 <= value <= _UINT32_MAX:
        raise _Unusual
    return value


def _bool(value: Any) -> bool:
    if type(value) is not bool:
        raise _Unusual
    return value


_GROUP = frozenset({"cards", "ontoRank", "onto", "newMeld"})


def _groups(values: Any, target: Any) -> None:
    if type(values) is not list:
        raise _Unusual
    for value in values:
        group = _fields(value, _GROUP)
        msg = target.add()
        if "cards" in group:
            msg.cards.extend(_cards(group["cards"]))
        if "ontoRank" in group:
            msg.onto_rank = _card(group["ontoRank"])
        if "onto" in group:
            msg.onto = _uint32(group["onto"])
        if "newMeld" in group:
            msg.new_meld = _bool(group["newMeld"])


_DISCARD = frozenset({"card"})
_ANSWER = frozenset({"yes"})
_MELD = frozenset({"groups"})
_TAKE = frozenset({"with", "melds", "onto", "newMeld"})
_COMBINE = frozenset({"first", "second"})
_NOTHING: frozenset[str] = frozenset()


def _action(value: Any, msg: game_pb2.Action) -> None:
    if type(value) is not dict or len(value) != 1:
        raise _Unusual
    ((kind, body),) = value.items()
    if kind in _EMPTY_ACTIONS:
        _fields(body, _NOTHING)
        getattr(msg, _SNAKE[kind]).SetInParent()
    elif kind == "discard":
        fields = _fields(body, _DISCARD)
        msg.discard.SetInParent()
        if "card" in fields:
            msg.discard.card = _card(fields["card"])  # type: ignore[assignment]
    elif kind == "meld":
        fields = _fields(body, _MELD)
        msg.meld.SetInParent()
        if "groups" in fields:
            _groups(fields["groups"], msg.meld.groups)
    elif kind == "takePile":
        fields = _fields(body, _TAKE)
        take = msg.take_pile
        take.SetInParent()
        if "with" in fields:
            getattr(take, "with").extend(_cards(fields["with"]))
        if "melds" in fields:
            _groups(fields["melds"], take.melds)
        if "onto" in fields:
            take.onto = _uint32(fields["onto"])
        if "newMeld" in fields:
            take.new_meld = _bool(fields["newMeld"])
    elif kind == "combine":
        fields = _fields(body, _COMBINE)
        msg.combine.SetInParent()
        if "first" in fields:
            msg.combine.first = _uint32(fields["first"])
        if "second" in fields:
            msg.combine.second = _uint32(fields["second"])
    elif kind == "answerPartner":
        fields = _fields(body, _ANSWER)
        msg.answer_partner.SetInParent()
        if "yes" in fields:
            msg.answer_partner.yes = _bool(fields["yes"])
    else:
        raise _Unusual


_SNAKE = {"draw": "draw", "askPartner": "ask_partner", "finish": "finish", "pickUpPile": "pick_up_pile"}
_HAND = frozenset({"actions", "claimedScores", "claimedTotals", "seed", "dealer", "startingTotals"})


def _seed(value: Any) -> int:
    if type(value) is str and _DIGITS.fullmatch(value):
        value = int(value)
    if type(value) is not int or not 0 <= value <= _UINT64_MAX:
        raise _Unusual
    return value


def _hand(value: Any, msg: record_pb2.HandRecord) -> None:
    hand = _fields(value, _HAND)
    if "seed" in hand:
        msg.seed = _seed(hand["seed"])
    if "actions" in hand:
        actions = hand["actions"]
        if type(actions) is not list:
            raise _Unusual
        added = msg.actions
        for action in actions:
            _action(action, added.add())
    if "claimedScores" in hand:
        msg.claimed_scores.extend(_int32s(hand["claimedScores"]))
    if "claimedTotals" in hand:
        msg.claimed_totals.extend(_int32s(hand["claimedTotals"]))
    if "dealer" in hand:
        msg.dealer = _int32(hand["dealer"])
    if "startingTotals" in hand:
        msg.starting_totals.extend(_int32s(hand["startingTotals"]))


_RECORD = frozenset({"ruleSetId", "firstDealer", "hands", "claimedWinner"})


def _record(data: Any, msg: record_pb2.GameRecord) -> None:
    record = _fields(data, _RECORD)
    if "ruleSetId" in record:
        if type(record["ruleSetId"]) is not str:
            raise _Unusual
        msg.rule_set_id = record["ruleSetId"]
    if "firstDealer" in record:
        msg.first_dealer = _int32(record["firstDealer"])
    if "claimedWinner" in record:
        msg.claimed_winner = _int32(record["claimedWinner"])
    if "hands" in record:
        hands = record["hands"]
        if type(hands) is not list:
            raise _Unusual
        for hand in hands:
            _hand(hand, msg.hands.add())


__all__ = ["record_from_json"]
