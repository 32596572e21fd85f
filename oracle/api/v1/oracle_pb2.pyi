from oracle.api.v1 import cards_pb2 as _cards_pb2
from oracle.api.v1 import game_pb2 as _game_pb2
from oracle.api.v1 import record_pb2 as _record_pb2
from oracle.api.v1 import ruleset_pb2 as _ruleset_pb2
from oracle.api.v1 import scoring_pb2 as _scoring_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RuleSetRef(_message.Message):
    __slots__ = ("id", "inline")
    ID_FIELD_NUMBER: _ClassVar[int]
    INLINE_FIELD_NUMBER: _ClassVar[int]
    id: str
    inline: _ruleset_pb2.RuleSet
    def __init__(self, id: _Optional[str] = ..., inline: _Optional[_Union[_ruleset_pb2.RuleSet, _Mapping]] = ...) -> None: ...

class RuleSetSummary(_message.Message):
    __slots__ = ("id", "title", "extends", "seats", "side_size")
    ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    EXTENDS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SIDE_SIZE_FIELD_NUMBER: _ClassVar[int]
    id: str
    title: str
    extends: str
    seats: int
    side_size: int
    def __init__(self, id: _Optional[str] = ..., title: _Optional[str] = ..., extends: _Optional[str] = ..., seats: _Optional[int] = ..., side_size: _Optional[int] = ...) -> None: ...

class ListRuleSetsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListRuleSetsResponse(_message.Message):
    __slots__ = ("rule_sets",)
    RULE_SETS_FIELD_NUMBER: _ClassVar[int]
    rule_sets: _containers.RepeatedCompositeFieldContainer[RuleSetSummary]
    def __init__(self, rule_sets: _Optional[_Iterable[_Union[RuleSetSummary, _Mapping]]] = ...) -> None: ...

class GetRuleSetRequest(_message.Message):
    __slots__ = ("rule_set",)
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    rule_set: RuleSetRef
    def __init__(self, rule_set: _Optional[_Union[RuleSetRef, _Mapping]] = ...) -> None: ...

class GetRuleSetResponse(_message.Message):
    __slots__ = ("rule_set", "lineage")
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    LINEAGE_FIELD_NUMBER: _ClassVar[int]
    rule_set: _ruleset_pb2.RuleSet
    lineage: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, rule_set: _Optional[_Union[_ruleset_pb2.RuleSet, _Mapping]] = ..., lineage: _Optional[_Iterable[str]] = ...) -> None: ...

class ScoreHandRequest(_message.Message):
    __slots__ = ("rule_set", "table", "view")
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    rule_set: RuleSetRef
    table: _scoring_pb2.HandTable
    view: _game_pb2.PlayerView
    def __init__(self, rule_set: _Optional[_Union[RuleSetRef, _Mapping]] = ..., table: _Optional[_Union[_scoring_pb2.HandTable, _Mapping]] = ..., view: _Optional[_Union[_game_pb2.PlayerView, _Mapping]] = ...) -> None: ...

class ScoreHandResponse(_message.Message):
    __slots__ = ("sides", "unknowns")
    SIDES_FIELD_NUMBER: _ClassVar[int]
    UNKNOWNS_FIELD_NUMBER: _ClassVar[int]
    sides: _containers.RepeatedCompositeFieldContainer[_scoring_pb2.SideScore]
    unknowns: _containers.RepeatedCompositeFieldContainer[Unknown]
    def __init__(self, sides: _Optional[_Iterable[_Union[_scoring_pb2.SideScore, _Mapping]]] = ..., unknowns: _Optional[_Iterable[_Union[Unknown, _Mapping]]] = ...) -> None: ...

class GetMinimumInitialMeldRequest(_message.Message):
    __slots__ = ("rule_set", "running_total", "hand_number")
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    RUNNING_TOTAL_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    rule_set: RuleSetRef
    running_total: int
    hand_number: int
    def __init__(self, rule_set: _Optional[_Union[RuleSetRef, _Mapping]] = ..., running_total: _Optional[int] = ..., hand_number: _Optional[int] = ...) -> None: ...

class GetMinimumInitialMeldResponse(_message.Message):
    __slots__ = ("minimum", "from_score", "by_hand")
    MINIMUM_FIELD_NUMBER: _ClassVar[int]
    FROM_SCORE_FIELD_NUMBER: _ClassVar[int]
    BY_HAND_FIELD_NUMBER: _ClassVar[int]
    minimum: int
    from_score: int
    by_hand: int
    def __init__(self, minimum: _Optional[int] = ..., from_score: _Optional[int] = ..., by_hand: _Optional[int] = ...) -> None: ...

