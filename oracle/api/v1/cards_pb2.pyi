from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Card(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CARD_UNSPECIFIED: _ClassVar[Card]
    CARD_2C: _ClassVar[Card]
    CARD_2D: _ClassVar[Card]
    CARD_2H: _ClassVar[Card]
    CARD_2S: _ClassVar[Card]
    CARD_3C: _ClassVar[Card]
    CARD_3D: _ClassVar[Card]
    CARD_3H: _ClassVar[Card]
    CARD_3S: _ClassVar[Card]
    CARD_4C: _ClassVar[Card]
    CARD_4D: _ClassVar[Card]
    CARD_4H: _ClassVar[Card]
    CARD_4S: _ClassVar[Card]
    CARD_5C: _ClassVar[Card]
    CARD_5D: _ClassVar[Card]
    CARD_5H: _ClassVar[Card]
    CARD_5S: _ClassVar[Card]
    CARD_6C: _ClassVar[Card]
    CARD_6D: _ClassVar[Card]
    CARD_6H: _ClassVar[Card]
    CARD_6S: _ClassVar[Card]
    CARD_7C: _ClassVar[Card]
    CARD_7D: _ClassVar[Card]
    CARD_7H: _ClassVar[Card]
    CARD_7S: _ClassVar[Card]
    CARD_8C: _ClassVar[Card]
    CARD_8D: _ClassVar[Card]
    CARD_8H: _ClassVar[Card]
    CARD_8S: _ClassVar[Card]
    CARD_9C: _ClassVar[Card]
    CARD_9D: _ClassVar[Card]
    CARD_9H: _ClassVar[Card]
    CARD_9S: _ClassVar[Card]
    CARD_TC: _ClassVar[Card]
    CARD_TD: _ClassVar[Card]
    CARD_TH: _ClassVar[Card]
    CARD_TS: _ClassVar[Card]
    CARD_JC: _ClassVar[Card]
    CARD_JD: _ClassVar[Card]
    CARD_JH: _ClassVar[Card]
    CARD_JS: _ClassVar[Card]
    CARD_QC: _ClassVar[Card]
    CARD_QD: _ClassVar[Card]
    CARD_QH: _ClassVar[Card]
    CARD_QS: _ClassVar[Card]
    CARD_KC: _ClassVar[Card]
    CARD_KD: _ClassVar[Card]
    CARD_KH: _ClassVar[Card]
    CARD_KS: _ClassVar[Card]
    CARD_AC: _ClassVar[Card]
    CARD_AD: _ClassVar[Card]
    CARD_AH: _ClassVar[Card]
    CARD_AS: _ClassVar[Card]
    CARD_JK: _ClassVar[Card]
CARD_UNSPECIFIED: Card
CARD_2C: Card
CARD_2D: Card
CARD_2H: Card
CARD_2S: Card
CARD_3C: Card
CARD_3D: Card
CARD_3H: Card
CARD_3S: Card
CARD_4C: Card
CARD_4D: Card
CARD_4H: Card
CARD_4S: Card
CARD_5C: Card
CARD_5D: Card
CARD_5H: Card
CARD_5S: Card
CARD_6C: Card
CARD_6D: Card
CARD_6H: Card
CARD_6S: Card
CARD_7C: Card
CARD_7D: Card
CARD_7H: Card
CARD_7S: Card
CARD_8C: Card
CARD_8D: Card
CARD_8H: Card
CARD_8S: Card
CARD_9C: Card
CARD_9D: Card
CARD_9H: Card
CARD_9S: Card
CARD_TC: Card
CARD_TD: Card
CARD_TH: Card
CARD_TS: Card
CARD_JC: Card
CARD_JD: Card
CARD_JH: Card
CARD_JS: Card
CARD_QC: Card
CARD_QD: Card
CARD_QH: Card
CARD_QS: Card
CARD_KC: Card
CARD_KD: Card
CARD_KH: Card
CARD_KS: Card
CARD_AC: Card
CARD_AD: Card
CARD_AH: Card
CARD_AS: Card
CARD_JK: Card

class CardList(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[Card]
    def __init__(self, cards: _Optional[_Iterable[_Union[Card, str]]] = ...) -> None: ...
