"""Converts game records, deck sources and replay reports between API messages and domain values."""

from __future__ import annotations

from typing import Any, cast

from oracle.api.v1 import cards_pb2, record_pb2
from oracle.games.claims import ClaimedState
from oracle.games.match import DeckSource
from oracle.games.replay import ActionReport, Disagreement, GameRecord, HandRecord, ReplayReport
from oracle.model.actions import Action, parse_action
from oracle.model.cards import NotationError, parse_cards
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.model.state import Phase
from oracle.rules.violations import Violation
from oracle.ruleset.compiled import CompiledRules
from oracle.service.bounded import bounded_violations
from oracle.service.convert_game import action_from_proto, action_to_proto, state_from_notation
from oracle.service.convert_table import scores_to_proto
from oracle.service.limits import DEFAULT_LIMITS
from oracle.service.referee_answer import fill_events


def deck_source(message: object, path: str) -> DeckSource:
    """The DeckSource of a message with a `deck` oneof of `seed` and `deck_order`."""
    kind = message.WhichOneof("deck")  # type: ignore[attr-defined]
    if kind == "seed":
        return DeckSource(seed=message.seed)  # type: ignore[attr-defined]
    if kind == "deck_order":
        return DeckSource(order=tuple(message.deck_order.cards))  # type: ignore[attr-defined]
    raise InvalidInputError([FieldProblem(f"{path}.deck", "give a seed or a deck_order")])


def _moves(texts: list[str], path: str, problems: list[FieldProblem]) -> list[Action]:
    actions = []
    for i, text in enumerate(texts):
        try:
            actions.append(parse_action(text))
        except NotationError as exc:
            column = getattr(exc, "column", 0)
            where = f" (at character {column})" if column else ""
            problems.append(FieldProblem(f"{path}.moves[{i}]", f"{text!r}: {exc}{where}"))
    return actions


def _claim(msg: record_pb2.Checkpoint, path: str, problems: list[FieldProblem]) -> ClaimedState:
    def cards(text: str, where: str) -> tuple[int, ...]:
        try:
            return tuple(parse_cards(text))
        except NotationError as exc:
            problems.append(FieldProblem(where, str(exc)))
            return ()

    def melds(text: str, where: str) -> tuple[tuple[int, ...], ...]:
        parts = text.split(",") if text.strip() else []
        return tuple(cards(p, f"{where} meld {k + 1}") for k, p in enumerate(parts))

    return ClaimedState(
        after=msg.after,
        hands=tuple((e.index, cards(e.cards, f"{path}.hands[{k}].cards")) for k, e in enumerate(msg.hands)),
        melds=tuple((e.index, melds(e.cards, f"{path}.melds[{k}].cards")) for k, e in enumerate(msg.melds)),
        red_threes=tuple(
            (e.index, cards(e.cards, f"{path}.red_threes[{k}].cards")) for k, e in enumerate(msg.red_threes)
        ),
        stock=cards(msg.stock, f"{path}.stock") if msg.HasField("stock") else None,
        stock_count=msg.stock_count if msg.HasField("stock_count") else None,
        discard_pile=cards(msg.discard_pile, f"{path}.discard_pile") if msg.HasField("discard_pile") else None,
        seat_to_move=msg.seat_to_move if msg.HasField("seat_to_move") else None,
        phase=Phase(msg.phase) if msg.phase in _PHASES else None,
        side_of_seat=tuple(msg.sides.side_of_seat) if msg.HasField("sides") else None,
    )


_PHASES = {int(p) for p in Phase}


def _hand(
    hand: record_pb2.HandRecord, path: str, rules: CompiledRules | None, problems: list[FieldProblem]
) -> HandRecord:
    actions = []
    for i, action in enumerate(hand.actions):
        try:
            actions.append(action_from_proto(action))  # the path written only for a problem (below)
        except InvalidInputError:
            try:
                actions.append(action_from_proto(action, f"{path}.actions[{i}]"))
            except InvalidInputError as exc:
                problems.extend(exc.problems)
    if hand.moves and hand.actions:
        problems.append(FieldProblem(f"{path}.moves", "give the actions as `actions` or as `moves`, not both"))
    actions.extend(_moves(list(hand.moves), path, problems))
    start = None
    source = DeckSource()
    if hand.WhichOneof("deck") == "start":
        if rules is None:
            problems.append(FieldProblem(f"{path}.start", "an explicit deal needs the rule set to read it"))
        else:
            try:
                start = state_from_notation(hand.start, rules, f"{path}.start")
            except InvalidInputError as exc:
                problems.extend(exc.problems)
    else:
        try:
            source = deck_source(hand, path)
        except InvalidInputError as exc:
            problems.extend(exc.problems)
    for k, checkpoint in enumerate(hand.checkpoints):
        if checkpoint.phase and checkpoint.phase not in _PHASES:
            problems.append(FieldProblem(f"{path}.checkpoints[{k}].phase", f"{checkpoint.phase} is not a phase"))
    return HandRecord(
        source,
        tuple(actions),
        tuple(hand.claimed_scores),
        tuple(hand.claimed_totals),
        dealer=hand.dealer if hand.HasField("dealer") else None,
        starting_totals=tuple(hand.starting_totals) if hand.starting_totals else None,
        start=start,
        checkpoints=tuple(_claim(c, f"{path}.checkpoints[{k}]", problems) for k, c in enumerate(hand.checkpoints)),
    )


