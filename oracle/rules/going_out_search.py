"""Whether the player to move could still go out this turn: one meld action per card left aside to discard (or
none), with the wild cards spread over the groups so that the side has the most canastas (the referee then judges
each of these actions; oracle.rules.play.can_go_out)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from oracle.model.actions import Meld, MeldGroup
from oracle.model.cards import RANK_THREE, is_black_three, is_wild, make_card, rank_of, suit_of
from oracle.model.state import Cards, SideState, index_of_rank, is_run
from oracle.rules.meld_play import NEW_MELD_ONLY, default_target
from oracle.rules.melds import WILD_MELD_RANK, MeldShape, is_canasta, meld_rule_breaks, meld_shape
from oracle.ruleset.compiled import CompiledRules


@dataclass(frozen=True, slots=True)
class _Target:
    """Where some of the wild cards may go: a group of naturals (or black threes), or onto a meld, or a new
    wild-only meld; `options` maps each wild count it can take to whether the meld is then a canasta."""

    rank: int
    naturals: tuple[int, ...]  #: the hand cards of the group (empty for wild cards only)
    onto: bool  #: wild cards only, joining the side's meld of `rank`
    options: dict[int, bool]  #: wild count -> the meld it makes or joins is then a canasta (valid counts only)
    named: int = 0  #: the meld joined, named by number (several melds of a rank: a canasta no group joins unasked)


def going_out_melds(rules: CompiledRules, side: SideState, hand: Cards, *, discard_optional: bool) -> Iterator[Meld]:
    """For each distinct card kept back to discard (and, where the last card may be melded, for none), the meld
    action of every other card with the most canastas; nothing for a leftover whose groups no wild spread makes
    legal. Hands of one card have no meld (the card is discarded)."""
    leftovers: list[int | None] = [None] if discard_optional else []
    leftovers += sorted(set(hand))
    for leftover in leftovers:
        rest = list(hand)
        if leftover is not None:
            rest.remove(leftover)
        if rest:
            action = _best_meld(rules, side, tuple(rest))
            if action is not None:
                yield action
            if rules.runs.min_size:  # and with the runs the cards make or extend first (runs.*)
                runs, others = _runs_first(rules, side, tuple(rest))
                if runs:
                    groups = _best_meld(rules, side, others) if others else Meld(())
                    if groups is not None:
                        yield Meld((*runs, *groups.groups))


def _best_meld(rules: CompiledRules, side: SideState, cards: Cards) -> Meld | None:
    wilds = sorted((c for c in cards if is_wild(c)), reverse=True)  # jokers (53) first
    groups: dict[int, list[int]] = {}
    for card in cards:
        if not is_wild(card):
            groups.setdefault(RANK_THREE if is_black_three(card) else rank_of(card), []).append(card)
    targets = [_natural_target(rules, side, rank, tuple(naturals), len(wilds)) for rank, naturals in groups.items()]
    if any(not t.options for t in targets):
        return None  # a group no number of wild cards makes legal
    for index, meld in enumerate(side.melds):
        rank = meld_shape(meld).rank
        if rank in groups or rank == RANK_THREE or is_run(meld):
            continue
        if default_target(rules, side.melds, rank) == index:
            targets.append(_onto_target(rules, meld, rank, len(wilds)))
        elif not rules.melds.one_meld_per_rank and default_target(rules, side.melds, rank) is None:
            if index_of_rank(side.melds, rank) == index:  # only canastas of the rank: wild cards join one, named
                targets.append(_onto_target(rules, meld, rank, len(wilds), named=index + 1))
    if rules.melds.wild_only_melds:
        options = {w: is_canasta(_new(WILD_MELD_RANK, 0, w), rules) for w in range(len(wilds) + 1)}
        targets.append(
            _Target(WILD_MELD_RANK, (), False, {w: c for w, c in options.items() if not w or _ok_new(rules, w)})
        )
    spread = _most_canastas(targets, len(wilds))
    if spread is None:
        return None
    out: list[MeldGroup] = []
    for target, count in zip(targets, spread, strict=True):
        if not target.naturals and not count:
            continue
        given, wilds = wilds[:count], wilds[count:]
        onto_rank = target.rank if target.onto and not target.named else None
        out.append(MeldGroup((*target.naturals, *given), onto_rank, target.named))
    return Meld(tuple(out)) if out else None


def _runs_first(rules: CompiledRules, side: SideState, cards: Cards) -> tuple[list[MeldGroup], Cards]:
    """Every run the cards extend (each of the side's runs, at both ends) or make (per suit, the longest blocks of
    consecutive ranks, up to runs.max_size), taken greedily; and the cards left."""
    r, left, groups = rules.runs, list(cards), []
    longest = r.max_size or r.highest_rank - r.lowest_rank + 1  # no limit: the whole range of ranks
    for index, meld in enumerate(side.melds):
        if not is_run(meld):
            continue
        ranks, suit = sorted(rank_of(c) for c in meld), suit_of(meld[0])
        chain: list[int] = []
        room = r.max_size - len(meld) if r.max_size else len(left)
        for step, start, stop in ((-1, ranks[0] - 1, r.lowest_rank - 1), (1, ranks[-1] + 1, r.highest_rank + 1)):
            for rank in range(start, stop, step):
                card = make_card(rank, suit)
                if card not in left or len(chain) >= room:
                    break
                left.remove(card)
                chain.append(card)
        if chain:
            groups.append(MeldGroup(tuple(sorted(chain)), None, index + 1))
    for suit in range(4):
        rank = r.lowest_rank
        while rank <= r.highest_rank:
            block: list[int] = []
            while rank <= r.highest_rank and make_card(rank, suit) in left and len(block) < longest:
                block.append(make_card(rank, suit))
                rank += 1
            if len(block) >= r.min_size:
                for card in block:
                    left.remove(card)
                groups.append(MeldGroup(tuple(block)))
            elif not block:
                rank += 1
    return groups, tuple(left)


def _new(rank: int, naturals: int, wilds: int) -> MeldShape:
    return MeldShape(rank, naturals + wilds, naturals, wilds, rank == RANK_THREE)


def _ok_new(rules: CompiledRules, wilds: int) -> bool:
    return not meld_rule_breaks(_new(WILD_MELD_RANK, 0, wilds), rules, going_out=True)


def _joined(rules: CompiledRules, old: MeldShape, naturals: int, wilds: int) -> tuple[bool, MeldShape]:
    """Whether adding keeps the meld legal (the rules for new melds aside), and its shape after."""
    after = MeldShape(old.rank, old.size + naturals + wilds, old.naturals + naturals, old.wilds + wilds, False)
    ok = all(b.field in NEW_MELD_ONLY for b in meld_rule_breaks(after, rules, going_out=True))
    if wilds and is_canasta(old, rules) and not old.wilds and not rules.canastas.wild_may_join_natural:
        ok = False
    if wilds and is_canasta(old, rules) and not rules.canastas.wild_may_join_canasta:
        ok = False
    return ok, after


def _natural_target(rules: CompiledRules, side: SideState, rank: int, naturals: Cards, most: int) -> _Target:
    index = default_target(rules, side.melds, rank) if rank != RANK_THREE else None
    named = 0
    if index is None and not rules.melds.one_meld_per_rank and rank != RANK_THREE:
        index = index_of_rank(side.melds, rank)  # only canastas of the rank: the cards join one, named
        named = 0 if index is None else index + 1
    options: dict[int, bool] = {}
    if index is None:
        for w in range(most + 1):
            shape = _new(rank, len(naturals), w)
            if not meld_rule_breaks(shape, rules, going_out=True):
                options[w] = is_canasta(shape, rules) and rank != RANK_THREE
        return _Target(rank, naturals, False, options)
    old = meld_shape(side.melds[index])
    for w in range(most + 1):
        ok, after = _joined(rules, old, len(naturals), w)
        if ok:
            options[w] = is_canasta(after, rules)
    return _Target(rank, naturals, False, options, named)


def _onto_target(rules: CompiledRules, meld: Cards, rank: int, most: int, *, named: int = 0) -> _Target:
    old = meld_shape(meld)
    options = {0: is_canasta(old, rules)}
    for w in range(1, most + 1):
        ok, after = _joined(rules, old, 0, w)
        if ok:
            options[w] = is_canasta(after, rules)
    return _Target(rank, (), True, options, named)


def _most_canastas(targets: list[_Target], wilds: int) -> list[int] | None:
    """Wild counts per target adding up to `wilds` with the most canastas among the targets; None if none do."""
    # best[k][u]: the most canastas targets k.. can make with exactly u wilds, and the count target k takes
    best: list[dict[int, tuple[int, int]]] = [{} for _ in range(len(targets) + 1)]
    best[len(targets)][0] = (0, 0)
    for k in range(len(targets) - 1, -1, -1):
        for used in range(wilds + 1):
            choice: tuple[int, int] | None = None
            for w, canasta in targets[k].options.items():
                if w <= used and (used - w) in best[k + 1]:
                    score = best[k + 1][used - w][0] + int(canasta)
                    if choice is None or score > choice[0]:
                        choice = (score, w)
            if choice is not None:
                best[k][used] = choice
    if wilds not in best[0]:
        return None
    spread, used = [], wilds
    for k in range(len(targets)):
        w = best[k][used][1]
        spread.append(w)
        used -= w
    return spread
