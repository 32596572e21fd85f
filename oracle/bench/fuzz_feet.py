"""The fuzz's seeds for rule sets with a foot (Hand and Foot): states and views with feet, actions into the foot.

Deterministic as the rest of the seed corpus (oracle.bench.fuzz_seeds): a simulated hand of a fixed seed per rule
set with foot.size set, its positions taken now and then and wherever an action empties the hand (melding it out
or discarding its last card) or asks to go out, some under a later hand's number (initial_meld.minimum_by_hand).
"""

from __future__ import annotations

from dataclasses import replace

from oracle.api.v1 import game_pb2, notation_pb2, oracle_pb2, ruleset_pb2
from oracle.bench.fuzz_hand import CorpusSink, add_position, house_ref, walk_simulated_hand
from oracle.model.actions import Action, AnswerPartner, AskPartner, Discard, Meld
from oracle.model.state import GameState
from oracle.rules.candidates import candidates
from oracle.rules.view import view_of
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import RuleBook
from oracle.service.convert_game import state_from_notation, state_to_proto
from oracle.service.convert_view import view_to_proto

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


_CITE = ("ROGERDEM-HF", "Play of the Hand")


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


def _add_going_out(corpus: CorpusSink, book: RuleBook, rule_set_id: str, houses: list[oracle_pb2.RuleSetRef]) -> None:
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


def add_feet_positions(corpus: CorpusSink, book: RuleBook, every: int, per_position: int = 2) -> None:
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
            house_ref(rule_set_id, "foot", "continue_after_melding_out", False, _CITE),
            house_ref(rule_set_id, "going_out", "partner_foot_required", True, _CITE),
            house_ref(rule_set_id, "going_out", "ask_partner", ruleset_pb2.ASK_PARTNER_OPTIONAL_BINDING, _CITE),
        ]
        _add_going_out(corpus, book, rule_set_id, houses)
        for n, state, action, _ in walk_simulated_hand(corpus, rules, rule_set_id, FEET_SEED):
            if n % every == 0 or _interesting(state, action):
                into_foot = [a for a in candidates(rules, state) if empties_the_hand(state, a)][:per_position]
                later = replace(state, hand_number=LATER_HAND) if n % 3 == 0 else state
                plays = [
                    (chosen, houses[(n + k) % len(houses)] if (n + k) % 3 == 0 else ref)
                    for k, chosen in enumerate([action, *into_foot])
                ]
                add_position(corpus, ref, later, plays, against=refs)


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
