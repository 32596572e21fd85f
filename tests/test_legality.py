"""Legality: one targeted case per violation code, its legal counterpart, the seed examples, and robustness.

Every illegal case asserts the exact list of codes, the rule-set field of each
violation and its citation; every legal counterpart asserts that the next state
is consistent (validate_state) and still holds every card of its deck. Variants of the
shipped rule sets are built here with RuleBook.from_texts, each overriding one
field with its own cited rule note.
"""

from __future__ import annotations

import copy
import functools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from importlib import resources

import pytest
from american_states import american
from hand_and_foot_states import CLEAN, DIRTY, FOOT, OPEN
from hand_and_foot_states import foot_state as hf
from helpers import judge, make_state

from oracle.model.actions import parse_action
from oracle.model.cards import deck, is_red_three, parse_cards
from oracle.model.errors import InvalidInputError
from oracle.model.events import CanastaMade, CardsDrawn, HandEnded, PileTaken, RedThreeLaid
from oracle.model.score import ScoreItem
from oracle.model.state import GameState, HandEnd, PartnerAnswer, Phase, TurnStart
from oracle.rules.referee import Verdict, check_action
from oracle.rules.state_check import InvalidStateError, validate_state
from oracle.rules.violations import Code
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import RuleBook, default_rule_book

# --- rule sets: the shipped ones and the test variants ---------------------------------------------------------

SPECS = resources.files("oracle.specs")
BASE_TEXTS = {
    name: (SPECS / name).read_text(encoding="utf-8")
    for name in ("classic-2p.textproto", "classic-4p.textproto", "samba-4p.textproto", "hand-and-foot-4p.textproto")
}
SOURCES_TEXT = (SPECS / "sources.textproto").read_text(encoding="utf-8")
DIFFER = "Other versions, and where the rule books differ"


@dataclass(frozen=True)
class Variant:
    """A one-field variant of a classic rule set, with its cited note."""

    extends: str
    override: str  #: text-format override, e.g. 'melds { max_size: 7 }'
    field: str  #: the field it overrides (and its note's field)
    text: str  #: the note's text
    section: str  #: the 4P-CLASSIC section the note cites


VARIANTS: dict[str, Variant] = {
    "test-pair-only": Variant(
        "classic-4p",
        "discard_pile { unfrozen_natural_and_wild: false }",
        "discard_pile.unfrozen_natural_and_wild",
        "Even an unfrozen pile is taken only with a natural pair.",
        DIFFER,
    ),
    "test-no-onto-meld": Variant(
        "classic-4p",
        "discard_pile { unfrozen_onto_existing_meld: false }",
        "discard_pile.unfrozen_onto_existing_meld",
        "The top card may not simply go onto the side's meld to take the pile.",
        DIFFER,
    ),
    "test-one-card-pile": Variant(
        "classic-4p",
        "discard_pile { one_card_hand_no_one_card_pile: true }",
        "discard_pile.one_card_hand_no_one_card_pile",
        "A player holding one card may not take a pile of one card (Bicycle).",
        DIFFER,
    ),
    "test-wild-ratio": Variant(
        "classic-4p",
        "melds { wild_ratio: WILD_RATIO_AT_MOST_NATURALS }",
        "melds.wild_ratio",
        "Wild cards may never outnumber the naturals of a meld.",
        DIFFER,
    ),
    "test-max-seven": Variant(
        "classic-4p", "melds { max_size: 7 }", "melds.max_size", "A meld never holds more than seven cards.", DIFFER
    ),
    "test-natural-stays": Variant(
        "classic-4p",
        "canastas { wild_may_join_natural: false }",
        "canastas.wild_may_join_natural",
        "No wild card may join a natural canasta.",
        "Canastas",
    ),
    "test-discard-to-go-out": Variant(
        "classic-4p",
        "going_out { discard_optional: false }",
        "going_out.discard_optional",
        "Going out always ends with a discard.",
        "Going out",
    ),
    "test-must-take": Variant(
        "classic-4p",
        "stock_exhaustion { must_take_pile: MUST_TAKE_PILE_WHENEVER_ALLOWED }",
        "stock_exhaustion.must_take_pile",
        "With the stock gone a player must take the pile whenever that is allowed (Wikipedia).",
        DIFFER,
    ),
    "test-samba-no-runs": Variant(
        "samba-4p",
        "runs { min_size: 0 }",
        "runs.min_size",
        "No runs: melds are of one rank only (as in Canasta).",
        DIFFER,
    ),
    "test-samba-one-per-rank": Variant(
        "samba-4p",
        "melds { one_meld_per_rank: true }",
        "melds.one_meld_per_rank",
        "One meld of a rank per side (as in Canasta).",
        "Melds and canastas",
    ),
    "test-samba-no-combine": Variant(
        "samba-4p",
        "melds { combine_same_rank: false }",
        "melds.combine_same_rank",
        "Two melds of one rank are never put together.",
        DIFFER,
    ),
    "test-samba-pile-not-onto-runs": Variant(
        "samba-4p",
        "runs { pile_top_alone: false }",
        "runs.pile_top_alone",
        "The pile's top card never joins a run.",
        DIFFER,
    ),
    "test-hf-walk-only": Variant(
        "hand-and-foot-4p",
        "foot { continue_after_melding_out: false }",
        "foot.continue_after_melding_out",
        "The foot is taken up only with the discard of the hand's last card.",
        "Going out",
    ),
    "test-hf-both-feet": Variant(
        "hand-and-foot-4p",
        "going_out { partner_foot_required: true }",
        "going_out.partner_foot_required",
        "Neither partner goes out until both have taken up their feet.",
        "Going out",
    ),
    "test-last-red-melds": Variant(
        "classic-4p",
        "stock_exhaustion { last_red_three: LAST_RED_THREE_MAY_MELD_THEN_ENDS }",
        "stock_exhaustion.last_red_three",
        "After a last-card red three the player may meld; the hand ends without a discard.",
        "Going out",
    ),
}


def variant_text(variant_id: str, v: Variant) -> str:
    return (
        f'id: "{variant_id}"\nextends: "{v.extends}"\ntitle: "Test variant {variant_id}"\n{v.override}\n'
        f'rules {{\n  field: "{v.field}"\n  text: "{v.text}"\n'
        f'  cite {{ source: "4P-CLASSIC" section: "{v.section}" }}\n}}\n'
    )


@functools.cache
def variant_book() -> RuleBook:
    texts = dict(BASE_TEXTS)
    texts.update({f"{vid}.textproto": variant_text(vid, v) for vid, v in VARIANTS.items()})
    return RuleBook.from_texts(texts, SOURCES_TEXT)


def rules_of(rule_set: str) -> CompiledRules:
    """A shipped rule set by id, or a test variant by its id."""
    if rule_set in VARIANTS:
        return variant_book().get(rule_set).rules
    return default_rule_book().get(rule_set).rules


def check(rule_set: str, state: GameState, action: str, *, runs: bool | None = None) -> Verdict:
    return check_action(rules_of(rule_set), state, parse_action(action), runs=runs)


def codes(verdict: Verdict) -> list[str]:
    return [v.code for v in verdict.violations]


# --- states ------------------------------------------------------------------------------------------------------
# Filler cards for the other seats are sixes and sevens, which no test hand uses.

PLAY = {"phase": "PHASE_PLAY", "turn": {"start": "TURN_START_DREW"}}
K7 = "KC KC KD KD KH KH KS"  # a natural canasta of kings (70 points)
Q7 = "QC QC QD QD QH QH QS"  # a natural canasta of queens (70 points)


def two(
    hand: str, *, melds: tuple[str, ...] = (), opp: str = "6C 7D", opp_melds: tuple[str, ...] = (), **kw: object
) -> GameState:
    """A classic-2p state with seat 0 to move (every unplaced card in the stock)."""
    return make_state("classic-2p", hands=[hand, opp], melds=[list(melds), list(opp_melds)], **kw)  # type: ignore[arg-type]


def four(
    hand: str, *, melds: tuple[str, ...] = (), partner: str = "6D 7C", opp_melds: tuple[str, ...] = (), **kw: object
) -> GameState:
    """A classic-4p state with seat 0 to move; seat 2 is the partner."""
    return make_state(
        "classic-4p",
        hands=[hand, "6C 7D", partner, "6H 7H"],  # type: ignore[arg-type]
        melds=[list(melds), list(opp_melds)],
        **kw,
    )


def shrink_stock(state: GameState, keep: int = 0, seat: int = 1) -> GameState:
    """The state with only the top `keep` stock cards left: the rest go to `seat` (red threes laid for its side)."""
    cut = len(state.stock) - keep
    moved, kept = state.stock[:cut], state.stock[cut:]
    reds = tuple(c for c in moved if is_red_three(c))
    others = tuple(c for c in moved if not is_red_three(c))
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], hand=seats[seat].hand + others)
    sides = list(state.sides)
    side = seat % len(sides)
    sides[side] = replace(sides[side], red_threes=sides[side].red_threes + reds)
    return replace(state, seats=tuple(seats), sides=tuple(sides), stock=kept)


def all_cards(state: GameState) -> Counter[int]:
    """Every card the state places: hands, feet, melds, red threes, stock and pile."""
    found: Counter[int] = Counter()
    for seat in state.seats:
        found.update(seat.hand)
        found.update(seat.foot)
    for side in state.sides:
        for meld in side.melds:
            found.update(meld)
        found.update(side.red_threes)
    found.update(state.stock)
    found.update(state.discard_pile)
    return found


FULL_DECK = Counter(deck(2, 4))


def assert_legal(rule_set: str, state: GameState, action: str) -> Verdict:
    """The action is legal, and its next state is consistent and holds every card of the rule set's deck."""
    verdict = check(rule_set, state, action)
    assert verdict.legal, [(v.code, v.explanation) for v in verdict.violations]
    assert verdict.violations == ()
    assert verdict.next_state is not None
    assert validate_state(rules_of(rule_set), verdict.next_state) == []
    cards = all_cards(verdict.next_state)
    rules = rules_of(rule_set)
    full = Counter(deck(rules.deck.packs, rules.deck.jokers))
    assert sum(cards.values()) == sum(full.values())
    assert cards == full
    return verdict


def assert_illegal(
    rule_set: str, state: GameState, action: str, expected: list[tuple[str, str]], *, runs: bool | None = None
) -> Verdict:
    """The action breaks exactly `expected` (code, field) rules, each cited."""
    rules = rules_of(rule_set)
    assert validate_state(rules, state) == []
    verdict = check(rule_set, state, action, runs=runs)
    assert not verdict.legal
    assert verdict.next_state is None
    assert verdict.events == ()
    assert [(v.code, v.field) for v in verdict.violations] == expected
    for v in verdict.violations:
        assert v.cite, f"{v.code} at {v.field} cites nothing"
        assert v.cite == rules.cites[v.field]
        assert v.explanation
    if rule_set in VARIANTS:  # the overridden field cites the variant's own note
        variant = VARIANTS[rule_set]
        for v in verdict.violations:
            if v.field == variant.field:
                assert v.cite == (("4P-CLASSIC", variant.section),)
    return verdict


# --- 1. one illegal case per violation code ----------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    rule_set: str
    state: GameState
    action: str
    expected: list[tuple[str, str]]  #: (code, field) of each violation, in order
    #: the shape layer's runs flag (check_action's `runs`): True where the action is judged as it is beside a rule
    #: set with runs (adjudicate); None: the rule set's own
    runs: bool | None = None


ILLEGAL: dict[str, Callable[[], Case]] = {}
LEGAL: dict[str, Callable[[], tuple[str, GameState, str]]] = {}


def illegal(code: str) -> Callable[[Callable[[], Case]], Callable[[], Case]]:
    def register(builder: Callable[[], Case]) -> Callable[[], Case]:
        assert code not in ILLEGAL
        ILLEGAL[code] = builder
        return builder

    return register


