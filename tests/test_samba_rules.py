"""Samba (samba-4p): each new violation code and rule-set field judged directly through check_action and
score_hand, the default meld target, `new` and `to N`, combining, the run-canasta and red-three score lines, and the
legal moves of seeded random hands (runs, run extensions and combines listed whenever the referee allows them).

Each field test shows the shipped value's outcome and the outcome with the field changed (the rule set's spec
copied, changed and compiled), so a field the engine stopped reading fails here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from helpers import changed_rules, judge_valid, make_state
from helpers import code_fields as found
from helpers import score_points as points
from helpers import side_table as side

from oracle.api.v1 import ruleset_pb2
from oracle.games.deal import deal
from oracle.games.match import DeckSource, deck_order
from oracle.games.movegen import legal_actions
from oracle.games.simulate import choose
from oracle.model.actions import Action, Combine, Meld, MeldGroup, parse_action
from oracle.model.cards import make_card, parse_cards, rank_of, suit_of
from oracle.model.errors import InvalidInputError
from oracle.model.events import CanastaMade
from oracle.model.score import ScoreItem
from oracle.model.state import GameState, Phase, is_run
from oracle.model.table import HandTable
from oracle.rules.referee import Verdict, check_action
from oracle.rules.scoring import score_hand
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import default_rule_book

RULES = default_rule_book().get("samba-4p").rules
PLAY: dict[str, Any] = {"phase": "PHASE_PLAY", "turn": {"start": "TURN_START_DREW"}}
JACKS = "JS JD JC"  # a meld that makes the side one that has melded
Q7 = "QC QC QD QD QH QH QS"  # a natural canasta of queens
K7 = "KC KC KD KD KH KH KS"  # a natural canasta of kings
QMIX = "QC QC QD QH QS 2C 2D"  # a mixed canasta of queens
RUN6 = "4H 5H 6H 7H 8H 9H"  # a run one card short of a samba
SAMBA = RUN6 + " TH"  # a samba: a run of seven


def samba(hand: str, melds: tuple[str, ...] = (), opp: tuple[str, ...] = (), **kw: object) -> GameState:
    """A samba-4p state (162 cards) with seat 0 to move (seat 2 the partner); every card not placed is in the
    stock; without `phase` seat 0 is about to draw. Seat 0 also holds 5C 7C, so that a meld leaves the two cards
    a side without two canastas must keep."""
    return make_state(
        "samba-4p",
        hands=[hand + " 5C 7C", "6C 8D", "6D 8C", "6S 8S"],
        melds=[list(melds), list(opp)],
        **kw,  # type: ignore[arg-type]
    )


def changed(edit: Callable[[ruleset_pb2.RuleSet], None], base: str = "samba-4p") -> CompiledRules:
    """A shipped rule set (samba-4p by default) with one field changed by `edit`."""
    return changed_rules(base, edit)


def judge(state: GameState, action: str, rules: CompiledRules = RULES) -> Verdict:
    return judge_valid(rules, state, action)


def melds_after(verdict: Verdict, side: int = 0) -> list[list[int]]:
    """The side's melds after a legal action, each as sorted cards (melds keep their order)."""
    assert verdict.legal, found(verdict)
    assert verdict.next_state is not None
    return [sorted(m) for m in verdict.next_state.sides[side].melds]


def cards(text: str) -> list[int]:
    return sorted(parse_cards(text))


# --- every new code, exactly, with its field -------------------------------------------------------------------

