"""A side's cards at the end of a hand as bounded Z3 counts, with its score item by item (hand_read reads one back)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import z3

from oracle.verify import model_family as fam
from oracle.verify import model_foot as foot
from oracle.verify.budget import in_z3_context
from oracle.verify.footprint import read_within
from oracle.verify.model import NATURAL_RANKS, RANK_CLASSES, WILD_MELD, Cond, Expr, MeldCounts, RuleModel, field_value
from oracle.verify.term_copy import translated

#: The score items, in the order a breakdown lists them ("red_threes": the threes' score, by count where
#: threes.count_values is set; "unfinished": melds short of a canasta that cost points; "held": ranks held).
ITEMS = ("melded", "canastas", "red_threes", "going_out", "in_hand", "unfinished", "held")


@dataclass(frozen=True)
class MeldSlot:
    """A meld the side may or may not have: its rank (or WILD_MELD), counts, and whether it is on the table."""

    rank: int
    counts: MeldCounts
    present: Cond


@dataclass(frozen=True)
class SideHand:
    """One side's table at the end of a hand as counts; `constraints` say which counts are possible."""

    slots: tuple[MeldSlot, ...]  #: natural-rank and wild-only melds
    black: MeldCounts  #: the black-three meld (naturals = black threes; all 0 when absent)
    black_present: Cond
    melded_twos: Expr  #: twos in all melds together
    melded_jokers: Expr  #: jokers in all melds together
    hand_naturals: dict[str, Expr]  #: value class -> natural cards of its ranks without a rank rule left in hand
    hand_twos: Expr
    hand_jokers: Expr
    hand_black_threes: Expr
    red_threes: Expr
    went_out: Expr  #: 0 no, 1 normally, 2 concealed
    has_meld: Cond
    canastas: Expr
    items: dict[str, Expr]  #: ITEMS -> signed points
    constraints: tuple[Cond, ...]
    hand_ranked: dict[int, Expr]  #: rank with a rank rule -> cards of it left in hand
    black_laid: Expr  #: black threes laid as bonus cards (threes.black_three_role BONUS; else 0)
    wild_jokers: tuple[Expr, ...]  #: jokers in each wild-only slot (in slot order)
    holders: dict[int, Expr]  #: rank with a held penalty -> players of the side holding held_min or more
    hand_red_threes: Expr  #: red threes left in the side's hands (threes.red_three_held; else the constant 0)

    @property
    def total(self) -> Expr:
        """The side's score for the hand."""
        return z3.Sum(list(self.items.values()))

    @property
    def hand_cards(self) -> Expr:
        """Cards left in the side's hands."""
        return z3.Sum(
            [
                *self.hand_naturals.values(),
                *self.hand_ranked.values(),
                self.hand_twos,
                self.hand_jokers,
                self.hand_black_threes,
                *([] if z3.is_int_value(self.hand_red_threes) else [self.hand_red_threes]),
            ]
        )

    @property
    def meld_count(self) -> Expr:
        """Melds on the table."""
        return z3.Sum([z3.If(p, 1, 0) for p in [s.present for s in self.slots] + [self.black_present]])