def record_from_proto(
    msg: record_pb2.GameRecord, prefix: str = "record", rules: CompiledRules | None = None
) -> GameRecord:
    """The domain record of a GameRecord message; every malformed part is reported with its path.

    `rules` (the rule set the record is replayed under) is needed to read an explicit deal (`start`).
    """
    problems: list[FieldProblem] = []
    hands = [_hand(hand, f"{prefix}.hands[{h}]", rules, problems) for h, hand in enumerate(msg.hands)]
    if not msg.rule_set_id:
        problems.append(FieldProblem(f"{prefix}.rule_set_id", "is empty: name the rule set the game was played under"))
    if problems:
        raise InvalidInputError(problems)
    winner = msg.claimed_winner if msg.HasField("claimed_winner") else None
    return GameRecord(msg.rule_set_id, msg.first_dealer, tuple(hands), winner)


def _violations(target: Any, violations: tuple[Violation, ...], max_violations: int) -> None:
    for v in bounded_violations(violations, max_violations):
        item = target.add(code=v.code, field=v.field, explanation=v.explanation)
        for source, section in v.cite:
            item.cite.add(source=source, section=section)


def _action_report(entry: ActionReport, max_violations: int) -> record_pb2.ActionReport:
    msg = record_pb2.ActionReport()
    _fill_action_report(msg, entry, max_violations)
    return msg


def _fill_action_report(msg: record_pb2.ActionReport, entry: ActionReport, max_violations: int) -> None:
    """Write one judged action into an empty ActionReport (in place: no message built apart and copied)."""
    msg.hand = entry.hand
    msg.index = entry.index
    msg.seat = entry.seat
    msg.notation = entry.notation
    msg.legal = entry.legal
    msg.uncertain = entry.uncertain
    if entry.violations:
        _violations(msg.violations, entry.violations, max_violations)
    if entry.events:
        fill_events(msg.events, entry.events)


def disagreement_to_proto(d: Disagreement, max_violations: int) -> record_pb2.Disagreement:
    """The Disagreement message of one disagreement (its violations bounded as a verdict's)."""
    msg = record_pb2.Disagreement(
        hand=d.hand,
        index=d.index,
        seat=d.seat,
        kind=d.kind,
        field=d.field,
        claimed=d.claimed,
        computed=d.computed,
        uncertain=d.uncertain,
    )
    _violations(msg.violations, d.violations, max_violations)
    return msg


def report_to_proto(
    report: ReplayReport, max_violations: int = DEFAULT_LIMITS.max_violations
) -> record_pb2.ReplayReport:
    """The ReplayReport message of a replay (each action's violations bounded as a verdict's)."""
    msg = record_pb2.ReplayReport(
        ok=report.ok, actions_judged=report.judged, problems=report.problems, uncertain_actions=report.uncertain
    )
    msg.disagreements.extend(disagreement_to_proto(d, max_violations) for d in report.disagreements)
    actions = msg.actions
    for entry in report.actions:
        _fill_action_report(actions.add(), entry, max_violations)
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
    """The GameRecord message of a domain record (explicit deals and checkpoints are not written: ValueError)."""
    msg = record_pb2.GameRecord(rule_set_id=record.rule_set_id, first_dealer=record.first_dealer)
    if record.claimed_winner is not None:
        msg.claimed_winner = record.claimed_winner
    for hand in record.hands:
        if hand.start is not None or hand.checkpoints:
            raise ValueError("record_to_proto writes decks and actions only, not explicit deals or checkpoints")
        entry = msg.hands.add(claimed_scores=hand.claimed_scores, claimed_totals=hand.claimed_totals)
        if hand.dealer is not None:
            entry.dealer = hand.dealer
        if hand.starting_totals is not None:
            entry.starting_totals.extend(hand.starting_totals)
        if hand.deck.seed is not None:
            entry.seed = hand.deck.seed
        elif hand.deck.order is not None:
            entry.deck_order.cards.extend(cast("list[cards_pb2.Card]", list(hand.deck.order)))
        entry.actions.extend(action_to_proto(a) for a in hand.actions)
    return msg