def legal(code: str) -> Callable[[Callable[[], tuple[str, GameState, str]]], Callable[[], tuple[str, GameState, str]]]:
    def register(builder: Callable[[], tuple[str, GameState, str]]) -> Callable[[], tuple[str, GameState, str]]:
        assert code not in LEGAL
        LEGAL[code] = builder
        return builder

    return register


# Turn structure.


@illegal("WRONG_PHASE")
def _wrong_phase() -> Case:
    # classic-2p; hand: 9H 9D KS; seat 0 has already drawn (PLAY) and draws again.
    return Case("classic-2p", two("9H 9D KS", **PLAY), "draw", [("WRONG_PHASE", "turn")])


@legal("WRONG_PHASE")
def _wrong_phase_ok() -> tuple[str, GameState, str]:
    # The same hand at the start of the turn (DRAW): drawing is the first step.
    return "classic-2p", two("9H 9D KS"), "draw"


def _stock_gone() -> GameState:
    # classic-2p; hand: 9H 9D KS; pile: 5C (no 5s melded); the stock is empty (its cards are in seat 1's hand).
    return shrink_stock(two("9H 9D KS", pile="5C"))


@illegal("HAND_IS_OVER")
def _hand_is_over() -> Case:
    # Drawing from the empty stock ends the hand; any action after that is refused.
    over = check("classic-2p", _stock_gone(), "draw").next_state
    assert over is not None and over.phase == Phase.HAND_OVER
    return Case("classic-2p", over, "discard KS", [("HAND_IS_OVER", "game")])


@legal("HAND_IS_OVER")
def _hand_is_over_ok() -> tuple[str, GameState, str]:
    # The draw that ended it (the stock is empty and the 5C top fits no meld: no duty to take the pile).
    return "classic-2p", _stock_gone(), "draw"


@illegal("CARDS_NOT_IN_HAND")
def _not_in_hand() -> Case:
    # classic-2p; hand: 9H 9D KS; discards a QS it does not hold.
    return Case("classic-2p", two("9H 9D KS", **PLAY), "discard QS", [("CARDS_NOT_IN_HAND", "turn")])


@legal("CARDS_NOT_IN_HAND")
def _not_in_hand_ok() -> tuple[str, GameState, str]:
    return "classic-2p", two("9H 9D KS", **PLAY), "discard KS"


# Drawing.


def _must_take_state() -> GameState:
    # classic-2p; hand: KH QH JH; side 0 has 9C 9D 9H; pile: 4C 9S (unfrozen); the stock is empty.
    return shrink_stock(two("KH QH JH", melds=("9C 9D 9H",), pile="4C 9S"))


@illegal("MUST_TAKE_PILE")
def _must_take() -> Case:
    # The top 9S goes on the side's nines and the pile is not frozen: declining it (draw) is not allowed.
    return Case("classic-2p", _must_take_state(), "draw", [("MUST_TAKE_PILE", "stock_exhaustion.must_take_pile")])


@legal("MUST_TAKE_PILE")
def _must_take_ok() -> tuple[str, GameState, str]:
    return "classic-2p", _must_take_state(), "take-pile"


# Taking the pile.


@illegal("PILE_EMPTY")
def _pile_empty() -> Case:
    # classic-2p; hand: 9H 9D KS; no discard pile at all.
    return Case(
        "classic-2p", two("9H 9D KS", melds=("KC KD KH",)), "take-pile with 9H 9D", [("PILE_EMPTY", "discard_pile")]
    )


@legal("PILE_EMPTY")
def _pile_empty_ok() -> tuple[str, GameState, str]:
    # The same hand with a pile topped by 9S: the natural pair takes it.
    return "classic-2p", two("9H 9D KS", melds=("KC KD KH",), pile="5C 9S"), "take-pile with 9H 9D"


@illegal("PILE_TOP_WILD")
def _top_wild() -> Case:
    # classic-2p; hand: 9H 9D KS QS; pile: 9S 2D (a wild on top).
    return Case(
        "classic-2p",
        two("9H 9D KS QS", melds=("KC KD KH",), pile="9S 2D"),
        "take-pile with 9H 9D",
        [("PILE_TOP_WILD", "discard_pile.wild_top_blocks")],
    )


@legal("PILE_TOP_WILD")
def _top_wild_ok() -> tuple[str, GameState, str]:
    # pile: 5C 2D 9S: the wild is covered; the pile is frozen, and the natural pair takes it.
    return "classic-2p", two("9H 9D KS QS", melds=("KC KD KH",), pile="5C 2D 9S"), "take-pile with 9H 9D"


@illegal("PILE_TOP_BLACK_THREE")
def _top_black_three() -> Case:
    # classic-2p; hand: 3C 3C KS QS; pile: 9S 3S (a black three on top).
    return Case(
        "classic-2p",
        two("3C 3C KS QS", melds=("KC KD KH",), pile="9S 3S"),
        "take-pile with 3C 3C",
        [("PILE_TOP_BLACK_THREE", "discard_pile.black_three_top_blocks")],
    )


@legal("PILE_TOP_BLACK_THREE")
def _top_black_three_ok() -> tuple[str, GameState, str]:
    # pile: 3S 9S: the black three is covered and does not freeze the pile; 9H 9D take it.
    return "classic-2p", two("9H 9D KS QS", melds=("KC KD KH",), pile="3S 9S"), "take-pile with 9H 9D"


@illegal("PILE_TOP_RED_THREE")
def _top_red_three() -> Case:
    # classic-2p (the upcard is not covered); pile: 3H, the upcard; hand: 9H 9D KS QS.
    return Case(
        "classic-2p",
        two("9H 9D KS QS", melds=("KC KD KH",), pile="3H", upcards=1),
        "take-pile with 9H 9D",
        [("PILE_TOP_RED_THREE", "threes")],
    )


@legal("PILE_TOP_RED_THREE")
def _top_red_three_ok() -> tuple[str, GameState, str]:
    # pile: 3H (upcard) 9S: frozen by the upcard; 9H 9D take it and the 3H is laid without a replacement.
    return "classic-2p", two("9H 9D KS QS", melds=("KC KD KH",), pile="3H 9S", upcards=1), "take-pile with 9H 9D"


@illegal("PILE_FROZEN_NEEDS_NATURAL_PAIR")
def _frozen() -> Case:
    # classic-2p; hand: 9H JK QS QD; pile: 5C 2D 9S, frozen by the wild underneath.
    return Case(
        "classic-2p",
        two("9H JK QS QD", melds=("KC KD KH",), pile="5C 2D 9S"),
        "take-pile with 9H JK",
        [("PILE_FROZEN_NEEDS_NATURAL_PAIR", "discard_pile.frozen_by_wild")],
    )


@legal("PILE_FROZEN_NEEDS_NATURAL_PAIR")
def _frozen_ok() -> tuple[str, GameState, str]:
    return "classic-2p", two("9H 9D QS QD", melds=("KC KD KH",), pile="5C 2D 9S"), "take-pile with 9H 9D"


@illegal("PILE_TOP_NOT_MELDED")
def _top_not_melded() -> Case:
    # classic-2p; hand: 9H QS QD; pile: 5C 9S (unfrozen); side 0 has kings; the QS named cannot go with a nine.
    return Case(
        "classic-2p",
        two("9H QS QD", melds=("KC KD KH",), pile="5C 9S"),
        "take-pile with 9H QS",
        [("PILE_TOP_NOT_MELDED", "discard_pile")],
    )


@legal("PILE_TOP_NOT_MELDED")
def _top_not_melded_ok() -> tuple[str, GameState, str]:
    # With a meld of nines on the table the 9S simply joins it.
    return "classic-2p", two("QS QD", melds=("KC KD KH", "9C 9D 9H"), pile="5C 9S"), "take-pile"


@illegal("PILE_NATURAL_AND_WILD_NOT_ALLOWED")
def _natural_and_wild() -> Case:
    # test-pair-only (classic-4p, natural pair needed); hand: 9H JK QS QD; pile: 5C 9S, unfrozen.
    return Case(
        "test-pair-only",
        four("9H JK QS QD", melds=("KC KD KH",), pile="5C 9S"),
        "take-pile with 9H JK",
        [("PILE_NATURAL_AND_WILD_NOT_ALLOWED", "discard_pile.unfrozen_natural_and_wild")],
    )


@legal("PILE_NATURAL_AND_WILD_NOT_ALLOWED")
def _natural_and_wild_ok() -> tuple[str, GameState, str]:
    # Under classic-4p a natural and a wild take an unfrozen pile.
    return "classic-4p", four("9H JK QS QD", melds=("KC KD KH",), pile="5C 9S"), "take-pile with 9H JK"


@illegal("PILE_ONTO_MELD_NOT_ALLOWED")
def _onto_meld() -> Case:
    # test-no-onto-meld; hand: QS QD; side 0 has 9C 9D 9H; pile: 5C 9S, unfrozen.
    return Case(
        "test-no-onto-meld",
        four("QS QD", melds=("KC KD KH", "9C 9D 9H"), pile="5C 9S"),
        "take-pile",
        [("PILE_ONTO_MELD_NOT_ALLOWED", "discard_pile.unfrozen_onto_existing_meld")],
    )


@legal("PILE_ONTO_MELD_NOT_ALLOWED")
def _onto_meld_ok() -> tuple[str, GameState, str]:
    return "classic-4p", four("QS QD", melds=("KC KD KH", "9C 9D 9H"), pile="5C 9S"), "take-pile"


@illegal("PILE_ONE_CARD_WITH_ONE_CARD")
def _one_card() -> Case:
    # test-one-card-pile; hand: 4C (one card); pile: 9S (one card); side 0 has a king canasta and 9C 9D 9H.
    return Case(
        "test-one-card-pile",
        four("4C", melds=(K7, "9C 9D 9H"), pile="9S"),
        "take-pile",
        [("PILE_ONE_CARD_WITH_ONE_CARD", "discard_pile.one_card_hand_no_one_card_pile")],
    )


@legal("PILE_ONE_CARD_WITH_ONE_CARD")
def _one_card_ok() -> tuple[str, GameState, str]:
    return "classic-4p", four("4C", melds=(K7, "9C 9D 9H"), pile="9S"), "take-pile"


# Melds.


@illegal("MELD_TOO_SMALL")
def _too_small() -> Case:
    # classic-2p; hand: 9H 9D QS QD; side 0 has KC KD KH; two nines are not a meld.
    return Case(
        "classic-2p",
        two("9H 9D QS QD", melds=("KC KD KH",), **PLAY),
        "meld 9H 9D",
        [("MELD_TOO_SMALL", "melds.min_size")],
    )


@legal("MELD_TOO_SMALL")
def _too_small_ok() -> tuple[str, GameState, str]:
    return "classic-2p", two("9H 9D 9S QS QD", melds=("KC KD KH",), **PLAY), "meld 9H 9D 9S"


@illegal("MELD_TOO_FEW_NATURALS")
def _too_few_naturals() -> Case:
    # classic-2p; hand: 9H JK 2C QS QD; 9-Joker-2 (80 points) has one natural (seed 001).
    return Case(
        "classic-2p", two("9H JK 2C QS QD", **PLAY), "meld 9H JK 2C", [("MELD_TOO_FEW_NATURALS", "melds.min_naturals")]
    )


@legal("MELD_TOO_FEW_NATURALS")
def _too_few_naturals_ok() -> tuple[str, GameState, str]:
    # 9-9-Joker (70 points) is a meld.
    return "classic-2p", two("9H 9D JK QS QD", **PLAY), "meld 9H 9D JK"


