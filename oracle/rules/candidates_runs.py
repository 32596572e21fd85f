"""The candidate space's Samba part: runs from the hand, cards added to the side's runs, melds named by number or
started anew where a side may hold several melds of a rank, the pile's top card onto a run, and combined melds.

What oracle.rules.candidates adds to the space (see its docstring for the rest) where the rule set has runs
(runs.min_size), several melds of a rank (melds.one_meld_per_rank false) or combining (melds.combine_same_rank):

* a canonical run is the cards of one suit in consecutive ranks from the hand, one card of each rank, between
  runs.lowest_rank and runs.highest_rank, of runs.min_size up to runs.max_size cards (no limit: the whole block);
* ``meld``, side with melds: Meld((run,)) for every canonical run; for each of the side's runs N, Meld((chain to
  N,)) for every chain of hand cards of its suit that extends it at the low end, the high end or both (a cards and
  b cards, a + b >= 1, within runs.max_size); for each single natural canonical group of a rank whose default
  target is a meld, the same group as a new meld (``new``); and for each of the side's canastas of the rank other
  than the default target, the group sent to it (``to N``);
* ``meld``, side without melds: Meld((run, *M)) for every canonical run and every MINIMAL set M of new-meld groups
  that, with the run's points, reaches the initial minimum (M empty when the run alone does);
* ``take-pile``: TakePile(onto=N) for each of the side's runs N; and the natural groups of the top card's rank
  with ``new`` when the top card's default target is a meld;
* ``combine``: Combine(i, j), i < j, for every two melds of the side of one natural rank (phase PLAY or
  FINAL_MELDS).
"""

from __future__ import annotations

from collections.abc import Iterator

from oracle.model.actions import Combine, Meld, MeldGroup, TakePile
from oracle.model.cards import is_natural, make_card, rank_of, suit_of
from oracle.model.state import is_run
from oracle.rules.canonical_groups import GroupBuilder
from oracle.rules.meld_play import default_target
from oracle.rules.melds import is_canasta, meld_shape
from oracle.rules.minimum import needs_initial_meld


def has_samba_space(gen: GroupBuilder) -> bool:
    """Whether the rule set needs this part of the space."""
    m = gen.rules.melds
    return bool(gen.rules.runs.min_size) or not m.one_meld_per_rank or m.combine_same_rank


def hand_runs(gen: GroupBuilder) -> list[tuple[int, ...]]:
    """Every canonical run in the mover's hand (by suit, then lowest rank, then length)."""
    r = gen.rules.runs
    if not r.min_size:
        return []
    held = set(gen.state.seats[gen.state.seat_to_move].hand)
    out = []
    for suit in range(4):
        for low in range(r.lowest_rank, r.highest_rank + 1):
            cards: list[int] = []
            for rank in range(low, r.highest_rank + 1):
                card = make_card(rank, suit)
                if card not in held or (r.max_size and len(cards) == r.max_size):
                    break
                cards.append(card)
                if len(cards) >= r.min_size:
                    out.append(tuple(cards))
    return out


def _extensions(gen: GroupBuilder, run: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """The chains of hand cards that extend a run at its low end, its high end or both."""
    r = gen.rules.runs
    held = set(gen.state.seats[gen.state.seat_to_move].hand)
    ranks = sorted(rank_of(c) for c in run)
    suit = suit_of(run[0])
    low_chain = [make_card(k, suit) for k in range(ranks[0] - 1, r.lowest_rank - 1, -1)]
    high_chain = [make_card(k, suit) for k in range(ranks[-1] + 1, r.highest_rank + 1)]
    lows = _held_prefix(low_chain, held)
    highs = _held_prefix(high_chain, held)
    for a in range(len(lows) + 1):
        for b in range(len(highs) + 1):
            if a + b and (not r.max_size or len(run) + a + b <= r.max_size):
                yield tuple(sorted((*lows[:a], *highs[:b])))


def _held_prefix(chain: list[int], held: set[int]) -> list[int]:
    out = []
    for card in chain:
        if card not in held:
            break
        out.append(card)
    return out


def extra_melds(gen: GroupBuilder) -> Iterator[Meld]:
    """The meld candidates this part adds (phase PLAY or FINAL_MELDS)."""
    melds = gen.side.melds
    runs = hand_runs(gen)
    if needs_initial_meld(gen.side):
        pool = gen.new_meld_pool()
        hand = gen.hand
        for run in runs:
            base = sum(gen.rules.card_points[c] for c in run)
            for extra in gen.minimal_sets(pool, base, hand.jokers, len(hand.twos)):
                yield Meld((MeldGroup(run), *gen.groups(extra)))
        return
    yield from (Meld((MeldGroup(run),)) for run in runs)
    for index, meld in enumerate(melds):
        if is_run(meld):
            yield from (Meld((MeldGroup(chain, None, index + 1),)) for chain in _extensions(gen, meld))
    if gen.rules.melds.one_meld_per_rank:
        return
    for spec in gen.single_groups():
        if spec.onto or not spec.naturals:
            continue
        group = gen.groups((spec,))[0]
        if gen.target_shape(spec.rank) is not None:
            yield Meld((MeldGroup(group.cards, None, 0, True),))
        for index, meld in enumerate(melds):
            if _is_canasta_of(gen, meld, spec.rank) and index != default_target(gen.rules, gen.side.melds, spec.rank):
                yield Meld((MeldGroup(group.cards, None, index + 1),))


def _is_canasta_of(gen: GroupBuilder, meld: tuple[int, ...], rank: int) -> bool:
    shape = meld_shape(meld)
    return is_canasta(shape, gen.rules) and not shape.run and not shape.all_wild and shape.rank == rank


def extra_takes(gen: GroupBuilder) -> Iterator[TakePile]:
    """The take-pile candidates this part adds (phase DRAW)."""
    pile = gen.state.discard_pile
    if not pile or not is_natural(pile[-1]):
        return
    for index, meld in enumerate(gen.side.melds):
        if is_run(meld):
            yield TakePile(onto=index + 1)
    rank = rank_of(pile[-1])
    if gen.rules.melds.one_meld_per_rank or gen.target_shape(rank) is None:
        return
    held = gen.hand.by_rank.get(rank, ())
    for n in range(1, len(held) + 1):
        yield TakePile(held[:n], (), 0, True)


def combines(gen: GroupBuilder) -> Iterator[Combine]:
    """Every pair of the side's melds of one natural rank."""
    if not gen.rules.melds.combine_same_rank:
        return
    ranks: list[int | None] = []
    for meld in gen.side.melds:
        shape = meld_shape(meld)
        ranks.append(None if shape.run or shape.all_wild or shape.black_threes else shape.rank)
    for i, a in enumerate(ranks):
        for j in range(i + 1, len(ranks)):
            if a is not None and ranks[j] == a:
                yield Combine(i + 1, j + 1)
