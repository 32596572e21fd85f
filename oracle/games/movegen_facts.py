"""What direct legal-move generation knows about one position: the mover's hand by rank, the side's melds by rank,
memoised verdicts of the rules' own functions (meld rules by make-up, canastas), and the end-of-action checks and
the minimum's waiver as the conditions of their rules functions, without writing violations."""

from __future__ import annotations

from typing import NamedTuple

from oracle.model.actions import MeldGroup
from oracle.model.cards import (
    JOKER,
    RANK_ACE,
    RANK_JOKER,
    RANK_THREE,
    is_black_three,
    is_natural,
    is_wild,
    make_card,
    rank_of,
)
from oracle.model.state import Cards, GameState, PartnerAnswer, Phase, SideState, TurnStart
from oracle.rules.context import Ctx, make_ctx
from oracle.rules.going_out import melding_out_allowed
from oracle.rules.meld_play import waived_for_addition
from oracle.rules.melds import MeldShape, is_canasta, meld_rule_breaks
from oracle.rules.minimum import minimum_waivable, side_minimum
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.sections import AskPartner

#: A side's meld of a natural rank: rank, cards, naturals, wilds (the fields of melds.MeldShape that matter).
Target = tuple[int, int, int, int]
_MEMO_LIMIT = 200_000  #: verdicts kept per rule set before the memo starts again (bounds memory on odd inputs)
_TWO, _JOKER, _OTHER = -1, -2, -3
_FINAL_MELDS, _NO, _DREW = Phase.FINAL_MELDS, PartnerAnswer.NO, TurnStart.DREW  # read once, compared often
#: By card number: the rank a hand card sorts under (naturals and black threes), or _TWO, _JOKER, _OTHER.
KIND: tuple[int, ...] = tuple(
    _OTHER
    if c == 0
    else _JOKER
    if c == JOKER
    else _TWO
    if is_wild(c)
    else rank_of(c)
    if is_natural(c) or is_black_three(c)
    else _OTHER
    for c in range(JOKER + 1)
)


class Group(NamedTuple):
    """A canonical group before it gets its cards (see oracle.rules.candidates): rank, n, j, t and its points."""

    rank: int  #: natural rank, RANK_THREE, WILD_MELD_RANK, or the rank an onto group joins
    naturals: int
    jokers: int
    twos: int
    points: int
    onto: bool = False  #: a wild-only group joining the side's meld of `rank`

    @property
    def size(self) -> int:
        """Cards in the group."""
        return self.naturals + self.jokers + self.twos


