"""The API's unary calls as plain functions: request message in, response message out (no gRPC), used by the
servicer and by the in-process conformance target; malformed input raises, so both map errors the same way."""

from __future__ import annotations

from google.rpc import code_pb2, error_details_pb2, status_pb2

from oracle.api.v1 import oracle_pb2, record_pb2
from oracle.games.adjudicate import adjudicate
from oracle.games.deal import deal
from oracle.games.match import deck_order
from oracle.games.movegen import count_actions, legal_actions
from oracle.games.replay import replay
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.rules.referee import check_action
from oracle.rules.scoring import score_hand
from oracle.rules.state_check import InvalidStateError, validate_state
from oracle.ruleset.loader import LoadedRuleSet, RuleBook, SpecError, UnknownRuleSetError
from oracle.service.convert_game import (
    action_from_proto,
    action_to_proto,
    state_from_proto,
    state_to_proto,
    verdict_to_proto,
)
from oracle.service.convert_record import deck_source, record_from_proto, report_to_proto
from oracle.service.convert_table import scores_to_proto, table_from_proto


def bad_request_status(problems: list[FieldProblem]) -> status_pb2.Status:
    """INVALID_ARGUMENT with a google.rpc.BadRequest naming each field."""
    detail = error_details_pb2.BadRequest()
    for problem in problems:
        detail.field_violations.add(field=problem.field, description=problem.description)
    status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message="; ".join(str(p) for p in problems)[:1000])
    status.details.add().Pack(detail)
    return status


def failed_precondition_status(problems: list[FieldProblem]) -> status_pb2.Status:
    """FAILED_PRECONDITION for a state that cannot be judged, with a google.rpc.PreconditionFailure."""
    detail = error_details_pb2.PreconditionFailure()
    for problem in problems:
        detail.violations.add(type="STATE", subject=problem.field, description=problem.description)
    status = status_pb2.Status(
        code=code_pb2.FAILED_PRECONDITION,
        message=("the state is inconsistent: " + "; ".join(str(p) for p in problems))[:1000],
    )
    status.details.add().Pack(detail)
    return status


def not_found_status(exc: UnknownRuleSetError) -> status_pb2.Status:
    """NOT_FOUND for an unknown rule set, with a ResourceInfo detail."""
    status = status_pb2.Status(code=code_pb2.NOT_FOUND, message=str(exc))
    status.details.add().Pack(
        error_details_pb2.ResourceInfo(
            resource_type="oracle.api.v1.RuleSet", resource_name=exc.rule_set_id, description=str(exc)
        )
    )
    return status


def status_of(exc: Exception) -> status_pb2.Status | None:
    """The google.rpc.Status for an expected error (malformed input, unknown rule set, bad state); None for a bug."""
    if isinstance(exc, InvalidInputError):
        return bad_request_status(exc.problems)
    if isinstance(exc, UnknownRuleSetError):
        return not_found_status(exc)
    if isinstance(exc, InvalidStateError):
        return failed_precondition_status(exc.problems)
    if isinstance(exc, SpecError):
        return bad_request_status(
            [FieldProblem(f"{p.origin}.{p.field}" if p.field else p.origin, p.message) for p in exc.problems]
        )
    return None


