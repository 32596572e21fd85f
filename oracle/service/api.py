"""The API's unary calls as plain functions: request message in, response message out (no gRPC), used by the
servicer and by the in-process conformance target; malformed input raises, so both map errors the same way."""

from __future__ import annotations

from oracle.api.v1 import game_pb2, oracle_pb2, record_pb2
from oracle.games.adjudicate import adjudicate
from oracle.games.deal import deal
from oracle.games.live import LiveGame
from oracle.games.match import DeckSource, deck_order
from oracle.games.movegen import count_actions, legal_actions_upto
from oracle.games.notation import notation
from oracle.games.replay import replay
from oracle.model.actions import Action, format_action, parse_action
from oracle.model.cards import NotationError
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.model.interrupt import Checkpoint
from oracle.model.state import GameState
from oracle.model.view import PlayerView
from oracle.rules import referee
from oracle.rules.scoring import score_hand
from oracle.rules.state_check import validate_state
from oracle.rules.view import acting_seat_seen, complete, judge_view, score_view
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import LoadedRuleSet, RuleBook
from oracle.service.bounded import (
    listed_problems,
)
from oracle.service.convert_adjudication import adjudication_to_proto
from oracle.service.convert_game import (
    action_from_proto,
    action_to_proto,
    state_from_message,
    state_from_proto,
    state_to_proto,
    verdict_to_proto,
)
from oracle.service.convert_record import deck_source, record_from_proto, report_to_proto
from oracle.service.convert_table import scores_to_proto, table_from_proto
from oracle.service.convert_view import (
    check_view_sizes,
    unknowns_to_proto,
    view_from_message,
    view_from_proto,
    view_verdict_to_proto,
)
from oracle.service.inline import resolve_inline
from oracle.service.limits import DEFAULT_LIMITS, Limits
from oracle.service.sizes import (
    SizeCheck,
    check_action,
    check_deck_order,
    check_record,
    check_rule_set_ref,
    check_state,
    check_table,
)
from oracle.service.state_cache import DecodedStates
from oracle.service.statuses import bad_request_status, failed_precondition_status, not_found_status, status_of
from oracle.service.wire import Pieces
from oracle.service.wire_action import action_counts, decode_action
from oracle.service.wire_state import decode_state, state_within
from oracle.service.wire_view import decode_view, view_within

_ANSWER_MARGIN = 64 * 1024  #: bytes of a ListLegalActions answer kept for everything but its actions
_ENTRY_OVERHEAD = 6  #: bytes a repeated message field adds to each entry (tag and length)


def parsed_action(text: str, path: str) -> Action:
    """An action in notation: a parse error is InvalidInputError naming `path` and the position in the text."""
    try:
        return parse_action(text)
    except NotationError as exc:
        raise InvalidInputError([FieldProblem(path, str(exc))]) from None


__all__ = [
    "OracleApi",
    "bad_request_status",
    "failed_precondition_status",
    "not_found_status",
    "parsed_action",
    "status_of",
]