class RuleFacts:
    """Verdicts one rule set gives again and again, memoised across positions (each computed by oracle.rules), and
    the rule-set values the end-of-action checks read.

    The meld verdicts are memoised by make-up, not by rank: melds.meld_rule_breaks judges every rank alike but
    black threes (the rank only names the meld in the explanation), which tests/test_movegen_facts.py checks for
    every shipped rule set.
    """

    def __init__(self, rules: CompiledRules) -> None:
        self.rules = rules
        points = rules.card_points
        self.joker_points = points[JOKER]
        self.two_points = points[1]
        self.wild_points = (self.joker_points, self.two_points)
        #: By card number: its points toward the minimum, at least 0 (a bound on what a set of cards can reach).
        self.meld_points = tuple(max(0, p) for p in points)
        self.rank_points = {r: points[make_card(r, 0)] for r in range(RANK_THREE, RANK_ACE + 1)}
        going_out = rules.going_out
        self.required = going_out.canastas_required  #: canastas going out needs
        self.keep = going_out.min_hand_after_meld_without_canastas  #: cards a meld keeps until then
        self.meld_out = melding_out_allowed(rules)  #: going out by melding the last card (may_meld_out)
        self.concealed_with_final_discard = going_out.concealed_with_final_discard
        self.may_ask = going_out.ask_partner != AskPartner.NONE
        self.waiver = minimum_waivable(rules)  #: minimum.is_minimum_waived can apply
        self.per_rank = rules.melds.one_meld_per_rank
        #: Fewest cards a meld may leave for the end-of-action checks to pass whatever the canastas and the answer.
        self.safe_left = max(2, self.keep)
        self._new: dict[tuple[int, int, int, bool, bool], bool] = {}
        self._added: dict[tuple[int, int, int, bool, bool, bool], bool] = {}
        sizes = range(rules.deck_size + 1)  # by size (melds.is_canasta), natural melds and black-three melds
        self.canasta_table = [is_canasta(MeldShape(RANK_ACE, n, n, 0, False), rules) for n in sizes]
        self.black_canasta_table = [is_canasta(MeldShape(RANK_THREE, n, n, 0, True), rules) for n in sizes]
        self._options: dict[tuple[int, int, int, int, int], tuple[Group, ...]] = {}
        self._wilds: dict[tuple[int, int, int], tuple[int, ...]] = {}
        self.most_naturals = 4 * rules.deck.packs  #: naturals of one rank in the deck
        self.most_wilds = rules.deck.jokers + 4 * rules.deck.packs  #: wild cards in the deck
        #: By rank: fewest_cards(rank) once known, else -1.
        self.fewest: list[int] = [-1] * (RANK_JOKER + 1)

    def fewest_cards(self, rank: int) -> int:
        """The fewest cards (naturals, at least one, and wilds) of a new meld of `rank` (judged as if going out),
        among the make-ups the deck allows (most_naturals, most_wilds); more than the deck when there is none. A
        hand within the deck's counts with fewer naturals and wilds than this has no option of that rank."""
        found = self.fewest[rank]
        if found < 0:
            sizes = [
                n + w
                for n in range(1, self.most_naturals + 1)
                for w in range(self.most_wilds + 1)
                if self.new_ok(rank, n, w, True)
            ]
            found = self.fewest[rank] = min(sizes, default=self.rules.deck_size + 1)
        return found

    def new_ok(self, rank: int, naturals: int, wilds: int, going_out: bool, last_cards: bool = True) -> bool:
        """A new meld of this make-up breaks no meld rule (melds.meld_rule_breaks; `last_cards`: no card is left)."""
        key = (rank == RANK_THREE, naturals, wilds, going_out, last_cards)  # other ranks are judged alike
        ok = self._new.get(key)
        if ok is None:
            if len(self._new) > _MEMO_LIMIT:
                self._new.clear()
            shape = MeldShape(rank, naturals + wilds, naturals, wilds, rank == RANK_THREE)
            ok = self._new[key] = not meld_rule_breaks(shape, self.rules, going_out=going_out, last_cards=last_cards)
        return ok

    def added_ok(self, old: Target, naturals: int, wilds: int, going_out: bool) -> bool:
        """Adding to a meld of make-up `old` breaks no rule check_laid applies to an addition: the meld rules but
        those an addition is spared (meld_play.waived_for_addition), and wilds turning a natural canasta mixed."""
        rank, size, old_naturals, old_wilds = old
        mixed = wilds > 0 and not old_wilds and self.canasta(size)  # meld_play: a natural canasta turning mixed
        # by the make-up after it (natural ranks are judged alike: RuleFacts' docstring)
        key = (size + naturals + wilds, old_naturals + naturals, old_wilds + wilds, going_out, mixed, not wilds)
        ok = self._added.get(key)
        if ok is None:
            if len(self._added) > _MEMO_LIMIT:
                self._added.clear()
            rules = self.rules
            before = MeldShape(rank, size, old_naturals, old_wilds, False)
            after = MeldShape(rank, size + naturals + wilds, old_naturals + naturals, old_wilds + wilds, False)
            breaks = meld_rule_breaks(after, rules, going_out=going_out)
            mixed = is_canasta(before, rules) and old_wilds == 0 and after.wilds > 0
            ok = all(waived_for_addition(b.field, wilds) for b in breaks) and not (
                mixed and not rules.canastas.wild_may_join_natural
            )
            self._added[key] = ok
        return ok

    def options(self, rank: int, low: int, high: int, jokers: int, twos: int) -> tuple[Group, ...]:
        """The groups of `rank` with low <= n <= high naturals and wilds within the budgets that a new meld may be
        (judged as if going out, as the canonical space is: oracle.rules.candidates), ascending by points."""
        key = (rank, low, high, jokers, twos)
        found = self._options.get(key)
        if found is None:
            if len(self._options) > _MEMO_LIMIT:
                self._options.clear()
            out = []
            rank_points = self.rank_points.get(rank, 0)
            for n in range(low, high + 1):
                for j in range(jokers + 1):
                    for t in range(twos + 1):
                        if (n or j or t) and self.new_ok(rank, n, j + t, True):
                            points = n * rank_points + j * self.joker_points + t * self.two_points
                            out.append(Group(rank, n, j, t, points))
            out.sort(key=lambda g: g.points)
            found = self._options[key] = tuple(out)
        return found

    def wild_counts(self, rank: int, naturals: int, most: int) -> tuple[int, ...]:
        """How many wilds (0..most) a new meld of `naturals` cards of `rank` may hold (judged as if going out)."""
        key = (rank, naturals, most)
        found = self._wilds.get(key)
        if found is None:
            if len(self._wilds) > _MEMO_LIMIT:
                self._wilds.clear()
            found = tuple(w for w in range(most + 1) if (naturals or w) and self.new_ok(rank, naturals, w, True))
            self._wilds[key] = found
        return found

    def canasta(self, size: int, black_threes: bool = False) -> bool:
        """A meld of `size` cards is a canasta (melds.is_canasta)."""
        table = self.black_canasta_table if black_threes else self.canasta_table
        if size < len(table):
            return table[size]
        return is_canasta(MeldShape(0, size, size, 0, black_threes), self.rules)


