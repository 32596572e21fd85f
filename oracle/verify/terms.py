"""The vocabulary of the rule model: counts of a meld as Z3 terms, rules as labelled clauses, ranks by value class."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeAlias

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.model.cards import RANK_ACE, RANK_EIGHT, RANK_FOUR, RANK_KING, RANK_SEVEN
from oracle.ruleset.compiled import CompiledRules

# z3 ships no type information, so to mypy these are Any; they name what a term is for the reader.
Expr: TypeAlias = z3.ArithRef  #: an integer term
Cond: TypeAlias = z3.BoolRef  #: a Boolean term

NATURAL_RANKS = tuple(range(RANK_FOUR, RANK_ACE + 1))  #: rank indexes four .. ace
WILD_MELD = -1  #: rank of a meld of wild cards only (in MeldSlot.rank)


def simplifies_true(condition: Cond) -> bool:
    """Whether a condition without free terms simplifies to true."""
    return bool(z3.is_true(z3.simplify(condition)))


def rank_value_field(rank: int) -> str:
    """The card_values field that prices a natural rank."""
    if rank == RANK_ACE:
        return "ace"
    if RANK_EIGHT <= rank <= RANK_KING:
        return "eight_to_king"
    assert RANK_FOUR <= rank <= RANK_SEVEN, rank
    return "four_to_seven"


#: The natural ranks by the card_values field that prices them.
RANK_CLASSES: dict[str, tuple[int, ...]] = {
    name: tuple(r for r in NATURAL_RANKS if rank_value_field(r) == name)
    for name in ("four_to_seven", "eight_to_king", "ace")
}


@dataclass(frozen=True)
class Clause:
    """One rule as a Z3 condition, with the rule-set field it comes from and its meaning in words."""

    field: str  #: dotted rule-set field path, e.g. 'melds.max_wilds'
    text: str  #: the rule in plain words, e.g. 'a meld holds at most 3 wild cards'
    expr: Cond


@dataclass(frozen=True)
class MeldCounts:
    """The make-up of a meld as counts: naturals (black threes in a black-three meld), wilds, jokers among them."""

    naturals: Expr
    wilds: Expr
    jokers: Expr

    @property
    def twos(self) -> Expr:
        """The wilds that are twos."""
        return self.wilds - self.jokers

    @property
    def size(self) -> Expr:
        """Cards in the meld."""
        return self.naturals + self.wilds


def meld_counts(name: str) -> MeldCounts:
    """Fresh integer variables for a meld called `name`."""
    return MeldCounts(z3.Int(f"{name}.naturals"), z3.Int(f"{name}.wilds"), z3.Int(f"{name}.jokers"))


def fixed_meld(naturals: int, wilds: int = 0, jokers: int = 0) -> MeldCounts:
    """A meld of known counts."""
    return MeldCounts(z3.IntVal(naturals), z3.IntVal(wilds), z3.IntVal(jokers))


def spec_of(rules: CompiledRules | ruleset_pb2.RuleSet) -> ruleset_pb2.RuleSet:
    """The RuleSet message of either form."""
    return rules.spec if isinstance(rules, CompiledRules) else rules


def field_value(spec: ruleset_pb2.RuleSet, path: str) -> object:
    """The value at a dotted path such as 'melds.max_wilds' or 'initial_meld.thresholds[1].minimum'."""
    value: object = spec
    for part in path.split("."):
        match = re.fullmatch(r"(\w+)\[(\d+)\]", part)
        if match:
            value = getattr(value, match.group(1))[int(match.group(2))]
        else:
            value = getattr(value, part)
    return value


__all__ = [
    "NATURAL_RANKS",
    "RANK_CLASSES",
    "WILD_MELD",
    "Clause",
    "Cond",
    "Expr",
    "MeldCounts",
    "field_value",
    "fixed_meld",
    "meld_counts",
    "rank_value_field",
    "simplifies_true",
    "spec_of",
]