CODE_CASES: list[tuple[str, GameState, str, list[tuple[str, str]], str]] = [
    ("wild in a run", samba("5H 6H 2C 9C", (JACKS,), **PLAY), "meld 5H 6H 2C", [("RUN_WILD_CARD", "runs")], "wild"),
    (
        "mixed suits",
        samba("5H 6D 7H 9C", (JACKS,), **PLAY),
        "meld 5H 6D 7H",
        [("RUN_MIXED_SUITS", "runs.min_size")],
        "one suit",
    ),
    ("gap", samba("5H 6H 8H 9C", (JACKS,), **PLAY), "meld 5H 6H 8H", [("RUN_NOT_CONSECUTIVE", "runs.min_size")], "gap"),
    (
        "three in a run",
        samba("3S 4S 5S 9C", (JACKS,), **PLAY),
        "meld 3S 4S 5S",
        [("RUN_RANK_OUT_OF_RANGE", "runs.lowest_rank")],
        "no lower than a four",
    ),
    ("two cards", samba("5H 6H 9C", (JACKS,), **PLAY), "meld 5H 6H", [("RUN_TOO_SMALL", "runs.min_size")], "3"),
    (
        "eighth card",
        samba("JH 9C", (JACKS, SAMBA), **PLAY),
        "meld JH to 2",
        [("RUN_TOO_LARGE", "runs.max_size")],
        "7",
    ),
    (
        "other rank",
        samba("KH 9C", ("QC QC QD", "KS KD KC"), **PLAY),
        "meld KH to 1",
        [("MELD_TARGET_OTHER_RANK", "melds.one_meld_per_rank")],
        "meld 1, a meld of queens",
    ),
    (
        "no meld 5",
        samba("KH 9C", ("QC QC QD", "KS KD KC"), **PLAY),
        "meld KH to 5",
        [("MELD_NO_SUCH_MELD", "melds.one_meld_per_rank")],
        "the side has 2 meld(s)",
    ),
    (
        "start a run from the pile",
        samba("6H 7H KS 4C", (JACKS,), pile="6C 8H"),
        "take-pile with 6H 7H",
        [("PILE_TOP_CANNOT_START_RUN", "runs.pile_top_alone"), ("PILE_TOP_NOT_MELDED", "discard_pile")],
        "cannot start a run",
    ),
    (
        "top card with a hand card",
        samba("7H KS 4C", (JACKS, "4H 5H 6H"), pile="6C 8H"),
        "take-pile with 7H to 2",
        [("PILE_TOP_RUN_WITH_HAND_CARDS", "runs.pile_top_alone")],
        "only alone",
    ),
    (
        "top card onto a canasta",
        samba("KS 4C", (JACKS, "9H 9C 9S 9D 9H 9C 2C"), pile="6C 9S"),
        "take-pile to 2",
        [("PILE_ONTO_CANASTA_NOT_ALLOWED", "discard_pile.onto_meld_below_canasta_only")],
        "already a canasta",
    ),
    (
        "combine kings and queens",
        samba("5H 9C", ("QH QD QS", "KC KD KS"), **PLAY),
        "combine 1 2",
        [("COMBINE_DIFFERENT_RANKS", "melds.combine_same_rank")],
        "meld 2 is of kings",
    ),
    (
        "combine a group and a run",
        samba("5H 9C", ("QH QD QS", "9H TH JH"), **PLAY),
        "combine 1 2",
        [("COMBINE_DIFFERENT_RANKS", "melds.combine_same_rank")],
        "meld 2 is a run",
    ),
    (
        "combine three wilds",
        samba("5H 9C", ("QH QD 2C", "QC QS 2S JK"), **PLAY),
        "combine 1 2",
        [("COMBINE_BREAKS_MELD", "melds.combine_same_rank")],
        "at most 2 wild cards",
    ),
    (
        "combine meld 7",
        samba("5H 9C", ("QH QD QS", "QC QD QS"), **PLAY),
        "combine 1 7",
        [("MELD_NO_SUCH_MELD", "melds.one_meld_per_rank")],
        "no meld 7 to combine",
    ),
]


@pytest.mark.parametrize(
    ("state", "action", "expected", "words"), [c[1:] for c in CODE_CASES], ids=[c[0] for c in CODE_CASES]
)
def test_each_new_code_with_its_field_and_words(
    state: GameState, action: str, expected: list[tuple[str, str]], words: str
) -> None:
    verdict = judge(state, action)
    assert found(verdict) == expected
    assert words in verdict.violations[0].explanation
    assert verdict.next_state is None


# --- every new field: the shipped value against the field changed ----------------------------------------------


def test_runs_min_size_three_and_four() -> None:
    state = samba("5H 6H 7H 9C", (JACKS,), **PLAY)
    assert judge(state, "meld 5H 6H 7H").legal
    four = changed(lambda s: setattr(s.runs, "min_size", 4))
    assert found(judge(state, "meld 5H 6H 7H", four)) == [("RUN_TOO_SMALL", "runs.min_size")]


