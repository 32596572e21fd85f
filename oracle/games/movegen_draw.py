"""Direct legal-move generation in the draw phase: drawing, the take-pile forms that can be legal, second steps.

The second steps are those of a two-step take (oracle.rules.two_step); each form is judged as
oracle.games.movegen_direct says (oracle.rules.draw's rules, through oracle.games.movegen_facts).
"""

from __future__ import annotations

from collections.abc import Iterator

from oracle.games.movegen_facts import KIND, Group, Mover, rule_facts
from oracle.games.movegen_fast import DRAW, takes_without_wilds
from oracle.games.movegen_sets import minimal_sets, natural_bounds, new_meld_pool
from oracle.model.actions import Action, Meld, TakePile, second_step_meld
from oracle.model.cards import ALL_CARDS, JOKER, RANK_THREE, is_black_three, is_natural, is_red_three, is_wild, rank_of
from oracle.model.interrupt import Checkpoint
from oracle.model.state import Cards, GameState, SideState
from oracle.rules.draw import check_draw
from oracle.rules.minimum import side_minimum
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.sections import MustTakePile

_WHENEVER_ALLOWED = MustTakePile.WHENEVER_ALLOWED
_RED_THREES = tuple(c for c in ALL_CARDS if is_red_three(c))
_RED_THREE, _OTHER_RED_THREE = _RED_THREES
_BLACK_THREE, _OTHER_BLACK_THREE = (c for c in ALL_CARDS if is_black_three(c))
_FIRST_NATURAL = min(c for c in ALL_CARDS if is_natural(c))
_LAST_NATURAL = max(c for c in ALL_CARDS if is_natural(c))
_HIGHEST_TWO = max(c for c in ALL_CARDS if is_wild(c) and c != JOKER)


def draw_phase(m: Mover, checkpoint: Checkpoint | None) -> Iterator[Action]:
    """The legal actions of the draw phase, in generation order."""
    takes = takes_of(m, checkpoint)
    state = m.state
    duty = m.rules.stock_exhaustion.must_take_pile
    if not state.stock and state.discard_pile and duty == _WHENEVER_ALLOWED:
        # draw.check_must_take: declining the pile is allowed only when no way to take it is legal
        first = next(takes, None)
        if first is None:
            yield DRAW
            return
        yield first
    elif state.stock or not check_draw(m.ctx):  # check_draw: with stock left, drawing is always allowed
        yield DRAW
    yield from takes


def draw_list(rules: CompiledRules, state: GameState) -> list[Action]:
    """The legal actions of the draw phase in canonical order (a valid state)."""
    if state.stock:
        quick = quick_draw(rules, state)
        if quick is not None:
            return quick
    m = Mover(rules, state)
    takes: list[Action] = list(takes_of(m, None))
    if len(takes) > 1:
        takes.sort(key=take_key)
    duty = rules.stock_exhaustion.must_take_pile
    if not state.stock and state.discard_pile and duty == _WHENEVER_ALLOWED:
        return takes or [DRAW]  # draw.check_must_take, as in draw_phase
    if state.stock or not check_draw(m.ctx):
        return [DRAW, *takes]
    return takes


def take_key(action: Action) -> tuple[object, ...]:
    """A take-pile action's place among the take-pile actions (oracle.games.movegen.sort_key without the kind)."""
    assert isinstance(action, TakePile)
    melds = action.melds
    if not melds:
        return (action.with_cards, ())
    return (action.with_cards, tuple((g.cards, -1 if g.onto_rank is None else g.onto_rank) for g in melds))


