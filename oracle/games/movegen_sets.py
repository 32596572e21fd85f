"""Sets of new melds for direct legal-move generation: the new-meld groups per rank, the minimal sets that reach the
initial minimum, and the sets that meld all the hand but at most one card, pruned by what can still be legal."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator

from oracle.games.movegen_facts import Group, Mover
from oracle.model.cards import RANK_THREE
from oracle.model.interrupt import Checkpoint
from oracle.rules.canonical_groups import Leftover, without_leftover
from oracle.rules.melds import WILD_MELD_RANK

_NO_WEAKEST = 1 << 62


def new_meld_pool(m: Mover, *, exclude: int = -1, black_threes: bool = True) -> list[tuple[Group, ...]]:
    """Per rank (black threes, the naturals ascending, then wild-only), the new-meld groups of the canonical space.

    A rank the side has a meld of is left out where melds.one_meld_per_rank sends its cards there; black threes
    are left out when `black_threes` is False (the caller knows they cannot be legal in its sets).
    """
    rules = m.rules
    threes = rules.threes
    facts = m.facts
    jokers, twos = m.jokers, len(m.twos)
    pool: list[tuple[Group, ...]] = []
    by_rank = m.by_rank
    blacks = len(by_rank.get(RANK_THREE, ()))
    if black_threes and blacks >= threes.black_three_meld_min:
        wild_j, wild_t = (jokers, twos) if threes.black_three_meld_wilds else (0, 0)
        most = min(threes.black_three_meld_max, blacks)
        options = facts.options(RANK_THREE, threes.black_three_meld_min, most, wild_j, wild_t)
        if options:
            pool.append(options)
    skip = m.meld_at if facts.per_rank else ()
    options_of = facts.options
    wilds = jokers + twos
    fewest = facts.fewest
    counted = wilds <= facts.most_wilds  # within the deck's counts (fewest_cards)
    for rank, cards in by_rank.items():  # ascending (Mover)
        if rank == RANK_THREE or rank == exclude or rank in skip:
            continue
        held = len(cards)
        least = fewest[rank]
        if least < 0:
            least = facts.fewest_cards(rank)
        if held + wilds < least and counted and held <= facts.most_naturals:
            continue  # too few cards for any meld of the rank
        options = options_of(rank, 1, held, jokers, twos)
        if options:
            pool.append(options)
    if rules.melds.wild_only_melds:
        options = facts.options(WILD_MELD_RANK, 0, 0, jokers, twos)
        if options:
            pool.append(options)
    return pool


def natural_bounds(pool: list[tuple[Group, ...]], wild_points: tuple[int, int]) -> list[int]:
    """From each pool entry on, the sum of the entries' best points without their wilds (`wild_points`: a joker's
    and a two's points)."""
    joker_points, two_points = wild_points
    bounds = [0] * (len(pool) + 1)
    total = 0
    for k in range(len(pool) - 1, -1, -1):
        total += max(g.points - g.jokers * joker_points - g.twos * two_points for g in pool[k])
        bounds[k] = total
    return bounds


def minimal_sets(
    pool: list[tuple[Group, ...]],
    base: int,
    minimum: int,
    jokers: int,
    twos: int,
    checkpoint: Checkpoint | None,
    wild_points: tuple[int, int] = (0, 0),
    bounds: list[int] | None = None,
) -> Iterator[tuple[Group, ...]]:
    """Every set of at most one group per pool entry, within the wild budgets, with base + its points reaching
    `minimum` and removing any one group falling below it; just the empty set when `base` reaches it already.

    Options are ascending by points, so at each step the groups that would complete a minimal set form one run
    (points from what is missing up to what is missing plus the weakest group chosen) and the search stops at it.
    A branch stops as soon as the best naturals of the entries left plus every wild left (`wild_points`: a
    joker's and a two's points) cannot reach the minimum; `bounds` are natural_bounds(pool, wild_points), for a
    caller that searches one pool several times.
    """
    if base >= minimum:
        yield ()
        return
    joker_points, two_points = wild_points
    rest = natural_bounds(pool, wild_points) if bounds is None else bounds

    def walk(
        start: int, chosen: tuple[Group, ...], total: int, weakest: int, j: int, t: int
    ) -> Iterator[tuple[Group, ...]]:
        if checkpoint is not None:
            checkpoint()
        need = minimum - total
        wilds = j * joker_points + t * two_points
        for k in range(start, len(pool)):
            if rest[k] + wilds < need:
                return
            for group in pool[k]:
                points = group.points
                if points >= need + weakest and points >= weakest:
                    break  # this and every stronger group would leave the weakest chosen one spare
                if group.jokers > j or group.twos > t:
                    continue
                if points >= need:
                    yield (*chosen, group)
                else:
                    yield from walk(
                        k + 1, (*chosen, group), total + points, min(weakest, points), j - group.jokers, t - group.twos
                    )

    yield from walk(0, (), base, _NO_WEAKEST, jokers, twos)


# --- going out: every card but at most one ---------------------------------------------------------------------


