"""A stand-in for someone else's Canasta engine with bugs: plays random games, now and then accepting an illegal
action (discarding without drawing, drawing twice, melding below the initial minimum or with too many wild cards,
taking a frozen pile with a wild card), and writes canlog logs."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from oracle.games.deal import deal
from oracle.games.match import DeckSource, after_hand, dealer_of_hand, deck_order, start_standing
from oracle.games.movegen import legal_actions
from oracle.games.simulate import choose
from oracle.model.actions import Action, AnswerPartner, AskPartner, Discard, Draw, Finish, Meld, MeldGroup, TakePile
from oracle.model.cards import format_card, is_wild, rank_of
from oracle.model.events import HandEnded
from oracle.model.state import GameState, Phase
from oracle.rules.context import make_ctx
from oracle.rules.facts import partner_seats
from oracle.rules.referee import apply_action, check_action
from oracle.rules.state_check import validate_state
from oracle.ruleset.compiled import CompiledRules

RARE: tuple[type, ...] = (Meld, TakePile)  #: the breaks `varied` plants whenever it can
CHECK_EVERY = 25  #: the engine logs its state (hands, pile, stock size) every this many actions


def card_text(card: int) -> str:
    """A card in canlog spelling: 10h, Kd, Jo."""
    text = format_card(card)
    if text == "JK":
        return "Jo"
    return ("10" if text[0] == "T" else text[0]) + text[1].lower()


def _cards(cards: tuple[int, ...]) -> str:
    return " ".join(card_text(c) for c in cards)


def _groups(groups: tuple[MeldGroup, ...]) -> str:
    rank_names = "2 3 4 5 6 7 8 9 10 J Q K A".split()
    return " | ".join(
        (f"{rank_names[g.onto_rank]}= " if g.onto_rank is not None else "") + _cards(g.cards) for g in groups
    )


def action_line(seat: int, action: Action) -> str:
    """One canlog action line."""
    match action:
        case Draw():
            return f"P{seat} draw"
        case AskPartner():
            return f"P{seat} ask"
        case Finish():
            return f"P{seat} finish"
        case AnswerPartner(yes):
            return f"P{seat} {'yes' if yes else 'no'}"
        case Discard(card):
            return f"P{seat} discard {card_text(card)}"
        case Meld(groups):
            return f"P{seat} meld {_groups(groups)}"
        case TakePile(with_cards, melds):
            text = f"P{seat} pickup" + (f" {_cards(with_cards)}" if with_cards else "")
            return text + (f" + {_groups(melds)}" if melds else "")
    raise TypeError(action)


def _candidates(state: GameState, rng: random.Random) -> list[Action]:
    """Illegal actions a careless engine might accept here."""
    hand = state.seats[state.seat_to_move].hand
    found: list[Action] = []
    if state.phase == Phase.DRAW and hand:
        found.append(Discard(rng.choice(hand)))  # forgot to draw
    if state.phase == Phase.PLAY and state.stock:
        found.append(Draw())  # drew twice
    by_rank: dict[int, list[int]] = {}
    for card in hand:
        if not is_wild(card):
            by_rank.setdefault(rank_of(card), []).append(card)
    wilds = [c for c in hand if is_wild(c)]
    top = state.discard_pile[-1] if state.discard_pile else None
    if state.phase == Phase.DRAW and top is not None and not is_wild(top) and wilds:
        naturals = by_rank.get(rank_of(top), [])
        if naturals:
            found.append(TakePile((naturals[0], wilds[0])))  # a wild instead of a natural pair (frozen pile)
    if state.phase == Phase.PLAY and len(hand) > 4:
        for cards in by_rank.values():
            if len(cards) >= 3:
                found.append(Meld((MeldGroup(tuple(cards[:3])),)))  # perhaps below the initial minimum
            if len(wilds) >= 2:
                found.append(Meld((MeldGroup((cards[0], *wilds[:2])),)))  # more wild cards than natural ones
    rng.shuffle(found)
    return found


def plant(
    rules: CompiledRules, state: GameState, rng: random.Random, kinds: tuple[type, ...] | None = None
) -> tuple[Action, GameState, str] | None:
    """An illegal action the engine accepts here (of one of `kinds`, if given), the state it leaves, and the first
    code the oracle gives it."""
    candidates = _candidates(state, rng)
    if kinds is not None:
        candidates = [a for a in candidates if isinstance(a, kinds)]
    for action in candidates:
        verdict = check_action(rules, state, action, validate=False)
        if verdict.legal:
            continue
        try:
            applied = apply_action(make_ctx(rules, state), action)
        except (ValueError, IndexError, KeyError):
            continue
        if validate_state(rules, applied.next_state) or applied.next_state.phase == Phase.HAND_OVER:
            continue
        if not legal_actions(rules, applied.next_state):
            continue
        return action, applied.next_state, verdict.violations[0].code
    return None


@dataclass
class FaultyGame:
    """A game's canlog lines and the rule breaks planted in it (hand, action index, code)."""

    lines: list[str] = field(default_factory=list)
    planted: list[tuple[int, int, str]] = field(default_factory=list)
    miscounts: list[tuple[int, int]] = field(default_factory=list)  #: (hand, after) of stock counts logged wrong
    actions: int = 0