def quick_draw(rules: CompiledRules, state: GameState) -> list[Action] | None:
    """The draw phase's legal actions with stock left, decided from counts where that is enough (else None).

    No way to take the pile can be legal when the pile is empty or a wild card or a three is on top; the mover
    holds no natural of the top card's rank and only the take onto the side's meld is left, which a frozen pile
    (or the rule set) refuses; the pile is frozen and the mover holds fewer than two; a side without melds cannot
    reach the minimum with the top card and every hand card; or the side has no meld of the rank, the mover holds
    no wild card and no count of naturals makes a new meld with the top card. A side with melds and a hand without
    wild cards gets its takes from movegen_fast.takes_without_wilds.
    """
    pile = state.discard_pile
    if not pile:
        return [DRAW]
    top = pile[-1]
    if not _FIRST_NATURAL <= top <= _LAST_NATURAL:  # oracle.model.cards.is_natural
        return [DRAW]
    first = top - ((top - 1) & 3)  # the rank's first card number (oracle.model.cards.make_card)
    seat = state.seat_to_move
    hand = state.seats[seat].hand
    held = hand.count(first) + hand.count(first + 1) + hand.count(first + 2) + hand.count(first + 3)
    rank = (top - 1) >> 2  # oracle.model.cards.rank_of
    side = state.sides[state.side_of_seat[seat] if state.side_of_seat else seat % rules.sides]  # facts.playing_side
    has_meld = _has_meld(side.melds, rank)
    if not held:  # only TakePile() onto the side's meld, which a frozen pile does not allow
        if not has_meld or not rules.discard_pile.unfrozen_onto_existing_meld:
            return [DRAW]
        frozen = pile_frozen(rules, state, side)
        if frozen:
            return [DRAW]
    else:
        frozen = pile_frozen(rules, state, side)
        if frozen and held < 2:
            return [DRAW]  # a frozen pile is taken with two naturals at least
    facts = rule_facts(rules)
    if not side.melds:  # the initial meld: the top card and hand cards reach the minimum, or no take is legal
        points = facts.meld_points
        if sum(map(points.__getitem__, hand)) + points[top] < side_minimum(
            rules, state.sides[seat % rules.sides], state.hand_number
        ):
            return [DRAW]
    if _has_wild(hand):
        return None
    if not has_meld and not any(facts.new_ok(rank, n + 1, 0, True) for n in range(2 if frozen else 1, held + 1)):
        return [DRAW]
    if side.melds:
        return takes_without_wilds(rules, state, facts, hand, first, held, has_meld, frozen)
    return None


def _has_meld(melds: tuple[Cards, ...], rank: int) -> bool:
    """The side has a meld of the natural `rank` (oracle.model.state.meld_index_of_rank is not None)."""
    for meld in melds:
        for card in meld:
            kind = KIND[card]
            if kind >= 0:  # the first card that is not wild names the meld's rank
                if kind == rank:
                    return True
                break
    return False


def _has_wild(cards: Cards) -> bool:
    """Some card is wild (oracle.model.cards.is_wild: a joker, or a card numbered 4 or less)."""
    return JOKER in cards or (bool(cards) and min(cards) <= _HIGHEST_TWO)


def pile_frozen(rules: CompiledRules, state: GameState, side: SideState) -> bool:
    """The pile is frozen to the side: facts.frozen_reasons_for_side is not empty (the same conditions)."""
    p = rules.discard_pile
    if p.frozen_until_initial_meld and not side.melds:
        return True
    pile, upcards = state.discard_pile, state.pile_upcards
    if not upcards:  # no upcard: what the pile holds decides (up is empty)
        if p.frozen_by_wild and _has_wild(pile):
            return True
        return p.frozen_by_black_three and (_BLACK_THREE in pile or _OTHER_BLACK_THREE in pile)
    up, rest = pile[:upcards], pile[upcards:]
    if p.frozen_by_upcard and up and (_has_wild(up) or _RED_THREE in up or _OTHER_RED_THREE in up):
        return True
    if p.frozen_by_wild and (_has_wild(rest) or (not p.frozen_by_upcard and _has_wild(up))):
        return True
    return p.frozen_by_black_three and (_BLACK_THREE in rest or _OTHER_BLACK_THREE in rest)


