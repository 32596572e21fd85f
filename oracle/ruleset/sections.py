"""The typed, frozen view of a rule set's sections: one small dataclass per RuleSet section, with the fields named
as in proto/oracle/api/v1/ruleset.proto, and the schema's enums as Python enums (same numbers).

``CompiledRules`` (oracle.ruleset.compiled) holds one of each: ``rules.melds.max_wilds`` is the rule-set field
``melds.max_wilds``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

# --- the schema's enums, as Python enums (same names without the prefix, same numbers) ----------------------------


class WildRatio(IntEnum):
    """melds.wild_ratio (ruleset_pb2.WildRatio)."""

    UNSPECIFIED = 0
    ANY = 1
    AT_MOST_NATURALS = 2
    FEWER_THAN_NATURALS = 3


class MustTakePile(IntEnum):
    """stock_exhaustion.must_take_pile (ruleset_pb2.MustTakePile)."""

    UNSPECIFIED = 0
    NEVER = 1
    WHEN_TOP_FITS_MELD = 2
    WHENEVER_ALLOWED = 3


class LastRedThree(IntEnum):
    """stock_exhaustion.last_red_three (ruleset_pb2.LastRedThree)."""

    UNSPECIFIED = 0
    ENDS_HAND = 1
    MAY_MELD_THEN_ENDS = 2


class SideFormation(IntEnum):
    """players.side_formation (ruleset_pb2.SideFormation)."""

    UNSPECIFIED = 0
    FIXED = 1
    LONE_HAND = 2


class AfterLastCard(IntEnum):
    """stock_exhaustion.after_last_card (ruleset_pb2.AfterLastCard)."""

    UNSPECIFIED = 0
    PLAY_ON = 1
    ENDS_AFTER_DISCARD = 2


class BlackThreeRole(IntEnum):
    """threes.black_three_role (ruleset_pb2.BlackThreeRole)."""

    UNSPECIFIED = 0
    BLOCKER = 1
    BONUS = 2


class AskPartner(IntEnum):
    """going_out.ask_partner (ruleset_pb2.AskPartner)."""

    UNSPECIFIED = 0
    NONE = 1
    OPTIONAL_BINDING = 2
    REQUIRED_BINDING = 50  #: a player must ask before going out (Hand and Foot)


# --- one frozen view per section (field names as in proto/oracle/api/v1/ruleset.proto) ---------------------------


@dataclass(frozen=True, slots=True)
class DeckRules:
    """deck.*"""

    packs: int
    jokers: int


@dataclass(frozen=True, slots=True)
class DealRules:
    """deal.*"""

    hand_size: int
    upcard_cover_wild: bool
    upcard_cover_red_three: bool
    upcard_cover_black_three: bool
    upcard_cover_repeats: bool
    upcard: bool  #: a first upcard starts the pile (false: the pile starts empty)
    upcard_reject_to_stock: bool = False  #: a rejected upcard goes into the stock's middle, not under a cover


@dataclass(frozen=True, slots=True)
class TurnRules:
    """turn.*"""

    draw_count: int
    short_stock_draws_remaining: bool


@dataclass(frozen=True, slots=True)
class CardValueRules:
    """card_values.* (the engine reads them through CompiledRules.card_points)."""

    joker: int
    two: int
    ace: int
    eight_to_king: int
    four_to_seven: int
    black_three: int
    table_minus_below_canastas: int  #: a side with fewer canastas counts its melded cards minus (0: never)
    rank_values: tuple[tuple[int, int], ...] = ()  #: (rank index, points) replacing the band for single ranks
    red_three: int = 0  #: a held red three's points (threes.red_three_held)


@dataclass(frozen=True, slots=True)
class RankRule:
    """One row of melds.rank_rules, its rank as a rank index of oracle.model.cards (seven 5, ace 12)."""

    rank: int
    max_wilds: int
    wilds_in_initial_meld: bool
    canasta_bonus: int
    unfinished_penalty: int
    held_min: int
    held_penalty: int
    no_discard_on_empty_pile: bool


@dataclass(frozen=True, slots=True)
class MeldRules:
    """melds.*"""

    min_size: int
    min_naturals: int
    max_wilds: int
    wild_ratio: WildRatio
    max_size: int  #: 0 = no limit
    one_meld_per_rank: bool
    wild_only_melds: bool
    wilds_after_opening_min_naturals: int  #: 0 = no such rule
    open_wild_meld_blocks_wilds: bool
    rank_rules: tuple[RankRule, ...]  #: in the spec's order
    combine_same_rank: bool  #: two melds of a rank may be put together (with one_meld_per_rank false)
    one_open_meld_per_rank: bool = False  #: no `new` meld of a rank while one of it is short of a canasta


@dataclass(frozen=True, slots=True)
class CanastaRules:
    """canastas.*"""

    min_size: int
    natural_bonus: int
    mixed_bonus: int
    wild_may_join_natural: bool
    wild_bonus: int  #: 0 = a canasta of wild cards scores mixed_bonus
    wild_all_twos_bonus: int  #: 0 = wild_bonus
    wild_all_jokers_bonus: int  #: 0 = wild_bonus
    wild_unfinished_penalty: int
    wild_may_join_canasta: bool  #: a wild card may join any canasta (natural ones: wild_may_join_natural too)


@dataclass(frozen=True, slots=True)
class InitialMeldRules:
    """initial_meld.* (thresholds as (from_score, minimum) rows, ascending)."""

    minimum_below_table: int
    thresholds: tuple[tuple[int, int], ...]
    waived_for_concealed_going_out: bool
    natural_meld_required: int  #: 0 = no such rule
    no_mixed_canasta: bool
    pile_top_counts: bool
    minimum_by_hand: tuple[int, ...] = ()  #: the minimum by hand number (entry i: hand i + 1); empty = thresholds


@dataclass(frozen=True, slots=True)
class DiscardPileRules:
    """discard_pile.*"""

    take_limit: int  #: 0 = the whole pile
    unfrozen_natural_and_wild: bool
    unfrozen_onto_existing_meld: bool
    frozen_by_wild: bool
    frozen_by_upcard: bool
    frozen_by_black_three: bool
    frozen_until_initial_meld: bool
    wild_top_blocks: bool
    black_three_top_blocks: bool
    one_card_hand_no_one_card_pile: bool
    frozen_take_wilds: bool  #: wilds may join the natural pair that takes a frozen pile
    closed_rank_dead: bool
    no_wild_on_empty_pile: bool
    wild_discard_last_resort: bool
    onto_meld_below_canasta_only: bool  #: the top card never joins a canasta


@dataclass(frozen=True, slots=True)
class ThreesRules:
    """threes.*"""

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
    black_three_meld_last_cards: bool  #: no final discard after a black-three meld
    black_three_role: BlackThreeRole
    count_values: tuple[int, ...]  #: empty = the classic per-card scoring
    minus_below_canastas: int
    plus_from_canastas: int
    canastas_for_red_threes: int  #: 0 = the classic test (any meld)
    red_three_held: bool = False  #: red threes stay in hand and count against (card_values.red_three)


@dataclass(frozen=True, slots=True)
class GoingOutRules:
    """going_out.*"""

    canastas_required: int
    min_hand_after_meld_without_canastas: int
    bonus: int
    concealed_bonus: int
    discard_optional: bool
    ask_partner: AskPartner
    cannot_go_out_after_yes_penalty: int  #: points; read only where a partner may be asked
    concealed_with_final_discard: bool  #: a concealed going out may end with a discard
    ask_partner_max_per_hand: int  #: 0 = no limit
    unfinished_special_meld_blocks: bool
    natural_canastas_required: int = 0  #: natural canastas needed to go out (with mixed: the whole condition)
    mixed_canastas_required: int = 0
    partner_foot_required: bool = False  #: both partners must have taken up their feet before either goes out


@dataclass(frozen=True, slots=True)
class StockExhaustionRules:
    """stock_exhaustion.*"""

    must_take_pile: MustTakePile
    last_red_three: LastRedThree
    after_last_card: AfterLastCard  #: whether play goes on once the stock is empty


@dataclass(frozen=True, slots=True)
class BonusCardRules:
    """bonus_cards.*"""

    first_side: int  #: 0 = no bonus cards
    later_side: int
    not_with_pile_take: bool
    none_when_stock_at_most: int
    keep_only_discard: bool


@dataclass(frozen=True, slots=True)
class RunRules:
    """runs.* (ranks as rank indexes: four = 2, ace = 12)."""

    min_size: int  #: 0 = no runs
    max_size: int  #: 0 = no limit
    lowest_rank: int
    highest_rank: int
    canasta_size: int
    canasta_bonus: int
    pile_top_alone: bool  #: the top card may join a run alone (never start one, never with hand cards)


@dataclass(frozen=True, slots=True)
class GameRules:
    """game.*"""

    target_score: int
    hands: int = 0  #: hands in a game (0: play to target_score)


@dataclass(frozen=True, slots=True)
class FootRules:
    """foot.*"""

    size: int  #: 0 = no foot
    continue_after_melding_out: bool
    unplayed_counts: bool


#: The sections of the view: CompiledRules attribute -> its dataclass (players.* are CompiledRules.seats and
#: CompiledRules.side_size).
SECTIONS: dict[str, type] = {
    "deck": DeckRules,
    "deal": DealRules,
    "turn": TurnRules,
    "card_values": CardValueRules,
    "melds": MeldRules,
    "canastas": CanastaRules,
    "initial_meld": InitialMeldRules,
    "discard_pile": DiscardPileRules,
    "threes": ThreesRules,
    "going_out": GoingOutRules,
    "stock_exhaustion": StockExhaustionRules,
    "bonus_cards": BonusCardRules,
    "runs": RunRules,
    "game": GameRules,
    "foot": FootRules,
}