@illegal("MELD_TOO_MANY_WILDS")
def _too_many_wilds() -> Case:
    # classic-2p; hand: 2C QS QD; side 0 has 9C 9D JK JK 2D (three wilds); a fourth wild joins it.
    return Case(
        "classic-2p",
        two("2C QS QD", melds=("KC KD KH", "9C 9D JK JK 2D"), **PLAY),
        "meld 9: 2C",
        [("MELD_TOO_MANY_WILDS", "melds.max_wilds")],
    )


@legal("MELD_TOO_MANY_WILDS")
def _too_many_wilds_ok() -> tuple[str, GameState, str]:
    # One wild fewer on the table: 9C 9D JK 2D takes 2C as its third wild.
    return "classic-2p", two("2C QS QD", melds=("KC KD KH", "9C 9D JK 2D"), **PLAY), "meld 9: 2C"


@illegal("MELD_WILDS_OUTNUMBER_NATURALS")
def _wild_ratio() -> Case:
    # test-wild-ratio; hand: 9H 9D JK 2C 2D QS QD; 9 9 JK 2 2 has three wilds to two naturals.
    return Case(
        "test-wild-ratio",
        four("9H 9D JK 2C 2D QS QD", melds=("KC KD KH",), **PLAY),
        "meld 9H 9D JK 2C 2D",
        [("MELD_WILDS_OUTNUMBER_NATURALS", "melds.wild_ratio")],
    )


@legal("MELD_WILDS_OUTNUMBER_NATURALS")
def _wild_ratio_ok() -> tuple[str, GameState, str]:
    # classic-4p lets wilds outnumber naturals within the limit of three.
    return "classic-4p", four("9H 9D JK 2C 2D QS QD", melds=("KC KD KH",), **PLAY), "meld 9H 9D JK 2C 2D"


@illegal("MELD_TOO_LARGE")
def _too_large() -> Case:
    # test-max-seven; hand: KS QS QD; side 0 has seven kings; an eighth king would pass the cap.
    return Case(
        "test-max-seven", four("KS QS QD", melds=(K7,), **PLAY), "meld KS", [("MELD_TOO_LARGE", "melds.max_size")]
    )


@legal("MELD_TOO_LARGE")
def _too_large_ok() -> tuple[str, GameState, str]:
    return "classic-4p", four("KS QS QD", melds=(K7,), **PLAY), "meld KS"


@illegal("MELD_ALL_WILD")
def _all_wild() -> Case:
    # classic-2p; hand: JK 2C 2D QS QD; wild cards alone.
    return Case(
        "classic-2p",
        two("JK 2C 2D QS QD", melds=("KC KD KH",), **PLAY),
        "meld JK 2C 2D",
        [("MELD_ALL_WILD", "melds.wild_only_melds")],
    )


@legal("MELD_ALL_WILD")
def _all_wild_ok() -> tuple[str, GameState, str]:
    # The wilds join the side's kings instead.
    return "classic-2p", two("JK 2C 2D QS QD", melds=("KC KD KH",), **PLAY), "meld K: JK 2C"


@illegal("MELD_NO_SUCH_MELD")
def _no_such_meld() -> Case:
    # classic-2p; hand: 2C QS QD; side 0 has kings but no nines.
    return Case(
        "classic-2p",
        two("2C QS QD", melds=("KC KD KH",), **PLAY),
        "meld 9: 2C",
        [("MELD_NO_SUCH_MELD", "melds.one_meld_per_rank")],
    )


@legal("MELD_NO_SUCH_MELD")
def _no_such_meld_ok() -> tuple[str, GameState, str]:
    return "classic-2p", two("2C QS QD", melds=("KC KD KH",), **PLAY), "meld K: 2C"


@illegal("BLACK_THREES_NOT_GOING_OUT")
def _black_threes_early() -> Case:
    # classic-4p; hand: 3C 3C 3S QS QD; melding the black threes leaves two cards: not going out.
    return Case(
        "classic-4p",
        four("3C 3C 3S QS QD", melds=("KC KD KH",), **PLAY),
        "meld 3C 3C 3S",
        [("BLACK_THREES_NOT_GOING_OUT", "threes.black_three_meld_going_out_only")],
    )


@legal("BLACK_THREES_NOT_GOING_OUT")
def _black_threes_early_ok() -> tuple[str, GameState, str]:
    # With a canasta, 3C 3C 3S as the whole hand go down and the player goes out.
    return "classic-4p", four("3C 3C 3S", melds=(K7,), **PLAY), "meld 3C 3C 3S"


@illegal("BLACK_THREE_MELD_SIZE")
def _black_three_size() -> Case:
    # classic-4p; hand: 3C 3S; going out with two black threes.
    return Case(
        "classic-4p",
        four("3C 3S", melds=(K7,), **PLAY),
        "meld 3C 3S",
        [("BLACK_THREE_MELD_SIZE", "threes.black_three_meld_min")],
    )


@legal("BLACK_THREE_MELD_SIZE")
def _black_three_size_ok() -> tuple[str, GameState, str]:
    # All four black threes.
    return "classic-4p", four("3C 3C 3S 3S", melds=(K7,), **PLAY), "meld 3C 3C 3S 3S"


@illegal("BLACK_THREE_MELD_WILDS")
def _black_three_wilds() -> Case:
    # classic-4p; hand: 3C 3C 3S 2D; a wild in the black-three meld.
    return Case(
        "classic-4p",
        four("3C 3C 3S 2D", melds=(K7,), **PLAY),
        "meld 3C 3C 3S 2D",
        [("BLACK_THREE_MELD_WILDS", "threes.black_three_meld_wilds")],
    )


@legal("BLACK_THREE_MELD_WILDS")
def _black_three_wilds_ok() -> tuple[str, GameState, str]:
    # The 2D goes on the kings instead (turning that canasta mixed) and the player goes out.
    return "classic-4p", four("3C 3C 3S 2D", melds=(K7,), **PLAY), "meld 3C 3C 3S, K: 2D"


@illegal("WILD_ON_NATURAL_CANASTA")
def _wild_on_natural() -> Case:
    # test-natural-stays; hand: 2C QS QD; side 0 has a natural canasta of kings.
    return Case(
        "test-natural-stays",
        four("2C QS QD", melds=(K7,), **PLAY),
        "meld K: 2C",
        [("WILD_ON_NATURAL_CANASTA", "canastas.wild_may_join_natural")],
    )


@legal("WILD_ON_NATURAL_CANASTA")
def _wild_on_natural_ok() -> tuple[str, GameState, str]:
    return "classic-4p", four("2C QS QD", melds=(K7,), **PLAY), "meld K: 2C"


@illegal("INITIAL_MELD_BELOW_MINIMUM")
def _below_minimum() -> Case:
    # classic-2p; running total 0 (minimum 50); hand: 8H 8D 8S QS QD; 8-8-8 is 30 (seed 000).
    return Case(
        "classic-2p",
        two("8H 8D 8S QS QD", **PLAY),
        "meld 8H 8D 8S",
        [("INITIAL_MELD_BELOW_MINIMUM", "initial_meld.thresholds")],
    )


@legal("INITIAL_MELD_BELOW_MINIMUM")
def _below_minimum_ok() -> tuple[str, GameState, str]:
    # A-A-A is 60.
    return "classic-2p", two("AH AD AS QS QD", **PLAY), "meld AH AD AS"


@illegal("MUST_KEEP_CARDS")
def _must_keep() -> Case:
    # classic-2p; no canasta; hand: 9H 9D 9S QS; melding the nines would leave one card.
    return Case(
        "classic-2p",
        two("9H 9D 9S QS", melds=("KC KD KH",), **PLAY),
        "meld 9H 9D 9S",
        [("MUST_KEEP_CARDS", "going_out.min_hand_after_meld_without_canastas")],
    )


@legal("MUST_KEEP_CARDS")
def _must_keep_ok() -> tuple[str, GameState, str]:
    return "classic-2p", two("9H 9D 9S QS QD", melds=("KC KD KH",), **PLAY), "meld 9H 9D 9S"


# Going out.


@illegal("GO_OUT_WITHOUT_CANASTAS")
def _out_without_canastas() -> Case:
    # classic-2p (two canastas to go out); side 0 has one (kings); hand: 5C; discarding it would go out.
    return Case(
        "classic-2p",
        two("5C", melds=(K7, "9C 9D 9H"), **PLAY),
        "discard 5C",
        [("GO_OUT_WITHOUT_CANASTAS", "going_out.canastas_required")],
    )


@legal("GO_OUT_WITHOUT_CANASTAS")
def _out_without_canastas_ok() -> tuple[str, GameState, str]:
    # Two canastas (kings, queens).
    return "classic-2p", two("5C", melds=(K7, Q7), **PLAY), "discard 5C"


@illegal("GO_OUT_NEEDS_DISCARD")
def _needs_discard() -> Case:
    # test-discard-to-go-out; side 0 has a king canasta; hand: 9H 9D 9S, melded whole.
    return Case(
        "test-discard-to-go-out",
        four("9H 9D 9S", melds=(K7,), **PLAY),
        "meld 9H 9D 9S",
        [("GO_OUT_NEEDS_DISCARD", "going_out.discard_optional")],
    )


@legal("GO_OUT_NEEDS_DISCARD")
def _needs_discard_ok() -> tuple[str, GameState, str]:
    return "classic-4p", four("9H 9D 9S", melds=(K7,), **PLAY), "meld 9H 9D 9S"


def _asked(answer: str, hand: str, melds: tuple[str, ...] = (K7,)) -> GameState:
    return four(
        hand,
        melds=melds,
        phase="PHASE_PLAY",
        turn={"start": "TURN_START_DREW", "partnerAnswer": f"PARTNER_ANSWER_{answer}"},
    )


@illegal("GO_OUT_PARTNER_SAID_NO")
def _partner_no() -> Case:
    # classic-4p; side 0 has a king canasta; the partner answered no; hand: 5C.
    return Case("classic-4p", _asked("NO", "5C"), "discard 5C", [("GO_OUT_PARTNER_SAID_NO", "going_out.ask_partner")])


@legal("GO_OUT_PARTNER_SAID_NO")
def _partner_no_ok() -> tuple[str, GameState, str]:
    return "classic-4p", _asked("YES", "5C"), "discard 5C"


@illegal("MUST_GO_OUT_PARTNER_SAID_YES")
def _partner_yes() -> Case:
    # classic-4p; the partner answered yes; hand: 9H 9D 9S 5C, which can go out (meld the nines, discard 5C);
    # discarding 5C first keeps cards. (A player who cannot go out may discard: tests/test_rules_fidelity.py.)
    return Case(
        "classic-4p",
        _asked("YES", "9H 9D 9S 5C"),
        "discard 5C",
        [("MUST_GO_OUT_PARTNER_SAID_YES", "going_out.ask_partner")],
    )


@legal("MUST_GO_OUT_PARTNER_SAID_YES")
def _partner_yes_ok() -> tuple[str, GameState, str]:
    # Without the question, keeping a card is fine.
    return "classic-4p", four("9H 9D 9S 5C", melds=(K7,), **PLAY), "discard 5C"


@illegal("ASK_NOT_ALLOWED")
def _ask_not_allowed() -> Case:
    # classic-2p has no partner; hand: 9H 9D KS.
    return Case("classic-2p", two("9H 9D KS", **PLAY), "ask", [("ASK_NOT_ALLOWED", "going_out.ask_partner")])


@legal("ASK_NOT_ALLOWED")
def _ask_not_allowed_ok() -> tuple[str, GameState, str]:
    # classic-4p, right after drawing.
    return "classic-4p", four("9H 9D KS", **PLAY), "ask"


@illegal("ASK_AFTER_MELDING")
def _ask_after_melding() -> Case:
    # classic-4p; the player already melded this turn; hand: 9H 9D KS.
    state = four("9H 9D KS", melds=("QC QD QH",), phase="PHASE_PLAY", turn={"start": "TURN_START_DREW", "melded": True})
    return Case("classic-4p", state, "ask", [("ASK_AFTER_MELDING", "going_out.ask_partner")])


