from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ChoiceKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHOICE_KIND_UNSPECIFIED: _ClassVar[ChoiceKind]
    CHOICE_KIND_TEXTS_DISAGREE: _ClassVar[ChoiceKind]
    CHOICE_KIND_READING: _ClassVar[ChoiceKind]
    CHOICE_KIND_UNSTATED: _ClassVar[ChoiceKind]

class SideFormation(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SIDE_FORMATION_UNSPECIFIED: _ClassVar[SideFormation]
    SIDE_FORMATION_FIXED: _ClassVar[SideFormation]
    SIDE_FORMATION_LONE_HAND: _ClassVar[SideFormation]

class NaturalRank(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NATURAL_RANK_UNSPECIFIED: _ClassVar[NaturalRank]
    NATURAL_RANK_FOUR: _ClassVar[NaturalRank]
    NATURAL_RANK_FIVE: _ClassVar[NaturalRank]
    NATURAL_RANK_SIX: _ClassVar[NaturalRank]
    NATURAL_RANK_SEVEN: _ClassVar[NaturalRank]
    NATURAL_RANK_EIGHT: _ClassVar[NaturalRank]
    NATURAL_RANK_NINE: _ClassVar[NaturalRank]
    NATURAL_RANK_TEN: _ClassVar[NaturalRank]
    NATURAL_RANK_JACK: _ClassVar[NaturalRank]
    NATURAL_RANK_QUEEN: _ClassVar[NaturalRank]
    NATURAL_RANK_KING: _ClassVar[NaturalRank]
    NATURAL_RANK_ACE: _ClassVar[NaturalRank]

class WildRatio(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WILD_RATIO_UNSPECIFIED: _ClassVar[WildRatio]
    WILD_RATIO_ANY: _ClassVar[WildRatio]
    WILD_RATIO_AT_MOST_NATURALS: _ClassVar[WildRatio]
    WILD_RATIO_FEWER_THAN_NATURALS: _ClassVar[WildRatio]

class MustTakePile(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MUST_TAKE_PILE_UNSPECIFIED: _ClassVar[MustTakePile]
    MUST_TAKE_PILE_NEVER: _ClassVar[MustTakePile]
    MUST_TAKE_PILE_WHEN_TOP_FITS_MELD: _ClassVar[MustTakePile]
    MUST_TAKE_PILE_WHENEVER_ALLOWED: _ClassVar[MustTakePile]

class BlackThreeRole(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BLACK_THREE_ROLE_UNSPECIFIED: _ClassVar[BlackThreeRole]
    BLACK_THREE_ROLE_BLOCKER: _ClassVar[BlackThreeRole]
    BLACK_THREE_ROLE_BONUS: _ClassVar[BlackThreeRole]

class LastRedThree(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LAST_RED_THREE_UNSPECIFIED: _ClassVar[LastRedThree]
    LAST_RED_THREE_ENDS_HAND: _ClassVar[LastRedThree]
    LAST_RED_THREE_MAY_MELD_THEN_ENDS: _ClassVar[LastRedThree]

class AskPartner(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ASK_PARTNER_UNSPECIFIED: _ClassVar[AskPartner]
    ASK_PARTNER_NONE: _ClassVar[AskPartner]
    ASK_PARTNER_OPTIONAL_BINDING: _ClassVar[AskPartner]
    ASK_PARTNER_REQUIRED_BINDING: _ClassVar[AskPartner]

class AfterLastCard(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AFTER_LAST_CARD_UNSPECIFIED: _ClassVar[AfterLastCard]
    AFTER_LAST_CARD_PLAY_ON: _ClassVar[AfterLastCard]
    AFTER_LAST_CARD_ENDS_AFTER_DISCARD: _ClassVar[AfterLastCard]
CHOICE_KIND_UNSPECIFIED: ChoiceKind
CHOICE_KIND_TEXTS_DISAGREE: ChoiceKind
CHOICE_KIND_READING: ChoiceKind
CHOICE_KIND_UNSTATED: ChoiceKind
SIDE_FORMATION_UNSPECIFIED: SideFormation
SIDE_FORMATION_FIXED: SideFormation
SIDE_FORMATION_LONE_HAND: SideFormation
NATURAL_RANK_UNSPECIFIED: NaturalRank
NATURAL_RANK_FOUR: NaturalRank
NATURAL_RANK_FIVE: NaturalRank
NATURAL_RANK_SIX: NaturalRank
NATURAL_RANK_SEVEN: NaturalRank
NATURAL_RANK_EIGHT: NaturalRank
NATURAL_RANK_NINE: NaturalRank
NATURAL_RANK_TEN: NaturalRank
NATURAL_RANK_JACK: NaturalRank
NATURAL_RANK_QUEEN: NaturalRank
NATURAL_RANK_KING: NaturalRank
NATURAL_RANK_ACE: NaturalRank
WILD_RATIO_UNSPECIFIED: WildRatio
WILD_RATIO_ANY: WildRatio
WILD_RATIO_AT_MOST_NATURALS: WildRatio
WILD_RATIO_FEWER_THAN_NATURALS: WildRatio
MUST_TAKE_PILE_UNSPECIFIED: MustTakePile
MUST_TAKE_PILE_NEVER: MustTakePile
MUST_TAKE_PILE_WHEN_TOP_FITS_MELD: MustTakePile
MUST_TAKE_PILE_WHENEVER_ALLOWED: MustTakePile
BLACK_THREE_ROLE_UNSPECIFIED: BlackThreeRole
BLACK_THREE_ROLE_BLOCKER: BlackThreeRole
BLACK_THREE_ROLE_BONUS: BlackThreeRole
LAST_RED_THREE_UNSPECIFIED: LastRedThree
LAST_RED_THREE_ENDS_HAND: LastRedThree
LAST_RED_THREE_MAY_MELD_THEN_ENDS: LastRedThree
ASK_PARTNER_UNSPECIFIED: AskPartner
ASK_PARTNER_NONE: AskPartner
ASK_PARTNER_OPTIONAL_BINDING: AskPartner
ASK_PARTNER_REQUIRED_BINDING: AskPartner
AFTER_LAST_CARD_UNSPECIFIED: AfterLastCard
AFTER_LAST_CARD_PLAY_ON: AfterLastCard
AFTER_LAST_CARD_ENDS_AFTER_DISCARD: AfterLastCard

class Citation(_message.Message):
    __slots__ = ("source", "section")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SECTION_FIELD_NUMBER: _ClassVar[int]
    source: str
    section: str
    def __init__(self, source: _Optional[str] = ..., section: _Optional[str] = ...) -> None: ...

class Source(_message.Message):
    __slots__ = ("id", "title", "seed_file", "weaker", "url")
    ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    SEED_FILE_FIELD_NUMBER: _ClassVar[int]
    WEAKER_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    id: str
    title: str
    seed_file: str
    weaker: bool
    url: str
    def __init__(self, id: _Optional[str] = ..., title: _Optional[str] = ..., seed_file: _Optional[str] = ..., weaker: _Optional[bool] = ..., url: _Optional[str] = ...) -> None: ...

class SourceCatalog(_message.Message):
    __slots__ = ("sources",)
    SOURCES_FIELD_NUMBER: _ClassVar[int]
    sources: _containers.RepeatedCompositeFieldContainer[Source]
    def __init__(self, sources: _Optional[_Iterable[_Union[Source, _Mapping]]] = ...) -> None: ...

class RuleNote(_message.Message):
    __slots__ = ("field", "text", "cite", "choice")
    FIELD_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    CITE_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    field: str
    text: str
    cite: _containers.RepeatedCompositeFieldContainer[Citation]
    choice: str
    def __init__(self, field: _Optional[str] = ..., text: _Optional[str] = ..., cite: _Optional[_Iterable[_Union[Citation, _Mapping]]] = ..., choice: _Optional[str] = ...) -> None: ...

class Choice(_message.Message):
    __slots__ = ("id", "point", "kind", "taken", "others", "why", "fields")
    ID_FIELD_NUMBER: _ClassVar[int]
    POINT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    OTHERS_FIELD_NUMBER: _ClassVar[int]
    WHY_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    id: str
    point: str
    kind: ChoiceKind
    taken: Reading
    others: _containers.RepeatedCompositeFieldContainer[Reading]
    why: str
    fields: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., point: _Optional[str] = ..., kind: _Optional[_Union[ChoiceKind, str]] = ..., taken: _Optional[_Union[Reading, _Mapping]] = ..., others: _Optional[_Iterable[_Union[Reading, _Mapping]]] = ..., why: _Optional[str] = ..., fields: _Optional[_Iterable[str]] = ...) -> None: ...

class Reading(_message.Message):
    __slots__ = ("text", "cite", "rule_set")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    CITE_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    text: str
    cite: _containers.RepeatedCompositeFieldContainer[Citation]
    rule_set: str
    def __init__(self, text: _Optional[str] = ..., cite: _Optional[_Iterable[_Union[Citation, _Mapping]]] = ..., rule_set: _Optional[str] = ...) -> None: ...

class Players(_message.Message):
    __slots__ = ("seats", "side_size", "side_formation")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SIDE_SIZE_FIELD_NUMBER: _ClassVar[int]
    SIDE_FORMATION_FIELD_NUMBER: _ClassVar[int]
    seats: int
    side_size: int
    side_formation: SideFormation
    def __init__(self, seats: _Optional[int] = ..., side_size: _Optional[int] = ..., side_formation: _Optional[_Union[SideFormation, str]] = ...) -> None: ...

class RankRule(_message.Message):
    __slots__ = ("rank", "max_wilds", "wilds_in_initial_meld", "canasta_bonus", "unfinished_penalty", "held_min", "held_penalty", "no_discard_on_empty_pile")
    RANK_FIELD_NUMBER: _ClassVar[int]
    MAX_WILDS_FIELD_NUMBER: _ClassVar[int]
    WILDS_IN_INITIAL_MELD_FIELD_NUMBER: _ClassVar[int]
    CANASTA_BONUS_FIELD_NUMBER: _ClassVar[int]
    UNFINISHED_PENALTY_FIELD_NUMBER: _ClassVar[int]
    HELD_MIN_FIELD_NUMBER: _ClassVar[int]
    HELD_PENALTY_FIELD_NUMBER: _ClassVar[int]
    NO_DISCARD_ON_EMPTY_PILE_FIELD_NUMBER: _ClassVar[int]
    rank: NaturalRank
    max_wilds: int
    wilds_in_initial_meld: bool
    canasta_bonus: int
    unfinished_penalty: int
    held_min: int
    held_penalty: int
    no_discard_on_empty_pile: bool
    def __init__(self, rank: _Optional[_Union[NaturalRank, str]] = ..., max_wilds: _Optional[int] = ..., wilds_in_initial_meld: _Optional[bool] = ..., canasta_bonus: _Optional[int] = ..., unfinished_penalty: _Optional[int] = ..., held_min: _Optional[int] = ..., held_penalty: _Optional[int] = ..., no_discard_on_empty_pile: _Optional[bool] = ...) -> None: ...

class Deck(_message.Message):
    __slots__ = ("packs", "jokers")
    PACKS_FIELD_NUMBER: _ClassVar[int]
    JOKERS_FIELD_NUMBER: _ClassVar[int]
    packs: int
    jokers: int
    def __init__(self, packs: _Optional[int] = ..., jokers: _Optional[int] = ...) -> None: ...

class Deal(_message.Message):
    __slots__ = ("hand_size", "upcard_cover_wild", "upcard_cover_red_three", "upcard_cover_black_three", "upcard_cover_repeats", "upcard", "upcard_reject_to_stock")
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    UPCARD_COVER_WILD_FIELD_NUMBER: _ClassVar[int]
    UPCARD_COVER_RED_THREE_FIELD_NUMBER: _ClassVar[int]
    UPCARD_COVER_BLACK_THREE_FIELD_NUMBER: _ClassVar[int]
    UPCARD_COVER_REPEATS_FIELD_NUMBER: _ClassVar[int]
    UPCARD_FIELD_NUMBER: _ClassVar[int]
    UPCARD_REJECT_TO_STOCK_FIELD_NUMBER: _ClassVar[int]
    hand_size: int
    upcard_cover_wild: bool
    upcard_cover_red_three: bool
    upcard_cover_black_three: bool
    upcard_cover_repeats: bool
    upcard: bool
    upcard_reject_to_stock: bool
    def __init__(self, hand_size: _Optional[int] = ..., upcard_cover_wild: _Optional[bool] = ..., upcard_cover_red_three: _Optional[bool] = ..., upcard_cover_black_three: _Optional[bool] = ..., upcard_cover_repeats: _Optional[bool] = ..., upcard: _Optional[bool] = ..., upcard_reject_to_stock: _Optional[bool] = ...) -> None: ...

class Turn(_message.Message):
    __slots__ = ("draw_count", "short_stock_draws_remaining")
    DRAW_COUNT_FIELD_NUMBER: _ClassVar[int]
    SHORT_STOCK_DRAWS_REMAINING_FIELD_NUMBER: _ClassVar[int]
    draw_count: int
    short_stock_draws_remaining: bool
    def __init__(self, draw_count: _Optional[int] = ..., short_stock_draws_remaining: _Optional[bool] = ...) -> None: ...

class CardValues(_message.Message):
    __slots__ = ("joker", "two", "ace", "eight_to_king", "four_to_seven", "black_three", "table_minus_below_canastas", "rank_values", "red_three")
    JOKER_FIELD_NUMBER: _ClassVar[int]
    TWO_FIELD_NUMBER: _ClassVar[int]
    ACE_FIELD_NUMBER: _ClassVar[int]
    EIGHT_TO_KING_FIELD_NUMBER: _ClassVar[int]
    FOUR_TO_SEVEN_FIELD_NUMBER: _ClassVar[int]
    BLACK_THREE_FIELD_NUMBER: _ClassVar[int]
    TABLE_MINUS_BELOW_CANASTAS_FIELD_NUMBER: _ClassVar[int]
    RANK_VALUES_FIELD_NUMBER: _ClassVar[int]
    RED_THREE_FIELD_NUMBER: _ClassVar[int]
    joker: int
    two: int
    ace: int
    eight_to_king: int
    four_to_seven: int
    black_three: int
    table_minus_below_canastas: int
    rank_values: _containers.RepeatedCompositeFieldContainer[RankValue]
    red_three: int
    def __init__(self, joker: _Optional[int] = ..., two: _Optional[int] = ..., ace: _Optional[int] = ..., eight_to_king: _Optional[int] = ..., four_to_seven: _Optional[int] = ..., black_three: _Optional[int] = ..., table_minus_below_canastas: _Optional[int] = ..., rank_values: _Optional[_Iterable[_Union[RankValue, _Mapping]]] = ..., red_three: _Optional[int] = ...) -> None: ...

class RankValue(_message.Message):
    __slots__ = ("rank", "points")
    RANK_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    rank: NaturalRank
    points: int
    def __init__(self, rank: _Optional[_Union[NaturalRank, str]] = ..., points: _Optional[int] = ...) -> None: ...

class Melds(_message.Message):
    __slots__ = ("min_size", "min_naturals", "max_wilds", "wild_ratio", "max_size", "one_meld_per_rank", "wild_only_melds", "wilds_after_opening_min_naturals", "open_wild_meld_blocks_wilds", "rank_rules", "combine_same_rank", "one_open_meld_per_rank")
    MIN_SIZE_FIELD_NUMBER: _ClassVar[int]
    MIN_NATURALS_FIELD_NUMBER: _ClassVar[int]
    MAX_WILDS_FIELD_NUMBER: _ClassVar[int]
    WILD_RATIO_FIELD_NUMBER: _ClassVar[int]
    MAX_SIZE_FIELD_NUMBER: _ClassVar[int]
    ONE_MELD_PER_RANK_FIELD_NUMBER: _ClassVar[int]
    WILD_ONLY_MELDS_FIELD_NUMBER: _ClassVar[int]
    WILDS_AFTER_OPENING_MIN_NATURALS_FIELD_NUMBER: _ClassVar[int]
    OPEN_WILD_MELD_BLOCKS_WILDS_FIELD_NUMBER: _ClassVar[int]
    RANK_RULES_FIELD_NUMBER: _ClassVar[int]
    COMBINE_SAME_RANK_FIELD_NUMBER: _ClassVar[int]
    ONE_OPEN_MELD_PER_RANK_FIELD_NUMBER: _ClassVar[int]
    min_size: int
    min_naturals: int
    max_wilds: int
    wild_ratio: WildRatio
    max_size: int
    one_meld_per_rank: bool
    wild_only_melds: bool
    wilds_after_opening_min_naturals: int
    open_wild_meld_blocks_wilds: bool
    rank_rules: _containers.RepeatedCompositeFieldContainer[RankRule]
    combine_same_rank: bool
    one_open_meld_per_rank: bool
    def __init__(self, min_size: _Optional[int] = ..., min_naturals: _Optional[int] = ..., max_wilds: _Optional[int] = ..., wild_ratio: _Optional[_Union[WildRatio, str]] = ..., max_size: _Optional[int] = ..., one_meld_per_rank: _Optional[bool] = ..., wild_only_melds: _Optional[bool] = ..., wilds_after_opening_min_naturals: _Optional[int] = ..., open_wild_meld_blocks_wilds: _Optional[bool] = ..., rank_rules: _Optional[_Iterable[_Union[RankRule, _Mapping]]] = ..., combine_same_rank: _Optional[bool] = ..., one_open_meld_per_rank: _Optional[bool] = ...) -> None: ...

class Canastas(_message.Message):
    __slots__ = ("min_size", "natural_bonus", "mixed_bonus", "wild_may_join_natural", "wild_bonus", "wild_all_twos_bonus", "wild_all_jokers_bonus", "wild_unfinished_penalty", "wild_may_join_canasta")
    MIN_SIZE_FIELD_NUMBER: _ClassVar[int]
    NATURAL_BONUS_FIELD_NUMBER: _ClassVar[int]
    MIXED_BONUS_FIELD_NUMBER: _ClassVar[int]
    WILD_MAY_JOIN_NATURAL_FIELD_NUMBER: _ClassVar[int]
    WILD_BONUS_FIELD_NUMBER: _ClassVar[int]
    WILD_ALL_TWOS_BONUS_FIELD_NUMBER: _ClassVar[int]
    WILD_ALL_JOKERS_BONUS_FIELD_NUMBER: _ClassVar[int]
    WILD_UNFINISHED_PENALTY_FIELD_NUMBER: _ClassVar[int]
    WILD_MAY_JOIN_CANASTA_FIELD_NUMBER: _ClassVar[int]
    min_size: int
    natural_bonus: int
    mixed_bonus: int
    wild_may_join_natural: bool
    wild_bonus: int
    wild_all_twos_bonus: int
    wild_all_jokers_bonus: int
    wild_unfinished_penalty: int
    wild_may_join_canasta: bool
    def __init__(self, min_size: _Optional[int] = ..., natural_bonus: _Optional[int] = ..., mixed_bonus: _Optional[int] = ..., wild_may_join_natural: _Optional[bool] = ..., wild_bonus: _Optional[int] = ..., wild_all_twos_bonus: _Optional[int] = ..., wild_all_jokers_bonus: _Optional[int] = ..., wild_unfinished_penalty: _Optional[int] = ..., wild_may_join_canasta: _Optional[bool] = ...) -> None: ...

class MeldThreshold(_message.Message):
    __slots__ = ("from_score", "minimum")
    FROM_SCORE_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_FIELD_NUMBER: _ClassVar[int]
    from_score: int
    minimum: int
    def __init__(self, from_score: _Optional[int] = ..., minimum: _Optional[int] = ...) -> None: ...

class InitialMeld(_message.Message):
    __slots__ = ("minimum_below_table", "thresholds", "waived_for_concealed_going_out", "natural_meld_required", "no_mixed_canasta", "pile_top_counts", "minimum_by_hand")
    MINIMUM_BELOW_TABLE_FIELD_NUMBER: _ClassVar[int]
    THRESHOLDS_FIELD_NUMBER: _ClassVar[int]
    WAIVED_FOR_CONCEALED_GOING_OUT_FIELD_NUMBER: _ClassVar[int]
    NATURAL_MELD_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    NO_MIXED_CANASTA_FIELD_NUMBER: _ClassVar[int]
    PILE_TOP_COUNTS_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_BY_HAND_FIELD_NUMBER: _ClassVar[int]
    minimum_below_table: int
    thresholds: _containers.RepeatedCompositeFieldContainer[MeldThreshold]
    waived_for_concealed_going_out: bool
    natural_meld_required: int
    no_mixed_canasta: bool
    pile_top_counts: bool
    minimum_by_hand: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, minimum_below_table: _Optional[int] = ..., thresholds: _Optional[_Iterable[_Union[MeldThreshold, _Mapping]]] = ..., waived_for_concealed_going_out: _Optional[bool] = ..., natural_meld_required: _Optional[int] = ..., no_mixed_canasta: _Optional[bool] = ..., pile_top_counts: _Optional[bool] = ..., minimum_by_hand: _Optional[_Iterable[int]] = ...) -> None: ...

class DiscardPile(_message.Message):
    __slots__ = ("take_limit", "unfrozen_natural_and_wild", "unfrozen_onto_existing_meld", "frozen_by_wild", "frozen_by_upcard", "frozen_by_black_three", "frozen_until_initial_meld", "wild_top_blocks", "black_three_top_blocks", "one_card_hand_no_one_card_pile", "frozen_take_wilds", "closed_rank_dead", "no_wild_on_empty_pile", "wild_discard_last_resort", "onto_meld_below_canasta_only")
    TAKE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    UNFROZEN_NATURAL_AND_WILD_FIELD_NUMBER: _ClassVar[int]
    UNFROZEN_ONTO_EXISTING_MELD_FIELD_NUMBER: _ClassVar[int]
    FROZEN_BY_WILD_FIELD_NUMBER: _ClassVar[int]
    FROZEN_BY_UPCARD_FIELD_NUMBER: _ClassVar[int]
    FROZEN_BY_BLACK_THREE_FIELD_NUMBER: _ClassVar[int]
    FROZEN_UNTIL_INITIAL_MELD_FIELD_NUMBER: _ClassVar[int]
    WILD_TOP_BLOCKS_FIELD_NUMBER: _ClassVar[int]
    BLACK_THREE_TOP_BLOCKS_FIELD_NUMBER: _ClassVar[int]
    ONE_CARD_HAND_NO_ONE_CARD_PILE_FIELD_NUMBER: _ClassVar[int]
    FROZEN_TAKE_WILDS_FIELD_NUMBER: _ClassVar[int]
    CLOSED_RANK_DEAD_FIELD_NUMBER: _ClassVar[int]
    NO_WILD_ON_EMPTY_PILE_FIELD_NUMBER: _ClassVar[int]
    WILD_DISCARD_LAST_RESORT_FIELD_NUMBER: _ClassVar[int]
    ONTO_MELD_BELOW_CANASTA_ONLY_FIELD_NUMBER: _ClassVar[int]
    take_limit: int
    unfrozen_natural_and_wild: bool
    unfrozen_onto_existing_meld: bool
    frozen_by_wild: bool
    frozen_by_upcard: bool
    frozen_by_black_three: bool
    frozen_until_initial_meld: bool
    wild_top_blocks: bool
    black_three_top_blocks: bool
    one_card_hand_no_one_card_pile: bool
    frozen_take_wilds: bool
    closed_rank_dead: bool
    no_wild_on_empty_pile: bool
    wild_discard_last_resort: bool
    onto_meld_below_canasta_only: bool
    def __init__(self, take_limit: _Optional[int] = ..., unfrozen_natural_and_wild: _Optional[bool] = ..., unfrozen_onto_existing_meld: _Optional[bool] = ..., frozen_by_wild: _Optional[bool] = ..., frozen_by_upcard: _Optional[bool] = ..., frozen_by_black_three: _Optional[bool] = ..., frozen_until_initial_meld: _Optional[bool] = ..., wild_top_blocks: _Optional[bool] = ..., black_three_top_blocks: _Optional[bool] = ..., one_card_hand_no_one_card_pile: _Optional[bool] = ..., frozen_take_wilds: _Optional[bool] = ..., closed_rank_dead: _Optional[bool] = ..., no_wild_on_empty_pile: _Optional[bool] = ..., wild_discard_last_resort: _Optional[bool] = ..., onto_meld_below_canasta_only: _Optional[bool] = ...) -> None: ...

class Threes(_message.Message):
    __slots__ = ("red_three_bonus", "all_red_threes_bonus", "red_threes_negative_without_meld", "all_red_threes_negative_without_meld", "red_three_replaced", "red_three_from_pile_replaced", "black_three_meld_going_out_only", "black_three_meld_min", "black_three_meld_max", "black_three_meld_wilds", "black_three_meld_last_cards", "black_three_role", "count_values", "minus_below_canastas", "plus_from_canastas", "canastas_for_red_threes", "red_three_held")
    RED_THREE_BONUS_FIELD_NUMBER: _ClassVar[int]
    ALL_RED_THREES_BONUS_FIELD_NUMBER: _ClassVar[int]
    RED_THREES_NEGATIVE_WITHOUT_MELD_FIELD_NUMBER: _ClassVar[int]
    ALL_RED_THREES_NEGATIVE_WITHOUT_MELD_FIELD_NUMBER: _ClassVar[int]
    RED_THREE_REPLACED_FIELD_NUMBER: _ClassVar[int]
    RED_THREE_FROM_PILE_REPLACED_FIELD_NUMBER: _ClassVar[int]
    BLACK_THREE_MELD_GOING_OUT_ONLY_FIELD_NUMBER: _ClassVar[int]
    BLACK_THREE_MELD_MIN_FIELD_NUMBER: _ClassVar[int]
    BLACK_THREE_MELD_MAX_FIELD_NUMBER: _ClassVar[int]
    BLACK_THREE_MELD_WILDS_FIELD_NUMBER: _ClassVar[int]
    BLACK_THREE_MELD_LAST_CARDS_FIELD_NUMBER: _ClassVar[int]
    BLACK_THREE_ROLE_FIELD_NUMBER: _ClassVar[int]
    COUNT_VALUES_FIELD_NUMBER: _ClassVar[int]
    MINUS_BELOW_CANASTAS_FIELD_NUMBER: _ClassVar[int]
    PLUS_FROM_CANASTAS_FIELD_NUMBER: _ClassVar[int]
    CANASTAS_FOR_RED_THREES_FIELD_NUMBER: _ClassVar[int]
    RED_THREE_HELD_FIELD_NUMBER: _ClassVar[int]
    red_three_bonus: int
    all_red_threes_bonus: int
    red_threes_negative_without_meld: bool
    all_red_threes_negative_without_meld: bool
    red_three_replaced: bool
    red_three_from_pile_replaced: bool
    black_three_meld_going_out_only: bool
    black_three_meld_min: int
    black_three_meld_max: int
    black_three_meld_wilds: bool
    black_three_meld_last_cards: bool
    black_three_role: BlackThreeRole
    count_values: _containers.RepeatedScalarFieldContainer[int]
    minus_below_canastas: int
    plus_from_canastas: int
    canastas_for_red_threes: int
    red_three_held: bool
    def __init__(self, red_three_bonus: _Optional[int] = ..., all_red_threes_bonus: _Optional[int] = ..., red_threes_negative_without_meld: _Optional[bool] = ..., all_red_threes_negative_without_meld: _Optional[bool] = ..., red_three_replaced: _Optional[bool] = ..., red_three_from_pile_replaced: _Optional[bool] = ..., black_three_meld_going_out_only: _Optional[bool] = ..., black_three_meld_min: _Optional[int] = ..., black_three_meld_max: _Optional[int] = ..., black_three_meld_wilds: _Optional[bool] = ..., black_three_meld_last_cards: _Optional[bool] = ..., black_three_role: _Optional[_Union[BlackThreeRole, str]] = ..., count_values: _Optional[_Iterable[int]] = ..., minus_below_canastas: _Optional[int] = ..., plus_from_canastas: _Optional[int] = ..., canastas_for_red_threes: _Optional[int] = ..., red_three_held: _Optional[bool] = ...) -> None: ...

class GoingOut(_message.Message):
    __slots__ = ("canastas_required", "min_hand_after_meld_without_canastas", "bonus", "concealed_bonus", "discard_optional", "ask_partner", "cannot_go_out_after_yes_penalty", "concealed_with_final_discard", "ask_partner_max_per_hand", "unfinished_special_meld_blocks", "natural_canastas_required", "mixed_canastas_required", "partner_foot_required")
    CANASTAS_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    MIN_HAND_AFTER_MELD_WITHOUT_CANASTAS_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    CONCEALED_BONUS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_OPTIONAL_FIELD_NUMBER: _ClassVar[int]
    ASK_PARTNER_FIELD_NUMBER: _ClassVar[int]
    CANNOT_GO_OUT_AFTER_YES_PENALTY_FIELD_NUMBER: _ClassVar[int]
    CONCEALED_WITH_FINAL_DISCARD_FIELD_NUMBER: _ClassVar[int]
    ASK_PARTNER_MAX_PER_HAND_FIELD_NUMBER: _ClassVar[int]
    UNFINISHED_SPECIAL_MELD_BLOCKS_FIELD_NUMBER: _ClassVar[int]
    NATURAL_CANASTAS_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    MIXED_CANASTAS_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    PARTNER_FOOT_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    canastas_required: int
    min_hand_after_meld_without_canastas: int
    bonus: int
    concealed_bonus: int
    discard_optional: bool
    ask_partner: AskPartner
    cannot_go_out_after_yes_penalty: int
    concealed_with_final_discard: bool
    ask_partner_max_per_hand: int
    unfinished_special_meld_blocks: bool
    natural_canastas_required: int
    mixed_canastas_required: int
    partner_foot_required: bool
    def __init__(self, canastas_required: _Optional[int] = ..., min_hand_after_meld_without_canastas: _Optional[int] = ..., bonus: _Optional[int] = ..., concealed_bonus: _Optional[int] = ..., discard_optional: _Optional[bool] = ..., ask_partner: _Optional[_Union[AskPartner, str]] = ..., cannot_go_out_after_yes_penalty: _Optional[int] = ..., concealed_with_final_discard: _Optional[bool] = ..., ask_partner_max_per_hand: _Optional[int] = ..., unfinished_special_meld_blocks: _Optional[bool] = ..., natural_canastas_required: _Optional[int] = ..., mixed_canastas_required: _Optional[int] = ..., partner_foot_required: _Optional[bool] = ...) -> None: ...

class StockExhaustion(_message.Message):
    __slots__ = ("must_take_pile", "last_red_three", "after_last_card")
    MUST_TAKE_PILE_FIELD_NUMBER: _ClassVar[int]
    LAST_RED_THREE_FIELD_NUMBER: _ClassVar[int]
    AFTER_LAST_CARD_FIELD_NUMBER: _ClassVar[int]
    must_take_pile: MustTakePile
    last_red_three: LastRedThree
    after_last_card: AfterLastCard
    def __init__(self, must_take_pile: _Optional[_Union[MustTakePile, str]] = ..., last_red_three: _Optional[_Union[LastRedThree, str]] = ..., after_last_card: _Optional[_Union[AfterLastCard, str]] = ...) -> None: ...

class Runs(_message.Message):
    __slots__ = ("min_size", "max_size", "lowest_rank", "highest_rank", "canasta_size", "canasta_bonus", "pile_top_alone")
    MIN_SIZE_FIELD_NUMBER: _ClassVar[int]
    MAX_SIZE_FIELD_NUMBER: _ClassVar[int]
    LOWEST_RANK_FIELD_NUMBER: _ClassVar[int]
    HIGHEST_RANK_FIELD_NUMBER: _ClassVar[int]
    CANASTA_SIZE_FIELD_NUMBER: _ClassVar[int]
    CANASTA_BONUS_FIELD_NUMBER: _ClassVar[int]
    PILE_TOP_ALONE_FIELD_NUMBER: _ClassVar[int]
    min_size: int
    max_size: int
    lowest_rank: NaturalRank
    highest_rank: NaturalRank
    canasta_size: int
    canasta_bonus: int
    pile_top_alone: bool
    def __init__(self, min_size: _Optional[int] = ..., max_size: _Optional[int] = ..., lowest_rank: _Optional[_Union[NaturalRank, str]] = ..., highest_rank: _Optional[_Union[NaturalRank, str]] = ..., canasta_size: _Optional[int] = ..., canasta_bonus: _Optional[int] = ..., pile_top_alone: _Optional[bool] = ...) -> None: ...

class BonusCards(_message.Message):
    __slots__ = ("first_side", "later_side", "not_with_pile_take", "none_when_stock_at_most", "keep_only_discard")
    FIRST_SIDE_FIELD_NUMBER: _ClassVar[int]
    LATER_SIDE_FIELD_NUMBER: _ClassVar[int]
    NOT_WITH_PILE_TAKE_FIELD_NUMBER: _ClassVar[int]
    NONE_WHEN_STOCK_AT_MOST_FIELD_NUMBER: _ClassVar[int]
    KEEP_ONLY_DISCARD_FIELD_NUMBER: _ClassVar[int]
    first_side: int
    later_side: int
    not_with_pile_take: bool
    none_when_stock_at_most: int
    keep_only_discard: bool
    def __init__(self, first_side: _Optional[int] = ..., later_side: _Optional[int] = ..., not_with_pile_take: _Optional[bool] = ..., none_when_stock_at_most: _Optional[int] = ..., keep_only_discard: _Optional[bool] = ...) -> None: ...

class Foot(_message.Message):
    __slots__ = ("size", "continue_after_melding_out", "unplayed_counts")
    SIZE_FIELD_NUMBER: _ClassVar[int]
    CONTINUE_AFTER_MELDING_OUT_FIELD_NUMBER: _ClassVar[int]
    UNPLAYED_COUNTS_FIELD_NUMBER: _ClassVar[int]
    size: int
    continue_after_melding_out: bool
    unplayed_counts: bool
    def __init__(self, size: _Optional[int] = ..., continue_after_melding_out: _Optional[bool] = ..., unplayed_counts: _Optional[bool] = ...) -> None: ...

class Game(_message.Message):
    __slots__ = ("target_score", "hands")
    TARGET_SCORE_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    target_score: int
    hands: int
    def __init__(self, target_score: _Optional[int] = ..., hands: _Optional[int] = ...) -> None: ...

class RuleSet(_message.Message):
    __slots__ = ("id", "extends", "title", "description", "players", "deck", "deal", "turn", "card_values", "melds", "canastas", "initial_meld", "discard_pile", "threes", "going_out", "stock_exhaustion", "game", "bonus_cards", "runs", "foot", "rules", "choices")
    ID_FIELD_NUMBER: _ClassVar[int]
    EXTENDS_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    CARD_VALUES_FIELD_NUMBER: _ClassVar[int]
    MELDS_FIELD_NUMBER: _ClassVar[int]
    CANASTAS_FIELD_NUMBER: _ClassVar[int]
    INITIAL_MELD_FIELD_NUMBER: _ClassVar[int]
    DISCARD_PILE_FIELD_NUMBER: _ClassVar[int]
    THREES_FIELD_NUMBER: _ClassVar[int]
    GOING_OUT_FIELD_NUMBER: _ClassVar[int]
    STOCK_EXHAUSTION_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    BONUS_CARDS_FIELD_NUMBER: _ClassVar[int]
    RUNS_FIELD_NUMBER: _ClassVar[int]
    FOOT_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    id: str
    extends: str
    title: str
    description: str
    players: Players
    deck: Deck
    deal: Deal
    turn: Turn
    card_values: CardValues
    melds: Melds
    canastas: Canastas
    initial_meld: InitialMeld
    discard_pile: DiscardPile
    threes: Threes
    going_out: GoingOut
    stock_exhaustion: StockExhaustion
    game: Game
    bonus_cards: BonusCards
    runs: Runs
    foot: Foot
    rules: _containers.RepeatedCompositeFieldContainer[RuleNote]
    choices: _containers.RepeatedCompositeFieldContainer[Choice]
    def __init__(self, id: _Optional[str] = ..., extends: _Optional[str] = ..., title: _Optional[str] = ..., description: _Optional[str] = ..., players: _Optional[_Union[Players, _Mapping]] = ..., deck: _Optional[_Union[Deck, _Mapping]] = ..., deal: _Optional[_Union[Deal, _Mapping]] = ..., turn: _Optional[_Union[Turn, _Mapping]] = ..., card_values: _Optional[_Union[CardValues, _Mapping]] = ..., melds: _Optional[_Union[Melds, _Mapping]] = ..., canastas: _Optional[_Union[Canastas, _Mapping]] = ..., initial_meld: _Optional[_Union[InitialMeld, _Mapping]] = ..., discard_pile: _Optional[_Union[DiscardPile, _Mapping]] = ..., threes: _Optional[_Union[Threes, _Mapping]] = ..., going_out: _Optional[_Union[GoingOut, _Mapping]] = ..., stock_exhaustion: _Optional[_Union[StockExhaustion, _Mapping]] = ..., game: _Optional[_Union[Game, _Mapping]] = ..., bonus_cards: _Optional[_Union[BonusCards, _Mapping]] = ..., runs: _Optional[_Union[Runs, _Mapping]] = ..., foot: _Optional[_Union[Foot, _Mapping]] = ..., rules: _Optional[_Iterable[_Union[RuleNote, _Mapping]]] = ..., choices: _Optional[_Iterable[_Union[Choice, _Mapping]]] = ...) -> None: ...
