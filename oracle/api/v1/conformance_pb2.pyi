from oracle.api.v1 import notation_pb2 as _notation_pb2
from oracle.api.v1 import record_pb2 as _record_pb2
from oracle.api.v1 import ruleset_pb2 as _ruleset_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ConformanceSuite(_message.Message):
    __slots__ = ("description", "cases")
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CASES_FIELD_NUMBER: _ClassVar[int]
    description: str
    cases: _containers.RepeatedCompositeFieldContainer[ConformanceCase]
    def __init__(self, description: _Optional[str] = ..., cases: _Optional[_Iterable[_Union[ConformanceCase, _Mapping]]] = ...) -> None: ...

class ConformanceCase(_message.Message):
    __slots__ = ("id", "description", "cite", "rule_set_id", "fields", "inline_rule_set", "check", "score", "minimum", "validate", "deal", "replay", "expect")
    ID_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CITE_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_ID_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    INLINE_RULE_SET_FIELD_NUMBER: _ClassVar[int]
    CHECK_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_FIELD_NUMBER: _ClassVar[int]
    VALIDATE_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    REPLAY_FIELD_NUMBER: _ClassVar[int]
    EXPECT_FIELD_NUMBER: _ClassVar[int]
    id: str
    description: str
    cite: _containers.RepeatedCompositeFieldContainer[_ruleset_pb2.Citation]
    rule_set_id: str
    fields: _containers.RepeatedScalarFieldContainer[str]
    inline_rule_set: _ruleset_pb2.RuleSet
    check: CheckInput
    score: ScoreInput
    minimum: MinimumInput
    validate: ValidateInput
    deal: DealInput
    replay: ReplayInput
    expect: Expectation
    def __init__(self, id: _Optional[str] = ..., description: _Optional[str] = ..., cite: _Optional[_Iterable[_Union[_ruleset_pb2.Citation, _Mapping]]] = ..., rule_set_id: _Optional[str] = ..., fields: _Optional[_Iterable[str]] = ..., inline_rule_set: _Optional[_Union[_ruleset_pb2.RuleSet, _Mapping]] = ..., check: _Optional[_Union[CheckInput, _Mapping]] = ..., score: _Optional[_Union[ScoreInput, _Mapping]] = ..., minimum: _Optional[_Union[MinimumInput, _Mapping]] = ..., validate: _Optional[_Union[ValidateInput, _Mapping]] = ..., deal: _Optional[_Union[DealInput, _Mapping]] = ..., replay: _Optional[_Union[ReplayInput, _Mapping]] = ..., expect: _Optional[_Union[Expectation, _Mapping]] = ...) -> None: ...

class CheckInput(_message.Message):
    __slots__ = ("state", "action")
    STATE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    state: _notation_pb2.GameStateNotation
    action: str
    def __init__(self, state: _Optional[_Union[_notation_pb2.GameStateNotation, _Mapping]] = ..., action: _Optional[str] = ...) -> None: ...

class ScoreInput(_message.Message):
    __slots__ = ("table",)
    TABLE_FIELD_NUMBER: _ClassVar[int]
    table: _notation_pb2.HandTableNotation
    def __init__(self, table: _Optional[_Union[_notation_pb2.HandTableNotation, _Mapping]] = ...) -> None: ...

class MinimumInput(_message.Message):
    __slots__ = ("running_total", "hand_number")
    RUNNING_TOTAL_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    running_total: int
    hand_number: int
    def __init__(self, running_total: _Optional[int] = ..., hand_number: _Optional[int] = ...) -> None: ...