class StateProblem(_message.Message):
    __slots__ = ("field", "description")
    FIELD_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    field: str
    description: str
    def __init__(self, field: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...

class ValidateStateRequest(_message.Message):
    __slots__ = ("rule_set", "state")
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    rule_set: RuleSetRef
    state: _game_pb2.GameState
    def __init__(self, rule_set: _Optional[_Union[RuleSetRef, _Mapping]] = ..., state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ...) -> None: ...

class ValidateStateResponse(_message.Message):
    __slots__ = ("valid", "problems")
    VALID_FIELD_NUMBER: _ClassVar[int]
    PROBLEMS_FIELD_NUMBER: _ClassVar[int]
    valid: bool
    problems: _containers.RepeatedCompositeFieldContainer[StateProblem]
    def __init__(self, valid: _Optional[bool] = ..., problems: _Optional[_Iterable[_Union[StateProblem, _Mapping]]] = ...) -> None: ...

class CheckActionRequest(_message.Message):
    __slots__ = ("rule_set", "state", "action", "action_text", "view", "verdict_only")
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ACTION_TEXT_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    VERDICT_ONLY_FIELD_NUMBER: _ClassVar[int]
    rule_set: RuleSetRef
    state: _game_pb2.GameState
    action: _game_pb2.Action
    action_text: str
    view: _game_pb2.PlayerView
    verdict_only: bool
    def __init__(self, rule_set: _Optional[_Union[RuleSetRef, _Mapping]] = ..., state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., action: _Optional[_Union[_game_pb2.Action, _Mapping]] = ..., action_text: _Optional[str] = ..., view: _Optional[_Union[_game_pb2.PlayerView, _Mapping]] = ..., verdict_only: _Optional[bool] = ...) -> None: ...

class Unknown(_message.Message):
    __slots__ = ("field", "reason")
    FIELD_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    field: str
    reason: str
    def __init__(self, field: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class CheckActionResponse(_message.Message):
    __slots__ = ("legal", "violations", "events", "next_state", "notation", "unknowns", "next_view")
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_STATE_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    UNKNOWNS_FIELD_NUMBER: _ClassVar[int]
    NEXT_VIEW_FIELD_NUMBER: _ClassVar[int]
    legal: bool
    violations: _containers.RepeatedCompositeFieldContainer[_game_pb2.Violation]
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    next_state: _game_pb2.GameState
    notation: str
    unknowns: _containers.RepeatedCompositeFieldContainer[Unknown]
    next_view: _game_pb2.PlayerView
    def __init__(self, legal: _Optional[bool] = ..., violations: _Optional[_Iterable[_Union[_game_pb2.Violation, _Mapping]]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ..., next_state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., notation: _Optional[str] = ..., unknowns: _Optional[_Iterable[_Union[Unknown, _Mapping]]] = ..., next_view: _Optional[_Union[_game_pb2.PlayerView, _Mapping]] = ...) -> None: ...

class DealHandRequest(_message.Message):
    __slots__ = ("rule_set", "seed", "deck_order", "dealer", "running_totals")
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    DECK_ORDER_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    RUNNING_TOTALS_FIELD_NUMBER: _ClassVar[int]
    rule_set: RuleSetRef
    seed: int
    deck_order: _cards_pb2.CardList
    dealer: int
    running_totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, rule_set: _Optional[_Union[RuleSetRef, _Mapping]] = ..., seed: _Optional[int] = ..., deck_order: _Optional[_Union[_cards_pb2.CardList, _Mapping]] = ..., dealer: _Optional[int] = ..., running_totals: _Optional[_Iterable[int]] = ...) -> None: ...

class DealHandResponse(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.GameState
    def __init__(self, state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ...) -> None: ...

class ListLegalActionsRequest(_message.Message):
    __slots__ = ("rule_set", "state", "max_actions", "view")
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    MAX_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    rule_set: RuleSetRef
    state: _game_pb2.GameState
    max_actions: int
    view: _game_pb2.PlayerView
    def __init__(self, rule_set: _Optional[_Union[RuleSetRef, _Mapping]] = ..., state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., max_actions: _Optional[int] = ..., view: _Optional[_Union[_game_pb2.PlayerView, _Mapping]] = ...) -> None: ...

class ListLegalActionsResponse(_message.Message):
    __slots__ = ("actions", "counts", "truncated", "unknowns")
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    UNKNOWNS_FIELD_NUMBER: _ClassVar[int]
    actions: _containers.RepeatedCompositeFieldContainer[_game_pb2.Action]
    counts: _record_pb2.ActionCounts
    truncated: bool
    unknowns: _containers.RepeatedCompositeFieldContainer[Unknown]
    def __init__(self, actions: _Optional[_Iterable[_Union[_game_pb2.Action, _Mapping]]] = ..., counts: _Optional[_Union[_record_pb2.ActionCounts, _Mapping]] = ..., truncated: _Optional[bool] = ..., unknowns: _Optional[_Iterable[_Union[Unknown, _Mapping]]] = ...) -> None: ...

class ReplayGameRequest(_message.Message):
    __slots__ = ("record", "summary_only", "rule_set", "judge_all")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_ONLY_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    JUDGE_ALL_FIELD_NUMBER: _ClassVar[int]
    record: _record_pb2.GameRecord
    summary_only: bool
    rule_set: RuleSetRef
    judge_all: bool
    def __init__(self, record: _Optional[_Union[_record_pb2.GameRecord, _Mapping]] = ..., summary_only: _Optional[bool] = ..., rule_set: _Optional[_Union[RuleSetRef, _Mapping]] = ..., judge_all: _Optional[bool] = ...) -> None: ...

class ReplayGameResponse(_message.Message):
    __slots__ = ("report",)
    REPORT_FIELD_NUMBER: _ClassVar[int]
    report: _record_pb2.ReplayReport
    def __init__(self, report: _Optional[_Union[_record_pb2.ReplayReport, _Mapping]] = ...) -> None: ...

class RefereeGameRequest(_message.Message):
    __slots__ = ("start", "deal", "action", "action_text")
    START_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ACTION_TEXT_FIELD_NUMBER: _ClassVar[int]
    start: RefereeStart
    deal: RefereeDeal
    action: _game_pb2.Action
    action_text: str
    def __init__(self, start: _Optional[_Union[RefereeStart, _Mapping]] = ..., deal: _Optional[_Union[RefereeDeal, _Mapping]] = ..., action: _Optional[_Union[_game_pb2.Action, _Mapping]] = ..., action_text: _Optional[str] = ...) -> None: ...

class RefereeStart(_message.Message):
    __slots__ = ("rule_set", "first_dealer", "full_state")
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    FIRST_DEALER_FIELD_NUMBER: _ClassVar[int]
    FULL_STATE_FIELD_NUMBER: _ClassVar[int]
    rule_set: RuleSetRef
    first_dealer: int
    full_state: bool
    def __init__(self, rule_set: _Optional[_Union[RuleSetRef, _Mapping]] = ..., first_dealer: _Optional[int] = ..., full_state: _Optional[bool] = ...) -> None: ...

class RefereeDeal(_message.Message):
    __slots__ = ("seed", "deck_order")
    SEED_FIELD_NUMBER: _ClassVar[int]
    DECK_ORDER_FIELD_NUMBER: _ClassVar[int]
    seed: int
    deck_order: _cards_pb2.CardList
    def __init__(self, seed: _Optional[int] = ..., deck_order: _Optional[_Union[_cards_pb2.CardList, _Mapping]] = ...) -> None: ...

class RefereeGameResponse(_message.Message):
    __slots__ = ("verdict", "state", "totals", "game_over", "winner", "error")
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    verdict: CheckActionResponse
    state: _game_pb2.GameState
    totals: _containers.RepeatedScalarFieldContainer[int]
    game_over: bool
    winner: int
    error: str
    def __init__(self, verdict: _Optional[_Union[CheckActionResponse, _Mapping]] = ..., state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., totals: _Optional[_Iterable[int]] = ..., game_over: _Optional[bool] = ..., winner: _Optional[int] = ..., error: _Optional[str] = ...) -> None: ...

class AdjudicateRequest(_message.Message):
    __slots__ = ("state", "action", "rule_sets", "action_text", "view")
    STATE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    RULE_SETS_FIELD_NUMBER: _ClassVar[int]
    ACTION_TEXT_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.GameState
    action: _game_pb2.Action
    rule_sets: _containers.RepeatedCompositeFieldContainer[RuleSetRef]
    action_text: str
    view: _game_pb2.PlayerView
    def __init__(self, state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., action: _Optional[_Union[_game_pb2.Action, _Mapping]] = ..., rule_sets: _Optional[_Iterable[_Union[RuleSetRef, _Mapping]]] = ..., action_text: _Optional[str] = ..., view: _Optional[_Union[_game_pb2.PlayerView, _Mapping]] = ...) -> None: ...

class RuleSetVerdict(_message.Message):
    __slots__ = ("rule_set_id", "applicable", "not_applicable", "verdict")
    RULE_SET_ID_FIELD_NUMBER: _ClassVar[int]
    APPLICABLE_FIELD_NUMBER: _ClassVar[int]
    NOT_APPLICABLE_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    rule_set_id: str
    applicable: bool
    not_applicable: str
    verdict: CheckActionResponse
    def __init__(self, rule_set_id: _Optional[str] = ..., applicable: _Optional[bool] = ..., not_applicable: _Optional[str] = ..., verdict: _Optional[_Union[CheckActionResponse, _Mapping]] = ...) -> None: ...

class DecidingField(_message.Message):
    __slots__ = ("field", "values")
    FIELD_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    field: str
    values: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, field: _Optional[str] = ..., values: _Optional[_Iterable[str]] = ...) -> None: ...

class AdjudicateResponse(_message.Message):
    __slots__ = ("verdicts", "deciding_fields")
    VERDICTS_FIELD_NUMBER: _ClassVar[int]
    DECIDING_FIELDS_FIELD_NUMBER: _ClassVar[int]
    verdicts: _containers.RepeatedCompositeFieldContainer[RuleSetVerdict]
    deciding_fields: _containers.RepeatedCompositeFieldContainer[DecidingField]
    def __init__(self, verdicts: _Optional[_Iterable[_Union[RuleSetVerdict, _Mapping]]] = ..., deciding_fields: _Optional[_Iterable[_Union[DecidingField, _Mapping]]] = ...) -> None: ...