def test_runs_max_size_seven_and_eight() -> None:
    state = samba("JH 9C", (JACKS, SAMBA), **PLAY)
    assert found(judge(state, "meld JH to 2")) == [("RUN_TOO_LARGE", "runs.max_size")]
    eight = changed(lambda s: setattr(s.runs, "max_size", 8))
    assert melds_after(judge(state, "meld JH to 2", eight))[1] == cards(SAMBA + " JH")


def test_runs_lowest_rank_four_and_five() -> None:
    state = samba("4S 5S 6S 9C", (JACKS,), **PLAY)
    assert judge(state, "meld 4S 5S 6S").legal
    five = changed(lambda s: setattr(s.runs, "lowest_rank", ruleset_pb2.NATURAL_RANK_FIVE))
    assert found(judge(state, "meld 4S 5S 6S", five)) == [("RUN_RANK_OUT_OF_RANGE", "runs.lowest_rank")]


def test_runs_highest_rank_ace_and_king() -> None:
    state = samba("QS KS AS 9C", (JACKS,), **PLAY)
    assert judge(state, "meld QS KS AS").legal
    king = changed(lambda s: setattr(s.runs, "highest_rank", ruleset_pb2.NATURAL_RANK_KING))
    verdict = judge(state, "meld QS KS AS", king)
    assert found(verdict) == [("RUN_RANK_OUT_OF_RANGE", "runs.highest_rank")]
    assert "no higher than a king" in verdict.violations[0].explanation


def test_runs_canasta_size_seven_and_six() -> None:
    # the sixth card makes no canasta in the shipped game; with runs of six as canastas it does
    state = samba("9H 4C", (JACKS, "4H 5H 6H 7H 8H"), **PLAY)
    assert not any(isinstance(e, CanastaMade) for e in judge(state, "meld 9H to 2").events)
    six = changed(lambda s: setattr(s.runs, "canasta_size", 6))
    made = [e for e in judge(state, "meld 9H to 2", six).events if isinstance(e, CanastaMade)]
    assert [(e.side, sorted(e.cards), e.natural) for e in made] == [(0, cards(RUN6), True)]


def test_runs_pile_top_alone_onto_a_run() -> None:
    state = samba("KS 4C", (JACKS, "5H 6H 7H"), pile="6C 8H")
    assert melds_after(judge(state, "take-pile to 2"))[1] == cards("5H 6H 7H 8H")
    never = changed(lambda s: setattr(s.runs, "pile_top_alone", False))
    assert found(judge(state, "take-pile to 2", never)) == [("PILE_TOP_ONTO_RUN_NOT_ALLOWED", "runs.pile_top_alone")]


def test_melds_combine_same_rank() -> None:
    state = samba("5H 9C", ("QH QD QS", "QC QD QS"), **PLAY)
    assert judge(state, "combine 1 2").legal
    apart = changed(lambda s: setattr(s.melds, "combine_same_rank", False))
    assert found(judge(state, "combine 1 2", apart)) == [("COMBINE_NOT_ALLOWED", "melds.combine_same_rank")]


def test_melds_one_meld_per_rank() -> None:
    state = samba("QH QS QS 9C", ("QC QC QD",), **PLAY)
    assert melds_after(judge(state, "meld new QH QS QS")) == [cards("QC QC QD"), cards("QH QS QS")]
    one = changed(lambda s: setattr(s.melds, "one_meld_per_rank", True))
    assert found(judge(state, "meld new QH QS QS", one)) == [("MELD_SECOND_OF_RANK", "melds.one_meld_per_rank")]
    # without `new`, one meld per rank or not, the queens join the side's meld of queens
    assert melds_after(judge(state, "meld QH QS QS", one)) == [cards("QC QC QD QH QS QS")]


def test_discard_pile_onto_meld_below_canasta_only() -> None:
    state = samba("KS 4C", (JACKS, "9H 9C 9S 9D 9H 9C 2C"), pile="6C 9S")
    assert found(judge(state, "take-pile to 2")) == [
        ("PILE_ONTO_CANASTA_NOT_ALLOWED", "discard_pile.onto_meld_below_canasta_only")
    ]
    anywhere = changed(lambda s: setattr(s.discard_pile, "onto_meld_below_canasta_only", False))
    assert melds_after(judge(state, "take-pile to 2", anywhere))[1] == cards("9H 9C 9S 9D 9H 9C 2C 9S")
    # hand cards may still join a canasta in the shipped game
    assert judge(samba("9D 4C", (JACKS, "9H 9C 9S 9D 9H 9C 2C"), **PLAY), "meld 9D to 2").legal


