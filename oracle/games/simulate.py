"""Plays random legal games with a simple bot and writes their records (test data for any implementation)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from oracle.games.deal import deal
from oracle.games.match import DeckSource, Standing, after_hand, dealer_of_hand, deck_order, start_standing
from oracle.games.movegen import legal_actions
from oracle.games.replay import GameRecord, HandRecord
from oracle.model.actions import Action, AnswerPartner, AskPartner, Discard, Draw, Finish, Meld, TakePile
from oracle.model.events import HandEnded
from oracle.model.interrupt import Checkpoint
from oracle.model.state import GameState, Phase
from oracle.rules.referee import check_action
from oracle.ruleset.compiled import CompiledRules

MAX_ACTIONS_PER_HAND = 2000


@dataclass(frozen=True)
class SimulatedGame:
    """A simulated game: its record (with our scores as claims) and how it ended."""

    record: GameRecord
    standing: Standing
    actions: int


_PLAIN = frozenset({Draw, Discard, Finish})  #: the kinds the bot picks among at random when nothing else applies


def choose(state: GameState, actions: list[Action], rng: random.Random) -> Action:
    """The bot: go out when it can, take the pile and meld often, otherwise discard at random."""
    if not actions:
        raise RuntimeError(f"no legal action for seat {state.seat_to_move} in phase {state.phase.name}")
    if len(actions) == 1 and type(actions[0]) in _PLAIN and state.phase != Phase.AWAIT_ANSWER:
        return rng.choice(actions)  # what the rules below come to for a lone draw, discard or finish (same draw)
    hand = state.seats[state.seat_to_move].hand
    melds: list[Meld] = []
    sizes: list[int] = []  #: cards laid by each meld action
    asks: list[Action] = []
    takes: list[Action] = []
    for action in actions:  # one pass, in the list's order
        kind = type(action)
        if kind is Meld:
            assert isinstance(action, Meld)
            melds.append(action)
            sizes.append(sum([len(g.cards) for g in action.groups]))
        elif kind is AskPartner:
            asks.append(action)
        elif kind is TakePile:
            takes.append(action)
    out_at = len(hand) - 1
    going_out = [m for m, size in zip(melds, sizes, strict=True) if size >= out_at]
    if going_out and asks and len(hand) >= 4 and rng.random() < 0.3:
        # Asked only when it can go out (a "yes" binds) and holds enough cards to play on after a "no":
        # the rule books leave a player who can do neither without a legal play.
        return asks[0]
    if going_out:
        return rng.choice(going_out)
    if state.phase == Phase.AWAIT_ANSWER:
        return AnswerPartner(rng.random() < 0.8)
    if takes and rng.random() < 0.8:
        return rng.choice(takes)
    if melds and rng.random() < 0.85:
        largest = max(sizes)
        return rng.choice([m for m, size in zip(melds, sizes, strict=True) if size == largest])
    for kind in (Draw, Discard, Finish):
        options = [a for a in actions if type(a) is kind]
        if options:
            return rng.choice(options)
    return rng.choice(actions)


def simulate_game(
    rules: CompiledRules,
    seed: int,
    *,
    max_hands: int = 40,
    on_hand: Callable[[], None] | None = None,
    checkpoint: Checkpoint | None = None,
) -> SimulatedGame:
    """Play one game from `seed` (hand seeds and the bot's choices derive from it) until it ends or max_hands.

    `checkpoint` is called before each action; what it raises (a WorkStopped past a deadline, say) ends the game.
    """
    rng = random.Random(seed)
    first_dealer = rng.randrange(rules.seats)
    standing = start_standing(rules)
    hands: list[HandRecord] = []
    count = 0
    while not standing.over and len(hands) < max_hands:
        source = DeckSource(seed=rng.getrandbits(64))
        state = deal(
            rules,
            deck_order(rules, source),
            dealer=dealer_of_hand(rules, first_dealer, len(hands)),
            running_totals=standing.totals,
            hand_number=len(hands) + 1,
        )
        actions: list[Action] = []
        ended: HandEnded | None = None
        while ended is None:
            if len(actions) >= MAX_ACTIONS_PER_HAND:
                raise RuntimeError(f"seed {seed}: hand {len(hands)} did not end in {MAX_ACTIONS_PER_HAND} actions")
            if checkpoint is not None:
                checkpoint()
            # Dealt or produced by check_action: valid by construction (tests/test_stateful.py validates such states).
            action = choose(state, legal_actions(rules, state, validate=False), rng)
            verdict = check_action(rules, state, action, validate=False)
            if not verdict.legal or verdict.next_state is None:
                raise RuntimeError(f"seed {seed}: the bot chose an illegal action {action}: {verdict.violations}")
            actions.append(action)
            state = verdict.next_state
            for event in verdict.events:
                if type(event) is HandEnded:
                    ended = event
        scores = tuple(s.total for s in ended.scores)
        standing = after_hand(rules, standing, scores)
        hands.append(HandRecord(source, tuple(actions), scores, standing.totals))
        count += len(actions)
        if on_hand is not None:
            on_hand()
    record = GameRecord(rules.id, first_dealer, tuple(hands), standing.winner if standing.over else None)
    return SimulatedGame(record, standing, count)