@legal("ASK_AFTER_MELDING")
def _ask_after_melding_ok() -> tuple[str, GameState, str]:
    # Right after taking the pile (the meld that took it does not count as melding).
    state = four("9H 9D KS", melds=("QC QD QH",), phase="PHASE_PLAY", turn={"start": "TURN_START_TOOK_PILE"})
    return "classic-4p", state, "ask"


@illegal("ASK_ALREADY_ANSWERED")
def _ask_again() -> Case:
    # classic-4p; the partner already answered no this turn.
    return Case("classic-4p", _asked("NO", "9H 9D KS"), "ask", [("ASK_ALREADY_ANSWERED", "going_out.ask_partner")])


@legal("ASK_ALREADY_ANSWERED")
def _ask_again_ok() -> tuple[str, GameState, str]:
    # The one question, pending: the partner answers it.
    state = four(
        "9H 9D KS",
        phase="PHASE_AWAIT_ANSWER",
        turn={"start": "TURN_START_DREW", "partnerAnswer": "PARTNER_ANSWER_PENDING"},
    )
    return "classic-4p", state, "answer no"


# The last stock card a red three.


def _last_red_three_2p() -> GameState:
    # classic-2p; hand: 9H 9D 9S KS QS; side 0 has KC KD KH; the stock is one card, 3H.
    before = shrink_stock(two("9H 9D 9S KS QS", melds=("KC KD KH",), pile="5C", stock_top="3H"), keep=1)
    after = check("classic-2p", before, "draw").next_state
    assert after is not None and after.phase == Phase.FINAL_MELDS
    return after


@illegal("LAST_RED_THREE_NO_DISCARD")
def _last_red_discard() -> Case:
    # After drawing the last-card 3H the player may meld but not discard.
    return Case(
        "classic-2p",
        _last_red_three_2p(),
        "discard QS",
        [("LAST_RED_THREE_NO_DISCARD", "stock_exhaustion.last_red_three")],
    )


@legal("LAST_RED_THREE_NO_DISCARD")
def _last_red_discard_ok() -> tuple[str, GameState, str]:
    return "classic-2p", _last_red_three_2p(), "finish"


# The two-step take of the pile (oracle/rules/two_step.py).


def _picked_up() -> GameState:
    # classic-2p; hand: 9H 9D KS QS; side 0 has KC KD KH; pile: 5C 9S; the first step (pick-up-pile) made.
    after = check("classic-2p", two("9H 9D KS QS", melds=("KC KD KH",), pile="5C 9S"), "pick-up-pile").next_state
    assert after is not None and after.phase == Phase.MELD_PILE_TOP
    return after


@illegal("TWO_STEP_TAKE_INCOMPLETE")
def _two_step_discard() -> Case:
    # After pick-up-pile the top card 9S must be melded next: a discard does not follow.
    return Case("classic-2p", _picked_up(), "discard KS", [("TWO_STEP_TAKE_INCOMPLETE", "discard_pile")])


@legal("TWO_STEP_TAKE_INCOMPLETE")
def _two_step_ok() -> tuple[str, GameState, str]:
    return "classic-2p", _picked_up(), "meld 9S 9H 9D"


# Modern American Canasta (american-4p; more in tests/test_american_rules.py).

K5 = "KH KD KS KC KH"  # five natural kings
FIVES_CANASTA = "5C 5C 5D 5H 5S 2D 2H"  # the opponents' mixed canasta of fives: fives are dead
FIVES_SIX = "5C 5C 5D 5H 5S 2D"  # one card short of it: fives are alive


OPENING = {"phase": "PHASE_PLAY", "turn": {"start": "TURN_START_DREW", "meldsBeforeTurn": 0}}  # initial-meld turn


@illegal("MELD_WILDS_NEED_BASE")
def _wilds_need_base() -> Case:
    # american-4p; side 0 melded before; four nines take no wild card (five naturals needed after the initial meld).
    state = american("2C 5C 4C", melds=("KH KD KS", "9H 9D 9S 9C"), **PLAY)
    return Case(
        "american-4p", state, "meld 9: 2C", [("MELD_WILDS_NEED_BASE", "melds.wilds_after_opening_min_naturals")]
    )


@legal("MELD_WILDS_NEED_BASE")
def _wilds_need_base_ok() -> tuple[str, GameState, str]:
    return "american-4p", american("2C 5C 4C", melds=("KH KD KS", "9H 9D 9S 9C 9C"), **PLAY), "meld 9: 2C"


@illegal("WILD_MELD_OPEN")
def _wild_meld_open() -> Case:
    # american-4p; the side's meld of wild cards JK 2D 2H is short of a canasta: no wild joins the five kings.
    state = american("2C 5C 4C", melds=(K5, "JK 2D 2H"), **PLAY)
    return Case("american-4p", state, "meld K: 2C", [("WILD_MELD_OPEN", "melds.open_wild_meld_blocks_wilds")])


@legal("WILD_MELD_OPEN")
def _wild_meld_open_ok() -> tuple[str, GameState, str]:
    # The meld of wild cards is a canasta (seven): wild cards are free again.
    return "american-4p", american("2C 5C 4C", melds=(K5, "JK JK 2D 2H 2S 2S JK"), **PLAY), "meld K: 2C"


@illegal("MELD_RANK_DEAD")
def _rank_dead() -> Case:
    # american-4p; the opponents have a canasta of fives: no side may start a meld of fives.
    state = american("5D 5H 5S 9C 4D", melds=("KH KD KS",), opp=(FIVES_CANASTA,), **PLAY)
    return Case("american-4p", state, "meld 5D 5H 5S", [("MELD_RANK_DEAD", "discard_pile.closed_rank_dead")])


@legal("MELD_RANK_DEAD")
def _rank_dead_ok() -> tuple[str, GameState, str]:
    state = american("5D 5H 5S 9C 4D", melds=("KH KD KS",), opp=(FIVES_SIX,), **PLAY)
    return "american-4p", state, "meld 5D 5H 5S"


@illegal("PILE_TOP_DEAD")
def _pile_top_dead() -> Case:
    # american-4p; pile 9D 5S; the opponents' canasta of fives makes the top card dead.
    state = american("5D 5H 9C 4D", melds=("KH KD KS",), opp=(FIVES_CANASTA,), pile="9D 5S")
    return Case("american-4p", state, "take-pile with 5D 5H", [("PILE_TOP_DEAD", "discard_pile.closed_rank_dead")])


@legal("PILE_TOP_DEAD")
def _pile_top_dead_ok() -> tuple[str, GameState, str]:
    state = american("5D 5H 9C 4D", melds=("KH KD KS",), opp=(FIVES_SIX,), pile="9D 5S")
    return "american-4p", state, "take-pile with 5D 5H"


@illegal("DISCARD_RESTRICTED")
def _discard_restricted() -> Case:
    # american-4p; the pile is empty; a seven may not go onto it while KD or 9C may.
    state = american("7H KD 9C", melds=("KH KD KS",), **PLAY)
    return Case("american-4p", state, "discard 7H", [("DISCARD_RESTRICTED", "discard_pile")])


@legal("DISCARD_RESTRICTED")
def _discard_restricted_ok() -> tuple[str, GameState, str]:
    # A seven, an ace and a wild card: nothing else may go, so the seven does.
    return "american-4p", american("7H AD 2C", melds=("KH KD KS",), **PLAY), "discard 7H"


@illegal("INITIAL_MELD_NEEDS_NATURAL_MELD")
def _needs_natural_meld() -> Case:
    # american-4p; an initial meld of 170 with a wild card in every meld.
    state = american("KH KD 2C AH AD JK QH QD 2D 5C 4C", **OPENING)
    expected = [("INITIAL_MELD_NEEDS_NATURAL_MELD", "initial_meld.natural_meld_required")]
    return Case("american-4p", state, "meld KH KD 2C, AH AD JK, QH QD 2D", expected)


@legal("INITIAL_MELD_NEEDS_NATURAL_MELD")
def _needs_natural_meld_ok() -> tuple[str, GameState, str]:
    # K K K is the natural triple (9 9 2 JK, K K K, Q Q Q: 150).
    state = american("9H 9D 2C JK KH KD KS QH QD QS 5C 4C", **OPENING)
    return "american-4p", state, "meld 9H 9D 2C JK, KH KD KS, QH QD QS"


@illegal("INITIAL_MELD_MIXED_CANASTA")
def _initial_mixed_canasta() -> Case:
    # american-4p; five kings and two twos would be a mixed canasta in the initial meld (150 with Q Q Q, J J J).
    state = american("KH KD KS KC KH 2C 2D QH QD QS JH JD JS 5C 4C", **OPENING)
    expected = [("INITIAL_MELD_MIXED_CANASTA", "initial_meld.no_mixed_canasta")]
    return Case("american-4p", state, "meld KH KD KS KC KH 2C 2D, QH QD QS, JH JD JS", expected)


@legal("INITIAL_MELD_MIXED_CANASTA")
def _initial_mixed_canasta_ok() -> tuple[str, GameState, str]:
    # A natural canasta of kings may be part of it (130).
    state = american(K7 + " QH QD QS JH JD JS 5C 4C", **OPENING)
    return "american-4p", state, f"meld {K7}, QH QD QS, JH JD JS"


@illegal("GO_OUT_WITH_UNFINISHED_MELD")
def _out_unfinished() -> Case:
    # american-4p; two canastas, but the meld of wild cards JK 2C 2D is unfinished.
    state = american("5C", melds=(K7, Q7, "JK 2C 2D"), **PLAY)
    expected = [("GO_OUT_WITH_UNFINISHED_MELD", "going_out.unfinished_special_meld_blocks")]
    return Case("american-4p", state, "discard 5C", expected)


@legal("GO_OUT_WITH_UNFINISHED_MELD")
def _out_unfinished_ok() -> tuple[str, GameState, str]:
    # An ace meld with a wild card is ordinary and does not block.
    return "american-4p", american("5C", melds=(K7, Q7, "AH AD 2S"), **PLAY), "discard 5C"


def _asked_before(asks: int) -> GameState:
    state = american("9H 9D 9S 5C 4C", melds=(K7,), **PLAY)
    return replace(state, sides=(state.sides[0].evolve(asks=asks), *state.sides[1:]))


@illegal("ASK_LIMIT_REACHED")
def _ask_limit() -> Case:
    # american-4p; the side asked once already this hand.
    return Case("american-4p", _asked_before(1), "ask", [("ASK_LIMIT_REACHED", "going_out.ask_partner_max_per_hand")])


@legal("ASK_LIMIT_REACHED")
def _ask_limit_ok() -> tuple[str, GameState, str]:
    return "american-4p", _asked_before(0), "ask"


# Hand and Foot (positions from test_hand_and_foot_rules: seat 0 to move, in the hand with FOOT waiting or in its foot).


def _hf(hand: str, melds: tuple[str, ...], rule_set: str, **kw: object) -> GameState:
    return hf(hand, melds, rules=rules_of(rule_set), **kw)  # type: ignore[arg-type]


def _books() -> tuple[str, ...]:
    return (*CLEAN, *DIRTY, *OPEN)


_YES = {"start": "TURN_START_DREW", "partnerAnswer": "PARTNER_ANSWER_YES"}


@illegal("FOOT_NOT_YET")
def _foot_not_yet() -> Case:
    state = _hf("9S 9S 2C", OPEN, "test-hf-walk-only", foot=FOOT)
    return Case("test-hf-walk-only", state, "meld 9S 9S 2C", [("FOOT_NOT_YET", "foot.continue_after_melding_out")])


@legal("FOOT_NOT_YET")
def _foot_not_yet_ok() -> tuple[str, GameState, str]:
    return "test-hf-walk-only", _hf("9S 9S 2C", OPEN, "test-hf-walk-only", foot=FOOT), "discard 2C"