def side_melds(facts: RuleFacts, melds: tuple[Cards, ...]) -> tuple[dict[int, int], int]:
    """A side's melds (a valid state's): natural rank -> index of the side's meld of it (meld_index_of_rank), and
    the canastas among them (melds.canasta_count)."""
    meld_at: dict[int, int] = {}
    canastas = 0
    kinds = KIND
    table, black_table = facts.canasta_table, facts.black_canasta_table
    most = len(table)
    i = 0
    for meld in melds:
        rank = kinds[meld[0]] if meld else -1
        if rank < 0:  # a wild card first: the first card that is not wild names the meld's rank
            rank = next((kinds[c] for c in meld if kinds[c] >= 0), -1)
        size = len(meld)  # a valid state's melds are well formed (state_check)
        if rank == RANK_THREE:  # black threes (the only threes a meld holds)
            canastas += black_table[size] if size < most else facts.canasta(size, True)
        else:
            if rank >= 0 and rank not in meld_at:
                meld_at[rank] = i
            canastas += table[size] if size < most else facts.canasta(size)
        i += 1
    return meld_at, canastas


def end_ok(facts: RuleFacts, left: int, canastas: int, partner_no: bool, took_pile: bool) -> bool:
    """Mover.end_ok for a side with `canastas` after laying and a partner who said no (`partner_no`) or not."""
    if canastas < facts.required and left < facts.keep:
        return False  # MUST_KEEP_CARDS
    if not left:  # GO_OUT_WITHOUT_CANASTAS, GO_OUT_PARTNER_SAID_NO, GO_OUT_NEEDS_DISCARD
        return canastas >= facts.required and not partner_no and facts.meld_out
    return not (left == 1 and not took_pile and partner_no)  # GO_OUT_PARTNER_SAID_NO, one card left


_FACTS: dict[int, RuleFacts] = {}


_last: RuleFacts | None = None  #: the memo asked for last (read and replaced whole: safe across threads)


def rule_facts(rules: CompiledRules) -> RuleFacts:
    """The memo of one rule set (by identity: a compiled rule set is immutable)."""
    global _last
    facts = _last
    if facts is not None and facts.rules is rules:
        return facts
    facts = _FACTS.get(id(rules))
    if facts is None or facts.rules is not rules:
        if len(_FACTS) >= 64:
            _FACTS.clear()
        facts = _FACTS[id(rules)] = RuleFacts(rules)
    _last = facts
    return facts


