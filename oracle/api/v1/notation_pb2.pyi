from oracle.api.v1 import game_pb2 as _game_pb2
from oracle.api.v1 import scoring_pb2 as _scoring_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SideTableNotation(_message.Message):
    __slots__ = ("melds", "red_threes", "hands", "went_out", "name", "unable_after_yes")
    MELDS_FIELD_NUMBER: _ClassVar[int]
    RED_THREES_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    WENT_OUT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    UNABLE_AFTER_YES_FIELD_NUMBER: _ClassVar[int]
    melds: _containers.RepeatedScalarFieldContainer[str]
    red_threes: str
    hands: _containers.RepeatedScalarFieldContainer[str]
    went_out: _scoring_pb2.WentOut
    name: str
    unable_after_yes: int
    def __init__(self, melds: _Optional[_Iterable[str]] = ..., red_threes: _Optional[str] = ..., hands: _Optional[_Iterable[str]] = ..., went_out: _Optional[_Union[_scoring_pb2.WentOut, str]] = ..., name: _Optional[str] = ..., unable_after_yes: _Optional[int] = ...) -> None: ...

class HandTableNotation(_message.Message):
    __slots__ = ("rule_set_id", "sides", "side_of_seat")
    RULE_SET_ID_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    SIDE_OF_SEAT_FIELD_NUMBER: _ClassVar[int]
    rule_set_id: str
    sides: _containers.RepeatedCompositeFieldContainer[SideTableNotation]
    side_of_seat: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, rule_set_id: _Optional[str] = ..., sides: _Optional[_Iterable[_Union[SideTableNotation, _Mapping]]] = ..., side_of_seat: _Optional[_Iterable[int]] = ...) -> None: ...

class SeatNotation(_message.Message):
    __slots__ = ("hand", "melded_before", "foot")
    HAND_FIELD_NUMBER: _ClassVar[int]
    MELDED_BEFORE_FIELD_NUMBER: _ClassVar[int]
    FOOT_FIELD_NUMBER: _ClassVar[int]
    hand: str
    melded_before: bool
    foot: str
    def __init__(self, hand: _Optional[str] = ..., melded_before: _Optional[bool] = ..., foot: _Optional[str] = ...) -> None: ...

class SideNotation(_message.Message):
    __slots__ = ("melds", "red_threes", "running_total", "unable_after_yes", "asks")
    MELDS_FIELD_NUMBER: _ClassVar[int]
    RED_THREES_FIELD_NUMBER: _ClassVar[int]
    RUNNING_TOTAL_FIELD_NUMBER: _ClassVar[int]
    UNABLE_AFTER_YES_FIELD_NUMBER: _ClassVar[int]
    ASKS_FIELD_NUMBER: _ClassVar[int]
    melds: _containers.RepeatedScalarFieldContainer[str]
    red_threes: str
    running_total: int
    unable_after_yes: int
    asks: int
    def __init__(self, melds: _Optional[_Iterable[str]] = ..., red_threes: _Optional[str] = ..., running_total: _Optional[int] = ..., unable_after_yes: _Optional[int] = ..., asks: _Optional[int] = ...) -> None: ...

class GameStateNotation(_message.Message):
    __slots__ = ("rule_set_id", "seats", "sides", "stock", "discard_pile", "pile_upcards", "seat_to_move", "phase", "turn", "hand_end", "went_out_seat", "went_out_concealed", "fill_stock", "side_of_seat", "hand_number")
    RULE_SET_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    STOCK_FIELD_NUMBER: _ClassVar[int]
    DISCARD_PILE_FIELD_NUMBER: _ClassVar[int]
    PILE_UPCARDS_FIELD_NUMBER: _ClassVar[int]
    SEAT_TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    HAND_END_FIELD_NUMBER: _ClassVar[int]
    WENT_OUT_SEAT_FIELD_NUMBER: _ClassVar[int]
    WENT_OUT_CONCEALED_FIELD_NUMBER: _ClassVar[int]
    FILL_STOCK_FIELD_NUMBER: _ClassVar[int]
    SIDE_OF_SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    rule_set_id: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatNotation]
    sides: _containers.RepeatedCompositeFieldContainer[SideNotation]
    stock: str
    discard_pile: str
    pile_upcards: int
    seat_to_move: int
    phase: _game_pb2.Phase
    turn: _game_pb2.TurnState
    hand_end: _game_pb2.HandEnd
    went_out_seat: int
    went_out_concealed: bool
    fill_stock: bool
    side_of_seat: _containers.RepeatedScalarFieldContainer[int]
    hand_number: int
    def __init__(self, rule_set_id: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatNotation, _Mapping]]] = ..., sides: _Optional[_Iterable[_Union[SideNotation, _Mapping]]] = ..., stock: _Optional[str] = ..., discard_pile: _Optional[str] = ..., pile_upcards: _Optional[int] = ..., seat_to_move: _Optional[int] = ..., phase: _Optional[_Union[_game_pb2.Phase, str]] = ..., turn: _Optional[_Union[_game_pb2.TurnState, _Mapping]] = ..., hand_end: _Optional[_Union[_game_pb2.HandEnd, str]] = ..., went_out_seat: _Optional[int] = ..., went_out_concealed: _Optional[bool] = ..., fill_stock: _Optional[bool] = ..., side_of_seat: _Optional[_Iterable[int]] = ..., hand_number: _Optional[int] = ...) -> None: ...
