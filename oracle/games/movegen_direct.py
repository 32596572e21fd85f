"""Direct legal-move generation: the legal actions of the canonical space (oracle.rules.candidates) produced from
the position phase by phase, enumerating only the forms that can be legal instead of judging every candidate.

Each form is still decided by the rules' own functions (meld rules, canastas, the minimum and its waiver, the
checks at the end of an action, through oracle.games.movegen_facts), computed once per make-up; what a form
needs from the position (the hand by rank, the side's melds by rank, whether the pile is frozen, how many cards
taking it brings) is computed once per position. The output equals the referee's judgement of every candidate
(``oracle.games.movegen.legal_actions_by_referee``); the tests compare the two.
"""

from __future__ import annotations

from collections.abc import Iterator

from oracle.games.movegen_facts import Group, Mover
from oracle.games.movegen_sets import going_out_sets, minimal_sets, natural_bounds, new_meld_pool
from oracle.model.actions import (
    Action,
    AnswerPartner,
    AskPartner,
    Discard,
    Draw,
    Finish,
    Meld,
    MeldGroup,
    TakePile,
    second_step_meld,
)
from oracle.model.cards import ALL_CARDS, JOKER, RANK_THREE, is_natural, is_red_three, rank_of
from oracle.model.interrupt import Checkpoint
from oracle.model.state import GameState, PartnerAnswer, Phase
from oracle.rules.draw import check_draw
from oracle.rules.facts import frozen_reasons_for_side
from oracle.rules.going_out import check_going_out
from oracle.rules.play import can_go_out, check_answer, check_ask, check_finish
from oracle.rules.two_step import before_take
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.sections import MustTakePile

_RED_THREES = tuple(c for c in ALL_CARDS if is_red_three(c))


def iter_legal(rules: CompiledRules, state: GameState, checkpoint: Checkpoint | None = None) -> Iterator[Action] | None:
    """The legal actions of the canonical space, each once, in generation order (not the canonical order); None
    for a phase this generator does not know (the caller then asks the referee). The state must be valid."""
    phase = state.phase
    if phase == Phase.DRAW:
        return _draw_phase(Mover(rules, state), checkpoint)
    if phase == Phase.PLAY:
        return _play_phase(Mover(rules, state), checkpoint)
    if phase == Phase.FINAL_MELDS:
        return _final_melds_phase(Mover(rules, state), checkpoint)
    if phase == Phase.AWAIT_ANSWER:
        return _answers(Mover(rules, state))
    if phase == Phase.MELD_PILE_TOP:
        return _second_steps(Mover(rules, before_take(state)), checkpoint)
    if phase == Phase.HAND_OVER:
        return iter(())
    return None


# --- the draw phase ----------------------------------------------------------------------------------------------


def _draw_phase(m: Mover, checkpoint: Checkpoint | None) -> Iterator[Action]:
    takes = _takes(m, checkpoint)
    state = m.state
    duty = m.rules.stock_exhaustion.must_take_pile
    if not state.stock and state.discard_pile and duty == MustTakePile.WHENEVER_ALLOWED:
        # draw.check_must_take: declining the pile is allowed only when no way to take it is legal
        first = next(takes, None)
        if first is None:
            yield Draw()
            return
        yield first
    elif not check_draw(m.ctx):
        yield Draw()
    yield from takes


def _takes(m: Mover, checkpoint: Checkpoint | None) -> Iterator[TakePile]:
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
    frozen = bool(frozen_reasons_for_side(rules, state, m.ctx.side_index))
    taken = pile[-pile_rules.take_limit :] if pile_rules.take_limit else pile
    reds = sum(taken.count(c) for c in _RED_THREES)  # taken with the pile and laid at once (never the top card)
    base_left = m.size + len(taken) - 1 - reds  # the hand after, before melding
    old = m.target_shape(rank) if has_meld and rules.melds.one_meld_per_rank else None

    def laid(naturals: int, wilds: int) -> int | None:
        """The side's canastas after laying the top-card group, None if it breaks a meld rule (a natural rank:
        the going-out flag changes nothing)."""
        if old is None:
            return m.canastas + facts.canasta(naturals + wilds) if facts.new_ok(rank, naturals, wilds, True) else None
        if not facts.added_ok(old, naturals, wilds, True):
            return None
        return m.canastas - facts.canasta(old.size) + facts.canasta(old.size + naturals + wilds)

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


def _second_steps(m: Mover, checkpoint: Checkpoint | None) -> Iterator[Meld]:
    """Phase MELD_PILE_TOP: the second step of each legal take-pile, judged on the state before the take
    (oracle.rules.two_step)."""
    top = m.state.discard_pile[-1]
    for take in _takes(m, checkpoint):
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


