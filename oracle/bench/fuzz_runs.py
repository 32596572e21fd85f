"""The fuzz's seeds for rule sets with runs (Samba): positions whose actions name a meld (onto, new) or combine two.

Deterministic as the rest of the seed corpus (oracle.bench.fuzz_seeds): a simulated hand of a fixed seed.
"""

from __future__ import annotations

from typing import Protocol

from google.protobuf.message import Message

from oracle.api.v1 import oracle_pb2, ruleset_pb2
from oracle.games.deal import deal
from oracle.games.match import dealer_of_hand, deck_order
from oracle.games.simulate import simulate_game
from oracle.model.actions import Action, Combine, Meld, TakePile
from oracle.model.events import HandEnded
from oracle.model.state import GameState
from oracle.rules.candidates import candidates
from oracle.rules.referee import check_action
from oracle.rules.view import view_of
from oracle.ruleset.loader import RuleBook
from oracle.service.convert_game import action_to_proto, state_to_proto
from oracle.service.convert_table import table_to_proto
from oracle.service.convert_view import view_to_proto


class Corpus(Protocol):
    """Where the requests go (oracle.bench.fuzz_seeds.Corpus, which imports this module)."""

    def add(self, rpc: str, request: Message) -> None:
        """Add a request of `rpc`."""


RUNS_SEED = 1  #: the simulated game whose first hand gives the positions of rule sets with runs


def names_a_meld(action: Action) -> bool:
    """The action names the meld it joins (onto), starts a new one (new) or combines two: Samba's action fields."""
    if isinstance(action, Combine):
        return True
    if isinstance(action, TakePile):
        return action.onto > 0 or action.new or any(g.onto or g.new for g in action.melds)
    return isinstance(action, Meld) and any(g.onto or g.new for g in action.groups)


def _runs_house(rule_set_id: str, section: str, field: str, value: int | bool) -> oracle_pb2.RuleSetRef:
    """An inline rule set extending `rule_set_id` with one field of Samba's changed, with its rule note."""
    house = ruleset_pb2.RuleSet(id=f"house-{rule_set_id}", extends=rule_set_id, title="House rule")
    setattr(getattr(house, section), field, value)
    note = house.rules.add(field=f"{section}.{field}", text="A house rule.")
    note.cite.add(source="4P-CLASSIC", section="Other versions, and where the rule books differ")
    return oracle_pb2.RuleSetRef(inline=house)


def add_runs_positions(corpus: Corpus, book: RuleBook, every: int, per_position: int = 2) -> None:
    """For each rule set with runs (runs.min_size set): the first hand of a simulated game (RUNS_SEED); at every
    `every`-th position, the action played and up to `per_position` candidates that name a meld (onto, new) or
    combine two, as CheckAction from the state and from the mover's view, ListLegalActions and Adjudicate (against
    every rule set); now and then under an inline rule set extending it without combining, or without runs."""
    for rule_set_id in book.ids():
        rules = book.get(rule_set_id).rules
        if not rules.runs.min_size:
            continue
        ref = oracle_pb2.RuleSetRef(id=rule_set_id)
        houses = [
            _runs_house(rule_set_id, "melds", "combine_same_rank", False),
            _runs_house(rule_set_id, "runs", "min_size", 0),
            _runs_house(rule_set_id, "runs", "max_size", 0),
        ]
        game = simulate_game(rules, RUNS_SEED, max_hands=1)
        hand = game.record.hands[0]
        dealer = dealer_of_hand(rules, game.record.first_dealer, 0)
        state: GameState = deal(rules, deck_order(rules, hand.deck), dealer=dealer)
        for n, action in enumerate(hand.actions):
            if n % every == 0 or names_a_meld(action):
                named = [a for a in candidates(rules, state) if names_a_meld(a)][:per_position]
                state_msg = state_to_proto(state)
                view_msg = view_to_proto(view_of(state, state.seat_to_move))
                for k, chosen in enumerate([action, *named]):
                    used = houses[(n + k) % len(houses)] if (n + k) % 4 == 0 else ref
                    action_msg = action_to_proto(chosen)
                    corpus.add(
                        "CheckAction", oracle_pb2.CheckActionRequest(rule_set=used, state=state_msg, action=action_msg)
                    )
                    corpus.add(
                        "CheckAction", oracle_pb2.CheckActionRequest(rule_set=ref, view=view_msg, action=action_msg)
                    )
                    corpus.add("Adjudicate", oracle_pb2.AdjudicateRequest(state=state_msg, action=action_msg))
                corpus.add("ValidateState", oracle_pb2.ValidateStateRequest(rule_set=ref, state=state_msg))
                corpus.add("ListLegalActions", oracle_pb2.ListLegalActionsRequest(rule_set=ref, state=state_msg))
                corpus.add("ListLegalActions", oracle_pb2.ListLegalActionsRequest(rule_set=ref, view=view_msg))
            verdict = check_action(rules, state, action, validate=False)
            if verdict.next_state is None:
                raise RuntimeError(f"a simulated {rule_set_id} hand has an illegal action: {action}")
            state = verdict.next_state
            for event in verdict.events:
                if isinstance(event, HandEnded):
                    corpus.add(
                        "ScoreHand", oracle_pb2.ScoreHandRequest(rule_set=ref, table=table_to_proto(event.table))
                    )


__all__ = ["RUNS_SEED", "add_runs_positions", "names_a_meld"]
