"""Move generation: exact lists on hand-built states, and random playouts checking listed == legal in the space.

The playout property test plays dealt hands (the documented shuffle, a fixed
range of seeds) by choosing uniformly among legal_actions, and at every state
checks that (a) every listed action is legal, (b) canonical-space candidates
built here independently of oracle.games.movegen (all single groups, every way to
take the pile, random minimal and going-out sets, every discard, the single
actions) that are not listed are illegal, and (c) the hand ends within a bound.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from itertools import product

import pytest
from helpers import make_state, rules

from oracle.games.deal import deal
from oracle.games.movegen import count_actions, legal_actions, sort_key
from oracle.games.shuffle import shuffled
from oracle.model.actions import (
    Action,
    AnswerPartner,
    AskPartner,
    Discard,
    Draw,
    Finish,
    Meld,
    MeldGroup,
    TakePile,
    format_action,
    parse_action,
)
from oracle.model.cards import JOKER, deck, is_natural, parse_cards, rank_of
from oracle.model.state import GameState, PartnerAnswer, Phase, meld_index_of_rank
from oracle.rules.facts import side_of
from oracle.rules.referee import check_action
from oracle.rules.state_check import InvalidStateError, validate_state
from oracle.ruleset.compiled import CompiledRules


def listed(rule_set: str, state: GameState) -> list[str]:
    return [format_action(a) for a in legal_actions(rules(rule_set), state)]


def play_state(
    rule_set: str,
    hand: str,
    *,
    melds: list[str] = (),
    seat_melded: bool = True,
    total: int = 0,
    turn: dict | None = None,
    phase: str = "PHASE_PLAY",
    pile: str = "5H 8D TH",
) -> GameState:
    """Seat 0 to move after drawing; the other seats hold a few cards."""
    r = rules(rule_set)
    others = ["6C 6D 8S", "TC TD JS", "JD 9C 5S"][: r.seats - 1]
    side_melds = [list(melds)] + [[] for _ in range(r.sides - 1)]
    return make_state(
        rule_set,
        hands=[hand, *others],
        melds=side_melds,
        pile=pile,
        phase=phase,
        turn=turn or {"start": "TURN_START_DREW", "meldsBeforeTurn": len(melds)},
        totals=[total] * r.sides,
        melded_before=[seat_melded] + [False] * (r.seats - 1),
    )


def stock_gone(state: GameState) -> GameState:
    """The state with its stock moved under the discard pile (red threes to the mover's side)."""
    reds = tuple(c for c in state.stock if c in (6, 7))
    rest = tuple(c for c in state.stock if c not in (6, 7))
    side = state.sides[0]
    return replace(
        state,
        stock=(),
        discard_pile=rest + state.discard_pile,
        pile_upcards=0,
        sides=(replace(side, red_threes=side.red_threes + reds), *state.sides[1:]),
    )


# --- exact lists ------------------------------------------------------------------------------------------------


def test_take_pile_unfrozen_with_melds() -> None:
    state = make_state(
        "classic-2p",
        hands=["9H 9D JK", "QH QD QS 4H"],
        melds=[["KC KD KS"], ["6H 6D 6S"]],
        pile="5D 8H 9S",
        melded_before=[True, False],
    )
    assert listed("classic-2p", state) == [
        "draw",
        "take-pile with 9D 9H",
        "take-pile with 9D 9H JK",
        "take-pile with 9D JK",
    ]


def test_take_pile_frozen_needs_the_natural_pair() -> None:
    state = make_state(
        "classic-2p",
        hands=["9H 9D JK 2C", "QH QD QS 4H"],
        melds=[["KC KD KS"], ["6H 6D 6S"]],
        pile="5D 2D 8H 9S",
        melded_before=[True, False],
    )
    # 2P-GUIDE: the natural pair and no wilds (discard_pile.frozen_take_wilds false)
    assert listed("classic-2p", state) == ["draw", "take-pile with 9D 9H"]
    # 4P-CLASSIC's reading: wilds may join the pair
    assert listed("2p-frozen-take-with-wilds", state) == [
        "draw",
        "take-pile with 9D 9H",
        "take-pile with 9D 9H 2C",
        "take-pile with 9D 9H 2C JK",
        "take-pile with 9D 9H JK",
    ]


def test_take_pile_onto_the_sides_meld() -> None:
    state = make_state(
        "classic-2p",
        hands=["9H JK 4C 5C", "QH QD QS 4H"],
        melds=[["9C 9D 9S"], ["6H 6D 6S"]],
        pile="5D 8H 9S",
        melded_before=[True, False],
    )
    assert listed("classic-2p", state) == ["draw", "take-pile", "take-pile with 9H", "take-pile with 9H JK"]


def test_take_pile_for_the_initial_meld_lists_minimal_extras() -> None:
    # Frozen to the side (no melds yet): a natural pair of nines; 9 9 9 is 30, so a minimal extra meld must
    # bring 20 or more, and KD KH JK (70) or AD AH AS (60) each do alone; KD KH KS (30) does too.
    # (2p-frozen-take-with-wilds: a wild may join the pair that takes a frozen pile; classic-2p refuses it)
    state = make_state("classic-2p", hands=["9H 9D KD KH KS AD AH AS JK 4C", "QH QD QS 4H"], pile="5D 8H 9S")
    assert "take-pile with 9D 9H JK" not in listed("classic-2p", state)
    got = listed("2p-frozen-take-with-wilds", state)
    assert got[0] == "draw"
    assert "take-pile with 9D 9H meld KD KH KS" in got
    assert "take-pile with 9D 9H meld AD AH AS" in got
    assert "take-pile with 9D 9H JK" in got  # 9 9 9 JK = 80 alone: no extras
    assert "take-pile with 9D 9H JK meld KD KH KS" not in got  # not minimal
    assert "take-pile with 9D 9H meld KD KH KS, AD AH AS" not in got  # not minimal
    assert "take-pile with 9D 9H" not in got  # 30 is below 50
    assert all(a.startswith(("draw", "take-pile with 9D 9H")) for a in got)


def test_initial_meld_minimal_sets() -> None:
    state = play_state("classic-2p", "KH KD KS AH AD JK 4C 7D TC 6S", seat_melded=False)
    assert listed("classic-2p", state) == [
        "meld KD KH KS JK",
        "meld KD KH JK",
        "meld AD AH JK",
        *(f"discard {c}" for c in ("4C", "6S", "7D", "TC", "KD", "KH", "KS", "AD", "AH", "JK")),
    ]


def test_initial_meld_pairs_of_groups_under_a_higher_minimum() -> None:
    # Running total 1500: minimum 90. K K K (30) + A A A (60) = 90, minimal; A A A JK (110) alone.
    state = play_state("classic-4p", "KH KD KS AH AD AS JK 5C 6C", seat_melded=False, total=1500)
    melds = [a for a in listed("classic-4p", state) if a.startswith("meld")]
    assert "meld KD KH KS, AD AH AS" in melds
    assert "meld AD AH AS JK" in melds
    assert "meld KD KH KS JK" not in melds  # 80: below 90
    assert "meld KD KH KS JK, AD AH AS" in melds  # 140, but 80 and 60 alone are below 90: minimal
    assert "meld AD AH AS JK, KD KH KS" not in melds  # not minimal (110 alone)
    # with this minimum there is no single group under 90 reaching it without the joker
    assert all("JK" in m or "," in m for m in melds)


def test_concealed_going_out_waives_the_minimum() -> None:
    # Seven fours are 35 points: below 50, but melding them leaves one card and makes the side's canasta.
    state = play_state("classic-4p", "4C 4C 4D 4D 4H 4H 4S 5C", seat_melded=False)
    assert [a for a in listed("classic-4p", state) if a.startswith("meld")] == ["meld 4C 4C 4D 4D 4H 4H 4S"]
    keeping = play_state("classic-4p", "4C 4C 4D 4D 4H 4H 4S 5C 6C", seat_melded=False)
    assert not [a for a in listed("classic-4p", keeping) if a.startswith("meld")]  # two cards left: no waiver


def test_single_groups_after_the_initial_meld() -> None:
    state = play_state("classic-4p", "7C 7H 2C JK 4H 4D 9S", melds=["7D 7D 7S", "KC KD KS"])
    melds = [a for a in listed("classic-4p", state) if a.startswith("meld")]
    # ordered by the card numbers of the group (2C is 1, 4D 10, 7C 21, JK 53), then onto_rank
    assert melds == [
        "meld 7: 2C",
        "meld K: 2C",
        "meld 7: 2C JK",
        "meld K: 2C JK",
        "meld 4D 4H 2C",
        "meld 4D 4H 2C JK",
        "meld 4D 4H JK",
        "meld 7C",
        "meld 7C 2C",
        "meld 7C 2C JK",
        "meld 7C 7H",
        "meld 7C 7H 2C",
        "meld 7C 7H 2C JK",
        "meld 7C 7H JK",
        "meld 7C JK",
        "meld 7: JK",
        "meld K: JK",
    ]


def test_black_three_meld_only_when_going_out() -> None:
    going_out = play_state("classic-4p", "3C 3C 3S", melds=["KC KD KS KH KC KD KS"])
    assert listed("classic-4p", going_out) == ["meld 3C 3C 3S", "discard 3C", "discard 3S", "ask"]
    keeping = play_state("classic-4p", "3C 3C 3S 5H 6H", melds=["KC KD KS KH KC KD KS"])
    assert not [a for a in listed("classic-4p", keeping) if a.startswith("meld")]


def test_answer_final_melds_and_hand_over() -> None:
    asked = play_state(
        "classic-4p",
        "7C 7H 9S",
        melds=["7D 7D 7S"],
        phase="PHASE_AWAIT_ANSWER",
        turn={"start": "TURN_START_DREW", "partnerAnswer": "PARTNER_ANSWER_PENDING", "meldsBeforeTurn": 1},
    )
    assert listed("classic-4p", asked) == ["answer yes", "answer no"]
    final = stock_gone(play_state("classic-2p", "7C 7H 9S 9D", melds=["7D 7D 7S"], phase="PHASE_FINAL_MELDS"))
    assert listed("classic-2p", final) == ["meld 7C", "meld 7C 7H", "finish"]
    over = _after("classic-2p", final, "finish")
    assert over.phase == Phase.HAND_OVER and legal_actions(rules("classic-2p"), over) == []


def test_count_actions_and_order() -> None:
    state = make_state(
        "classic-2p",
        hands=["9H 9D JK", "QH QD QS 4H"],
        melds=[["KC KD KS"], ["6H 6D 6S"]],
        pile="5D 8H 9S",
        melded_before=[True, False],
    )
    actions = legal_actions(rules("classic-2p"), state)
    assert count_actions(actions) == {
        "draw": 1,
        "take_pile": 3,
        "meld": 0,
        "discard": 0,
        "ask_partner": 0,
        "answer_partner": 0,
        "finish": 0,
        "combine": 0,
        "total": 4,
    }
    assert count_actions([AnswerPartner(True), Finish(), Discard(5), Discard(9)])["total"] == 4
    shuffled_list = list(reversed(actions))
    assert sorted(shuffled_list, key=sort_key) == actions


def test_an_inconsistent_state_is_refused() -> None:
    state = play_state("classic-2p", "7C 7H 9S", melds=["7D 7D 7S"])
    broken = replace(state, stock=state.stock[1:])
    with pytest.raises(InvalidStateError):
        legal_actions(rules("classic-2p"), broken)


# --- suspected engine bugs: states reachable by legal actions where no action at all is legal ---------------


def _after(rule_set: str, state: GameState, *actions: str) -> GameState:
    for text in actions:
        verdict = check_action(rules(rule_set), state, parse_action(text))
        assert verdict.legal, (text, verdict.violations)
        assert verdict.next_state is not None
        state = verdict.next_state
    return state


def yes_dead_end() -> GameState:
    # The side has no canasta, so the mover can never go out this turn; asking is still legal, and after the
    # binding yes the mover cannot obey: play goes on by a discard (going_out.cannot_go_out_after_yes_penalty).
    state = play_state("classic-4p", "7H 4C QC QC 4D", melds=["JC JD JH 2H", "9H 9S 2S"])
    return _after("classic-4p", state, "ask", "answer yes")


def one_card_after_take() -> GameState:
    # One card in hand after a one-card pile taken onto the side's meld: every way on goes out.
    state = make_state(
        "classic-4p",
        hands=["AD", "6C 7C", "5D 5H", "9S TD"],
        melds=[["QC QS JK QC QH QS QD", "7H 7D 7H"], []],
        pile="7S",
        melded_before=[True, False, True, False],
    )
    return _after("classic-4p", state, "take-pile")


def test_the_former_dead_ends_are_reached_by_legal_actions() -> None:
    assert yes_dead_end().turn.partner_answer == PartnerAnswer.YES
    assert one_card_after_take().seats[0].hand == tuple(parse_cards("AD"))


# The rule books bind the asker to the partner's answer (4P-CLASSIC "Going out") but do not say what happens when
# the answer cannot be obeyed: a player who cannot go out discards and play goes on (the side pays
# going_out.cannot_go_out_after_yes_penalty); and one holding a single card may not ask (a 'no' would leave nothing).
def test_a_yes_the_mover_cannot_obey_leaves_the_discards() -> None:
    listed = legal_actions(rules("classic-4p"), yes_dead_end())
    assert listed and all(isinstance(a, Discard) for a in listed)


def test_a_player_holding_one_card_may_not_ask() -> None:
    listed = legal_actions(rules("classic-4p"), one_card_after_take())
    assert listed == [Discard(parse_cards("AD")[0])]


# --- the canonical space, built independently ---------------------------------------------------------------

Spec = tuple[int, int, int, int, bool]  # rank (or onto rank), naturals, jokers, twos, wild-only onto a meld


class Hand:
    """The mover's hand split for canonical groups (independent of oracle.games.movegen)."""

    def __init__(self, hand: tuple[int, ...]) -> None:
        cards = sorted(hand)
        self.twos = [c for c in cards if rank_of(c) == 0]
        self.jokers = cards.count(JOKER)
        self.ranks: dict[int, list[int]] = {}
        for c in cards:
            if is_natural(c) or c in (5, 8):
                self.ranks.setdefault(rank_of(c), []).append(c)

    def held(self, rank: int) -> int:
        return len(self.ranks.get(rank, []))

    def groups(self, specs: list[Spec], first_two: int = 0) -> tuple[MeldGroup, ...]:
        out, k = [], first_two
        for rank, n, j, t, onto in sorted(specs, key=lambda s: s[0]):
            out.append(
                MeldGroup((*self.ranks.get(rank, [])[:n], *self.twos[k : k + t], *[JOKER] * j), rank if onto else None)
            )
            k += t
        return tuple(out)


@cache
def _minimum(rule_set: str, total: int) -> int:
    return rules(rule_set).minimum_initial_meld(total)[0]


def _points(r: CompiledRules, groups: tuple[MeldGroup, ...]) -> list[int]:
    return [sum(r.card_points[c] for c in g.cards) for g in groups]


def _is_minimal(points: list[int], base: int, minimum: int) -> bool:
    total = base + sum(points)
    return total >= minimum and all(total - p < minimum for p in points)


def _random_new_groups(
    rng: random.Random, r: CompiledRules, state: GameState, hand: Hand, exclude: int, jokers: int, twos: int
) -> list[Spec]:
    side = state.sides[side_of(r, state.seat_to_move)]
    keys = [k for k in hand.ranks if k != exclude and (k == 1 or meld_index_of_rank(side, k) is None)]
    keys = [k for k in keys if k != 1 or hand.held(1) >= 3]
    if rng.random() < 0.8:  # mostly groups that can be melds: two naturals or more
        keys = [k for k in keys if hand.held(k) >= 2]
    rng.shuffle(keys)
    specs: list[Spec] = []
    for k in keys[: rng.randint(1, 3)]:
        held = hand.held(k)
        if k == 1:
            n = rng.randint(3, min(4, held))
        else:
            n = rng.randint(1, held) if rng.random() < 0.2 else rng.randint(min(2, held), held)
        j = 0 if k == 1 or rng.random() < 0.5 else rng.randint(0, min(jokers, 2))
        t = 0 if k == 1 or rng.random() < 0.5 else rng.randint(0, min(twos, 2))
        if k != 1 and n == 2 and not j + t and rng.random() < 0.7:  # mostly a wild to make a pair a meld
            j, t = (1, 0) if jokers and (not twos or rng.random() < 0.5) else (0, min(1, twos))
        jokers, twos = jokers - j, twos - t
        specs.append((k, n, j, t, False))
    return specs


def _trim(
    rng: random.Random, r: CompiledRules, hand: Hand, specs: list[Spec], base: int, minimum: int, first_two: int
) -> list[Spec] | None:
    """Drop groups at random while the rest still reaches the minimum; None if the set never reached it."""
    specs = list(specs)
    while True:
        points = _points(r, hand.groups(specs, first_two))
        total = base + sum(points)
        if total < minimum:
            return None
        order = sorted(specs, key=lambda s: s[0])
        removable = [s for s, p in zip(order, points, strict=True) if total - p >= minimum]
        if not removable:
            return specs
        specs.remove(rng.choice(removable))


def _going_out_set(rng: random.Random, r: CompiledRules, hand: Hand) -> list[Spec]:
    counts = {k: len(v) for k, v in hand.ranks.items()}
    jokers, twos = hand.jokers, len(hand.twos)
    pick = rng.choice(["none", "two", "joker", *counts])
    if pick == "two" and twos:
        twos -= 1
    elif pick == "joker" and jokers:
        jokers -= 1
    elif isinstance(pick, int):
        counts[pick] -= 1
    naturals = [k for k in counts if counts[k] and k != 1]
    wild = {k: [0, 0] for k in naturals}
    for kind, amount in ((2, jokers), (3, twos)):
        for _ in range(amount):
            if naturals:
                wild[rng.choice(naturals)][kind - 2] += 1
    specs: list[Spec] = [(k, counts[k], wild[k][0], wild[k][1], False) for k in naturals]
    if counts.get(1):
        specs.append((1, counts[1], 0, 0, False))
    return specs


def space_sample(rng: random.Random, rule_set: str, state: GameState) -> list[Action]:
    """Candidates of the canonical space for the state's phase, built without oracle.games.movegen."""
    r = rules(rule_set)
    hand = Hand(state.seats[state.seat_to_move].hand)
    side = state.sides[side_of(r, state.seat_to_move)]
    minimum = _minimum(rule_set, side.running_total)
    wild_counts = [(j, t) for j in range(hand.jokers + 1) for t in range(len(hand.twos) + 1)]
    out: list[Action] = [Draw(), AskPartner(), AnswerPartner(True), AnswerPartner(False), Finish()]
    out += [Discard(c) for c in sorted(set(state.seats[state.seat_to_move].hand))]
    out += [Discard(rng.randint(1, 53)) for _ in range(3)]  # mostly cards not in hand
    pile = state.discard_pile
    if pile and is_natural(pile[-1]):
        top = rank_of(pile[-1])
        out.append(TakePile())
        for n in range(1, hand.held(top) + 1):
            for j, t in wild_counts:
                with_cards = hand.groups([(top, n, j, t, False)])[0].cards
                if side.melds:
                    out.append(TakePile(with_cards))
                    continue
                base = r.card_points[pile[-1]] + sum(r.card_points[c] for c in with_cards)
                if base >= minimum:
                    out.append(TakePile(with_cards))
                    continue
                for _ in range(2):
                    extra = _random_new_groups(rng, r, state, hand, top, hand.jokers - j, len(hand.twos) - t)
                    kept = _trim(rng, r, hand, extra, base, minimum, t)
                    if kept:
                        out.append(TakePile(with_cards, hand.groups(kept, t)))
    singles: list[Spec] = []
    for k in range(2, 13):
        singles += [(k, n, j, t, False) for n in range(1, hand.held(k) + 1) for j, t in wild_counts]
        singles += [(k, 0, j, t, True) for j, t in wild_counts if j + t]
    singles += [(1, n, 0, 0, False) for n in range(3, min(4, hand.held(1)) + 1)]
    if side.melds:
        out += [Meld(hand.groups([s])) for s in singles]
        return out
    for s in singles:
        if not s[4]:
            groups = hand.groups([s])
            if _is_minimal(_points(r, groups), 0, minimum):
                out.append(Meld(groups))
    for _ in range(12):
        kept = _trim(
            rng, r, hand, _random_new_groups(rng, r, state, hand, -1, hand.jokers, len(hand.twos)), 0, minimum, 0
        )
        if kept:
            out.append(Meld(hand.groups(kept)))
    for _ in range(3):
        specs = _going_out_set(rng, r, hand)
        if specs:
            out.append(Meld(hand.groups(specs)))
    return out


def all_new_meld_sets(hand: Hand, exclude: int, jokers: int, twos: int) -> Iterator[list[Spec]]:
    """Brute force: every set of canonical new-meld groups (one per rank, within the wild budgets)."""
    options: list[list[Spec | None]] = []
    for k in sorted(hand.ranks):
        if k == exclude:
            continue
        ns = range(3, min(4, hand.held(1)) + 1) if k == 1 else range(1, hand.held(k) + 1)
        wilds = [(0, 0)] if k == 1 else [(j, t) for j in range(jokers + 1) for t in range(twos + 1)]
        options.append([None, *((k, n, j, t, False) for n in ns for j, t in wilds)])
    for choice in product(*options):
        specs = [s for s in choice if s is not None]
        if sum(s[2] for s in specs) <= jokers and sum(s[3] for s in specs) <= twos:
            yield specs


def exact_initial_melds(rule_set: str, state: GameState) -> set[Action]:
    """Every meld action of the space for a side without melds."""
    r = rules(rule_set)
    hand = Hand(state.seats[state.seat_to_move].hand)
    minimum = _minimum(rule_set, state.sides[side_of(r, state.seat_to_move)].running_total)
    size = len(state.seats[state.seat_to_move].hand)
    space: set[Action] = set()
    for specs in all_new_meld_sets(hand, -1, hand.jokers, len(hand.twos)):
        groups = hand.groups(specs)
        if specs and (size - sum(len(g.cards) for g in groups) <= 1 or _is_minimal(_points(r, groups), 0, minimum)):
            space.add(Meld(groups))
    return space


def exact_initial_takes(rule_set: str, state: GameState) -> set[Action]:
    """Every take-pile action of the space for a side without melds."""
    r = rules(rule_set)
    hand = Hand(state.seats[state.seat_to_move].hand)
    minimum = _minimum(rule_set, state.sides[side_of(r, state.seat_to_move)].running_total)
    top = state.discard_pile[-1]
    space: set[Action] = {TakePile()}
    for n in range(1, hand.held(rank_of(top)) + 1):
        for j in range(hand.jokers + 1):
            for t in range(len(hand.twos) + 1):
                with_cards = hand.groups([(rank_of(top), n, j, t, False)])[0].cards
                base = r.card_points[top] + sum(r.card_points[c] for c in with_cards)
                for specs in all_new_meld_sets(hand, rank_of(top), hand.jokers - j, len(hand.twos) - t):
                    extra = hand.groups(specs, t)
                    if _is_minimal(_points(r, extra), base, minimum):
                        space.add(TakePile(with_cards, extra))
    return space


@pytest.mark.parametrize(
    ("rule_set", "hand", "total"),
    [
        ("classic-2p", "KH KD KS AH AD JK 4C 7D TC 6S 2C", 0),
        ("classic-4p", "KH KD KS AH AD AS 5C 5D 2H 2C JK", 1500),
        ("classic-4p", "8C 8D 8H 9C 9D TS TH 2C 2D JK", 3000),
        ("classic-4p", "4C 4C 4D 4D 4H 2S 2C JK 6H 6C", -100),
        ("classic-4p", "QC QC QD QD QH QH 2S JK 3C 3S 3C", 0),
        ("classic-2p", "QC QC QD QD QH QH QS 5C 5D 5H 5S 5C 5D 2C 3C 3S 3C", 0),
    ],
)
def test_initial_melds_equal_the_legal_part_of_the_whole_space(rule_set: str, hand: str, total: int) -> None:
    r = rules(rule_set)
    state = play_state(rule_set, hand, seat_melded=False, total=total)
    legal = {a for a in exact_initial_melds(rule_set, state) if check_action(r, state, a).legal}
    assert {a for a in legal_actions(r, state) if isinstance(a, Meld)} == legal
    assert legal


@pytest.mark.parametrize(
    ("rule_set", "hand", "pile", "total"),
    [
        ("classic-2p", "KH KD QC QD QS AH AD JK 2H 5C 6C 9C", "5D 8H KS", 1500),
        ("classic-2p", "KH KD KC QC QD AH AD AS 2H 2S 5C 4C 4D", "5D 8H KS", 0),
        ("classic-4p", "8C 8D 9C 9D 9H TS TH 2C JK 4S", "5H 7H 9S", 3000),
        ("classic-4p", "5C 5D 6C 6D 6H 7C 7D 2C 2D JK 4S", "5H 7H 6S", -100),
    ],
)
def test_initial_takes_equal_the_legal_part_of_the_whole_space(rule_set: str, hand: str, pile: str, total: int) -> None:
    r = rules(rule_set)
    others = ["QH 4H 4D TD", "TC 3S JS", "JD 9S 5S"][: r.seats - 1]
    state = make_state(rule_set, hands=[hand, *others], pile=pile, totals=[total] * r.sides)
    legal = {a for a in exact_initial_takes(rule_set, state) if check_action(r, state, a).legal}
    assert {a for a in legal_actions(r, state) if isinstance(a, TakePile)} == legal
    assert legal


# --- random playouts ---------------------------------------------------------------------------------------------

MAX_ACTIONS = 1500


def playout(rule_set: str, seed: int, *, asks: bool) -> tuple[GameState, int, int]:
    """Play a dealt hand uniformly at random over legal_actions, checking (a) and (b) at every state."""
    r = rules(rule_set)
    rng = random.Random(seed)
    state = deal(r, shuffled(deck(r.spec.deck.packs, r.spec.deck.jokers), seed), dealer=seed % r.seats)
    checked = 0
    for step in range(MAX_ACTIONS):
        if state.phase == Phase.HAND_OVER:
            return state, step, checked
        actions = legal_actions(r, state)
        assert actions == sorted(set(actions), key=sort_key), "the list is not unique and in canonical order"
        counts = count_actions(actions)
        assert counts["total"] == len(actions) == sum(v for k, v in counts.items() if k != "total")
        for action in actions:  # (a)
            assert check_action(r, state, action).legal, f"listed but illegal at step {step}: {action}"
        listed_set = set(actions)
        for action in dict.fromkeys(a for a in space_sample(rng, rule_set, state) if a not in listed_set):  # (b)
            verdict = check_action(r, state, action, validate=False)
            assert not verdict.legal, f"legal but not listed at step {step}: {format_action(action)}"
            checked += 1
        choices = actions if asks else [a for a in actions if not isinstance(a, AskPartner)]
        if not choices:
            # The dead ends pinned above: a binding answer the mover cannot obey.
            assert state.turn.partner_answer in (PartnerAnswer.YES, PartnerAnswer.NO), f"no legal action: {state}"
            return state, step, checked
        verdict = check_action(r, state, rng.choice(choices))
        assert verdict.next_state is not None and validate_state(r, verdict.next_state) == []
        state = verdict.next_state
    pytest.fail(f"{rule_set} seed {seed}: the hand did not end in {MAX_ACTIONS} actions")  # (c)


@pytest.mark.parametrize(
    ("rule_set", "seed", "asks"),
    [
        *(("classic-2p", s, False) for s in range(20)),
        *(("classic-4p", s, True) for s in range(12)),  # these mostly stop at the dead ends reported above
        *(("classic-4p", s, False) for s in range(12, 28)),
    ],
)
def test_random_playouts_list_exactly_the_legal_actions(rule_set: str, seed: int, asks: bool) -> None:
    final, steps, checked = playout(rule_set, seed, asks=asks)
    assert steps >= 1 and checked > 0
    if not asks:
        assert final.phase == Phase.HAND_OVER
