"""Direct legal-move generation: the legal actions of the canonical space (oracle.rules.candidates) produced from
the position phase by phase, enumerating only the forms that can be legal instead of judging every candidate.

Each form is still decided by the rules' own functions (meld rules, canastas, the minimum and its waiver, the
checks at the end of an action, through oracle.games.movegen_facts), computed once per make-up; what a form
needs from the position (the hand by rank, the side's melds by rank, whether the pile is frozen, how many cards
taking it brings) is computed once per position. The output equals the referee's judgement of every candidate
(``oracle.games.movegen.legal_actions_by_referee``); the tests compare the two.

Two entry points give the same actions: ``iter_legal`` one at a time in generation order (for a bounded list),
``legal_list`` the whole list already in the canonical order. The draw phase is in oracle.games.movegen_draw.
"""

from __future__ import annotations

from collections.abc import Iterator

from oracle.games.movegen_draw import draw_list, draw_phase, quick_draw, second_steps, take_key
from oracle.games.movegen_facts import Group, Mover
from oracle.games.movegen_fast import ASK, DISCARDS, play_without_wilds
from oracle.games.movegen_sets import going_out_sets, minimal_sets, new_meld_pool
from oracle.model.actions import (
    Action,
    AnswerPartner,
    Discard,
    Finish,
    Meld,
    MeldGroup,
)
from oracle.model.cards import JOKER, RANK_THREE
from oracle.model.interrupt import Checkpoint
from oracle.model.state import GameState, PartnerAnswer, Phase
from oracle.rules.play import can_go_out, check_answer, check_finish
from oracle.rules.two_step import before_take
from oracle.ruleset.compiled import CompiledRules

__all__ = ["iter_legal", "legal_list", "meld_key", "quick_list", "take_key"]

_FINISH = Finish()
# Enum members read once (reading one off its class costs more than comparing it)
_DRAW, _PLAY, _FINAL_MELDS, _AWAIT_ANSWER = Phase.DRAW, Phase.PLAY, Phase.FINAL_MELDS, Phase.AWAIT_ANSWER
_MELD_PILE_TOP, _HAND_OVER = Phase.MELD_PILE_TOP, Phase.HAND_OVER
_YES, _NO_ANSWER = PartnerAnswer.YES, PartnerAnswer.NONE
_ANSWERS = (AnswerPartner(True), AnswerPartner(False))


def iter_legal(rules: CompiledRules, state: GameState, checkpoint: Checkpoint | None = None) -> Iterator[Action] | None:
    """The legal actions of the canonical space, each once, in generation order (not the canonical order); None
    for a phase this generator does not know, or a rule set it does not model (CompiledRules.direct_movegen: the
    caller then asks the referee). The state must be valid."""
    if not rules.direct_movegen:
        return None
    phase = state.phase
    if phase == _DRAW:
        return draw_phase(Mover(rules, state), checkpoint)
    if phase == _PLAY:
        return _play_phase(Mover(rules, state), checkpoint)
    if phase == _FINAL_MELDS:
        return _final_melds_phase(Mover(rules, state), checkpoint)
    if phase == _AWAIT_ANSWER:
        return _answers(Mover(rules, state))
    if phase == _MELD_PILE_TOP:
        return second_steps(Mover(rules, before_take(state)), checkpoint)
    if phase == _HAND_OVER:
        return iter(())
    return None


def legal_list(rules: CompiledRules, state: GameState) -> list[Action] | None:
    """The actions iter_legal generates, in the canonical order (oracle.games.movegen.sort_key); None for a phase
    this generator does not know or a rule set it does not model. The state must be valid."""
    if not rules.direct_movegen:
        return None
    phase = state.phase
    if phase == _DRAW:
        return draw_list(rules, state)
    if phase == _PLAY:
        fast = play_without_wilds(rules, state)
        if fast is not None:
            return fast
        m = Mover(rules, state)
        return [*_sorted_melds(m), *_play_rest(m)]
    if phase == _FINAL_MELDS:
        m = Mover(rules, state)
        return [*_sorted_melds(m), *_finish(m)]
    if phase == _MELD_PILE_TOP:
        melds: list[Action] = list(second_steps(Mover(rules, before_take(state)), None))
        if len(melds) > 1:
            melds.sort(key=meld_key)
        return melds
    found = iter_legal(rules, state)
    return None if found is None else list(found)  # the answers (yes before no), or nothing


def quick_list(rules: CompiledRules, state: GameState, limit: int | None) -> list[Action] | None:
    """The full list in canonical order for a position the one-pass paths decide (movegen_fast, quick_draw) when
    they cannot list more than `limit` actions (None: any number); None otherwise. Those paths search nothing:
    phase PLAY lists at most a meld and a discard per card and the question, the draw phase at most drawing, the
    take onto the meld and a take per natural of the top card's rank. The state must be valid."""
    if not rules.direct_movegen:
        return None
    phase = state.phase
    size = len(state.seats[state.seat_to_move].hand)
    if phase == _PLAY and (limit is None or 2 * size + 1 <= limit):
        return play_without_wilds(rules, state)
    if phase == _DRAW and state.stock and (limit is None or size + 2 <= limit):
        return quick_draw(rules, state)
    return None


