"""Runs the conformance cases against a target (this engine in process, or any server of our API over gRPC)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Protocol

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from oracle.api.v1 import conformance_pb2, game_pb2, oracle_pb2, oracle_pb2_grpc, record_pb2, scoring_pb2
from oracle.model.actions import parse_action
from oracle.model.cards import NotationError, format_cards, parse_cards
from oracle.model.errors import InvalidInputError
from oracle.rules.violations import KINDS
from oracle.ruleset.loader import RuleBook, SpecError, UnknownRuleSetError, default_rule_book
from oracle.service.api import OracleApi, status_of
from oracle.service.convert_game import action_to_proto, state_from_notation, state_to_proto
from oracle.service.convert_table import table_from_notation, table_to_proto

CASES_DIR = "cases"
CLASSIC = ("classic-2p", "classic-4p")


@dataclass(frozen=True)
class Case:
    """One case with the file it came from."""

    suite: str  #: file name without .json
    case: conformance_pb2.ConformanceCase


class CaseFileError(ValueError):
    """A case file that does not parse (unknown field, wrong type) or repeats an id."""


def load_cases(directory: Traversable | None = None) -> list[Case]:
    """Every case of every cases/*.json file, parsed strictly, in file then case order."""
    directory = directory or resources.files("oracle.conformance.data") / CASES_DIR
    cases: list[Case] = []
    seen: dict[str, str] = {}
    for entry in sorted(directory.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        suite = conformance_pb2.ConformanceSuite()
        try:
            json_format.Parse(entry.read_text(encoding="utf-8"), suite)
        except json_format.ParseError as exc:
            raise CaseFileError(f"{entry.name}: {exc}") from None
        name = entry.name.removesuffix(".json")
        for case in suite.cases:
            if case.id in seen:
                raise CaseFileError(f"{entry.name}: case id '{case.id}' repeats one in {seen[case.id]}.json")
            seen[case.id] = name
            cases.append(Case(name, case))
    return cases


@dataclass(frozen=True)
class CallError:
    """A call that failed with a status: its code name and the field paths it named."""

    code: str
    fields: tuple[str, ...]
    message: str


Reply = Message | CallError


class Target(Protocol):
    """Something that answers the API's unary calls: `call(rpc_name, request) -> response or CallError`."""

    def call(self, rpc: str, request: Message) -> Reply:
        """Make one call."""
        ...


def _fields_of(status: status_pb2.Status) -> tuple[str, ...]:
    fields: list[str] = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            fields += [v.field for v in bad.field_violations]
        elif detail.Is(error_details_pb2.PreconditionFailure.DESCRIPTOR):
            failure = error_details_pb2.PreconditionFailure()
            detail.Unpack(failure)
            fields += [v.subject for v in failure.violations]
    return tuple(fields)


class InProcessTarget:
    """This engine, called directly (the default target)."""

    def __init__(self, book: RuleBook | None = None) -> None:
        self.api = OracleApi(book or default_rule_book())

    def call(self, rpc: str, request: Message) -> Reply:
        """Call OracleApi.<rpc>; expected errors become CallError exactly as the server would send them."""
        try:
            return getattr(self.api, rpc)(request)  # type: ignore[no-any-return]
        except Exception as exc:
            status = status_of(exc)
            if status is None:
                raise
            return CallError(code_pb2.Code.Name(status.code), _fields_of(status), status.message)


class GrpcTarget:
    """Any server implementing oracle.api.v1.OracleService."""

    def __init__(self, address: str, timeout: float = 30.0) -> None:
        self.channel = grpc.insecure_channel(address)
        self.stub = oracle_pb2_grpc.OracleServiceStub(self.channel)
        self.timeout = timeout

    def call(self, rpc: str, request: Message) -> Reply:
        """Call the RPC; a status error becomes CallError with the BadRequest/PreconditionFailure field paths."""
        try:
            return getattr(self.stub, rpc)(request, timeout=self.timeout)  # type: ignore[no-any-return]
        except grpc.RpcError as exc:
            status = rpc_status.from_call(exc)  # type: ignore[arg-type]
            fields = _fields_of(status) if status is not None else ()
            return CallError(exc.code().name, fields, exc.details() or "")  # type: ignore[attr-defined]

    def close(self) -> None:
        """Close the channel."""
        self.channel.close()


@dataclass
class Result:
    """The outcome of one case."""

    case: Case
    status: str  #: "pass", "fail", "skip", "xfail" (expected failure that failed), "xpass" (expected failure passed)
    detail: str = ""


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
            rule_set=ref, running_total=case.minimum.running_total
        )
    if kind == "deal":
        deal = oracle_pb2.DealHandRequest(rule_set=ref, dealer=case.deal.dealer)
        if case.deal.deck_order:
            deal.deck_order.cards.extend(parse_cards(case.deal.deck_order))
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
        if expect.legal.hand_end:
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
        return ""
    if outcome == "dealt":
        assert isinstance(reply, oracle_pb2.DealHandResponse)
        want, got = expect.dealt, reply.state
        checks = [
            ("hand sizes", list(want.hand_sizes), [len(s.hand) for s in got.seats]),
            ("seat to move", want.seat_to_move, got.seat_to_move),
        ]
        if want.discard_pile:
            checks.append(("discard pile", want.discard_pile, format_cards(got.discard_pile)))
        if want.red_threes:
            checks.append(("red threes", list(want.red_threes), [format_cards(s.red_threes) for s in got.sides]))
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
            got = sum(
                line.points
                for line in reply.sides[item.side].lines
                if scoring_pb2.ScoreItem.Name(line.item) == item.item
            )
            if got != item.points:
                return f"side {item.side} {item.item}: expected {item.points}, got {got}"
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


def succeeded(results: list[Result]) -> bool:
    """No unexpected failure and no unexpected pass."""
    return not any(r.status in ("fail", "xpass") for r in results)


def summary_lines(results: list[Result]) -> list[str]:
    """A table by suite: pass, fail, skip, xfail, xpass; then each failure."""
    suites: dict[str, dict[str, int]] = {}
    for r in results:
        counts = suites.setdefault(r.case.suite, dict.fromkeys(("pass", "fail", "skip", "xfail", "xpass"), 0))
        counts[r.status] += 1
    lines = [f"{'suite':<34} {'pass':>5} {'fail':>5} {'skip':>5} {'xfail':>6} {'xpass':>6}"]
    for suite, c in suites.items():
        lines.append(f"{suite:<34} {c['pass']:>5} {c['fail']:>5} {c['skip']:>5} {c['xfail']:>6} {c['xpass']:>6}")
    totals = {k: sum(c[k] for c in suites.values()) for k in ("pass", "fail", "skip", "xfail", "xpass")}
    lines.append(
        f"{'total':<34} {totals['pass']:>5} {totals['fail']:>5} {totals['skip']:>5} {totals['xfail']:>6}"
        f" {totals['xpass']:>6}"
    )
    for r in results:
        if r.status in ("fail", "xpass"):
            lines.append(f"{r.status.upper()}: {r.case.case.id}: {r.detail}")
    lines.append(
        f"{totals['pass'] + totals['xfail']} passed, {totals['fail'] + totals['xpass']} failed"
        + (f", {totals['skip']} skipped" if totals["skip"] else "")
    )
    return lines


def results_json(results: list[Result]) -> str:
    """Every result as JSON."""
    return json.dumps(
        [
            {
                "id": r.case.case.id,
                "suite": r.case.suite,
                "ruleSetId": r.case.case.rule_set_id,
                "status": r.status,
                "detail": r.detail,
            }
            for r in results
        ],
        indent=2,
    )


def junit_xml(results: list[Result]) -> str:
    """The results as JUnit XML (one testsuite per case file)."""
    import xml.etree.ElementTree as ET

    root = ET.Element("testsuites")
    by_suite: dict[str, list[Result]] = {}
    for r in results:
        by_suite.setdefault(r.case.suite, []).append(r)
    for suite, items in by_suite.items():
        node = ET.SubElement(
            root,
            "testsuite",
            name=suite,
            tests=str(len(items)),
            failures=str(sum(r.status in ("fail", "xpass") for r in items)),
            skipped=str(sum(r.status in ("skip", "xfail") for r in items)),
        )
        for r in items:
            case = ET.SubElement(node, "testcase", classname=suite, name=r.case.case.id)
            if r.status in ("fail", "xpass"):
                ET.SubElement(case, "failure", message=r.detail)
            elif r.status in ("skip", "xfail"):
                ET.SubElement(case, "skipped", message=r.detail or r.status)
    return ET.tostring(root, encoding="unicode")


def coverage(cases: Iterable[Case]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(violation code -> case ids expecting it, rule-set field -> case ids exercising it)."""
    from oracle.ruleset.paths import leaf_paths

    by_code: dict[str, list[str]] = {code: [] for code in KINDS}
    by_field: dict[str, list[str]] = {path: [] for path in leaf_paths()}
    for item in cases:
        case = item.case
        fields = list(case.fields)
        if case.expect.WhichOneof("outcome") == "illegal":
            for code in case.expect.illegal.codes:
                by_code.setdefault(code, []).append(case.id)
                kind = KINDS.get(code)
                if kind is not None:
                    fields += [kind.field] if "." in kind.field else []
        for path in dict.fromkeys(fields):
            by_field.setdefault(path, []).append(case.id)
    return by_code, by_field


def coverage_markdown(cases: list[Case]) -> str:
    """The generated coverage table (conformance/COVERAGE.md)."""
    by_code, by_field = coverage(cases)
    lines = [
        "# Conformance coverage",
        "",
        "Generated by `canasta-oracle conformance --coverage`; a test fails if it is stale or if a violation",
        "code or a rule-set field has no case.",
        "",
        "## Violation codes",
        "",
        "| code | cases |",
        "|---|---|",
    ]
    lines += [f"| {code} | {', '.join(ids) or '**none**'} |" for code, ids in sorted(by_code.items())]
    lines += ["", "## Rule-set fields", "", "| field | cases |", "|---|---|"]
    lines += [f"| {path} | {', '.join(ids) or '**none**'} |" for path, ids in by_field.items()]
    return "\n".join(lines) + "\n"


def load_expected_failures(text: str) -> frozenset[str]:
    """Case ids, one per line; '#' starts a comment."""
    return frozenset(line.split("#", 1)[0].strip() for line in text.splitlines() if line.split("#", 1)[0].strip())