def takes_of(m: Mover, checkpoint: Checkpoint | None) -> Iterator[TakePile]:
    """The legal take-pile actions (draw.check_take_pile): the forms the freezing rules allow, each top-card group
    that breaks no meld rule, and (a side without melds) the minimal sets of other melds that complete it."""
    state, rules, facts = m.state, m.rules, m.facts
    pile, pile_rules = state.discard_pile, rules.discard_pile
    if not pile or not is_natural(pile[-1]):
        return  # empty, or a wild card or a three on top: no way to take it
    if pile_rules.one_card_hand_no_one_card_pile and m.size == 1 and len(pile) == 1:
        return
    top = pile[-1]
    rank = rank_of(top)
    has_meld = rank in m.meld_at
    naturals = m.by_rank.get(rank, ())
    if not naturals and not has_meld:
        return  # neither a natural of its rank in hand nor a meld of it: no form can take it
    frozen = pile_frozen(rules, state, m.side)
    taken = pile[-pile_rules.take_limit :] if pile_rules.take_limit else pile
    reds = 0  # taken with the pile and laid at once (never the top card)
    for card in _RED_THREES:
        reds += taken.count(card)
    base_left = m.size + len(taken) - 1 - reds  # the hand after, before melding
    old = m.target_shape(rank) if has_meld and facts.per_rank else None

    def laid(naturals: int, wilds: int) -> int | None:
        """The side's canastas after laying the top-card group, None if it breaks a meld rule (a natural rank:
        the going-out flag changes nothing)."""
        if old is None:
            return m.canastas + facts.canasta(naturals + wilds) if facts.new_ok(rank, naturals, wilds, True) else None
        if not facts.added_ok(old, naturals, wilds, True):
            return None
        return m.canastas - facts.canasta(old[1]) + facts.canasta(old[1] + naturals + wilds)

    if not frozen and has_meld and pile_rules.unfrozen_onto_existing_meld:
        canastas = laid(1, 0)
        if canastas is not None and m.end_ok(base_left, canastas, took_pile=True):
            yield TakePile()
    jokers, twos = m.jokers, len(m.twos)
    pool = None
    bounds: list[int] = []
    if m.needs_initial:  # black-three melds only where they may be laid without going out, or the take can go out
        black_threes = not rules.threes.black_three_meld_going_out_only or base_left < 2
        pool = new_meld_pool(m, exclude=rank, black_threes=black_threes)
        bounds = natural_bounds(pool, m.wild_points)
    top_points = facts.rank_points[rank]
    if pool is not None:  # every take then reaches the minimum: not even all the cards that could meld do
        wild_points = jokers * facts.joker_points + twos * facts.two_points
        if (len(naturals) + 1) * top_points + wild_points + bounds[0] < m.minimum:
            return
    for n in range(2 if frozen else 1, len(naturals) + 1):
        for j in range(jokers + 1):
            for t in range(twos + 1):
                w = j + t
                if frozen and w and not pile_rules.frozen_take_wilds:  # draw._check_freezing
                    continue
                if n == 1 and not frozen:  # one natural: draw._check_freezing
                    if w and not pile_rules.unfrozen_natural_and_wild:
                        continue
                    if not w and has_meld and not pile_rules.unfrozen_onto_existing_meld:
                        continue
                canastas = laid(n + 1, w)
                if canastas is None:
                    continue
                with_cards = (*naturals[:n], *m.twos[:t], *(JOKER,) * j)
                if pool is None:
                    if m.end_ok(base_left - n - w, canastas, took_pile=True):
                        yield TakePile(with_cards)
                    continue
                base = m.group(rank, n, j, t).points + top_points
                for extra in minimal_sets(
                    pool, base, m.minimum, jokers - j, twos - t, checkpoint, m.wild_points, bounds
                ):
                    if _extras_ok(m, extra, base_left - n - w, canastas):
                        yield TakePile(with_cards, m.cards(extra, first_two=t))


def second_steps(m: Mover, checkpoint: Checkpoint | None) -> Iterator[Meld]:
    """Phase MELD_PILE_TOP: the second step of each legal take-pile, judged on the state before the take
    (oracle.rules.two_step)."""
    top = m.state.discard_pile[-1]
    for take in takes_of(m, checkpoint):
        yield second_step_meld(top, take)


def _extras_ok(m: Mover, extra: tuple[Group, ...], left: int, canastas: int) -> bool:
    """The other melds of a take (new melds reaching the minimum) break no rule, nor does the end of the take."""
    facts = m.facts
    left -= sum(g.size for g in extra)
    going_out = left <= 1
    for g in extra:
        if not facts.new_ok(g.rank, g.naturals, g.jokers + g.twos, going_out, left == 0):
            return False
        canastas += facts.canasta(g.size, g.rank == RANK_THREE)
    return m.end_ok(left, canastas, took_pile=True)
