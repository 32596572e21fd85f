from oracle.api.v1 import cards_pb2 as _cards_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class WentOut(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WENT_OUT_UNSPECIFIED: _ClassVar[WentOut]
    WENT_OUT_NORMAL: _ClassVar[WentOut]
    WENT_OUT_CONCEALED: _ClassVar[WentOut]

class ScoreItem(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCORE_ITEM_UNSPECIFIED: _ClassVar[ScoreItem]
    SCORE_ITEM_MELDED_CARDS: _ClassVar[ScoreItem]
    SCORE_ITEM_NATURAL_CANASTA: _ClassVar[ScoreItem]
    SCORE_ITEM_MIXED_CANASTA: _ClassVar[ScoreItem]
    SCORE_ITEM_RED_THREES: _ClassVar[ScoreItem]
    SCORE_ITEM_ALL_RED_THREES: _ClassVar[ScoreItem]
    SCORE_ITEM_RED_THREES_WITHOUT_MELD: _ClassVar[ScoreItem]
    SCORE_ITEM_ALL_RED_THREES_WITHOUT_MELD: _ClassVar[ScoreItem]
    SCORE_ITEM_GOING_OUT: _ClassVar[ScoreItem]
    SCORE_ITEM_GOING_OUT_CONCEALED: _ClassVar[ScoreItem]
    SCORE_ITEM_CARDS_IN_HAND: _ClassVar[ScoreItem]
    SCORE_ITEM_CANNOT_GO_OUT_AFTER_YES: _ClassVar[ScoreItem]
    SCORE_ITEM_WILD_CANASTA: _ClassVar[ScoreItem]
    SCORE_ITEM_UNFINISHED_MELD: _ClassVar[ScoreItem]
    SCORE_ITEM_HELD_RANK: _ClassVar[ScoreItem]
    SCORE_ITEM_THREES_BY_COUNT: _ClassVar[ScoreItem]
    SCORE_ITEM_RUN_CANASTA: _ClassVar[ScoreItem]
WENT_OUT_UNSPECIFIED: WentOut
WENT_OUT_NORMAL: WentOut
WENT_OUT_CONCEALED: WentOut
SCORE_ITEM_UNSPECIFIED: ScoreItem
SCORE_ITEM_MELDED_CARDS: ScoreItem
SCORE_ITEM_NATURAL_CANASTA: ScoreItem
SCORE_ITEM_MIXED_CANASTA: ScoreItem
SCORE_ITEM_RED_THREES: ScoreItem
SCORE_ITEM_ALL_RED_THREES: ScoreItem
SCORE_ITEM_RED_THREES_WITHOUT_MELD: ScoreItem
SCORE_ITEM_ALL_RED_THREES_WITHOUT_MELD: ScoreItem
SCORE_ITEM_GOING_OUT: ScoreItem
SCORE_ITEM_GOING_OUT_CONCEALED: ScoreItem
SCORE_ITEM_CARDS_IN_HAND: ScoreItem
SCORE_ITEM_CANNOT_GO_OUT_AFTER_YES: ScoreItem
SCORE_ITEM_WILD_CANASTA: ScoreItem
SCORE_ITEM_UNFINISHED_MELD: ScoreItem
SCORE_ITEM_HELD_RANK: ScoreItem
SCORE_ITEM_THREES_BY_COUNT: ScoreItem
SCORE_ITEM_RUN_CANASTA: ScoreItem

class SideTable(_message.Message):
    __slots__ = ("melds", "red_threes", "hands", "went_out", "unable_after_yes")
    MELDS_FIELD_NUMBER: _ClassVar[int]
    RED_THREES_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    WENT_OUT_FIELD_NUMBER: _ClassVar[int]
    UNABLE_AFTER_YES_FIELD_NUMBER: _ClassVar[int]
    melds: _containers.RepeatedCompositeFieldContainer[_cards_pb2.CardList]
    red_threes: _containers.RepeatedScalarFieldContainer[_cards_pb2.Card]
    hands: _containers.RepeatedCompositeFieldContainer[_cards_pb2.CardList]
    went_out: WentOut
    unable_after_yes: int
    def __init__(self, melds: _Optional[_Iterable[_Union[_cards_pb2.CardList, _Mapping]]] = ..., red_threes: _Optional[_Iterable[_Union[_cards_pb2.Card, str]]] = ..., hands: _Optional[_Iterable[_Union[_cards_pb2.CardList, _Mapping]]] = ..., went_out: _Optional[_Union[WentOut, str]] = ..., unable_after_yes: _Optional[int] = ...) -> None: ...

class HandTable(_message.Message):
    __slots__ = ("sides", "side_of_seat")
    SIDES_FIELD_NUMBER: _ClassVar[int]
    SIDE_OF_SEAT_FIELD_NUMBER: _ClassVar[int]
    sides: _containers.RepeatedCompositeFieldContainer[SideTable]
    side_of_seat: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, sides: _Optional[_Iterable[_Union[SideTable, _Mapping]]] = ..., side_of_seat: _Optional[_Iterable[int]] = ...) -> None: ...

class ScoreLine(_message.Message):
    __slots__ = ("item", "points", "detail", "field")
    ITEM_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    item: ScoreItem
    points: int
    detail: str
    field: str
    def __init__(self, item: _Optional[_Union[ScoreItem, str]] = ..., points: _Optional[int] = ..., detail: _Optional[str] = ..., field: _Optional[str] = ...) -> None: ...

class SideScore(_message.Message):
    __slots__ = ("lines", "total")
    LINES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    lines: _containers.RepeatedCompositeFieldContainer[ScoreLine]
    total: int
    def __init__(self, lines: _Optional[_Iterable[_Union[ScoreLine, _Mapping]]] = ..., total: _Optional[int] = ...) -> None: ...
