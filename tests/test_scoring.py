"""Scoring a finished hand (oracle.rules.scoring.score_hand) and the checks that reject malformed tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.model.cards import (
    JOKER,
    deck,
    format_card,
    is_black_three,
    is_natural,
    is_red_three,
    is_wild,
    parse_card,
    parse_cards,
    rank_of,
)
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.model.score import ScoreItem, SideScore
from oracle.model.table import HandTable, SideTable, WentOut
from oracle.rules.scoring import score_hand
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import default_rule_book

I = ScoreItem  # noqa: E741 - short alias for the expected-line tables


def rules_for(rule_set: str) -> CompiledRules:
    return default_rule_book().get(rule_set).rules


TWO_P = rules_for("classic-2p")
FOUR_P = rules_for("classic-4p")


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def side(
    melds: Iterable[str] = (), red_threes: str = "", hands: Iterable[str] = ("",), went_out: WentOut = WentOut.NO
) -> SideTable:
    """A side from card notation: each meld and each hand one string."""
    return SideTable(tuple(cards(m) for m in melds), cards(red_threes), tuple(cards(h) for h in hands), went_out)


def table(*sides: SideTable) -> HandTable:
    return HandTable(tuple(sides))


def lines(score: SideScore) -> list[tuple[ScoreItem, int]]:
    return [(line.item, line.points) for line in score.lines]


def points_of(score: SideScore, *items: ScoreItem) -> int:
    return sum(line.points for line in score.lines if line.item in items)


def points_per_line(score: SideScore, item: ScoreItem) -> list[int]:
    return [line.points for line in score.lines if line.item == item]


def problems_of(rules: CompiledRules, hand_table: HandTable) -> list[FieldProblem]:
    with pytest.raises(InvalidInputError) as info:
        score_hand(rules, hand_table)
    problems = info.value.problems
    assert problems
    assert all(isinstance(p, FieldProblem) for p in problems)
    return problems


def fields(problems: list[FieldProblem]) -> list[str]:
    return [p.field for p in problems]


# Two canastas for a two-player side that goes out:
#   seven kings KC KC KD KD KH KH KS (natural: 70 + 500)
#   seven queens QC QC QD QD QH QH QS (natural: 70 + 500)
KINGS_7 = "KC KC KD KD KH KH KS"
QUEENS_7 = "QC QC QD QD QH QH QS"


# ---------------------------------------------------------------------------------------------------------------
# Worked examples from the seed texts


def test_seed_001_worked_hand() -> None:
    """Seed 001 'A hand scored': You 1,250, the computer 5 (classic-2p)."""
    you = side(
        melds=[
            "KC KC KD KD KH KH KS",  # natural canasta of seven kings: 70, bonus 500
            "8C 8C 8D 8D 8H 2C JK",  # mixed canasta: five 8s 50 + 2 20 + joker 50 = 120, bonus 300
            "AC AD AH",  # three aces: 60
        ],
        red_threes="3D",  # one red three: 100
        hands=[""],  # went out: nothing left
        went_out=WentOut.NORMAL,  # going out: 100
    )
    computer = side(
        melds=[
            "9C 9C 9D 9D 2D",  # four 9s 40 + a 2 20 = 60
            "5C 5D 5H",  # three 5s: 15
        ],
        hands=["JK QC 7C 4C"],  # joker 50 + queen 10 + 7 5 + 4 5 = 70 against
    )
    you_score, computer_score = score_hand(TWO_P, table(you, computer))

    assert lines(you_score) == [
        (I.MELDED_CARDS, 70),
        (I.MELDED_CARDS, 120),
        (I.MELDED_CARDS, 60),
        (I.NATURAL_CANASTA, 500),
        (I.MIXED_CANASTA, 300),
        (I.RED_THREES, 100),
        (I.GOING_OUT, 100),
        (I.CARDS_IN_HAND, 0),
    ]
    assert you_score.total == 1250
    # The seed's table, row by row.
    assert points_of(you_score, I.NATURAL_CANASTA, I.MIXED_CANASTA) == 800
    assert points_of(you_score, I.RED_THREES, I.ALL_RED_THREES) == 100
    assert points_of(you_score, I.GOING_OUT, I.GOING_OUT_CONCEALED) == 100
    assert points_of(you_score, I.MELDED_CARDS) == 250
    assert points_of(you_score, I.CARDS_IN_HAND) == 0

    assert lines(computer_score) == [
        (I.MELDED_CARDS, 60),
        (I.MELDED_CARDS, 15),
        (I.CARDS_IN_HAND, -70),
    ]
    assert points_of(computer_score, I.MELDED_CARDS) == 75
    assert points_of(computer_score, I.CARDS_IN_HAND) == -70
    assert computer_score.total == 5


def test_seven_kings_natural_canasta_is_570() -> None:
    """Seed 002 'Canastas': a natural canasta of seven kings is 500 + 70 = 570 (classic-4p)."""
    ours = side(
        melds=["KC KC KD KD KH KH KS"],  # seven kings, no wild
        hands=["", "4C"],  # one partner went out; the other holds a 4 (-5)
        went_out=WentOut.NORMAL,
    )
    theirs = side(melds=["QC QD QH"], hands=["5C", "6D"])  # queens 30; hands -5, -5
    ours_score, theirs_score = score_hand(FOUR_P, table(ours, theirs))
    assert lines(ours_score) == [
        (I.MELDED_CARDS, 70),
        (I.NATURAL_CANASTA, 500),
        (I.GOING_OUT, 100),
        (I.CARDS_IN_HAND, 0),
        (I.CARDS_IN_HAND, -5),
    ]
    assert points_of(ours_score, I.MELDED_CARDS, I.NATURAL_CANASTA) == 570
    assert ours_score.total == 665
    assert lines(theirs_score) == [(I.MELDED_CARDS, 30), (I.CARDS_IN_HAND, -5), (I.CARDS_IN_HAND, -5)]
    assert theirs_score.total == 20


# ---------------------------------------------------------------------------------------------------------------
# Red threes


@pytest.mark.parametrize("rules", [TWO_P, FOUR_P], ids=lambda r: r.id)
def test_all_four_red_threes_with_a_meld(rules: CompiledRules) -> None:
    hands = [""] * rules.side_size
    ours = side(melds=["QC QD QH"], red_threes="3D 3D 3H 3H", hands=["4C", *hands[1:]])
    # Queens 30; all four red threes 800; a 4 in hand -5.
    ours_score, _ = score_hand(rules, table(ours, side(hands=hands)))
    assert lines(ours_score) == [
        (I.MELDED_CARDS, 30),
        (I.RED_THREES, 400),
        (I.ALL_RED_THREES, 400),
        *[(I.CARDS_IN_HAND, v) for v in [-5, *[0] * (rules.side_size - 1)]],
    ]
    assert points_of(ours_score, I.RED_THREES, I.ALL_RED_THREES) == 800
    assert ours_score.total == 825


@pytest.mark.parametrize("rules", [TWO_P, FOUR_P], ids=lambda r: r.id)
def test_all_four_red_threes_without_a_meld(rules: CompiledRules) -> None:
    hands = [""] * rules.side_size
    ours = side(red_threes="3D 3D 3H 3H", hands=["4C", *hands[1:]])  # no meld at all; a 4 in hand
    theirs = side(melds=["QC QD QH"], hands=hands)
    ours_score, _ = score_hand(rules, table(ours, theirs))
    # 4P-CLASSIC "Scoring": minus 800 for all four; 2P-GUIDE "Scoring a hand": minus 100 each
    set_lost = [(I.ALL_RED_THREES_WITHOUT_MELD, -400)] if rules.threes.all_red_threes_negative_without_meld else []
    assert lines(ours_score) == [
        (I.RED_THREES_WITHOUT_MELD, -400),
        *set_lost,
        *[(I.CARDS_IN_HAND, v) for v in [-5, *[0] * (rules.side_size - 1)]],
    ]
    lost = -800 if rules is FOUR_P else -400
    assert points_of(ours_score, I.RED_THREES_WITHOUT_MELD, I.ALL_RED_THREES_WITHOUT_MELD) == lost
    assert ours_score.total == lost - 5


def test_one_red_three_without_a_meld() -> None:
    ours = side(red_threes="3H", hands=["4C 4D"])  # 3H and no meld: -100; 4C 4D: -10
    ours_score, _ = score_hand(TWO_P, table(ours, side(melds=["QC QD QH"], hands=[""])))
    assert lines(ours_score) == [(I.RED_THREES_WITHOUT_MELD, -100), (I.CARDS_IN_HAND, -10)]
    assert ours_score.total == -110


def test_three_red_threes_with_a_meld_have_no_all_bonus() -> None:
    ours = side(melds=["QC QD QH"], red_threes="3D 3H 3H", hands=[""])  # 30 + 300
    ours_score, _ = score_hand(TWO_P, table(ours, side(hands=["5C"])))
    assert lines(ours_score) == [(I.MELDED_CARDS, 30), (I.RED_THREES, 300), (I.CARDS_IN_HAND, 0)]
    assert ours_score.total == 330


# ---------------------------------------------------------------------------------------------------------------
# Canastas, going out, hands


def test_natural_canasta_plus_a_wild_is_mixed() -> None:
    # Seven kings and a joker (8 cards): 70 + 50 = 120, and a MIXED canasta (300), not natural.
    ours = side(melds=["KC KC KD KD KH KH KS JK"], hands=["4C"])
    ours_score, _ = score_hand(TWO_P, table(ours, side(hands=["5C"])))
    assert lines(ours_score) == [(I.MELDED_CARDS, 120), (I.MIXED_CANASTA, 300), (I.CARDS_IN_HAND, -5)]
    assert I.NATURAL_CANASTA not in [item for item, _ in lines(ours_score)]
    assert ours_score.total == 415


def test_six_cards_are_no_canasta() -> None:
    ours = side(melds=["KC KC KD KD KH JK"], hands=["4C"])  # 50 + 50, six cards: no bonus
    ours_score, _ = score_hand(TWO_P, table(ours, side(hands=["5C"])))
    assert lines(ours_score) == [(I.MELDED_CARDS, 100), (I.CARDS_IN_HAND, -5)]


@pytest.mark.parametrize(
    ("how", "item", "bonus", "absent"),
    [
        (WentOut.CONCEALED, I.GOING_OUT_CONCEALED, 200, I.GOING_OUT),
        (WentOut.NORMAL, I.GOING_OUT, 100, I.GOING_OUT_CONCEALED),
    ],
)
def test_going_out_bonus(how: WentOut, item: ScoreItem, bonus: int, absent: ScoreItem) -> None:
    # Two natural canastas (kings, queens: 70 + 500 each), hand empty.
    ours = side(melds=[KINGS_7, QUEENS_7], hands=[""], went_out=how)
    theirs = side(melds=["9C 9D 9H"], hands=["AC"])  # 30; ace in hand -20
    ours_score, theirs_score = score_hand(TWO_P, table(ours, theirs))
    assert lines(ours_score) == [
        (I.MELDED_CARDS, 70),
        (I.MELDED_CARDS, 70),
        (I.NATURAL_CANASTA, 500),
        (I.NATURAL_CANASTA, 500),
        (item, bonus),
        (I.CARDS_IN_HAND, 0),
    ]
    items = [i for i, _ in lines(ours_score)]
    assert items.count(item) == 1
    assert absent not in items
    assert ours_score.total == 1140 + bonus
    assert lines(theirs_score) == [(I.MELDED_CARDS, 30), (I.CARDS_IN_HAND, -20)]


def test_no_going_out_line_when_nobody_went_out() -> None:
    ours = side(melds=[KINGS_7], hands=["4C"])
    ours_score, _ = score_hand(TWO_P, table(ours, side(hands=["5C"])))
    items = [i for i, _ in lines(ours_score)]
    assert I.GOING_OUT not in items
    assert I.GOING_OUT_CONCEALED not in items


def test_four_player_side_subtracts_both_partners_hands() -> None:
    ours = side(
        melds=["KC KC KD KD KH KH KS"],  # 70 + 500
        hands=["", "JK AC 4C"],  # the partner of the one who went out holds 50 + 20 + 5 = 75
        went_out=WentOut.NORMAL,  # 100
    )
    theirs = side(
        melds=["9C 9D 9H"],  # 30
        hands=["QC 2C", "3C 5D"],  # 10 + 20 = 30; black three 5 + 5 = 10
    )
    ours_score, theirs_score = score_hand(FOUR_P, table(ours, theirs))
    assert lines(ours_score) == [
        (I.MELDED_CARDS, 70),
        (I.NATURAL_CANASTA, 500),
        (I.GOING_OUT, 100),
        (I.CARDS_IN_HAND, 0),
        (I.CARDS_IN_HAND, -75),
    ]
    assert ours_score.total == 595
    assert lines(theirs_score) == [(I.MELDED_CARDS, 30), (I.CARDS_IN_HAND, -30), (I.CARDS_IN_HAND, -10)]
    assert theirs_score.total == -10


# ---------------------------------------------------------------------------------------------------------------
# Black-three melds


def test_black_three_meld_when_going_out_scores_15() -> None:
    ours = side(
        melds=[KINGS_7, QUEENS_7, "3C 3S 3C"],  # two canastas (70 + 500 each); black threes 5 each = 15
        hands=[""],
        went_out=WentOut.NORMAL,
    )
    ours_score, _ = score_hand(TWO_P, table(ours, side(hands=["5C"])))
    assert lines(ours_score) == [
        (I.MELDED_CARDS, 70),
        (I.MELDED_CARDS, 70),
        (I.MELDED_CARDS, 15),
        (I.NATURAL_CANASTA, 500),
        (I.NATURAL_CANASTA, 500),
        (I.GOING_OUT, 100),
        (I.CARDS_IN_HAND, 0),
    ]
    assert ours_score.total == 1255


def test_black_three_meld_on_side_that_did_not_go_out_is_invalid() -> None:
    went_out = side(melds=[KINGS_7, QUEENS_7], hands=[""], went_out=WentOut.NORMAL)
    other = side(melds=["9C 9D 9H", "3C 3S 3C"], hands=["5C"])  # black threes but did not go out
    problems = problems_of(TWO_P, table(went_out, other))
    assert fields(problems) == ["table.sides[1].melds[1]"]
    assert "threes.black_three_meld_going_out_only" in problems[0].description


def test_black_three_meld_with_a_wild_is_invalid() -> None:
    ours = side(melds=[KINGS_7, QUEENS_7, "3C 3S 3C 2D"], hands=[""], went_out=WentOut.NORMAL)
    problems = problems_of(TWO_P, table(ours, side(hands=["5C"])))
    assert fields(problems) == ["table.sides[0].melds[2]"]
    assert "threes.black_three_meld_wilds" in problems[0].description


# ---------------------------------------------------------------------------------------------------------------
# Malformed tables


@pytest.mark.parametrize(
    ("meld", "why"),
    [
        ("KC KD QH", "different ranks"),  # kings and a queen
        ("KC KD 3H", "red three"),  # a red three in a meld
        ("KC KD 2C 2D JK JK", "melds.max_wilds"),  # four wilds
        ("9C JK 2C", "melds.min_naturals"),  # one natural (seed 001: 9, Joker, 2 is not a meld)
        ("9C 9D", "melds.min_size"),  # two cards
        ("JK 2C 2D", "melds.wild_only_melds"),  # wild cards alone
    ],
)
def test_bad_meld(meld: str, why: str) -> None:
    ours = side(melds=[meld], hands=["4C"])
    problems = problems_of(TWO_P, table(ours, side(hands=["5C"])))
    assert "table.sides[0].melds[0]" in fields(problems)
    assert any(why in p.description for p in problems if p.field == "table.sides[0].melds[0]")


def test_nine_nine_joker_is_a_meld() -> None:
    """Seed 001: '9, 9, Joker is a meld'."""
    ours_score, _ = score_hand(TWO_P, table(side(melds=["9C 9D JK"], hands=["4C"]), side(hands=["5C"])))
    assert lines(ours_score) == [(I.MELDED_CARDS, 70), (I.CARDS_IN_HAND, -5)]


def test_two_melds_of_one_rank() -> None:
    ours = side(melds=["KC KD KH", "KS KC JK"], hands=["4C"])  # two meld of kings
    problems = problems_of(TWO_P, table(ours, side(hands=["5C"])))
    assert fields(problems) == ["table.sides[0].melds[1]"]
    assert "melds.one_meld_per_rank" in problems[0].description


def test_both_sides_may_meld_the_same_rank() -> None:
    ours = side(melds=["KC KD KH"], hands=["4C"])
    theirs = side(melds=["KS KC JK"], hands=["5C"])
    scores = score_hand(TWO_P, table(ours, theirs))
    assert [s.total for s in scores] == [25, 65]  # 30 - 5; 70 - 5


def test_red_three_in_hand() -> None:
    ours = side(melds=["KC KD KH"], hands=["3H KC"])  # a red three kept in hand
    problems = problems_of(TWO_P, table(ours, side(hands=["5C"])))
    assert fields(problems) == ["table.sides[0].hands[0][0]"]


def test_red_three_in_partners_hand() -> None:
    ours = side(melds=["KC KD KH"], hands=["4C", "5D 3D"])
    problems = problems_of(FOUR_P, table(ours, side(hands=["5C", "6C"])))
    assert fields(problems) == ["table.sides[0].hands[1][1]"]


def test_black_card_among_red_threes() -> None:
    ours = side(melds=["KC KD KH"], red_threes="3H 3C", hands=["4C"])
    problems = problems_of(TWO_P, table(ours, side(hands=["5C"])))
    assert fields(problems) == ["table.sides[0].red_threes[1]"]


def _paths_holding(hand_table: HandTable, card: int) -> set[str]:
    """Every container path (and card path) of the table that holds `card`."""
    paths: set[str] = set()
    for i, s in enumerate(hand_table.sides):
        containers = [(f"table.sides[{i}].melds[{j}]", m) for j, m in enumerate(s.melds)]
        containers.append((f"table.sides[{i}].red_threes", s.red_threes))
        containers += [(f"table.sides[{i}].hands[{k}]", h) for k, h in enumerate(s.hands)]
        for path, held in containers:
            for n, c in enumerate(held):
                if c == card:
                    paths |= {path, f"{path}[{n}]"}
    return paths


@pytest.mark.parametrize(
    "hand_table",
    [
        # KH KH in a meld, a third KH in the other side's hand
        table(side(melds=["KH KH KS"], hands=["4C"]), side(hands=["KH"])),
        # a third KH in the same side's hand
        table(side(melds=["KH KH KS"], hands=["KH"]), side(hands=["5C"])),
        # one KH in each side's meld and one in a hand
        table(side(melds=["KH KC KS"], hands=["4C"]), side(melds=["KH KD KD"], hands=["KH 5C"])),
        # all three in one hand
        table(side(melds=["QC QD QH"], hands=["KH KH KH"]), side(hands=["5C"])),
    ],
    ids=["meld+other-hand", "meld+own-hand", "two-melds+hand", "one-hand"],
)
def test_third_copy_of_a_card(hand_table: HandTable) -> None:
    kh = parse_card("KH")
    problems = problems_of(TWO_P, hand_table)
    assert len(problems) == 1
    assert problems[0].field in _paths_holding(hand_table, kh)
    assert "3 copies of KH" in problems[0].description


def test_fifth_joker() -> None:
    hand_table = table(side(melds=["KC KD JK", "QC QD JK"], hands=["JK JK"]), side(hands=["JK"]))
    problems = problems_of(TWO_P, hand_table)
    assert len(problems) == 1
    assert problems[0].field in _paths_holding(hand_table, JOKER)
    assert "5 copies of JK" in problems[0].description


@pytest.mark.parametrize("count", [1, 3])
def test_wrong_number_of_sides(count: int) -> None:
    sides = [side(melds=["KC KD KH"], hands=["4C"])] + [side(hands=["5C"])] * (count - 1)
    problems = problems_of(TWO_P, table(*sides))
    assert "table.sides" in fields(problems)


def test_wrong_number_of_hands() -> None:
    ours = side(melds=["KC KD KH"], hands=["4C"])  # one hand on a two-player partnership side
    problems = problems_of(FOUR_P, table(ours, side(hands=["5C", "6C"])))
    assert fields(problems) == ["table.sides[0].hands"]


@pytest.mark.parametrize(
    ("rules", "melds"),
    [
        (TWO_P, [KINGS_7, "QC QD QH"]),  # one canasta; classic-2p needs two
        (FOUR_P, ["KC KD KH KS", "QC QD QH"]),  # no canasta; classic-4p needs one
    ],
    ids=["classic-2p", "classic-4p"],
)
def test_went_out_without_enough_canastas(rules: CompiledRules, melds: list[str]) -> None:
    hands = [""] * rules.side_size
    ours = side(melds=melds, hands=hands, went_out=WentOut.NORMAL)
    problems = problems_of(rules, table(ours, side(hands=["5C"] * rules.side_size)))
    assert fields(problems) == ["table.sides[0].went_out"]
    assert "going_out.canastas_required" in problems[0].description


def test_went_out_with_no_empty_hand() -> None:
    ours = side(melds=[KINGS_7, QUEENS_7], hands=["4C"], went_out=WentOut.NORMAL)
    problems = problems_of(TWO_P, table(ours, side(hands=["5C"])))
    assert fields(problems) == ["table.sides[0].went_out"]


def test_both_sides_went_out() -> None:
    ours = side(melds=["KC KC KD KD KH KH KS"], hands=["", ""], went_out=WentOut.NORMAL)
    theirs = side(melds=["QC QC QD QD QH QH QS"], hands=["", "4C"], went_out=WentOut.CONCEALED)
    problems = problems_of(FOUR_P, table(ours, theirs))
    assert fields(problems) == ["table.sides"]


@pytest.mark.parametrize("bad", [0, 99, 54, -1])
@pytest.mark.parametrize(
    ("where", "path"),
    [
        ("hand", "table.sides[0].hands[0][1]"),
        ("meld", "table.sides[0].melds[0][2]"),
        ("red_threes", "table.sides[0].red_threes[0]"),
    ],
)
def test_not_a_card(bad: int, where: str, path: str) -> None:
    kc, kd, four = parse_card("KC"), parse_card("KD"), parse_card("4C")
    melds = ((kc, kd, bad),) if where == "meld" else ((kc, kd, JOKER),)
    red_threes = (bad,) if where == "red_threes" else ()
    hands = ((four, bad),) if where == "hand" else ((four,),)
    ours = SideTable(melds, red_threes, hands)
    problems = problems_of(TWO_P, table(ours, side(hands=["5C"])))
    assert fields(problems) == [path]
    assert f"{bad} is not a card" in problems[0].description


def test_every_problem_is_reported() -> None:
    ours = side(melds=["KC KD QH", "9C 9D"], hands=["3H"])
    problems = problems_of(TWO_P, table(ours))
    assert set(fields(problems)) == {
        "table.sides",
        "table.sides[0].melds[0]",
        "table.sides[0].melds[1]",
        "table.sides[0].hands[0][0]",
    }


# ---------------------------------------------------------------------------------------------------------------
# Property: totals over generated valid tables


def seed_value(card: int) -> int:
    """Card points as the seed texts list them (001 'Canasta scoring'), from the card's notation."""
    token = format_card(card)
    if token == "JK":
        return 50
    if token[0] in "2A":
        return 20
    if token[0] in "89TJQK":
        return 10
    return 5  # 4 to 7 and black threes (red threes never reach here)


