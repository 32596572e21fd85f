from oracle.api.v1 import scoring_pb2 as _scoring_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SideTableNotation(_message.Message):
    __slots__ = ("melds", "red_threes", "hands", "went_out", "name")
    MELDS_FIELD_NUMBER: _ClassVar[int]
    RED_THREES_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    WENT_OUT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    melds: _containers.RepeatedScalarFieldContainer[str]
    red_threes: str
    hands: _containers.RepeatedScalarFieldContainer[str]
    went_out: _scoring_pb2.WentOut
    name: str
    def __init__(self, melds: _Optional[_Iterable[str]] = ..., red_threes: _Optional[str] = ..., hands: _Optional[_Iterable[str]] = ..., went_out: _Optional[_Union[_scoring_pb2.WentOut, str]] = ..., name: _Optional[str] = ...) -> None: ...

class HandTableNotation(_message.Message):
    __slots__ = ("rule_set_id", "sides")
    RULE_SET_ID_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    rule_set_id: str
    sides: _containers.RepeatedCompositeFieldContainer[SideTableNotation]
    def __init__(self, rule_set_id: _Optional[str] = ..., sides: _Optional[_Iterable[_Union[SideTableNotation, _Mapping]]] = ...) -> None: ...
