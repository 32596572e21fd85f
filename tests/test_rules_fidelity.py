"""Rules the audit of issue 14 found wrong, each pinned by what a player relies on: taking the pile with one
natural under the natural-pair rule, asking the partner after laying other groups with the pile, and the other
fixes of that list."""

from __future__ import annotations

from helpers import make_state, rules

from oracle.model.actions import parse_action
from oracle.rules.referee import check_action

FOUR_HANDS = ["9H QS QD", "6C 7D", "6D 7C", "6H 7H"]


def _codes(rule_set: str, state: object, action: str) -> list[str]:
    verdict = check_action(rules(rule_set), state, parse_action(action))  # type: ignore[arg-type]
    return [v.code for v in verdict.violations]


def test_one_natural_onto_the_sides_meld_takes_the_pile_only_where_the_meld_may_take_it() -> None:
    """natural-pair-only-4p: one natural and the top card joining the side's nines is no natural pair."""
    melds = [["KC KD KH", "9C 9D 9H"], []]
    for rule_set, expected in (("classic-4p", []), ("natural-pair-only-4p", ["PILE_ONTO_MELD_NOT_ALLOWED"])):
        state = make_state(
            rule_set, hands=FOUR_HANDS, melds=melds, pile="5C 9S", melded_before=[True, False, False, False]
        )
        assert _codes(rule_set, state, "take-pile with 9H") == expected, rule_set
        # a natural pair still takes it in both
        pair = make_state(
            rule_set,
            hands=["9H 9D QS QD", *FOUR_HANDS[1:]],
            melds=[["KC KD KH", "9C 9S 9H"], []],
            pile="5C 9C",
            melded_before=[True, False, False, False],
        )
        assert _codes(rule_set, pair, "take-pile with 9H 9D") == [], rule_set


def _after_take(rule_set: str, melds: list[list[str]], take: str) -> object:
    state = make_state(
        rule_set,
        hands=["9C 9D AH AD AS KC KD KH 5C 6C", "6C 7D", "6D 7C", "6H 7H"],
        melds=melds,
        pile="5D 9S",
        melded_before=[bool(melds[0]), False, False, False],
    )
    verdict = check_action(rules(rule_set), state, parse_action(take))
    assert verdict.legal, verdict.violations
    return verdict.next_state


def test_asking_after_laying_groups_the_pile_did_not_need_is_refused() -> None:
    """4P-CLASSIC "Going out": ask right after taking the pile, before putting anything else down."""
    with_melds = [["QC QD QH"], []]
    plain = _after_take("classic-4p", with_melds, "take-pile with 9C 9D")
    assert _codes("classic-4p", plain, "ask") == []
    extra = _after_take("classic-4p", with_melds, "take-pile with 9C 9D meld AH AD AS")
    assert _codes("classic-4p", extra, "ask") == ["ASK_AFTER_MELDING"]


def test_groups_the_initial_meld_needed_to_take_the_pile_still_allow_asking() -> None:
    """The nines (30) fall short of 50: the aces are part of taking the pile; the kings are not needed."""
    needed = _after_take("classic-4p", [[], []], "take-pile with 9C 9D meld AH AD AS")
    assert _codes("classic-4p", needed, "ask") == []
    more = _after_take("classic-4p", [[], []], "take-pile with 9C 9D meld AH AD AS, KC KD KH")
    assert _codes("classic-4p", more, "ask") == ["ASK_AFTER_MELDING"]
