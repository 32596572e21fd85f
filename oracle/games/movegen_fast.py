"""Legal moves of the commonest position in one pass: phase PLAY, a side with melds, no wild card in hand.

There the legal melds are single groups of naturals whose canonical order is the order they are found in. The
general generator (oracle.games.movegen_direct) decides every other position; the tests compare both with the
referee.
"""

from __future__ import annotations

from oracle.games.movegen_facts import KIND, RuleFacts, end_ok, rule_facts, side_melds
from oracle.model.actions import Action, AskPartner, Discard, Draw, Meld, MeldGroup, TakePile
from oracle.model.cards import ALL_CARDS, JOKER, RANK_FOUR, is_black_three, is_red_three, is_wild
from oracle.model.state import Cards, GameState, PartnerAnswer
from oracle.ruleset.compiled import CompiledRules

ASK = AskPartner()  #: the one AskPartner action (immutable: every list shares it)
DRAW = Draw()  #: the one Draw action
_ONTO_MELD = TakePile()  #: taking the pile onto the side's meld
DISCARDS = {c: Discard(c) for c in ALL_CARDS}  #: the Discard of each card (immutable: every list shares them)
_RED_THREE, _OTHER_RED_THREE = (c for c in ALL_CARDS if is_red_three(c))
_YES, _NO, _NO_ANSWER = PartnerAnswer.YES, PartnerAnswer.NO, PartnerAnswer.NONE
_BLACK_THREE, _OTHER_BLACK_THREE = (c for c in ALL_CARDS if is_black_three(c))
_HIGHEST_TWO = max(c for c in ALL_CARDS if is_wild(c) and c != JOKER)


def play_without_wilds(rules: CompiledRules, state: GameState) -> list[Action] | None:
    """The legal actions, in canonical order, of phase PLAY for a mover holding cards, none of them wild, whose side
    has melds and whose partner has not said yes; None for any other position.

    The melds are what movegen_direct's single groups come to without wilds: a new meld of the lowest n naturals
    of a rank (of a rank the side has no meld of, where one meld per rank), or n naturals added to the side's meld
    of their rank; a black-three meld sends the position to the general generator. Ranks come in ascending order
    and n ascending, which is the canonical order of single-group melds ((cards, onto) ascending).
    """
    seat = state.seat_to_move
    hand = state.seats[seat].hand
    size = len(hand)
    turn = state.turn
    answer = turn.partner_answer
    if not size or answer == _YES:
        return None
    melds = state.sides[state.side_of_seat[seat] if state.side_of_seat else seat % rules.sides].melds
    if not melds:
        return None
    ordered = sorted(hand)
    if ordered[0] <= _HIGHEST_TWO or ordered[-1] >= JOKER:
        return None  # a wild card (oracle.model.cards.is_wild), or a card number that is no card
    facts = rule_facts(rules)
    threes = rules.threes
    if ordered.count(_BLACK_THREE) + ordered.count(_OTHER_BLACK_THREE) >= threes.black_three_meld_min:
        return None  # a black-three meld may be in reach
    meld_at, canastas = side_melds(facts, melds)
    per_rank, safe, fewest = facts.per_rank, facts.safe_left, facts.fewest
    partner_no = answer == _NO
    out: list[Action] = []
    i = 0
    while i < size:  # the runs of one rank in the sorted hand
        card = ordered[i]
        rank = KIND[card]
        last = card + 3 - ((card - 1) & 3)  # the rank's last card number (cards 4r+1 .. 4r+4)
        j = i + 1
        while j < size and ordered[j] <= last:
            j += 1
        if rank < RANK_FOUR:  # black threes (too few for a meld) and red threes
            i = j
            continue
        held = j - i
        if per_rank and rank in meld_at:  # naturals join the side's meld of their rank
            meld = melds[meld_at[rank]]
            count = meld.count  # a valid state's meld of a natural rank: its naturals and wilds (melds.meld_shape)
            wilds = count(1) + count(2) + count(3) + count(4) + count(JOKER)
            old_size = len(meld)
            old = (rank, old_size, old_size - wilds, wilds)
            before = canastas - facts.canasta(old_size)
            for n in range(1, held + 1):
                left = size - n
                if not facts.added_ok(old, n, 0, left < 2):  # going out: one card left or none (phase PLAY)
                    continue
                if left < safe and not end_ok(facts, left, before + facts.canasta(old_size + n), partner_no, False):
                    continue
                out.append(Meld((MeldGroup(tuple(ordered[i : i + n])),)))
        else:
            least = fewest[rank]
            if least < 0:
                least = facts.fewest_cards(rank)
            if held >= least or held > facts.most_naturals:
                for group in facts.options(rank, 1, held, 0, 0):  # ascending by points: n ascending
                    n = group.naturals
                    left = size - n
                    if left < safe and not end_ok(facts, left, canastas + facts.canasta(n), partner_no, False):
                        continue
                    out.append(Meld((MeldGroup(tuple(ordered[i : i + n])),)))
        i = j
    if size == 1:  # play.check_discard: the last card goes out (going_out.check_going_out: canastas, answer)
        if canastas >= facts.required and not partner_no:
            out.append(DISCARDS[ordered[0]])
        return out
    out += map(DISCARDS.__getitem__, dict.fromkeys(ordered))  # each card once, ascending (all cards here)
    if facts.may_ask and answer == _NO_ANSWER and not turn.melded:  # play.check_ask's conditions
        out.append(ASK)
    return out