class ValidateInput(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: _notation_pb2.GameStateNotation
    def __init__(self, state: _Optional[_Union[_notation_pb2.GameStateNotation, _Mapping]] = ...) -> None: ...

class Expectation(_message.Message):
    __slots__ = ("legal", "illegal", "score", "minimum", "valid", "invalid_state", "error", "dealt", "replayed")
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    ILLEGAL_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_FIELD_NUMBER: _ClassVar[int]
    VALID_FIELD_NUMBER: _ClassVar[int]
    INVALID_STATE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    DEALT_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    legal: LegalExpectation
    illegal: IllegalExpectation
    score: ScoreExpectation
    minimum: int
    valid: ValidExpectation
    invalid_state: InvalidStateExpectation
    error: ErrorExpectation
    dealt: DealExpectation
    replayed: ReplayExpectation
    def __init__(self, legal: _Optional[_Union[LegalExpectation, _Mapping]] = ..., illegal: _Optional[_Union[IllegalExpectation, _Mapping]] = ..., score: _Optional[_Union[ScoreExpectation, _Mapping]] = ..., minimum: _Optional[int] = ..., valid: _Optional[_Union[ValidExpectation, _Mapping]] = ..., invalid_state: _Optional[_Union[InvalidStateExpectation, _Mapping]] = ..., error: _Optional[_Union[ErrorExpectation, _Mapping]] = ..., dealt: _Optional[_Union[DealExpectation, _Mapping]] = ..., replayed: _Optional[_Union[ReplayExpectation, _Mapping]] = ...) -> None: ...

class DealInput(_message.Message):
    __slots__ = ("deck_order", "seed", "dealer")
    DECK_ORDER_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    deck_order: str
    seed: int
    dealer: int
    def __init__(self, deck_order: _Optional[str] = ..., seed: _Optional[int] = ..., dealer: _Optional[int] = ...) -> None: ...

class DealExpectation(_message.Message):
    __slots__ = ("hand_sizes", "seat_to_move", "discard_pile", "red_threes", "stock_size", "pile_size")
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    SEAT_TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_PILE_FIELD_NUMBER: _ClassVar[int]
    RED_THREES_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    PILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    seat_to_move: int
    discard_pile: str
    red_threes: _containers.RepeatedScalarFieldContainer[str]
    stock_size: int
    pile_size: int
    def __init__(self, hand_sizes: _Optional[_Iterable[int]] = ..., seat_to_move: _Optional[int] = ..., discard_pile: _Optional[str] = ..., red_threes: _Optional[_Iterable[str]] = ..., stock_size: _Optional[int] = ..., pile_size: _Optional[int] = ...) -> None: ...

class ReplayInput(_message.Message):
    __slots__ = ("record",)
    RECORD_FIELD_NUMBER: _ClassVar[int]
    record: _record_pb2.GameRecord
    def __init__(self, record: _Optional[_Union[_record_pb2.GameRecord, _Mapping]] = ...) -> None: ...

class ReplayExpectation(_message.Message):
    __slots__ = ("ok", "game_over", "winner", "totals")
    OK_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    ok: bool
    game_over: bool
    winner: int
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, ok: _Optional[bool] = ..., game_over: _Optional[bool] = ..., winner: _Optional[int] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class LegalExpectation(_message.Message):
    __slots__ = ("hand_end", "hand_scores", "hand_size_after", "side_of_seat_after", "sides_after", "events", "stock_size_after")
    HAND_END_FIELD_NUMBER: _ClassVar[int]
    HAND_SCORES_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_AFTER_FIELD_NUMBER: _ClassVar[int]
    SIDE_OF_SEAT_AFTER_FIELD_NUMBER: _ClassVar[int]
    SIDES_AFTER_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_AFTER_FIELD_NUMBER: _ClassVar[int]
    hand_end: str
    hand_scores: _containers.RepeatedScalarFieldContainer[int]
    hand_size_after: int
    side_of_seat_after: SideOfSeatExpectation
    sides_after: _containers.RepeatedCompositeFieldContainer[_notation_pb2.SideNotation]
    events: _containers.RepeatedScalarFieldContainer[str]
    stock_size_after: int
    def __init__(self, hand_end: _Optional[str] = ..., hand_scores: _Optional[_Iterable[int]] = ..., hand_size_after: _Optional[int] = ..., side_of_seat_after: _Optional[_Union[SideOfSeatExpectation, _Mapping]] = ..., sides_after: _Optional[_Iterable[_Union[_notation_pb2.SideNotation, _Mapping]]] = ..., events: _Optional[_Iterable[str]] = ..., stock_size_after: _Optional[int] = ...) -> None: ...

class SideOfSeatExpectation(_message.Message):
    __slots__ = ("entries",)
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, entries: _Optional[_Iterable[int]] = ...) -> None: ...

class IllegalExpectation(_message.Message):
    __slots__ = ("codes",)
    CODES_FIELD_NUMBER: _ClassVar[int]
    codes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, codes: _Optional[_Iterable[str]] = ...) -> None: ...

class ScoreExpectation(_message.Message):
    __slots__ = ("totals", "items")
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    items: _containers.RepeatedCompositeFieldContainer[ItemExpectation]
    def __init__(self, totals: _Optional[_Iterable[int]] = ..., items: _Optional[_Iterable[_Union[ItemExpectation, _Mapping]]] = ...) -> None: ...

class ItemExpectation(_message.Message):
    __slots__ = ("side", "item", "points")
    SIDE_FIELD_NUMBER: _ClassVar[int]
    ITEM_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    side: int
    item: str
    points: int
    def __init__(self, side: _Optional[int] = ..., item: _Optional[str] = ..., points: _Optional[int] = ...) -> None: ...

class ValidExpectation(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class InvalidStateExpectation(_message.Message):
    __slots__ = ("fields",)
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    fields: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, fields: _Optional[_Iterable[str]] = ...) -> None: ...

class ErrorExpectation(_message.Message):
    __slots__ = ("code", "fields")
    CODE_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    code: str
    fields: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, code: _Optional[str] = ..., fields: _Optional[_Iterable[str]] = ...) -> None: ...
