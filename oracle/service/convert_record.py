"""Converts game records, deck sources and replay reports between API messages and domain values."""

from __future__ import annotations

from typing import cast

from oracle.api.v1 import cards_pb2, record_pb2
from oracle.games.match import DeckSource
from oracle.games.replay import ActionReport, GameRecord, HandRecord, ReplayReport
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.service.bounded import bounded_violations
from oracle.service.convert_game import action_from_proto, action_to_proto, event_to_proto
from oracle.service.convert_table import scores_to_proto
from oracle.service.limits import DEFAULT_LIMITS


def deck_source(message: object, path: str) -> DeckSource:
    """The DeckSource of a message with a `deck` oneof of `seed` and `deck_order`."""
    kind = message.WhichOneof("deck")  # type: ignore[attr-defined]
    if kind == "seed":
        return DeckSource(seed=message.seed)  # type: ignore[attr-defined]
    if kind == "deck_order":
        return DeckSource(order=tuple(message.deck_order.cards))  # type: ignore[attr-defined]
    raise InvalidInputError([FieldProblem(f"{path}.deck", "give a seed or a deck_order")])


def record_from_proto(msg: record_pb2.GameRecord, prefix: str = "record") -> GameRecord:
    """The domain record of a GameRecord message; every malformed part is reported with its path."""
    problems: list[FieldProblem] = []
    hands = []
    for h, hand in enumerate(msg.hands):
        path = f"{prefix}.hands[{h}]"
        actions = []
        for i, action in enumerate(hand.actions):
            try:
                actions.append(action_from_proto(action, f"{path}.actions[{i}]"))
            except InvalidInputError as exc:
                problems.extend(exc.problems)
        try:
            source = deck_source(hand, path)
        except InvalidInputError as exc:
            problems.extend(exc.problems)
            source = DeckSource()
        hands.append(HandRecord(source, tuple(actions), tuple(hand.claimed_scores), tuple(hand.claimed_totals)))
    if not msg.rule_set_id:
        problems.append(FieldProblem(f"{prefix}.rule_set_id", "is empty: name the rule set the game was played under"))
    if problems:
        raise InvalidInputError(problems)
    winner = msg.claimed_winner if msg.HasField("claimed_winner") else None
    return GameRecord(msg.rule_set_id, msg.first_dealer, tuple(hands), winner)


def _action_report(entry: ActionReport, max_violations: int) -> record_pb2.ActionReport:
    msg = record_pb2.ActionReport(
        hand=entry.hand, index=entry.index, seat=entry.seat, notation=entry.notation, legal=entry.legal
    )
    for v in bounded_violations(entry.violations, max_violations):
        item = msg.violations.add(code=v.code, field=v.field, explanation=v.explanation)
        for source, section in v.cite:
            item.cite.add(source=source, section=section)
    msg.events.extend(event_to_proto(e) for e in entry.events)
    return msg


def report_to_proto(
    report: ReplayReport, max_violations: int = DEFAULT_LIMITS.max_violations
) -> record_pb2.ReplayReport:
    """The ReplayReport message of a replay (each action's violations bounded as a verdict's)."""
    msg = record_pb2.ReplayReport(ok=report.ok, actions_judged=report.judged, problems=report.problems)
    msg.actions.extend(_action_report(a, max_violations) for a in report.actions)
    if report.first_illegal is not None:
        msg.first_illegal.CopyFrom(_action_report(report.first_illegal, max_violations))
    for hand in report.hands:
        msg.hands.add(hand=hand.hand, end=int(hand.end), scores=scores_to_proto(hand.scores).sides, totals=hand.totals)
    for m in report.mismatches:
        msg.mismatches.add(hand=m.hand, side=m.side, what=m.what, claimed=m.claimed, computed=m.computed)
    if report.standing is not None:
        msg.game_over = report.standing.over
        if report.standing.winner is not None:
            msg.winner = report.standing.winner
    return msg


def record_to_proto(record: GameRecord) -> record_pb2.GameRecord:
    """The GameRecord message of a domain record."""
    msg = record_pb2.GameRecord(rule_set_id=record.rule_set_id, first_dealer=record.first_dealer)
    if record.claimed_winner is not None:
        msg.claimed_winner = record.claimed_winner
    for hand in record.hands:
        entry = msg.hands.add(claimed_scores=hand.claimed_scores, claimed_totals=hand.claimed_totals)
        if hand.deck.seed is not None:
            entry.seed = hand.deck.seed
        elif hand.deck.order is not None:
            entry.deck_order.cards.extend(cast("list[cards_pb2.Card]", list(hand.deck.order)))
        entry.actions.extend(action_to_proto(a) for a in hand.actions)
    return msg
