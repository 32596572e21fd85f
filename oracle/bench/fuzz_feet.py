"""The fuzz's seeds for rule sets with a foot (Hand and Foot): states and views with feet, actions into the foot.

Deterministic as the rest of the seed corpus (oracle.bench.fuzz_seeds): a simulated hand of a fixed seed per rule
set with foot.size set, its positions taken now and then and wherever an action empties the hand (melding it out
or discarding its last card) or asks to go out, some under a later hand's number (initial_meld.minimum_by_hand).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from google.protobuf.message import Message

from oracle.api.v1 import game_pb2, notation_pb2, oracle_pb2, ruleset_pb2
from oracle.games.deal import deal
from oracle.games.match import dealer_of_hand, deck_order
from oracle.games.simulate import simulate_game
from oracle.model.actions import Action, AnswerPartner, AskPartner, Discard, Meld
from oracle.model.events import HandEnded
from oracle.model.state import GameState
from oracle.rules.candidates import candidates
from oracle.rules.referee import check_action
from oracle.rules.view import view_of
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import RuleBook
from oracle.service.convert_game import action_to_proto, state_from_notation, state_to_proto
from oracle.service.convert_table import table_to_proto
from oracle.service.convert_view import view_to_proto


class Corpus(Protocol):
    """Where the requests go (oracle.bench.fuzz_seeds.Corpus, which imports this module)."""

    def add(self, rpc: str, request: Message) -> None:
        """Add a request of `rpc`."""


FEET_SEED = 2  #: the simulated game whose first hand gives the positions of rule sets with a foot
LATER_HAND = 4  #: the hand number some positions are sent under (the last entry of a minimum by hand)


def empties_the_hand(state: GameState, action: Action) -> bool:
    """The mover still has a foot and the action plays every card of the hand: melds it out or discards the last."""
    seat = state.seats[state.seat_to_move]
    if not seat.foot:
        return False
    if isinstance(action, Discard):
        return len(seat.hand) == 1
    return isinstance(action, Meld) and sum(len(g.cards) for g in action.groups) == len(seat.hand)


def going_out_question(action: Action) -> bool:
    """Asking the partner "may I go out?" or answering it (going_out.ask_partner)."""
    return isinstance(action, AskPartner | AnswerPartner)


def _feet_house(rule_set_id: str, section: str, field: str, value: int | bool) -> oracle_pb2.RuleSetRef:
    """An inline rule set extending `rule_set_id` with one field of Hand and Foot's changed, with its rule note."""
    house = ruleset_pb2.RuleSet(id=f"house-{rule_set_id}", extends=rule_set_id, title="House rule")
    setattr(getattr(house, section), field, value)
    note = house.rules.add(field=f"{section}.{field}", text="A house rule.")
    note.cite.add(source="ROGERDEM-HF", section="Play of the Hand")
    return oracle_pb2.RuleSetRef(inline=house)


def _interesting(state: GameState, action: Action) -> bool:
    return empties_the_hand(state, action) or going_out_question(action)


#: Going out from the foot (seat 0 to move, every foot taken up): seat 0's hand, the side's books and whether the
#: partner said yes; side 1 has none. A simulated hand seldom gets this far.
BOOKS = ("KC KC KD KD KH KH KS", "JC JC JD JD JH JH JS", "QC QC QD QD QH 2C 2D", "TC TC TD TD TH JK 2H")
GOING_OUT = (
    ("9S", BOOKS, False),
    ("9S", BOOKS, True),
    ("9S", (BOOKS[0], BOOKS[2], "9C 9D 9H"), True),
    ("9S 9S 9S 5H", BOOKS, False),
)
GOING_OUT_ACTIONS = ("ask", "discard 9S", "meld 9S 9S 9S")


def going_out_states(rules: CompiledRules) -> list[GameState]:
    """The GOING_OUT positions under `rules`, seat 0 in its play phase after drawing."""
    out = []
    for hand, melds, asked in GOING_OUT:
        msg = notation_pb2.GameStateNotation(discard_pile="5S", seat_to_move=0, fill_stock=True)
        msg.phase = game_pb2.PHASE_PLAY
        msg.seats.add(hand=hand, melded_before=True)
        for other in ("6C 8D", "6D 8C", "6H 8H"):
            msg.seats.add(hand=other)
        msg.sides.add(melds=melds)
        msg.sides.add()
        msg.turn.start = game_pb2.TURN_START_DREW
        msg.turn.melds_before_turn = len(melds)
        if asked:
            msg.turn.partner_answer = game_pb2.PARTNER_ANSWER_YES
        out.append(state_from_notation(msg, rules))
    return out