class OracleApi:
    """Every unary RPC of oracle.api.v1.OracleService as a method of the same name over a RuleBook.

    Each request is checked against `limits` before any work is done on it (InvalidInputError beyond one).
    """

    def __init__(self, book: RuleBook, limits: Limits = DEFAULT_LIMITS) -> None:
        self.book = book
        self.limits = limits
        self.states = DecodedStates()  #: the states read lately, by their bytes (a position asked about again)

    def sizes(self) -> SizeCheck:
        """A fresh collector of limit problems for one request."""
        return SizeCheck(self.limits)

    def rule_set(self, ref: oracle_pb2.RuleSetRef, path: str = "rule_set") -> LoadedRuleSet:
        """The rule set a request names (by id or inline), its sizes checked first."""
        rule_set_id = ref.id
        if rule_set_id and len(rule_set_id) <= self.limits.max_id_chars:  # an id within its limit: the common case
            return self.book.get(rule_set_id)
        check = self.sizes()
        check_rule_set_ref(check, ref, path)
        check.done()
        if ref.WhichOneof("ref") == "inline":
            return resolve_inline(self.book, ref.inline, f"{path}.inline", self.limits)
        if not ref.id:
            raise InvalidInputError([FieldProblem(f"{path}.id", "is empty: name a rule set, e.g. 'classic-4p'")])
        return self.book.get(ref.id)

    def state(
        self, msg: game_pb2.GameState, rules: CompiledRules, path: str = "state", pieces: Pieces | None = None
    ) -> GameState:
        """The domain state of a request's state, its sizes checked against the rule set's deck first.

        Read from the message's bytes and counted on the domain state (decode_state, state_within); the message is
        read field by field only when its bytes are unusual or its sizes are not within the limits, where the size
        check names every problem as before. `pieces` records the bytes of the seats and sides read (for
        verdict_to_proto to copy into a next state).
        """
        data = msg.SerializeToString()
        state: GameState | None = self.states.get(data, pieces)
        if state is None:
            recorded: Pieces = {} if pieces is None else pieces  # kept with the state for a later answer to copy
            try:
                state = decode_state(data, recorded)
            except (ValueError, IndexError):
                state = None
            else:
                self.states.put(data, state, recorded)
        if state is not None and state_within(state, rules.deck_size, self.limits.max_seats):
            return state
        check = self.sizes()
        check_state(check, msg, path, rules.deck_size, f"rule set '{rules.id}'")
        check.done()
        return state if state is not None else state_from_message(msg, path)

    def action(self, msg: game_pb2.Action, rules: CompiledRules, path: str = "action") -> Action:
        """The domain action of a request's action, its sizes checked against the rule set's deck first (read from the
        message's bytes when they are usual and within the limits: decode_action)."""
        try:
            action, groups, named = decode_action(msg.SerializeToString())
        except (ValueError, IndexError):
            pass
        else:
            if groups <= rules.deck_size and named <= rules.deck_size:
                return action
        check = self.sizes()
        check_action(check, msg, path, rules.deck_size, f"rule set '{rules.id}'")
        check.done()
        return action_from_proto(msg, path)

    def action_text(self, text: str, rules: CompiledRules, path: str = "action_text") -> Action:
        """The domain action of an action in notation: a parse error names `path` and the position in the text."""
        action = parsed_action(text, path)
        groups, named = action_counts(action)
        if groups <= rules.deck_size and named <= rules.deck_size:
            return action
        check = self.sizes()
        check_action(check, action_to_proto(action), path, rules.deck_size, f"rule set '{rules.id}'")
        check.done()
        return action

    def requested_action(
        self, message: game_pb2.Action, given: bool, text: str, rules: CompiledRules, path: str = "action"
    ) -> Action:
        """A request's action, structured (`message`, set when `given`) or as notation `text` (`path`_text)."""
        if given and text:
            raise InvalidInputError([FieldProblem(f"{path}_text", f"set {path} or {path}_text, not both")])
        return self.action_text(text, rules, f"{path}_text") if text else self.action(message, rules, path)

    def view(
        self, msg: game_pb2.PlayerView, rules: CompiledRules, path: str = "view", pieces: Pieces | None = None
    ) -> PlayerView:
        """The domain view of a request's player view, its sizes checked against the rule set's deck first (read from
        its bytes and counted on the domain view when those are usual and within the limits, as state() does)."""
        try:
            view: PlayerView | None = decode_view(msg.SerializeToString(), pieces)
        except (ValueError, IndexError):
            view = None
        if view is not None and view_within(view, rules.deck_size, self.limits.max_seats):
            return view
        check = self.sizes()
        check_view_sizes(check, msg, path, rules.deck_size, f"rule set '{rules.id}'")
        check.done()
        return view if view is not None else view_from_message(msg, path)

    @staticmethod
    def state_or_view(
        request: oracle_pb2.CheckActionRequest | oracle_pb2.ListLegalActionsRequest | oracle_pb2.AdjudicateRequest,
    ) -> bool:
        """Whether a request gives a player's view (refusing a request that gives a state too)."""
        given = request.HasField("view")
        if given and request.HasField("state"):
            raise InvalidInputError([FieldProblem("view", "set state or view, not both")])
        return given

    def referee_start(self, start: oracle_pb2.RefereeStart) -> LiveGame:
        """A RefereeGame stream's game from its start message (a first dealer that is no seat: INVALID_ARGUMENT)."""
        rules = self.rule_set(start.rule_set, "start.rule_set").rules
        if not 0 <= start.first_dealer < rules.seats:
            raise InvalidInputError(
                [FieldProblem("start.first_dealer", f"{start.first_dealer} is not a seat (0..{rules.seats - 1})")]
            )
        return LiveGame.start(rules, start.first_dealer)

    def referee_deck(self, deal_message: oracle_pb2.RefereeDeal, rules: CompiledRules) -> DeckSource:
        """The deck of a RefereeGame deal message, a deck order no longer than the deck."""
        if deal_message.HasField("deck_order"):
            check = self.sizes()
            check_deck_order(
                check, deal_message.deck_order, "deal.deck_order", rules.deck_size, f"rule set '{rules.id}'"
            )
            check.done()
        return deck_source(deal_message, "deal")

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
        rules = self.rule_set(request.rule_set).rules
        if request.HasField("view"):
            if request.HasField("table"):
                raise InvalidInputError([FieldProblem("view", "set table or view, not both")])
            scores, unknowns = score_view(rules, self.view(request.view, rules))
            response = scores_to_proto(scores)
            response.unknowns.extend(unknowns_to_proto(unknowns))
            return response
        check = self.sizes()
        check_table(check, request.table, "table", rules.deck_size, f"rule set '{rules.id}'")
        check.done()
        return scores_to_proto(score_hand(rules, table_from_proto(request.table)))

    def GetMinimumInitialMeld(
        self, request: oracle_pb2.GetMinimumInitialMeldRequest
    ) -> oracle_pb2.GetMinimumInitialMeldResponse:
        """The minimum for a running total, or for the hand's number where the rule set goes by it."""
        rules = self.rule_set(request.rule_set).rules
        minimum, row, entry = rules.minimum_for(request.running_total, request.hand_number)
        response = oracle_pb2.GetMinimumInitialMeldResponse(minimum=minimum)
        if row is not None:
            response.from_score = row
        if entry is not None:
            response.by_hand = entry
        return response

    def ValidateState(self, request: oracle_pb2.ValidateStateRequest) -> oracle_pb2.ValidateStateResponse:
        """Every inconsistency of a state (grouped, at most limits.max_problems listed)."""
        rules = self.rule_set(request.rule_set).rules
        problems = validate_state(rules, self.state(request.state, rules))
        response = oracle_pb2.ValidateStateResponse(valid=not problems)
        for problem in listed_problems(problems, self.limits.max_problems):
            response.problems.add(field=problem.field, description=problem.description)
        return response

    def CheckAction(self, request: oracle_pb2.CheckActionRequest) -> oracle_pb2.CheckActionResponse:
        """The verdict on one action (from a state or from a player's view)."""
        rules = self.rule_set(request.rule_set).rules
        pieces: Pieces = {}  # the seats and sides read, for the answer's next state (or view) to copy
        if self.state_or_view(request):
            view = self.view(request.view, rules, pieces=pieces)
            action = self.requested_action(request.action, request.HasField("action"), request.action_text, rules)
            answer = judge_view(rules, view, action)
            answer = answer.alone() if request.verdict_only else answer
            return view_verdict_to_proto(answer, self.limits.max_violations, notation(action), pieces)
        state = self.state(request.state, rules, pieces=pieces)
        action = self.requested_action(request.action, request.HasField("action"), request.action_text, rules)
        verdict = referee.check_action(rules, state, action)
        verdict = verdict.alone() if request.verdict_only else verdict
        return verdict_to_proto(verdict, self.limits.max_violations, notation(action), pieces)

    def DealHand(self, request: oracle_pb2.DealHandRequest) -> oracle_pb2.DealHandResponse:
        """A new hand from a seed or a deck order."""
        rules = self.rule_set(request.rule_set).rules
        check = self.sizes()
        check.count("running_totals", request.running_totals, rules.sides, "totals", f" (the sides of {rules.id})")
        if request.HasField("deck_order"):
            check_deck_order(check, request.deck_order, "deck_order", rules.deck_size, f"rule set '{rules.id}'")
        check.done()
        order = deck_order(rules, deck_source(request, "deal_hand"))
        totals = list(request.running_totals) or None
        state = deal(rules, order, dealer=request.dealer, running_totals=totals)
        return oracle_pb2.DealHandResponse(state=state_to_proto(state))

    def ListLegalActions(
        self, request: oracle_pb2.ListLegalActionsRequest, checkpoint: Checkpoint | None = None
    ) -> oracle_pb2.ListLegalActionsResponse:
        """The legal actions of the player to move, canonical and grouped: at most max_actions of them (0: the
        default limit), and no more than fit in a message; `truncated` says the list was cut."""
        ceiling = self.limits.max_legal_actions
        if request.max_actions > ceiling:
            raise InvalidInputError(
                [FieldProblem("max_actions", f"{request.max_actions} is more than the limit of {ceiling}")]
            )
        limit = request.max_actions or min(self.limits.default_legal_actions, ceiling)
        loaded = self.rule_set(request.rule_set)
        if self.state_or_view(request):
            view = self.view(request.view, loaded.rules)
            state = complete(loaded.rules, view)
            if not acting_seat_seen(view):
                why = f"the actions are seat {view.seat_to_move}'s and this view (seat {view.seat}) hides that hand"
                return oracle_pb2.ListLegalActionsResponse(unknowns=[oracle_pb2.Unknown(field="actions", reason=why)])
        else:
            state = self.state(request.state, loaded.rules)
        found = legal_actions_upto(loaded.rules, state, limit, checkpoint)
        response = oracle_pb2.ListLegalActionsResponse(truncated=found.truncated)
        room = self.limits.max_message_bytes - _ANSWER_MARGIN
        listed = []
        for action in found.actions:
            message = action_to_proto(action)
            room -= message.ByteSize() + _ENTRY_OVERHEAD
            if room < 0:
                response.truncated = True
                break
            listed.append(action)
            response.actions.append(message)
        response.counts.CopyFrom(record_pb2.ActionCounts(**count_actions(listed)))
        return response

    def Adjudicate(self, request: oracle_pb2.AdjudicateRequest) -> oracle_pb2.AdjudicateResponse:
        """One action under several rule sets."""
        check = self.sizes()
        check.count("rule_sets", request.rule_sets, self.limits.max_rule_sets, "rule sets")
        check.done()
        rule_sets = [self.rule_set(ref, f"rule_sets[{i}]") for i, ref in enumerate(request.rule_sets)] or list(
            self.book
        )
        deck = max(loaded.rules.deck_size for loaded in rule_sets)
        largest = "the largest rule set asked about"
        from_view = self.state_or_view(request)
        if request.action_text and request.HasField("action"):
            raise InvalidInputError([FieldProblem("action_text", "set action or action_text, not both")])
        action = parsed_action(request.action_text, "action_text") if request.action_text else None
        if from_view:
            check_view_sizes(check, request.view, "view", deck, largest)
        else:
            check_state(check, request.state, "state", deck, largest)
        if action is None:
            check_action(check, request.action, "action", deck, largest)
        else:
            check_action(check, action_to_proto(action), "action_text", deck, largest)
        check.done()
        given: GameState | PlayerView = view_from_proto(request.view) if from_view else state_from_proto(request.state)
        result = adjudicate(rule_sets, given, action or action_from_proto(request.action))
        return adjudication_to_proto(result, format_action(action or action_from_proto(request.action)), self.limits)

    def ReplayGame(
        self, request: oracle_pb2.ReplayGameRequest, checkpoint: Checkpoint | None = None
    ) -> oracle_pb2.ReplayGameResponse:
        """Replay a whole record (its length within the record limits); `checkpoint` is called as it goes."""
        check = self.sizes()
        check_record(check, request.record)
        check.done()
        # A malformed record is INVALID_ARGUMENT before its rule set is looked up, unless an explicit deal needs it.
        deals = any(hand.WhichOneof("deck") == "start" for hand in request.record.hands)
        record = None if deals else record_from_proto(request.record)
        if request.HasField("rule_set"):
            loaded = self.rule_set(request.rule_set)
        else:
            loaded = self.book.get(request.record.rule_set_id)
        if record is None:
            record = record_from_proto(request.record, rules=loaded.rules)
        report = replay(
            loaded.rules,
            record,
            judge_all=request.judge_all,
            keep_actions=not request.summary_only,
            checkpoint=checkpoint,
        )
        return oracle_pb2.ReplayGameResponse(report=report_to_proto(report, self.limits.max_violations))