def going_out_sets(m: Mover, checkpoint: Checkpoint | None) -> Iterator[tuple[Group, ...]]:
    """The canonical sets of new melds that meld all the hand but at most one card (the highest of a rank, the
    highest two, or a joker), each rank's cards in one group and the wilds spread over the groups, leaving out
    spreads that cannot meet the canastas the end of the action or the waived minimum needs."""
    wilds = m.jokers + len(m.twos)
    blocked: list[int] = []
    for r, cards in m.by_rank.items():
        if not _feasible(m, r, len(cards), wilds):
            if blocked:
                return  # whatever card is left over, a rank that cannot be a meld in full stays
            blocked.append(r)
    counts = {r: len(c) for r, c in m.by_rank.items()}
    leftovers: list[Leftover] = [None, *sorted(counts), "two", "joker"]
    if blocked:
        leftovers = [blocked[0]]  # only leaving out one card of that rank can work
    for left, jokers, twos, cards_left in without_leftover(counts, m.jokers, len(m.twos), leftovers):
        yield from _partitions(m, left, jokers, twos, cards_left, checkpoint)


def _feasible(m: Mover, rank: int, naturals: int, wilds: int) -> tuple[int, ...]:
    """The wild counts up to `wilds` with which all `naturals` cards of `rank` make a new meld of the space."""
    facts = m.facts
    if rank == RANK_THREE:
        threes = m.rules.threes
        if not threes.black_three_meld_min <= naturals <= threes.black_three_meld_max:
            return ()
        return facts.wild_counts(RANK_THREE, naturals, wilds if threes.black_three_meld_wilds else 0)
    least = facts.fewest[rank]
    if least < 0:
        least = facts.fewest_cards(rank)
    if naturals + wilds < least and 0 < naturals <= facts.most_naturals and wilds <= facts.most_wilds:
        return ()  # too few cards for any meld of the rank
    return facts.wild_counts(rank, naturals, wilds)


def _canastas_needed(m: Mover, cards_left: int, points: int, most: int) -> int | None:
    """The fewest new canastas with which a set leaving `cards_left` cards can be legal (its ending checks, and
    the waiver when `points` fall short of the minimum), or None when no count up to `most` will do."""
    going_out = m.going_out(cards_left)
    for extra in range(most + 1):
        canastas = m.canastas + extra
        if not m.end_ok(cards_left, canastas, took_pile=False):
            continue
        if m.needs_initial and points < m.minimum and not m.waived(extra > 0, going_out, canastas, cards_left == 1):
            continue
        return extra
    return None


def _partitions(
    m: Mover, left: dict[int, int], jokers: int, twos: int, cards_left: int, checkpoint: Checkpoint | None
) -> Iterator[tuple[Group, ...]]:
    facts = m.facts
    wilds = jokers + twos
    blacks = left.pop(RANK_THREE, 0)
    targets: list[tuple[int, int, tuple[int, ...]]] = []  # (rank, naturals, the wild counts it may take)
    if blacks:
        targets.append((RANK_THREE, blacks, _feasible(m, RANK_THREE, blacks, wilds)))
    for rank in sorted(r for r in left if left[r]):
        targets.append((rank, left[rank], _feasible(m, rank, left[rank], wilds)))
    if m.rules.melds.wild_only_melds:
        targets.append((WILD_MELD_RANK, 0, (0, *m.facts.wild_counts(WILD_MELD_RANK, 0, wilds))))
    if not targets or any(not feasible for _, _, feasible in targets):
        return
    low = [sum(f[0] for _, _, f in targets[k:]) for k in range(len(targets) + 1)]
    high = [sum(f[-1] for _, _, f in targets[k:]) for k in range(len(targets) + 1)]
    if not low[0] <= wilds <= high[0]:
        return
    # The fewest wilds that make each target a canasta (None: never); from each target on, the sums of the
    # smallest of them: how many canastas the rest can still make with the wilds left (a bound, never too low).
    deficits = [
        next((w for w in f if facts.canasta(n + w)), None) if rank != RANK_THREE else None for rank, n, f in targets
    ]
    costs = []
    for k in range(len(targets) + 1):
        cheapest = sorted(d for d in deficits[k:] if d is not None)
        costs.append([sum(cheapest[:c]) for c in range(len(cheapest) + 1)])
    potential = [len(c) - 1 for c in costs]
    points = sum(facts.rank_points[r] * n for r, n, _ in targets) + jokers * facts.joker_points
    points += twos * facts.two_points
    needed = _canastas_needed(m, cards_left, points, potential[0])
    if needed is None:
        return
    bare = [sum(rank != RANK_THREE and facts.canasta(n) for rank, n, _ in targets[k:]) for k in range(len(targets) + 1)]
    chosen: list[tuple[int, int]] = []

    def assign(k: int, j: int, t: int, made: int) -> Iterator[tuple[Group, ...]]:
        if checkpoint is not None:
            checkpoint()
        if not j and not t and k < len(targets):  # no wild left: the other groups are their naturals alone
            if low[k] or made + bare[k] < needed:
                return
            chosen.extend([(0, 0)] * (len(targets) - k))
            yield from assign(len(targets), 0, 0, made + bare[k])
            del chosen[k:]
            return
        if k == len(targets):
            groups = [
                m.group(rank, n, jj, tt)
                for (rank, n, _), (jj, tt) in zip(targets, chosen, strict=True)
                if n or jj or tt
            ]
            if groups:
                yield tuple(groups)
            return
        rank, n, feasible = targets[k]
        remaining = j + t
        for w in feasible:
            if w > remaining:
                break
            after = remaining - w
            if not low[k + 1] <= after <= high[k + 1]:
                continue
            now = made + (rank != RANK_THREE and facts.canasta(n + w))
            if now < needed and now + bisect_right(costs[k + 1], after) - 1 < needed:
                continue
            for jj in range(max(0, w - t), min(j, w) + 1):
                chosen.append((jj, w - jj))
                yield from assign(k + 1, j - jj, t - w + jj, now)
                chosen.pop()

    yield from assign(0, jokers, twos, 0)
