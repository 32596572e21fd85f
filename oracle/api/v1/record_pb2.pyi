from oracle.api.v1 import cards_pb2 as _cards_pb2
from oracle.api.v1 import game_pb2 as _game_pb2
from oracle.api.v1 import notation_pb2 as _notation_pb2
from oracle.api.v1 import scoring_pb2 as _scoring_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ActionCounts(_message.Message):
    __slots__ = ("draw", "take_pile", "meld", "discard", "ask_partner", "answer_partner", "finish", "total", "combine")
    DRAW_FIELD_NUMBER: _ClassVar[int]
    TAKE_PILE_FIELD_NUMBER: _ClassVar[int]
    MELD_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    ASK_PARTNER_FIELD_NUMBER: _ClassVar[int]
    ANSWER_PARTNER_FIELD_NUMBER: _ClassVar[int]
    FINISH_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    COMBINE_FIELD_NUMBER: _ClassVar[int]
    draw: int
    take_pile: int
    meld: int
    discard: int
    ask_partner: int
    answer_partner: int
    finish: int
    total: int
    combine: int
    def __init__(self, draw: _Optional[int] = ..., take_pile: _Optional[int] = ..., meld: _Optional[int] = ..., discard: _Optional[int] = ..., ask_partner: _Optional[int] = ..., answer_partner: _Optional[int] = ..., finish: _Optional[int] = ..., total: _Optional[int] = ..., combine: _Optional[int] = ...) -> None: ...

class HandRecord(_message.Message):
    __slots__ = ("seed", "deck_order", "start", "actions", "claimed_scores", "claimed_totals", "moves", "dealer", "starting_totals", "checkpoints")
    SEED_FIELD_NUMBER: _ClassVar[int]
    DECK_ORDER_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_SCORES_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_TOTALS_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    STARTING_TOTALS_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINTS_FIELD_NUMBER: _ClassVar[int]
    seed: int
    deck_order: _cards_pb2.CardList
    start: _notation_pb2.GameStateNotation
    actions: _containers.RepeatedCompositeFieldContainer[_game_pb2.Action]
    claimed_scores: _containers.RepeatedScalarFieldContainer[int]
    claimed_totals: _containers.RepeatedScalarFieldContainer[int]
    moves: _containers.RepeatedScalarFieldContainer[str]
    dealer: int
    starting_totals: _containers.RepeatedScalarFieldContainer[int]
    checkpoints: _containers.RepeatedCompositeFieldContainer[Checkpoint]
    def __init__(self, seed: _Optional[int] = ..., deck_order: _Optional[_Union[_cards_pb2.CardList, _Mapping]] = ..., start: _Optional[_Union[_notation_pb2.GameStateNotation, _Mapping]] = ..., actions: _Optional[_Iterable[_Union[_game_pb2.Action, _Mapping]]] = ..., claimed_scores: _Optional[_Iterable[int]] = ..., claimed_totals: _Optional[_Iterable[int]] = ..., moves: _Optional[_Iterable[str]] = ..., dealer: _Optional[int] = ..., starting_totals: _Optional[_Iterable[int]] = ..., checkpoints: _Optional[_Iterable[_Union[Checkpoint, _Mapping]]] = ...) -> None: ...

class ClaimedCards(_message.Message):
    __slots__ = ("index", "cards")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    index: int
    cards: str
    def __init__(self, index: _Optional[int] = ..., cards: _Optional[str] = ...) -> None: ...

class Checkpoint(_message.Message):
    __slots__ = ("after", "hands", "melds", "red_threes", "stock", "stock_count", "discard_pile", "seat_to_move", "phase", "sides")
    AFTER_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    MELDS_FIELD_NUMBER: _ClassVar[int]
    RED_THREES_FIELD_NUMBER: _ClassVar[int]
    STOCK_FIELD_NUMBER: _ClassVar[int]
    STOCK_COUNT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_PILE_FIELD_NUMBER: _ClassVar[int]
    SEAT_TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    after: int
    hands: _containers.RepeatedCompositeFieldContainer[ClaimedCards]
    melds: _containers.RepeatedCompositeFieldContainer[ClaimedCards]
    red_threes: _containers.RepeatedCompositeFieldContainer[ClaimedCards]
    stock: str
    stock_count: int
    discard_pile: str
    seat_to_move: int
    phase: _game_pb2.Phase
    sides: ClaimedSides
    def __init__(self, after: _Optional[int] = ..., hands: _Optional[_Iterable[_Union[ClaimedCards, _Mapping]]] = ..., melds: _Optional[_Iterable[_Union[ClaimedCards, _Mapping]]] = ..., red_threes: _Optional[_Iterable[_Union[ClaimedCards, _Mapping]]] = ..., stock: _Optional[str] = ..., stock_count: _Optional[int] = ..., discard_pile: _Optional[str] = ..., seat_to_move: _Optional[int] = ..., phase: _Optional[_Union[_game_pb2.Phase, str]] = ..., sides: _Optional[_Union[ClaimedSides, _Mapping]] = ...) -> None: ...