# --- the rest of the turn ------------------------------------------------------------------------------------------


def _play_phase(m: Mover, checkpoint: Checkpoint | None) -> Iterator[Action]:
    yield from _melds(m, checkpoint)
    if m.size == 1:  # play.check_discard: the last card goes out (the canastas, the partner's answer)
        if not check_going_out(m.ctx, m.canastas):
            yield Discard(m.hand[0])
    elif m.size and (m.state.turn.partner_answer != PartnerAnswer.YES or not can_go_out(m.ctx)):
        # a "yes" binds a player who can go out; one who cannot discards (play.check_discard)
        yield from (Discard(c) for c in sorted(set(m.hand)))
    if not check_ask(m.ctx):
        yield AskPartner()


def _final_melds_phase(m: Mover, checkpoint: Checkpoint | None) -> Iterator[Action]:
    yield from _melds(m, checkpoint)
    if not check_finish(m.ctx):
        yield Finish()


def _answers(m: Mover) -> Iterator[Action]:
    if not check_answer(m.ctx):
        yield AnswerPartner(True)
        yield AnswerPartner(False)


def _melds(m: Mover, checkpoint: Checkpoint | None) -> Iterator[Meld]:
    if not m.needs_initial:
        yield from _single_groups(m)
        return
    # A black-three meld where it needs going out: only in a set that goes out, which going_out_sets lists.
    pool = new_meld_pool(m, black_threes=not m.rules.threes.black_three_meld_going_out_only)
    sets: Iterator[tuple[Group, ...]] = iter(())
    if pool and m.minimum <= 0:
        sets = ((g,) for options in pool for g in options)
    elif pool:
        sets = minimal_sets(pool, 0, m.minimum, m.jokers, len(m.twos), checkpoint, m.wild_points)
    listed: set[tuple[Group, ...]] = set()  # minimal sets that also go out (the going-out search finds them again)
    for groups in sets:
        if _new_melds_ok(m, groups):
            if sum(g.size for g in groups) >= m.size - 1:
                listed.add(groups)
            yield Meld(m.cards(groups))
    for groups in going_out_sets(m, checkpoint):
        if groups not in listed and _new_melds_ok(m, groups):
            yield Meld(m.cards(groups))


def _new_melds_ok(m: Mover, groups: tuple[Group, ...]) -> bool:
    """A meld action of new melds only breaks no rule (play.check_meld): meld rules, minimum, end of the action."""
    facts = m.facts
    left = m.size - sum(g.size for g in groups)
    going_out = m.going_out(left)
    canastas = m.canastas
    points = 0
    for g in groups:
        if not facts.new_ok(g.rank, g.naturals, g.jokers + g.twos, going_out, left == 0):
            return False
        canastas += facts.canasta(g.size, g.rank == RANK_THREE)
        points += g.points
    if m.needs_initial and points < m.minimum:
        if not m.waived(canastas > m.canastas, going_out, canastas, final_discard=going_out and left == 1):
            return False
    return m.end_ok(left, canastas, took_pile=False)


def _single_groups(m: Mover) -> Iterator[Meld]:
    """A side with melds: every single canonical group that is legal alone (new, added, or wilds onto a meld)."""
    facts = m.facts
    for options in new_meld_pool(m):
        for g in options:
            if _new_melds_ok(m, (g,)):
                yield Meld(m.cards((g,)))
    if not m.meld_at:
        return
    jokers, twos = m.jokers, len(m.twos)
    wilds = jokers + twos
    per_rank = m.rules.melds.one_meld_per_rank
    for rank in sorted(m.meld_at):
        held = len(m.by_rank.get(rank, ())) if per_rank else 0  # naturals join the meld where one per rank
        if not held and not wilds:
            continue
        old = m.target_shape(rank)
        before = m.canastas - facts.canasta(old.size)
        naturals = m.by_rank.get(rank, ())
        for n in range(held + 1):
            for w in range(0 if n else 1, wilds + 1):
                left = m.size - n - w
                if not facts.added_ok(old, n, w, m.going_out(left)):
                    continue
                if not m.end_ok(left, before + facts.canasta(old.size + n + w), took_pile=False):
                    continue
                onto = None if n else rank  # wilds alone name the meld they join
                for j in range(max(0, w - twos), min(jokers, w) + 1):
                    yield Meld((MeldGroup((*naturals[:n], *m.twos[: w - j], *(JOKER,) * j), onto),))