def reference_canasta_bonuses(s: SideTable) -> int:
    """The side's canasta bonuses from the seed texts: 500 a natural canasta, 300 a mixed one."""
    bonuses = 0
    for meld in s.melds:
        if len(meld) >= 7 and not any(is_black_three(c) for c in meld):
            bonuses += 300 if any(is_wild(c) for c in meld) else 500
    return bonuses


def reference_total(s: SideTable, players: int) -> int:
    """A side's score computed straight from the seed texts' scoring tables (`players` at the table)."""
    total = sum(seed_value(c) for meld in s.melds for c in meld)
    total += reference_canasta_bonuses(s)
    reds = len(s.red_threes)
    red_points = 800 if reds == 4 else 100 * reds
    # without a meld: 2P-GUIDE "Scoring a hand" minus 100 each; 4P-CLASSIC "Scoring" minus 800 for all four
    total += red_points if s.melds else -(100 * reds if players == 2 else red_points)
    total += {WentOut.NO: 0, WentOut.NORMAL: 100, WentOut.CONCEALED: 200}[s.went_out]
    total -= sum(seed_value(c) for hand in s.hands for c in hand)
    return total


LINE_GROUP = {
    I.MELDED_CARDS: 0,
    I.NATURAL_CANASTA: 1,
    I.MIXED_CANASTA: 1,
    I.RED_THREES: 2,
    I.ALL_RED_THREES: 2,
    I.RED_THREES_WITHOUT_MELD: 2,
    I.ALL_RED_THREES_WITHOUT_MELD: 2,
    I.GOING_OUT: 3,
    I.GOING_OUT_CONCEALED: 3,
    I.CARDS_IN_HAND: 4,
}


