"""A live refereed game: the state a RefereeGame stream holds while it is open (deal, act, running totals)."""

from __future__ import annotations

from dataclasses import dataclass

from oracle.games.deal import deal
from oracle.games.match import DeckSource, Standing, after_hand, dealer_of_hand, deck_order, start_standing
from oracle.model.actions import Action
from oracle.model.events import HandEnded
from oracle.model.state import GameState, Phase
from oracle.rules.referee import Verdict, check_action
from oracle.ruleset.compiled import CompiledRules


class OutOfTurnError(ValueError):
    """A message that does not fit the game so far (an action before a deal, a deal mid-hand, ...)."""


@dataclass
class LiveGame:
    """One game being refereed: rules, first dealer, the current hand and the standing."""

    rules: CompiledRules
    first_dealer: int
    standing: Standing
    hands_dealt: int = 0
    state: GameState | None = None

    @classmethod
    def start(cls, rules: CompiledRules, first_dealer: int) -> LiveGame:
        """A new game; the first message of a stream."""
        if not 0 <= first_dealer < rules.seats:
            raise OutOfTurnError(f"first_dealer {first_dealer} is not a seat (0..{rules.seats - 1})")
        return cls(rules, first_dealer, start_standing(rules))

    def deal(self, source: DeckSource) -> GameState:
        """Deal the next hand."""
        if self.standing.over:
            raise OutOfTurnError("the game is over")
        if self.state is not None and self.state.phase != Phase.HAND_OVER:
            raise OutOfTurnError("the current hand has not ended")
        dealer = dealer_of_hand(self.rules, self.first_dealer, self.hands_dealt)
        self.state = deal(
            self.rules,
            deck_order(self.rules, source),
            dealer=dealer,
            running_totals=self.standing.totals,
            hand_number=self.hands_dealt + 1,
        )
        self.hands_dealt += 1
        return self.state

    def act(self, action: Action) -> Verdict:
        """Judge an action; a legal one advances the game (an illegal one changes nothing)."""
        if self.state is None:
            raise OutOfTurnError("no hand has been dealt")
        if self.state.phase == Phase.HAND_OVER:
            raise OutOfTurnError("the hand is over: deal the next one")
        verdict = check_action(self.rules, self.state, action, validate=False)
        if verdict.legal:
            assert verdict.next_state is not None
            self.state = verdict.next_state
            for event in verdict.events:
                if isinstance(event, HandEnded):
                    self.standing = after_hand(self.rules, self.standing, [s.total for s in event.scores])
        return verdict
