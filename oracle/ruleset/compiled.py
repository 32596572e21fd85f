"""The compiled, immutable form of a resolved RuleSet: a typed, frozen view of every field the engine reads
(one small dataclass per section, oracle.ruleset.sections, named as in the schema: ``rules.melds.max_wilds`` is
the rule-set field ``melds.max_wilds``), plus the tables derived from it. Compile once, use per request.

The rules and games layers read rule-set values only through this view; ``spec`` (the resolved message) is
kept for the service (GetRuleSet) and for oracle.verify, which reads fields generically by path.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from oracle.api.v1 import ruleset_pb2
from oracle.model.cards import (
    ALL_CARDS,
    JOKER,
    RANK_ACE,
    RANK_EIGHT,
    RANK_FOUR,
    RANK_SEVEN,
    RANK_TWO,
    deck,
    is_black_three,
    is_red_three,
    rank_of,
)
from oracle.ruleset.sections import (
    AfterLastCard,
    AskPartner,
    BlackThreeRole,
    BonusCardRules,
    CanastaRules,
    CardValueRules,
    DealRules,
    DeckRules,
    DiscardPileRules,
    FootRules,
    GameRules,
    GoingOutRules,
    InitialMeldRules,
    LastRedThree,
    MeldRules,
    MustTakePile,
    RankRule,
    RunRules,
    SideFormation,
    StockExhaustionRules,
    ThreesRules,
    TurnRules,
    WildRatio,
)


@dataclass(frozen=True, slots=True)
class CompiledRules:
    """A resolved rule set: its typed view, per section, and the tables derived from it. Never mutate `spec`."""

    spec: ruleset_pb2.RuleSet  #: the resolved message (for the service and oracle.verify; the engine reads the view)
    id: str  #: rule-set id
    seats: int  #: players.seats
    side_size: int  #: players.side_size
    side_formation: SideFormation  #: players.side_formation
    deck: DeckRules
    deal: DealRules
    turn: TurnRules
    card_values: CardValueRules
    melds: MeldRules
    canastas: CanastaRules
    initial_meld: InitialMeldRules
    discard_pile: DiscardPileRules
    threes: ThreesRules
    going_out: GoingOutRules
    stock_exhaustion: StockExhaustionRules
    bonus_cards: BonusCardRules
    runs: RunRules
    game: GameRules
    foot: FootRules
    # Derived tables.
    sides: int  #: number of sides
    rank_rule_at: tuple[RankRule | None, ...]  #: by rank index (0..13): melds.rank_rules' row for it, or None
    bonus_threes: frozenset[int]  #: cards laid at once as bonus cards: red threes, and black ones as BONUS
    family: bool  #: sets a meld or discard rule of oracle.rules.family_checks (the classic games set none)
    family_scoring: bool  #: prices canastas or unfinished melds as oracle.rules.scoring_family does
    #: the direct move generator models every rule the rule set sets; where it does not (the rules of
    #: oracle.rules.family_checks, keeping only the discard, an ask limit, melds of wild cards) legal moves are the
    #: referee's judgement of each candidate of the canonical space
    direct_movegen: bool
    deck_size: int  #: cards in the whole deck
    card_points: tuple[int, ...]  #: points of each card number (index 0 unused; red threes 0)
    cites: dict[str, tuple[tuple[str, str], ...]]  #: field or section path -> (source, section) citations
    deck_counts: Counter[int]  #: copies of each card in the deck (read only)
    sorted_deck: tuple[int, ...]  #: every card of the deck, sorted (for the conservation check)

    def seats_of_side(self, side: int) -> list[int]:
        """The seats of one side, in seat order."""
        return list(range(side, self.seats, self.sides))

    def copies_of(self, card: int) -> int:
        """How many copies of a card the deck holds."""
        return self.deck.jokers if card == JOKER else self.deck.packs

    def minimum_for_hand(self, hand_number: int) -> int | None:
        """The minimum in the game's `hand_number`th hand (1-based) under initial_meld.minimum_by_hand (the last entry
        holds for later hands), or None where the minimum goes by the running total."""
        return self.minimum_for(0, hand_number)[0] if self.initial_meld.minimum_by_hand else None

    def minimum_for(self, running_total: int, hand_number: int) -> tuple[int, int | None, int | None]:
        """The minimum of a side's initial meld in the game's `hand_number`th hand (1-based) at `running_total`: by
        the hand's number under initial_meld.minimum_by_hand, else by the table; with the table row's from_score
        (None: below the table, or by hand) and the hand whose entry applied (None: by the table)."""
        by_hand = self.initial_meld.minimum_by_hand
        if by_hand:
            entry = min(max(hand_number, 1), len(by_hand))
            return by_hand[entry - 1], None, entry
        minimum, row = self.minimum_initial_meld(running_total)
        return minimum, row, None

    def minimum_initial_meld(self, running_total: int) -> tuple[int, int | None]:
        """The minimum for a running total, and the from_score of the row used (None: below the table)."""
        table = self.initial_meld
        minimum, row = table.minimum_below_table, None
        if table.minimum_by_hand:  # by hand number: the caller uses minimum_for_hand
            return minimum, row
        for from_score, row_minimum in table.thresholds:
            if running_total < from_score:
                break
            minimum, row = row_minimum, from_score
        return minimum, row


def rank_index(natural_rank: int) -> int:
    """The engine's rank index (four = 2) of a NaturalRank enum value (NATURAL_RANK_FOUR = 4)."""
    return natural_rank - 2