def test_canastas_wild_may_join_canasta() -> None:
    state = samba("2C 9C 4C", (Q7, "KH KD KS"), **PLAY)
    assert melds_after(judge(state, "meld 2C to 1"))[0] == cards(Q7 + " 2C")
    ocl = default_rule_book().get("samba-ocl-4p").rules
    assert found(judge(state, "meld 2C to 1", ocl)) == [("WILD_ON_CANASTA", "canastas.wild_may_join_canasta")]
    assert judge(
        state, "meld 2C to 1", changed(lambda s: setattr(s.canastas, "wild_may_join_canasta", True), "samba-ocl-4p")
    ).legal


# --- targets: the default, `new` and `to N` ----------------------------------------------------------------------


def test_a_group_joins_the_first_meld_of_its_rank_short_of_a_canasta() -> None:
    state = samba("QH 4C 9C", (QMIX, "QS QS QD", "QH QC QD"), **PLAY)
    assert melds_after(judge(state, "meld QH")) == [cards(QMIX), cards("QS QS QD QH"), cards("QH QC QD")]


def test_a_group_starts_a_meld_where_every_meld_of_its_rank_is_a_canasta() -> None:
    state = samba("QS QS QD 4C 9C", (Q7,), **PLAY)
    assert melds_after(judge(state, "meld QS QS QD")) == [cards(Q7), cards("QS QS QD")]


def test_to_n_sends_cards_to_the_named_meld_even_a_canasta() -> None:
    state = samba("QD QS 4C 9C", (QMIX, "QS QH QD"), **PLAY)
    assert melds_after(judge(state, "meld QD QS to 1")) == [cards(QMIX + " QD QS"), cards("QS QH QD")]
    assert melds_after(judge(state, "meld QD QS to 2")) == [cards(QMIX), cards("QS QH QD QD QS")]


def test_take_pile_with_new_starts_a_meld_beside_the_one_of_its_rank() -> None:
    state = samba("QD QS 4C", (JACKS, "QC QH QD"), pile="6C QH")
    assert melds_after(judge(state, "take-pile with QD QS")) == [cards(JACKS), cards("QC QH QD QD QS QH")]
    assert melds_after(judge(state, "take-pile with new QD QS")) == [
        cards(JACKS),
        cards("QC QH QD"),
        cards("QD QS QH"),
    ]


# --- combine -----------------------------------------------------------------------------------------------------


def test_combine_puts_the_second_meld_into_the_first_and_makes_a_canasta() -> None:
    state = samba("5H 9C", ("QH QD QS", "KC KD KS", "QC QD QS 2C"), **PLAY)
    verdict = judge(state, "combine 1 3")
    assert melds_after(verdict) == [cards("QH QD QS QC QD QS 2C"), cards("KC KD KS")]
    made = [e for e in verdict.events if isinstance(e, CanastaMade)]
    assert [(e.side, sorted(e.cards), e.natural) for e in made] == [(0, cards("QH QD QS QC QD QS 2C"), False)]
    assert verdict.next_state is not None
    assert verdict.next_state.seats[0].hand == state.seats[0].hand
    assert verdict.next_state.phase == Phase.PLAY


def test_combine_of_two_short_melds_makes_no_canasta() -> None:
    verdict = judge(samba("5H 9C", ("QH QD QS", "QC QC QD"), **PLAY), "combine 2 1")
    assert melds_after(verdict) == [cards("QC QC QD QH QD QS")]
    assert not any(isinstance(e, CanastaMade) for e in verdict.events)


# --- scoring ----------------------------------------------------------------------------------------------------


def test_a_samba_scores_its_run_canasta_line() -> None:
    (ours, _) = score_hand(RULES, HandTable((side((SAMBA,)), side())))
    assert points(ours, ScoreItem.RUN_CANASTA) == [1500]
    assert points(ours, ScoreItem.MELDED_CARDS) == [50]
    thousand = changed(lambda s: setattr(s.runs, "canasta_bonus", 1000))
    assert points(score_hand(thousand, HandTable((side((SAMBA,)), side())))[0], ScoreItem.RUN_CANASTA) == [1000]
    (short, _) = score_hand(RULES, HandTable((side((RUN6,)), side())))
    assert points(short, ScoreItem.RUN_CANASTA) == []