def takes_without_wilds(
    rules: CompiledRules,
    state: GameState,
    facts: RuleFacts,
    hand: Cards,
    first: int,
    held: int,
    has_meld: bool,
    frozen: bool,
) -> list[Action]:
    """The draw phase's legal actions, in canonical order, with stock left, for a side with melds and a mover
    holding no wild card and `held` naturals of the top card's rank (`first`: its first card number); `has_meld`:
    the side has a meld of that rank; `frozen`: the pile is frozen to the side.

    What movegen_draw.takes_of comes to without wilds: the take onto the side's meld, then the lowest n naturals
    with the top card, n ascending (the canonical order of these takes).
    """
    pile, p = state.discard_pile, rules.discard_pile
    size = len(hand)
    out: list[Action] = [DRAW]
    if p.one_card_hand_no_one_card_pile and size == 1 and len(pile) == 1:
        return out
    rank = (first - 1) >> 2
    mover = state.seat_to_move
    melds = state.sides[state.side_of_seat[mover] if state.side_of_seat else mover % rules.sides].melds
    meld_at, canastas = side_melds(facts, melds)
    taken = pile[-p.take_limit :] if p.take_limit else pile
    base_left = size + len(taken) - 1 - taken.count(_RED_THREE) - taken.count(_OTHER_RED_THREE)  # before melding
    partner_no = state.turn.partner_answer == _NO
    canasta = facts.canasta
    if has_meld and facts.per_rank:  # the top-card group joins the side's meld of its rank
        meld = melds[meld_at[rank]]
        count = meld.count  # a valid state's meld of a natural rank: its naturals and wilds (melds.meld_shape)
        wilds = count(1) + count(2) + count(3) + count(4) + count(JOKER)
        old_size = len(meld)
        old = (rank, old_size, old_size - wilds, wilds)
        before = canastas - canasta(old_size)
        laid = [before + canasta(old_size + n) if facts.added_ok(old, n, 0, True) else -1 for n in range(held + 2)]
    else:  # a new meld (the going-out flag changes nothing for a natural rank)
        laid = [canastas + canasta(n) if facts.new_ok(rank, n, 0, True) else -1 for n in range(held + 2)]
    onto = p.unfrozen_onto_existing_meld
    if not frozen and has_meld and onto and laid[1] >= 0 and end_ok(facts, base_left, laid[1], partner_no, True):
        out.append(_ONTO_MELD)
    naturals = [c for c in range(first, first + 4) for _ in range(hand.count(c))]  # ascending
    for n in range(2 if frozen else 1, held + 1):
        if n == 1 and not frozen and has_meld and not onto:  # draw._check_freezing
            continue
        after = laid[n + 1]
        if after >= 0 and end_ok(facts, base_left - n, after, partner_no, True):
            out.append(TakePile(tuple(naturals[:n])))
    return out