def _family(spec: ruleset_pb2.RuleSet) -> bool:
    """Whether the rule set sets any of the meld and discard rules oracle.rules.family_checks judges."""
    m, d, im = spec.melds, spec.discard_pile, spec.initial_meld
    return bool(
        m.rank_rules
        or m.wilds_after_opening_min_naturals
        or m.open_wild_meld_blocks_wilds
        or d.closed_rank_dead
        or d.no_wild_on_empty_pile
        or d.wild_discard_last_resort
        or im.natural_meld_required
        or im.no_mixed_canasta
        or not im.pile_top_counts
        or spec.going_out.unfinished_special_meld_blocks
    )


def _card_points(values: CardValueRules, *, held_red_threes: bool) -> tuple[int, ...]:
    points = [0] * (max(ALL_CARDS) + 1)
    by_rank = dict(values.rank_values)
    for card in ALL_CARDS:
        rank = rank_of(card)
        if card == JOKER:
            points[card] = values.joker
        elif rank == RANK_TWO:
            points[card] = values.two
        elif rank == RANK_ACE:
            points[card] = values.ace
        elif RANK_EIGHT <= rank < RANK_ACE:
            points[card] = values.eight_to_king
        elif RANK_FOUR <= rank <= RANK_SEVEN:
            points[card] = values.four_to_seven
        elif is_black_three(card):
            points[card] = values.black_three
        elif is_red_three(card):
            # bonus cards, scored under `threes`, never melded or held; or held to the end (threes.red_three_held)
            points[card] = values.red_three if held_red_threes else 0
        if card != JOKER and rank in by_rank:
            points[card] = by_rank[rank]
    return tuple(points)


