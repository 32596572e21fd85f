"""Hypothesis state machine over random legal games: conservation, enumeration agrees with CheckAction, no side
effects, and each hand's end scores the final table and carries its totals into the next hand."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from oracle.games.live import LiveGame
from oracle.games.match import DeckSource
from oracle.games.movegen import legal_actions
from oracle.model.actions import Action, Meld
from oracle.model.events import HandEnded
from oracle.model.state import GameState, HandEnd, Phase
from oracle.model.table import HandTable, SideTable, WentOut
from oracle.rules.referee import check_action
from oracle.rules.scoring import score_hand
from oracle.rules.state_check import validate_state
from oracle.ruleset.loader import default_rule_book


def bounded(examples: int, *, steps: int = 120) -> settings:
    """Settings for a bounded, deterministic run: `examples` games of up to `steps` steps, derandomized."""
    return settings(
        max_examples=examples,
        stateful_step_count=steps,
        derandomize=True,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


class RandomGame(RuleBasedStateMachine):
    """Deals hands from a drawn seed as a live refereed game does, and plays legal actions chosen by hypothesis."""

    @initialize(
        rule_set_id=st.sampled_from(["classic-2p", "classic-4p", "cutthroat-3p"]),
        seed=st.integers(0, 2**64 - 1),
        dealer=st.integers(0, 3),
    )
    def start(self, rule_set_id: str, seed: int, dealer: int) -> None:
        self.begin(rule_set_id, seed, dealer)

    def begin(self, rule_set_id: str, seed: int, dealer: int) -> None:
        self.rules = default_rule_book().get(rule_set_id).rules
        self.seed = seed
        self.game = LiveGame.start(self.rules, dealer % self.rules.seats)
        self.state = self.game.deal(DeckSource(seed=seed))
        self.hands_ended = 0
        self.next_totals: list[int] = []

    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        if self.state.phase == Phase.HAND_OVER:
            self.deal_next_hand()
            return
        actions = legal_actions(self.rules, self.state)
        # no dead end: a player told yes who cannot go out discards (going_out.cannot_go_out_after_yes_penalty),
        # and a player holding one card may not ask, so a "no" never leaves nothing to play
        assert actions, f"no legal action: {self.state}"
        action = self.choose(data, actions)
        before = copy.deepcopy(self.state)
        verdict = check_action(self.rules, self.state, action)
        again = check_action(self.rules, self.state, action)
        assert verdict == again, "the same check gave another answer"
        assert self.state == before, "a check changed its input"
        assert verdict.legal, f"listed action {action} judged illegal: {verdict.violations}"
        assert verdict.next_state is not None
        assert self.game.act(action) == verdict, "the live game judged the action otherwise"
        for event in verdict.events:
            if isinstance(event, HandEnded):
                self.hands_ended += 1
                self.check_hand_end(event, verdict.next_state)
        self.state = verdict.next_state

    def choose(self, data: st.DataObject, actions: list[Action]) -> Action:
        """The action to play: any legal one."""
        return data.draw(st.sampled_from(actions))

    def check_hand_end(self, event: HandEnded, over: GameState) -> None:
        """The event's table is the hand's final table (seat k's own entry is k mod sides; with sides formed during the
        hand, the table says which entry holds each seat's side's melds), its scores are
        score_hand of that table, and the next hand will start from the running totals plus those scores."""
        rules = self.rules
        out_side = over.went_out_seat % rules.sides if over.hand_end == HandEnd.WENT_OUT else None
        went = WentOut.CONCEALED if over.went_out_concealed else WentOut.NORMAL
        final = HandTable(
            tuple(
                SideTable(
                    side.melds,
                    side.red_threes,
                    tuple(
                        seat.hand + (seat.foot if rules.foot.unplayed_counts else ())  # a foot never taken up is held
                        for k, seat in enumerate(over.seats)
                        if k % rules.sides == i
                    ),
                    went if i == out_side else WentOut.NO,
                    side.unable_after_yes,  # each time a player of the side was told yes and could not go out
                )
                for i, side in enumerate(over.sides)
            ),
            over.side_of_seat,  # sides formed during the hand (cutthroat-3p): each entry scores as its player
        )
        assert event.reason == over.hand_end
        assert event.table == final
        assert event.scores == tuple(score_hand(rules, final))
        scores = event.scores
        self.next_totals = [side.running_total + score.total for side, score in zip(over.sides, scores, strict=True)]

    def deal_next_hand(self) -> None:
        if self.game.standing.over:
            return
        self.state = self.game.deal(DeckSource(seed=(self.seed + self.game.hands_dealt) % 2**64))
        assert [side.running_total for side in self.state.sides] == self.next_totals

    @invariant()
    def conserves_every_card(self) -> None:
        if hasattr(self, "state"):
            assert validate_state(self.rules, self.state) == []


RandomGame.TestCase.settings = bounded(25)
TestRandomGame = RandomGame.TestCase


class RandomSambaGame(RandomGame):
    """The same properties over samba-4p: runs, several melds of a rank, named targets, combining (its legal moves
    are the referee's judgement of the candidate space, rules.direct_movegen false)."""

    @initialize(seed=st.integers(0, 2**64 - 1), dealer=st.integers(0, 3))
    def start(self, seed: int, dealer: int) -> None:  # type: ignore[override]
        self.begin("samba-4p", seed, dealer)


RandomSambaGame.TestCase.settings = bounded(10)
TestRandomSambaGame = RandomSambaGame.TestCase


class RandomAmericanGame(RandomGame):
    """The same properties over american-4p: no upcard, bonus cards drawn after the initial meld's discard, threes
    laid as bonus cards, sevens and aces by their rank rules, melds of wild cards (legal moves are the referee's
    judgement of the candidate space, rules.direct_movegen false)."""

    @initialize(seed=st.integers(0, 2**64 - 1), dealer=st.integers(0, 3))
    def start(self, seed: int, dealer: int) -> None:  # type: ignore[override]
        self.begin("american-4p", seed, dealer)


RandomAmericanGame.TestCase.settings = bounded(8)
TestRandomAmericanGame = RandomAmericanGame.TestCase


class RandomHandAndFootGame(RandomGame):
    """The same properties over hand-and-foot-4p (feet, books closed at seven, several books of a rank, a hand's end
    with feet not taken up), with players who meld whenever they can, most often their biggest meld, so that hands
    empty and feet are taken up within the bounded run. Each foot taken up becomes the whole hand, and no seat is
    ever left with an empty hand while its foot waits."""

    feet_taken = 0  #: feet taken up over the whole run (test_random_hand_and_foot_games_take_up_feet)
    hands_over = 0  #: hands ended over the whole run, each scored with its untaken feet as cards held

    @initialize(seed=st.integers(0, 2**64 - 1), dealer=st.integers(0, 3))
    def start(self, seed: int, dealer: int) -> None:  # type: ignore[override]
        self.begin("hand-and-foot-4p", seed, dealer)

    def choose(self, data: st.DataObject, actions: list[Action]) -> Action:
        melds = sorted((a for a in actions if isinstance(a, Meld)), key=lambda a: -sum(len(g.cards) for g in a.groups))
        if melds and data.draw(st.integers(0, 4)) > 0:
            return melds[0]
        return data.draw(st.sampled_from(actions))

    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        if self.state.phase == Phase.HAND_OVER:
            super().play(data)
            return
        feet = [seat.foot for seat in self.state.seats]
        super().play(data)
        for foot, seat in zip(feet, self.state.seats, strict=True):
            if foot and not seat.foot:
                assert sorted(seat.hand) == sorted(foot), "a foot taken up is not the whole new hand"
                RandomHandAndFootGame.feet_taken += 1
        RandomHandAndFootGame.hands_over += self.state.phase == Phase.HAND_OVER

    @invariant()
    def no_empty_hand_while_the_foot_waits(self) -> None:
        if hasattr(self, "state"):
            assert all(seat.hand or not seat.foot for seat in self.state.seats), self.state


def test_random_hand_and_foot_games_take_up_feet() -> None:
    """The random-game properties over hand-and-foot-4p (bounded and derandomized); the run takes up feet and ends
    hands, so that the foot's rules and the end-of-hand scoring with feet are exercised, not only the opening."""
    RandomHandAndFootGame.feet_taken = RandomHandAndFootGame.hands_over = 0
    run_state_machine_as_test(
        RandomHandAndFootGame,
        settings=bounded(10, steps=300),
    )
    assert RandomHandAndFootGame.feet_taken >= 10
    assert RandomHandAndFootGame.hands_over >= 5