@illegal("GO_OUT_BOOKS_MISSING")
def _books_missing() -> Case:
    state = _hf("9S", (*CLEAN, DIRTY[0], *OPEN), "hand-and-foot-4p", turn=_YES)
    return Case(
        "hand-and-foot-4p",
        state,
        "discard 9S",
        [("GO_OUT_BOOKS_MISSING", "going_out"), ("GO_OUT_WITHOUT_CANASTAS", "going_out.canastas_required")],
    )


@legal("GO_OUT_BOOKS_MISSING")
def _books_made() -> tuple[str, GameState, str]:
    return "hand-and-foot-4p", _hf("9S", _books(), "hand-and-foot-4p", turn=_YES), "discard 9S"


@illegal("GO_OUT_WITHOUT_ASKING")
def _without_asking() -> Case:
    state = _hf("9S", _books(), "hand-and-foot-4p")
    return Case("hand-and-foot-4p", state, "discard 9S", [("GO_OUT_WITHOUT_ASKING", "going_out.ask_partner")])


@legal("GO_OUT_WITHOUT_ASKING")
def _asking() -> tuple[str, GameState, str]:
    return "hand-and-foot-4p", _hf("9S", _books(), "hand-and-foot-4p"), "ask"


@illegal("GO_OUT_PARTNER_FOOT_NOT_TAKEN")
def _partner_foot() -> Case:
    state = _hf("9S", _books(), "test-hf-both-feet", turn=_YES, partner_foot=FOOT)
    expected = [("GO_OUT_PARTNER_FOOT_NOT_TAKEN", "going_out.partner_foot_required")]
    return Case("test-hf-both-feet", state, "discard 9S", expected)


@illegal("MELD_OPEN_OF_RANK_EXISTS")
def _open_of_rank() -> Case:
    state = _hf("KH KD KS 4S", (*OPEN, "KC KC KD"), "hand-and-foot-4p", foot=FOOT)
    expected = [("MELD_OPEN_OF_RANK_EXISTS", "melds.one_open_meld_per_rank")]
    return Case("hand-and-foot-4p", state, "meld new KH KD KS", expected)


@legal("MELD_OPEN_OF_RANK_EXISTS")
def _open_of_rank_closed() -> tuple[str, GameState, str]:
    return (
        "hand-and-foot-4p",
        _hf("KH KD KS 4S", (*OPEN, "KC KC KD KD KH KH KS"), "hand-and-foot-4p", foot=FOOT),
        ("meld new KH KD KS"),
    )


@legal("GO_OUT_PARTNER_FOOT_NOT_TAKEN")
def _partner_foot_taken() -> tuple[str, GameState, str]:
    return "test-hf-both-feet", _hf("9S", _books(), "test-hf-both-feet", turn=_YES), "discard 9S"


# Samba (samba-4p; more in tests/test_samba_rules.py). Runs live among a side's melds; `to N` names a meld.

RUN_SIX = "4H 5H 6H 7H 8H 9H"  # a run one card short of a samba


def samba(hand: str, *, melds: tuple[str, ...] = (), opp_melds: tuple[str, ...] = (), **kw: object) -> GameState:
    """A samba-4p state (162 cards) with seat 0 to move; seat 2 is the partner."""
    return make_state(
        "samba-4p",
        hands=[hand, "6C 8D", "6D 8C", "6S 8S"],  # type: ignore[arg-type]
        melds=[list(melds), list(opp_melds)],
        **kw,
    )


@illegal("RUNS_NOT_ALLOWED")
def _runs_not_allowed() -> Case:
    # samba-4p without runs (runs.min_size 0), judged beside a rule set with runs (as adjudicate does: alone, the
    # shape layer refuses the cards of several ranks); 5H 6H 7H is a run the rule set does not have.
    state = samba("5H 6H 7H 9C 4C", melds=("JH JD JS",), **PLAY)
    return Case("test-samba-no-runs", state, "meld 5H 6H 7H", [("RUNS_NOT_ALLOWED", "runs.min_size")], runs=True)


@legal("RUNS_NOT_ALLOWED")
def _runs_not_allowed_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("5H 6H 7H 9C 4C", melds=("JH JD JS",), **PLAY), "meld 5H 6H 7H"


@illegal("RUN_WILD_CARD")
def _run_wild() -> Case:
    # samba-4p; a wild card in a run.
    state = samba("5H 6H 2C 9C 4C", melds=("JH JD JS",), **PLAY)
    return Case("samba-4p", state, "meld 5H 6H 2C", [("RUN_WILD_CARD", "runs")])


@legal("RUN_WILD_CARD")
def _run_wild_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("5H 6H 7H 9C 4C", melds=("JH JD JS",), **PLAY), "meld 5H 6H 7H"


@illegal("RUN_MIXED_SUITS")
def _run_suits() -> Case:
    state = samba("5H 6D 7H 9C 4C", melds=("JH JD JS",), **PLAY)
    return Case("samba-4p", state, "meld 5H 6D 7H", [("RUN_MIXED_SUITS", "runs.min_size")])


@legal("RUN_MIXED_SUITS")
def _run_suits_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("5D 6D 7D 9C 4C", melds=("JH JD JS",), **PLAY), "meld 5D 6D 7D"


@illegal("RUN_NOT_CONSECUTIVE")
def _run_gap() -> Case:
    state = samba("5H 6H 8H 9C 4C", melds=("JH JD JS",), **PLAY)
    return Case("samba-4p", state, "meld 5H 6H 8H", [("RUN_NOT_CONSECUTIVE", "runs.min_size")])


@legal("RUN_NOT_CONSECUTIVE")
def _run_gap_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("6H 7H 8H 9C 4C", melds=("JH JD JS",), **PLAY), "meld 6H 7H 8H"


@illegal("RUN_RANK_OUT_OF_RANGE")
def _run_range() -> Case:
    # samba-4p; a three is below the lowest rank of a run (the four).
    state = samba("3S 4S 5S 9C 4C", melds=("JH JD JS",), **PLAY)
    return Case("samba-4p", state, "meld 3S 4S 5S", [("RUN_RANK_OUT_OF_RANGE", "runs.lowest_rank")])


@legal("RUN_RANK_OUT_OF_RANGE")
def _run_range_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("4S 5S 6S 9C 4C", melds=("JH JD JS",), **PLAY), "meld 4S 5S 6S"


@illegal("RUN_TOO_SMALL")
def _run_small() -> Case:
    state = samba("5H 6H 9C 4C", melds=("JH JD JS",), **PLAY)
    return Case("samba-4p", state, "meld 5H 6H", [("RUN_TOO_SMALL", "runs.min_size")])


@legal("RUN_TOO_SMALL")
def _run_small_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("5H 6H 9C 4C", melds=("JH JD JS", "7H 8H 9H"), **PLAY), "meld 5H 6H to 2"


@illegal("RUN_TOO_LARGE")
def _run_large() -> Case:
    # samba-4p; a samba of seven takes no eighth card.
    state = samba("JH 9C 4C", melds=("JS JD JC", RUN_SIX + " TH"), **PLAY)
    return Case("samba-4p", state, "meld JH to 2", [("RUN_TOO_LARGE", "runs.max_size")])


@legal("RUN_TOO_LARGE")
def _run_large_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("TH 9C 4C", melds=("JS JD JC", RUN_SIX), **PLAY), "meld TH to 2"


@illegal("MELD_TARGET_OTHER_RANK")
def _target_rank() -> Case:
    state = samba("KH 9C 4C", melds=("QC QC QD", "KS KD KC"), **PLAY)
    return Case("samba-4p", state, "meld KH to 1", [("MELD_TARGET_OTHER_RANK", "melds.one_meld_per_rank")])


@legal("MELD_TARGET_OTHER_RANK")
def _target_rank_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("KH 9C 4C", melds=("QC QC QD", "KS KD KC"), **PLAY), "meld KH to 2"


@illegal("MELD_SECOND_OF_RANK")
def _second_of_rank() -> Case:
    # samba-4p with one meld of a rank per side: a second meld of queens is refused.
    state = samba("QH QS QS 9C 4C", melds=("QC QC QD",), **PLAY)
    return Case(
        "test-samba-one-per-rank", state, "meld new QH QS QS", [("MELD_SECOND_OF_RANK", "melds.one_meld_per_rank")]
    )


@legal("MELD_SECOND_OF_RANK")
def _second_of_rank_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("QH QS QS 9C 4C", melds=("QC QC QD",), **PLAY), "meld new QH QS QS"


@illegal("PILE_TOP_CANNOT_START_RUN")
def _pile_start_run() -> Case:
    state = samba("6H 7H KS 4C", melds=("JS JD JC",), pile="6C 8H")
    expected = [("PILE_TOP_CANNOT_START_RUN", "runs.pile_top_alone"), ("PILE_TOP_NOT_MELDED", "discard_pile")]
    return Case("samba-4p", state, "take-pile with 6H 7H", expected)


@legal("PILE_TOP_CANNOT_START_RUN")
def _pile_start_run_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("6H 7H KS 4C", melds=("JS JD JC", "5H 6H 7H"), pile="6C 8H"), "take-pile to 2"


@illegal("PILE_TOP_RUN_WITH_HAND_CARDS")
def _pile_run_hand() -> Case:
    state = samba("7H KS 4C", melds=("JS JD JC", "4H 5H 6H"), pile="6C 8H")
    expected = [("PILE_TOP_RUN_WITH_HAND_CARDS", "runs.pile_top_alone")]
    return Case("samba-4p", state, "take-pile with 7H to 2", expected)


@legal("PILE_TOP_RUN_WITH_HAND_CARDS")
def _pile_run_hand_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("7H KS 4C", melds=("JS JD JC", "5H 6H 7H"), pile="6C 8H"), "take-pile to 2"


@illegal("PILE_TOP_ONTO_RUN_NOT_ALLOWED")
def _pile_onto_run() -> Case:
    # samba-4p where the top card never joins a run.
    state = samba("KS 4C", melds=("JS JD JC", "5H 6H 7H"), pile="6C 8H")
    expected = [("PILE_TOP_ONTO_RUN_NOT_ALLOWED", "runs.pile_top_alone")]
    return Case("test-samba-pile-not-onto-runs", state, "take-pile to 2", expected)


@legal("PILE_TOP_ONTO_RUN_NOT_ALLOWED")
def _pile_onto_run_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("KS 4C", melds=("JS JD JC", "5H 6H 7H"), pile="6C 8H"), "take-pile to 2"


@illegal("PILE_ONTO_CANASTA_NOT_ALLOWED")
def _pile_onto_canasta() -> Case:
    state = samba("KS 4C", melds=("JS JD JC", "9H 9C 9S 9D 9H 9C 2C"), pile="6C 9S")
    expected = [("PILE_ONTO_CANASTA_NOT_ALLOWED", "discard_pile.onto_meld_below_canasta_only")]
    return Case("samba-4p", state, "take-pile to 2", expected)


@legal("PILE_ONTO_CANASTA_NOT_ALLOWED")
def _pile_onto_canasta_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("KS 4C", melds=("JS JD JC", "9H 9C 9S 9D 9H 2C"), pile="6C 9S"), "take-pile to 2"


@illegal("COMBINE_NOT_ALLOWED")
def _combine_off() -> Case:
    state = samba("5H 9C", melds=("QH QD QS", "QC QD QS"), **PLAY)
    expected = [("COMBINE_NOT_ALLOWED", "melds.combine_same_rank")]
    return Case("test-samba-no-combine", state, "combine 1 2", expected)


@legal("COMBINE_NOT_ALLOWED")
def _combine_off_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("5H 9C", melds=("QH QD QS", "QC QD QS"), **PLAY), "combine 1 2"


