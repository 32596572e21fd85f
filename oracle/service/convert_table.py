"""Converts between API messages (and their notation forms) and the core's domain values."""

from __future__ import annotations

from collections.abc import Sequence

from oracle.api.v1 import notation_pb2, oracle_pb2, scoring_pb2
from oracle.model.cards import NotationError, parse_cards
from oracle.model.errors import Problems
from oracle.model.score import SideScore
from oracle.model.table import HandTable, SideTable, WentOut

_WENT_OUT = {int(w): w for w in WentOut}


def _went_out(value: int, path: str, problems: Problems) -> WentOut:
    if value not in _WENT_OUT:
        problems.add(path, f"{value} is not a WentOut value")
        return WentOut.NO
    return _WENT_OUT[value]


def table_from_proto(table: scoring_pb2.HandTable, prefix: str = "table") -> HandTable:
    """The domain table of a HandTable message (card numbers are checked later, by check_table)."""
    problems = Problems()
    sides = tuple(
        SideTable(
            melds=tuple(tuple(m.cards) for m in side.melds),
            red_threes=tuple(side.red_threes),
            hands=tuple(tuple(h.cards) for h in side.hands),
            went_out=_went_out(side.went_out, f"{prefix}.sides[{i}].went_out", problems),
            unable_after_yes=side.unable_after_yes,
        )
        for i, side in enumerate(table.sides)
    )
    problems.raise_if_any()
    return HandTable(sides, tuple(table.side_of_seat))


def _cards(text: str, path: str, problems: Problems) -> tuple[int, ...]:
    try:
        return tuple(parse_cards(text))
    except NotationError as exc:
        problems.add(path, str(exc))
        return ()


def table_from_notation(table: notation_pb2.HandTableNotation, prefix: str = "") -> HandTable:
    """The domain table of a HandTableNotation; every bad card token is reported with its path."""
    problems = Problems()
    dot = f"{prefix}." if prefix else ""
    sides = []
    for i, side in enumerate(table.sides):
        path = f"{dot}sides[{i}]"
        sides.append(
            SideTable(
                melds=tuple(_cards(m, f"{path}.melds[{j}]", problems) for j, m in enumerate(side.melds)),
                red_threes=_cards(side.red_threes, f"{path}.red_threes", problems),
                hands=tuple(_cards(h, f"{path}.hands[{k}]", problems) for k, h in enumerate(side.hands)),
                went_out=_went_out(side.went_out, f"{path}.went_out", problems),
                unable_after_yes=side.unable_after_yes,
            )
        )
    problems.raise_if_any()
    return HandTable(tuple(sides), tuple(table.side_of_seat))


def table_to_proto(table: HandTable) -> scoring_pb2.HandTable:
    """The HandTable message of a domain table."""
    message = scoring_pb2.HandTable()
    for side in table.sides:
        entry = message.sides.add(
            red_threes=side.red_threes, went_out=int(side.went_out), unable_after_yes=side.unable_after_yes
        )
        for meld in side.melds:
            entry.melds.add(cards=meld)
        for hand in side.hands:
            entry.hands.add(cards=hand)
    message.side_of_seat.extend(table.side_of_seat)
    return message


def scores_to_proto(scores: Sequence[SideScore]) -> oracle_pb2.ScoreHandResponse:
    """The ScoreHandResponse of scored sides."""
    response = oracle_pb2.ScoreHandResponse()
    for score in scores:
        side = response.sides.add(total=score.total)
        for line in score.lines:
            side.lines.add(item=int(line.item), points=line.points, detail=line.detail, field=line.field)
    return response
