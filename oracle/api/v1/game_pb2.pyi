from oracle.api.v1 import cards_pb2 as _cards_pb2
from oracle.api.v1 import ruleset_pb2 as _ruleset_pb2
from oracle.api.v1 import scoring_pb2 as _scoring_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_DRAW: _ClassVar[Phase]
    PHASE_PLAY: _ClassVar[Phase]
    PHASE_AWAIT_ANSWER: _ClassVar[Phase]
    PHASE_FINAL_MELDS: _ClassVar[Phase]
    PHASE_HAND_OVER: _ClassVar[Phase]
    PHASE_MELD_PILE_TOP: _ClassVar[Phase]

class TurnStart(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TURN_START_UNSPECIFIED: _ClassVar[TurnStart]
    TURN_START_DREW: _ClassVar[TurnStart]
    TURN_START_TOOK_PILE: _ClassVar[TurnStart]

class PartnerAnswer(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PARTNER_ANSWER_UNSPECIFIED: _ClassVar[PartnerAnswer]
    PARTNER_ANSWER_PENDING: _ClassVar[PartnerAnswer]
    PARTNER_ANSWER_YES: _ClassVar[PartnerAnswer]
    PARTNER_ANSWER_NO: _ClassVar[PartnerAnswer]

class HandEnd(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HAND_END_UNSPECIFIED: _ClassVar[HandEnd]
    HAND_END_WENT_OUT: _ClassVar[HandEnd]
    HAND_END_STOCK_EXHAUSTED: _ClassVar[HandEnd]
    HAND_END_LAST_RED_THREE: _ClassVar[HandEnd]
PHASE_UNSPECIFIED: Phase
PHASE_DRAW: Phase
PHASE_PLAY: Phase
PHASE_AWAIT_ANSWER: Phase
PHASE_FINAL_MELDS: Phase
PHASE_HAND_OVER: Phase
PHASE_MELD_PILE_TOP: Phase
TURN_START_UNSPECIFIED: TurnStart
TURN_START_DREW: TurnStart
TURN_START_TOOK_PILE: TurnStart
PARTNER_ANSWER_UNSPECIFIED: PartnerAnswer
PARTNER_ANSWER_PENDING: PartnerAnswer
PARTNER_ANSWER_YES: PartnerAnswer
PARTNER_ANSWER_NO: PartnerAnswer
HAND_END_UNSPECIFIED: HandEnd
HAND_END_WENT_OUT: HandEnd
HAND_END_STOCK_EXHAUSTED: HandEnd
HAND_END_LAST_RED_THREE: HandEnd

class TurnState(_message.Message):
    __slots__ = ("start", "melded", "added_to_existing", "made_canasta", "partner_answer", "melds_before_turn")
    START_FIELD_NUMBER: _ClassVar[int]
    MELDED_FIELD_NUMBER: _ClassVar[int]
    ADDED_TO_EXISTING_FIELD_NUMBER: _ClassVar[int]
    MADE_CANASTA_FIELD_NUMBER: _ClassVar[int]
    PARTNER_ANSWER_FIELD_NUMBER: _ClassVar[int]
    MELDS_BEFORE_TURN_FIELD_NUMBER: _ClassVar[int]
    start: TurnStart
    melded: bool
    added_to_existing: bool
    made_canasta: bool
    partner_answer: PartnerAnswer
    melds_before_turn: int
    def __init__(self, start: _Optional[_Union[TurnStart, str]] = ..., melded: _Optional[bool] = ..., added_to_existing: _Optional[bool] = ..., made_canasta: _Optional[bool] = ..., partner_answer: _Optional[_Union[PartnerAnswer, str]] = ..., melds_before_turn: _Optional[int] = ...) -> None: ...

class SeatState(_message.Message):
    __slots__ = ("hand", "melded_before", "foot")
    HAND_FIELD_NUMBER: _ClassVar[int]
    MELDED_BEFORE_FIELD_NUMBER: _ClassVar[int]
    FOOT_FIELD_NUMBER: _ClassVar[int]
    hand: _containers.RepeatedScalarFieldContainer[_cards_pb2.Card]
    melded_before: bool
    foot: _containers.RepeatedScalarFieldContainer[_cards_pb2.Card]
    def __init__(self, hand: _Optional[_Iterable[_Union[_cards_pb2.Card, str]]] = ..., melded_before: _Optional[bool] = ..., foot: _Optional[_Iterable[_Union[_cards_pb2.Card, str]]] = ...) -> None: ...

class SideState(_message.Message):
    __slots__ = ("melds", "red_threes", "running_total", "unable_after_yes", "asks")
    MELDS_FIELD_NUMBER: _ClassVar[int]
    RED_THREES_FIELD_NUMBER: _ClassVar[int]
    RUNNING_TOTAL_FIELD_NUMBER: _ClassVar[int]
    UNABLE_AFTER_YES_FIELD_NUMBER: _ClassVar[int]
    ASKS_FIELD_NUMBER: _ClassVar[int]
    melds: _containers.RepeatedCompositeFieldContainer[_cards_pb2.CardList]
    red_threes: _containers.RepeatedScalarFieldContainer[_cards_pb2.Card]
    running_total: int
    unable_after_yes: int
    asks: int
    def __init__(self, melds: _Optional[_Iterable[_Union[_cards_pb2.CardList, _Mapping]]] = ..., red_threes: _Optional[_Iterable[_Union[_cards_pb2.Card, str]]] = ..., running_total: _Optional[int] = ..., unable_after_yes: _Optional[int] = ..., asks: _Optional[int] = ...) -> None: ...

class GameState(_message.Message):
    __slots__ = ("seats", "sides", "stock", "discard_pile", "pile_upcards", "seat_to_move", "phase", "turn", "hand_end", "went_out_seat", "went_out_concealed", "side_of_seat", "hand_number")
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
    SIDE_OF_SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedCompositeFieldContainer[SeatState]
    sides: _containers.RepeatedCompositeFieldContainer[SideState]
    stock: _containers.RepeatedScalarFieldContainer[_cards_pb2.Card]
    discard_pile: _containers.RepeatedScalarFieldContainer[_cards_pb2.Card]
    pile_upcards: int
    seat_to_move: int
    phase: Phase
    turn: TurnState
    hand_end: HandEnd
    went_out_seat: int
    went_out_concealed: bool
    side_of_seat: _containers.RepeatedScalarFieldContainer[int]
    hand_number: int
    def __init__(self, seats: _Optional[_Iterable[_Union[SeatState, _Mapping]]] = ..., sides: _Optional[_Iterable[_Union[SideState, _Mapping]]] = ..., stock: _Optional[_Iterable[_Union[_cards_pb2.Card, str]]] = ..., discard_pile: _Optional[_Iterable[_Union[_cards_pb2.Card, str]]] = ..., pile_upcards: _Optional[int] = ..., seat_to_move: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., turn: _Optional[_Union[TurnState, _Mapping]] = ..., hand_end: _Optional[_Union[HandEnd, str]] = ..., went_out_seat: _Optional[int] = ..., went_out_concealed: _Optional[bool] = ..., side_of_seat: _Optional[_Iterable[int]] = ..., hand_number: _Optional[int] = ...) -> None: ...

class SeatView(_message.Message):
    __slots__ = ("hand_count", "melded_before", "foot_count")
    HAND_COUNT_FIELD_NUMBER: _ClassVar[int]
    MELDED_BEFORE_FIELD_NUMBER: _ClassVar[int]
    FOOT_COUNT_FIELD_NUMBER: _ClassVar[int]
    hand_count: int
    melded_before: bool
    foot_count: int
    def __init__(self, hand_count: _Optional[int] = ..., melded_before: _Optional[bool] = ..., foot_count: _Optional[int] = ...) -> None: ...

class PlayerView(_message.Message):
    __slots__ = ("seat", "hand", "seats", "sides", "stock_count", "discard_pile", "pile_upcards", "seat_to_move", "phase", "turn", "hand_end", "went_out_seat", "went_out_concealed", "side_of_seat", "hand_number")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    STOCK_COUNT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_PILE_FIELD_NUMBER: _ClassVar[int]
    PILE_UPCARDS_FIELD_NUMBER: _ClassVar[int]
    SEAT_TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    HAND_END_FIELD_NUMBER: _ClassVar[int]
    WENT_OUT_SEAT_FIELD_NUMBER: _ClassVar[int]
    WENT_OUT_CONCEALED_FIELD_NUMBER: _ClassVar[int]
    SIDE_OF_SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand: _containers.RepeatedScalarFieldContainer[_cards_pb2.Card]
    seats: _containers.RepeatedCompositeFieldContainer[SeatView]
    sides: _containers.RepeatedCompositeFieldContainer[SideState]
    stock_count: int
    discard_pile: _containers.RepeatedScalarFieldContainer[_cards_pb2.Card]
    pile_upcards: int
    seat_to_move: int
    phase: Phase
    turn: TurnState
    hand_end: HandEnd
    went_out_seat: int
    went_out_concealed: bool
    side_of_seat: _containers.RepeatedScalarFieldContainer[int]
    hand_number: int
    def __init__(self, seat: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[_cards_pb2.Card, str]]] = ..., seats: _Optional[_Iterable[_Union[SeatView, _Mapping]]] = ..., sides: _Optional[_Iterable[_Union[SideState, _Mapping]]] = ..., stock_count: _Optional[int] = ..., discard_pile: _Optional[_Iterable[_Union[_cards_pb2.Card, str]]] = ..., pile_upcards: _Optional[int] = ..., seat_to_move: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., turn: _Optional[_Union[TurnState, _Mapping]] = ..., hand_end: _Optional[_Union[HandEnd, str]] = ..., went_out_seat: _Optional[int] = ..., went_out_concealed: _Optional[bool] = ..., side_of_seat: _Optional[_Iterable[int]] = ..., hand_number: _Optional[int] = ...) -> None: ...

class DrawAction(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TakePileAction(_message.Message):
    __slots__ = ("melds", "onto", "new_meld")
    WITH_FIELD_NUMBER: _ClassVar[int]
    MELDS_FIELD_NUMBER: _ClassVar[int]
    ONTO_FIELD_NUMBER: _ClassVar[int]
    NEW_MELD_FIELD_NUMBER: _ClassVar[int]
    melds: _containers.RepeatedCompositeFieldContainer[MeldGroup]
    onto: int
    new_meld: bool
    def __init__(self, melds: _Optional[_Iterable[_Union[MeldGroup, _Mapping]]] = ..., onto: _Optional[int] = ..., new_meld: _Optional[bool] = ..., **kwargs) -> None: ...

class PickUpPileAction(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class MeldAction(_message.Message):
    __slots__ = ("groups",)
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    groups: _containers.RepeatedCompositeFieldContainer[MeldGroup]
    def __init__(self, groups: _Optional[_Iterable[_Union[MeldGroup, _Mapping]]] = ...) -> None: ...

class MeldGroup(_message.Message):
    __slots__ = ("cards", "onto_rank", "onto", "new_meld")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    ONTO_RANK_FIELD_NUMBER: _ClassVar[int]
    ONTO_FIELD_NUMBER: _ClassVar[int]
    NEW_MELD_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[_cards_pb2.Card]
    onto_rank: _cards_pb2.Card
    onto: int
    new_meld: bool
    def __init__(self, cards: _Optional[_Iterable[_Union[_cards_pb2.Card, str]]] = ..., onto_rank: _Optional[_Union[_cards_pb2.Card, str]] = ..., onto: _Optional[int] = ..., new_meld: _Optional[bool] = ...) -> None: ...

class DiscardAction(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: _cards_pb2.Card
    def __init__(self, card: _Optional[_Union[_cards_pb2.Card, str]] = ...) -> None: ...

class AskPartnerAction(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AnswerPartnerAction(_message.Message):
    __slots__ = ("yes",)
    YES_FIELD_NUMBER: _ClassVar[int]
    yes: bool
    def __init__(self, yes: _Optional[bool] = ...) -> None: ...

class FinishAction(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Action(_message.Message):
    __slots__ = ("draw", "take_pile", "meld", "discard", "ask_partner", "answer_partner", "finish", "pick_up_pile", "combine")
    DRAW_FIELD_NUMBER: _ClassVar[int]
    TAKE_PILE_FIELD_NUMBER: _ClassVar[int]
    MELD_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    ASK_PARTNER_FIELD_NUMBER: _ClassVar[int]
    ANSWER_PARTNER_FIELD_NUMBER: _ClassVar[int]
    FINISH_FIELD_NUMBER: _ClassVar[int]
    PICK_UP_PILE_FIELD_NUMBER: _ClassVar[int]
    COMBINE_FIELD_NUMBER: _ClassVar[int]
    draw: DrawAction
    take_pile: TakePileAction
    meld: MeldAction
    discard: DiscardAction
    ask_partner: AskPartnerAction
    answer_partner: AnswerPartnerAction
    finish: FinishAction
    pick_up_pile: PickUpPileAction
    combine: CombineMeldsAction
    def __init__(self, draw: _Optional[_Union[DrawAction, _Mapping]] = ..., take_pile: _Optional[_Union[TakePileAction, _Mapping]] = ..., meld: _Optional[_Union[MeldAction, _Mapping]] = ..., discard: _Optional[_Union[DiscardAction, _Mapping]] = ..., ask_partner: _Optional[_Union[AskPartnerAction, _Mapping]] = ..., answer_partner: _Optional[_Union[AnswerPartnerAction, _Mapping]] = ..., finish: _Optional[_Union[FinishAction, _Mapping]] = ..., pick_up_pile: _Optional[_Union[PickUpPileAction, _Mapping]] = ..., combine: _Optional[_Union[CombineMeldsAction, _Mapping]] = ...) -> None: ...

class CombineMeldsAction(_message.Message):
    __slots__ = ("first", "second")
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    first: int
    second: int
    def __init__(self, first: _Optional[int] = ..., second: _Optional[int] = ...) -> None: ...

class Violation(_message.Message):
    __slots__ = ("code", "field", "explanation", "cite")
    CODE_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_FIELD_NUMBER: _ClassVar[int]
    CITE_FIELD_NUMBER: _ClassVar[int]
    code: str
    field: str
    explanation: str
    cite: _containers.RepeatedCompositeFieldContainer[_ruleset_pb2.Citation]
    def __init__(self, code: _Optional[str] = ..., field: _Optional[str] = ..., explanation: _Optional[str] = ..., cite: _Optional[_Iterable[_Union[_ruleset_pb2.Citation, _Mapping]]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("cards_drawn", "red_three_laid", "pile_taken", "canasta_made", "hand_ended", "sides_formed")
    CARDS_DRAWN_FIELD_NUMBER: _ClassVar[int]
    RED_THREE_LAID_FIELD_NUMBER: _ClassVar[int]
    PILE_TAKEN_FIELD_NUMBER: _ClassVar[int]
    CANASTA_MADE_FIELD_NUMBER: _ClassVar[int]
    HAND_ENDED_FIELD_NUMBER: _ClassVar[int]
    SIDES_FORMED_FIELD_NUMBER: _ClassVar[int]
    cards_drawn: CardsDrawn
    red_three_laid: RedThreeLaid
    pile_taken: PileTaken
    canasta_made: CanastaMade
    hand_ended: HandEnded
    sides_formed: SidesFormed
    def __init__(self, cards_drawn: _Optional[_Union[CardsDrawn, _Mapping]] = ..., red_three_laid: _Optional[_Union[RedThreeLaid, _Mapping]] = ..., pile_taken: _Optional[_Union[PileTaken, _Mapping]] = ..., canasta_made: _Optional[_Union[CanastaMade, _Mapping]] = ..., hand_ended: _Optional[_Union[HandEnded, _Mapping]] = ..., sides_formed: _Optional[_Union[SidesFormed, _Mapping]] = ...) -> None: ...

class SidesFormed(_message.Message):
    __slots__ = ("lone_seat", "partners", "melds")
    LONE_SEAT_FIELD_NUMBER: _ClassVar[int]
    PARTNERS_FIELD_NUMBER: _ClassVar[int]
    MELDS_FIELD_NUMBER: _ClassVar[int]
    lone_seat: int
    partners: _containers.RepeatedScalarFieldContainer[int]
    melds: _containers.RepeatedCompositeFieldContainer[_cards_pb2.CardList]
    def __init__(self, lone_seat: _Optional[int] = ..., partners: _Optional[_Iterable[int]] = ..., melds: _Optional[_Iterable[_Union[_cards_pb2.CardList, _Mapping]]] = ...) -> None: ...

class CardsDrawn(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[_cards_pb2.Card]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[_cards_pb2.Card, str]]] = ...) -> None: ...

class RedThreeLaid(_message.Message):
    __slots__ = ("seat", "card", "replaced")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    REPLACED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    replaced: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, str]] = ..., replaced: _Optional[bool] = ...) -> None: ...

class PileTaken(_message.Message):
    __slots__ = ("seat", "top", "to_hand")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    TO_HAND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    top: _cards_pb2.Card
    to_hand: _containers.RepeatedScalarFieldContainer[_cards_pb2.Card]
    def __init__(self, seat: _Optional[int] = ..., top: _Optional[_Union[_cards_pb2.Card, str]] = ..., to_hand: _Optional[_Iterable[_Union[_cards_pb2.Card, str]]] = ...) -> None: ...

class CanastaMade(_message.Message):
    __slots__ = ("side", "cards", "natural")
    SIDE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    NATURAL_FIELD_NUMBER: _ClassVar[int]
    side: int
    cards: _containers.RepeatedScalarFieldContainer[_cards_pb2.Card]
    natural: bool
    def __init__(self, side: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[_cards_pb2.Card, str]]] = ..., natural: _Optional[bool] = ...) -> None: ...

class HandEnded(_message.Message):
    __slots__ = ("reason", "table", "scores")
    REASON_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    reason: HandEnd
    table: _scoring_pb2.HandTable
    scores: _containers.RepeatedCompositeFieldContainer[_scoring_pb2.SideScore]
    def __init__(self, reason: _Optional[_Union[HandEnd, str]] = ..., table: _Optional[_Union[_scoring_pb2.HandTable, _Mapping]] = ..., scores: _Optional[_Iterable[_Union[_scoring_pb2.SideScore, _Mapping]]] = ...) -> None: ...