def meld_key(action: Action) -> tuple[object, ...]:
    """A meld action's place among the meld actions (oracle.games.movegen.sort_key without the kind)."""
    assert isinstance(action, Meld)
    groups = action.groups
    if len(groups) == 1:
        g = groups[0]
        return ((g.cards, -1 if g.onto_rank is None else g.onto_rank),)
    return tuple((g.cards, -1 if g.onto_rank is None else g.onto_rank) for g in groups)


def _sorted_melds(m: Mover) -> list[Action]:
    melds: list[Action] = list(_melds(m, None))
    if len(melds) > 1:
        melds.sort(key=meld_key)
    return melds


# --- the rest of the turn ------------------------------------------------------------------------------------------


def _play_phase(m: Mover, checkpoint: Checkpoint | None) -> Iterator[Action]:
    yield from _melds(m, checkpoint)
    yield from _play_rest(m)


def _play_rest(m: Mover) -> list[Action]:
    """The discards (ascending) and the question to the partner that are legal in phase PLAY."""
    out: list[Action] = []
    facts, turn = m.facts, m.state.turn
    if m.size == 1:  # play.check_discard: the last card goes out (going_out.check_going_out: canastas, answer)
        if m.canastas >= facts.required and not m.partner_no:
            out.append(DISCARDS.get(m.hand[0]) or Discard(m.hand[0]))
    elif m.size and (turn.partner_answer != _YES or not can_go_out(m.ctx)):
        # a "yes" binds a player who can go out; one who cannot discards (play.check_discard)
        discards = DISCARDS
        out += [discards.get(c) or Discard(c) for c in dict.fromkeys(m.ordered)]  # each card once, ascending
    # play.check_ask's conditions: the rule set allows asking, phase PLAY, no answer yet, nothing melded, 2+ cards
    if facts.may_ask and turn.partner_answer == _NO_ANSWER and not turn.melded and m.size != 1:
        out.append(ASK)
    return out


def _final_melds_phase(m: Mover, checkpoint: Checkpoint | None) -> Iterator[Action]:
    yield from _melds(m, checkpoint)
    yield from _finish(m)


def _finish(m: Mover) -> list[Action]:
    return [] if check_finish(m.ctx) else [_FINISH]


def _answers(m: Mover) -> Iterator[Action]:
    if not check_answer(m.ctx):
        yield from _ANSWERS


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
    size, canastas, safe = m.size, m.canastas, facts.safe_left
    by_rank, held_twos = m.by_rank, m.twos
    for options in new_meld_pool(m):
        for g in options:
            rank, n, j, t = g.rank, g.naturals, g.jokers, g.twos
            left = size - n - j - t
            if rank == RANK_THREE:  # the going-out flags decide a black-three meld
                if not _new_melds_ok(m, (g,)):
                    continue
            # other ranks: options() judged the meld rules (the going-out flags change nothing there), and with
            # `safe` cards left the end of the action is fine whatever the canastas
            elif left < safe and not m.end_ok(left, canastas + facts.canasta(n + j + t), took_pile=False):
                continue
            yield Meld((MeldGroup((*by_rank.get(rank, ())[:n], *held_twos[:t], *(JOKER,) * j)),))
    if not m.meld_at:
        return
    jokers, twos = m.jokers, len(held_twos)
    wilds = jokers + twos
    per_rank = facts.per_rank
    if not wilds and not per_rank:
        return  # nothing in hand can join a meld
    final_melds = m.final_melds
    for rank in sorted(m.meld_at):
        naturals = by_rank.get(rank, ())
        held = len(naturals) if per_rank else 0  # naturals join the meld where one per rank
        if not held and not wilds:
            continue
        old = m.target_shape(rank)
        old_size = old[1]
        for n in range(held + 1):
            for w in range(0 if n else 1, wilds + 1):
                left = size - n - w
                going_out = left < 2 and (not left or not final_melds)  # m.going_out(left)
                if not facts.added_ok(old, n, w, going_out):
                    continue
                if left < safe:
                    after = canastas - facts.canasta(old_size) + facts.canasta(old_size + n + w)
                    if not m.end_ok(left, after, took_pile=False):
                        continue
                if not w:
                    yield Meld((MeldGroup(tuple(naturals[:n])),))
                    continue
                onto = None if n else rank  # wilds alone name the meld they join
                for j in range(max(0, w - twos), min(jokers, w) + 1):
                    yield Meld((MeldGroup((*naturals[:n], *held_twos[: w - j], *(JOKER,) * j), onto),))
