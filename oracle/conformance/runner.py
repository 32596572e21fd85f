"""Runs the conformance cases against a target (this engine in process, or any server of our API over gRPC).

A case becomes one request (notation converted client-side, as any client
would), the target answers, and the answer is judged against the case's
expectation. Loading the case files is in cases, the targets in targets,
and the results' reports and the coverage table in reports; their public
names are importable from here too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import cast

from google.protobuf.message import Message

from oracle.api.v1 import cards_pb2, conformance_pb2, game_pb2, oracle_pb2, record_pb2, scoring_pb2
from oracle.conformance.cases import CASES_DIR, Case, CaseFileError, load_cases, load_expected_failures
from oracle.conformance.reports import (
    Result,
    coverage,
    coverage_markdown,
    junit_xml,
    results_json,
    succeeded,
    summary_lines,
)
from oracle.conformance.targets import CallError, GrpcTarget, InProcessTarget, Reply, Target, TargetUnreachable
from oracle.model.actions import parse_action
from oracle.model.cards import NotationError, format_cards, parse_cards
from oracle.model.errors import InvalidInputError
from oracle.ruleset.loader import RuleBook, SpecError, UnknownRuleSetError, default_rule_book
from oracle.service.convert_game import action_to_proto, state_from_notation, state_to_proto
from oracle.service.convert_table import table_from_notation, table_to_proto

CLASSIC = ("classic-2p", "classic-4p")


def _request(case: conformance_pb2.ConformanceCase, book: RuleBook) -> tuple[str, Message]:
    """The RPC and request message for a case (notation converted client-side, as any client would)."""
    kind = case.WhichOneof("input")
    if case.HasField("inline_rule_set"):
        ref = oracle_pb2.RuleSetRef(inline=case.inline_rule_set)
        rules = book.resolve_inline(case.inline_rule_set, "inline_rule_set").rules
    else:
        ref = oracle_pb2.RuleSetRef(id=case.rule_set_id)
        try:
            rules = book.get(case.rule_set_id).rules
        except UnknownRuleSetError:
            rules = book.get(CLASSIC[0]).rules  # only the deck is needed to fill the stock; the target: NOT_FOUND
    if kind == "check":
        state = state_to_proto(state_from_notation(case.check.state, rules))
        action = action_to_proto(parse_action(case.check.action))
        return "CheckAction", oracle_pb2.CheckActionRequest(rule_set=ref, state=state, action=action)
    if kind == "validate":
        state = state_to_proto(state_from_notation(case.validate.state, rules))
        return "ValidateState", oracle_pb2.ValidateStateRequest(rule_set=ref, state=state)
    if kind == "score":
        table: scoring_pb2.HandTable = table_to_proto(table_from_notation(case.score.table))
        return "ScoreHand", oracle_pb2.ScoreHandRequest(rule_set=ref, table=table)
    if kind == "minimum":
        return "GetMinimumInitialMeld", oracle_pb2.GetMinimumInitialMeldRequest(
            rule_set=ref, running_total=case.minimum.running_total, hand_number=case.minimum.hand_number
        )
    if kind == "deal":
        deal = oracle_pb2.DealHandRequest(rule_set=ref, dealer=case.deal.dealer)
        if case.deal.deck_order:
            # The engine's card numbers are the Card enum's numbers (see oracle.model.cards).
            deal.deck_order.cards.extend(cast("list[cards_pb2.Card]", parse_cards(case.deal.deck_order)))
        else:
            deal.seed = case.deal.seed
        return "DealHand", deal
    if kind == "replay":
        record = record_pb2.GameRecord()
        record.CopyFrom(case.replay.record)
        record.rule_set_id = case.rule_set_id
        replay_request = oracle_pb2.ReplayGameRequest(record=record, summary_only=True)
        if case.HasField("inline_rule_set"):
            replay_request.rule_set.CopyFrom(ref)
        return "ReplayGame", replay_request
    raise CaseFileError(f"case {case.id} has no input")


_GOES_ON = game_pb2.HandEnd.Name(game_pb2.HAND_END_UNSPECIFIED)  #: legal.hand_end expecting no end of the hand


def _sides_text(sides: Iterable[tuple[Iterable[str], str, int, int]]) -> list[str]:
    """Sides (melds as card lists, red threes, running total, unable_after_yes) as comparable text: every card
    list sorted, the melds sorted."""

    def cards(text: str) -> str:
        return format_cards(sorted(parse_cards(text)))

    return [
        f"melds [{', '.join(sorted(cards(m) for m in melds))}] red threes [{cards(reds)}] total {total}"
        + (f" unable after yes {unable}" if unable else "")
        for melds, reds, total, unable in sides
    ]


def _judge_next_state(legal: conformance_pb2.LegalExpectation, reply: oracle_pb2.CheckActionResponse) -> str:
    """'' when the events and the next state's side_of_seat and sides are as expected (where given)."""
    if legal.events:
        kinds = [str(e.WhichOneof("kind")) for e in reply.events]
        if kinds != list(legal.events):
            return f"expected events {list(legal.events)}, got {kinds}"
    state = reply.next_state
    if legal.HasField("side_of_seat_after") and list(state.side_of_seat) != list(legal.side_of_seat_after.entries):
        return (
            f"expected side_of_seat {list(legal.side_of_seat_after.entries)} afterwards, got {list(state.side_of_seat)}"
        )
    if legal.sides_after:
        want = _sides_text((s.melds, s.red_threes, s.running_total, s.unable_after_yes) for s in legal.sides_after)
        got = _sides_text(
            ([format_cards(m.cards) for m in s.melds], format_cards(s.red_threes), s.running_total, s.unable_after_yes)
            for s in state.sides
        )
        if got != want:
            return f"expected sides afterwards {want}, got {got}"
    return ""


