"""The types of the violation registry: the stable codes, a rule (field, meaning, explanation templates) and a
violation as a verdict carries it."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from string import Formatter
from types import MappingProxyType

#: How every meld-rule template ends: the meld it judges ("new meld 9H 9S", "meld (with the cards added) ...").
MELD_SUFFIX = ": {meld}"


class Code(StrEnum):
    """The stable violation codes (UPPER_SNAKE; append-only, never renamed)."""

    WRONG_PHASE = "WRONG_PHASE"
    HAND_IS_OVER = "HAND_IS_OVER"
    CARDS_NOT_IN_HAND = "CARDS_NOT_IN_HAND"
    MUST_TAKE_PILE = "MUST_TAKE_PILE"
    PILE_EMPTY = "PILE_EMPTY"
    PILE_TOP_WILD = "PILE_TOP_WILD"
    PILE_TOP_BLACK_THREE = "PILE_TOP_BLACK_THREE"
    PILE_TOP_RED_THREE = "PILE_TOP_RED_THREE"
    PILE_FROZEN_NEEDS_NATURAL_PAIR = "PILE_FROZEN_NEEDS_NATURAL_PAIR"
    PILE_TOP_NOT_MELDED = "PILE_TOP_NOT_MELDED"
    PILE_NATURAL_AND_WILD_NOT_ALLOWED = "PILE_NATURAL_AND_WILD_NOT_ALLOWED"
    PILE_ONTO_MELD_NOT_ALLOWED = "PILE_ONTO_MELD_NOT_ALLOWED"
    PILE_ONE_CARD_WITH_ONE_CARD = "PILE_ONE_CARD_WITH_ONE_CARD"
    MELD_TOO_SMALL = "MELD_TOO_SMALL"
    MELD_TOO_FEW_NATURALS = "MELD_TOO_FEW_NATURALS"
    MELD_TOO_MANY_WILDS = "MELD_TOO_MANY_WILDS"
    MELD_WILDS_OUTNUMBER_NATURALS = "MELD_WILDS_OUTNUMBER_NATURALS"
    MELD_TOO_LARGE = "MELD_TOO_LARGE"
    MELD_ALL_WILD = "MELD_ALL_WILD"
    MELD_NO_SUCH_MELD = "MELD_NO_SUCH_MELD"
    BLACK_THREES_NOT_GOING_OUT = "BLACK_THREES_NOT_GOING_OUT"
    BLACK_THREE_MELD_SIZE = "BLACK_THREE_MELD_SIZE"
    BLACK_THREE_MELD_WILDS = "BLACK_THREE_MELD_WILDS"
    WILD_ON_NATURAL_CANASTA = "WILD_ON_NATURAL_CANASTA"
    INITIAL_MELD_BELOW_MINIMUM = "INITIAL_MELD_BELOW_MINIMUM"
    MUST_KEEP_CARDS = "MUST_KEEP_CARDS"
    GO_OUT_WITHOUT_CANASTAS = "GO_OUT_WITHOUT_CANASTAS"
    GO_OUT_NEEDS_DISCARD = "GO_OUT_NEEDS_DISCARD"
    GO_OUT_PARTNER_SAID_NO = "GO_OUT_PARTNER_SAID_NO"
    MUST_GO_OUT_PARTNER_SAID_YES = "MUST_GO_OUT_PARTNER_SAID_YES"
    ASK_NOT_ALLOWED = "ASK_NOT_ALLOWED"
    ASK_AFTER_MELDING = "ASK_AFTER_MELDING"
    ASK_ALREADY_ANSWERED = "ASK_ALREADY_ANSWERED"
    LAST_RED_THREE_NO_DISCARD = "LAST_RED_THREE_NO_DISCARD"
    TWO_STEP_TAKE_INCOMPLETE = "TWO_STEP_TAKE_INCOMPLETE"
    MELD_WILDS_NEED_BASE = "MELD_WILDS_NEED_BASE"
    WILD_MELD_OPEN = "WILD_MELD_OPEN"
    MELD_RANK_DEAD = "MELD_RANK_DEAD"
    PILE_TOP_DEAD = "PILE_TOP_DEAD"
    DISCARD_RESTRICTED = "DISCARD_RESTRICTED"
    INITIAL_MELD_NEEDS_NATURAL_MELD = "INITIAL_MELD_NEEDS_NATURAL_MELD"
    INITIAL_MELD_MIXED_CANASTA = "INITIAL_MELD_MIXED_CANASTA"
    GO_OUT_WITH_UNFINISHED_MELD = "GO_OUT_WITH_UNFINISHED_MELD"
    ASK_LIMIT_REACHED = "ASK_LIMIT_REACHED"
    # Samba: runs, meld targets, several melds of a rank, combining them, the top card and canastas
    RUNS_NOT_ALLOWED = "RUNS_NOT_ALLOWED"
    RUN_WILD_CARD = "RUN_WILD_CARD"
    RUN_MIXED_SUITS = "RUN_MIXED_SUITS"
    RUN_NOT_CONSECUTIVE = "RUN_NOT_CONSECUTIVE"
    RUN_RANK_OUT_OF_RANGE = "RUN_RANK_OUT_OF_RANGE"
    RUN_TOO_SMALL = "RUN_TOO_SMALL"
    RUN_TOO_LARGE = "RUN_TOO_LARGE"
    MELD_TARGET_OTHER_RANK = "MELD_TARGET_OTHER_RANK"
    MELD_SECOND_OF_RANK = "MELD_SECOND_OF_RANK"
    PILE_TOP_CANNOT_START_RUN = "PILE_TOP_CANNOT_START_RUN"
    PILE_TOP_RUN_WITH_HAND_CARDS = "PILE_TOP_RUN_WITH_HAND_CARDS"
    PILE_TOP_ONTO_RUN_NOT_ALLOWED = "PILE_TOP_ONTO_RUN_NOT_ALLOWED"
    PILE_ONTO_CANASTA_NOT_ALLOWED = "PILE_ONTO_CANASTA_NOT_ALLOWED"
    COMBINE_NOT_ALLOWED = "COMBINE_NOT_ALLOWED"
    COMBINE_DIFFERENT_RANKS = "COMBINE_DIFFERENT_RANKS"
    COMBINE_BREAKS_MELD = "COMBINE_BREAKS_MELD"
    WILD_ON_CANASTA = "WILD_ON_CANASTA"
    # Hand and Foot
    FOOT_NOT_YET = "FOOT_NOT_YET"
    GO_OUT_BOOKS_MISSING = "GO_OUT_BOOKS_MISSING"
    GO_OUT_WITHOUT_ASKING = "GO_OUT_WITHOUT_ASKING"
    GO_OUT_PARTNER_FOOT_NOT_TAKEN = "GO_OUT_PARTNER_FOOT_NOT_TAKEN"
    MELD_OPEN_OF_RANK_EXISTS = "MELD_OPEN_OF_RANK_EXISTS"


@functools.cache
def template_params(template: str) -> frozenset[str]:
    """The named parameters of a template."""
    return frozenset(name for _, name, _, _ in Formatter().parse(template) if name is not None)


def _format(text: str, label: str, params: dict[str, object]) -> str:
    expected = template_params(text)
    if params.keys() != expected:
        raise TypeError(f"{label} takes {sorted(expected)}, got {sorted(params)}")
    return text.format(**params)


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule an action can break: its code, the rule-set field it comes from, what it means, how a breach reads."""

    code: Code
    field: str  #: rule-set field (or section) path; a check may name a more specific field of the same rule
    summary: str  #: the rule in one sentence
    template: str  #: the explanation of a breach, with named parameters
    variants: Mapping[str, str] = dataclasses.field(default_factory=dict)  #: other wordings, by name (read only)

    def __post_init__(self) -> None:
        object.__setattr__(self, "variants", MappingProxyType(dict(self.variants)))

    def text(self, variant: str = "") -> str:
        """The template of a variant ('' for the main one); KeyError for an unknown variant."""
        return self.variants[variant] if variant else self.template

    def format(self, variant: str = "", **params: object) -> str:
        """The explanation; TypeError unless `params` are exactly the template's parameters."""
        return _format(self.text(variant), f"{self.code}{'/' + variant if variant else ''}", params)

    def reason(self, variant: str = "", **params: object) -> str:
        """A meld rule's explanation without the meld it judges (the template up to MELD_SUFFIX)."""
        text = self.text(variant)
        if not text.endswith(MELD_SUFFIX):
            raise ValueError(f"{self.code} is not a meld rule: its template does not end in {MELD_SUFFIX!r}")
        return _format(text.removesuffix(MELD_SUFFIX), f"{self.code}{'/' + variant if variant else ''}", params)


@dataclass(frozen=True, slots=True)
class Violation:
    """One rule an action breaks, explained for this action."""

    code: Code  #: the stable code
    field: str  #: the rule-set field the rule comes from
    explanation: str  #: what is wrong, naming the cards
    cite: tuple[tuple[str, str], ...] = ()  #: (source, section) pairs