def compile_rules(spec: ruleset_pb2.RuleSet) -> CompiledRules:
    """Derive the typed view and the engine's tables from a resolved, validated rule set.

    ValueError if an enum field holds a number the schema does not define (validation refuses those).
    """
    frozen = ruleset_pb2.RuleSet()
    frozen.CopyFrom(spec)
    seats, side_size = frozen.players.seats, frozen.players.side_size
    d, t, m, c, im = frozen.deal, frozen.threes, frozen.melds, frozen.canastas, frozen.initial_meld
    p, g, v = frozen.discard_pile, frozen.going_out, frozen.card_values
    card_values = CardValueRules(
        v.joker,
        v.two,
        v.ace,
        v.eight_to_king,
        v.four_to_seven,
        v.black_three,
        v.table_minus_below_canastas,
        tuple((rank_index(row.rank), row.points) for row in v.rank_values),
        v.red_three,
    )
    rank_rules = tuple(
        RankRule(
            rank_index(row.rank),
            row.max_wilds,
            row.wilds_in_initial_meld,
            row.canasta_bonus,
            row.unfinished_penalty,
            row.held_min,
            row.held_penalty,
            row.no_discard_on_empty_pile,
        )
        for row in frozen.melds.rank_rules
    )
    rank_rule_at: list[RankRule | None] = [None] * 14
    for rank_rule in rank_rules:
        rank_rule_at[rank_rule.rank] = rank_rule
    b, t_, r = frozen.bonus_cards, frozen.threes, frozen.runs
    packs, jokers = frozen.deck.packs, frozen.deck.jokers
    return CompiledRules(
        spec=frozen,
        id=frozen.id,
        seats=seats,
        side_size=side_size,
        side_formation=SideFormation(frozen.players.side_formation),
        deck=DeckRules(packs, jokers),
        deal=DealRules(
            d.hand_size,
            d.upcard_cover_wild,
            d.upcard_cover_red_three,
            d.upcard_cover_black_three,
            d.upcard_cover_repeats,
            d.upcard,
            d.upcard_reject_to_stock,
        ),
        turn=TurnRules(frozen.turn.draw_count, frozen.turn.short_stock_draws_remaining),
        card_values=card_values,
        melds=MeldRules(
            m.min_size,
            m.min_naturals,
            m.max_wilds,
            WildRatio(m.wild_ratio),
            m.max_size,
            m.one_meld_per_rank,
            m.wild_only_melds,
            m.wilds_after_opening_min_naturals,
            m.open_wild_meld_blocks_wilds,
            rank_rules,
            m.combine_same_rank,
            m.one_open_meld_per_rank,
        ),
        canastas=CanastaRules(
            c.min_size,
            c.natural_bonus,
            c.mixed_bonus,
            c.wild_may_join_natural,
            c.wild_bonus,
            c.wild_all_twos_bonus,
            c.wild_all_jokers_bonus,
            c.wild_unfinished_penalty,
            c.wild_may_join_canasta,
        ),
        initial_meld=InitialMeldRules(
            im.minimum_below_table,
            tuple((row.from_score, row.minimum) for row in im.thresholds),
            im.waived_for_concealed_going_out,
            im.natural_meld_required,
            im.no_mixed_canasta,
            im.pile_top_counts,
            tuple(im.minimum_by_hand),
        ),
        discard_pile=DiscardPileRules(
            p.take_limit,
            p.unfrozen_natural_and_wild,
            p.unfrozen_onto_existing_meld,
            p.frozen_by_wild,
            p.frozen_by_upcard,
            p.frozen_by_black_three,
            p.frozen_until_initial_meld,
            p.wild_top_blocks,
            p.black_three_top_blocks,
            p.one_card_hand_no_one_card_pile,
            p.frozen_take_wilds,
            p.closed_rank_dead,
            p.no_wild_on_empty_pile,
            p.wild_discard_last_resort,
            p.onto_meld_below_canasta_only,
        ),
        threes=ThreesRules(
            t.red_three_bonus,
            t.all_red_threes_bonus,
            t.red_threes_negative_without_meld,
            t.all_red_threes_negative_without_meld,
            t.red_three_replaced,
            t.red_three_from_pile_replaced,
            t.black_three_meld_going_out_only,
            t.black_three_meld_min,
            t.black_three_meld_max,
            t.black_three_meld_wilds,
            t.black_three_meld_last_cards,
            BlackThreeRole(t_.black_three_role),
            tuple(t_.count_values),
            t_.minus_below_canastas,
            t_.plus_from_canastas,
            t_.canastas_for_red_threes,
            t_.red_three_held,
        ),
        going_out=GoingOutRules(
            g.canastas_required,
            g.min_hand_after_meld_without_canastas,
            g.bonus,
            g.concealed_bonus,
            g.discard_optional,
            AskPartner(g.ask_partner),
            g.cannot_go_out_after_yes_penalty,
            g.concealed_with_final_discard,
            g.ask_partner_max_per_hand,
            g.unfinished_special_meld_blocks,
            g.natural_canastas_required,
            g.mixed_canastas_required,
            g.partner_foot_required,
        ),
        stock_exhaustion=StockExhaustionRules(
            MustTakePile(frozen.stock_exhaustion.must_take_pile),
            LastRedThree(frozen.stock_exhaustion.last_red_three),
            AfterLastCard(frozen.stock_exhaustion.after_last_card),
        ),
        bonus_cards=BonusCardRules(
            b.first_side, b.later_side, b.not_with_pile_take, b.none_when_stock_at_most, b.keep_only_discard
        ),
        runs=RunRules(
            r.min_size,
            r.max_size,
            rank_index(r.lowest_rank),
            rank_index(r.highest_rank),
            r.canasta_size,
            r.canasta_bonus,
            r.pile_top_alone,
        ),
        game=GameRules(frozen.game.target_score, frozen.game.hands),
        foot=FootRules(frozen.foot.size, frozen.foot.continue_after_melding_out, frozen.foot.unplayed_counts),
        sides=seats // side_size,
        rank_rule_at=tuple(rank_rule_at),
        family=_family(frozen),
        direct_movegen=not (
            _family(frozen)
            or frozen.bonus_cards.keep_only_discard
            or frozen.going_out.ask_partner_max_per_hand
            or frozen.melds.wild_only_melds
            or frozen.runs.min_size
            or not frozen.canastas.wild_may_join_canasta
            or not frozen.melds.one_meld_per_rank
            or frozen.foot.size > 0
            or frozen.threes.red_three_held
            or frozen.going_out.ask_partner == ruleset_pb2.ASK_PARTNER_REQUIRED_BINDING
            or bool(frozen.going_out.natural_canastas_required or frozen.going_out.mixed_canastas_required)
        ),
        family_scoring=bool(
            frozen.melds.rank_rules or frozen.canastas.wild_bonus or frozen.canastas.wild_unfinished_penalty
        ),
        bonus_threes=frozenset(
            c
            for c in ALL_CARDS
            if (is_red_three(c) and not t_.red_three_held)
            or (is_black_three(c) and t_.black_three_role == ruleset_pb2.BLACK_THREE_ROLE_BONUS)
        ),
        deck_size=52 * packs + jokers,
        card_points=_card_points(card_values, held_red_threes=t_.red_three_held),
        cites=_citations(frozen),
        deck_counts=Counter(deck(packs, jokers)),
        sorted_deck=tuple(sorted(deck(packs, jokers))),
    )


def _citations(spec: ruleset_pb2.RuleSet) -> dict[str, tuple[tuple[str, str], ...]]:
    """For every field and section path, the citations of the note that covers it.

    A field uses its own note, else its section's; a section without a note of
    its own uses the first note on one of its fields.
    """
    notes = {n.field: tuple((c.source, c.section) for c in n.cite) for n in spec.rules}
    table: dict[str, tuple[tuple[str, str], ...]] = {}
    for section in spec.DESCRIPTOR.fields:
        if section.message_type is None or section.name == "rules":
            continue
        fields = [f"{section.name}.{f.name}" for f in section.message_type.fields]
        own = notes.get(section.name) or next((notes[f] for f in fields if f in notes), ())
        table[section.name] = own
        for path in fields:
            table[path] = notes.get(path) or notes.get(section.name) or own
    return table