@illegal("COMBINE_DIFFERENT_RANKS")
def _combine_ranks() -> Case:
    state = samba("5H 9C", melds=("QH QD QS", "KC KD KS"), **PLAY)
    return Case("samba-4p", state, "combine 1 2", [("COMBINE_DIFFERENT_RANKS", "melds.combine_same_rank")])


@legal("COMBINE_DIFFERENT_RANKS")
def _combine_ranks_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("5H 9C", melds=("QH QD QS", "KC KD KS", "QC QD 2C"), **PLAY), "combine 1 3"


@illegal("COMBINE_BREAKS_MELD")
def _combine_breaks() -> Case:
    # samba-4p; Q Q 2 and Q Q 2 JK together hold three wild cards.
    state = samba("5H 9C", melds=("QH QD 2C", "QC QS 2S JK"), **PLAY)
    return Case("samba-4p", state, "combine 1 2", [("COMBINE_BREAKS_MELD", "melds.combine_same_rank")])


@legal("COMBINE_BREAKS_MELD")
def _combine_breaks_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("5H 9C", melds=("QH QD 2C", "QC QS QS JK"), **PLAY), "combine 1 2"


@illegal("WILD_ON_CANASTA")
def _wild_on_canasta() -> Case:
    # samba-ocl-4p; no wild card joins a canasta.
    state = samba("2C 9C 4C", melds=(Q7, "KH KD KS"), **PLAY)
    return Case("samba-ocl-4p", state, "meld 2C to 1", [("WILD_ON_CANASTA", "canastas.wild_may_join_canasta")])


@legal("WILD_ON_CANASTA")
def _wild_on_canasta_ok() -> tuple[str, GameState, str]:
    return "samba-4p", samba("2C 9C 4C", melds=(Q7, "KH KD KS"), **PLAY), "meld 2C to 1"


@pytest.mark.parametrize("code", list(ILLEGAL))
def test_violation(code: str) -> None:
    case = ILLEGAL[code]()
    assert code in [c for c, _ in case.expected]
    assert_illegal(case.rule_set, case.state, case.action, case.expected, runs=case.runs)


@pytest.mark.parametrize("code", list(LEGAL))
def test_legal_counterpart(code: str) -> None:
    rule_set, state, action = LEGAL[code]()
    assert validate_state(rules_of(rule_set), state) == []
    assert_legal(rule_set, state, action)


def test_every_code_has_a_case_and_a_counterpart() -> None:
    codes = {code.value for code in Code}
    exercised = {code for build in ILLEGAL.values() for code, _ in build().expected}
    assert exercised == codes
    assert set(ILLEGAL) == codes
    assert set(LEGAL) == codes


def test_variants_override_their_field_with_a_cited_note() -> None:
    for variant_id, variant in VARIANTS.items():
        loaded = variant_book().get(variant_id)
        assert loaded.lineage[:2] == (variant_id, variant.extends)  # samba-4p and hand-and-foot-4p go on to classic-4p
        section, _, name = variant.field.partition(".")
        base = default_rule_book().get(variant.extends).spec
        assert getattr(getattr(loaded.spec, section), name) != getattr(getattr(base, section), name)
        assert loaded.rules.cites[variant.field] == (("4P-CLASSIC", variant.section),)


# --- 2. details of legal moves -----------------------------------------------------------------------------------


def test_take_pile_moves_the_rest_into_the_hand() -> None:
    # classic-2p; hand: 9H 9D KS QS; pile: 5C 2D 9S (frozen). The 9S meld goes down; 5C 2D go to the hand.
    state = two("9H 9D KS QS", melds=("KC KD KH",), pile="5C 2D 9S")
    verdict = assert_legal("classic-2p", state, "take-pile with 9H 9D")
    after = verdict.next_state
    assert after is not None
    assert verdict.events == (PileTaken(0, parse_cards("9S")[0], tuple(parse_cards("5C 2D"))),)
    assert after.discard_pile == ()
    assert sorted(after.seats[0].hand) == sorted(parse_cards("KS QS 5C 2D"))
    assert after.sides[0].melds == (tuple(parse_cards("KC KD KH")), tuple(parse_cards("9S 9H 9D")))
    assert (after.phase, after.turn.start) == (Phase.PLAY, TurnStart.TOOK_PILE)


def test_red_three_upcard_taken_with_the_pile_is_laid_without_replacement() -> None:
    # classic-4p covers a red-three upcard: pile 3H 9S, both turned at the deal; the pile is frozen by the 3H.
    state = four("9H 9D KS QS", melds=("KC KD KH",), pile="3H 9S", upcards=2)
    verdict = assert_legal("classic-4p", state, "take-pile with 9H 9D")
    after = verdict.next_state
    assert after is not None
    assert after.sides[0].red_threes == tuple(parse_cards("3H"))
    assert after.stock == state.stock  # no replacement drawn
    assert RedThreeLaid(0, parse_cards("3H")[0], False) in verdict.events
    # Without the natural pair the upcard freezes it.
    hand = four("9H JK KS QS", melds=("KC KD KH",), pile="3H 9S", upcards=2)
    assert_illegal(
        "classic-4p",
        hand,
        "take-pile with 9H JK",
        [("PILE_FROZEN_NEEDS_NATURAL_PAIR", "discard_pile.frozen_by_upcard")],
    )


def test_top_card_with_nowhere_to_go() -> None:
    # classic-2p; hand: 9H QS QD; pile: 5C 9S (unfrozen); side 0 has kings but no nines, and names no hand cards.
    # PILE_TOP_NOT_MELDED comes first; the engine then also judges the lone 9S as a new meld (too small, one
    # natural), which repeats the same fact: only the leading code is pinned here.
    state = two("9H QS QD", melds=("KC KD KH",), pile="5C 9S")
    verdict = check("classic-2p", state, "take-pile")
    assert not verdict.legal
    assert (verdict.violations[0].code, verdict.violations[0].field) == ("PILE_TOP_NOT_MELDED", "discard_pile")
    assert "no meld of nines" in verdict.violations[0].explanation
    assert set(codes(verdict)) <= {"PILE_TOP_NOT_MELDED", "MELD_TOO_SMALL", "MELD_TOO_FEW_NATURALS"}
    # Wild cards alone with the top card: no natural nine from the hand.
    assert (
        codes(check("classic-2p", two("JK 2C QS QD", melds=("KC KD KH",), pile="5C 9S"), "take-pile with JK 2C"))[0]
        == "PILE_TOP_NOT_MELDED"
    )


def test_draw_two_in_classic_2p_and_one_in_classic_4p() -> None:
    # The stock top is JK JK (deck order ends with the jokers).
    verdict = assert_legal("classic-2p", two("9H 9D KS"), "draw")
    assert verdict.events == (CardsDrawn(0, (53, 53)),)
    verdict = assert_legal("classic-4p", four("9H 9D KS"), "draw")
    assert verdict.events == (CardsDrawn(0, (53,)),)


def test_short_stock_draws_what_is_left() -> None:
    # classic-2p draws two, but with one card left in the stock (8C) the player draws just that one.
    state = shrink_stock(two("9H 9D KS", stock_top="8C"), keep=1)
    verdict = assert_legal("classic-2p", state, "draw")
    assert verdict.events == (CardsDrawn(0, tuple(parse_cards("8C"))),)
    assert verdict.next_state is not None and verdict.next_state.stock == ()


def test_wild_on_natural_canasta_turns_it_mixed() -> None:
    verdict = assert_legal("classic-4p", four("2C QS QD", melds=(K7,), **PLAY), "meld K: 2C")
    assert verdict.events == (CanastaMade(0, tuple(parse_cards(K7 + " 2C")), False),)


def test_must_take_pile_whenever_allowed_variant() -> None:
    # Stock empty; hand: 9H 9D KS QS; side 0 has only kings; pile: 5C 9S, unfrozen.
    # classic-4p: the 9S fits no meld of the side, so declining (draw) ends the hand;
    # under 'whenever allowed' the natural pair could take it, so declining is refused.
    state = shrink_stock(four("9H 9D KS QS", melds=("KC KD KH",), pile="5C 9S"))
    ended = assert_legal("classic-4p", state, "draw")
    assert ended.next_state is not None and ended.next_state.hand_end == HandEnd.STOCK_EXHAUSTED
    assert_illegal("test-must-take", state, "draw", [("MUST_TAKE_PILE", "stock_exhaustion.must_take_pile")])
    assert_legal("test-must-take", state, "take-pile with 9H 9D")


def test_last_red_three_ends_the_hand_at_once_in_classic_4p() -> None:
    # classic-4p: the last stock card 3H is laid and the hand ends, with no chance to meld.
    state = shrink_stock(four("9H 9D 9S KS QS", melds=("KC KD KH",), pile="5C", stock_top="3H"), keep=1)
    verdict = assert_legal("classic-4p", state, "draw")
    after = verdict.next_state
    assert after is not None
    assert (after.phase, after.hand_end) == (Phase.HAND_OVER, HandEnd.LAST_RED_THREE)
    assert after.sides[0].red_threes == tuple(parse_cards("3H"))
    assert isinstance(verdict.events[-1], HandEnded)
    assert verdict.events[-1].reason == HandEnd.LAST_RED_THREE


def test_last_red_three_may_meld_variant() -> None:
    # The same draw under the variant: the player may meld, then finish; a discard is refused.
    state = shrink_stock(four("9H 9D 9S KS QS", melds=("KC KD KH",), pile="5C", stock_top="3H"), keep=1)
    final = assert_legal("test-last-red-melds", state, "draw").next_state
    assert final is not None and final.phase == Phase.FINAL_MELDS
    assert_illegal(
        "test-last-red-melds", final, "discard QS", [("LAST_RED_THREE_NO_DISCARD", "stock_exhaustion.last_red_three")]
    )
    melded = assert_legal("test-last-red-melds", final, "meld 9H 9D 9S").next_state
    assert melded is not None and melded.phase == Phase.FINAL_MELDS
    done = assert_legal("test-last-red-melds", melded, "finish")
    assert done.next_state is not None and done.next_state.hand_end == HandEnd.LAST_RED_THREE


def test_finish_only_after_a_last_red_three() -> None:
    assert_illegal("classic-2p", two("9H 9D KS", **PLAY), "finish", [("WRONG_PHASE", "turn")])


def test_ask_then_answer_yes_binds() -> None:
    state = four("9H 9D 9S 5C", melds=(K7,), **PLAY)  # can go out: meld the nines, discard 5C
    asked = assert_legal("classic-4p", state, "ask").next_state
    assert asked is not None
    assert (asked.phase, asked.turn.partner_answer) == (Phase.AWAIT_ANSWER, PartnerAnswer.PENDING)
    assert_illegal("classic-4p", asked, "discard 5C", [("WRONG_PHASE", "turn")])
    answered = assert_legal("classic-4p", asked, "answer yes").next_state
    assert answered is not None and answered.turn.partner_answer == PartnerAnswer.YES
    assert_illegal("classic-4p", answered, "discard 5C", [("MUST_GO_OUT_PARTNER_SAID_YES", "going_out.ask_partner")])


# --- 3. the seed examples ----------------------------------------------------------------------------------------


def test_seed_001_nine_nine_joker_is_a_meld_nine_joker_two_is_not() -> None:
    # seed 001 'Melds and canastas'; classic-2p; hand: 9H 9D JK 2C QS QD.
    state = two("9H 9D JK 2C QS QD", **PLAY)
    assert_legal("classic-2p", state, "meld 9H 9D JK")
    assert_illegal("classic-2p", state, "meld 9H JK 2C", [("MELD_TOO_FEW_NATURALS", "melds.min_naturals")])