def _judge(case: conformance_pb2.ConformanceCase, request: Message, reply: Reply) -> str:
    """'' when the reply meets the expectation, else what differs."""
    expect = case.expect
    outcome = expect.WhichOneof("outcome")
    if outcome == "error":
        if not isinstance(reply, CallError):
            return f"expected {expect.error.code}, got a response"
        if reply.code != expect.error.code:
            return f"expected {expect.error.code}, got {reply.code}: {reply.message}"
        missing = [f for f in expect.error.fields if f not in reply.fields]
        return f"error fields {missing} not among {list(reply.fields)}" if missing else ""
    if isinstance(reply, CallError):
        return f"expected {outcome}, got {reply.code}: {reply.message}"
    if outcome in ("legal", "illegal"):
        assert isinstance(reply, oracle_pb2.CheckActionResponse)
        codes = sorted(v.code for v in reply.violations)
        if outcome == "illegal":
            want = sorted(expect.illegal.codes)
            if reply.legal or (want and codes != want):
                return f"expected illegal {want}, got {'legal' if reply.legal else codes}"
            return ""
        if not reply.legal:
            return f"expected legal, got illegal {codes}"
        ended = [e.hand_ended for e in reply.events if e.WhichOneof("kind") == "hand_ended"]
        if expect.legal.hand_end == _GOES_ON:
            if ended:
                return f"expected the hand to go on, got it ended {game_pb2.HandEnd.Name(ended[0].reason)}"
        elif expect.legal.hand_end:
            got = game_pb2.HandEnd.Name(ended[0].reason) if ended else "no end"
            if got != expect.legal.hand_end:
                return f"expected the hand to end {expect.legal.hand_end}, got {got}"
            if expect.legal.hand_scores and [s.total for s in ended[0].scores] != list(expect.legal.hand_scores):
                return (
                    f"expected hand scores {list(expect.legal.hand_scores)}, got {[s.total for s in ended[0].scores]}"
                )
        if expect.legal.HasField("hand_size_after"):
            assert isinstance(request, oracle_pb2.CheckActionRequest)
            held = len(reply.next_state.seats[request.state.seat_to_move].hand)
            if held != expect.legal.hand_size_after:
                return f"expected {expect.legal.hand_size_after} cards in hand afterwards, got {held}"
        stock_after = len(reply.next_state.stock)
        if expect.legal.HasField("stock_size_after") and stock_after != expect.legal.stock_size_after:
            return f"expected {expect.legal.stock_size_after} cards in the stock afterwards, got {stock_after}"
        return _judge_next_state(expect.legal, reply)
    if outcome == "dealt":
        assert isinstance(reply, oracle_pb2.DealHandResponse)
        dealt, state = expect.dealt, reply.state
        checks: list[tuple[str, object, object]] = [
            ("hand sizes", list(dealt.hand_sizes), [len(s.hand) for s in state.seats]),
            ("seat to move", dealt.seat_to_move, state.seat_to_move),
        ]
        if dealt.discard_pile:
            checks.append(("discard pile", dealt.discard_pile, format_cards(state.discard_pile)))
        if dealt.red_threes:
            checks.append(("red threes", list(dealt.red_threes), [format_cards(s.red_threes) for s in state.sides]))
        if dealt.HasField("stock_size"):
            checks.append(("stock size", dealt.stock_size, len(state.stock)))
        if dealt.HasField("pile_size"):
            checks.append(("pile size", dealt.pile_size, len(state.discard_pile)))
        for what, expected, actual in checks:
            if expected != actual:
                return f"expected {what} {expected}, got {actual}"
        return ""
    if outcome == "replayed":
        assert isinstance(reply, oracle_pb2.ReplayGameResponse)
        want_r, report = expect.replayed, reply.report
        got_totals = list(report.hands[-1].totals) if report.hands else []
        if (report.ok, report.game_over) != (want_r.ok, want_r.game_over):
            return (
                f"expected ok={want_r.ok} game_over={want_r.game_over}, got ok={report.ok} game_over={report.game_over}"
            )
        if want_r.game_over and report.winner != want_r.winner:
            return f"expected winner {want_r.winner}, got {report.winner}"
        if want_r.totals and got_totals != list(want_r.totals):
            return f"expected totals {list(want_r.totals)}, got {got_totals}"
        return ""
    if outcome == "score":
        assert isinstance(reply, oracle_pb2.ScoreHandResponse)
        totals = [s.total for s in reply.sides]
        if totals != list(expect.score.totals):
            return f"expected totals {list(expect.score.totals)}, got {totals}"
        for item in expect.score.items:
            points = sum(
                line.points
                for line in reply.sides[item.side].lines
                if scoring_pb2.ScoreItem.Name(line.item) == item.item
            )
            if points != item.points:
                return f"side {item.side} {item.item}: expected {item.points}, got {points}"
        return ""
    if outcome == "minimum":
        assert isinstance(reply, oracle_pb2.GetMinimumInitialMeldResponse)
        return "" if reply.minimum == expect.minimum else f"expected minimum {expect.minimum}, got {reply.minimum}"
    if outcome in ("valid", "invalid_state"):
        assert isinstance(reply, oracle_pb2.ValidateStateResponse)
        fields = [p.field for p in reply.problems]
        if outcome == "valid":
            return "" if reply.valid else f"expected valid, got problems {fields}"
        missing = [f for f in expect.invalid_state.fields if f not in fields]
        if reply.valid or missing:
            return f"expected problems at {list(expect.invalid_state.fields)}, got {fields}"
        return ""
    return f"case has no expectation ({outcome})"