@st.composite
def valid_tables(draw: st.DrawFn, rules: CompiledRules) -> HandTable:
    """A well-formed end-of-hand table under a classic rule set, cards drawn from one deck."""
    pool = Counter(deck(rules.spec.deck.packs, rules.spec.deck.jokers))

    def available(pred: Callable[[int], bool]) -> list[int]:
        return sorted(c for c, n in pool.items() if n > 0 and pred(c))

    def take(pred: Callable[[int], bool], n: int) -> list[int]:
        out = []
        for _ in range(n):
            card = draw(st.sampled_from(available(pred)))
            pool[card] -= 1
            out.append(card)
        return out

    def count(pred: Callable[[int], bool]) -> int:
        return sum(n for c, n in pool.items() if pred(c))

    out_side = draw(st.sampled_from([None, *range(rules.sides)]))
    how = draw(st.sampled_from([WentOut.NORMAL, WentOut.CONCEALED]))
    required = rules.spec.going_out.canastas_required
    order = sorted(range(rules.sides), key=lambda i: i != out_side)  # the side that went out first
    built: dict[int, SideTable] = {}
    for i in order:
        went = i == out_side
        ranks = draw(st.lists(st.integers(2, 12), unique=True, min_size=required if went else 0, max_size=4))
        melds: list[tuple[int, ...]] = []
        for j, rank in enumerate(ranks):

            def of_rank(c: int, rank: int = rank) -> bool:
                return is_natural(c) and rank_of(c) == rank

            naturals, wilds = count(of_rank), count(is_wild)
            if went and j < required:  # a canasta (fresh ranks: the side that went out is built first)
                n = draw(st.integers(max(4, 7 - min(3, wilds)), naturals))
                w = draw(st.integers(max(0, 7 - n), min(3, wilds)))
            else:
                low = 2 if wilds else 3
                if naturals < low:
                    continue
                n = draw(st.integers(low, naturals))
                w = draw(st.integers(max(0, 3 - n), min(3, wilds)))
            melds.append(tuple(take(of_rank, n) + take(is_wild, w)))
        if went and count(is_black_three) >= 3 and draw(st.booleans()):
            melds.append(tuple(take(is_black_three, draw(st.integers(3, min(4, count(is_black_three)))))))
        red_threes = tuple(take(is_red_three, draw(st.integers(0, count(is_red_three)))))
        hands = []
        for k in range(rules.side_size):
            size = 0 if went and k == 0 else draw(st.integers(0, 5))
            hands.append(tuple(take(lambda c: not is_red_three(c), size)))
        built[i] = SideTable(tuple(melds), red_threes, tuple(hands), how if went else WentOut.NO)
    return HandTable(tuple(built[i] for i in range(rules.sides)))