class ClaimedSides(_message.Message):
    __slots__ = ("side_of_seat",)
    SIDE_OF_SEAT_FIELD_NUMBER: _ClassVar[int]
    side_of_seat: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, side_of_seat: _Optional[_Iterable[int]] = ...) -> None: ...

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
    __slots__ = ("hand", "index", "seat", "notation", "legal", "violations", "events", "uncertain")
    HAND_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    UNCERTAIN_FIELD_NUMBER: _ClassVar[int]
    hand: int
    index: int
    seat: int
    notation: str
    legal: bool
    violations: _containers.RepeatedCompositeFieldContainer[_game_pb2.Violation]
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    uncertain: bool
    def __init__(self, hand: _Optional[int] = ..., index: _Optional[int] = ..., seat: _Optional[int] = ..., notation: _Optional[str] = ..., legal: _Optional[bool] = ..., violations: _Optional[_Iterable[_Union[_game_pb2.Violation, _Mapping]]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ..., uncertain: _Optional[bool] = ...) -> None: ...

class Disagreement(_message.Message):
    __slots__ = ("hand", "index", "seat", "kind", "field", "claimed", "computed", "violations", "uncertain")
    HAND_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_FIELD_NUMBER: _ClassVar[int]
    COMPUTED_FIELD_NUMBER: _ClassVar[int]
    VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    UNCERTAIN_FIELD_NUMBER: _ClassVar[int]
    hand: int
    index: int
    seat: int
    kind: str
    field: str
    claimed: str
    computed: str
    violations: _containers.RepeatedCompositeFieldContainer[_game_pb2.Violation]
    uncertain: bool
    def __init__(self, hand: _Optional[int] = ..., index: _Optional[int] = ..., seat: _Optional[int] = ..., kind: _Optional[str] = ..., field: _Optional[str] = ..., claimed: _Optional[str] = ..., computed: _Optional[str] = ..., violations: _Optional[_Iterable[_Union[_game_pb2.Violation, _Mapping]]] = ..., uncertain: _Optional[bool] = ...) -> None: ...

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
    __slots__ = ("ok", "actions_judged", "first_illegal", "hands", "mismatches", "game_over", "winner", "problems", "actions", "disagreements", "uncertain_actions")
    OK_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_JUDGED_FIELD_NUMBER: _ClassVar[int]
    FIRST_ILLEGAL_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    MISMATCHES_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    PROBLEMS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    DISAGREEMENTS_FIELD_NUMBER: _ClassVar[int]
    UNCERTAIN_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    ok: bool
    actions_judged: int
    first_illegal: ActionReport
    hands: _containers.RepeatedCompositeFieldContainer[HandReport]
    mismatches: _containers.RepeatedCompositeFieldContainer[ScoreMismatch]
    game_over: bool
    winner: int
    problems: _containers.RepeatedScalarFieldContainer[str]
    actions: _containers.RepeatedCompositeFieldContainer[ActionReport]
    disagreements: _containers.RepeatedCompositeFieldContainer[Disagreement]
    uncertain_actions: int
    def __init__(self, ok: _Optional[bool] = ..., actions_judged: _Optional[int] = ..., first_illegal: _Optional[_Union[ActionReport, _Mapping]] = ..., hands: _Optional[_Iterable[_Union[HandReport, _Mapping]]] = ..., mismatches: _Optional[_Iterable[_Union[ScoreMismatch, _Mapping]]] = ..., game_over: _Optional[bool] = ..., winner: _Optional[int] = ..., problems: _Optional[_Iterable[str]] = ..., actions: _Optional[_Iterable[_Union[ActionReport, _Mapping]]] = ..., disagreements: _Optional[_Iterable[_Union[Disagreement, _Mapping]]] = ..., uncertain_actions: _Optional[int] = ...) -> None: ...