class Mover:
    """The player to move in one position: hand by rank, the side's melds by rank, and the end-of-action checks."""

    __slots__ = (
        "_ctx",
        "by_rank",
        "canastas",
        "facts",
        "final_melds",
        "hand",
        "jokers",
        "meld_at",
        "minimum",
        "needs_initial",
        "ordered",
        "partner_no",
        "rules",
        "seat",
        "side",
        "side_index",
        "side_melds",
        "size",
        "state",
        "twos",
        "wild_points",
    )

    def __init__(self, rules: CompiledRules, state: GameState) -> None:
        self.rules = rules
        self.state = state
        facts = self.facts = rule_facts(rules)
        self._ctx: Ctx | None = None
        seat = self.seat = state.seat_to_move
        formed = state.side_of_seat
        self.side_index = formed[seat] if formed else seat % rules.sides  # facts.playing_side
        hand = self.hand = state.seats[seat].hand
        self.size = len(hand)
        by_rank: dict[int, list[int]] = {}  # a sorted hand gives the ranks in ascending order
        twos: list[int] = []
        jokers = 0
        kinds = KIND
        ordered = self.ordered = sorted(hand)  #: the hand, ascending
        for card in ordered:
            kind = kinds[card]
            if kind >= 0:
                same = by_rank.get(kind)
                if same is None:
                    by_rank[kind] = [card]
                else:
                    same.append(card)
            elif kind == _TWO:
                twos.append(card)
            elif kind == _JOKER:
                jokers += 1
        self.by_rank = by_rank  #: naturals (and black threes) by rank, ascending, the ranks ascending
        self.twos = twos
        self.jokers = jokers
        side: SideState = state.sides[self.side_index]
        self.side = side
        melds = self.side_melds = side.melds
        #: natural rank -> index of the side's meld of it (meld_index_of_rank), and the side's canastas now
        self.meld_at, self.canastas = side_melds(facts, melds)
        self.wild_points = facts.wild_points  #: a joker's and a two's points
        self.needs_initial = not melds  # minimum.needs_initial_meld
        #: minimum.side_minimum, read only for an initial meld
        self.minimum = (
            side_minimum(rules, state.sides[seat % rules.sides], state.hand_number) if not melds else 0
        )  # own total
        self.final_melds = state.phase == _FINAL_MELDS
        self.partner_no = state.turn.partner_answer == _NO

    @property
    def ctx(self) -> Ctx:
        """The rules' judging context (made on first use)."""
        ctx = self._ctx
        if ctx is None:
            ctx = self._ctx = make_ctx(self.rules, self.state)
        return ctx

    def group(self, rank: int, naturals: int, jokers: int, twos: int, *, onto: bool = False) -> Group:
        """A Group with its points."""
        facts = self.facts
        points = naturals * facts.rank_points.get(rank, 0) + jokers * facts.joker_points + twos * facts.two_points
        return Group(rank, naturals, jokers, twos, points, onto)

    def cards(self, groups: tuple[Group, ...], first_two: int = 0) -> tuple[MeldGroup, ...]:
        """The concrete groups: the lowest naturals of each rank, twos handed out in order from the hand's
        `first_two`-th, then the jokers (oracle.rules.candidates)."""
        out = []
        k = first_two
        by_rank, twos = self.by_rank, self.twos
        for g in groups:
            t = g.twos
            cards = (*by_rank.get(g.rank, ())[: g.naturals], *twos[k : k + t], *(JOKER,) * g.jokers)
            k += t
            out.append(MeldGroup(cards, g.rank if g.onto else None))
        return tuple(out)

    def target_shape(self, rank: int) -> Target:
        """The make-up of the side's meld of `rank` (one the side has): rank, size, naturals, wilds."""
        meld = self.side_melds[self.meld_at[rank]]
        count = meld.count  # a valid state's meld of a natural rank: its naturals and wilds (melds.meld_shape)
        wilds = count(1) + count(2) + count(3) + count(4) + count(JOKER)
        return (rank, len(meld), len(meld) - wilds, wilds)

    def going_out(self, left: int) -> bool:
        """A meld action leaving `left` cards goes out (play._meld: one card left to discard, none after a last
        red three)."""
        return not left or (left == 1 and not self.final_melds)

    def end_ok(self, left: int, canastas: int, *, took_pile: bool) -> bool:
        """The checks after laying: cards kept until the canastas (going_out.check_keep_cards), going out by
        melding (going_out.check_melding_out), and (a meld action) the partner's "no" with one card left
        (play.check_meld); the same conditions as those functions, without writing their violations."""
        return end_ok(self.facts, left, canastas, self.partner_no, took_pile)

    def waived(self, made_canasta: bool, going_out: bool, canastas: int, final_discard: bool = False) -> bool:
        """The minimum is waived for this meld action of new melds only: minimum.is_minimum_waived with the turn
        after it (melded, the canasta made), going_out.is_concealed; the same conditions as those functions."""
        facts = self.facts
        turn = self.state.turn
        if not (facts.waiver and turn.start == _DREW and going_out and canastas >= facts.required):
            return False
        if final_discard and not facts.concealed_with_final_discard:
            return False
        melded_before = self.state.seats[self.seat].melded_before
        return not melded_before and not turn.added_to_existing and (turn.made_canasta or made_canasta)