@settings(derandomize=True, max_examples=100, deadline=None)
@given(st.data())
def test_lines_and_total_match_seed_tables(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from([TWO_P, FOUR_P]), label="rules")
    hand_table = data.draw(valid_tables(rules), label="table")
    scores = score_hand(rules, hand_table)
    assert len(scores) == rules.sides
    for s, score in zip(hand_table.sides, scores, strict=True):
        # Each line carries its own item's points from the seed tables, meld by meld and player by player
        # (an itemised score is read line by line, so a total that adds up is not enough).
        assert points_per_line(score, I.MELDED_CARDS) == [sum(seed_value(c) for c in meld) for meld in s.melds]
        assert points_per_line(score, I.CARDS_IN_HAND) == [-sum(seed_value(c) for c in hand) for hand in s.hands]
        assert points_of(score, I.NATURAL_CANASTA, I.MIXED_CANASTA) == reference_canasta_bonuses(s)
        assert score.total == reference_total(s, rules.seats)
        items = [line.item for line in score.lines]
        assert items.count(I.MELDED_CARDS) == len(s.melds)
        assert items.count(I.CARDS_IN_HAND) == rules.side_size
        # Itemised in a fixed order: melded cards, canasta bonuses, red threes, going out, hands.
        groups = [LINE_GROUP[item] for item in items]
        assert groups == sorted(groups)
