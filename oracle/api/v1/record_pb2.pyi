from oracle.api.v1 import cards_pb2 as _cards_pb2
from oracle.api.v1 import game_pb2 as _game_pb2
from oracle.api.v1 import scoring_pb2 as _scoring_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ActionCounts(_message.Message):
    __slots__ = ("draw", "take_pile", "meld", "discard", "ask_partner", "answer_partner", "finish", "total")
    DRAW_FIELD_NUMBER: _ClassVar[int]
    TAKE_PILE_FIELD_NUMBER: _ClassVar[int]
    MELD_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    ASK_PARTNER_FIELD_NUMBER: _ClassVar[int]
    ANSWER_PARTNER_FIELD_NUMBER: _ClassVar[int]
    FINISH_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    draw: int
    take_pile: int
    meld: int
    discard: int
    ask_partner: int
    answer_partner: int
    finish: int
    total: int
    def __init__(self, draw: _Optional[int] = ..., take_pile: _Optional[int] = ..., meld: _Optional[int] = ..., discard: _Optional[int] = ..., ask_partner: _Optional[int] = ..., answer_partner: _Optional[int] = ..., finish: _Optional[int] = ..., total: _Optional[int] = ...) -> None: ...

class HandRecord(_message.Message):
    __slots__ = ("seed", "deck_order", "actions", "claimed_scores", "claimed_totals")
    SEED_FIELD_NUMBER: _ClassVar[int]
    DECK_ORDER_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_SCORES_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_TOTALS_FIELD_NUMBER: _ClassVar[int]
    seed: int
    deck_order: _cards_pb2.CardList
    actions: _containers.RepeatedCompositeFieldContainer[_game_pb2.Action]
    claimed_scores: _containers.RepeatedScalarFieldContainer[int]
    claimed_totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seed: _Optional[int] = ..., deck_order: _Optional[_Union[_cards_pb2.CardList, _Mapping]] = ..., actions: _Optional[_Iterable[_Union[_game_pb2.Action, _Mapping]]] = ..., claimed_scores: _Optional[_Iterable[int]] = ..., claimed_totals: _Optional[_Iterable[int]] = ...) -> None: ...

class GameRecord(_message.Message):
    __slots__ = ("rule_set_id", "first_dealer", "hands", "claimed_winner")
    RULE_SET_ID_FIELD_NUMBER: _ClassVar[int]
    FIRST_DEALER_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_WINNER_FIELD_NUMBER: _ClassVar[int]
    rule_set_id: str
    first_dealer: int
    hands: _containers.RepeatedCompositeFieldContainer[HandRecord]
    claimed_winner: int
    def __init__(self, rule_set_id: _Optional[str] = ..., first_dealer: _Optional[int] = ..., hands: _Optional[_Iterable[_Union[HandRecord, _Mapping]]] = ..., claimed_winner: _Optional[int] = ...) -> None: ...

class ActionReport(_message.Message):
    __slots__ = ("hand", "index", "seat", "notation", "legal", "violations", "events")
    HAND_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    hand: int
    index: int
    seat: int
    notation: str
    legal: bool
    violations: _containers.RepeatedCompositeFieldContainer[_game_pb2.Violation]
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    def __init__(self, hand: _Optional[int] = ..., index: _Optional[int] = ..., seat: _Optional[int] = ..., notation: _Optional[str] = ..., legal: _Optional[bool] = ..., violations: _Optional[_Iterable[_Union[_game_pb2.Violation, _Mapping]]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ...) -> None: ...

class ScoreMismatch(_message.Message):
    __slots__ = ("hand", "side", "what", "claimed", "computed")
    HAND_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    WHAT_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_FIELD_NUMBER: _ClassVar[int]
    COMPUTED_FIELD_NUMBER: _ClassVar[int]
    hand: int
    side: int
    what: str
    claimed: int
    computed: int
    def __init__(self, hand: _Optional[int] = ..., side: _Optional[int] = ..., what: _Optional[str] = ..., claimed: _Optional[int] = ..., computed: _Optional[int] = ...) -> None: ...

class HandReport(_message.Message):
    __slots__ = ("hand", "end", "scores", "totals")
    HAND_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    hand: int
    end: _game_pb2.HandEnd
    scores: _containers.RepeatedCompositeFieldContainer[_scoring_pb2.SideScore]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, hand: _Optional[int] = ..., end: _Optional[_Union[_game_pb2.HandEnd, str]] = ..., scores: _Optional[_Iterable[_Union[_scoring_pb2.SideScore, _Mapping]]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class ReplayReport(_message.Message):
    __slots__ = ("ok", "actions_judged", "first_illegal", "hands", "mismatches", "game_over", "winner", "problems", "actions")
    OK_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_JUDGED_FIELD_NUMBER: _ClassVar[int]
    FIRST_ILLEGAL_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    MISMATCHES_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    PROBLEMS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    ok: bool
    actions_judged: int
    first_illegal: ActionReport
    hands: _containers.RepeatedCompositeFieldContainer[HandReport]
    mismatches: _containers.RepeatedCompositeFieldContainer[ScoreMismatch]
    game_over: bool
    winner: int
    problems: _containers.RepeatedScalarFieldContainer[str]
    actions: _containers.RepeatedCompositeFieldContainer[ActionReport]
    def __init__(self, ok: _Optional[bool] = ..., actions_judged: _Optional[int] = ..., first_illegal: _Optional[_Union[ActionReport, _Mapping]] = ..., hands: _Optional[_Iterable[_Union[HandReport, _Mapping]]] = ..., mismatches: _Optional[_Iterable[_Union[ScoreMismatch, _Mapping]]] = ..., game_over: _Optional[bool] = ..., winner: _Optional[int] = ..., problems: _Optional[_Iterable[str]] = ..., actions: _Optional[_Iterable[_Union[ActionReport, _Mapping]]] = ...) -> None: ...