class OracleApi:
    """Every unary RPC of oracle.api.v1.OracleService as a method of the same name over a RuleBook."""

    def __init__(self, book: RuleBook) -> None:
        self.book = book

    def rule_set(self, ref: oracle_pb2.RuleSetRef, path: str = "rule_set") -> LoadedRuleSet:
        """The rule set a request names (by id or inline)."""
        if ref.WhichOneof("ref") == "inline":
            return self.book.resolve_inline(ref.inline, f"{path}.inline")
        if not ref.id:
            raise InvalidInputError([FieldProblem(f"{path}.id", "is empty: name a rule set, e.g. 'classic-4p'")])
        return self.book.get(ref.id)

    def ListRuleSets(self, request: oracle_pb2.ListRuleSetsRequest) -> oracle_pb2.ListRuleSetsResponse:
        """Every rule set, by id."""
        response = oracle_pb2.ListRuleSetsResponse()
        for loaded in self.book:
            spec = loaded.spec
            response.rule_sets.add(
                id=spec.id,
                title=spec.title,
                extends=loaded.lineage[1] if len(loaded.lineage) > 1 else "",
                seats=spec.players.seats,
                side_size=spec.players.side_size,
            )
        return response

    def GetRuleSet(self, request: oracle_pb2.GetRuleSetRequest) -> oracle_pb2.GetRuleSetResponse:
        """The resolved rule set."""
        loaded = self.rule_set(request.rule_set)
        return oracle_pb2.GetRuleSetResponse(rule_set=loaded.spec, lineage=loaded.lineage)

    def ScoreHand(self, request: oracle_pb2.ScoreHandRequest) -> oracle_pb2.ScoreHandResponse:
        """Itemised score per side."""
        loaded = self.rule_set(request.rule_set)
        return scores_to_proto(score_hand(loaded.rules, table_from_proto(request.table)))

    def GetMinimumInitialMeld(
        self, request: oracle_pb2.GetMinimumInitialMeldRequest
    ) -> oracle_pb2.GetMinimumInitialMeldResponse:
        """The minimum for a running total."""
        loaded = self.rule_set(request.rule_set)
        minimum, row = loaded.rules.minimum_initial_meld(request.running_total)
        response = oracle_pb2.GetMinimumInitialMeldResponse(minimum=minimum)
        if row is not None:
            response.from_score = row
        return response

    def ValidateState(self, request: oracle_pb2.ValidateStateRequest) -> oracle_pb2.ValidateStateResponse:
        """Every inconsistency of a state."""
        loaded = self.rule_set(request.rule_set)
        problems = validate_state(loaded.rules, state_from_proto(request.state))
        response = oracle_pb2.ValidateStateResponse(valid=not problems)
        for problem in problems:
            response.problems.add(field=problem.field, description=problem.description)
        return response

    def CheckAction(self, request: oracle_pb2.CheckActionRequest) -> oracle_pb2.CheckActionResponse:
        """The verdict on one action."""
        loaded = self.rule_set(request.rule_set)
        state = state_from_proto(request.state)
        action = action_from_proto(request.action)
        return verdict_to_proto(check_action(loaded.rules, state, action))

    def DealHand(self, request: oracle_pb2.DealHandRequest) -> oracle_pb2.DealHandResponse:
        """A new hand from a seed or a deck order."""
        loaded = self.rule_set(request.rule_set)
        rules = loaded.rules
        order = deck_order(rules, deck_source(request, "deal_hand"))
        totals = list(request.running_totals) or None
        state = deal(rules, order, dealer=request.dealer, running_totals=totals)
        return oracle_pb2.DealHandResponse(state=state_to_proto(state))

    def ListLegalActions(self, request: oracle_pb2.ListLegalActionsRequest) -> oracle_pb2.ListLegalActionsResponse:
        """Every legal action of the player to move, canonical and grouped."""
        loaded = self.rule_set(request.rule_set)
        actions = legal_actions(loaded.rules, state_from_proto(request.state))
        return oracle_pb2.ListLegalActionsResponse(
            actions=[action_to_proto(a) for a in actions], counts=record_pb2.ActionCounts(**count_actions(actions))
        )

    def Adjudicate(self, request: oracle_pb2.AdjudicateRequest) -> oracle_pb2.AdjudicateResponse:
        """One action under several rule sets."""
        rule_sets = [self.rule_set(ref, f"rule_sets[{i}]") for i, ref in enumerate(request.rule_sets)] or list(
            self.book
        )
        result = adjudicate(rule_sets, state_from_proto(request.state), action_from_proto(request.action))
        response = oracle_pb2.AdjudicateResponse()
        for answer in result.answers:
            entry = response.verdicts.add(
                rule_set_id=answer.rule_set_id,
                applicable=answer.verdict is not None,
                not_applicable=answer.not_applicable,
            )
            if answer.verdict is not None:
                entry.verdict.CopyFrom(verdict_to_proto(answer.verdict))
        for deciding in result.deciding:
            response.deciding_fields.add(field=deciding.field, values=deciding.values)
        return response

    def ReplayGame(self, request: oracle_pb2.ReplayGameRequest) -> oracle_pb2.ReplayGameResponse:
        """Replay a whole record."""
        record = record_from_proto(request.record)
        if request.HasField("rule_set"):
            loaded = self.rule_set(request.rule_set)
        else:
            loaded = self.book.get(record.rule_set_id)
        report = replay(loaded.rules, record, keep_actions=not request.summary_only)
        return oracle_pb2.ReplayGameResponse(report=report_to_proto(report))