def play(rules: CompiledRules, seed: int, *, breaks: int, max_hands: int = 12, varied: bool = False) -> FaultyGame:
    """One game from `seed`; about `breaks` illegal actions accepted at random points of its first hands.

    With `varied`, a rarer break (a meld, taking the pile) is also planted whenever one is possible (one time in
    four), so the breaks are not nearly all discards and draws out of turn; and one logged stock count in twenty is
    off by one (a checkpoint that differs, not an illegal action).
    """
    rng = random.Random(seed)
    first_dealer = rng.randrange(rules.seats)
    game = FaultyGame([f"# canlog written by a faulty engine, seed {seed}", f"game {rules.id} dealer {first_dealer}"])
    standing = start_standing(rules)
    hand_index = 0
    while not standing.over and hand_index < max_hands:
        source = DeckSource(seed=rng.getrandbits(64))
        dealer = dealer_of_hand(rules, first_dealer, hand_index)
        state = deal(rules, deck_order(rules, source), dealer=dealer, running_totals=standing.totals)
        game.lines.append(f"hand seed {source.seed}")
        ended: HandEnded | None = None
        index = 0
        while ended is None:
            if index > 2000:
                raise RuntimeError(f"seed {seed}: hand {hand_index} did not end")
            seat = state.seat_to_move
            planted = None
            if varied and len(game.planted) < breaks and index > 4 and rng.random() < 0.25:
                planted = plant(rules, state, rng, RARE)
            if planted is None and len(game.planted) < breaks and index > 4 and rng.random() < 0.04:
                planted = plant(rules, state, rng)
            if planted is not None:
                action, state, code = planted
                game.planted.append((hand_index, index, code))
                events: tuple[object, ...] = ()
            else:
                action = choose(state, legal_actions(rules, state), rng)
                verdict = check_action(rules, state, action, validate=False)
                assert verdict.legal and verdict.next_state is not None
                state, events = verdict.next_state, verdict.events
            if isinstance(action, AnswerPartner):
                seat = (partner_seats(rules, seat) or [seat])[0]
            game.lines.append(action_line(seat, action))
            index += 1
            ended = next((e for e in events if isinstance(e, HandEnded)), None)
            if ended is None and index % CHECK_EVERY == 0:
                game.lines.extend(f"check P{s} {_cards(tuple(sorted(st.hand)))}" for s, st in enumerate(state.seats))
                game.lines.append(f"check pile {_cards(state.discard_pile)}")
                count = len(state.stock)
                if varied and rng.random() < 0.05:  # a bookkeeping bug: the stock miscounted in the log
                    count += 1
                    game.miscounts.append((hand_index, index))
                game.lines.append(f"check stock {count}")
        scores = tuple(s.total for s in ended.scores)
        standing = after_hand(rules, standing, scores)
        game.lines.append("score " + " ".join(str(s) for s in scores))
        game.lines.append("totals " + " ".join(str(t) for t in standing.totals))
        game.actions += index
        hand_index += 1
    if standing.over:
        game.lines.append(f"winner {standing.winner}")
    return game