@dataclass
class RunOptions:
    """Which cases to run and how to count them."""

    rule_sets: tuple[str, ...] = ()  #: run only these (others are skipped); empty: all
    expected_failures: frozenset[str] = frozenset()  #: case ids expected to fail
    book: RuleBook = field(default_factory=default_rule_book)


def run_cases(
    cases: Iterable[Case], target: Target, options: RunOptions, progress: Callable[[], None] | None = None
) -> list[Result]:
    """Run every case; a case that cannot even be built (bad notation in the file) fails with the reason."""
    results = []
    for item in cases:
        case = item.case
        if options.rule_sets and case.rule_set_id not in options.rule_sets:
            results.append(Result(item, "skip", f"rule set {case.rule_set_id} not selected"))
            continue
        try:
            rpc, request = _request(case, options.book)
            problem = _judge(case, request, target.call(rpc, request))
        except (NotationError, InvalidInputError, CaseFileError, SpecError) as exc:
            problem = f"the case cannot be built: {exc}"
        expected_fail = case.id in options.expected_failures
        if problem:
            results.append(Result(item, "xfail" if expected_fail else "fail", problem))
        else:
            results.append(
                Result(
                    item,
                    "xpass" if expected_fail else "pass",
                    "listed as an expected failure but passed" if expected_fail else "",
                )
            )
        if progress is not None:
            progress()
    return results


__all__ = [
    "CASES_DIR",
    "CLASSIC",
    "CallError",
    "Case",
    "CaseFileError",
    "GrpcTarget",
    "InProcessTarget",
    "Reply",
    "Result",
    "RunOptions",
    "Target",
    "TargetUnreachable",
    "coverage",
    "coverage_markdown",
    "junit_xml",
    "load_cases",
    "load_expected_failures",
    "results_json",
    "run_cases",
    "succeeded",
    "summary_lines",
]