@pytest.mark.parametrize("rule_set", ["classic-2p", "classic-4p"])
@pytest.mark.parametrize(
    ("total", "action", "ok"),
    [
        (0, "meld AH AD AS", True),  # 60 clears 50
        (0, "meld 8H 8D 8S", False),  # 30 does not
        (0, "meld 8H 8D 8S, QH QD 2C", True),  # 10+10+10+10+10+20 = 70
        (1500, "meld AH AD AS", False),  # 60 is short of 90
        (1500, "meld AH AD AS, 8H 8D 8S", True),  # 90
        (-20, "meld 8H 8D 8S", True),  # below zero only 15 is needed
    ],
)
def test_seed_000_initial_meld_minimum(rule_set: str, total: int, action: str, ok: bool) -> None:
    # seed 000 'The initial meld minimum'; hand: AH AD AS 8H 8D 8S QH QD 2C 4C 5C; side 0 has not melded.
    hand = "AH AD AS 8H 8D 8S QH QD 2C 4C 5C"
    state = two(hand, totals=[total, 0], **PLAY) if rule_set == "classic-2p" else four(hand, totals=[total, 0], **PLAY)
    if ok:
        assert_legal(rule_set, state, action)
    else:
        assert_illegal(rule_set, state, action, [("INITIAL_MELD_BELOW_MINIMUM", "initial_meld.thresholds")])