def slots_per_rank(model: RuleModel) -> tuple[int, int]:
    """How many melds of one natural rank, and of wild cards only, a side can have (bounded)."""
    m = model.spec.melds
    if m.one_meld_per_rank:
        natural = 1
    else:
        natural = max(1, min(4, model.rank_copies // max(1, m.min_naturals)))
    wild = 0
    if m.wild_only_melds:
        wild = 1 if m.one_meld_per_rank else max(1, min(4, model.wild_copies // max(1, m.min_size)))
    return natural, wild


#: The rule-set fields side_hand reads (tests/test_verify_sharing.py checks it with a recording view of every shipped
#: rule set): their values, with the side's name and kind, decide the side table's terms.
SIDE_FIELDS = (
    "players.side_size",
    "deck.packs",
    "deck.jokers",
    *(f"card_values.{f}" for f in ("joker", "two", "ace", "eight_to_king", "four_to_seven", "black_three")),
    *(f"card_values.{f}" for f in ("rank_values", "red_three")),
    "threes.red_three_held",
    "melds.one_open_meld_per_rank",
    "going_out.natural_canastas_required",
    "going_out.mixed_canastas_required",
    *(
        f"melds.{f}"
        for f in (
            "min_size",
            "min_naturals",
            "max_wilds",
            "wild_ratio",
            "max_size",
            "one_meld_per_rank",
            "wild_only_melds",
        )
    ),
    "canastas.min_size",
    "canastas.natural_bonus",
    "canastas.mixed_bonus",
    *(
        f"threes.{f}"
        for f in (
            "red_three_bonus",
            "all_red_threes_bonus",
            "red_threes_negative_without_meld",
            "all_red_threes_negative_without_meld",
            "black_three_meld_going_out_only",
            "black_three_meld_min",
            "black_three_meld_max",
            "black_three_meld_wilds",
        )
    ),
    "going_out.canastas_required",
    "going_out.bonus",
    "going_out.concealed_bonus",
    "going_out.unfinished_special_meld_blocks",
    "melds.rank_rules",
    *(
        f"canastas.{f}"
        for f in ("wild_bonus", "wild_all_twos_bonus", "wild_all_jokers_bonus", "wild_unfinished_penalty")
    ),
    *(f"threes.{f}" for f in ("black_three_role", "count_values", "minus_below_canastas", "plus_from_canastas")),
    "card_values.table_minus_below_canastas",
    "threes.canastas_for_red_threes",  # Samba: red threes score negative below this many canastas
)

_built: dict[str, SideHand] = {}  #: side tables built in _tables_context, by their fields' values, name and kind
_tables: list[z3.Context] = []  #: the one Z3 context the kept side tables are built in (made on first use)


def _tables_context() -> z3.Context:
    """The context every kept side table is built in: one for all, as each context z3 keeps costs its first use of
    about 16 MB of fresh memory (9 ms of page faults), where a context made and dropped reuses the last's."""
    if not _tables:
        _tables.append(z3.Context())
    return _tables[0]


def side_hand(model: RuleModel, name: str = "side", *, partnership: bool = False) -> SideHand:
    """Variables and constraints for one side's end-of-hand table under `model`'s rule set (built once per name).

    `partnership`: a side of two players formed during the hand (players.side_formation LONE_HAND): whoever of
    them goes out, the other may still hold cards, so the going-out side's hands need not be empty.

    Building the terms is slow in Python (a tenth of a second for five packs), so each table is built once per
    process for the values of SIDE_FIELDS, the name and the kind, and copied into the context of each model that
    asks (z3's translate, in C). The tables are built in one context kept for them (_tables_context), where
    nothing is solved: z3 makes a term of its operator and arguments alone, and a copy follows the structure of
    the terms copied, so a copy is the same terms whatever else that context holds or whoever asked first.
    """
    cached = model.memo.get(f"side_hand:{name}")
    if isinstance(cached, SideHand):
        return cached
    key = repr([field_value(model.spec, path) for path in SIDE_FIELDS] + [name, partnership])
    if key not in _built:
        with in_z3_context(_tables_context()):
            # built through a view that refuses a read beyond SIDE_FIELDS: the key would not tell such tables apart
            _built[key] = read_within(
                model.spec, SIDE_FIELDS, lambda spec: _build_side_hand(RuleModel(spec), name, partnership)
            )
    built = translated(_built[key], z3.main_ctx())
    model.memo[f"side_hand:{name}"] = built
    return built


def _build_side_hand(model: RuleModel, name: str, partnership: bool = False) -> SideHand:
    """Build side_hand's terms.

    Symmetries are removed so that optima are quick to prove: which wild card
    sits in which meld does not matter, so melded twos and jokers are counted
    once for all melds (each natural meld counts only its wilds, and `jokers`
    of a slot is 0; a wild-only meld's jokers are counted apart, as its bonus
    may depend on them); melds of one rank are in descending (naturals, wilds)
    order; ranks of one value class without a rank rule are interchangeable,
    so cards of them left in hand are counted per class and those ranks are
    ordered by (naturals, wilds) melded; ranks with a rank rule are counted
    one by one. Every table has a rearrangement that meets these orders, with
    the same score.
    """
    spec = model.spec
    per_rank, wild_slots = slots_per_rank(model)
    went_out = z3.Int(f"{name}.went_out")
    going_out = went_out >= 1
    cons: list[Cond] = [went_out >= 0, went_out <= 2]
    zero = z3.IntVal(0)
    slots: list[MeldSlot] = []
    for rank in NATURAL_RANKS:
        for k in range(per_rank):
            counts = MeldCounts(
                z3.Int(f"{name}.meld[{rank}][{k}].naturals"), z3.Int(f"{name}.meld[{rank}][{k}].wilds"), zero
            )
            slots.append(MeldSlot(rank, counts, counts.naturals >= 1))
    wild_jokers: list[Expr] = []
    for k in range(wild_slots):
        counts = MeldCounts(zero, z3.Int(f"{name}.wild_meld[{k}].wilds"), zero)
        slots.append(MeldSlot(WILD_MELD, counts, counts.wilds >= 1))
        joker = z3.Int(f"{name}.wild_meld[{k}].jokers")
        cons += [joker >= 0, joker <= counts.wilds]
        wild_jokers.append(joker)
    order = model.wild_copies + 1
    previous: dict[int, MeldCounts] = {}
    for slot in slots:
        m = slot.counts
        # a meld on the table may have been laid in the side's initial meld (a rank rule's wilds_in_initial_meld)
        legal = model.legal_wild_meld(m) if slot.rank == WILD_MELD else model.legal_natural_meld_at(m, slot.rank, True)
        cons += [z3.If(slot.present, legal, z3.And(m.naturals == 0, m.wilds == 0))]
        if slot.rank in previous:  # symmetry: melds of one rank in descending (naturals, wilds) order
            before = previous[slot.rank]
            cons.append(before.naturals * order + before.wilds >= m.naturals * order + m.wilds)
        previous[slot.rank] = m
    black = MeldCounts(z3.Int(f"{name}.black_meld.threes"), z3.Int(f"{name}.black_meld.wilds"), zero)
    black_present = black.naturals >= 1
    cons += [
        z3.If(black_present, model.legal_black_meld(black, going_out), z3.And(black.naturals == 0, black.wilds == 0))
    ]
    melded_twos, melded_jokers = z3.Int(f"{name}.melded_twos"), z3.Int(f"{name}.melded_jokers")
    hand_naturals = {c: z3.Int(f"{name}.hand_{c}") for c in RANK_CLASSES}
    # ranks with a rank rule or a price of their own (card_values.rank_values) are counted one by one
    apart = dict.fromkeys([*fam.ruled_ranks(spec), *foot.priced_ranks(spec)])
    hand_ranked = {r: z3.Int(f"{name}.hand_rank[{r}]") for r in apart}
    hand_twos, hand_jokers = z3.Int(f"{name}.hand_twos"), z3.Int(f"{name}.hand_jokers")
    hand_black = z3.Int(f"{name}.hand_black_threes")
    red = z3.Int(f"{name}.red_threes")
    black_laid = z3.Int(f"{name}.black_threes_laid")
    counted = [*hand_naturals.values(), *hand_ranked.values(), hand_twos, hand_jokers, hand_black, red, black_laid]
    # threes.red_three_held: red threes are never laid, only held (each costs card_values.red_three); elsewhere no
    # term of them is added, so that the other rule sets' queries stay as they were
    held_red = foot.red_threes_held(spec)
    hand_red = z3.Int(f"{name}.hand_red_threes") if held_red else z3.IntVal(0)
    if held_red:
        counted.append(hand_red)
        cons.append(red == 0)
    cons += [c >= 0 for c in [*counted, melded_twos, melded_jokers]]
    if fam.black_threes_bonus(spec):  # laid at once like red threes: never melded, never held
        cons += [black.naturals == 0, hand_black == 0]
    else:
        cons.append(black_laid == 0)
    wild_twos = [
        s.counts.wilds - j for s, j in zip([s for s in slots if s.rank == WILD_MELD], wild_jokers, strict=True)
    ]
    cons += [z3.Sum([*wild_jokers, zero]) <= melded_jokers, z3.Sum([*wild_twos, zero]) <= melded_twos]
    cons.append(melded_twos + melded_jokers == z3.Sum([s.counts.wilds for s in slots] + [black.wilds]))
    for value_class in RANK_CLASSES:
        keys = []
        free = fam.free_ranks(spec, value_class)
        for r in free:
            naturals = z3.Sum([s.counts.naturals for s in slots if s.rank == r])
            cons.append(naturals <= model.rank_copies)
            keys.append(
                (naturals, naturals * (model.wild_copies + 1) + z3.Sum([s.counts.wilds for s in slots if s.rank == r]))
            )
        cons += [a[1] >= b[1] for a, b in itertools.pairwise(keys)]
        melded_free = fam.sum_or_zero([n for n, _ in keys])
        cons.append(melded_free + hand_naturals[value_class] <= model.rank_copies * len(free))
    for r, held in hand_ranked.items():
        cons.append(z3.Sum([s.counts.naturals for s in slots if s.rank == r]) + held <= model.rank_copies)
    cons += [
        melded_twos + hand_twos <= model.two_copies,
        melded_jokers + hand_jokers <= model.joker_copies,
        black.naturals + hand_black + black_laid <= model.black_three_copies,
        (red + hand_red if held_red else red) <= model.red_three_copies,
    ]
    for rank in NATURAL_RANKS:  # melds.one_open_meld_per_rank: one open book of a rank at most
        cons += foot.open_books(spec, [(s.present, s.counts) for s in slots if s.rank == rank])

    def bounded(label: str, term: Expr, values: list[int]) -> Expr:
        # A named variable for an If-valued term, with its range stated: without the range the
        # arithmetic relaxation knows nothing of the term until every branch is decided (slow optima).
        var = z3.Int(f"{name}.{label}")
        cons.extend([var == term, var >= min(values), var <= max(values)])
        return var

    c, t, g, v = spec.canastas, spec.threes, spec.going_out, spec.card_values
    is_canasta = [
        bounded(f"canasta[{i}]", z3.If(z3.And(s.present, model.is_canasta(s.counts)), 1, 0), [0, 1])
        for i, s in enumerate(slots)
    ]
    bonus_values = [0, c.natural_bonus, c.mixed_bonus, c.wild_bonus, c.wild_all_twos_bonus, c.wild_all_jokers_bonus]
    bonus_values += [row.canasta_bonus for row in spec.melds.rank_rules]
    jokers_of = dict(zip([i for i, s in enumerate(slots) if s.rank == WILD_MELD], wild_jokers, strict=True))
    bonuses = [
        bounded(f"bonus[{i}]", model.canasta_bonus(s.counts, s.rank, jokers_of.get(i)), bonus_values)
        for i, s in enumerate(slots)
    ]
    canastas = z3.Sum(is_canasta)
    has_meld = z3.Or([s.present for s in slots] + [black_present])
    cons.append(z3.Implies(going_out, canastas >= model.required))
    if foot.has_quotas(spec):  # going_out.natural_canastas_required and mixed_canastas_required
        natural = z3.Sum([z3.If(z3.And(s.present, model.is_natural_canasta(s.counts)), 1, 0) for s in slots])
        cons.append(z3.Implies(going_out, foot.books_ok(spec, natural, canastas - natural)))
    unfinished_terms = []
    for i, s in enumerate(slots):
        slot_rank = None if s.rank == WILD_MELD else s.rank
        done = is_canasta[i] == 1
        unfinished_terms.append(fam.unfinished_penalty(spec, s.counts, slot_rank, done))
        cons.append(z3.Implies(going_out, z3.Not(fam.blocks_going_out(spec, s.counts, slot_rank, done))))
    penalties = [-c.wild_unfinished_penalty, *[-row.unfinished_penalty for row in spec.melds.rank_rules]]
    worst = len(slots) * max([0, *[abs(p) for p in penalties]])  # both signs: score-is-sum checks the sign
    unfinished = bounded("unfinished", fam.sum_or_zero(unfinished_terms), [-worst, worst])
    if t.count_values:
        top = 2 * max(t.count_values)
        red_score = bounded("red_three_score", fam.threes_by_count(spec, red, black_laid, canastas), [-top, top])
    else:
        worst_red = max(t.all_red_threes_bonus, model.red_three_copies * t.red_three_bonus)
        red_score = bounded(
            "red_three_score",
            model.red_three_score(red, model.red_threes_count(has_meld, canastas)),
            [-worst_red, worst_red],
        )
    bonus = bounded("going_out_bonus", model.going_out_bonus(went_out), [0, g.bonus, g.concealed_bonus])
    in_hand = z3.Sum(
        [n * model.class_value(c) for c, n in hand_naturals.items()]
        + [n * model.rank_value(r) for r, n in hand_ranked.items()]
        + [hand_twos * v.two, hand_jokers * v.joker, hand_black * v.black_three]
        + ([hand_red * v.red_three] if held_red else [])
    )
    all_held = [*hand_naturals.values(), *hand_ranked.values(), hand_twos, hand_jokers, hand_black]
    all_held += [hand_red] if held_red else []
    if spec.players.side_size == 1 and not partnership:  # a player alone who went out holds no card
        cons.append(z3.Implies(going_out, z3.Sum(all_held) == 0))
    # the players who may hold cards: one of a side that went out holds none (a partnership formed during the
    # hand excepted, see side_hand)
    players = z3.IntVal(spec.players.side_size)
    if spec.players.side_size > 1 and not partnership:
        players = z3.If(going_out, spec.players.side_size - 1, spec.players.side_size)
    holders: dict[int, Expr] = {}
    held_terms = []
    for r in fam.held_ranks(spec):
        holders[r] = z3.Int(f"{name}.holders[{r}]")
        term, held_cons = fam.held_penalty(spec, r, hand_ranked[r], players, holders[r])
        cons += held_cons
        held_terms.append(term)
    worst_held = sum(abs(row.held_penalty) for row in spec.melds.rank_rules) * spec.players.side_size
    held_score = bounded("held", fam.sum_or_zero(held_terms), [-worst_held, worst_held])
    melded_points = z3.Sum(
        [s.counts.naturals * model.rank_value(s.rank) for s in slots if s.rank != WILD_MELD]
        + [melded_twos * v.two, melded_jokers * v.joker, black.naturals * v.black_three]
    )
    melded = z3.If(fam.melds_minus(spec, canastas), -melded_points, melded_points)
    items = {
        "melded": melded,
        "canastas": z3.Sum(bonuses),
        "red_threes": red_score,
        "going_out": bonus,
        "in_hand": -in_hand,
        "unfinished": unfinished,
        "held": held_score,
    }
    return SideHand(
        tuple(slots),
        black,
        black_present,
        melded_twos,
        melded_jokers,
        hand_naturals,
        hand_twos,
        hand_jokers,
        hand_black,
        red,
        went_out,
        has_meld,
        canastas,
        items,
        tuple(cons),
        hand_ranked,
        black_laid,
        tuple(wild_jokers),
        holders,
        hand_red,
    )
