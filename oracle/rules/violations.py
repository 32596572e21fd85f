"""The catalogue of violation codes (stable, append-only), and violations with their citations."""

from __future__ import annotations

from dataclasses import dataclass

from oracle.ruleset.compiled import CompiledRules


@dataclass(frozen=True, slots=True)
class ViolationKind:
    """A rule an action can break: its stable code, the rule-set field it comes from, and what it means."""

    code: str  #: UPPER_SNAKE, never renamed
    field: str  #: rule-set field (or section) path
    summary: str  #: the rule in one sentence


@dataclass(frozen=True, slots=True)
class Violation:
    """One rule an action breaks, explained for this action."""

    code: str  #: the stable code
    field: str  #: the rule-set field the rule comes from
    explanation: str  #: what is wrong, naming the cards
    cite: tuple[tuple[str, str], ...] = ()  #: (source, section) pairs


_KINDS = [
    # Turn structure.
    ViolationKind("WRONG_PHASE", "turn", "Each turn is: draw or take the pile, then meld if you like, then discard."),
    ViolationKind("HAND_IS_OVER", "game", "No action is possible once the hand has ended."),
    ViolationKind("CARDS_NOT_IN_HAND", "turn", "A player can only play cards they hold."),
    # Drawing.
    ViolationKind(
        "MUST_TAKE_PILE",
        "stock_exhaustion.must_take_pile",
        "With the stock empty, the player must take the pile in the cases the rule set names.",
    ),
    # Taking the pile.
    ViolationKind("PILE_EMPTY", "discard_pile", "There is no pile to take."),
    ViolationKind(
        "PILE_TOP_WILD", "discard_pile.wild_top_blocks", "Nobody takes the pile while a wild card is on top."
    ),
    ViolationKind(
        "PILE_TOP_BLACK_THREE",
        "discard_pile.black_three_top_blocks",
        "A black three on top stops the next player taking the pile.",
    ),
    ViolationKind("PILE_TOP_RED_THREE", "threes", "A red three on top cannot be melded, so the pile cannot be taken."),
    ViolationKind(
        "PILE_FROZEN_NEEDS_NATURAL_PAIR",
        "discard_pile",
        "A frozen pile is taken only with two natural cards of the top card's rank from the hand.",
    ),
    ViolationKind(
        "PILE_TOP_NOT_MELDED",
        "discard_pile",
        "The top card must be melded at once: with cards from the hand or onto the side's meld.",
    ),
    ViolationKind(
        "PILE_NATURAL_AND_WILD_NOT_ALLOWED",
        "discard_pile.unfrozen_natural_and_wild",
        "This rule set does not let a natural and a wild take the pile.",
    ),
    ViolationKind(
        "PILE_ONTO_MELD_NOT_ALLOWED",
        "discard_pile.unfrozen_onto_existing_meld",
        "This rule set does not let the top card go onto an existing meld to take the pile.",
    ),
    ViolationKind(
        "PILE_ONE_CARD_WITH_ONE_CARD",
        "discard_pile.one_card_hand_no_one_card_pile",
        "A player holding one card may not take a pile of one card.",
    ),
    # Melds.
    ViolationKind("MELD_TOO_SMALL", "melds.min_size", "A new meld needs the minimum number of cards."),
    ViolationKind("MELD_TOO_FEW_NATURALS", "melds.min_naturals", "A meld needs the minimum number of natural cards."),
    ViolationKind("MELD_TOO_MANY_WILDS", "melds.max_wilds", "A meld may hold only so many wild cards."),
    ViolationKind(
        "MELD_WILDS_OUTNUMBER_NATURALS", "melds.wild_ratio", "This rule set limits wild cards relative to naturals."
    ),
    ViolationKind("MELD_TOO_LARGE", "melds.max_size", "This rule set caps the size of a meld."),
    ViolationKind("MELD_ALL_WILD", "melds.wild_only_melds", "Wild cards alone do not make a meld."),
    ViolationKind(
        "MELD_NO_SUCH_MELD",
        "melds.one_meld_per_rank",
        "Wild cards added on their own must join a meld the side already has.",
    ),
    ViolationKind(
        "BLACK_THREES_NOT_GOING_OUT",
        "threes.black_three_meld_going_out_only",
        "Black threes are melded only as the last meld when going out.",
    ),
    ViolationKind(
        "BLACK_THREE_MELD_SIZE",
        "threes.black_three_meld_min",
        "A black-three meld holds the number of black threes the rule set allows.",
    ),
    ViolationKind(
        "BLACK_THREE_MELD_WILDS", "threes.black_three_meld_wilds", "No wild card goes in a black-three meld."
    ),
    ViolationKind(
        "WILD_ON_NATURAL_CANASTA",
        "canastas.wild_may_join_natural",
        "This rule set does not let a wild card join a natural canasta.",
    ),
    ViolationKind(
        "INITIAL_MELD_BELOW_MINIMUM",
        "initial_meld.thresholds",
        "A side's first melds together must reach the minimum for its running total.",
    ),
    ViolationKind(
        "MUST_KEEP_CARDS",
        "going_out.min_hand_after_meld_without_canastas",
        "Until the side has its canastas, a player keeps enough cards to discard and hold one.",
    ),
    # Going out.
    ViolationKind(
        "GO_OUT_WITHOUT_CANASTAS", "going_out.canastas_required", "A side needs the required canastas to go out."
    ),
    ViolationKind(
        "GO_OUT_NEEDS_DISCARD", "going_out.discard_optional", "This rule set requires a final discard to go out."
    ),
    ViolationKind(
        "GO_OUT_PARTNER_SAID_NO",
        "going_out.ask_partner",
        "After the partner answers no, the player may not go out this turn.",
    ),
    ViolationKind(
        "MUST_GO_OUT_PARTNER_SAID_YES",
        "going_out.ask_partner",
        "After the partner answers yes, the player must go out this turn.",
    ),
    ViolationKind("ASK_NOT_ALLOWED", "going_out.ask_partner", "This rule set has no partner to ask."),
    ViolationKind(
        "ASK_AFTER_MELDING",
        "going_out.ask_partner",
        "The partner is asked right after drawing, before anything is melded.",
    ),
    ViolationKind("ASK_ALREADY_ANSWERED", "going_out.ask_partner", "The partner is asked at most once a turn."),
    # The last stock card a red three.
    ViolationKind(
        "LAST_RED_THREE_NO_DISCARD",
        "stock_exhaustion.last_red_three",
        "After a last-card red three the hand ends without a discard.",
    ),
]

KINDS: dict[str, ViolationKind] = {k.code: k for k in _KINDS}


def violation(rules: CompiledRules, code: str, explanation: str, field: str | None = None) -> Violation:
    """A Violation of a catalogued code; `field` overrides the catalogue's field where a specific one applies."""
    kind = KINDS[code]
    where = field or kind.field
    return Violation(code, where, explanation, rules.cites.get(where, ()))