def _table(rule_set: str, hand: str, **kw: object) -> GameState:
    return two(hand, **kw) if rule_set == "classic-2p" else four(hand, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("rule_set", ["classic-2p", "classic-4p"])
def test_seed_frozen_by_a_wild(rule_set: str) -> None:
    # hand: 9C 9D JK QS QD; side 0 has KC KD KH and 9C 9D 9H; pile: 5C 2D 9S, frozen by the wild underneath.
    state = _table(rule_set, "9C 9D JK QS QD", melds=("KC KD KH", "9C 9D 9H"), pile="5C 2D 9S")
    frozen = [("PILE_FROZEN_NEEDS_NATURAL_PAIR", "discard_pile.frozen_by_wild")]
    assert_legal(rule_set, state, "take-pile with 9C 9D")  # a natural pair takes it
    assert_illegal(rule_set, state, "take-pile with 9C JK", frozen)  # a natural and a wild do not
    assert_illegal(rule_set, state, "take-pile", frozen)  # the side's meld of nines does not help


@pytest.mark.parametrize("rule_set", ["classic-2p", "classic-4p"])
def test_seed_frozen_until_the_initial_meld(rule_set: str) -> None:
    # hand: AC AD JK 9C 9D KC KD KH QS; side 0 has not melded; pile: 5C AS, no wild in it.
    state = _table(rule_set, "AC AD JK 9C 9D KC KD KH QS", pile="5C AS")
    assert_legal(rule_set, state, "take-pile with AC AD")  # 60 with the top card
    assert_illegal(
        rule_set,
        state,
        "take-pile with AC JK",  # 90 points, but frozen to the side
        [("PILE_FROZEN_NEEDS_NATURAL_PAIR", "discard_pile.frozen_until_initial_meld")],
    )
    # With the top card only counting, 9S 9C 9D is 30: more melds from the hand make up the minimum.
    nines = _table(rule_set, "9C 9D KC KD KH QS QD", pile="5C 9S")
    assert_illegal(rule_set, nines, "take-pile with 9C 9D", [("INITIAL_MELD_BELOW_MINIMUM", "initial_meld.thresholds")])
    assert_legal(rule_set, nines, "take-pile with 9C 9D meld KC KD KH")


@pytest.mark.parametrize("rule_set", ["classic-2p", "classic-4p"])
def test_seed_black_three_on_top_blocks_only_while_on_top(rule_set: str) -> None:
    # hand: 9H 9D 3C 3C QS; side 0 has KC KD KH.
    blocked = _table(rule_set, "9H 9D 3C 3C QS", melds=("KC KD KH",), pile="9S 3S")
    block = [("PILE_TOP_BLACK_THREE", "discard_pile.black_three_top_blocks")]
    assert_illegal(rule_set, blocked, "take-pile with 3C 3C", block)
    assert_illegal(rule_set, blocked, "take-pile with 9H 9D", block)
    covered = _table(rule_set, "9H 9D 3C 3C QS", melds=("KC KD KH",), pile="3S 9S")
    assert_legal(rule_set, covered, "take-pile with 9H 9D")


def test_seed_going_out_needs_two_canastas_in_2p_and_one_in_4p() -> None:
    # Side 0 has a natural canasta of kings; hand: 9H 9D 9S, melded whole.
    one_canasta_2p = two("9H 9D 9S", melds=(K7,), **PLAY)
    assert_illegal(
        "classic-2p",
        one_canasta_2p,
        "meld 9H 9D 9S",
        [
            ("MUST_KEEP_CARDS", "going_out.min_hand_after_meld_without_canastas"),
            ("GO_OUT_WITHOUT_CANASTAS", "going_out.canastas_required"),
        ],
    )
    two_canastas_2p = two("9H 9D 9S", melds=(K7, Q7), **PLAY)
    out = assert_legal("classic-2p", two_canastas_2p, "meld 9H 9D 9S").next_state
    assert out is not None and (out.hand_end, out.went_out_seat) == (HandEnd.WENT_OUT, 0)
    out = assert_legal("classic-4p", four("9H 9D 9S", melds=(K7,), **PLAY), "meld 9H 9D 9S").next_state
    assert out is not None and out.hand_end == HandEnd.WENT_OUT
    # Going out by discarding the last card: the same counts.
    assert_illegal(
        "classic-2p",
        two("5C", melds=(K7, "9C 9D 9H"), **PLAY),
        "discard 5C",
        [("GO_OUT_WITHOUT_CANASTAS", "going_out.canastas_required")],
    )
    assert_legal("classic-4p", four("5C", melds=(K7, "9C 9D 9H"), **PLAY), "discard 5C")
    assert_illegal(
        "classic-4p",
        four("5C", melds=("9C 9D 9H",), **PLAY),
        "discard 5C",
        [("GO_OUT_WITHOUT_CANASTAS", "going_out.canastas_required")],
    )


def _hand_ended(verdict: Verdict) -> HandEnded:
    ended = [e for e in verdict.events if isinstance(e, HandEnded)]
    assert len(ended) == 1
    return ended[0]


def _items(ended: HandEnded, side: int) -> list[tuple[ScoreItem, int]]:
    return [(line.item, line.points) for line in ended.scores[side].lines]


def test_seed_concealed_going_out_scores_200_in_classic_2p() -> None:
    # classic-2p; nothing melded before; hand: two sevens-card sets, 4C..4S and 5C..5S (70 points, two canastas).
    fours, fives = "4C 4C 4D 4D 4H 4H 4S", "5C 5C 5D 5D 5H 5H 5S"
    state = two(f"{fours} {fives}", opp="KS", **PLAY)
    verdict = assert_legal("classic-2p", state, f"meld {fours}, {fives}")
    ended = _hand_ended(verdict)
    assert ended.reason == HandEnd.WENT_OUT
    assert verdict.next_state is not None and verdict.next_state.went_out_concealed
    assert _items(ended, 0) == [
        (ScoreItem.MELDED_CARDS, 35),
        (ScoreItem.MELDED_CARDS, 35),
        (ScoreItem.NATURAL_CANASTA, 500),
        (ScoreItem.NATURAL_CANASTA, 500),
        (ScoreItem.GOING_OUT_CONCEALED, 200),
        (ScoreItem.CARDS_IN_HAND, 0),
    ]
    assert ended.scores[0].total == 1270
    assert [e for e in verdict.events if isinstance(e, CanastaMade)] == [
        CanastaMade(0, tuple(parse_cards(fours)), True),
        CanastaMade(0, tuple(parse_cards(fives)), True),
    ]


def test_going_out_after_melding_earlier_is_not_concealed() -> None:
    # classic-2p; this player melded in an earlier turn (the kings and queens); hand: 5C.
    state = two("5C", melds=(K7, Q7), melded_before=[True, False], **PLAY)
    ended = _hand_ended(assert_legal("classic-2p", state, "discard 5C"))
    assert (ScoreItem.GOING_OUT, 100) in _items(ended, 0)
    assert ScoreItem.GOING_OUT_CONCEALED not in [item for item, _ in _items(ended, 0)]


def test_concealed_going_out_after_drawing_needs_no_minimum_in_classic_4p() -> None:
    # classic-4p; side 0 has not melded; hand: 4C 4C 4D 4D 4H 4H 4S (35 points, below 50, but a canasta).
    fours = "4C 4C 4D 4D 4H 4H 4S"
    drew = four(fours, **PLAY)
    ended = _hand_ended(assert_legal("classic-4p", drew, f"meld {fours}"))
    assert (ScoreItem.GOING_OUT_CONCEALED, 200) in _items(ended, 0)
    # Taking the pile to do it still needs the minimum (the 4S on top counts, the 5C under it does not).
    pile = four("4C 4C 4D 4D 4H 4H", pile="5C 4S")
    assert_illegal(
        "classic-4p",
        pile,
        "take-pile with 4C 4C 4D 4D 4H 4H",
        [("INITIAL_MELD_BELOW_MINIMUM", "initial_meld.thresholds")],
    )


def test_going_out_by_taking_the_pile() -> None:
    # classic-4p; side 0 has seven kings; hand: 9H 9D; pile: 9S. The pair and the top card go down: the hand is
    # empty, so the player goes out (no discard needed).
    verdict = assert_legal("classic-4p", four("9H 9D", melds=(K7,), pile="9S"), "take-pile with 9H 9D")
    assert verdict.next_state is not None
    assert (verdict.next_state.hand_end, verdict.next_state.went_out_seat) == (HandEnd.WENT_OUT, 0)
    assert (ScoreItem.GOING_OUT, 100) in _items(_hand_ended(verdict), 0)
    # classic-2p needs two canastas for that.
    assert_illegal(
        "classic-2p",
        two("9H 9D", melds=(K7,), pile="9S"),
        "take-pile with 9H 9D",
        [
            ("MUST_KEEP_CARDS", "going_out.min_hand_after_meld_without_canastas"),
            ("GO_OUT_WITHOUT_CANASTAS", "going_out.canastas_required"),
        ],
    )
    # A rule set that requires a final discard refuses it.
    assert_illegal(
        "test-discard-to-go-out",
        four("9H 9D", melds=(K7,), pile="9S"),
        "take-pile with 9H 9D",
        [("GO_OUT_NEEDS_DISCARD", "going_out.discard_optional")],
    )


def test_concealed_going_out_by_taking_the_pile() -> None:
    # classic-4p; side 0 has not melded; hand: AC AC AD AD AH AH; pile: AS. Seven aces (140, above the minimum)
    # make a canasta and empty the hand in one turn: concealed (seed 002 'Going out').
    verdict = assert_legal("classic-4p", four("AC AC AD AD AH AH", pile="AS"), "take-pile with AC AC AD AD AH AH")
    assert verdict.next_state is not None and verdict.next_state.went_out_concealed
    assert (ScoreItem.GOING_OUT_CONCEALED, 200) in _items(_hand_ended(verdict), 0)


@pytest.mark.parametrize("scenario", ["two meld actions", "take the pile, then add to its meld"])
def test_concealed_going_out_over_several_actions_of_one_turn(scenario: str) -> None:
    # The whole hand goes down in one turn, a canasta included, nothing tabled earlier (seed 000 'Going out':
    # 200). TurnState.added_to_existing means 'added to a meld that was on the table when the turn began'.
    if scenario == "two meld actions":
        # classic-2p; hand: 4C 4C 4D 4D 4H 4H 4S 5C 5C 5D 5D 5H 5H 5S 8C. Seven fours and six fives go down,
        # then the 5S completes the fives, then 8C is discarded.
        rule_set = "classic-2p"
        state = two("4C 4C 4D 4D 4H 4H 4S 5C 5C 5D 5D 5H 5H 5S 8C", opp="KS", **PLAY)
        actions = ["meld 4C 4C 4D 4D 4H 4H 4S, 5C 5C 5D 5D 5H 5H", "meld 5S", "discard 8C"]
    else:
        # classic-4p; side 0 has not melded; hand: 9H 9D 9C 9C 9D KH KD KS JK; pile: 5C 9S. The pile is taken
        # with 9H 9D and the kings; then 9C 9C 9D JK complete the nines; then the 5C from the pile is discarded.
        rule_set = "classic-4p"
        state = four("9H 9D 9C 9C 9D KH KD KS JK", pile="5C 9S")
        actions = ["take-pile with 9H 9D meld KH KD KS", "meld 9C 9C 9D JK", "discard 5C"]
    verdict = None
    for action in actions:
        verdict = assert_legal(rule_set, state, action)
        assert verdict.next_state is not None
        state = verdict.next_state
    assert verdict is not None and state.hand_end == HandEnd.WENT_OUT
    assert state.went_out_concealed
    assert (ScoreItem.GOING_OUT_CONCEALED, 200) in _items(_hand_ended(verdict), 0)


def test_seed_going_out_in_classic_4p_counts_the_partners_hand() -> None:
    # classic-4p; side 0 (seats 0 and 2) has seven kings; seat 0 holds 5C, the partner JK QS (60 points).
    state = four("5C", melds=(K7,), partner="JK QS", **PLAY)
    ended = _hand_ended(assert_legal("classic-4p", state, "discard 5C"))
    assert _items(ended, 0) == [
        (ScoreItem.MELDED_CARDS, 70),
        (ScoreItem.NATURAL_CANASTA, 500),
        (ScoreItem.GOING_OUT, 100),
        (ScoreItem.CARDS_IN_HAND, 0),
        (ScoreItem.CARDS_IN_HAND, -60),
    ]
    assert ended.scores[0].total == 610
    assert ended.table.sides[0].hands == ((), tuple(parse_cards("JK QS")))


@pytest.mark.parametrize("rule_set", ["classic-2p", "classic-4p"])
@pytest.mark.parametrize(
    ("hand", "action", "expected"),
    [
        ("3C 3C 3S", "meld 3C 3C 3S", []),  # three, going out
        ("3C 3C 3S 3S", "meld 3C 3C 3S 3S", []),  # four, going out
        ("3C 3S", "meld 3C 3S", [("BLACK_THREE_MELD_SIZE", "threes.black_three_meld_min")]),
        ("3C 3C 3S JK", "meld 3C 3C 3S JK", [("BLACK_THREE_MELD_WILDS", "threes.black_three_meld_wilds")]),
        ("3C 3C 3S JS JD", "meld 3C 3C 3S", [("BLACK_THREES_NOT_GOING_OUT", "threes.black_three_meld_going_out_only")]),
    ],
)
def test_seed_black_threes_melded_only_when_going_out(
    rule_set: str, hand: str, action: str, expected: list[tuple[str, str]]
) -> None:
    # The side has the canastas it needs to go out (kings, and queens in classic-2p).
    melds = (K7, Q7) if rule_set == "classic-2p" else (K7,)
    state = _table(rule_set, hand, melds=melds, **PLAY)
    if expected:
        assert_illegal(rule_set, state, action, expected)
    else:
        out = assert_legal(rule_set, state, action).next_state
        assert out is not None and out.hand_end == HandEnd.WENT_OUT


def test_black_threes_as_last_meld_then_final_discard() -> None:
    # classic-4p; side 0 has seven kings; hand: 3C 3C 3S 5H. The black threes go down leaving 5H, which is
    # then discarded to go out: 'put down all but one and discard it' (seed 002 'Going out').
    state = four("3C 3C 3S 5H", melds=(K7,), **PLAY)
    verdict = check("classic-4p", state, "meld 3C 3C 3S")
    assert verdict.legal  # the engine accepts the meld (going out with the last card still to discard) ...
    assert verdict.next_state is not None
    assert validate_state(rules_of("classic-4p"), verdict.next_state) == []  # ... but calls its result invalid
    assert_legal("classic-4p", verdict.next_state, "discard 5H")


# --- 4. robustness -----------------------------------------------------------------------------------------------


def test_card_not_in_hand_for_meld_and_take_pile() -> None:
    # hand: 9H 9D KS QS; the player names a 9S it does not hold.
    state = two("9H 9D KS QS", melds=("KC KD KH",), **PLAY)
    verdict = assert_illegal("classic-2p", state, "meld 9H 9D 9S", [("CARDS_NOT_IN_HAND", "turn")])
    assert "9S" in verdict.violations[0].explanation
    pile = two("9H KS QS", melds=("KC KD KH",), pile="5C 9S")
    assert_illegal("classic-2p", pile, "take-pile with 9H 9D", [("CARDS_NOT_IN_HAND", "turn")])
    # Two copies named but one held.
    assert_illegal("classic-2p", two("9H 9D KS QS QD", **PLAY), "meld 9H 9H 9D", [("CARDS_NOT_IN_HAND", "turn")])


@pytest.mark.parametrize(
    ("phase", "turn", "action"),
    [
        ("PHASE_DRAW", None, "discard KS"),  # must draw first
        ("PHASE_DRAW", None, "meld 9H 9D 9S"),
        ("PHASE_PLAY", {"start": "TURN_START_DREW"}, "take-pile with 9H 9D"),  # already drew
        ("PHASE_DRAW", None, "answer yes"),  # nobody asked
    ],
)
def test_wrong_phase(phase: str, turn: dict | None, action: str) -> None:
    # classic-4p; hand: 9H 9D 9S KS QS; side 0 has KC KD KH; pile: 5C 9S.
    state = four("9H 9D 9S KS QS", melds=("KC KD KH",), pile="5C 9S", phase=phase, turn=turn)
    assert_illegal("classic-4p", state, action, [("WRONG_PHASE", "turn")])


def test_taking_the_pile_twice() -> None:
    # classic-2p; hand: 9H 9D QS QD; pile: 5C 9S. The first take is legal; a second take in PLAY is out of order
    # (and the pile it would take is now empty).
    state = two("9H 9D QS QD", melds=("KC KD KH",), pile="5C 9S")
    taken = assert_legal("classic-2p", state, "take-pile with 9H 9D").next_state
    assert taken is not None
    verdict = assert_illegal(
        "classic-2p", taken, "take-pile with QS QD", [("WRONG_PHASE", "turn"), ("PILE_EMPTY", "discard_pile")]
    )
    assert "already took the pile" in verdict.violations[0].explanation
    verdict = assert_illegal("classic-2p", taken, "draw", [("WRONG_PHASE", "turn")])
    assert "already took the pile" in verdict.violations[0].explanation


@pytest.mark.parametrize(
    ("action", "path"),
    [
        ("meld 9H 9D KH", "action.meld.groups[0]"),  # mixed ranks
        ("meld 9H 9D 3H", "action.meld.groups[0]"),  # a red three
        ("meld KC KD KH, 9H 9D QS", "action.meld.groups[1]"),
        ("take-pile with 9H 9D meld KH QH QD", "action.take_pile.melds[0]"),
    ],
)
def test_malformed_action_is_invalid_input(action: str, path: str) -> None:
    state = two("9H 9D KC KD KH QS QD", **PLAY)
    with pytest.raises(InvalidInputError) as info:
        check("classic-2p", state, action)
    assert [p.field for p in info.value.problems] == [path]


def test_inconsistent_state_is_refused() -> None:
    # A third KH: two in seat 0's hand and one in side 0's kings.
    state = two("KH KH 9D", melds=("KC KD KH",), **PLAY)
    with pytest.raises(InvalidStateError) as info:
        check("classic-2p", state, "discard 9D")
    assert any("3 copies of KH" in p.description for p in info.value.problems)
    # Other breaks are refused the same way: a red three held in a hand.
    with pytest.raises(InvalidStateError):
        check("classic-2p", two("3H 9D", **PLAY), "discard 9D")


@pytest.mark.parametrize(
    ("action", "legal_move"),
    [
        ("take-pile with 9H 9D", True),
        ("take-pile with 9H JK", False),
    ],
)
def test_check_has_no_side_effects(action: str, legal_move: bool) -> None:
    state = two("9H 9D JK QS QD", melds=("KC KD KH",), pile="5C 2D 9S")
    snapshot = copy.deepcopy(state)
    first = check("classic-2p", state, action)
    second = check("classic-2p", state, action)
    assert first == second
    assert first.legal is legal_move
    assert state == snapshot
    rules = rules_of("classic-2p")
    spec_before = rules.spec.SerializeToString()
    check("classic-2p", state, action)
    assert rules.spec.SerializeToString() == spec_before


# --- regressions found in review ----------------------------------------------------------------------------


def _only_stock_card(state, keep: int = 1, seat: int = 1):
    """Move all but the top `keep` stock cards into seat `seat`'s hand (red threes to its side): a near-empty stock."""
    from dataclasses import replace as _replace

    from oracle.model.cards import is_red_three

    cut = len(state.stock) - keep
    moved = state.stock[:cut]
    seats = list(state.seats)
    seats[seat] = _replace(seats[seat], hand=seats[seat].hand + tuple(c for c in moved if not is_red_three(c)))
    sides = list(state.sides)
    side = seat % len(sides)
    sides[side] = _replace(sides[side], red_threes=sides[side].red_threes + tuple(c for c in moved if is_red_three(c)))
    return _replace(state, seats=tuple(seats), sides=tuple(sides), stock=state.stock[cut:])


def test_after_a_last_red_three_one_card_left_is_not_going_out() -> None:
    # classic-2p (2P-GUIDE "Going out"): the last stock card 3H is laid, the player may meld, no discard follows.
    # hand 3C 3S 3C 9H with two canastas: melding the black threes would leave 9H, so it is not going out.
    k7, q7 = "KC KC KD KD KH KH KS", "QC QC QD QD QH QH QS"
    state = _only_stock_card(
        make_state("classic-2p", hands=["3C 3S 3C 9H", "5C 6D"], melds=[[k7, q7], []], pile="8D", stock_top="3H")
    )
    drawn = judge("classic-2p", state, "draw").next_state
    assert drawn is not None and drawn.phase.name == "FINAL_MELDS"
    verdict = judge("classic-2p", drawn, "meld 3C 3S 3C")
    assert codes(verdict) == ["BLACK_THREES_NOT_GOING_OUT"]


def test_after_a_last_red_three_the_minimum_is_not_waived_without_going_out() -> None:
    # running total 1500 (minimum 90); seven fours and seven fives are 70 points and leave 9H in hand
    hand = "4C 4C 4D 4D 4H 4H 4S 5C 5C 5D 5D 5H 5H 5S 9H"
    state = _only_stock_card(
        make_state("classic-2p", hands=[hand, "6C 6D"], pile="8D", stock_top="3H", totals=[1500, 0])
    )
    drawn = judge("classic-2p", state, "draw").next_state
    verdict = judge("classic-2p", drawn, "meld 4C 4C 4D 4D 4H 4H 4S, 5C 5C 5D 5D 5H 5H 5S")
    assert codes(verdict) == ["INITIAL_MELD_BELOW_MINIMUM"]


def test_a_wild_may_go_with_the_top_card_onto_the_sides_meld() -> None:
    # 4P-CLASSIC "The discard pile": an unfrozen pile is taken by adding the top card (9S) to the side's nines;
    # a two from the hand may join that meld at the same time
    state = make_state(
        "classic-4p", hands=["2C 5C 6D 7H", "4C 4D 5D", "6C 6H 7C", "8C 8D 8H"], melds=[["9C 9D 9H"], []], pile="4S 9S"
    )
    verdict = judge("classic-4p", state, "take-pile with 2C")
    assert verdict.legal, codes(verdict)
    assert verdict.next_state is not None
    assert sorted(verdict.next_state.sides[0].melds[0]) == sorted(parse_cards("9C 9D 9H 9S 2C"))