def _add_going_out(corpus: Corpus, book: RuleBook, rule_set_id: str, houses: list[oracle_pb2.RuleSetRef]) -> None:
    ref = oracle_pb2.RuleSetRef(id=rule_set_id)
    for n, state in enumerate(going_out_states(book.get(rule_set_id).rules)):
        state_msg = state_to_proto(state)
        view_msg = view_to_proto(view_of(state, 0))
        texts = GOING_OUT_ACTIONS[:2] if len(state.seats[0].hand) == 1 else GOING_OUT_ACTIONS[2:]
        for k, text in enumerate(texts):
            used = houses[n % len(houses)] if k == 1 and n % 2 else ref
            corpus.add("CheckAction", oracle_pb2.CheckActionRequest(rule_set=used, state=state_msg, action_text=text))
            corpus.add("CheckAction", oracle_pb2.CheckActionRequest(rule_set=ref, view=view_msg, action_text=text))
        corpus.add("ListLegalActions", oracle_pb2.ListLegalActionsRequest(rule_set=ref, state=state_msg))


def add_feet_positions(corpus: Corpus, book: RuleBook, every: int, per_position: int = 2) -> None:
    """For each rule set with a foot (foot.size set): the first hand of a simulated game (FEET_SEED); at every
    `every`-th position and wherever the action played empties the hand or asks to go out, that action and up to
    `per_position` candidates that empty the hand, as CheckAction from the state and from the mover's view,
    ListLegalActions, ValidateState and Adjudicate (against the rule sets with a foot); now and then under an inline
    rule set extending it (the foot only by the discard, both partners in their feet, asking optional) or under a
    later hand's number; a DealHand, the hand's ScoreHand, and the GOING_OUT positions."""
    footed = [rule_set_id for rule_set_id in book.ids() if book.get(rule_set_id).rules.foot.size]
    refs = [oracle_pb2.RuleSetRef(id=rule_set_id) for rule_set_id in footed]
    for rule_set_id in footed:
        rules = book.get(rule_set_id).rules
        ref = oracle_pb2.RuleSetRef(id=rule_set_id)
        corpus.add("DealHand", oracle_pb2.DealHandRequest(rule_set=ref, seed=FEET_SEED))
        houses = [
            _feet_house(rule_set_id, "foot", "continue_after_melding_out", False),
            _feet_house(rule_set_id, "going_out", "partner_foot_required", True),
            _feet_house(rule_set_id, "going_out", "ask_partner", ruleset_pb2.ASK_PARTNER_OPTIONAL_BINDING),
        ]
        _add_going_out(corpus, book, rule_set_id, houses)
        game = simulate_game(rules, FEET_SEED, max_hands=1)
        hand = game.record.hands[0]
        dealer = dealer_of_hand(rules, game.record.first_dealer, 0)
        state: GameState = deal(rules, deck_order(rules, hand.deck), dealer=dealer)
        for n, action in enumerate(hand.actions):
            if n % every == 0 or _interesting(state, action):
                into_foot = [a for a in candidates(rules, state) if empties_the_hand(state, a)][:per_position]
                later = replace(state, hand_number=LATER_HAND) if n % 3 == 0 else state
                state_msg = state_to_proto(later)
                view_msg = view_to_proto(view_of(later, later.seat_to_move))
                for k, chosen in enumerate([action, *into_foot]):
                    used = houses[(n + k) % len(houses)] if (n + k) % 3 == 0 else ref
                    action_msg = action_to_proto(chosen)
                    corpus.add(
                        "CheckAction", oracle_pb2.CheckActionRequest(rule_set=used, state=state_msg, action=action_msg)
                    )
                    corpus.add(
                        "CheckAction", oracle_pb2.CheckActionRequest(rule_set=ref, view=view_msg, action=action_msg)
                    )
                    corpus.add(
                        "Adjudicate", oracle_pb2.AdjudicateRequest(state=state_msg, action=action_msg, rule_sets=refs)
                    )
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


__all__ = [
    "BOOKS",
    "FEET_SEED",
    "GOING_OUT",
    "LATER_HAND",
    "add_feet_positions",
    "empties_the_hand",
    "going_out_question",
    "going_out_states",
]