def test_red_threes_count_minus_below_two_canastas() -> None:
    one = HandTable((side((K7,), "3H 3D"), side()))
    (ours, _) = score_hand(RULES, one)
    assert points(ours, ScoreItem.RED_THREES_WITHOUT_MELD) == [-200]
    assert points(ours, ScoreItem.RED_THREES) == []
    (two, _) = score_hand(RULES, HandTable((side((K7, SAMBA), "3H 3D"), side())))
    assert points(two, ScoreItem.RED_THREES) == [200]
    one_needed = changed(lambda s: setattr(s.threes, "canastas_for_red_threes", 1))
    assert points(score_hand(one_needed, one)[0], ScoreItem.RED_THREES) == [200]


# --- legal moves in seeded random hands ---------------------------------------------------------------------------


def _key(action: Action) -> object:
    """An action with each group's cards sorted, so a probe compares with the listed action whatever its order."""
    if isinstance(action, Meld):
        return tuple(sorted((tuple(sorted(g.cards)), g.onto, g.new, g.onto_rank or -1) for g in action.groups))
    return action


def _probes(state: GameState) -> Iterator[tuple[str, Action]]:
    """Runs of three from the hand, single cards extending the side's runs (to N), and combines of two melds."""
    hand = set(state.seats[state.seat_to_move].hand)
    for suit in range(4):
        for low in range(2, 11):  # fours (rank index 2) up to queen-king-ace
            run = tuple(make_card(low + i, suit) for i in range(3))
            if set(run) <= hand:
                yield "run", Meld((MeldGroup(run),))
    melds = state.sides[state.seat_to_move % len(state.sides)].melds
    for number, meld in enumerate(melds, start=1):
        if is_run(meld):
            ranks = sorted(rank_of(c) for c in meld)
            for rank in (ranks[0] - 1, ranks[-1] + 1):
                card = make_card(rank, suit_of(meld[0])) if 2 <= rank <= 12 else 0
                if card in hand:
                    yield "extension", Meld((MeldGroup((card,), onto=number),))
    for first in range(1, len(melds) + 1):
        for second in range(first + 1, len(melds) + 1):
            yield "combine", Combine(first, second)


def test_random_hands_list_runs_extensions_and_combines_whenever_legal() -> None:
    seen: dict[str, int] = {"run": 0, "extension": 0, "combine": 0}
    positions = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = deal(RULES, deck_order(RULES, DeckSource(seed=seed)), dealer=seed % 4)
        for _ in range(600):
            if state.phase == Phase.HAND_OVER:
                break
            listed = legal_actions(RULES, state)
            assert listed, (seed, state)
            positions += 1
            if state.phase == Phase.PLAY:
                keys = {_key(a) for a in listed}
                for kind, probe in _probes(state):
                    if check_action(RULES, state, probe, validate=False).legal:
                        assert _key(probe) in keys, (seed, kind, probe)
                        seen[kind] += 1
            verdict = check_action(RULES, state, choose(state, listed, rng), validate=False)
            assert verdict.next_state is not None
            state = verdict.next_state
        assert state.phase == Phase.HAND_OVER, f"seed {seed}: a random hand of 600 actions did not end"
    assert positions > 300
    assert all(n > 0 for n in seen.values()), seen  # the probes found each kind legal somewhere


# --- a run under a rule set without runs ---------------------------------------------------------------------------


def test_a_run_without_runs_is_runs_not_allowed_and_other_mixed_ranks_malformed_alone() -> None:
    no_runs = changed(lambda s: setattr(s.runs, "min_size", 0))
    state = samba("5H 6H 7H 6D 9C", (JACKS,), **PLAY)
    verdict = check_action(no_runs, state, parse_action("meld 5H 6H 7H"))  # a run some rule sets meld: a rule question
    assert found(verdict) == [("RUNS_NOT_ALLOWED", "runs.min_size")]
    with pytest.raises(InvalidInputError, match="cards of different ranks"):  # no rule set melds these
        judge(state, "meld 5H 6D 7H", no_runs)
    verdict = check_action(no_runs, state, parse_action("meld 5H 6D 7H"), runs=True)  # as adjudicate judges it
    assert found(verdict) == [("RUNS_NOT_ALLOWED", "runs.min_size")]
    assert check_action(RULES, state, parse_action("meld 5H 6H 7H"), runs=True).legal
