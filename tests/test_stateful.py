"""Hypothesis state machine over random legal games: conservation, enumeration agrees with CheckAction, no side
effects, and a score equals the sum of its items."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from oracle.games.deal import deal
from oracle.games.movegen import legal_actions
from oracle.games.shuffle import shuffled
from oracle.model.cards import deck
from oracle.model.events import HandEnded
from oracle.model.state import PartnerAnswer, Phase
from oracle.rules.referee import check_action
from oracle.rules.state_check import validate_state
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_table import scores_to_proto


class RandomGame(RuleBasedStateMachine):
    """Deals a hand from a drawn seed, then plays legal actions chosen by hypothesis."""

    @initialize(
        rule_set_id=st.sampled_from(["classic-2p", "classic-4p"]),
        seed=st.integers(0, 2**64 - 1),
        dealer=st.integers(0, 3),
    )
    def start(self, rule_set_id: str, seed: int, dealer: int) -> None:
        self.rules = default_rule_book().get(rule_set_id).rules
        order = shuffled(deck(self.rules.spec.deck.packs, self.rules.spec.deck.jokers), seed)
        self.state = deal(self.rules, order, dealer=dealer % self.rules.seats)
        self.hands_ended = 0

    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        if self.state.phase == Phase.HAND_OVER:
            return
        actions = legal_actions(self.rules, self.state)
        if not actions:
            # The one dead end the rule books leave open: after "may I go out?" a "yes" binds a player who cannot
            # go out, or a "no" leaves a player nothing to play but the last card (4P-CLASSIC "Going out").
            assert self.state.turn.partner_answer in (PartnerAnswer.YES, PartnerAnswer.NO), self.state
            self.stuck = True
            return
        action = data.draw(st.sampled_from(actions))
        before = copy.deepcopy(self.state)
        verdict = check_action(self.rules, self.state, action)
        again = check_action(self.rules, self.state, action)
        assert verdict == again, "the same check gave another answer"
        assert self.state == before, "a check changed its input"
        assert verdict.legal, f"listed action {action} judged illegal: {verdict.violations}"
        assert verdict.next_state is not None
        for event in verdict.events:
            if isinstance(event, HandEnded):
                self.hands_ended += 1
                for side in scores_to_proto(event.scores).sides:
                    assert side.total == sum(line.points for line in side.lines)
        self.state = verdict.next_state

    @invariant()
    def conserves_every_card(self) -> None:
        if hasattr(self, "state"):
            assert validate_state(self.rules, self.state) == []


RandomGame.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=120,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestRandomGame = RandomGame.TestCase
